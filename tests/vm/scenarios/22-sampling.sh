#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# Sampling (issue 31): "sample PIPELINE N" follows one object in N, chosen
# at the pipeline's first point - each CPU follows the first object it
# starts there and every Nth after it - and counts them all.  Everything
# here runs on CPU 0 (this shell pinned, its children inherit it), so the
# counts are exact:
#  - func on __x64_sys_getppid (a return point: kretprobe, or the fprobe)
#    at sample 4: sl-spin's main thread makes C getppid(2), filtered on
#    its own tgid: C seen at the entry, C/4 followed, C/4 samples in the
#    stage, nothing counted unmatched or stale;
#  - net_rx at sample 8: R UDP request/response rounds on loopback,
#    filtered on the server's port (its requests only): R seen at the
#    first point, R/8 followed, R/8 samples in the total and in every
#    stage (loopback's receive runs in the sender's softirq, on CPU 0);
#    net_tx at sample 4 on the same rounds, filtered on the server's
#    port (its responses): R seen at IP output, where a packet's chain
#    starts, R/4 followed, R/4 in every UDP stage and the total; and
#    on R TCP rounds, the responses' segments (R, and one more a
#    retransmission) seen, a quarter followed in every TCP stage;
#  - syscalls at sample 4: sl-spin's C getppid(2), filtered on its tgid:
#    its getppid row counts C calls, C/4 of them timed (the row's
#    histogram), 3C/4 untimed; a quarter of the calls seen followed, each
#    a sample of the stage (but exit_group), none counted unmatched;
#  - storage at sample 4: a process sets the filter to its own tgid, then
#    makes C pread(2) of a cached page of a file on the ext4 scratch disk:
#    C operations seen at their outermost call, C/4 followed, C/4 samples
#    in read.syscall, read.vfs and read.fs (and their self times); the
#    layers under the others push nothing, so nothing is unmatched;
#  - block at sample 4: C O_DIRECT reads of 4 KiB from null_blk (one bio,
#    one request each), filtered on its disk: C bios seen at
#    block_bio_queue, C/4 followed, C/4 samples in Q2D, D2C and Q2C, and
#    the completions of the others not counted unmatched;
#  - reqresp at sample 4: RQ request/response rounds of 64 bytes on one
#    loopback connection (sl-rrserver, epoll, one thread; the client
#    waits for each response): RQ requests seen, RQ/4 followed, RQ/4
#    samples in every stage, the total and segments, nothing lost
#    (unmatched, stale) and nothing left in flight.  A request is chosen
#    at its data's first segment, in tcp_queue_rcv: over loopback the
#    segment is received in the sending client's softirq, on its CPU, or
#    by the server when it releases its socket (the backlog): both run on
#    CPU 0 here (this shell's affinity, which they inherit), so the
#    choices are one CPU's consecutive requests, exactly one in 4 of
#    them (the 1st, 5th, ...); the same over 4 connections and 2 server
#    threads; then reqresp at sample 1: RQ of RQ in every stage, nothing
#    counted;
#  - sample 1 follows every object again (R of R), and the counts start
#    over;
#  - the automatic rate ("sample func auto 1000": a budget of 1,000
#    calls a second on the busiest CPU): sl-spin paced at 20,000 getppid a
#    second for 4 s raises N (to 32 once a one-second look holds the full
#    pace; at least 8 is asked of the largest N seen, a look of a quarter
#    of the pace), every call still counted (seen exactly the calls), the
#    followed ones exactly the stage's samples; idle, N is 1 again within
#    3 s.  How many were followed depends on when the looks fell (the
#    calls before the first look that saw the pace are all followed: 6.12
#    under a loaded host followed 41,208 of 80,000): noted, not asserted;
#  - bad input (N 0 or over 65536, a word, a pipeline that does not
#    sample - irq, an unknown one) refused, the rate unchanged.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"
. "$SL_REPO/tests/vm/rr.sh"

C=1000 R=160 SIZE=64 RQ=40
T=/tmp/sl-22
rm -rf "$T"
mkdir -p "$T"
taskset -pc 0 $$ > /dev/null
# sample P FIELD: the pipeline's sample, sample_seen or sample_followed
sample() {
	"$SL_TOOL" status -j | python3 -c '
import json, sys
for p in json.load(sys.stdin)["pipelines"]:
    if p["pipeline"] == sys.argv[1]:
        print(p.get(sys.argv[2], "none"))' "$1" "$2"
}

sl_load
# ---- func: a call, at its entry
ctl enable func
"$SL_TOOL" func add __x64_sys_getppid || fail "func add"
ctl filter func tgid=4194304	# nobody's, until sl-spin sets its own
ctl sample func 4
grep -q '^  sample: 1 in 4, 0 objects at the first point, 0 followed$' "$SL_DBG/status" ||
	fail "status: no 'sample: 1 in 4': $(grep '^  sample' "$SL_DBG/status" || true)"
