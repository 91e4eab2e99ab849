#!/bin/bash
# kernels: any
#   one kernel: the capability checks are the module's and the tool's, the same on every kernel
# The privilege model (docs/privileges.md): placing probes and any other
# change needs CAP_SYS_ADMIN or CAP_PERFMON, reads CAP_NET_ADMIN or
# CAP_PERFMON (or anyone with open_reads=1), all in the initial user
# namespace; the netlink family exists only in the initial network
# namespace; debugfs is root's.  Run as an unprivileged user, as a user
# with CAP_NET_ADMIN only, with CAP_PERFMON only, as root without
# CAP_SYS_ADMIN/CAP_PERFMON, and from another network namespace.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# as_caps CAPS CMD...: uid 65534 with exactly CAPS (e.g. +net_admin) ambient
as_caps() {
	local c=$1
	shift
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps="-all,$c" --ambient-caps="-all,$c" "$@"
}
perm_re="ermission\|not permitted\|needs CAP"
# refused WHO-TEXT CMD...: the command fails with a permission error
refused() {
	local who=$1 out
	shift
	if out=$("$@" 2>&1); then
		fail "$who: '$*' accepted"
	fi
	grep -qi "$perm_re" <<<"$out" || fail "$who: '$*' failed but not for permission: $out"
	echo "ok: $who refused: ${*: -3}"
}
allowed() {
	local who=$1 out
	shift
	out=$("$@" 2>&1) || fail "$who: '$*' refused: $out"
	echo "ok: $who allowed: ${*: -3}"
}

grep -q ambient-caps <<<"$(setpriv --help 2>&1)" || skip "setpriv without --ambient-caps"
grep -q perfmon <<<"$(setpriv --list-caps)" || skip "setpriv does not know CAP_PERFMON"
sl_load

# unprivileged: nothing
refused nobody "${nobody[@]}" "$SL_TOOL" status
refused nobody "${nobody[@]}" "$SL_TOOL" show func
refused nobody "${nobody[@]}" "$SL_TOOL" reset
refused nobody "${nobody[@]}" "$SL_TOOL" enable func
refused nobody "${nobody[@]}" "$SL_TOOL" func add vfs_read
refused nobody "${nobody[@]}" "$SL_TOOL" filter func tgid=1
if "${nobody[@]}" sh -c "echo reset > $SL_DBG/control" 2>/dev/null; then
	fail "nobody wrote the control file"
fi
if "${nobody[@]}" cat "$SL_DBG/status" >/dev/null 2>&1; then
	fail "nobody read debugfs status"
fi

# CAP_NET_ADMIN only: reads, no changes, no probes
allowed net_admin as_caps +net_admin "$SL_TOOL" status
allowed net_admin as_caps +net_admin "$SL_TOOL" show func
refused net_admin as_caps +net_admin "$SL_TOOL" reset
refused net_admin as_caps +net_admin "$SL_TOOL" enable func
refused net_admin as_caps +net_admin "$SL_TOOL" func add vfs_read
refused net_admin as_caps +net_admin "$SL_TOOL" filter func tgid=1
if grep -q "hook vfs_read" <<<"$(sed -n '/^pipeline func:/,/^$/p' "$SL_DBG/status")"; then
	fail "a probe was placed with CAP_NET_ADMIN only"
fi

# CAP_PERFMON only: reads and probes
allowed perfmon as_caps +perfmon "$SL_TOOL" status
allowed perfmon as_caps +perfmon "$SL_TOOL" func add vfs_read
allowed perfmon as_caps +perfmon "$SL_TOOL" func del vfs_read
allowed perfmon as_caps +perfmon "$SL_TOOL" filter func tgid=1
allowed perfmon as_caps +perfmon "$SL_TOOL" filter func clear
# CAP_SYS_ADMIN only: changes and probes, and reads? no: reads want
# CAP_NET_ADMIN or CAP_PERFMON
allowed sys_admin as_caps +sys_admin "$SL_TOOL" reset

# root without CAP_SYS_ADMIN and CAP_PERFMON: the control file (root's by
# mode) refuses its writes all the same, and so does netlink
rootless=(capsh "--drop=cap_sys_admin,cap_perfmon" --)
if out=$("${rootless[@]}" -c "echo reset > $SL_DBG/control" 2>&1); then
	fail "root without CAP_SYS_ADMIN/CAP_PERFMON wrote the control file"
fi
grep -qi "not permitted" <<<"$out" || fail "control write without caps: $out"
refused root-without-caps "${rootless[@]}" -c "$SL_TOOL func add vfs_read"
# full root still can
echo "func add vfs_read" > "$SL_DBG/control"
echo "func del vfs_read" > "$SL_DBG/control"

# reading events consumes them: root without CAP_SYS_ADMIN/CAP_PERFMON may
# drain them neither through netlink (GET_EVENTS) nor through debugfs
# "events"; 10 events wait, and are still there for full root after
ev_count() { sed -n 's/^events: .*written \([0-9]*\), read \([0-9]*\),.*/\1 \2/p' "$SL_DBG/status"; }
echo "func add __x64_sys_getppid" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
echo "threshold func 1" > "$SL_DBG/control"
"$SL_REPO/tests/vm/helpers/sl-spin" -n 10 -t 0 -f "$SL_DBG/control" >/dev/null
echo "threshold func 0" > "$SL_DBG/control"
echo "disable func" > "$SL_DBG/control"
assert_eq "events written, read" "10 0" "$(ev_count)"
refused root-without-caps "${rootless[@]}" -c "$SL_TOOL events -d 0.2"
if out=$("${rootless[@]}" -c "dd if=$SL_DBG/events iflag=nonblock bs=64k count=1 status=none" 2>&1); then
	fail "root without CAP_SYS_ADMIN/CAP_PERFMON read debugfs events: $(wc -l <<<"$out") lines"
fi
grep -qi "not permitted" <<<"$out" || fail "debugfs events without caps: $out"
echo "ok: root-without-caps refused: debugfs events"
assert_eq "events written, read after the refused readers" "10 0" "$(ev_count)"
got=$(dd if="$SL_DBG/events" iflag=nonblock bs=64k count=1 status=none | grep -c " func total=")
assert_eq "events full root reads from debugfs" 10 "$got"
echo "func del __x64_sys_getppid" > "$SL_DBG/control"

# another network namespace: the family is not there
if out=$(unshare -n "$SL_TOOL" status 2>&1); then
	fail "the netlink family answered in another network namespace: $out"
fi
note "from another netns: $out"
if unshare -n "$SL_TOOL" func add vfs_read >/dev/null 2>&1; then
	fail "func add from another network namespace accepted"
fi
"$SL_TOOL" status >/dev/null || fail "status from the initial namespace"
sl_unload

# open_reads=1: anyone reads, nobody else changes anything
sl_load open_reads=1
allowed nobody-open-reads "${nobody[@]}" "$SL_TOOL" status
allowed nobody-open-reads "${nobody[@]}" "$SL_TOOL" show func
refused nobody-open-reads "${nobody[@]}" "$SL_TOOL" reset
refused nobody-open-reads "${nobody[@]}" "$SL_TOOL" func add vfs_read
sl_unload
pass "privileges: nobody nothing, CAP_NET_ADMIN reads, CAP_PERFMON/CAP_SYS_ADMIN probes, initial netns only, open_reads=1 opens reads"
