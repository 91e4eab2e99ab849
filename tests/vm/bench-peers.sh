#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the peer benches (tests/vm/bench/4*-peers-*.sh) after lib.sh:
# stacklat against the tools one would use instead, on the same workload,
# the same stages, in one boot.
#
# A workload file sets, before calling peer_bench NAME:
#   W_RUN=(command ...)   the loop; it prints ns_per_op=X or ns_per_call=X
#                         for its own timed loop only, so a tracer's start
#                         and stop are never in the measured time
#   W_OPS                 operations the loop does (ns_per_op is per one)
#   W_EXPECT              samples each stage should get (from W_OPS)
#   W_STAGES="a b ..."    the stages every tool records, in this order
#   W_PIDFILTER=0|1       whether the tools filter on the loop's pid
#   W_BT_DEFAULT, W_BT_TUNED   bpftrace scripts (tests/vm/bench/*.bt): one
#                         hist() map per stage, named @STAGE
#   w_sl_arm PID          arms stacklat (module loaded) for the loop's pid
#   w_sl_count STAGE      stacklat's count for STAGE
#   w_ft_setup PID        ftrace hist triggers (bench-ftrace.sh) for the loop;
#                         the synthetic event of STAGE is slb_STAGE; a stage
#                         ftrace does not follow is absent from W_FT_STAGES
#
# Cases, in one round each once (the order rotates from round to round):
#   none        no tracer
#   stacklat    the module armed on the workload's pipeline
#   bt_default  bpftrace with kprobe/kretprobe/tracepoint probes
#   bt_tuned    bpftrace with kfunc/kretfunc (fentry/fexit), rawtracepoint
#   ftrace      kprobe events + hist triggers + synthetic events (tracefs)
#   bt_attach   bpftrace on bt_default's probes with empty actions: what
#               the attachment alone costs (kprobe, kretprobe, tracepoint
#               and calling a program), which stacklat pays too wherever
#               it attaches the same way; no samples
# Each case reports the loop's ns per operation and the number of samples
# each stage received (stacklat: its counts; bpftrace: the sum of the
# buckets of its hist() map, printed at exit; ftrace: the Hits of the
# synthetic event's hist).  Medians over the rounds; "added" = case - none.

. "$SL_REPO/tests/vm/bench-ftrace.sh"

PEER_CASES=(none stacklat bt_default bt_tuned ftrace bt_attach)
# W_SAMPLE="PIPELINE..." (a workload whose pipelines sample): also stacklat
# at "sample PIPELINE 16" for each (issue 31's second target: <= 0.1 of
# every peer)
peer_cases() {
	[ -z "${W_SAMPLE:-}" ] || PEER_CASES+=(stacklat_s16)
}
# shellcheck disable=SC2034 # used by the workload files
PB_DIR=$SL_REPO/tests/vm/bench

# The workload, held at a gate (a fifo) until the tracer is ready: its pid
# is known before it runs.  peer_go opens the gate and waits for it.
peer_start() {
	rm -f /tmp/pb-gate
	mkfifo /tmp/pb-gate
	(read -r _ < /tmp/pb-gate; exec "${W_RUN[@]}") > /tmp/pb-out 2>&1 &
	GPID=$!
}

peer_go() {
	echo go > /tmp/pb-gate
	wait "$GPID" || fail "workload failed: $(cat /tmp/pb-out)"
	NS=$(sed -n 's/.*ns_per_[a-z]*=\([0-9.]*\).*/\1/p' /tmp/pb-out)
}

