#!/bin/bash
# The cost per context switch of the scheduler pipelines (issue 26): two
# threads pinned to one CPU passing a byte over pipes (sl-pingpong: one
# round trip is two switches, each with a wakeup before it), with
#   none        no module
#   idle        the module loaded, nothing enabled
#   sched       sched alone (run-queue latency: sched_wakeup,
#               sched_wakeup_new, sched_switch)
#   offcpu      offcpu alone (off-CPU by kernel stack, a stack taken at
#               each blocking switch-out)
#   cpu         cpu alone (CPU time per thread from sched_switch)
#   all         the three
# against the peers on the same loop, in the same boot:
#   bt_runqlat  bpftrace, runqlat.bt as its tools write it (sched-runqlat.bt)
#   bt_offcpu   bpftrace, offcputime-style: kstack and timestamp at a
#               blocking switch-out, the delta summed per stack at the
#               switch-in (sched-offcpu.bt)
#   perf_sched  perf sched record -a to a file on the guest's tmpfs
# All system-wide, like the peers (no filter).  The loop times itself, so
# a tracer's start and exit are outside the measured time.  The cases
# alternate within a round, their order rotating from round to round
# (bench-peers.sh's way); medians over BENCH_ROUNDS rounds.  Reported per
# switch (ns_per_op / 2): the case's time, what it adds over none (the
# peers) or over idle (stacklat's, the module's own presence apart), and
# stacklat's added time / each peer's added time.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=${BENCH_N:-10000}
ROUNDS=${BENCH_ROUNDS:-5}
RUN=("$SL_REPO/tests/vm/helpers/sl-pingpong" -n "$N" -c 0)
BT_DIR=$SL_REPO/tests/vm/bench
CASES=(none idle sched offcpu cpu all bt_runqlat bt_offcpu perf_sched)

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# the loop's output in /tmp/sb.out: ns per round trip and the kernel's
# count of switches (sl-pingpong's second line)
run_loop() {
	"$@" > /tmp/sb.out 2> /tmp/sb.err || fail "$1 failed: $(tail -n 5 /tmp/sb.out /tmp/sb.err)"
	NS=$(sed -n 's/.*ns_per_op=\([0-9.]*\).*/\1/p' /tmp/sb.out)
	[ -n "$NS" ] || fail "no result: $(tail -n 5 /tmp/sb.out /tmp/sb.err)"
	SW=$(sed -n 's/.*switches=\([0-9]*\).*/\1/p' /tmp/sb.out)
}

case_none() { run_loop "${RUN[@]}"; }

case_idle() {
	sl_load
	run_loop "${RUN[@]}"
	sl_unload
}

