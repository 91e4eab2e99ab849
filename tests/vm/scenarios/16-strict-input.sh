#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Issue 10's reproducers, each must be refused (or fixed) now:
# a NUL inside a control write, a multi-line write applied half, # comments,
# raw user bytes in dmesg, op=bogus after an op filter, tgid=010 as octal,
# a symbol with a TAB, a reused func slot keeping its hits, blacklisted and
# missing symbols, and a hook in an unloaded module still "armed".
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

ctl=$SL_DBG/control
status() { cat "$SL_DBG/status"; }
pipe_state() { status | sed -n "s/^pipeline $1: \([a-z]*\),.*/\1/p"; }
filter_of() { status | sed -n "/^pipeline $1:/,/^  filter:/s/^  filter: *//p"; }
# the func pipeline's hook $1 (storage has a vfs_read hook of its own)
hook_line() { status | sed -n '/^pipeline func:/,/^$/p' | grep -E "^  hook $1 " || true; }
# ctl_write "escaped-string": one write(2) of the bytes (\n, \0, \t, \033
# as in Python), as a fuzzer does; the shell's printf may split at newlines
ctl_write() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
try:
    os.write(fd, sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
except OSError as e:
    sys.exit(os.strerror(e.errno))' "$ctl" "$1"
}
# ctl_refused "escaped-string" ERRNO-TEXT DMESG-TEXT
ctl_refused() {
	local out
	dmesg -C
	if out=$(ctl_write "$1" 2>&1); then
		fail "control accepted $(printf '%q' "$1")"
	fi
	grep -q "$2" <<<"$out" || fail "control $1: expected '$2', got '$out'"
	[ -z "${3:-}" ] || grep -q "stacklat: .*$3" <<<"$(dmesg)" ||
		fail "control $1: no dmesg line with '$3': $(dmesg | tail -n 3)"
}

sl_load

# 2. a NUL inside a write is an error, and nothing of it applies
ctl_refused 'enable func\0junk' "Invalid argument" "NUL byte"
assert_eq "func after a write with a NUL" disabled "$(pipe_state func)"
# a multi-line write is checked whole before anything applies
ctl_refused 'enable func\ngarbage\n' "Invalid argument" "unknown command 'garbage'"
assert_eq "func after 'enable func<NL>garbage'" disabled "$(pipe_state func)"
ctl_refused 'filter func tgid=5\nfilter func tgid=x\n' "Invalid argument" "bad value 'x'"
assert_eq "filter after a half-bad write" none "$(filter_of func)"
# comments are documented: a line starting with # is ignored
ctl_write '# a comment\n  # another\nfilter func tgid=7\n' || fail "comments refused"
assert_eq "filter after a write with comments" "tgid=7" "$(filter_of func)"
echo "filter func clear" > "$ctl"
# raw user bytes never reach dmesg: escaped and cut to 32 characters
ctl_refused 'bo\x01gus\x1b[31m' "Invalid argument" "unknown command"
if grep -q $'\033' <<<"$(dmesg)"; then
	fail "an escape byte written to control reached dmesg"
fi
grep -q 'unknown command .bo\\001gus' <<<"$(dmesg)" ||
	fail "the bad command is not shown escaped: $(dmesg | grep stacklat | tail -n 1)"
ctl_refused "$(printf 'x%.0s' {1..300})\n" "Invalid argument" "unknown command"
len=$(dmesg | grep "unknown command" | tail -n 1 | grep -o "'x*'" | tr -d "'" | wc -c)
assert_range "characters of a long bad command quoted in dmesg" 1 33 "$len"

# 3. filters: op=bogus always refused, decimal only
echo "filter storage op=read" > "$ctl" || fail "op=read refused"
ctl_refused 'filter storage op=bogus\n' "Invalid argument" "bad value 'bogus' for 'op'"
assert_eq "storage filter after op=bogus" "op=read" "$(filter_of storage)"
ctl_refused 'filter storage op=open op=bogus\n' "Invalid argument" "given twice"
ctl_refused 'filter storage op=bogus op=open\n' "Invalid argument" "bad value 'bogus'"
assert_eq "storage filter after op=open op=bogus" "op=read" "$(filter_of storage)"
echo "filter storage clear" > "$ctl"
echo "filter func tgid=010" > "$ctl" || fail "tgid=010 refused"
assert_eq "tgid=010 (decimal)" "tgid=10" "$(filter_of func)"
ctl_refused 'filter func tgid=0x10\n' "Invalid argument" "bad value '0x10'"
echo "filter func clear" > "$ctl"

