#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hook hits per object (issue 31 item 1): drive a known number of objects
# through each pipeline, alone, reset before, and read `stacklat status -j`
# (.pipelines[] by .pipeline, its .hooks[]: name, kind, hits).  Prints per hook
#   STACKLAT-BENCH hits pipeline=P kernel=K objects=N hook=H kind=KIND hits=X per_object=Y
# and per pipeline
#   STACKLAT-BENCH hits-total pipeline=P kernel=K objects=N per_object=Y by_kind=KIND:Y,...
# then a small table.  Measurement only, no assertion.
#
# Hits on other objects than ours inflate the count.  How each case keeps
# them out:
#  - func, syscalls, storage, block, tcpconnect, tcpaccept, sched, offcpu,
#    cpu: a tgid filter on the loop's process, set before it starts (it
#    waits on a fifo).  A filter applies after the hook ran, so a hook that
#    fires for every process still counts its hits: the guest is idle
#    (nothing but this script runs), which is what keeps those out.
#    sched/offcpu/cpu also see the switches to and from other tasks of the
#    loop's (idle, kworker): objects is the kernel's count of the loop's
#    switches (sl-pingpong's switches=), so a few extra hits are expected.
#  - net_rx, net_tx: no filter can name a loopback UDP loop's packets
#    before the hooks run; the guest is idle and the loop is the only
#    traffic (loopback: each datagram is one object in each pipeline).
#  - reqresp: filtered on the server's port (lport), as an operator would;
#    over loopback (the client's segments pass the points too) and with
#    the host peer as the client (reqresp-nic).
#  - block: null_blk, nothing else does I/O to it.
# The object counts are the loops' own: N calls, N datagrams each way per
# N rounds x 2, N requests, N preads, N direct reads, N connections.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=${BENCH_HITS_N:-1000}
H=$SL_REPO/tests/vm/helpers
PORT=7461
ctl() { echo "$*" > "$SL_DBG/control"; }
TABLE=/tmp/hits.table
: > "$TABLE"

# launch CMD...: start CMD stopped on a fifo; $LPID is its pid (the
# subshell execs CMD, so it keeps the pid)
launch() {
	rm -f /tmp/hits.go
	mkfifo /tmp/hits.go
	( read -r _ < /tmp/hits.go; exec "$@" ) > /tmp/hits.out 2>&1 &
	LPID=$!
}
go() {
	echo > /tmp/hits.go
	wait "$LPID" || fail "$1: loop failed: $(tail -n 3 /tmp/hits.out)"
}

# hooks P: "name kind hits" per hook of P, from status -j
hooks() {
	local json
	json=$("$SL_TOOL" status -j) || fail "status -j failed"
	python3 -c 'import json, sys
for q in json.loads(sys.argv[1])["pipelines"]:
    if q["pipeline"] == sys.argv[2]:
        for h in q["hooks"]:
            print(h["name"], h["kind"], h["hits"])' "$json" "$1"
}

# measure P OBJECTS: print the lines for pipeline P from status -j
measure() {
	local p=$1 n=$2
	hooks "$p" > /tmp/hits.now
	[ -s /tmp/hits.now ] || fail "$p: no hooks in status -j"
	# minus the hits before the run: reset does not zero a hook's hits
	awk 'NR == FNR { b[$1] = $3; next } { print $1, $2, $3 - b[$1] }' \
		/tmp/hits.base /tmp/hits.now > /tmp/hits.rows
	awk -v p="$p" -v l="${LABEL:-$p}" -v n="$n" -v k="$KERNEL" -v tab="$TABLE" '
		{ printf "STACKLAT-BENCH hits pipeline=%s kernel=%s objects=%d hook=%s kind=%s hits=%d per_object=%.2f\n",
			p, k, n, $1, $2, $3, $3 / n
		  tot += $3; by[$2] += $3; if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 } }
		END { s = ""
		  for (i = 1; i <= m; i++)
			s = s (i > 1 ? "," : "") sprintf("%s:%.2f", order[i], by[order[i]] / n)
		  printf "STACKLAT-BENCH hits-total pipeline=%s kernel=%s objects=%d per_object=%.2f by_kind=%s\n",
			p, k, n, tot / n, s
		  printf "%-11s %8.2f  %s\n", l, tot / n, s >> tab }' /tmp/hits.rows
}

