#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 6.1 6.12 7.3
# Issue 31 part 2's study (docs/overhead.md, "Return points on ftrace
# direct calls: study"), not stacklat: tests/vm/prof/direct's sl_direct.ko
# (tests/vm/prof/direct/build.sh KERNEL first; skipped when not built), on
# the kernels whose headers build it (5.10 has only the ip-based interface).
# SLD-COST lines: 1,000,000 calls per mode and round, some 25 s of its 40.
#  - exactness: N getppid of one process -> N entries, N exits, every
#    return value its parent's tgid; direct alone, with an IPMODIFY kprobe
#    (post handler) on the function, with the function tracer on it, and
#    a kretprobe for comparison;
#  - without the ops_func that accepts IPMODIFY users: refused either way;
#  - a second direct caller: refused;
#  - unwinding: a stack taken inside the body (func_stack_trace on
#    __task_pid_nr_ns) goes through the trampoline to do_syscall_64;
#  - unload with calls in flight: 10 load/unload cycles while two threads
#    loop on getppid: every entry has its exit, none left in the body;
#  - cost: ns per getppid over SLD_N calls, none/direct/kretprobe
#    interleaved, SLD_ROUNDS rounds (notes, no assertion).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

KO=$SL_REPO/tests/vm/.cache/build/${KERNEL%%+*}-direct/sl_direct.ko
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
P=/sys/module/sl_direct/parameters
N=${SLD_CHECK_N:-20000}
TN=${SLD_N:-1000000}
ROUNDS=${SLD_ROUNDS:-3}
[ -f "$KO" ] || skip "no $KO (tests/vm/prof/direct/build.sh ${KERNEL%%+*})"
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
bg=
stop() {
	[ -z "$bg" ] || kill "$bg" 2>/dev/null || true
	wait 2>/dev/null || true
	echo nop > $T/current_tracer || true
	echo > $T/set_ftrace_filter || true
	echo 0 > $T/options/func_stack_trace || true
	rmmod sl_direct 2>/dev/null || true
}
trap stop EXIT
note "IBT: $(dmesg | grep -i -m1 "indirect branch tracking" || echo "not enabled")"
dmesg -C

# exact NAME INSMOD_ARGS...: N getppid of one process, counted exactly
exact() {
	local name=$1 e x bad hits
	shift
	insmod "$KO" "$@" || fail "$name: insmod $* failed"
	# sl-spin writes "filter direct tgid=<itself>" before its calls
	# what ftrace has on the function (flags: R regs, I IPMODIFY, D direct)
	note "$name: $(grep -A1 getppid $T/enabled_functions | tr "\n\t" "  " || true)"
	"$SPIN" -n $N -t 0 -f $P/filter -p direct > /dev/null
	read -r e x bad _ hits < $P/stats
	rmmod sl_direct
	case "$*" in
	*ipmod=1*) [ "$hits" -ge "$N" ] || fail "$name: the kprobe ran $hits times" ;;
	esac
	assert_eq "$name entries" "$N" "$e"
	assert_eq "$name exits" "$N" "$x"
	assert_eq "$name bad returns" 0 "$bad"
}
exact direct mode=direct
exact direct+ipmodify mode=direct ipmod=1
exact kretprobe mode=krp
exact krp+ipmodify mode=krp ipmod=1
# the name ftrace lists the function under (6.1: __do_sys_getppid, an alias)
fn=$(grep -m1 -E '^(__x64_sys|__do_sys)_getppid$' $T/available_filter_functions) ||
	fail "getppid not in available_filter_functions"
echo "$fn" > $T/set_ftrace_filter
echo function > $T/current_tracer
exact direct+function mode=direct
hits=$(grep -c 'sys_getppid' $T/trace || true)
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
[ "$hits" -ge 1 ] || fail "the function tracer saw no getppid beside the direct call"
note "function tracer lines beside direct: $hits"

# a second direct caller on the function: refused (which error: noted)
KO2=${KO%.ko}2.ko
insmod "$KO" mode=direct
if insmod "$KO2" mode=direct 2> /dev/null; then
	rmmod sl_direct2
	rmmod sl_direct
	fail "a second direct caller on the same function was accepted"
fi
note "second direct caller: $(dmesg | grep 'sl_direct2: direct on' | tail -1)"
rmmod sl_direct
# without ops_func, a direct call and an IPMODIFY user exclude each other
# (livepatch's kind): noted, which error, both orders
insmod "$KO" mode=direct ipmod=1 noshare=1 2> /dev/null && rmmod sl_direct &&
	fail "noshare: a direct call without ops_func beside an IPMODIFY kprobe"