"$SL_REPO/tests/vm/helpers/sl-spin" -n $C -t 0 -f "$SL_DBG/control" -p func > /dev/null ||
	fail "sl-spin failed"
cat "$SL_DBG/func"
assert_eq "func: sample" 4 "$(sample func sample)"
assert_eq "func: calls seen at the entry" $C "$(sample func sample_seen)"
assert_eq "func: calls followed" $((C / 4)) "$(sample func sample_followed)"
assert_eq "func: samples of getppid" $((C / 4)) "$(cnt func __x64_sys_getppid)"
for l in unmatched stale orphaned; do
	assert_eq "func: lost $l" 0 "$(lost func $l)"
done

# ---- func, the automatic rate
ctl reset func
ctl filter func tgid=4194304
ctl sample func auto 1000
"$SL_REPO/tests/vm/helpers/sl-spin" -n 80000 -r 20000 -t 0 -f "$SL_DBG/control" -p func > "$T/spin" &
sp=$!
maxn=1 ns=""
while kill -0 $sp 2> /dev/null; do
	n=$(sample func sample)
	ns+="$n@$(cut -d' ' -f1 /proc/uptime) "
	[ "$n" -le "$maxn" ] || maxn=$n
	sleep 0.2
done
wait $sp || fail "sl-spin -r failed"
grep '^  sample' "$SL_DBG/status" | head -n 1
seen=$(sample func sample_seen) fol=$(sample func sample_followed)
note "auto: N at uptime: $ns"
note "auto: the largest N seen $maxn, peak $(sample func sample_peak)/s, $seen seen, $fol followed"
assert_eq "auto: budget" 1000 "$(sample func sample_auto)"
assert_eq "auto: calls seen" 80000 "$seen"
[ "$maxn" -ge 8 ] || fail "auto: N reached $maxn only at 20,000 calls a second over a budget of 1,000"
assert_eq "auto: samples = followed" "$fol" "$(cnt func __x64_sys_getppid)"
n=0
for _ in $(seq 15); do
	n=$(sample func sample)
	[ "$n" = 1 ] && break
	sleep 0.2
done
assert_eq "auto: N once idle" 1 "$n"
ctl sample func 1
assert_eq "a fixed rate ends auto (budget)" 0 "$(sample func sample_auto)"
"$SL_TOOL" func del __x64_sys_getppid
ctl disable func

# ---- syscalls: a call, at sys_enter.  sl-spin sets the filter to its
# own tgid, then makes C getppid(2) on CPU 0: C consecutive objects of one
# CPU, of which exactly C/4 are followed whatever came before them.  The
# row counts every call; the others are untimed, and their exits (no
# chain) are not unmatched.
ctl filter syscalls tgid=4194304	# first: none of this shell's calls
ctl sample syscalls 4
ctl enable syscalls
"$SL_REPO/tests/vm/helpers/sl-spin" -n $C -t 0 -f "$SL_DBG/control" -p syscalls > "$T/spin.sc" &
sp=$!
wait $sp || fail "sl-spin (syscalls) failed"
"$SL_TOOL" top syscalls -p $sp -j -n 0 > "$T/sc.json" || fail "top syscalls -p $sp -j failed"
row() { jq -r --arg f "$1" '[.rows[] | select(.syscall == "getppid")][0][$f] // 0' "$T/sc.json"; }
assert_eq "syscalls: getppid calls counted" $C "$(row count)"
assert_eq "syscalls: getppid calls untimed (not followed)" $((C * 3 / 4)) "$(row untimed)"
assert_eq "syscalls: getppid in the row's histogram" $((C / 4)) \
	"$(jq '[.rows[] | select(.syscall == "getppid")][0].hist | map(.[2]) | add' "$T/sc.json")"
seen=$(sample syscalls sample_seen) fol=$(sample syscalls sample_followed)
[ "$seen" -ge $C ] || fail "syscalls: $seen calls seen at sys_enter, fewer than the $C getppid"
# every followed call is a sample of the stage but exit_group, which never
# returns (sl-spin's last call: followed or not, by its place in the turn)
s=$(cnt syscalls syscall)
[ "$s" -eq "$fol" ] || [ "$s" -eq $((fol - 1)) ] ||
	fail "syscalls: $s samples of the stage for $fol followed"
assert_eq "syscalls: followed, of $seen seen" $(((seen + 3) / 4)) "$fol"
assert_eq "syscalls: lost unmatched" 0 "$(lost syscalls unmatched)"
ctl sample syscalls 1
ctl disable syscalls

