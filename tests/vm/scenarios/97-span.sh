#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# Spans between two points (issue 27): "span add NAME FROM TO [KEY]",
# the span pipeline (max_spans=4 here).
#  - kernel to kernel by thread: sl-span A makes N rounds of getppid(2),
#    a sleep of US, getuid(2); span kk __x64_sys_getppid ->
#    __x64_sys_getuid: exactly N samples, none under US, and the sum
#    between the sleeps' (N x US) and A's own brackets around each round
#    (each sample lies inside one; a sleep never ends early): the two
#    exact bounds, as 97-ufunc's; span kr the same from getppid's
#    return (__x64_sys_getppid%return: a kretprobe or the fprobe);
#  - user to kernel by thread: span uk sl-span:sl_span_mark (a user
#    function's entry, resolved by the tool) -> __x64_sys_getuid: the
#    same N and bounds; span ur the same from sl_span_mark's return
#    (sl-span:sl_span_mark%return, a uretprobe alone);
#  - slow events over 10 ms (US is 20 ms): one line per round and span;
#  - tracepoints by thread, in a second run of sl-span B: span te
#    tp:raw_syscalls:sys_enter -> __x64_sys_clock_nanosleep%return (every
#    system call of B starts the span over: the last before the return is
#    the sleep's own) and span tx __x64_sys_clock_nanosleep ->
#    tp:raw_syscalls:sys_exit (the first exit after the sleep's entry is
#    its own): N samples each, the same bounds (glibc's nanosleep is
#    clock_nanosleep(2));
#  - kernel to kernel by argument: span blk blk_mq_start_request ->
#    blk_mq_end_request, arg0 (the request), on a null_blk completing
#    each request on a timer after T, no I/O scheduler; M direct reads by
#    dd, the pipeline's tgid filter on dd (other disks' requests start
#    elsewhere): as many
#    samples as reads completed in /sys/block/nullb0/stat, none under T,
#    the sum the kernel's own read time there (from each request's
#    allocation to its end, in ms: 1 ms and 0.5 ms a request allowed);
#    span tb the same on the tracepoints block:block_rq_issue ->
#    block:block_rq_complete, arg0 (the request in both since the queue
#    argument went, 5.10.137): as many samples, none under T;
#  - bad input (an unknown function, a fifth span over max_spans=4, a
#    bad key, a bad name, a duplicate name, an unknown tracepoint, an
#    argument key at a user function's return, an unknown span to
#    delete): refused with the reason in the kernel log, the hooks
#    unchanged;
#  - span del removes the rows.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

SP=$SL_REPO/tests/vm/helpers/sl-span
N=20 US=20000 M=30 T=5000000
TD=/tmp/sl-97s
rm -rf "$TD"
mkdir -p "$TD"

hooks() { grep '^  hook' "$SL_DBG/status" || true; }
# the rows without their counts
rows() { hooks | awk '{ print $2, $3, $4, $5 }'; }
# stage NAME FIELD: a span's field from show -j span
stage() {
	"$SL_TOOL" show -j span | python3 -c '
import json, sys
d = json.load(sys.stdin)
for p in d.get("pipelines", [d]):
    for s in p["stages"]:
        if s["name"] == sys.argv[1]:
            print(s[sys.argv[2]])' "$1" "$2"
}

sl_nullblk 1 irqmode=2 completion_nsec=$T queue_mode=2 gb=1
sl_load max_spans=4
echo "enable span" > "$SL_DBG/control"

# ---- kernel -> kernel and user -> kernel, by thread
"$SP" $N $US > "$TD/a" & A=$!
"$SL_TOOL" span add kk __x64_sys_getppid __x64_sys_getuid || fail "span add kk"
"$SL_TOOL" span add uk "$SP:sl_span_mark" __x64_sys_getuid thread || fail "span add uk"
"$SL_TOOL" span add kr __x64_sys_getppid%return __x64_sys_getuid || fail "span add kr"
"$SL_TOOL" span add ur "$SP:sl_span_mark%return" __x64_sys_getuid || fail "span add ur"
grep -Eq "^  hook /.*/sl-span:0x[0-9a-f]+%return +armed +uretprobe " "$SL_DBG/status" ||
	fail "ur's FROM not an armed uretprobe: $(hooks)"
