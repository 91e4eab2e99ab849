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
#  - events carry the cgroup: with func's threshold at 1 ns (every call),
#    20 calls in sla and 30 in slb give exactly 20 sl-spin lines with
#    cgroup=/sla and 30 with cgroup=/slb (the tool's text; -j: the path
#    and the id; debugfs: the id);
#  - per-cgroup totals, off at load (no cg rows after A + B calls; status
#    and -j say off; net_rx, which keeps none, and a word other than
#    on/off are refused), then on (cgtotals func on; cgroup_slots=3: the
#    test's own cgroup, sla, slb): "cg<ID>.total" rows of func count
#    exactly A and B (the tool's
#    table: "cg:/sla.total"); rmdir slb
#    frees its slot (its row goes), a third cgroup slc takes it (C
#    calls), a fourth sld finds no slot: "cg-other.total" counts its D;
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

grep -q "^cgroup2 $CG " /proc/mounts || mount -t cgroup2 cgroup2 $CG || fail "cannot mount cgroup2 on $CG"
rmdir $CG/sla $CG/slb $CG/slc $CG/sld 2> /dev/null || true
mkdir $CG/sla $CG/slb
ida=$(stat -c %i $CG/sla) idb=$(stat -c %i $CG/slb)
cleanup() {
	veth_down 2> /dev/null || true
	rmdir $CG/sla $CG/slb $CG/slc $CG/sld 2> /dev/null || true
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

sl_load cgroup_slots=3
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

# ---- events: every call a line, with its cgroup
ctl "threshold func 1"
spin_in sla 20
spin_in slb 30
ev=$("$SL_TOOL" events func -d 0.3 2> /dev/null | grep " sl-spin ")
assert_eq "event lines of sla" 20 "$(grep -c " cgroup=/sla\( \|$\)" <<<"$ev")"
assert_eq "event lines of slb" 30 "$(grep -c " cgroup=/slb\( \|$\)" <<<"$ev")"
spin_in slb 7
ev=$("$SL_TOOL" events func -d 0.3 -j 2> /dev/null | jq -r 'select(.event.comm == "sl-spin") | "\(.event.cgroup) \(.event.cgroup_id)"' | sort | uniq -c | awk '{ print $1, $2, $3 }')
assert_eq "events -j of slb" "7 /slb $idb" "$ev"
spin_in sla 5
ev=$(timeout 1 cat "$SL_DBG/events" | grep -c " sl-spin .* cgroup=$ida\( \|$\)" || true)
assert_eq "debugfs event lines of sla (the id)" 5 "$ev"
ctl "threshold func 0"

# ---- per-cgroup totals: off at load, then three slots (ours, sla's,
# slb's), then "other"
cgrow() { awk -v s="$1" '$1 == s { print $2 }' "$SL_DBG/func"; }
cgjs() { "$SL_TOOL" status -j | jq -r '.pipelines[] | select(.pipeline == "func") | .cgroup_totals'; }
both
assert_eq "cg rows while off" 0 "$(awk '$1 ~ /^cg[0-9-]/ && $2 > 0' "$SL_DBG/func" | wc -l)"
grep -A12 "^pipeline func:" "$SL_DBG/status" | grep -q "cgroup totals: off (control: cgtotals PIPELINE on), 3 slots" ||
	fail "status: cgroup totals not said off"
assert_eq "status -j cgroup_totals (off)" false "$(cgjs)"
out=$("$SL_TOOL" cgtotals net_rx on 2>&1) && fail "the tool took cgtotals net_rx on"
grep -q "no cgroup totals" <<<"$out" || fail "cgtotals net_rx on: '$out'"
for bad in "cgtotals net_rx on" "cgtotals func yes" "cgtotals func"; do
	if echo "$bad" > "$SL_DBG/control" 2> /dev/null; then
		fail "control took '$bad'"
	fi
done
assert_eq "status -j cgroup_totals after refused ones" false "$(cgjs)"
"$SL_TOOL" cgtotals func on || fail "stacklat cgtotals func on"
assert_eq "status -j cgroup_totals (on)" true "$(cgjs)"
"$SPIN" -n 10 -t 0 > /dev/null	# our cgroup's slot, whether sh took it or not
both
assert_eq "cg$ida.total" $A "$(cgrow cg$ida.total)"
assert_eq "cg$idb.total" $B "$(cgrow cg$idb.total)"
# the tool names them by their paths
assert_eq "stacklat show: cg:/sla.total" $A "$("$SL_TOOL" show func | awk '$1 == "cg:/sla.total" { print $2 }')"
mkdir $CG/slc $CG/sld
idc=$(stat -c %i $CG/slc)
if grep -A12 "^pipeline func:" "$SL_DBG/status" | grep -q "cgroup totals: on, 3 slots, not recycled"; then
	# 5.10: no cgroup_get_from_id(), said; slb keeps its slot
	recycled="not recycled (said in status)"
	spin_in slc 1500
	assert_eq "cg-other.total (slc: no slot left)" 1500 "$(cgrow cg-other.total)"
else
	grep -A12 "^pipeline func:" "$SL_DBG/status" | grep -q "cgroup totals: on, 3 slots, a removed" ||
		fail "status: no cgroup totals line"
	recycled="a removed cgroup's slot taken by the next (1500), other 700"
	rmdir $CG/slb || fail "rmdir slb"
	# netlink's read releases it (show -j reads the stages before debugfs)
	assert_eq "show -j: stages of slb once removed" 0 "$("$SL_TOOL" show -j func |
		jq --arg n "cg$idb.total" '[.pipelines[].stages[] | select(.name == $n)] | length')"
	assert_eq "cg$idb.total once slb is removed" "" "$(cgrow cg$idb.total)"
	spin_in slc 1500
	spin_in sld 700
	assert_eq "cg$idc.total (slb's slot)" 1500 "$(cgrow cg$idc.total)"
	assert_eq "cg-other.total (sld: no slot left)" 700 "$(cgrow cg-other.total)"
	mkdir $CG/slb
	idb=$(stat -c %i $CG/slb)
fi
# off again: the next calls are in no cgroup's row
ctl "cgtotals func off"
both
assert_eq "cg rows once off again" 0 "$(awk '$1 ~ /^cg[0-9-]/ && $2 > 0' "$SL_DBG/func" | wc -l)"
assert_eq "sla's calls once off again (cg$ida.total)" 0 "$(cgrow cg$ida.total)"
rmdir $CG/slc $CG/sld
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
pass "cgroup=: events 20/30/7/5 lines with their cgroup (text, -j, debugfs); per-cgroup totals off at load (0 rows), on: $A and $B, $recycled; func $A of $A + $B (tool, /sla), $B (control, id), $A (control, path); net_rx 120 of 200 (sla's reads), net_tx 80 (slb's sends); bad paths and ids refused, nothing changed; a removed cgroup's id keeps nothing"
