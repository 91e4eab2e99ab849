#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Background network load for the VM tests (traffic.sh), bounded in time:
#   netload.py SECS local            TCP echo v4/v6, UDP v4/v6, bulk TCP on loopback
#   netload.py SECS server           TCP echo server on port 7600
#   netload.py SECS client           TCP client of 10.9.0.2:7600
#   netload.py SECS nic PORT         serves the host peer (lib.sh) rr 200 300
import os, socket, sys, threading, time
end = time.time() + float(sys.argv[1])
# a pause between messages: traffic on every path, without starving the
# guest (its vCPUs share one host core under single-threaded TCG)
PACE = float(os.environ.get("SL_NET_PACE", "0.02"))
mode = sys.argv[2]
def echo_tcp(fam, addr, size, bulk=False):
    srv = socket.socket(fam)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, 0))
    srv.listen(4)
    def serve():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=lambda c=c: pump(c), daemon=True).start()
    def pump(c):
        try:
            while True:
                d = c.recv(65536)
                if not d:
                    return
                if not bulk:
                    c.sendall(d)
        except OSError:
            pass
    threading.Thread(target=serve, daemon=True).start()
    return srv.getsockname()[:2]
def client_tcp(fam, addr, size, bulk=False):
    while time.time() < end:
        try:
            s = socket.create_connection(addr, timeout=5)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            for _ in range(50):
                time.sleep(PACE)
                s.sendall(b"x" * size)
                if not bulk:
                    got = 0
                    while got < size:
                        got += len(s.recv(65536))
            s.close()
        except OSError:
            time.sleep(0.05)
def udp(fam, addr):
    r = socket.socket(fam, socket.SOCK_DGRAM)
    r.bind((addr, 0))
    r.settimeout(1)
    s = socket.socket(fam, socket.SOCK_DGRAM)
    while time.time() < end:
        time.sleep(PACE)
        s.sendto(b"u" * 200, r.getsockname()[:2])
        try:
            r.recv(2048)
        except socket.timeout:
            pass
ts = []
if mode == "local":
    for fam, a in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        ts.append(threading.Thread(target=client_tcp, args=(fam, echo_tcp(fam, a, 100), 100)))
        ts.append(threading.Thread(target=udp, args=(fam, a)))
    ts.append(threading.Thread(target=client_tcp, args=(socket.AF_INET, echo_tcp(socket.AF_INET, "127.0.0.1", 0, True), 8000, True)))
elif mode == "server":
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", 7600))
    srv.listen(4)
    def serve():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=lambda c=c: [c.sendall(d) for d in iter(lambda: c.recv(65536), b"")], daemon=True).start()
    threading.Thread(target=serve, daemon=True).start()
    time.sleep(max(0, end - time.time()))
elif mode == "client":
    ts.append(threading.Thread(target=client_tcp, args=(socket.AF_INET, ("10.9.0.2", 7600), 500)))
elif mode == "nic":
    port = int(sys.argv[3])
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(1)
    srv.settimeout(2)
    while time.time() < end:
        try:
            c, _ = srv.accept()
        except socket.timeout:
            continue
        c.sendall(b"rr 200 300\n")
        try:
            for d in iter(lambda: c.recv(65536), b""):
                time.sleep(PACE)
                c.sendall(d)
        except OSError:
            pass
        c.close()
for t in ts:
    t.daemon = True
    t.start()
time.sleep(max(0, end - time.time()))
