#!/usr/bin/env python3
# Host side of the guest's network tests: a TCP client of the guest's
# server on 127.0.0.1:PORT (QEMU's port forward into virtio-net).  Each
# connection starts with one instruction line from the guest (see lib.sh):
#   rr N SIZE     N request/response rounds of SIZE bytes, TCP_NODELAY
#   stream BYTES  send BYTES bytes, then close
#   mcget N M     the guest closes this connection and starts a memcached on
#                 the same port: N memcached gets (keys k0..k{M-1}, round
#                 robin) on M new connections, each opened again until its
#                 first get is answered (the port forward accepts before
#                 the guest listens), then closed
# Bounded: exits after DEADLINE seconds or when its parent goes away.
import os, socket, sys, time

port = int(sys.argv[1])
deadline = time.time() + float(sys.argv[2] if len(sys.argv) > 2 else 3600)
parent = os.getppid()

def mc_get(s, key):
    s.sendall(b"get %s\r\n" % key)
    buf = b""
    while not buf.endswith(b"END\r\n"):
        d = s.recv(4096)
        if not d:
            raise EOFError
        buf += d

def mcget(n, m):
    cs = []
    done = 0
    for i in range(m):
        while True:
            c = socket.create_connection(("127.0.0.1", port), timeout=5)
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                mc_get(c, b"k%d" % i)
                break
            except (OSError, EOFError):
                c.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        cs.append(c)
        done += 1
    for i in range(done, n):
        mc_get(cs[i % m], b"k%d" % (i % m))
    for c in cs:
        c.close()

def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        d = s.recv(n - len(buf))
        if not d:
            raise EOFError
        buf += d
    return buf

while time.time() < deadline and os.getppid() == parent:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        time.sleep(0.2)
        continue
    try:
        # Wait for the instruction as long as QEMU keeps the connection:
        # its port forward accepts at once and connects to the guest in
        # the background, retrying its SYN with backoff while the guest's
        # NIC is down (up to 12 s apart, 75 s in all).  A SYN that finds
        # the guest's server listening may come late; a client that had
        # given up by then (it used to after 30 s) closed with the
        # instruction unread, and the guest's server got a reset.
        s.settimeout(1)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        line = b""
        while not line.endswith(b"\n"):
            try:
                d = s.recv(1)
            except socket.timeout:
                if time.time() > deadline or os.getppid() != parent:
                    raise
                continue
            if not d:
                raise EOFError
            line += d
        s.settimeout(30)
        cmd = line.decode().split()
        if cmd[0] == "rr":
            n, size = int(cmd[1]), int(cmd[2])
            for _ in range(n):
                s.sendall(b"q" * size)
                recv_exact(s, size)
        elif cmd[0] == "mcget":
            s.close()
            mcget(int(cmd[1]), int(cmd[2]))
            continue
        elif cmd[0] == "stream":
            left = int(cmd[1])
            while left > 0:
                k = min(left, 65536)
                s.sendall(b"s" * k)
                left -= k
        s.shutdown(socket.SHUT_WR)
        while s.recv(65536):
            pass
    except (OSError, EOFError, ValueError, IndexError):
        time.sleep(0.2)
    finally:
        s.close()