note "noshare, kprobe first: $(dmesg | grep 'sl_direct: direct on' | tail -1)"
insmod "$KO" mode=direct noshare=1
if insmod "$KO2" mode=none ipmod=1 2> /dev/null; then
	# 7.3 takes it: note where it went and that both still run
	note "noshare, direct first: kprobe accepted: $(grep -A1 getppid $T/enabled_functions | tr '\n\t' '  ' || true)"
	"$SPIN" -n $N -t 0 -f $P/filter -p direct > /dev/null
	read -r e _ _ _ _ < $P/stats
	read -r _ _ _ _ hits < /sys/module/sl_direct2/parameters/stats
	note "noshare, direct first: direct entries $e, kprobe hits $hits"
	rmmod sl_direct2
	[ "$e" = "$N" ] || fail "noshare, direct first: direct entries $e"
	echo 0 > $P/tgid
else
	note "noshare, direct first: $(dmesg | grep 'sl_direct2: kprobe' | tail -1)"
fi
# a kretprobe beside the direct call: both see every call of sl-spin,
# return values right (all processes counted: not exact, >= N)
insmod "$KO2" mode=krp
"$SPIN" -n $N -t 0 > /dev/null
read -r e x bad _ < /sys/module/sl_direct2/parameters/stats
read -r e1 x1 bad1 _ < $P/stats
rmmod sl_direct2
rmmod sl_direct
[ "$e" -ge $N ] && [ "$e1" -ge $N ] && [ "$bad" = 0 ] && [ "$bad1" = 0 ] ||
	fail "direct+kretprobe: direct $e1/$x1 bad $bad1, kretprobe $e/$x bad $bad"
note "direct+kretprobe: direct $e1/$x1, kretprobe $e/$x"
l=$(dmesg | grep 'sl_direct2: krp entries' | tail -1)
set -- ${l#*entries }
[ "$1" = "$3" ] && [ "$5" = 0 ] || fail "direct+kretprobe: $l"
l=$(dmesg | grep 'sl_direct: direct entries' | tail -1)
set -- ${l#*entries }
[ "$1" = "$3" ] && [ "$5" = 0 ] && [ "$7" = 0 ] || fail "direct+kretprobe: $l"
echo "ok: a kretprobe beside the direct call"

# a stack taken inside the body, through the trampoline
insmod "$KO" mode=direct
echo __task_pid_nr_ns > $T/set_ftrace_filter
echo 1 > $T/options/func_stack_trace
echo > $T/trace
echo function > $T/current_tracer
"$SPIN" -n 50 -t 0 > /dev/null
# (a change of tracer empties the buffer: read it first)
cp $T/trace /tmp/sl-38.trace
echo nop > $T/current_tracer
echo 0 > $T/options/func_stack_trace
echo > $T/set_ftrace_filter
rmmod sl_direct
st=$(awk '/^ *=> / { s = s " " $2; next } s != "" { print s; s = "" } END { if (s != "") print s }' /tmp/sl-38.trace |
	grep -m1 'sl_direct_tramp' || true)
[ -n "$st" ] || { head -40 /tmp/sl-38.trace; fail "no stack through sl_direct_tramp"; }
note "stack: $st"
case "$st" in
*sl_direct_tramp*do_syscall_64*) echo "ok: unwound through the trampoline" ;;
*) fail "the unwind stopped at the trampoline: $st" ;;
esac

# unload with calls in flight
"$SPIN" -n 1000000000 -t 2 > /dev/null &
bg=$!
for i in $(seq 10); do
	insmod "$KO" mode=direct
	sleep 0.3
	rmmod sl_direct
done
kill "$bg"
wait "$bg" 2>/dev/null || true
bg=
lines=$(dmesg | grep -c 'sl_direct: direct entries' || true)
assert_eq "unload lines" 16 "$lines"
dmesg | grep 'sl_direct: direct entries' | tail -10 | while read -r l; do
	set -- ${l#*entries }
	[ "$1" = "$3" ] && [ "$5" = 0 ] && [ "$7" = 0 ] || fail "unload in flight: $l"
	[ "$1" -gt 0 ] || fail "no calls while loaded: $l"
done
echo "ok: 10 unloads in flight, every entry with its exit"

# cost per call, interleaved
for r in $(seq "$ROUNDS"); do
	for m in none direct krp; do
		[ $m = none ] || insmod "$KO" mode=$m
		ns=$("$SPIN" -n "$TN" -t 0 | sed 's/.*ns_per_call=//')
		[ $m = none ] || rmmod sl_direct
		echo "SLD-COST $r $m $ns"
	done
done
sl_dmesg | grep -v 'sl_direct: ' | grep -E 'WARN|BUG|Oops|RIP|error' && fail "kernel log"
pass
