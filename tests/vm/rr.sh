#!/bin/bash
# Sourced by the reqresp scenarios (60-64), after lib.sh.
RR=$SL_REPO/tests/vm/helpers/sl-rrserver
[ -x "$RR" ] || fail "no $RR (make -C tests/vm/helpers)"

rr_ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# the reqresp stages, in wire order
RR_STAGES="rx tcpip notify runqueue wait-return queue read app tx total"

# rr_run PORT MODE THREADS CONNS N X_US Y_US [XSTEP_US]: a server and a
# client over loopback; the server's summary line in $RR_SRV, the client's
# in $RR_CLI.  RR_SLEEP=1: the client sends each request once every server
# thread sleeps (RR_SLEEPER).  RR_PIN=1: the server runs on CPU 1, the
# client on CPU 0, so that a woken server never waits for the client's CPU
rr_run() {
	local port=$1 mode=$2 thr=$3 conns=$4 n=$5 x=$6 y=$7 step=${8:-0}
	local spin=() cpin=()
	if [ -n "${RR_PIN:-}" ]; then
		spin=(taskset -c 1)
		cpin=(taskset -c 0)
	fi
	rm -f /tmp/rr-srv.out
	"${spin[@]}" "$RR" server "$port" "$mode" "$thr" "$conns" "$x" "$y" "$step" > /tmp/rr-srv.out &
	local spid=$!
	for _ in $(seq 100); do
		grep -q listening /tmp/rr-srv.out 2> /dev/null && break
		sleep 0.05
	done
	RR_CLI=$(RR_SLEEPER=${RR_SLEEP:+$spid} timeout 120 "${cpin[@]}" "$RR" client 127.0.0.1 "$port" "$conns" "$n" 64) ||
		fail "rr client failed"
	wait "$spid" || fail "rr server failed"
	RR_SRV=$(tail -n 1 /tmp/rr-srv.out)
	note "server: $RR_SRV; client: $RR_CLI"
}

# rr_json FILE: the reqresp pipeline as JSON
rr_json() { "$SL_TOOL" show -j reqresp > "$1" || fail "stacklat show reqresp failed"; }

# rr_lost KIND: reqresp's loss counter KIND (table_full, stale, ...)
rr_lost() {
	awk -v k="$1" '/^pipeline / { on = ($2 == "reqresp:") }
		on && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# rr_inflight: reqresp's entries in the in-flight table
rr_inflight() { awk '$1 == "reqresp:" { print $2 }' "$SL_DBG/inflight"; }

# rr_rt: the guest runs PREEMPT_RT
rr_rt() { [ -e /sys/kernel/realtime ] || uname -v | grep -q PREEMPT_RT; }

# rr_counts N: every time stage and the segments histogram hold exactly N
# samples, no request was lost and nothing is left in flight.  A hit the
# kernel missed (nmissed) may lose a request, counted unmatched, or leave
# an entry that only age removes (stale): then the stages hold N minus the
# unmatched, and the two together are at most one per miss.  On
# PREEMPT_RT a request is at times lost, counted unmatched (in 1 of 9 runs
# with 3 guests on 2 host cores; by the table's insert count, a request
# whose segment did not reach the socket's pending data: issue 11's known
# defect): there the stages hold
# N minus the unmatched ones, every other loss is 0 all the same
rr_counts() {
	local n=$1 s c u=0 m st=0
	# what is left in flight, and every loss, before any count is judged
	[ "$(rr_inflight)" = 0 ] || sed 's/^/inflight: /' "$SL_DBG/inflight"
	awk '/^in-flight table/ { print } /^pipeline / { on = ($2 == "reqresp:") }
		on && ($1 == "lost:" || (($1 == "hook" || $1 == "fprobe:") && !/nmissed=0/))' "$SL_DBG/status"
	# hits the kernel dropped (a kprobe hit while another kprobe's handler
	# runs on the CPU, e.g. a softirq arriving inside a task-context
	# handler: 5.10, where entry points are kprobes, under load); each
	# request they lose is counted unmatched, and at most one per miss
	m=$(awk '/^pipeline / { on = ($2 == "reqresp:") }
		on && ($1 == "hook" || $1 == "fprobe:") { for (i = 2; i <= NF; i++) if ($i ~ /^nmissed=/) { split($i, a, "="); t += a[2] } }
		END { print t + 0 }' "$SL_DBG/status")
	if rr_rt; then
		u=$(rr_lost unmatched)
		[ "$u" = 0 ] || note "PREEMPT_RT: $u of $n requests lost, counted unmatched (issue 11)"
	elif [ "$m" != 0 ]; then
		# a missed hit leaves one chain unfinished: its request counted
		# unmatched, or its entry reclaimed by age (stale)
		u=$(rr_lost unmatched)
		st=$(rr_lost stale)
		[ $((u + st)) -le "$m" ] || fail "reqresp: $u requests unmatched and $st entries stale, more than the $m hits the kernel missed"
		note "$m hook hits missed by the kernel (nmissed): $u of $n requests lost, counted unmatched; $st entries stale"
	fi
	for s in $RR_STAGES segments; do
		c=$(awk -v s="$s" '$1 == s { print $2 }' "$SL_DBG/reqresp")
		assert_eq "reqresp $s count" "$((n - u))" "${c:-0}"
	done
	for s in table_full bad_delta dropped; do
		assert_eq "reqresp lost $s" 0 "$(rr_lost $s)"
	done
	assert_eq "reqresp lost stale" "$st" "$(rr_lost stale)"
	assert_eq "reqresp lost unmatched" "$u" "$(rr_lost unmatched)"
	assert_eq "reqresp entries in flight" 0 "$(rr_inflight)"
}
