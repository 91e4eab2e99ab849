#!/bin/bash
# make demo: load stacklat in a real 6.1 kernel, enable everything, drive
# network traffic (loopback TCP and, through virtio-net, from the host) and
# disk I/O (ext4 on virtio-blk), then show what stacklat measured.
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
echo "STACKLAT-RESULT $SL_SCENARIO PASS demo ran"
