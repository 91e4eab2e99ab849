#!/bin/bash
# kernels: any
#   one kernel: recycling a breakdown slot is the engine's bookkeeping, one pair at a time; 43 is exact over veth on each
# What the engine guarantees to every pipeline, on the network pipelines
# (0. to 2.: 49-engine-v2):
# 3. Breakdown slots are recycled: 10 veth pairs, each created, used for N
#    UDP request/response rounds and destroyed in turn, each show their
#    own <if>.total with exactly N samples on both ends (8 slots: without
#    recycling the fifth pair would land in "other").
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

trap veth_down EXIT
R=10
PAIRS=10
sl_modprobe veth
sl_load
ctl enable net_rx
for i in $(seq 1 $PAIRS); do
	ip netns add sla
	ip netns add slb
	ip link add "va$i" netns sla type veth peer name "vb$i" netns slb
	ip -n sla addr add 10.9.0.1/24 dev "va$i"
	ip -n slb addr add 10.9.0.2/24 dev "vb$i"
	for ns in sla slb; do ip -n $ns link set lo up; done
	ip -n sla link set "va$i" up
	ip -n slb link set "vb$i" up
	run_pair slb sla udp 10.9.0.2 $((7200 + i)) $R 64 rr
	assert_eq "pair $i: vb$i.total (server side)" $R "$(cnt net_rx "vb$i.total")"
	assert_eq "pair $i: va$i.total (client side)" $R "$(cnt net_rx "va$i.total")"
	veth_down
	# the interfaces go away in the kernel's namespace cleanup, later
	for _ in $(seq 100); do
		grep -q "^va$i.total\|^vb$i.total" "$SL_DBG/net_rx" || break
		sleep 0.1
	done
	if grep -q "^va$i.total\|^vb$i.total" "$SL_DBG/net_rx"; then
		fail "pair $i: its slots still named 10 s after its namespaces went"
	fi
done
assert_eq "net_rx other.total" 0 "$(cnt net_rx other.total)"
ctl disable net_rx
sl_unload
pass "$PAIRS veth pairs in turn each with their own totals ($R and $R), none in other"
