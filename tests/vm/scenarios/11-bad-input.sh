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
