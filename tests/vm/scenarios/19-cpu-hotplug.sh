#!/bin/bash
# kernels: all
# Buffers for the CPUs that are online (issue 31, memory; kmod/core/cpus.c)
# and histogram copies that follow the samples (kmod/core/hist.c): the
# slow-event rings and the keyed tables' CPU buffers are allocated for the
# CPUs online when they are made, and for a CPU when it comes online (a
# CPU hot-plug callback), never for the possible CPUs that never come; a
# stage's histogram has a shared copy, and a CPU gets its own copy after
# it recorded there (the grow work, an eighth of a second).  With CPU 1
# taken offline before anything is enabled:
#   - syscalls' keyed buffers and the event rings exist for 1 CPU (status
#     counts them), func's histograms have no CPU copy (nothing recorded);
#   - CPU 1 brought online: the rings and buffers get their CPU 1 copy,
#     and N getppid calls on each of CPU 0 and CPU 1 (sl-spin pins a
#     thread to each) count exactly 2N in func, with no loss (nobuf 0);
#     func's getppid stage then gets a copy on each CPU (2, its only
#     stage recorded); a threshold of 1 ns writes an event on CPU 1 too;
#   - CPU 1 offline and online again keeps its copies and the counts
#     (nothing freed, nothing allocated twice).
# All kernels: CPU hot-plug callbacks and per-CPU allocation are the
# kernel's (PREEMPT_RT runs hot-plug differently).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=3000
SYM=__x64_sys_getppid
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
C1=/sys/devices/system/cpu/cpu1/online
[ -w $C1 ] || fail "no $C1: the guest needs 2 CPUs with CPU 1 hot-pluggable"
[ "$(getconf _NPROCESSORS_ONLN)" = 2 ] || fail "expected 2 online CPUs, got $(getconf _NPROCESSORS_ONLN)"

# hist_copies PIPELINE: its histograms' CPU copies, all stages (debugfs
# status: "memory: K KiB of histograms (S stages, C copies on CPUs)")
hist_copies() {
	awk -v p="$1" '$1 == "pipeline" && $2 == p":" { f = 1; next }
		f && /memory:.*histograms/ { sub(/.*stages, /, ""); print $1; exit }' "$SL_DBG/status"
}
# jqs FILTER: a value of status -j
jqs() { "$SL_TOOL" status -j | jq -r "$1"; }

sl_load
trap 'echo 1 > $C1 2>/dev/null || true' EXIT
echo 0 > $C1
echo "func add $SYM" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
echo "enable syscalls" > "$SL_DBG/control"
echo "threshold func 1" > "$SL_DBG/control"
assert_eq "func's histogram copies on CPUs before a sample" 0 "$(hist_copies func)"
assert_eq "CPUs with syscalls' keyed buffers, CPU 1 offline" 1 "$(jqs '.pipelines[] | select(.pipeline == "syscalls") | .keyed.cpus')"
assert_eq "CPUs with an event ring, CPU 1 offline" 1 "$(jqs .events.rings)"

echo 1 > $C1
assert_eq "CPUs with syscalls' keyed buffers, CPU 1 online" 2 "$(jqs '.pipelines[] | select(.pipeline == "syscalls") | .keyed.cpus')"
assert_eq "CPUs with an event ring, CPU 1 online" 2 "$(jqs .events.rings)"

out=$("$SPIN" -n $N -t 2 -f "$SL_DBG/control")
note "sl-spin: $out"
dbg=$(awk -v s=$SYM '$1 == s { print $2 }' "$SL_DBG/func")
assert_eq "func count of getppid on CPUs 0 and 1" $((2 * N)) "$dbg"
nobuf=$(jqs '[.pipelines[] | .losses.nobuf // 0] | add')
assert_eq "samples lost for want of a CPU's copy (nobuf)" 0 "$nobuf"
# the grow work runs every eighth of a second: 5 s is 40 of its turns
for _ in $(seq 50); do
	[ "$(hist_copies func)" = 2 ] && break
	sleep 0.1
done
assert_eq "func's copies after getppid on CPUs 0 and 1 (one stage)" 2 "$(hist_copies func)"
# the events of CPU 1 (the ring holds 512: some were written there)
w1=$(jqs '.events.written')
[ "$w1" -gt 0 ] || fail "no event written"
ev=$("$SL_TOOL" events -j -n 64 -d 1 func | jq -r 'select(.event) | .event.cpu' | sort -u | tr '\n' ' ')
[[ " $ev" == *" 1 "* ]] || fail "no event read from CPU 1 (CPUs: $ev)"

echo 0 > $C1
echo 1 > $C1
assert_eq "func's copies after offline/online" 2 "$(hist_copies func)"
assert_eq "CPUs with an event ring after offline/online" 2 "$(jqs .events.rings)"
dbg=$(awk -v s=$SYM '$1 == s { print $2 }' "$SL_DBG/func")
assert_eq "func count kept across offline/online" $((2 * N)) "$dbg"
trap - EXIT
echo "disable func" > "$SL_DBG/control"
echo "disable syscalls" > "$SL_DBG/control"
sl_unload
pass "rings and keyed buffers for online CPUs only: 1 with CPU 1 offline, 2 once online; histogram copies where samples were, 0 then 2; $((2 * N)) calls on both counted exactly, nobuf 0; kept across offline/online"
