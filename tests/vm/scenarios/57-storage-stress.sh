#!/bin/bash
# kernels: all
# Robustness under storage load: six processes write and fsync on ext4
# while the storage and block pipelines are enabled, disabled and reset in
# a loop, and the module is unloaded and loaded again with calls sleeping
# inside its return points.  With maxactive=2 kretprobes run out of
# instances: what is lost is reported (nmissed), never a crash.  The
# kernel log stays silent (judged by the harness).
#
# 5.10 under multi-threaded QEMU TCG (the harness has since moved to
# single-threaded TCG, see docs/testing.md): arming and disarming
# the ~40 ftrace-based kretprobes while both vCPUs ran through those very
# functions livelocked the guest at the entry of a function being
# re-patched (RIP at its first byte, a NOP in memory, on every CPU; once an
# oops returning to address 0), within three cycles.  On 5.10 the writers
# are still stopped (in user space, so no call is inside a probe) while
# probes are armed or disarmed; 12-load-loop arms and disarms under
# running traffic on every kernel.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

mountpoint -q "$SL_MNT" || fail "scratch disk not mounted at $SL_MNT"
stop=/tmp/stress-stop
rm -f "$stop"
python3 - "$SL_MNT" "$stop" <<'PY' &
import os, sys
d, stop = sys.argv[1], sys.argv[2]
kids = []
for k in range(6):
    pid = os.fork()
    if pid == 0:
        fd = os.open("%s/stress-%d" % (d, k), os.O_RDWR | os.O_CREAT, 0o644)
        i = 0
        while not os.path.exists(stop):
            os.pwrite(fd, b"s" * 4096, 4096 * (i % 32))
            os.fsync(fd)
            os.pread(fd, 4096, 0)
            i += 1
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
PY
load=$!
trap 'touch "$stop"; pkill -CONT -P $load python3; wait $load 2>/dev/null || true' EXIT

writers() { # writers STOP|CONT: only on 5.10, see above
	[ "${KERNEL%%+*}" = 5.10 ] || return 0
	pkill -"$1" -P "$load" python3 || true
	[ "$1" = STOP ] || return 0
	for i in $(seq 100); do
		[ -z "$(ps -o stat= --ppid "$load" | grep -v '^T')" ] && return 0
		sleep 0.1
	done
	fail "writers did not stop"
}

t0=$(date +%s%N)
sl_load maxactive=2
t1=$(date +%s%N)
writers STOP
echo "enable storage" > "$SL_DBG/control"
t2=$(date +%s%N)
echo "enable block" > "$SL_DBG/control"
writers CONT
note "under load: insmod $(((t1 - t0) / 1000000)) ms, enable storage $(((t2 - t1) / 1000000)) ms"
sleep 4
ret_kind
if [ "$RK" = kretprobe ]; then
	nm=$(sed -n '/^pipeline storage/,/^pipeline block/ s/^  hook sys_fsync .*nmissed=\([0-9]*\).*/\1/p' "$SL_DBG/status")
	note "sys_fsync nmissed with maxactive=2 and 6 writers: $nm"
	[ "${nm:-0}" -gt 0 ] || fail "6 concurrent fsyncs on 2 kretprobe instances but nothing reported missed"
else
	# one fprobe for the pipeline's return points: its rethook pool holds
	# maxactive per point, 2 x ~40 here, more than 6 writers' nested
	# calls need.  What it missed is shown.
	nm=$(sed -n '/^pipeline storage/,/^pipeline block/ s/^  fprobe: .*nmissed=\([0-9]*\).*/\1/p' "$SL_DBG/status")
	note "storage fprobe with maxactive=2 and 6 writers: $(sed -n '/^pipeline storage/,/^pipeline block/ s/^  fprobe: //p' "$SL_DBG/status")"
fi
awk '$1 == "fsync.syscall" { exit !($2 > 0) }' "$SL_DBG/storage" || fail "nothing recorded under load"

# 3 cycles and 2 reloads (8 and 3 under make soak)
cycles=$(sl_count 3 8)
reloads=$(sl_count 2 3)
for i in $(seq "$cycles"); do
	writers STOP
	echo "disable storage" > "$SL_DBG/control"
	echo "reset" > "$SL_DBG/control"
	echo "enable storage" > "$SL_DBG/control"
	echo "disable block" > "$SL_DBG/control"
	echo "enable block" > "$SL_DBG/control"
	writers CONT
	sleep 0.5
done
writers STOP
sl_unload
writers CONT
for i in $(seq "$reloads"); do
	sl_load
	writers STOP
	echo "enable storage" > "$SL_DBG/control"
	echo "enable block" > "$SL_DBG/control"
	writers CONT
	sleep 2
	awk '$1 == "write.fs" { exit !($2 > 0) }' "$SL_DBG/storage" || fail "nothing recorded after reload $i"
	writers STOP
	sl_unload
	writers CONT
done
touch "$stop"
wait $load || fail "the writers failed"
trap - EXIT
pass "$cycles enable/disable/reset cycles and $((reloads + 1)) unloads under 6 fsync writers; nmissed reported ($nm, $RK) with maxactive=2"