# ---- storage: an operation, at its outermost call (here the system call)
mountpoint -q "$SL_MNT" || fail "scratch disk not mounted at $SL_MNT"
ctl filter storage tgid=4194304	# first: none of this shell's calls
ctl sample storage 4
ctl enable storage
python3 - "$SL_MNT/sl-22" "$SL_DBG/control" $C > /dev/null <<'PY' || fail "the storage helper failed"
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(fd, b"s" * 4096)       # before the filter: nobody's calls yet
ctl = os.open(sys.argv[2], os.O_WRONLY)
os.write(ctl, b"filter storage tgid=%d\n" % os.getpid())
for _ in range(int(sys.argv[3])):
    assert len(os.pread(fd, 4096, 0)) == 4096
PY
cat "$SL_DBG/storage"
grep '^  sample' "$SL_DBG/status"
assert_eq "storage: operations seen at the outermost call" $C "$(sample storage sample_seen)"
assert_eq "storage: followed" $((C / 4)) "$(sample storage sample_followed)"
for l in syscall syscall.self vfs vfs.self fs fs.self; do
	assert_eq "storage: read.$l" $((C / 4)) "$(cnt storage read.$l)"
done
assert_eq "storage: lost unmatched" 0 "$(lost storage unmatched)"
ctl sample storage 1
ctl disable storage

# ---- block: a bio, at block_bio_queue
sl_modprobe null_blk nr_devices=1
for _ in $(seq 50); do [ -b /dev/nullb0 ] && break; sleep 0.1; done
[ -b /dev/nullb0 ] || fail "no /dev/nullb0"
udevadm settle 2> /dev/null || sleep 1
ctl filter block dev="$(cat /sys/block/nullb0/dev)"
ctl sample block 4
ctl enable block
dd if=/dev/nullb0 of=/dev/null bs=4k count=$C iflag=direct status=none
cat "$SL_DBG/block"
grep '^  sample' "$SL_DBG/status"
assert_eq "block: bios seen at block_bio_queue" $C "$(sample block sample_seen)"
assert_eq "block: followed" $((C / 4)) "$(sample block sample_followed)"
for st in Q2D D2C Q2C nullb0.D2C; do
	assert_eq "block: $st" $((C / 4)) "$(cnt block $st)"
done
assert_eq "block: lost unmatched" 0 "$(lost block unmatched)"
ctl sample block 1
ctl disable block
rmmod null_blk	# the next scenarios load it with parameters of their own