# stacklat with the pipelines named enabled; SAMPLES: what they lost
# (their status lines' lost and dropped counts, by name)
sl_case() {
	local p
	sl_load
	for p in "$@"; do
		ctl enable "$p"
	done
	run_loop "${RUN[@]}"
	for p in "$@"; do
		ctl disable "$p"
	done
	SAMPLES=$(awk -v on=" $* " '$1 == "pipeline" { cur = $2; next }
		index(on, " " cur " ") && ($1 == "lost:" || $1 == "keyed:") {
			for (i = 2; i <= NF; i++) {
				split($i, a, "=")
				if (a[2] + 0 > 0 && ($1 == "lost:" || a[1] ~ /^(full|dropped|dropped_rows|retire_lost)$/))
					printf "%s%s.%s=%s", n++ ? " " : "", cur, a[1], a[2]
			}
		}' "$SL_DBG/status")
	SAMPLES="lost: ${SAMPLES:-none}"
	sl_unload
}

case_sched() { sl_case sched; }
case_offcpu() { sl_case offcpu; }
case_cpu() { sl_case cpu; }
case_all() { sl_case sched offcpu cpu; }

# bpftrace -c starts the loop once its probes are attached; SAMPLES: the
# entries of its histogram (switch-ins with a wakeup or blocking seen)
bt_case() {
	local bt=$1 map=$2
	run_loop bpftrace -c "${RUN[*]}" "$BT_DIR/$bt"
	SAMPLES="$map=$(awk -v m="@$map:" '$1 == m { on = 1; next }
		on && /^\[/ { for (i = 2; i <= NF; i++) if ($i ~ /^\|/) { c += $(i - 1); break } }
		on && !/^\[/ { on = 0 }
		END { print c + 0 }' /tmp/sb.out)"
}

case_bt_runqlat() { bt_case sched-runqlat.bt usecs; }
case_bt_offcpu() { bt_case sched-offcpu.bt blocks; }

# perf sched record: -a, the scheduler's tracepoints (switch, wakeups,
# migrations, the sched_stat_* ones), one sample per event, to a file on
# tmpfs (the guest's /tmp); SAMPLES: perf's own count of what it wrote
case_perf_sched() {
	rm -f /tmp/sb-perf.data
	run_loop perf sched record -o /tmp/sb-perf.data -- "${RUN[@]}"
	SAMPLES="perf=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/sb.err)"
	rm -f /tmp/sb-perf.data
}

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# a case whose tool does not run here (no perf, no bpftrace) is left out
# with a note, once
skip=" "
command -v bpftrace > /dev/null || { note "no bpftrace: bt_runqlat, bt_offcpu left out"; skip+="bt_runqlat bt_offcpu "; }
if ! perf sched record -o /tmp/sb-perf.data -- true > /dev/null 2> /tmp/sb.err; then
	note "perf sched record does not run here: $(tail -n 2 /tmp/sb.err | paste -sd' ') - perf_sched left out"
	skip+="perf_sched "
fi
rm -f /tmp/sb-perf.data

declare -A ns=()
n=${#CASES[@]}
for r in $(seq 1 "$ROUNDS"); do
	for i in $(seq 0 $((n - 1))); do
		c=${CASES[$(((i + r - 1) % n))]}
		[[ "$skip" != *" $c "* ]] || continue
		SAMPLES=
		"case_$c"
		echo "round $r $c ns_per_op=$NS switches=$SW expected=$((2 * N))${SAMPLES:+ $SAMPLES}"
		ns[$c]+="$NS "
	done
done

declare -A med=()
for c in "${CASES[@]}"; do
	[ -n "${ns[$c]:-}" ] || continue
	# shellcheck disable=SC2086 # the rounds' figures, one word each
	med[$c]=$(median ${ns[$c]})
done

# per switch: a round trip is two.  Added: over none for the peers, over
# idle for stacklat's cases (the module's presence is idle's own line).
base_of() { case $1 in sched | offcpu | cpu | all) echo idle ;; *) echo none ;; esac; }
row() {
	local c=$1 b
	b=$(base_of "$c")
	awk -v c="$c" -v m="${med[$c]}" -v b="${med[$b]}" -v bn="$b" -v k="$KERNEL" \
		-v r="$ROUNDS" -v all="${ns[$c]}" -v fmt="$2" 'BEGIN {
		gsub(/ +$/, "", all); gsub(/ /, ",", all)
		a = (m - b) / 2
		if (fmt == "bench")
			printf "STACKLAT-BENCH sched-switch case=%s kernel=%s rounds=%d ns_per_switch=%.1f added_per_switch=%.1f over=%s round_trips_ns=%s\n",
				c, k, r, m / 2, a, c == "none" ? "-" : bn, all
		else
			printf "%-11s %10.1f %9.1f %6s  %s\n", c, m / 2, a, c == "none" ? "-" : bn, all
	}'
}
for c in "${CASES[@]}"; do
	[ -z "${med[$c]:-}" ] || row "$c" bench
done
echo
echo "== sched-switch on $KERNEL: $N round trips (2 context switches each) per run, medians of $ROUNDS rounds"
printf '%-11s %10s %9s %6s  %s\n' case ns/switch added over "rounds (ns per round trip)"
for c in "${CASES[@]}"; do
	[ -z "${med[$c]:-}" ] || row "$c" table
done

# stacklat's added time per switch / the peer's: sched against runqlat,
# offcpu against offcputime, all three against perf sched record (which
# records every scheduler event: what all three pipelines are built from)
echo "stacklat added / peer added, per switch:"
ratio() {
	local ours=$1 peer=$2
	if [ -z "${med[$ours]:-}" ] || [ -z "${med[$peer]:-}" ]; then
		echo "  $ours / $peer: - (not measured)"
		return 0
	fi
	awk -v o="${med[$ours]}" -v i="${med[idle]}" -v p="${med[$peer]}" -v z="${med[none]}" \
		-v on="$ours" -v pn="$peer" -v k="$KERNEL" 'BEGIN {
		a = (o - i) / 2; b = (p - z) / 2
		q = b > 0 ? sprintf("%.2f", a / b) : "-"
		printf "  %-7s / %-11s %8.1f / %8.1f = %s\n", on, pn, a, b, q
		printf "STACKLAT-BENCH sched-switch ratio=%s/%s kernel=%s ours_added=%.1f peer_added=%.1f ratio=%s\n", on, pn, k, a, b, q
	}'
}
for p in sched:bt_runqlat offcpu:bt_offcpu sched:perf_sched cpu:perf_sched all:perf_sched; do
	ratio "${p%%:*}" "${p#*:}"
done