# one P FILTER OBJECTS CMD...: P alone, reset, filtered (FILTER: "tgid",
# "lport" or "none"), CMD run once.  OBJECTS "switches": the count the loop
# prints
one() {
	local p=$1 flt=$2 n=$3
	shift 3
	ctl disable all 2>/dev/null || true
	ctl reset
	case $flt in
	lport) ctl filter "$p" lport=$PORT ;;
	esac
	hooks "$p" > /tmp/hits.base
	launch "$@"
	if [ "$flt" = tgid ]; then
		ctl filter "$p" tgid="$LPID" || note "$p: no tgid filter"
	fi
	ctl enable "$p"
	go "$p"
	ctl disable "$p"
	if [ "$n" = switches ]; then
		n=$(sed -n 's/.*switches=\([0-9]*\).*/\1/p' /tmp/hits.out | head -n 1)
		[ -n "$n" ] || fail "$p: no switch count: $(cat /tmp/hits.out)"
	fi
	measure "$p" "$n"
	ctl filter "$p" clear 2>/dev/null || true
}

sl_load
f=${SL_MNT:-/tmp}/sl-hits.dat
dd if=/dev/zero of="$f" bs=4k count=1 status=none
cat "$f" > /dev/null
ctl func add __x64_sys_getppid
one func tgid "$N" "$H/sl-spin" -n "$N" -t 0
one syscalls tgid "$N" "$H/sl-spin" -n "$N" -t 0
# sl-loop udp N: N rounds, a datagram each way: 2N through each pipeline
one net_rx none $((2 * N)) "$H/sl-loop" udp "$N"
one net_tx none $((2 * N)) "$H/sl-loop" udp "$N"
# sl-loop tcp N: 2N one-byte segments (request and response), plus the
# handshake and the close (7 segments) and any pure ACK: per_object here
# is per data segment, an upper bound of the per-packet count
LABEL=net_rx-tcp one net_rx none $((2 * N)) "$H/sl-loop" tcp "$N" $((PORT + 1))
LABEL=net_tx-tcp one net_tx none $((2 * N)) "$H/sl-loop" tcp "$N" $((PORT + 2))
one reqresp lport "$N" "$H/sl-loop" tcp "$N" "$PORT"
# a server whose client is elsewhere: the host peer's N one-byte requests
# through virtio-net (net.sh's serve_host answers them), so only the
# server's own segments pass the receive and transmit points
PORT=$SL_GUESTPORT LABEL=reqresp-nic one reqresp lport "$N" \
	bash -c '. "$SL_REPO/tests/vm/lib.sh"; . "$SL_REPO/tests/vm/net.sh"; serve_host "$1" 1' _ "$N"
one storage tgid "$N" "$H/sl-loop" pread "$f" "$N"
if sl_nullblk 1 2>/dev/null; then
	one block tgid "$N" "$H/sl-loop" dio /dev/nullb0 "$N"
else
	note "no null_blk: block not measured"
fi
one tcpconnect tgid "$N" "$H/sl-loop" tcpconn "$N"
one tcpaccept tgid "$N" "$H/sl-loop" tcpconn "$N"
one sched tgid switches "$H/sl-pingpong" -n "$N" -c 0
one offcpu tgid switches "$H/sl-pingpong" -n "$N" -c 0
one cpu tgid switches "$H/sl-pingpong" -n "$N" -c 0
rm -f "$f" /tmp/hits.go
sl_unload

echo "hook hits per object, $KERNEL:"
printf "%-11s %8s  %s\n" pipeline per_obj by_backend
cat "$TABLE"
pass "hits per object measured ($N objects each)"
