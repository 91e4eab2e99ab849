#!/bin/bash
# Background load for the VM tests: syscalls (sl-spin), loopback TCP
# (a python echo pair on 127.0.0.1) and file I/O with fsync (on $SL_DISK's
# filesystem when it is mounted at $SL_MNT, else /tmp).  With "net" as the
# second argument also helpers/netload.py: TCP and UDP over loopback (IPv4
# and IPv6), bulk TCP, TCP across the veth pair of net.sh (which the caller
# sets up, netem on it is the caller's) and the host peer's requests through
# virtio-net.  Bounded: every generator stops by itself after $1 seconds,
# and traffic_stop ends them early.  Source it; it defines traffic_start
# and traffic_stop.

TRAFFIC_PIDS=()

traffic_start() {
	local secs=${1:-60} dir=${SL_MNT:-/tmp} nl=$SL_REPO/tests/vm/helpers/netload.py
	TRAFFIC_PIDS=()
	if [ "${2:-}" = net ]; then
		python3 "$nl" "$secs" local &
		TRAFFIC_PIDS+=($!)
		ip netns exec slb python3 "$nl" "$secs" server &
		TRAFFIC_PIDS+=($!)
		sleep 1
		ip netns exec sla python3 "$nl" "$secs" client &
		TRAFFIC_PIDS+=($!)
		python3 "$nl" "$secs" nic "$SL_GUESTPORT" &
		TRAFFIC_PIDS+=($!)
	fi
	(
		end=$((SECONDS + secs))
		while [ $SECONDS -lt $end ]; do
			"$SL_REPO/tests/vm/helpers/sl-spin" -n 2000 -t 2 >/dev/null
			sleep 0.2
		done
	) &
	TRAFFIC_PIDS+=($!)
	python3 - "$secs" <<'PY' &
import socket, sys, threading, time
end = time.time() + float(sys.argv[1])
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(1)
def echo():
    c, _ = srv.accept()
    while True:
        d = c.recv(4096)
        if not d:
            return
        c.sendall(d)
threading.Thread(target=echo, daemon=True).start()
cl = socket.create_connection(srv.getsockname())
cl.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
while time.time() < end:
    time.sleep(0.01)
    cl.sendall(b"x" * 512)
    cl.recv(4096)
PY
	TRAFFIC_PIDS+=($!)
	(
		end=$((SECONDS + secs))
		while [ $SECONDS -lt $end ]; do
			dd if=/dev/zero of="$dir/sl-traffic.$$" bs=64k count=16 conv=fsync status=none
			cat "$dir/sl-traffic.$$" >/dev/null
			sleep 0.5
		done
		rm -f "$dir/sl-traffic.$$"
	) &
	TRAFFIC_PIDS+=($!)
}

# traffic_alive: every generator still runs
traffic_alive() {
	local p
	for p in "${TRAFFIC_PIDS[@]}"; do
		kill -0 "$p" 2>/dev/null || return 1
	done
}

traffic_stop() {
	local p
	for p in "${TRAFFIC_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	TRAFFIC_PIDS=()
}

# The pipelines the loaded module has, from its status file.
sl_pipelines() {
	sed -n 's/^pipeline \([a-z0-9_]*\):.*/\1/p' "$SL_DBG/status"
}