# ---- reqresp: a request, at its data's first segment (see the top)
ctl sample reqresp 4
ctl enable reqresp
rr_run 5421 epoll 1 1 $RQ 0 0
grep '^  sample' "$SL_DBG/status"
# rr_counts N: every stage, the total and segments hold N (less the
# requests lost, which only PREEMPT_RT and missed hits allow, counted
# unmatched), nothing else lost, nothing left in flight - the marks of
# the requests not followed gone too
u=$(rr_lost unmatched)
m=$(awk '/^pipeline / { on = ($2 == "reqresp:") }
	on && ($1 == "hook" || $1 == "fprobe:") { for (i = 2; i <= NF; i++) if ($i ~ /^nmissed=/) { split($i, a, "="); t += a[2] } }
	END { print t + 0 }' "$SL_DBG/status")
# a request not followed is never unmatched: only a lost one is
[ "$u" = 0 ] || rr_rt || [ "$u" -le "$m" ] ||
	fail "reqresp: $u requests counted unmatched at sample 4 ($m hits missed, not PREEMPT_RT)"
fol=$(sample reqresp sample_followed)
rr_counts $((fol + u))
assert_eq "reqresp: requests seen (less $u lost)" $((RQ - u)) "$(sample reqresp sample_seen)"
[ "$u" != 0 ] || assert_eq "reqresp: requests followed" $((RQ / 4)) "$fol"
[ "$u" = 0 ] || note "reqresp: $u requests lost (unmatched): $fol followed"
assert_eq "reqresp: lost orphaned" 0 "$(rr_lost orphaned)"
# the same over 4 connections dealt to 2 server threads (the client
# round robin, each request once its response is in: still one CPU's
# consecutive requests), so that skipped and followed requests alternate
# between connections and threads
ctl reset reqresp
rr_run 5423 epoll 2 4 $RQ 0 0
rr_counts $((RQ / 4))
assert_eq "reqresp 2x4: requests seen" $RQ "$(sample reqresp sample_seen)"
assert_eq "reqresp 2x4: requests followed" $((RQ / 4)) "$(sample reqresp sample_followed)"
# every request again: the counts start over, the stages hold them all
ctl sample reqresp 1
ctl reset reqresp
rr_run 5422 epoll 1 1 $RQ 0 0
rr_counts $RQ
assert_eq "reqresp at sample 1: seen (not counted)" 0 "$(sample reqresp sample_seen)"
ctl disable reqresp

# ---- net_rx: a packet, at the first point armed
ctl enable net_rx
ctl enable net_tx
port=5221
ctl filter net_rx clear lport=$port
ctl filter net_tx clear lport=$port
ctl sample net_rx 8
ctl sample net_tx 4
run_pair - - udp 127.0.0.1 $port $R $SIZE rr
cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
grep '^  sample' "$SL_DBG/status"
assert_eq "net_rx: datagrams seen at the first point" $R "$(sample net_rx sample_seen)"
assert_eq "net_rx: followed" $((R / 8)) "$(sample net_rx sample_followed)"
expect net_rx $((R / 8)) $RX_STAGES total
sums_match net_rx $RX_STAGES
assert_eq "net_tx: responses seen at IP output" $R "$(sample net_tx sample_seen)"
assert_eq "net_tx: followed" $((R / 4)) "$(sample net_tx sample_followed)"
expect net_tx $((R / 4)) $TX_UDP_STAGES total
sums_match net_tx $TX_UDP_STAGES
# TCP: the same on R rounds of a loopback connection (the responses'
# segments; a retransmitted one is one more at IP output)
no_tlp -
ctl reset net_tx
ctl sample net_tx 4
ctl filter net_tx clear lport=$((port + 100))
run_pair - - tcp 127.0.0.1 $((port + 100)) $R $SIZE rr
assert_eq "net_tx TCP: segments seen at IP output" $((R + SRV_RETRANS)) "$(sample net_tx sample_seen)"
assert_eq "net_tx TCP: followed" $(((R + SRV_RETRANS + 3) / 4)) "$(sample net_tx sample_followed)"
expect net_tx $(((R + SRV_RETRANS + 3) / 4)) $TX_TCP_STAGES total
ctl disable net_tx
# every object again: the counts start over, the stages count all
ctl sample net_rx 1
ctl reset net_rx
port=$((port + 1))
ctl filter net_rx clear lport=$port
run_pair - - udp 127.0.0.1 $port $R $SIZE rr
assert_eq "net_rx at sample 1: rate" 1 "$(sample net_rx sample)"
assert_eq "net_rx at sample 1: seen (not counted)" 0 "$(sample net_rx sample_seen)"
expect net_rx $R $RX_STAGES total
grep -q '^  sample: every object$' "$SL_DBG/status" || fail "status at sample 1: $(grep '^  sample' "$SL_DBG/status")"

# ---- bad input: refused, nothing changed
ctl sample net_rx 8
bad() { # bad LINE WHY: the control line refused, WHY in the kernel log
	if echo "$1" > "$SL_DBG/control" 2> /dev/null; then
		fail "'$1' accepted"
	fi
	dmesg | tail -n 3 | grep -q "$2" || fail "'$1': no '$2' in the kernel log: $(dmesg | tail -n 2)"
}
bad "sample net_rx 0" "is not 1..65536"
bad "sample net_rx 65537" "is not 1..65536"
bad "sample net_rx x" "is not 1..65536"
bad "sample irq 4" "does not sample"
bad "sample nosuch 4" "nosuch"
bad "sample net_rx auto 0" "is not N"
bad "sample net_rx auto" "is not N"
bad "sample net_rx auto 100000001" "is not 1..100000000"
for a in 0 65537 x -1 "auto 0" "auto x" "auto 100000001" "auto 5 5"; do
	# shellcheck disable=SC2086 # the words of $a
	if "$SL_TOOL" sample net_rx $a 2> /dev/null; then fail "stacklat sample net_rx $a accepted"; fi
done
if "$SL_TOOL" sample irq 4 2> /dev/null; then fail "stacklat sample irq 4 accepted"; fi
assert_eq "net_rx's rate after refused changes" 8 "$(sample net_rx sample)"
assert_eq "irq: no sample key (it cannot sample)" none "$(sample irq sample)"
ctl disable net_rx
pass "func 1 in 4: $C calls seen, $((C / 4)) followed and timed; net_rx 1 in 8: $R datagrams seen, $((R / 8)) followed in every stage; net_tx 1 in 4: $R seen, $((R / 4)) followed; syscalls 1 in 4: $C getppid counted, $((C / 4)) timed; storage 1 in 4: $C preads seen, $((C / 4)) in every layer; block 1 in 4: $C bios seen, $((C / 4)) in Q2D, D2C, Q2C; reqresp 1 in 4: $RQ requests seen, $((RQ / 4)) followed in every stage; sample 1 follows all; bad input refused"
