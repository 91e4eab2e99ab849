#!/bin/bash
# make demo: load stacklat in a real 6.1 kernel, enable everything, drive
# network traffic (loopback TCP and, through virtio-net, from the host) and
# disk I/O (ext4 on virtio-blk), then show what stacklat measured; then
# a real memcached (-t 2) and where each of its requests spent its time.
set -uo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/traffic.sh"

sl_load
for f in vfs_read vfs_write tcp_sendmsg __x64_sys_fsync; do
	"$SL_TOOL" func add $f 2>/dev/null || true
done
for p in $(sl_pipelines); do
	"$SL_TOOL" enable "$p" 2>/dev/null || true
done

# a request/response server on the guest's NIC, driven from the host
python3 - "$SL_GUESTPORT" <<'PY' &
import socket, sys
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("0.0.0.0", int(sys.argv[1])))
srv.listen(1)
srv.settimeout(20)
c, _ = srv.accept()
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
c.sendall(b"rr 500 256\n")
for _ in range(500):
    buf = b""
    while len(buf) < 256:
        buf += c.recv(256 - len(buf))
    c.sendall(buf)
PY
server=$!
traffic_start 8
sleep 8
wait $server 2>/dev/null
traffic_stop

echo "\$ stacklat status"
"$SL_TOOL" status
echo
echo "\$ stacklat show"
"$SL_TOOL" show
echo "\$ stacklat hist func vfs_write"
"$SL_TOOL" hist func vfs_write

# memcached: 16 sets and 2000 gets on 4 connections (pymemcache over
# loopback), only its port followed by reqresp.  (A set with noreply, the
# client's default, has no response: its read goes on into the next
# request's, docs/pipelines/reqresp.md.)
echo
echo "\$ memcached -u root -t 2 -p 11211 -l 127.0.0.1 &   # 16 sets + 2000 gets, 4 connections"
memcached -u root -t 2 -p 11211 -U 0 -l 127.0.0.1 -m 16 &
mc=$!
for _ in $(seq 50); do
	python3 -c "import socket; socket.create_connection(('127.0.0.1', 11211), 1)" 2> /dev/null && break
	sleep 0.1
done
echo "\$ stacklat filter reqresp lport=11211; stacklat reset reqresp"
"$SL_TOOL" filter reqresp lport=11211
"$SL_TOOL" reset reqresp
timeout 120 python3 - <<'PY'
from pymemcache.client.base import Client
cs = [Client(("127.0.0.1", 11211), no_delay=True) for _ in range(4)]
for k in range(16):
    cs[0].set("key%d" % k, b"v" * 100, noreply=False)
for i in range(2000):
    assert cs[i % 4].get("key%d" % (i % 16)) == b"v" * 100
PY
echo "\$ stacklat show reqresp"
"$SL_TOOL" show reqresp
kill $mc 2> /dev/null
wait $mc 2> /dev/null
echo "STACKLAT-RESULT $SL_SCENARIO PASS demo ran"
