#!/usr/bin/env python3
# Host side of the guest's network tests: a TCP client of the guest's
# server on 127.0.0.1:PORT (QEMU's port forward into virtio-net).  Each
# connection starts with one instruction line from the guest (see lib.sh):
#   rr N SIZE     N request/response rounds of SIZE bytes, TCP_NODELAY
#   stream BYTES  send BYTES bytes, then close
# Bounded: exits after DEADLINE seconds or when its parent goes away.
import os, socket, sys, time

port = int(sys.argv[1])
deadline = time.time() + float(sys.argv[2] if len(sys.argv) > 2 else 3600)
parent = os.getppid()

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
        s.settimeout(30)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        line = b""
        while not line.endswith(b"\n"):
            d = s.recv(1)
            if not d:
                raise EOFError
            line += d
        cmd = line.decode().split()
        if cmd[0] == "rr":
            n, size = int(cmd[1]), int(cmd[2])
            for _ in range(n):
                s.sendall(b"q" * size)
                recv_exact(s, size)
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
