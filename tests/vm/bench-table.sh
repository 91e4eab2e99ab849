#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-table.sh RESULTS.LOG: the final comparison table of make bench,
# after each workload's own table, from the peer benches' lines
# (bench-peers.sh):
#   STACKLAT-BENCH name=W case=C kernel=K ... ns_per_op=X added=Y ...
#                  samples=a/b/... expected=E
# One row per workload: the time added per operation by each tool (median
# minus no tracer), stacklat's added time as a fraction of each peer's
# (issue 16's targets: <= 0.25 of tuned bpftrace, <= 0.20 of default
# bpftrace and of ftrace), and the samples each tool recorded per stage
# (min-max over the stages it follows) against the expected count.  And
# what the attachment alone costs (bt_attach: bpftrace on the default
# script's probes with empty actions) and the ratio of what each adds
# beyond it: the part of the cost that is the tool's own work.
set -euo pipefail
# each workload's own table, as the bench printed it
sed -n 's/^\[[0-9]*-peers-[a-z]*\] //; T; /^== /,/^rounds (ns\/op)/p' "$1"
grep -a '^STACKLAT-BENCH name=' "$1" | awk '
function f(s, k,   i, n, a, kv) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) {
		split(a[i], kv, "=")
		if (kv[1] == k)
			return substr(a[i], length(k) + 2)
	}
	return ""
}
function range(s,   n, a, i, lo, hi) {
	if (s == "-")
		return "-"
	n = split(s, a, "/")
	lo = ""; hi = ""
	for (i = 1; i <= n; i++) {
		if (a[i] == "-")
			continue
		if (lo == "" || a[i] + 0 < lo) lo = a[i] + 0
		if (hi == "" || a[i] + 0 > hi) hi = a[i] + 0
	}
	return lo == hi ? lo : lo "-" hi
}
{
	w = f($0, "name"); c = f($0, "case")
	if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
	k = f($0, "kernel"); r = f($0, "rounds")
	ns[w, c] = f($0, "ns_per_op"); add[w, c] = f($0, "added")
	smp[w, c] = range(f($0, "samples")); xp[w] = f($0, "expected")
	spr[w, c] = spread(f($0, "all"), ns[w, c])
}
# how noisy the rounds were: (slowest - fastest) / median, in %
function spread(s, m,   n, a, i, lo, hi) {
	n = split(s, a, ",")
	lo = hi = a[1] + 0
	for (i = 2; i <= n; i++) {
		if (a[i] + 0 < lo) lo = a[i] + 0
		if (a[i] + 0 > hi) hi = a[i] + 0
	}
	return m > 0 ? sprintf("%.0f%%", 100 * (hi - lo) / m) : "-"
}
# "!" after a ratio: above its target
function ratio(w, c, t,   q) {
	if (add[w, c] <= 0)
		return "-"
	q = add[w, "stacklat"] / add[w, c]
	return sprintf("%.2f%s", q, q > t ? "!" : "")
}
END {
	if (!nw)
		exit
	printf "\nstacklat and its peers on %s: ns added per operation (median of %s rounds minus no tracer)\n", k, r
	printf "and the ratio stacklat added / peer added (targets: <= 0.25 bt_tuned, <= 0.20 bt_default and ftrace; !: above)\n"
	printf "%-14s %9s %9s %10s %9s %9s %8s %8s %8s\n", "workload", "none", "stacklat", "bt_default", "bt_tuned", "ftrace", "/bt_def", "/bt_tun", "/ftrace"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "%-14s %9.0f %9.0f %10.0f %9.0f %9.0f %8s %8s %8s\n", w, ns[w, "none"], add[w, "stacklat"],
			add[w, "bt_default"], add[w, "bt_tuned"], add[w, "ftrace"],
			ratio(w, "bt_default"), ratio(w, "bt_tuned"), ratio(w, "ftrace")
	}
	printf "the attachment alone (bt_attach: the probes of bt_default with empty actions) and the ratio beyond it\n"
	printf "(stacklat added - attach) / (bt_default added - attach)\n"
	printf "%-14s %9s %12s %14s\n", "workload", "bt_attach", "attach/bt_def", "beyond: /bt_def"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		if (!((w, "bt_attach") in add))
			continue
		a = add[w, "bt_attach"]; d = add[w, "bt_default"]
		q1 = d > 0 ? sprintf("%.2f", a / d) : "-"
		q2 = d - a > 0 ? sprintf("%.2f", (add[w, "stacklat"] - a) / (d - a)) : "-"
		printf "%-14s %9.0f %12s %14s\n", w, a, q1, q2
	}
	printf "samples per stage (min-max over the stages each follows; last round)\n"
	printf "%-14s %9s %12s %12s %12s %12s\n", "workload", "expected", "stacklat", "bt_default", "bt_tuned", "ftrace"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "%-14s %9s %12s %12s %12s %12s\n", w, xp[w], smp[w, "stacklat"], smp[w, "bt_default"], smp[w, "bt_tuned"], smp[w, "ftrace"]
	}
	printf "noise: (slowest - fastest round) / median, per case\n"
	printf "%-14s %9s %9s %10s %9s %9s\n", "workload", "none", "stacklat", "bt_default", "bt_tuned", "ftrace"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "%-14s %9s %9s %10s %9s %9s\n", w, spr[w, "none"], spr[w, "stacklat"], spr[w, "bt_default"], spr[w, "bt_tuned"], spr[w, "ftrace"]
	}
}'
