#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest, chrooted into the host's root (read-only over 9p) with
# the guest's kernel: every scenario (or bench, or the demo) in order, each
# in its own process with a timeout.  Everything for the host goes to the
# second serial port (/dev/ttyS1 -> out/KERNEL/results.log): markers,
# verdicts, each scenario's output prefixed with [name], and the guest's
# dmesg at the end.  Verdicts and markers are echoed on the console too.
# On a kernel with kmemleak, one scan after the last scenario gives a
# verdict "kmemleak": FAIL when a suspected leak involves stacklat.
set -uo pipefail

# bash reads a script as it runs it: all of it is in one function, parsed
# before anything runs, so edits of this file during a boot cannot hurt it.
# xtrace_top FILE: the traced commands that took longest (each line's time
# is until the next traced line: a function's own lines are counted apart)
xtrace_top() {
	awk '$1 ~ /^\++$/ && $2 ~ /^[0-9]+\.[0-9]+$/ {
		if (prev != "") s[prev] += $2 - t
		t = $2; prev = $3 " " $4 " " $5; sub(/[[:space:]]+$/, "", prev)
	}
	END {
		for (k in s) if (s[k] > 0.5) printf "xtrace: %7.2fs %s\n", s[k], k
	}' "$1" | sort -k2 -r -n | head -n 25
}

