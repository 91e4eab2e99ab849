#!/bin/bash
# Runs in the guest, chrooted into the host's root (read-only over 9p) with
# the guest's kernel: every scenario (or bench) script in order, each in its
# own process with a timeout, results on /dev/ttyS1 for the host.
set -uo pipefail

arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
export SL_REPO=$(arg sl.repo)
export KERNEL=$(arg sl.kernel)
export KVER=$(uname -r)
export SL_MODE=$(arg sl.mode)
export SL_HOSTPORT=$(arg sl.port)
export SL_GUESTPORT=$(arg sl.gport)
sel=$(arg sl.scenarios | tr ',' ' ')
export SL_KO=$SL_REPO/tests/vm/.cache/build/$KERNEL/stacklat.ko
export SL_TOOL=$SL_REPO/tool/stacklat
export SL_DBG=/sys/kernel/debug/stacklat
export MODROOT=$SL_REPO/tests/vm/.cache/k/$KERNEL/root
export SL_DISK=/dev/vda
export SL_MNT=/tmp/sl-disk
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp
export TMPDIR=/tmp

out=/dev/ttyS1
say() { echo "$*" > $out; echo "$*"; }

mkdir -p "$SL_MNT"
mount -t ext4 "$SL_DISK" "$SL_MNT" 2>/dev/null || say "STACKLAT-GUEST-NOTE scratch disk not mounted"

case $SL_MODE in
bench) dir=$SL_REPO/tests/vm/bench ;;
demo) dir=$SL_REPO/tests/vm/demo ;;
*) dir=$SL_REPO/tests/vm/scenarios ;;
esac

timeout=${SL_SCENARIO_TIMEOUT:-600}
for s in "$dir"/*.sh; do
	name=$(basename "$s" .sh)
	if [ -n "$sel" ]; then
		ok=0
		for w in $sel; do
			case $name in "$w"*) ok=1 ;; esac
		done
		[ $ok = 1 ] || continue
	fi
	say "STACKLAT-START $name"
	log=/tmp/$name.log
	SL_SCENARIO=$name timeout -k 10 "$timeout" bash "$s" > "$log" 2>&1
	rc=$?
	# scenario output goes to the host's log for reading when a run fails
	grep -v '^STACKLAT-\(RESULT\|BENCH\) ' "$log" | sed "s/^/[$name] /" > $out
	grep '^STACKLAT-\(RESULT\|BENCH\) ' "$log" > $out
	if [ "$SL_MODE" != bench ] && ! grep -q "^STACKLAT-RESULT $name " "$log"; then
		if [ $rc = 124 ]; then
			say "STACKLAT-RESULT $name FAIL timed out after ${timeout}s"
		else
			say "STACKLAT-RESULT $name FAIL exited $rc without a verdict"
		fi
	fi
	# a scenario may leave the module loaded; the next one starts clean
	if grep -q "^stacklat " /proc/modules; then
		rmmod stacklat 2>/dev/null || say "STACKLAT-RESULT $name-unload FAIL rmmod stacklat failed"
	fi
done
say "STACKLAT-DMESG-BEGIN"
dmesg --color=never > $out
say "STACKLAT-DMESG-END"
umount "$SL_MNT" 2>/dev/null
say "STACKLAT-ALL-DONE"
