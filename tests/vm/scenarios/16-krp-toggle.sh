#!/bin/bash
# kernels: all
# The kretprobe unregistration race: the storage and func pipelines (every
# hook of theirs a kretprobe) disabled and enabled again in a tight loop
# while both vCPUs make the calls they probe as fast as they can (getppid,
# read/write/pread/pwrite, fsync).  On 5.11 to 5.18 a handler running while
# its kretprobe is unregistered reads NULL from get_kretprobe(); hook.c's
# trampolines check for it.  Every disable here races handlers in flight.
# Then the hooks must still count exactly, dmesg stay silent and the
# module unload cleanly.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

SPIN=$SL_REPO/tests/vm/helpers/sl-spin
# CYCLES cycles, whatever they take (an emulated guest on a busy host
# arms storage's kretprobes in 1-10 s; a cycle took about 6 s in a whole
# make check): 4, 20 under make soak.  Not "as many as fit in a time":
# that failed a loaded check with 4 in 52 s.  The load runs until stop()
# ends it, at most LOAD_SECS.
CYCLES=${SL_TOGGLE_CYCLES:-$(sl_count 4 20)}
LOAD_SECS=500
dir=${SL_MNT:-/tmp}
pids=()

stop() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	pids=()
	rm -f "$dir"/sl-toggle.*
}
trap stop EXIT

sl_load
dmesg -C
for f in __x64_sys_getppid vfs_read vfs_write vfs_fsync_range; do
	ctl func add $f
done

# the load: getppid on both vCPUs, and two writers/readers with fsync
end=$((SECONDS + LOAD_SECS))
(
	while [ $SECONDS -lt $end ]; do
		"$SPIN" -n 20000 -t 2 > /dev/null
	done
) &
pids+=($!)
for i in 1 2; do
	python3 - "$dir/sl-toggle.$i" "$LOAD_SECS" <<'PY' &
import os, sys, time
end = time.time() + float(sys.argv[2])
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
buf = b"s" * 4096
n = 0
while time.time() < end:
    os.pwrite(fd, buf, (n % 64) * 4096)
    os.pread(fd, 4096, ((n * 7) % 64) * 4096)
    os.write(fd, buf)
    if n % 16 == 0:
        os.fsync(fd)
        os.lseek(fd, 0, os.SEEK_SET)
    n += 1
PY
	pids+=($!)
done
sleep 1

# enable both, disable both, in both orders; no pause in between
cycles=0
t0=$SECONDS
while [ $cycles -lt "$CYCLES" ]; do
	ctl enable storage
	ctl enable func
	if [ $((cycles % 2)) = 0 ]; then
		ctl disable storage
		ctl disable func
	else
		ctl disable func
		ctl disable storage
	fi
	cycles=$((cycles + 1))
done
took=$((SECONDS - t0))
# a last armed stretch under the load, so the handlers demonstrably ran
ctl enable storage
ctl enable func
sleep 2
for p in "${pids[@]}"; do
	kill -0 "$p" 2>/dev/null || fail "a load generator died during the toggling"
done
fhits=$(sed -n 's/.*hook __x64_sys_getppid .*hits=\([0-9]*\).*/\1/p' "$SL_DBG/status")
shits=$(awk '/^pipeline storage/ { on = 1; next } /^pipeline / { on = 0 } on && /hits=/ { sub(/.*hits=/, ""); s += $1 } END { print s + 0 }' "$SL_DBG/status")
note "$cycles enable/disable cycles of storage and func in ${took}s; getppid hits $fhits, storage hits $shits"
[ "${fhits:-0}" -gt 0 ] || fail "the getppid kretprobe never ran: $(grep getppid "$SL_DBG/status")"
[ "$shits" -gt 0 ] || fail "no storage kretprobe ran: $(grep -A20 '^pipeline storage' "$SL_DBG/status")"
stop

# still exact after all that churn
ctl disable func
ctl reset func
ctl enable func
"$SPIN" -n 2000 -t 2 -f "$SL_DBG/control" > /dev/null
n=$(awk '$1 == "__x64_sys_getppid" { print $2 }' "$SL_DBG/func")
assert_eq "getppid count after the toggling" 4000 "$n"
sl_unload
out=$(sl_dmesg)
[ -z "$out" ] || fail "dmesg not silent: $(head -n 5 <<<"$out")"
pass "$cycles disable/enable cycles (${took}s) of storage and func under getppid and fsync'd file I/O on both vCPUs, then 4000 of 4000 counted, dmesg silent"
