#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by bench-peers.sh: latency stages with nothing but tracefs, the way
# one would without any tool: kprobe events (p: entry, r: return) and the
# kernel's tracepoints, a hist trigger on the first event of a stage keeping
# a timestamp in a variable per key (tid or skb address), a hist trigger on
# the second computing the difference and firing a synthetic event
# (onmatch().trace()), and a log2 histogram (hist:keys=lat.log2) on that
# synthetic event: its Hits are the stage's samples.  Events with a trigger
# and not enabled are "soft" enabled: the triggers run, nothing goes to the
# ring buffer.  Everything is created under the "slb" group and removed by
# ft_teardown in the reverse order.

FT=/sys/kernel/tracing
# (bpftrace reads the tracepoints' formats there too)
[ -e $FT/kprobe_events ] || mount -t tracefs nodev $FT 2>/dev/null || true
[ -e $FT/kprobe_events ] || FT=/sys/kernel/debug/tracing
FT_UNDO=()

ft_w() { # FILE TEXT: append, with tracefs' error_log on failure
	echo "$2" >> "$FT/$1" 2>/dev/null ||
		fail "ftrace: '$2' >> $1 refused: $(tail -n 3 "$FT/error_log" 2>/dev/null)"
}

# ft_kprobe NAME 'SYMBOL ARGS' (entry) / ft_kretprobe NAME SYMBOL (return)
ft_kprobe() {
	ft_w kprobe_events "p:slb/$1 $2"
	FT_UNDO+=("kprobe_events|-:slb/$1")
}

ft_kretprobe() {
	ft_w kprobe_events "r:slb/$1 $2"
	FT_UNDO+=("kprobe_events|-:slb/$1")
}

# ft_synth NAME: a synthetic event "NAME u64 lat" with its log2 histogram
ft_synth() {
	ft_w synthetic_events "$1 u64 lat"
	FT_UNDO+=("synthetic_events|!$1 u64 lat")
	ft_trigger "synthetic/$1" "hist:keys=lat.log2"
}

# ft_trigger GROUP/EVENT 'hist:...'
ft_trigger() {
	ft_w "events/$1/trigger" "$2"
	# (removing one takes the same text, filter included)
	FT_UNDO+=("events/$1/trigger|!$2")
}

# ft_hits NAME: the Hits of synthetic event NAME's histogram
ft_hits() {
	awk '$1 == "Hits:" { print $2 }' "$FT/events/synthetic/$1/hist"
}

# ft_drops: entries the tracing maps could not take, over every trigger
ft_drops() {
	cat "$FT"/events/*/*/hist 2>/dev/null | awk '$1 == "Dropped:" { d += $2 } END { print d + 0 }'
}

ft_teardown() {
	local i f t
	for ((i = ${#FT_UNDO[@]} - 1; i >= 0; i--)); do
		f=${FT_UNDO[$i]%%|*}
		t=${FT_UNDO[$i]#*|}
		echo "$t" >> "$FT/$f" ||
			fail "ftrace: could not undo '$t' in $f: $(tail -n 3 "$FT/error_log" 2>/dev/null; cat "$FT"/events/*/*/trigger 2>/dev/null | grep -v '^#')"
	done
	FT_UNDO=()
}
