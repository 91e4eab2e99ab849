#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: any
# (the keyed table's own bounds and accounting, the same code on every
# kernel; the hooks it counts from, sys_enter, sys_exit and process_exit,
# are 90-syscalls', which runs on all of them)
# The syscalls pipeline's keyed table under churn: 2,000 short-lived
# processes (10,000 under make soak) against small tables (keyed_rows=256,
# keyed_cpu_rows=64): the table never holds more than its bound nor grows
# in memory beyond it, the losses are counted, the rows of ended processes age out,
# and every call the sys_exit hook saw is in a row or in a counter (rows +
# aged + full + busy + dropped = hits).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

SYS=$SL_REPO/tests/vm/helpers/sl-sys
PROCS=$(sl_count 2000 10000)
T=/tmp/sl-90r
rm -rf "$T"
mkdir -p "$T"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# keyed NAME: a counter of the keyed table ("rows" for the rows in use)
keyed() {
	if [ "$1" = rows ]; then
		sed -n 's/^  keyed rows: \([0-9]*\)\/.*/\1/p' "$SL_DBG/status"
	else
		sed -n "s/^  keyed: .* $1=\\([0-9]*\\).*/\\1/p" "$SL_DBG/status"
	fi
}

# kib: the keyed table's memory, KiB
kib() { sed -n 's/^  keyed rows: .* \([0-9]*\) KiB in all$/\1/p' "$SL_DBG/status"; }
# rowb: the bytes a row takes in a CPU buffer
rowb() { sed -n 's/^  keyed rows: .*, \([0-9]*\) B a row there;.*/\1/p' "$SL_DBG/status"; }

# hits HOOK: the syscalls pipeline's hook hits
hits() {
	awk -v h="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "syscalls" && $1 == "hook" && $2 == h { for (i = 3; i <= NF; i++) if ($i ~ /^hits=/) { sub("hits=", "", $i); print $i } }' "$SL_DBG/status"
}

# dbgsum: the calls in every row of the debugfs table
dbgsum() { awk '$1 == "tgid" { on = 1; next } on { s += $5 } END { print s + 0 }' "$SL_DBG/syscalls"; }

note "$PROCS short-lived processes against keyed_rows=256 keyed_cpu_rows=64"
sl_load keyed_rows=256 keyed_cpu_rows=64 keyed_linger_ms=300
ctl enable syscalls
grep '^  keyed' "$SL_DBG/status"
mem0=$(kib)
# the CPU buffers start at 16 rows and may grow to keyed_cpu_rows=64 (the
# spill buffers, 128 rows, are at their bound): at most two buffers of 48
# more rows on each online CPU, and nothing beyond
onl=$(getconf _NPROCESSORS_ONLN)
memmax=$((mem0 + (2 * onl * 48 * $(rowb) + 1023) / 1024))
"$SYS" fork $PROCS 8 > "$T/fork" &
fpid=$!
maxrows=0
samples=0
while kill -0 $fpid 2> /dev/null; do
	r=$(keyed rows)
	[ "$r" -le 256 ] || fail "$r rows in a table of 256"
	[ "$r" -le "$maxrows" ] || maxrows=$r
	[ "$(kib)" -le "$memmax" ] || fail "the table's memory grew past its bound: $(kib) KiB, was $mem0, at most $memmax"
	samples=$((samples + 1))
	sleep 0.5
done
wait $fpid || fail "sl-sys fork failed"
assert_eq "processes" "forked $PROCS" "$(cat "$T/fork")"
sleep 3
ctl disable syscalls
# the rows first: reading them folds, and a fold ages rows out (their
# calls move from the rows to "aged"); status does not
sum=$(dbgsum)
grep '^  keyed' "$SL_DBG/status"
rows=$(keyed rows)
full=$(keyed full)
busy=$(keyed busy)
dropped=$(keyed dropped)
aged=$(keyed aged)
h=$(hits sys_exit)
note "rows: at most $maxrows over $samples samples, $rows at the end; aged $(keyed aged_rows) rows ($aged calls); lost full=$full busy=$busy dropped=$dropped ($(keyed dropped_rows) rows), retire_lost=$(keyed retire_lost)"
[ $((full + dropped)) -gt 0 ] || fail "no loss counted though $PROCS processes went through 64 rows a CPU"
agedrows=$(keyed aged_rows)
[ "$agedrows" -ge 100 ] || fail "only $agedrows rows aged out"
[ "$rows" -lt "$maxrows" ] || [ "$rows" -lt 64 ] || fail "$rows rows left, as many as at the peak ($maxrows)"
assert_eq "every call in a row or a counter (rows $sum + aged $aged + full $full + busy $busy + dropped $dropped)" \
	"$h" $((sum + aged + full + busy + dropped))
sl_unload
pass "$PROCS processes: at most $maxrows/256 rows, $((full + busy + dropped)) calls lost and counted, $agedrows rows aged, all $h calls accounted"
