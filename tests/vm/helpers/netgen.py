#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Traffic for the network scenarios: known numbers of messages of one size.

  netgen.py server PROTO ADDR PORT N SIZE [MODE]
      prints "ready PID" once it listens; serves one connection (TCP) or N
      datagrams (UDP); MODE rr (default): every request of SIZE bytes is
      answered with SIZE bytes; burst: requests are only read.
  netgen.py client PROTO ADDR PORT[,PORT..] N[,N..] SIZE [MODE] [GOFILE]
      one thread per port, each sends N requests of SIZE bytes on its own
      socket (rr: waits for each answer); prints "pid PID", then per thread
      "tid TID PORT"; with GOFILE the threads wait for that file to exist
      before the first request.

TCP sockets have TCP_NODELAY.  At the end every TCP end prints
"retrans PORT K": the segments it retransmitted (tcpi_total_retrans), so a
test can account for them exactly instead of tolerating them.
"""
import os
import socket
import struct
import sys
import threading
import time


def recv_exact(c, k):
    b = b""
    while len(b) < k:
        d = c.recv(k - len(b))
        if not d:
            raise EOFError("peer closed after %d of %d bytes" % (len(b), k))
        b += d
    return b


def total_retrans(s):
    # struct tcp_info: 8 bytes of u8 fields, then u32s; tcpi_total_retrans
    # is the 24th u32 (offset 100) on every kernel since 2.6
    info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return struct.unpack_from("I", info, 100)[0]


def say(*a):
    print(*a, flush=True)


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def kind(proto):
    return socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM


def server(proto, addr, port, n, size, mode):
    s = socket.socket(family(addr), kind(proto))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    if proto == "udp":
        say("ready", os.getpid())
        for _ in range(n):
            d, a = s.recvfrom(65536)
            if len(d) != size:
                raise SystemExit("datagram of %d bytes, not %d" % (len(d), size))
            if mode == "rr":
                s.sendto(d, a)
        return
    s.listen(1)
    say("ready", os.getpid())
    c, _ = s.accept()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for _ in range(n):
        d = recv_exact(c, size)
        if mode == "rr":
            c.sendall(d)
    c.recv(1)  # the client's close
    say("retrans", port, total_retrans(c))


def flow(proto, addr, port, n, size, mode, go):
    s = socket.socket(family(addr), kind(proto))
    s.connect((addr, port))
    if proto == "tcp":
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    say("tid", threading.get_native_id(), port)
    while go and not os.path.exists(go):
        time.sleep(0.02)
    for _ in range(n):
        s.send(b"q" * size)
        if mode == "rr":
            if proto == "tcp":
                recv_exact(s, size)
            else:
                s.recv(65536)
    if proto == "tcp":
        if mode == "burst":
            # everything sent was acknowledged before the count is read
            s.shutdown(socket.SHUT_WR)
            s.recv(1)
        say("retrans", port, total_retrans(s))
    s.close()


def client(proto, addr, ports, ns, size, mode, go):
    say("pid", os.getpid())
    errors = []

    def run(*a):
        try:
            flow(*a)
        except Exception as e:  # noqa: BLE001 - reported, exit code 1
            errors.append(e)

    ts = [threading.Thread(target=run, args=(proto, addr, p, n, size, mode, go))
          for p, n in zip(ports, ns)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise SystemExit("client: %s" % errors[0])


def main(argv):
    if len(argv) < 7 or argv[1] not in ("server", "client") or argv[2] not in ("tcp", "udp"):
        raise SystemExit(__doc__)
    role, proto, addr = argv[1:4]
    mode = argv[7] if len(argv) > 7 else "rr"
    if mode not in ("rr", "burst"):
        raise SystemExit("mode %s: rr or burst" % mode)
    if role == "server":
        server(proto, addr, int(argv[4]), int(argv[5]), int(argv[6]), mode)
    else:
        ports = [int(p) for p in argv[4].split(",")]
        ns = [int(n) for n in argv[5].split(",")]
        if len(ports) != len(ns):
            raise SystemExit("as many counts as ports")
        client(proto, addr, ports, ns, int(argv[6]), mode,
               argv[8] if len(argv) > 8 else None)


if __name__ == "__main__":
    main(sys.argv)