"$SL_TOOL" filter span tgid=$A
hooks
echo "threshold span 10000000" > "$SL_DBG/control"
"$SL_TOOL" events -d 0.2 span > /dev/null	# drain
sl_wait_usr1 $A
kill -USR1 $A
wait $A || fail "sl-span failed"
cat "$TD/a"
hooks | grep -E "getppid|getuid|sl-span"
sed -n "/^pipeline span/,/^pipeline /p" "$SL_DBG/status" | grep -v "^  hook"
cat "$SL_DBG/span"
lo=$((N * US * 1000))
# bounds SPAN... against sl-span's output file $TD/$1 (its brackets)
bounds() {
	local f=$1 s min sum asum
	shift
	asum=$(sed -n 's/.*sum_ns=\([0-9]*\).*/\1/p' "$TD/$f")
	for s in "$@"; do
		assert_eq "$s samples" $N "$(stage "$s" count)"
		min=$(stage "$s" min_ns) sum=$(stage "$s" sum_ns)
		note "$s: min $min ns, sum $sum ns, sleeps $lo ns, the brackets $asum ns"
		[ "$min" -ge $((US * 1000)) ] || fail "$s: a sample $min ns under the sleep"
		[ "$sum" -ge "$lo" ] || fail "$s: sum $sum under the sleeps' $lo"
		[ "$sum" -le "$asum" ] || fail "$s: sum $sum over the brackets $asum"
	done
}
bounds a kk uk kr ur
"$SL_TOOL" events -d 0.5 span > "$TD/ev"
head -n 2 "$TD/ev"
for s in kk uk ur; do
	assert_eq "slow events of $s" $N "$(grep -c " sl-span $A/$A span total=[^ ]* $s=" "$TD/ev" || true)"
done
echo "threshold span 0" > "$SL_DBG/control"
"$SL_TOOL" span del uk || fail "span del uk"
"$SL_TOOL" span del ur || fail "span del ur"

# ---- tracepoints by thread
"$SP" $N $US > "$TD/b" & B=$!
"$SL_TOOL" span add te tp:raw_syscalls:sys_enter __x64_sys_clock_nanosleep%return || fail "span add te"
"$SL_TOOL" span add tx __x64_sys_clock_nanosleep tp:raw_syscalls:sys_exit || fail "span add tx"
for t in "tp:raw_syscalls:sys_enter" "tp:raw_syscalls:sys_exit"; do
	grep -Eq "^  hook $t +armed +tracepoint " "$SL_DBG/status" || fail "$t not an armed tracepoint: $(hooks)"
done
"$SL_TOOL" filter span tgid=$B
sl_wait_usr1 $B
kill -USR1 $B
wait $B || fail "sl-span B failed"
cat "$TD/b"
cat "$SL_DBG/span"
sed -n "/^pipeline span/,/^pipeline /p" "$SL_DBG/status" | grep "lost:"
bounds b te tx
"$SL_TOOL" span del te || fail "span del te"
"$SL_TOOL" span del tx || fail "span del tx"

