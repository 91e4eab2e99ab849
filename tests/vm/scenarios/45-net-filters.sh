#!/bin/bash
# kernels: any
#   one kernel: filter matching is the engine's; the points it runs at are exact on each kernel in 42, 43, 49
# Filters, each with concurrent traffic it must reject, exact counts:
#  - tgid: two client processes, two server processes; net_tx tgid=client1
#    counts exactly client1's requests, net_rx tgid=server2 exactly the
#    requests server2 read (the filter applies where the application is:
#    at sendmsg for tx, at the copy to user for rx);
#  - tid: one process, two threads on two connections; tid= picks one;
#  - proto: TCP and UDP flows at once, proto=udp / proto=tcp;
#  - rport on rx (the client's side), lport on tx;
#  - ifindex: a loopback flow and a veth flow at once (the veths get
#    indexes of their own: an ifindex is matched in any namespace);
#  - keys a network pipeline does not have (dev, op, fs) are refused.
# TCP retransmissions are accounted for exactly (net.sh); with a task
# filter they are out (they have no application point).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

SIZE=200
GO=/tmp/sl-go

go() { # reset, let the clients run, wait for everybody
	ctl reset
	touch $GO
	wait_all
	rm -f $GO
	cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
	grep "lost:" "$SL_DBG/status"
	assert_eq "net_tx unmatched" 0 "$(lost net_tx unmatched)"
}
srv() { server "$1" "$2" "$3" "$4" "$5" $SIZE rr; }
cli() { client "$1" "$2" "$3" "$4" "$5" $SIZE rr "$6" $GO; }
RX="$RX_STAGES total"
TXT="$TX_TCP_STAGES total"

trap veth_down EXIT
veth_up 50 51
no_tlp -
assert_eq "veth1 ifindex" 51 "$(ip netns exec slb cat /sys/class/net/veth1/ifindex)"

sl_load
ctl enable net_rx
ctl enable net_tx

note "tgid: client1 -> server1 (60 rounds), client2 -> server2 (40 rounds)"
srv - tcp 127.0.0.1 7101 60
srv - tcp 127.0.0.1 7102 40
cli - tcp 127.0.0.1 7101 60 c1
cli - tcp 127.0.0.1 7102 40 c2
ctl filter net_tx clear tgid="$(cli_pid c1)"
ctl filter net_rx clear tgid="$(srv_pid 7102)"
go
expect net_tx 60 $TXT    # retransmissions have no task: out
expect net_rx 40 $RX

note "tid: one client process, thread A 70 rounds, thread B 30 rounds"
srv - tcp 127.0.0.1 7201 70
srv - tcp 127.0.0.1 7202 30
cli - tcp 127.0.0.1 7201,7202 70,30 t
ctl filter net_tx clear tid="$(cli_tid t 7201)"
ctl filter net_rx clear tid="$(cli_tid t 7202)"
go
expect net_tx 70 $TXT
expect net_rx 30 $RX   # the replies thread B read

note "proto: TCP 50 rounds and UDP 30 rounds at once, no port filter"
srv - tcp 127.0.0.1 7301 50
srv - udp 127.0.0.1 7302 30
cli - tcp 127.0.0.1 7301 50 pt
cli - udp 127.0.0.1 7302 30 pu
ctl filter net_rx clear proto=udp
ctl filter net_tx clear proto=tcp
go
expect net_rx 60 $RX   # UDP requests and replies
check_tx_tcp 100 $(($(retrans /tmp/sl-cli.pt 7301) + $(retrans /tmp/sl-srv.7301 7301)))
assert_eq "net_tx udp->ip" 0 "$(cnt net_tx udp-\>ip)"

note "rport on rx, lport on tx: the replies of server 7401 only"
srv - tcp 127.0.0.1 7401 45
srv - tcp 127.0.0.1 7402 25
cli - tcp 127.0.0.1 7401 45 r1
cli - tcp 127.0.0.1 7402 25 r2
ctl filter net_rx clear rport=7401
ctl filter net_tx clear lport=7401
go
expect net_rx 45 $RX
check_tx_tcp 45 "$(retrans /tmp/sl-srv.7401 7401)"

note "ifindex: veth flow sla -> slb (35 rounds) and loopback flow (55 rounds)"
srv slb tcp 0.0.0.0 7501 35
srv - tcp 127.0.0.1 7502 55
cli sla tcp 10.9.0.2 7501 35 v
cli - tcp 127.0.0.1 7502 55 l
ctl filter net_rx clear ifindex=51
ctl filter net_tx clear ifindex=50
go
expect net_rx 35 $RX veth1.total
check_tx_tcp 35 "$(retrans /tmp/sl-cli.v 7501)" veth0.total

note "keys the network pipelines do not have"
for bad in "filter net_rx dev=8:0" "filter net_tx op=read" "filter net_rx fs=ext4" "filter net_tx ifindex=0" "filter net_rx proto=icmp"; do
	if echo "$bad" > "$SL_DBG/control" 2>/dev/null; then
		fail "'$bad' was accepted"
	fi
	echo "ok: '$bad' refused"
done
ctl disable net_rx
ctl disable net_tx
sl_unload
pass "tgid, tid, proto, lport/rport and ifindex filters: exact counts of the selected flow under concurrent traffic; foreign keys refused"
