#!/bin/bash
# kernels: all
#   the task test reads the task's cgroup v2 id in probe context (css_set,
#   kernfs ids): every kernel's structures
# The cgroup filter (issue 29 item 3): cgroup=/PATH (the tool, a path of
# the cgroup v2 hierarchy or of the file system), cgroup=ID and
# cgroup=/sys/fs/cgroup/PATH (the control file) keep the tasks of that
# cgroup only, in the same task test as tgid=.  Two cgroups made with
# mkdir, sla and slb:
#  - func on getppid: a process in sla makes A calls while one in slb
#    makes B: cgroup=/sla counts exactly A (the tool), the slb id exactly
#    B (control, numeric), /sys/fs/cgroup/sla exactly A again (control,
#    path); status and status -j show the id;
#  - net_rx and net_tx: a TCP client and its server in each cgroup (moved
#    in after they start), 60 rounds in sla and 40 in slb: net_rx
#    cgroup=/sla counts exactly the 60 requests server 1 read and the 60
#    responses client 1 read (120), net_tx cgroup=/slb the 40 requests
#    and 40 responses slb's two sent (80), in every stage;
#  - refused and nothing changed: a path that is no cgroup directory (the
#    tool and the control file), cgroup=0, a word that is neither;
#  - rmdir of both cgroups once empty; a filter on a removed cgroup keeps
#    nothing (its id is never reused while the boot lasts: kernfs ids).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

CG=/sys/fs/cgroup
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
SYM=__x64_sys_getppid
A=3000 B=2000
SIZE=200

grep -q "^cgroup2 $CG " /proc/mounts || mount -t cgroup2 none $CG || fail "cannot mount cgroup2 on $CG"
rmdir $CG/sla $CG/slb 2> /dev/null || true
mkdir $CG/sla $CG/slb
ida=$(stat -c %i $CG/sla) idb=$(stat -c %i $CG/slb)
cleanup() {
	veth_down 2> /dev/null || true
	rmdir $CG/sla $CG/slb 2> /dev/null || true
}
trap cleanup EXIT
count() { awk -v s=$SYM '$1 == s { print $2 }' "$SL_DBG/func"; }
# spin_in CGROUP N: sl-spin making N getppid calls from inside CGROUP
spin_in() { sh -c "echo \$\$ > $CG/$1/cgroup.procs && exec $SPIN -n $2 -t 0" > /dev/null; }
# both: func reset, then A calls in sla and B in slb at the same time
both() {
	local pa pb
	ctl "reset func"
	spin_in sla $A & pa=$!
	spin_in slb $B & pb=$!
	wait $pa $pb
}

sl_load
ctl "func add $SYM"
ctl "enable func"

# ---- func: the tool's path of the hierarchy
"$SL_TOOL" filter func cgroup=/sla || fail "stacklat filter func cgroup=/sla"
grep -A3 "^pipeline func:" "$SL_DBG/status" | grep -q "filter: cgroup=$ida" || fail "status: no cgroup=$ida: $(grep -A3 '^pipeline func:' "$SL_DBG/status")"
js=$("$SL_TOOL" status -j | jq -r '.pipelines[] | select(.pipeline == "func") | .filter.cgroup')
assert_eq "status -j filter.cgroup" "$ida" "$js"
both
assert_eq "getppid calls counted with cgroup=/sla (A=$A in sla, B=$B in slb)" $A "$(count)"

# ---- the control file: a numeric id, then a file system path
ctl "filter func clear cgroup=$idb"
both
assert_eq "getppid calls counted with cgroup=$idb (slb)" $B "$(count)"
ctl "filter func clear cgroup=$CG/sla"
both
assert_eq "getppid calls counted with cgroup=$CG/sla" $A "$(count)"

# ---- refused, nothing changed
f0=$(grep -A3 "^pipeline func:" "$SL_DBG/status" | grep "filter:")
out=$("$SL_TOOL" filter func cgroup=/sl-none 2>&1) && fail "the tool took cgroup=/sl-none"
grep -q "is not a cgroup v2 directory" <<<"$out" || fail "cgroup=/sl-none: '$out'"
for bad in "cgroup=/tmp" "cgroup=/sl-none" "cgroup=0" "cgroup=sla"; do
	if echo "filter func $bad" > "$SL_DBG/control" 2> /dev/null; then
		fail "control took 'filter func $bad'"
	fi
done
assert_eq "func's filter after refused ones" "$f0" "$(grep -A3 "^pipeline func:" "$SL_DBG/status" | grep "filter:")"
ctl "filter func clear"
ctl "disable func"

# ---- net_rx and net_tx
GO=/tmp/sl-go
srv() { server "$1" "$2" "$3" "$4" "$5" $SIZE rr; }
cli() { client "$1" "$2" "$3" "$4" "$5" $SIZE rr "$6" $GO; }
ctl enable net_rx
ctl enable net_tx
no_tlp -
srv - tcp 127.0.0.1 7801 60
srv - tcp 127.0.0.1 7802 40
cli - tcp 127.0.0.1 7801 60 c1
cli - tcp 127.0.0.1 7802 40 c2
echo "$(srv_pid 7801)" > $CG/sla/cgroup.procs
echo "$(cli_pid c1)" > $CG/sla/cgroup.procs
echo "$(srv_pid 7802)" > $CG/slb/cgroup.procs
echo "$(cli_pid c2)" > $CG/slb/cgroup.procs
"$SL_TOOL" filter net_rx cgroup=/sla || fail "filter net_rx cgroup=/sla"
"$SL_TOOL" filter net_tx cgroup=/slb || fail "filter net_tx cgroup=/slb"
ctl reset
touch $GO
wait_all
rm -f $GO
expect net_rx 120 $RX_STAGES total
expect net_tx 80 $TX_TCP_STAGES total
ctl "filter net_rx clear"
ctl "filter net_tx clear"
ctl "disable net_rx"
ctl "disable net_tx"

# ---- the cgroups removed
rmdir $CG/sla $CG/slb || fail "rmdir of the emptied cgroups"
ctl "enable func"
ctl "filter func clear cgroup=$ida"
ctl "reset func"
"$SPIN" -n 100 -t 0 > /dev/null
assert_eq "calls counted for the removed cgroup's id" 0 "$(count)"
ctl "disable func"
sl_unload
trap - EXIT
pass "cgroup=: func $A of $A + $B (tool, /sla), $B (control, id), $A (control, path); net_rx 120 of 200 (sla's reads), net_tx 80 (slb's sends); bad paths and ids refused, nothing changed; a removed cgroup's id keeps nothing"
