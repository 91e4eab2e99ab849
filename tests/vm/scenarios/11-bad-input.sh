#!/bin/bash
# kernels: any
#   one kernel: control, parameter and netlink parsing is the module's own, the same on every kernel
# Bad input is refused with EINVAL (or the errno that names it) and a dmesg
# line naming the problem, never silently accepted: control file commands,
# module parameters and netlink requests.  Files are root-only and no
# output carries a kernel pointer.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

# ctl_bad "command" "expected dmesg text"
ctl_bad() {
	local out
	dmesg -C
	if out=$(echo "$1" 2>&1 > "$SL_DBG/control"); then
		fail "control accepted '$1'"
	fi
	grep -q "Invalid argument\|No such\|exists\|No space" <<<"$out" || fail "control '$1': unexpected error '$out'"
	grep -q "stacklat: .*$2" <<<"$(dmesg)" || fail "control '$1': no dmesg line with '$2' (got: $(dmesg | tail -n 3))"
}

sl_load
# the control file's help names every command the parser takes
for c in enable disable reset filter "func add" "func del" threshold; do
	grep -q "^$c " "$SL_DBG/control" || fail "control help does not name '$c': $(cat "$SL_DBG/control")"
done
ctl_bad "bogus" "unknown command 'bogus'"
ctl_bad "enable nosuch" "'nosuch' is not a pipeline"
ctl_bad "filter func port=80" "unknown filter key 'port'"
ctl_bad "filter func lport=80" "pipeline func has no 'lport' filter"
ctl_bad "filter func tgid=abc" "bad value 'abc' for 'tgid'"
ctl_bad "filter func tgid" "'tgid' is not KEY=VALUE"
ctl_bad "filter func" "nothing to set"
ctl_bad "filter func tgid=0" "bad value '0' for 'tgid'"
ctl_bad "func add" "usage: func add|del SYMBOL"
ctl_bad "func add no_such_function_stacklat" "no_such_function_stacklat: no such function"
ctl_bad "func del __x64_sys_getppid" "is not traced"
echo "func add __x64_sys_getppid" > "$SL_DBG/control"
ctl_bad "func add __x64_sys_getppid" "already traced"
echo "func del __x64_sys_getppid" > "$SL_DBG/control"
# a good command still works after all that
echo "filter func tgid=1" > "$SL_DBG/control"
grep -q "filter: tgid=1" "$SL_DBG/status" || fail "good filter not applied"
echo "filter func clear" > "$SL_DBG/control"
grep -q "filter: none" "$SL_DBG/status" || fail "filter not cleared"

# a threshold on a pipeline that never emits a slow event (it follows no
# object from a first point to a last: values, drops, retransmissions, and
# storage's frames, which it records itself) is refused, through the
# control file, netlink and the tool, naming the pipeline, and allocates no
# rings; 0 (off) is accepted; every other pipeline takes a threshold
noev="netsize storage disktop stacks sched cpu futex lock files nettop"
rings_kib() { sed -n 's/^events: .*, \([0-9]*\) KiB of rings,.*/\1/p' "$SL_DBG/status"; }
for p in $noev; do
	dmesg -C
	if out=$(echo "threshold $p 1000" 2>&1 > "$SL_DBG/control"); then
		fail "control accepted a threshold on $p, which has no slow events"
	fi
	grep -q "not supported" <<<"$out" || fail "threshold $p: unexpected error '$out'"
	grep -q "stacklat: .*threshold $p: $p has no slow events" <<<"$(dmesg)" ||
		fail "threshold $p: no dmesg line naming it: $(dmesg | tail -n 2)"
	# the tool: refused at once, naming the pipeline (it used to wait forever)
	rc=0
	out=$(timeout 20 "$SL_TOOL" events -t 1ns "$p" 2>&1) || rc=$?
	[ $rc != 124 ] || fail "stacklat events -t 1ns $p still waiting after 20 s"
	[ $rc != 0 ] || fail "stacklat events -t 1ns $p accepted"
	grep -q "$p has no slow events" <<<"$out" || fail "stacklat events -t 1ns $p: '$out'"
	echo "threshold $p 0" > "$SL_DBG/control" || fail "threshold $p 0 (off) refused"
done
note "tool: $out"
grep -q "slow events above" "$SL_DBG/status" && fail "a refused threshold was set"
assert_eq "KiB of event rings after the refusals" 0 "$(rings_kib)"
# netlink straight, as the fuzzer would send it: refused, naming the pipeline
python3 - "$SL_REPO/tests/fuzz" netsize <<'PY' || fail "netlink SET_PIPELINE threshold on netsize"
import struct, sys
sys.path.insert(0, sys.argv[1])
import nl_fuzz as f, stacklat_model as m
c = f.Conn()
fam = c.family("stacklat")
attrs = (f.nla(m.A_PIPELINE_NAME, sys.argv[2].encode() + b"\0") +
         f.nla(m.A_THRESHOLD_NS, struct.pack("<Q", 1000)))