# 4. symbols: a TAB is not part of a symbol
ctl_refused 'func add vfs_read\tjunk\n' "Invalid argument" "is neither a kernel symbol nor /PATH:0xOFFSET"
[ -z "$(hook_line vfs_read)" ] || fail "vfs_read<TAB>junk added a hook: $(hook_line vfs_read)"
# missing and blacklisted symbols say which
ctl_refused 'func add no_such_fn_stacklat\n' "No such file" "no_such_fn_stacklat: no such function"
black=""
for s in do_int3 kprobe_int3_handler memcpy; do
	dmesg -C
	if out=$(echo "func add $s" 2>&1 > "$ctl"); then
		echo "func del $s" > "$ctl"
		fail "blacklisted $s accepted"
	fi
	if grep -q "Invalid argument" <<<"$out" &&
	   grep -q "cannot probe $s: blacklisted" <<<"$(dmesg)"; then
		black="$black $s"
	else
		note "$s: $out / $(dmesg | tail -n 1)"
	fi
done
[ -n "$black" ] || fail "no blacklisted symbol answered EINVAL 'blacklisted'"
note "blacklisted:$black"

# a reused slot starts at 0 hits
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
echo "func add __x64_sys_getppid" > "$ctl"
echo "enable func" > "$ctl"
"$SPIN" -n 500 -t 1 >/dev/null
echo "disable func" > "$ctl"
hits=$(hook_line __x64_sys_getppid | sed -n 's/.*hits=\([0-9]*\).*/\1/p')
assert_range "getppid hits" 500 1000000 "$hits"
echo "func del __x64_sys_getppid" > "$ctl"
echo "func add __x64_sys_getpgid" > "$ctl"
hits=$(hook_line __x64_sys_getpgid | sed -n 's/.*hits=\([0-9]*\).*/\1/p')
assert_eq "hits of the function added to the reused slot" 0 "$hits"
echo "func del __x64_sys_getpgid" > "$ctl"

# a hook on a module's function is not "armed" once the module is gone
sl_modprobe veth
ip link add slv0 type veth peer name slv1
ip link set slv0 up; ip link set slv1 up
echo "func add veth_xmit" > "$ctl" || fail "func add veth_xmit"
echo "enable func" > "$ctl"
grep -q " armed " <<<"$(hook_line veth_xmit)" || fail "veth_xmit not armed: $(hook_line veth_xmit)"
ip link del slv0
rmmod veth || fail "rmmod veth"
line=$(hook_line veth_xmit)
note "after rmmod veth: $line"
if grep -q " armed " <<<"$line"; then
	fail "veth_xmit still armed after rmmod veth"
fi
grep -q "stacklat: func: hook veth_xmit: module veth unloaded" <<<"$(dmesg)" || fail "no dmesg line for the unloaded module"
echo "disable func" > "$ctl"
echo "func del veth_xmit" > "$ctl"

# SET_PIPELINE checks everything before it applies anything: a good
# threshold beside a bad filter (tgid=0) is refused whole, with no
# threshold set and no event ring allocated
python3 - "$SL_REPO/tests/fuzz" <<'PY' || fail "SET_PIPELINE {func, THRESHOLD_NS=123456, FILTER={TGID=0}}"
import struct, sys
sys.path.insert(0, sys.argv[1])
import nl_fuzz as f, stacklat_model as m
c = f.Conn()
fam = c.family("stacklat")
attrs = (f.nla(m.A_PIPELINE_NAME, b"func\0") +
         f.nla(m.A_THRESHOLD_NS, struct.pack("<Q", 123456)) +
         f.nla(m.A_FILTER | 0x8000, f.nla(1, f.u32(0))))
err, _ = c.request(fam, 0, m.CMD_SET_PIPELINE, attrs)
assert err == -22, ("answered", err)
print("SET_PIPELINE with a bad filter refused with %d" % err)
PY
if grep -q "slow events above" <<<"$(status)"; then
	fail "a refused SET_PIPELINE left a threshold: $(grep "slow events above" <<<"$(status)")"
fi
assert_eq "func's filter after the refused SET_PIPELINE" none "$(filter_of func)"
assert_eq "KiB of event rings after the refused SET_PIPELINE" 0 \
	"$(status | sed -n 's/^events: .*, \([0-9]*\) KiB of rings,.*/\1/p')"
pass "NUL, half-applied writes, op=bogus, octal, TAB symbols, slot hits, blacklist, module unload, SET_PIPELINE checked whole: all handled"