# bpftrace's hist() maps at exit: "@name:" then one line per bucket, the
# count just before the bar ("[1K, 2K)   12 |@@@ |", "[0]   3 |@|")
bt_counts() {
	awk '/^@[a-z_0-9]*:/ { m = substr($1, 2, length($1) - 2); next }
	     /^\[/ { for (i = 2; i <= NF; i++) if ($i ~ /^\|/) { c[m] += $(i - 1); break } }
	     END { for (m in c) print m, c[m] }' "$1"
}

case_none() {
	peer_start
	peer_go
	SAMPLES=-
}

case_stacklat() {
	local s
	sl_load
	peer_start
	w_sl_arm "$GPID"
	if [ -n "${1:-}" ]; then
		for s in $W_SAMPLE; do
			echo "sample $s $1" > "$SL_DBG/control"
		done
	fi
	peer_go
	SAMPLES=
	for s in $W_STAGES; do
		SAMPLES+="$s=$(w_sl_count "$s") "
	done
	# hits the kernel could not deliver (kprobe reentrancy, kretprobe
	# instances, the fprobe's): any of them is a sample short
	MISSED=$(awk '($1 == "hook" || $1 == "fprobe:") { for (i = 3; i <= NF; i++) if ($i ~ /^nmissed=/) { sub("nmissed=", "", $i); m += $i } }
		END { print m + 0 }' "$SL_DBG/status")
	sl_unload
}

# one object in 16 followed: its stages get W_EXPECT / 16 (each CPU
# follows its first and every 16th after: a run on one CPU, ceil)
case_stacklat_s16() { case_stacklat 16; }

# bpftrace -c starts the loop once every probe is attached (and cpid is its
# pid); the loop times itself, so bpftrace's start (seconds under
# emulation) and its exit are outside the measured time: they are reported
# apart as setup_s (whole run minus the loop).
case_bt() {
	local bt=$1 t0 t1 s c
	t0=$(date +%s.%N)
	bpftrace -c "${W_RUN[*]}" "$bt" > /tmp/pb-bt.out 2> /tmp/pb-bt.err ||
		fail "bpftrace $bt failed: $(tail -n 5 /tmp/pb-bt.err)"
	t1=$(date +%s.%N)
	grep -q "ns_per_" /tmp/pb-bt.out || fail "bpftrace $bt: no result: $(tail -n 5 /tmp/pb-bt.out /tmp/pb-bt.err)"
	NS=$(sed -n 's/.*ns_per_[a-z]*=\([0-9.]*\).*/\1/p' /tmp/pb-bt.out)
	bt_counts /tmp/pb-bt.out > /tmp/pb-bt.counts
	SAMPLES=
	for s in $W_STAGES; do
		c=$(awk -v s="$s" '$1 == s { print $2 }' /tmp/pb-bt.counts)
		SAMPLES+="$s=${c:-0} "
	done
	SETUP=$(awk -v a="$t0" -v b="$t1" -v ns="$NS" -v n="$W_OPS" 'BEGIN { printf "%.1f", b - a - ns * n / 1e9 }')
}

case_bt_default() { case_bt "$W_BT_DEFAULT"; }

# bt_default's probes, each with an empty action (deduplicated)
case_bt_attach() {
	awk '$1 ~ /^(kprobe|kretprobe|uprobe|uretprobe|tracepoint|rawtracepoint|kfunc|kretfunc):/ && !seen[$1]++ { print $1 " {}" }' \
		"$W_BT_DEFAULT" > /tmp/pb-attach.bt
	case_bt /tmp/pb-attach.bt
	SAMPLES=
}
case_bt_tuned() { case_bt "$W_BT_TUNED"; }

case_ftrace() {
	local s
	peer_start
	w_ft_setup "$GPID"
	peer_go
	SAMPLES=
	for s in $W_STAGES; do
		if [[ " $W_FT_STAGES " == *" $s "* ]]; then
			SAMPLES+="$s=$(ft_hits "slb_$s") "
		else
			SAMPLES+="$s=- "
		fi
	done
	ft_teardown
}

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# peer_bench NAME: the rounds, then one STACKLAT-BENCH line per case and
# the table.  Samples are those of the median round's... of every round:
# each must agree with W_OPS, so the table shows the last round's and the
# log shows all.
peer_bench() {
	local name=$1 rounds=${BENCH_ROUNDS:-5} r i c n
	peer_cases
	n=${#PEER_CASES[@]}
	declare -gA PB_NS=() PB_SAMPLES=() PB_SETUP=()
	PB_MISSED=
	for r in $(seq 1 "$rounds"); do
		for i in $(seq 0 $((n - 1))); do
			c=${PEER_CASES[$(((i + r - 1) % n))]}
			SETUP=
			MISSED=
			"case_$c"
			echo "round $r $c ns_per_op=$NS samples: $SAMPLES${SETUP:+ setup_s=$SETUP}${MISSED:+ nmissed=$MISSED}"
			[ -z "$MISSED" ] || PB_MISSED+="$MISSED "
			PB_NS[$c]+="$NS "
			PB_SAMPLES[$c]=$SAMPLES
			[ -z "$SETUP" ] || PB_SETUP[$c]+="$SETUP "
		done
	done
	peer_report "$name" "$rounds"
}

peer_report() {
	local name=$1 rounds=$2 c m0 s st=${W_STAGES// //}
	# shellcheck disable=SC2086
	m0=$(median ${PB_NS[none]})
	declare -A med=()
	for c in "${PEER_CASES[@]}"; do
		# shellcheck disable=SC2086
		med[$c]=$(median ${PB_NS[$c]})
		s=$(echo "${PB_SAMPLES[$c]}" | tr ' ' '\n' | sed -n 's/.*=//p' | paste -sd/)
		awk -v n="$name" -v c="$c" -v k="$KERNEL" -v m="${med[$c]}" -v z="$m0" -v s="$s" \
			-v st="$st" -v ops="$W_OPS" -v x="$W_EXPECT" -v r="$rounds" -v all="${PB_NS[$c]}" 'BEGIN {
			gsub(/ +$/, "", all); gsub(/ /, ",", all)
			printf "STACKLAT-BENCH name=%s case=%s kernel=%s rounds=%d ns_per_op=%.1f added=%.1f ops=%d stages=%s samples=%s expected=%d all=%s\n",
				n, c, k, r, m, m - z, ops, st, (c == "none" || c == "bt_attach" ? "-" : s), x, all
		}'
	done
	echo
	echo "== $name on $KERNEL: $W_OPS operations per run, medians of $rounds rounds (ns per operation); $W_EXPECT samples expected per stage"
	printf '%-11s %10s %10s %14s  %s\n' case ns/op added "stacklat/this" "samples ($st)"
	for c in "${PEER_CASES[@]}"; do
		s=$(echo "${PB_SAMPLES[$c]}" | tr ' ' '\n' | sed -n 's/.*=//p' | paste -sd/)
		awk -v c="$c" -v m="${med[$c]}" -v z="$m0" -v sl="${med[stacklat]}" -v s="$s" 'BEGIN {
			a = m - z; r = "-"
			if (c != "none" && c != "stacklat" && c != "stacklat_s16" && a > 0)
				r = sprintf("%.2f", (sl - z) / a)
			printf "%-11s %10.1f %10.1f %14s  %s\n", c, m, a, r, (c == "none" || c == "bt_attach" ? "-" : s)
		}'
	done
	awk -v z="$m0" -v sl="${med[stacklat]}" -v d="${med[bt_default]}" -v a="${med[bt_attach]}" 'BEGIN {
		printf "beyond the attachment (added minus bt_attach'"'"'s %.1f): stacklat %.1f, bt_default %.1f", a - z, sl - a, d - a
		if (d - a > 0)
			printf " (stacklat/bt_default %.2f)", (sl - a) / (d - a)
		f = d - z > 0 ? 100 * (a - z) / (d - z) : 0
		printf "; the attachment is %.0f%% of bt_default'"'"'s added time\n", f
	}'
	[ -z "${med[stacklat_s16]:-}" ] ||
		awk -v z="$m0" -v s="${med[stacklat_s16]}" -v d="${med[bt_default]}" -v t="${med[bt_tuned]}" -v f="${med[ftrace]}" 'BEGIN {
			printf "stacklat at sample 16: added %.1f ns/op", s - z
			if (d - z > 0) printf "; / bt_default %.2f", (s - z) / (d - z)
			if (t - z > 0) printf ", / bt_tuned %.2f", (s - z) / (t - z)
			if (f - z > 0) printf ", / ftrace %.2f", (s - z) / (f - z)
			printf "\n"
		}'
	echo "stacklat: probe hits the kernel missed, per round: $PB_MISSED"
	for c in bt_default bt_tuned bt_attach; do
		[ -z "${PB_SETUP[$c]:-}" ] || echo "$c: bpftrace start+exit outside the loop, s per run: ${PB_SETUP[$c]}"
	done
	echo "rounds (ns/op): $(for c in "${PEER_CASES[@]}"; do printf '%s: %s| ' "$c" "${PB_NS[$c]}"; done)"
}
