#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""TCP connection set-up traffic for the tcpconnect/tcpaccept scenarios.

  tcpconn.py connect HOST PORT N [--parallel] [--timeout S]
      N connects (one after the other, or all at once with --parallel),
      each closed at once; prints one JSON line: how many succeeded and
      failed by errno name, and the mean time connect() took (s).
  tcpconn.py serve HOST PORT SECONDS
      a listener that accepts and closes everything for SECONDS.
  tcpconn.py pair HOST PORT N
      serve and connect in one process (loopback).
  tcpconn.py lines P4 N4 P6 N6 PC M
      a listener on 127.0.0.1:P4 and one on [::1]:P6 (listen 128), each
      accepted and closed by a second thread; N4 and N6 connects to them
      from the main thread, then M to 127.0.0.1:PC (closed); prints JSON:
      the process's pid and comm, the successful connects' local ports.
  tcpconn.py backlog HOST PORT BACKLOG N WAIT
      a listener with listen(BACKLOG) that does not accept while N clients
      connect (50 ms apart), then WAIT s after the last one started
      accepts them all; prints JSON: ListenOverflows/ListenDrops deltas of
      the namespace, and per connection the time from its client's
      connect() return to the server's accept() return (CLOCK_MONOTONIC).
"""
import errno
import json
import os
import socket
import sys
import threading
import time


def family(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def one_connect(host, port, timeout, res, lock):
    s = socket.socket(family(host), socket.SOCK_STREAM)
    s.settimeout(timeout)
    t0 = time.monotonic()
    try:
        s.connect((host, port))
        name = "ok"
    except OSError as e:
        name = errno.errorcode.get(e.errno, str(e.errno)) if e.errno else "timeout"
    dt = time.monotonic() - t0
    s.close()
    with lock:
        res[name] = res.get(name, 0) + 1
        if name == "ok":
            res["ok_time"] = res.get("ok_time", 0.0) + dt


def connect(host, port, n, parallel, timeout):
    res, lock = {}, threading.Lock()
    if parallel:
        ts = [threading.Thread(target=one_connect,
                               args=(host, port, timeout, res, lock))
              for _ in range(n)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    else:
        for _ in range(n):
            one_connect(host, port, timeout, res, lock)
    if res.get("ok"):
        res["ok_mean"] = res.pop("ok_time") / res["ok"]
    return res


def listener(host, port, backlog):
    s = socket.socket(family(host), socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, port))
    s.listen(backlog)
    return s


def serve_loop(s, until):
    s.settimeout(0.2)
    while time.monotonic() < until:
        try:
            c, _ = s.accept()
            c.close()
        except socket.timeout:
            pass


def netstat(key):
    with open("/proc/net/netstat") as f:
        lines = f.read().split("\n")
    for i in range(0, len(lines) - 1, 2):
        names, vals = lines[i].split(), lines[i + 1].split()
        if names and names[0] == "TcpExt:":
            return int(vals[names.index(key)])
    return 0


def lines(p4, n4, p6, n6, pc, m):
    ls = [listener("127.0.0.1", p4, 128), listener("::1", p6, 128)]
    want = n4 + n6

    def srv():
        for s in ls:
            s.settimeout(30)
        got = 0
        for s, n in zip(ls, (n4, n6)):
            for _ in range(n):
                c, _ = s.accept()
                c.close()
                got += 1
        assert got == want

    t = threading.Thread(target=srv)
    t.start()
    sports = []
    for host, port, n in (("127.0.0.1", p4, n4), ("::1", p6, n6)):
        for _ in range(n):
            c = socket.socket(family(host), socket.SOCK_STREAM)
            c.connect((host, port))
            sports.append(c.getsockname()[1])
            c.close()
    t.join()
    refused = 0
    for _ in range(m):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            c.connect(("127.0.0.1", pc))
        except ConnectionRefusedError:
            refused += 1
        c.close()
    for s in ls:
        s.close()
    with open("/proc/self/comm") as f:
        comm = f.read().strip()
    return {"pid": os.getpid(), "comm": comm, "sports": sports,
            "refused": refused}


def backlog(host, port, bl, n, wait):
    s = listener(host, port, bl)
    o0, d0 = netstat("ListenOverflows"), netstat("ListenDrops")
    conn_t = [None] * n
    socks = [None] * n

    def client(i):
        c = socket.socket(family(host), socket.SOCK_STREAM)
        c.settimeout(30)
        c.connect((host, port))
        conn_t[i] = time.monotonic()
        c.sendall(bytes([i]))
        socks[i] = c

    ts = []
    for i in range(n):
        t = threading.Thread(target=client, args=(i,))
        t.start()
        ts.append(t)
        time.sleep(0.05)
    time.sleep(wait)
    s.settimeout(30)
    acc = [None] * n
    for _ in range(n):
        c, _ = s.accept()
        a = time.monotonic()
        c.settimeout(30)
        i = c.recv(1)[0]
        acc[i] = a
        c.close()
    for t in ts:
        t.join()
    o1, d1 = netstat("ListenOverflows"), netstat("ListenDrops")
    for c in socks:
        c.close()
    s.close()
    waits = [acc[i] - conn_t[i] for i in range(n)]
    return {"overflows": o1 - o0, "drops": d1 - d0, "accepted": n,
            "first_wait": waits[0], "max_wait": max(waits),
            "waits": [round(w, 4) for w in waits]}


def main():
    cmd, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if cmd == "connect":
        rest = sys.argv[5:]
        timeout = 30.0
        if "--timeout" in rest:
            timeout = float(rest[rest.index("--timeout") + 1])
        out = connect(host, port, int(sys.argv[4]), "--parallel" in rest,
                      timeout)
    elif cmd == "serve":
        s = listener(host, port, 128)
        serve_loop(s, time.monotonic() + float(sys.argv[4]))
        return
    elif cmd == "pair":
        s = listener(host, port, 128)
        stop = [False]

        def srv():
            s.settimeout(0.2)
            while not stop[0]:
                try:
                    c, _ = s.accept()
                    c.close()
                except socket.timeout:
                    pass
        t = threading.Thread(target=srv)
        t.start()
        out = connect(host, port, int(sys.argv[4]), False, 30.0)
        stop[0] = True
        t.join()
        s.close()
    elif cmd == "lines":
        out = lines(*map(int, sys.argv[2:8]))
    elif cmd == "backlog":
        out = backlog(host, port, int(sys.argv[4]), int(sys.argv[5]),
                      float(sys.argv[6]))
    else:
        sys.exit("unknown command " + cmd)
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
