#!/bin/bash
# Sourced by every scenario.  Verdicts are lines
#   STACKLAT-RESULT <scenario> PASS|FAIL|SKIP <message>
# on stdout; fail and skip end the scenario, pass ends it too.

: "${SL_SCENARIO:=$(basename "$0" .sh)}"

pass() { echo "STACKLAT-RESULT $SL_SCENARIO PASS $*"; exit 0; }
fail() { echo "STACKLAT-RESULT $SL_SCENARIO FAIL $*"; exit 1; }
skip() { echo "STACKLAT-RESULT $SL_SCENARIO SKIP $*"; exit 0; }
note() { echo "note: $*"; }

# A command that fails where set -e ends the scenario ends it with a
# verdict naming the command, not a bare "exited N without a verdict".
# errtrace: also inside functions (bash runs no ERR trap where errexit is
# ignored: if/while conditions, && and || lists).
sl_on_err() {
	local rc=$? line=$1 cmd=$2
	case $- in *e*) ;; *) return 0 ;; esac
	echo "STACKLAT-RESULT $SL_SCENARIO FAIL line $line: '$cmd' exited $rc"
	exit 1
}
set -E
trap 'sl_on_err "$LINENO" "$BASH_COMMAND"' ERR

# assert_eq NAME EXPECTED ACTUAL
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: expected $2, got '$3'"
	echo "ok: $1 = $3"
}

# assert_range NAME LO HI ACTUAL (numbers, may be fractional)
assert_range() {
	awk -v lo="$2" -v hi="$3" -v v="$4" 'BEGIN { exit !(v != "" && v + 0 >= lo + 0 && v + 0 <= hi + 0) }' ||
		fail "$1: expected $2..$3, got '$4'"
	echo "ok: $1 = $4 (in $2..$3)"
}

# sl_hz: the guest kernel's CONFIG_HZ, from its config in MODROOT (250,
# Debian's, when it cannot be read); the scheduler scenarios' tolerances
# allow a tick per wait (sched_clock_cpu is kept within a tick)
sl_hz() {
	local c hz=
	for c in "$MODROOT/boot/config-$KVER" "$MODROOT/usr/lib/modules/$KVER/config"; do
		[ -r "$c" ] && hz=$(sed -n 's/^CONFIG_HZ=//p' "$c") && [ -n "$hz" ] && break
	done
	echo "${hz:-250}"
}

# Load the module built for this kernel, with optional parameters.
sl_load() {
	insmod "$SL_KO" "$@" || fail "insmod stacklat $* failed"
	[ -d "$SL_DBG" ] || fail "no $SL_DBG after load"
	sl_note_ranges
}

# With kmemleak (a debug kernel): where this load of the module sits, its
# core and its init text ("START-HEX SIZE" lines).  Once the module is
# unloaded its frames in kmemleak's traces are bare addresses; guest-run.sh
# tells stacklat's from other modules' by these ranges.
sl_note_ranges() {
	[ -e /sys/kernel/debug/kmemleak ] || return 0
	local m=/sys/module/stacklat isz
	isz=$(objdump -h "$SL_KO" 2>/dev/null | awk '$2 == ".init.text" { print $3 }')
	{
		echo "$(awk '$1 == "stacklat" { print $6 }' /proc/modules) $(cat $m/coresize)"
		echo "$(cat $m/sections/.init.text 2>/dev/null || echo 0) $((16#${isz:-0}))"
	} >> /tmp/stacklat-ranges
}

# entry_kind: how function-entry points are armed on this kernel: ftrace
# where the module has its ftrace backend (every kernel of the matrix from
# 6.1: ftrace_regs callbacks and the recursion lock), kprobe on 5.10 or
# when loaded with ftrace=0 (say so: entry_kind ftrace=0).  The expectation
# is the test's, per kernel; the module's own "entry points:" line must
# agree with it.  Sets EK.
entry_kind() {
	local want=ftrace got
	case ${KERNEL%%+*} in 5.10 | 5.10-*) want=kprobe ;; esac
	[ "${1:-}" = ftrace=0 ] && want=kprobe
	got=$(awk '$1 == "entry" && $2 == "points:" { print $3 }' "$SL_DBG/status")
	[ "$got" = "$want" ] || fail "entry points on $got, expected $want on $KERNEL"
	# shellcheck disable=SC2034 # read by the scenarios
	EK=$want
}

