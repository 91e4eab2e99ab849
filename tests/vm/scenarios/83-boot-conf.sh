#!/bin/bash
# kernels: 6.1+dkms
#   one kernel: the control parser is the module's own; 6.1+dkms loads the module DKMS built from the tree the stacklat-dkms package holds
# What stacklat.service (the stacklat package, debian/) does after
# modprobe: stacklat-apply-conf writes /etc/stacklat.conf to the control
# file in one write.  The shipped file (comments only) applies nothing; a
# file of enable, func add, filter and threshold lines arms what it names
# (status shows each); a file with one line the parser refuses fails with
# the kernel's reason and applies none of its lines, not even those
# before the bad one; applied again (systemctl reload), a file of enable,
# filter and threshold lines succeeds and changes nothing (a func add
# line of a function already added: what it does is noted).  The guest has no systemd: the script is
# run as the unit's ExecStart runs it.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

apply=$SL_REPO/debian/stacklat-apply-conf
shipped=$SL_REPO/debian/stacklat.conf
t=$(mktemp -d)
st() { cat "$SL_DBG/status"; }
state() { sed -n "s/^pipeline $1: \([a-z]*\),.*/\1/p" "$SL_DBG/status"; }

sl_load
enabled0=$(grep -c '^pipeline .*: enabled,' "$SL_DBG/status" || true)
assert_eq "pipelines enabled after load" 0 "$enabled0"

# the shipped example: comments only
out=$("$apply" "$shipped" 2>&1) || fail "the shipped stacklat.conf failed: $out"
grep -q 'no control lines' <<<"$out" || fail "the shipped stacklat.conf: '$out'"
assert_eq "pipelines enabled by the shipped file" 0 "$(grep -c '^pipeline .*: enabled,' "$SL_DBG/status" || true)"

# a boot configuration
cat > "$t/good.conf" <<'CONF'
# stacklat.service test
enable block

func add __x64_sys_getppid
   enable func
filter func tgid=1
threshold func 10000000
CONF
dmesg -C
out=$("$apply" "$t/good.conf" 2>&1) || fail "a good stacklat.conf failed: $out ($(dmesg | tail -n 3))"
assert_eq "block after the file" enabled "$(state block)"
assert_eq "func after the file" enabled "$(state func)"
st | grep -q "hook __x64_sys_getppid *armed" || fail "__x64_sys_getppid not armed: $(st | grep -A12 '^pipeline func:')"
st | sed -n '/^pipeline func:/,/^$/p' | grep -q '^  filter: tgid=1$' ||
	fail "func's filter is not tgid=1: $(st | sed -n '/^pipeline func:/,/^$/p' | grep filter)"
st | sed -n '/^pipeline func:/,/^$/p' | grep -q '^  slow events above 10000000 ns$' ||
	fail "func's threshold is not 10000000 ns"
assert_eq "pipelines enabled by the file" 2 "$(grep -c '^pipeline .*: enabled,' "$SL_DBG/status" || true)"
gen_func=$(sed -n 's/^pipeline func: .*generation \([0-9]*\)/\1/p' "$SL_DBG/status")

# one line the parser refuses, after lines it takes: nothing applied
cat > "$t/bad.conf" <<'CONF'
disable block
filter func clear
enable no_such_pipeline
CONF
# an older refusal in the log is not shown as this file's reason
echo "enable earlier_pipeline" > "$SL_DBG/control" 2>/dev/null || true
if out=$("$apply" "$t/bad.conf" 2>&1); then
	fail "a stacklat.conf with an unknown pipeline was applied: $out"
fi
grep -q "stacklat: control: .*no_such_pipeline" <<<"$out" ||
	fail "the refusal does not show the kernel's reason: '$out' (dmesg: $(dmesg | tail -n 3))"
! grep -q earlier_pipeline <<<"$out" || fail "an older refusal is shown as this file's reason: '$out'"
assert_eq "block after the refused file" enabled "$(state block)"
st | sed -n '/^pipeline func:/,/^$/p' | grep -q '^  filter: tgid=1$' || fail "the refused file cleared func's filter"

# applied again, as systemctl reload does: enable, filter, threshold lines
# are idempotent
grep -v '^func add' "$t/good.conf" > "$t/again.conf"
out=$("$apply" "$t/again.conf" 2>&1) || fail "enable/filter/threshold lines applied again failed: $out"
assert_eq "func's generation after applying again" "$gen_func" \
	"$(sed -n 's/^pipeline func: .*generation \([0-9]*\)/\1/p' "$SL_DBG/status")"
echo 'func add __x64_sys_getppid' > "$t/dup.conf"
dup=refused
if out=$("$apply" "$t/dup.conf" 2>&1); then
	dup=accepted
	note "func add of a function already added was accepted: $out"
fi
rm -rf "$t"
pass "shipped file applies nothing; 2 pipelines, a func point, filter, threshold from the file; a bad line refused with its reason and nothing applied; applied again unchanged; a repeated func add $dup"