# ---- kernel -> kernel by argument: a block request
"$SL_TOOL" span add blk blk_mq_start_request blk_mq_end_request arg0 || fail "span add blk"
"$SL_TOOL" span add tb tp:block:block_rq_issue tp:block:block_rq_complete arg0 || fail "span add tb"
# no I/O scheduler: each request is issued (started) directly by dd, so
# the tgid filter keeps nullb0's and no other disk's (5.10's default,
# mq-deadline, left them all to kblockd: 30 starts counted filtered)
echo none > /sys/block/nullb0/queue/scheduler
mkfifo "$TD/go"
( read -r _ < "$TD/go"; exec dd if=/dev/nullb0 of=/dev/null bs=4k count=$M iflag=direct status=none ) & D=$!
"$SL_TOOL" filter span tgid=$D
read -r r0 _ _ t0 _ < /sys/block/nullb0/stat
echo go > "$TD/go"
wait $D || fail "dd failed"
read -r r1 _ _ t1 _ < /sys/block/nullb0/stat
hooks | grep blk_mq
sed -n "/^pipeline span/,/^pipeline /p" "$SL_DBG/status" | grep "lost:"
cat "$SL_DBG/span"
assert_eq "nullb0 reads" $M $((r1 - r0))
assert_eq "blk samples (nullb0's reads completed)" $((r1 - r0)) "$(stage blk count)"
for s in blk tb; do
	min=$(stage $s min_ns)
	note "$s: min $min ns, mean $(( $(stage $s sum_ns) / M )) ns, T $T ns"
	[ "$min" -ge "$T" ] || fail "$s: a request ended $min ns after its start, under T"
done
assert_eq "tb samples (nullb0's reads completed)" $((r1 - r0)) "$(stage tb count)"
# the sum against the kernel's own read time (field 4, ms): the kernel
# times each request from its allocation, just before our start, to its
# end, and prints ms - as 56 allows, 1 ms and 0.5 ms a request (an
# emulator's stall between allocation and start)
sum=$(stage blk sum_ns)
note "blk: sum $sum ns, the kernel's read time $((t1 - t0)) ms"
[ "$sum" -le $(( (t1 - t0 + 1) * 1000000 )) ] || fail "blk: sum $sum over the kernel's $((t1 - t0)) ms"
[ "$sum" -ge $(( (t1 - t0 - 1) * 1000000 - M * 500000 )) ] || fail "blk: sum $sum under the kernel's $((t1 - t0)) ms"

# ---- bad input: refused, nothing changed
bad() { # bad WHY ARGS...: span add ARGS refused, WHY in the kernel log
	local why=$1
	shift
	if "$SL_TOOL" span add "$@" > "$TD/out" 2>&1; then
		fail "span add $* accepted"
	fi
	dmesg | tail -n 5 | grep -q "$why" || fail "span add $*: no '$why' in the kernel log: $(cat "$TD/out"; dmesg | tail -n 3)"
}
bad "all 4 spans are in use" five __x64_sys_getppid __x64_sys_getuid
"$SL_TOOL" span del tb || fail "span del tb"
h0=$(rows | md5sum)
bad "no such function" x sl_no_such_function_97 __x64_sys_getuid
bad "the key is thread, argN" x __x64_sys_getppid __x64_sys_getuid arg7
bad "is not a name" 'b!d' __x64_sys_getppid __x64_sys_getuid
bad "kk exists" kk __x64_sys_getppid __x64_sys_getuid
bad "no such tracepoint" x tp:sched:sl_no_such_tp_97 __x64_sys_getuid
bad "return point has no arguments" x "$SP:sl_span_mark%return" __x64_sys_getuid arg0
if echo "span del nosuch" > "$SL_DBG/control" 2> /dev/null; then fail "span del nosuch accepted"; fi
dmesg | tail -n 2 | grep -q "no span nosuch" || fail "span del nosuch: $(dmesg | tail -n 2)"
assert_eq "rows after refused adds (md5)" "$h0" "$(rows | md5sum)"

# ---- span del
"$SL_TOOL" span del kk || fail "span del kk"
"$SL_TOOL" span del kr || fail "span del kr"
"$SL_TOOL" span del blk || fail "span del blk"
! grep -Eq "getppid|getuid|blk_mq" <<<"$(hooks)" || fail "rows left after del: $(hooks)"
echo "disable span" > "$SL_DBG/control"
pass "spans: kk, uk, kr, ur (a user return) and te, tx (tracepoints) $N samples each within [N x US, the brackets], $N slow events each; blk and tb (tracepoints) $M requests = nullb0's reads, min >= T; bad input refused"