# ret_kind: how return points are armed on this kernel: fprobe where the
# module has its fprobe backend (6.12 of the matrix: CONFIG_FPROBE, the
# rethook-based fprobe; Debian's 6.1 has no CONFIG_FPROBE, and 7.x's runs
# on the function graph tracer, not used: compat.h says why), kretprobe
# elsewhere or when loaded with ftrace=0 (say so: ret_kind ftrace=0).  The
# module's "return points:" line must agree.  Sets RK.
ret_kind() {
	local want=kretprobe got
	case ${KERNEL%%+*} in 6.12 | 6.12-*) want=fprobe ;; esac
	[ "${1:-}" = ftrace=0 ] && want=kretprobe
	got=$(awk '$1 == "return" && $2 == "points:" { print $3 }' "$SL_DBG/status")
	[ "$got" = "$want" ] || fail "return points on $got, expected $want on $KERNEL"
	# shellcheck disable=SC2034 # read by the scenarios
	RK=$want
}

sl_unload() {
	rmmod stacklat || fail "rmmod stacklat failed"
}

# Load a module of the guest kernel (and its dependencies) from the
# unpacked Debian image.
sl_modprobe() {
	modprobe -d "$MODROOT" -S "$KVER" "$@" || fail "modprobe $* failed"
}

# A fresh null_blk with these parameters (sl_nullblk N PARAM=...: N
# devices, /dev/nullb0 to nullb(N-1)): a scenario before may have left
# null_blk loaded, even with configfs disks.
sl_nullblk() {
	local n=$1 d i
	shift
	for d in /sys/kernel/config/nullb/*/; do
		[ -d "$d" ] || continue
		echo 0 > "$d/power" 2>/dev/null || true
		rmdir "$d" 2>/dev/null || true
	done
	if grep -q "^null_blk " /proc/modules; then rmmod null_blk || fail "null_blk busy"; fi
	sl_modprobe null_blk nr_devices="$n" "$@"
	for _ in $(seq 50); do [ -b "/dev/nullb$((n - 1))" ] && break; sleep 0.1; done
	for ((i = 0; i < n; i++)); do
		[ -b "/dev/nullb$i" ] || fail "no /dev/nullb$i"
	done
}

# Ask the host to act as a TCP client of a server listening on
# $SL_GUESTPORT in the guest (reached through QEMU's port forward, so the
# packets arrive through virtio-net's NAPI receive path).  The first line
# the guest's server writes to the connection is the host's instruction:
#   rr N SIZE      N request/response rounds: the host sends SIZE bytes,
#                  waits for SIZE bytes back (TCP_NODELAY)
#   stream BYTES   the host sends BYTES bytes and closes
# The host keeps connecting, so each accepted connection is one instruction.
host_peer_port() { echo "$SL_GUESTPORT"; }

# sl_wait_usr1 PID: wait (up to 5 s) until PID catches SIGUSR1 (bit 10 of
# SigCgt): the test helpers that wait for it to start (sl-span, sl-ufunc)
sl_wait_usr1() {
	local m
	for _ in $(seq 50); do
		m=$(awk '$1 == "SigCgt:" { print $2 }' "/proc/$1/status" 2> /dev/null || true)
		[ -n "$m" ] && [ $(( 0x$m & 0x200 )) != 0 ] && return 0
		sleep 0.1
	done
	fail "$(cat "/proc/$1/comm" 2> /dev/null || echo process) $1 never caught SIGUSR1"
}

# sl_wait_asleep PID: wait (up to 5 s) until PID's thread sleeps in
# nanosleep (glibc's nanosleep is clock_nanosleep, 230 on x86_64;
# nanosleep itself 35)
sl_wait_asleep() {
	local s
	for _ in $(seq 50); do
		s=$(cut -d' ' -f1 "/proc/$1/syscall" 2> /dev/null || true)
		[ "$s" = 230 ] || [ "$s" = 35 ] && return 0
		sleep 0.1
	done
	fail "$(cat "/proc/$1/comm" 2> /dev/null || echo process) $1 never entered its sleep"
}

# sl_count SHORT LONG: a loop's count, SHORT in make check and LONG under
# make soak (SL_SOAK=1).  make check runs every scenario on five kernels
# inside CI's 90 minutes; the long counts find what is rare.
sl_count() {
	if [ "${SL_SOAK:-}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# dmesg without the timing complaints software emulation causes by itself
# (a late timer interrupt is QEMU's, not ours; so is the clocksource
# watchdog's read of another CPU's clock timing out while the host runs
# that vCPU's thread late: 7.3's 12-load-loop with three guests on two host
# cores, and the TSC it then marks unstable: 6.12's in CI) and the random
# pool's readiness, which a slow guest without a hardware RNG reaches whenever it
# does (seen in the middle of 12-load-loop on the debug kernel); everything
# else counts.
sl_dmesg() {
	dmesg --color=never | grep -v -e 'hrtimer: interrupt took' \
		-e 'random: crng init done' \
		-e 'sched: RT throttling activated' -e 'clocksource: .*unstable' \
		-e 'clocksource: .*watchdog' -e 'clocksource: .*skew' \
		-e 'clocksource: Watchdog remote CPU .* read timed out' \
		-e 'tsc: Marking TSC unstable due to clocksource watchdog' || true
}
