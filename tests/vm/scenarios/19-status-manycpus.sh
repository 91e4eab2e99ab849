#!/bin/bash
# kernels: 6.1+manycpus
# Status on a host with many possible CPUs (issue 25, defect 7): GET_STATUS
# once carried every CPU's event overruns in one attribute of its one
# message, 8 bytes a CPU, and failed with EMSGSIZE once they outgrew it (on
# 6.1 the reply's 8 KiB slab holds some 950: possible_cpus=480 still
# passed, 1024 failed).  On the 6.1+manycpus boot (possible_cpus=1024; on
# any other boot the same checks hold with its own count): `stacklat
# status` and its JSON answer, with one overrun value per CPU up to the
# last possible one, as /sys/devices/system/cpu/possible lists it and
# debugfs status shows (above 256 CPUs they come from GET_CPU_STATUS, in
# parts).
# Memory (issue 31): the slow-event rings and the keyed tables' CPU buffers
# are allocated for the online CPUs only (kmod/core/cpus.c), so with 1024
# possible CPUs and 2 online a threshold allocates 2 rings, and a keyed
# pipeline 2 CPUs' buffers: counted exactly in status -j; a histogram has
# CPU copies only where samples were (none here).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

# the number of CPUs in a list such as "0-479" or "0,2-5"
ncpus=0
IFS=, read -ra ranges < /sys/devices/system/cpu/possible
for r in "${ranges[@]}"; do
	lo=${r%-*} hi=${r#*-}
	ncpus=$((ncpus + hi - lo + 1))
done
last=$(sed 's/.*[-,]//' /sys/devices/system/cpu/possible)
note "possible CPUs: $(cat /sys/devices/system/cpu/possible) ($ncpus), online: $(cat /sys/devices/system/cpu/online)"
[ "$last" -eq $((ncpus - 1)) ] || note "possible CPUs are not 0..N-1: rows are counted up to the last one"
rows=$((last + 1))
sl_load

out=$("$SL_TOOL" status 2>&1) || fail "stacklat status failed: $(tail -n 2 <<<"$out")"
grep -q "^slow events: ring 512 per CPU on 0 CPUs" <<<"$out" || fail "no slow-events line (rings on 0 CPUs before a threshold) in: $(head -n 3 <<<"$out")"
online=$(getconf _NPROCESSORS_ONLN)
"$SL_TOOL" enable func > /dev/null && "$SL_TOOL" enable syscalls > /dev/null || fail "enable func, syscalls failed"
echo "threshold func 1000000" > "$SL_DBG/control" || fail "threshold func failed"
json=$("$SL_TOOL" status -j 2>&1) || fail "stacklat status -j failed: $(tail -n 2 <<<"$json")"
read -r rings bytes ring start now kcpus <<<"$(jq -r '[.events.rings, .events.bytes, .events.ring, .events.ring_start, .events.ring_now, (.pipelines[] | select(.pipeline == "syscalls") | .keyed.cpus)] | @tsv' <<<"$json")"
assert_eq "CPUs with an event ring ($online online of $ncpus possible)" "$online" "$rings"
assert_eq "CPUs with keyed buffers (syscalls)" "$online" "$kcpus"
# the defaults: rings of 512 records from the start (event_records_start=
# unset: no growth)
assert_eq "records a ring grows to, starts with, the largest now" "512 512 512" "$ring $start $now"
assert_eq "event ring bytes ($rings rings of $start records of 504 B)" $((rings * start * 504)) "$bytes"
note "event rings: $rings x $start records (up to $ring), $((bytes >> 10)) KiB in all"
# func has no function: nothing recorded, so no CPU has a copy of its
# histograms (they follow the samples), on none of the possible CPUs
hc=$(awk '/^pipeline func:/ { f = 1 } f && /memory:.*histograms/ { sub(/.*stages, /, ""); print $1; exit }' "$SL_DBG/status")
assert_eq "func's histogram copies on CPUs" 0 "$hc"
json=$("$SL_TOOL" status -j 2>&1) || fail "stacklat status -j failed: $(tail -n 2 <<<"$json")"
n=$(python3 -c 'import json, sys; print(len(json.loads(sys.argv[1])["events"]["overruns_per_cpu"]))' "$json")
assert_eq "per-CPU overrun values in status -j" "$rows" "$n"
n=$(sed -n 's/^events: .*(\(.*\))$/\1/p' "$SL_DBG/status" | tr ' ' '\n' | grep -c '^cpu[0-9]*=')
assert_eq "per-CPU overrun values in debugfs status" "$ncpus" "$n"
pass "status and status -j with $ncpus possible CPUs: $rows per-CPU values"