err, _ = c.request(fam, 0, m.CMD_SET_PIPELINE, attrs)
assert err == -95, ("SET_PIPELINE threshold on", sys.argv[2], "answered", err)
print("netlink: threshold on %s refused with %d" % (sys.argv[2], err))
PY
grep -q "slow events above" "$SL_DBG/status" && fail "a threshold refused by netlink was set"
for p in $(sed -n 's/^pipeline \([a-z_0-9]*\): .*/\1/p' "$SL_DBG/status"); do
	case " $noev " in *" $p "*) continue ;; esac
	echo "threshold $p 1000" > "$SL_DBG/control" || fail "threshold on $p refused"
	echo "threshold $p 0" > "$SL_DBG/control"
done

# permissions: root-only files, no raw pointers anywhere
for f in status control func hist/func; do
	mode=$(stat -c %a "$SL_DBG/$f")
	case $f in control) want=600 ;; *) want=400 ;; esac
	assert_eq "mode of $f" $want "$mode"
done
if grep -rE "ffff[0-9a-f]{12}" "$SL_DBG"/status "$SL_DBG"/func >/dev/null; then
	fail "a kernel pointer is printed"
fi

# netlink: unknown pipeline is refused with the kernel's message; mutating
# commands and reads need privileges (17-privileges goes further)
out=$("$SL_TOOL" enable nosuch 2>&1) && fail "netlink enable nosuch accepted"
grep -qi "no such pipeline\|not found\|No such" <<<"$out" || fail "netlink enable nosuch: '$out'"
if out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SL_TOOL" reset 2>&1); then
	fail "unprivileged reset accepted"
fi
grep -qi "permission\|not permitted" <<<"$out" || fail "unprivileged reset: '$out'"
if setpriv --reuid=65534 --regid=65534 --clear-groups "$SL_TOOL" status >/dev/null 2>&1; then
	fail "unprivileged status accepted"
fi
sl_unload

# module parameters
for p in "flight_entries=1:flight_entries=1 is outside" \
	 "stale_ms=0:stale_ms=0 is outside" \
	 "max_delta_ms=99999999:max_delta_ms=99999999 is outside" \
	 "skip_hooks=nonexistent_hook:'nonexistent_hook' names no hook" \
	 "enable=nosuch:'nosuch' is not a pipeline" \
	 "maxactive=1000000:maxactive=1000000 is outside 0..1024" \
	 "maxactive=4294967295:maxactive=4294967295 is outside" \
	 "maxactive=-1:maxactive=-1 is outside" \
	 "maxactive=0x10:maxactive=0x10 is outside" \
	 "flight_entries=010:flight_entries=010 is outside 256..4194304" \
	 "stale_ms=0x10:stale_ms=0x10 is outside" \
	 "max_delta_ms=:max_delta_ms= is outside" \
	 "keyed_rows=255:keyed_rows=255 is outside 256..262144" \
	 "keyed_cpu_rows=16385:keyed_cpu_rows=16385 is outside 64..16384" \
	 "keyed_linger_ms=3600001:keyed_linger_ms=3600001 is outside 0..3600000" \
	 "event_records_start=15:event_records_start=15 is outside 16..65536" \
	 "open_reads=2:open_reads"; do
	dmesg -C
	if insmod "$SL_KO" "${p%%:*}" 2>/dev/null; then
		rmmod stacklat
		fail "insmod accepted ${p%%:*}"
	fi
	grep -q "stacklat: .*${p#*:}" <<<"$(dmesg)" || fail "insmod ${p%%:*}: no message '${p#*:}': $(dmesg | tail -n 2)"
done
[ ! -d "$SL_DBG" ] || fail "debugfs directory left behind by a failed load"
# the ranges are in modinfo
for p in flight_entries stale_ms max_delta_ms maxactive open_reads keyed_rows \
	keyed_cpu_rows keyed_linger_ms; do
	grep -q "[0-9]\.\.[0-9]\|0 or 1" <<<"$(modinfo -F parm "$SL_KO" | grep "^$p:")" ||
		fail "modinfo states no range for $p: $(modinfo -F parm "$SL_KO" | grep "^$p:")"
done
# a good value of each still loads
sl_load maxactive=1024 flight_entries=0256 stale_ms=1 max_delta_ms=3600000 open_reads=1 \
	keyed_rows=262144 keyed_cpu_rows=16384 keyed_linger_ms=0
assert_eq "flight_entries=0256 read as" 256 "$(cat /sys/module/stacklat/parameters/flight_entries)"
sl_unload
pass "bad control commands, module parameters and netlink requests refused with messages"