main() {
	arg() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" /proc/cmdline; }
	SL_REPO=$(arg sl.repo)
	KERNEL=$(arg sl.kernel)
	KVER=$(uname -r)
	SL_MODE=$(arg sl.mode)
	SL_HOSTPORT=$(arg sl.port)
	SL_GUESTPORT=$(arg sl.gport)
	timeout=$(arg sl.stimeout)
	sel=$(arg sl.scenarios | tr ',' ' ')
	# the scenarios run.sh chose for this kernel, by name (out/KERNEL/selected)
	select=$(arg sl.select)
	IFS=, read -r SL_FUZZ_NL SL_FUZZ_CTL SL_FUZZ_SEED <<<"$(arg sl.fuzz)"
	export SL_FUZZ_NL SL_FUZZ_CTL SL_FUZZ_SEED
	# make bench BENCH_ROUNDS=N (the benches' default when absent)
	BENCH_ROUNDS=$(arg sl.brounds)
	[ -n "$BENCH_ROUNDS" ] && export BENCH_ROUNDS
	# make profile: the case and which module (tests/vm/prof/cases.sh)
	SL_PROF=$(arg sl.prof)
	export SL_PROF
	# make soak: the long loop counts (lib.sh soak)
	SL_SOAK=$(arg sl.soak)
	export SL_SOAK
	# VM_APPEND=sl.xtrace=1: each scenario traced with timestamps, and
	# where its seconds went printed after it (for cutting make check)
	xtrace=$(arg sl.xtrace)
	export SL_REPO KERNEL KVER SL_MODE SL_HOSTPORT SL_GUESTPORT
	export SL_KO=$SL_REPO/tests/vm/.cache/build/$KERNEL/stacklat.ko
	# make bench BENCH_BASE=REV: the module of another revision, to compare
	export SL_KO_BASE=$SL_REPO/tests/vm/.cache/build/$KERNEL-base/stacklat.ko
	export SL_TOOL=$SL_REPO/tool/stacklat
	export SL_DBG=/sys/kernel/debug/stacklat
	export MODROOT=$SL_REPO/tests/vm/.cache/k/${KERNEL%%+*}/root
	export SL_DISK=/dev/vda
	export SL_MNT=/tmp/sl-disk
	export SL_NIC=eth0
	export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	export HOME=/tmp
	export TMPDIR=/tmp
	export LC_ALL=C

	out=/dev/ttyS1
	say() { echo "$*" > $out; echo "$*"; }

	say "STACKLAT-GUEST-UP $KERNEL $KVER mode=$SL_MODE"

	# kmemleak (a debug kernel) scans only when told, after the last
	# scenario: a scan takes long under emulation and must not land inside
	# one.  sl_load (lib.sh) notes where each load of stacklat sits.
	kml=/sys/kernel/debug/kmemleak
	if [ -w $kml ]; then
		echo scan=off > $kml
		: > /tmp/stacklat-ranges
	fi

	mkdir -p "$SL_MNT"
	mount -t ext4 "$SL_DISK" "$SL_MNT" 2>/dev/null || say "STACKLAT-GUEST-NOTE scratch disk not mounted"

	case $SL_MODE in
	bench) scripts=("$SL_REPO"/tests/vm/bench/*.sh) ;;
	profile) scripts=("$SL_REPO/tests/vm/prof/cases.sh") ;;
	demo) scripts=("$SL_REPO/tests/vm/demo-guest.sh") ;;
	packages) scripts=("$SL_REPO/tests/vm/pkg-guest.sh") ;;
	*) scripts=("$SL_REPO"/tests/vm/scenarios/*.sh) ;;
	esac

	# the boot variant took (run.sh's table): a verdict of its own
	[ "$SL_MODE" = demo ] || variant_verdict
	if [ -n "$select" ]; then
		mapfile -t chosen < "$select" || say "STACKLAT-GUEST-ERROR cannot read $select"
	fi

	for s in "${scripts[@]}"; do
		[ -f "$s" ] || continue
		name=$(basename "$s" .sh)
		if [ -n "$select" ]; then
			[[ " ${chosen[*]} " == *" $name "* ]] || continue
		elif [ -n "$sel" ] && [ "$SL_MODE" != demo ]; then
			ok=0
			for w in $sel; do
				case $name in "$w"*) ok=1 ;; esac
			done
			[ $ok = 1 ] || continue
		fi
		say "STACKLAT-START $name"
		log=/tmp/$name.log
		: > "$log"
		# timeout makes its own process group: after the scenario, whatever
		# it left running in it is killed too
		# run a copy: the repository may be edited while the VM runs
		cp "$s" "/tmp/$name.run"
		if [ -n "$xtrace" ]; then
			# the trace on fd 9, not stderr: a $(... 2>&1) keeps its output
			sed -i "1a exec 9> /tmp/$name.xtrace; BASH_XTRACEFD=9; PS4='+ \${EPOCHREALTIME} '; set -x" "/tmp/$name.run"
		fi
		t0=$SECONDS
		SL_SCENARIO=$name timeout -k 10 "${timeout:-600}" bash "/tmp/$name.run" < /dev/null > "$log" 2>&1 &
		spid=$!
		# its output goes to the host's log live (a hang shows where it hangs),
		# prefixed with [name]; verdicts unprefixed
		tail -n +1 -s 0.2 -f --pid=$spid "$log" 2>/dev/null | awk -v n="$name" '
			/^STACKLAT-(RESULT|BENCH) / { print; fflush(); next }
			{ print "[" n "] " $0; fflush() }' > $out &
		tpid=$!
		wait $spid
		rc=$?
		kill -KILL -- -$spid 2>/dev/null
		wait $tpid
		say "STACKLAT-TIME $name $((SECONDS - t0))s"
		[ -z "$xtrace" ] || xtrace_top "/tmp/$name.xtrace" | sed "s/^/[$name] /" > $out
		grep -a '^STACKLAT-\(RESULT\|BENCH\) ' "$log"
		if [ "$SL_MODE" != bench ] && ! grep -aq "^STACKLAT-RESULT $name " "$log"; then
			if [ $rc = 124 ] || [ $rc = 137 ]; then
				say "STACKLAT-RESULT $name FAIL timed out after ${timeout:-600}s"
			else
				say "STACKLAT-RESULT $name FAIL exited $rc without a verdict"
			fi
		fi
		# a scenario may leave the module loaded; the next one starts clean
		if grep -q "^stacklat " /proc/modules; then
			rmmod stacklat 2>/dev/null || say "STACKLAT-RESULT $name-unload FAIL rmmod stacklat failed after $name"
		fi
	done
	[ ! -w $kml ] || [ "$SL_MODE" != test ] || kmemleak_verdict
	say "STACKLAT-DMESG-BEGIN"
	dmesg --color=never > $out
	say "STACKLAT-DMESG-END"
	umount "$SL_MNT" 2>/dev/null
	sync
	say "STACKLAT-ALL-DONE"
}

# variant_verdict: what the kernel command line of a boot variant asks for
# is what the guest has - preempt=full: a fully preemptible kernel
# (/sys/kernel/debug/sched/preempt says "(full)"); possible_cpus=N: N
# possible CPUs (nr_cpu_ids) - as a result "boot-variant"
variant_verdict() {
	local c n want got msg=
	c=" $(cat /proc/cmdline) "
	case $c in
	*" preempt=full "*)
		got=$(cat /sys/kernel/debug/sched/preempt 2>/dev/null)
		if [[ $got != *"(full)"* ]]; then
			say "STACKLAT-RESULT boot-variant FAIL preempt=full did not take: sched/preempt says '$got'"
			return
		fi
		msg="preempt: $got;"
		;;
	esac
	if [[ $c =~ \ possible_cpus=([0-9]+)\  ]]; then
		want=${BASH_REMATCH[1]}
		n=$(cat /sys/devices/system/cpu/possible)
		got=$((${n##*-} + 1))
		if [ "$got" -lt "$want" ]; then
			say "STACKLAT-RESULT boot-variant FAIL possible_cpus=$want did not take: possible CPUs $n"
			return
		fi
		msg="$msg possible CPUs $n ($got), online $(cat /sys/devices/system/cpu/online);"
	fi
	[ -z "$msg" ] || say "STACKLAT-RESULT boot-variant PASS ${msg%;}"
}

# What kmemleak suspects after all the scenarios, and whether stacklat is
# involved: a frame in stacklat, by name while it is loaded, or (the usual
# case: the module is gone by now and its frames are bare addresses) by an
# address inside a range where a load of it sat.  Bare addresses outside
# those ranges are code of another unloaded module.  The report goes to the
# results log, stacklat's leaks first.
kmemleak_verdict() {
	local t0=$SECONDS rep=/tmp/kmemleak.report n
	# to the results log only: the console is scanned for "kmemleak"
	tell() { echo "$*" > $out; }
	tell "STACKLAT-START kmemleak"
	echo scan > "$kml"
	cat "$kml" > "$rep"
	# prints "OURS GONE OTHER", writes the blocks to show to $rep.shown
	n=$(python3 - "$rep" /tmp/stacklat-ranges 2>&1 <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
ranges = []
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 2 and int(f[0], 16) and int(f[1]):
        ranges.append((int(f[0], 16), int(f[0], 16) + int(f[1])))
blocks = [b for b in re.split(r"(?m)^(?=unreferenced object )", text)
          if b.startswith("unreferenced")]
ours, gone, other = [], [], []
for b in blocks:
    bare = [int(a, 16) for a in re.findall(r"\] (0xffffffff[0-9a-f]{8})$", b, re.M)]
    if "[stacklat]" in b or any(lo <= a < hi for a in bare for lo, hi in ranges):
        ours.append(b)
    elif bare:
        gone.append(b)
    else:
        other.append(b)
with open(sys.argv[1] + ".shown", "w") as f:
    for b in ours + gone + other[:20]:
        f.write("".join("[kmemleak] " + l + "\n" for l in b.rstrip("\n").split("\n")))
print(len(ours), len(gone), len(other))
PY
)
	cat "$rep.shown" > $out 2>/dev/null
	tell "STACKLAT-TIME kmemleak $((SECONDS - t0))s"
	local ours gone other
	read -r ours gone other <<< "$n"
	if ! [ "${other:-x}" -ge 0 ] 2>/dev/null; then
		tell "STACKLAT-RESULT kmemleak FAIL could not judge the report: $(echo "$n" | tail -n1)"
	elif [ "$ours" -gt 0 ]; then
		tell "STACKLAT-RESULT kmemleak FAIL $ours suspected leaks involve stacklat (their reports: [kmemleak] lines of the results log)"
	else
		tell "STACKLAT-RESULT kmemleak PASS no suspected leak involves stacklat ($gone in code of another unloaded module, $other elsewhere: [kmemleak] lines of the results log)"
	fi
}
main "$@"
exit $?
