#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 5.10 6.12 7.3
# The nettop pipeline (issue 29, top net): bytes and calls sent and
# received per process, by protocol and by peer, exactly.
#  - four sl-net pairs at once, over TCP and UDP: loopback IPv4
#    (127.0.0.1), loopback IPv6 (::1), and a veth pair into two
#    namespaces, IPv4 (10.9.0.1 -> 10.9.0.2) and IPv6 (fd00::1 ->
#    fd00::2); each client sends N x M bytes over TCP (every send(2)
#    counted by the helper), reads one byte back, and sends K datagrams of
#    L bytes with sendto(2); each server receives them (every recv(2) and
#    recvfrom(2) counted, the end-of-file read too);
#  - each process's proto rows (debugfs) are exactly its own calls and
#    bytes, sent and received, in its protocol only (tcp4/udp4 or
#    tcp6/udp6): nothing of the other seven processes is in them;
#  - its peer rows name the local port and the peer (address and port)
#    the helpers saw (getsockname, accept, recvfrom);
#  - against the kernel's own accounting: the TCP bytes against the
#    sockets' TCP_INFO (tcpi_bytes_sent - tcpi_bytes_retrans at the
#    client, tcpi_bytes_received at the server before the FIN), the veth
#    pairs' datagrams against the namespaces' /proc/net/snmp Udp and
#    /proc/net/snmp6 Udp6 In/OutDatagrams (the namespaces carry nothing
#    else);
#  - top net -p (JSON), -r (JSON) and -P agree; the text shows the row;
#  - every hook armed; the table lost nothing (full, busy, dropped 0).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

NT=$SL_REPO/tests/vm/helpers/sl-net
T=/tmp/sl-89n
rm -rf "$T"
mkdir -p "$T"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# st: the nettop pipeline's part of status
st() {
	awk '/^pipeline / { cur = $2; sub(":", "", cur) } cur == "nettop"' "$SL_DBG/status"
}

# row TGID PROTO KIND COLUMN: a column of the debugfs row - 5 sends,
# 6 send_bytes, 7 serr, 8 recvs, 9 recv_bytes, 10 rerr, 11 alias,
# 12 lport, 13 peer - or "none"; KIND proc or peer
row() {
	awk -v t="$1" -v p="$2" -v k="$3" -v c="$4" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $1 == t && $3 == p && $4 == k { print $c; f = 1 }
		END { if (!f) print "none" }' "$T/nettop"
}
# rows TGID: how many rows the process has ("proc peer")
rows() {
	awk -v t="$1" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $1 == t { n[$4]++ } END { print n["proc"] + 0, n["peer"] + 0 }' "$T/nettop"
}

waitfor() {
	for _ in $(seq 1200); do
		grep -q "^$2" "$T/$1" 2> /dev/null && return
		sleep 0.05
	done
	fail "sl-net $1: no '$2' ($(cat "$T/$1" 2> /dev/null))"
}

# snap FILE: the namespaces' UDP datagram counters, "NS PROTO IN OUT"
# lines, from /proc/net/snmp (Udp) and /proc/net/snmp6 (Udp6)
snap() {
	local ns
	for ns in sla slb; do
		ip netns exec "$ns" cat /proc/net/snmp /proc/net/snmp6 |
			awk -v ns="$ns" '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
				$1 == "Udp:" { print ns, "Udp", $c["InDatagrams"], $c["OutDatagrams"] }
				$1 == "Udp6InDatagrams" { i6 = $2 } $1 == "Udp6OutDatagrams" { o6 = $2 }
				END { print ns, "Udp6", i6, o6 }'
	done > "$1"
}

veth_up
sl_load keyed_linger_ms=300
ctl enable nettop
st > "$T/status"
grep " hook " "$T/status"
for h in tcp_send tcp_recv udp_send udp_recv udp6_send udp6_recv process_exit; do
	grep -q "hook $h  *armed" "$T/status" ||
		fail "hook $h not armed: $(grep "hook $h " "$T/status")"
done

# the pairs: NAME SERVER-NS CLIENT-NS ADDR CLIENT-ADDR TPORT UPORT N M K L V
PAIRS="lo4 - - 127.0.0.1 127.0.0.1 15011 15012 40 10000 20 1000 4
lo6 - - ::1 ::1 15021 15022 30 12000 15 1200 6
ve4 slb sla 10.9.0.2 10.9.0.1 15031 15032 25 9000 12 900 4
ve6 slb sla fd00::2 fd00::1 15041 15042 20 8000 10 800 6"
snap "$T/snmp.0"
note "servers, then clients (N x M bytes over TCP, K x L over UDP)"
while read -r n sns cns a ca tp up N M K L v; do
	in_ns "$sns" "$NT" server "$a" "$tp" "$up" $((N * M)) "$K" "$T/S$n" "$T/quit" &
	waitfor "S$n" ready
done <<< "$PAIRS"
while read -r n sns cns a ca tp up N M K L v; do
	in_ns "$cns" "$NT" client "$a" "$tp" "$up" "$N" "$M" "$K" "$L" "$T/C$n" "$T/quit" &
done <<< "$PAIRS"
while read -r n _; do
	waitfor "S$n" "done"
	waitfor "C$n" "done"
done <<< "$PAIRS"
cat "$SL_DBG/nettop" > "$T/nettop"
cat "$T/nettop"

# [addr]:port as the debugfs row prints it (an IPv4 address v4-mapped)
peer() {
	if [ "$2" = 4 ]; then echo "[::ffff:$1]:$3"; else echo "[$1]:$3"; fi
}
while read -r n sns cns a ca tp up N M K L v; do
	# shellcheck disable=SC2034 # the helpers' words, by name
	read -r _ s trecvs trbytes tsends tsbytes urecvs urbytes tcpi tpeer upeer <<< "$(grep "^done" "$T/S$n")"
	# shellcheck disable=SC2034
	read -r _ c ctsends ctsbytes ctrecvs ctrbytes cusends cusbytes ctcpi tl ul < "$T/C$n"
	note "$n: client $c: tcp $ctsends sends $ctsbytes bytes, udp $cusends x $L; server $s: tcp $trecvs recvs $trbytes bytes, udp $urecvs"
	assert_eq "$n: client's TCP bytes, the helper's and TCP_INFO's" "$((N * M)) $((N * M))" "$ctsbytes $ctcpi"
	assert_eq "$n: server's TCP bytes, the helper's and TCP_INFO's" "$((N * M)) $((N * M))" "$trbytes $tcpi"
	assert_eq "$n: client tcp$v sends, bytes, errors" "$ctsends $((N * M)) 0" \
		"$(row "$c" "tcp$v" proc 5) $(row "$c" "tcp$v" proc 6) $(row "$c" "tcp$v" proc 7)"
	assert_eq "$n: client tcp$v recvs, bytes" "1 1" "$(row "$c" "tcp$v" proc 8) $(row "$c" "tcp$v" proc 9)"
	assert_eq "$n: client udp$v sends, bytes, recvs" "$K $((K * L)) 0" \
		"$(row "$c" "udp$v" proc 5) $(row "$c" "udp$v" proc 6) $(row "$c" "udp$v" proc 8)"
	assert_eq "$n: server tcp$v recvs, bytes, errors" "$trecvs $((N * M)) 0" \
		"$(row "$s" "tcp$v" proc 8) $(row "$s" "tcp$v" proc 9) $(row "$s" "tcp$v" proc 10)"
	assert_eq "$n: server tcp$v sends, bytes" "1 1" "$(row "$s" "tcp$v" proc 5) $(row "$s" "tcp$v" proc 6)"
	assert_eq "$n: server udp$v recvs, bytes, sends" "$K $((K * L)) 0" \
		"$(row "$s" "udp$v" proc 8) $(row "$s" "udp$v" proc 9) $(row "$s" "udp$v" proc 5)"
	# two protocols, one peer each: nothing else (no other pair's traffic)
	assert_eq "$n: client's rows (proc peer)" "2 2" "$(rows "$c")"
	assert_eq "$n: server's rows (proc peer)" "2 2" "$(rows "$s")"
	assert_eq "$n: client's TCP peer row" "$tl $(peer "$a" "$v" "$tp") $ctsends $((N * M))" \
		"$(row "$c" "tcp$v" peer 12) $(row "$c" "tcp$v" peer 13) $(row "$c" "tcp$v" peer 5) $(row "$c" "tcp$v" peer 6)"
	assert_eq "$n: client's UDP peer row" "$ul $(peer "$a" "$v" "$up") $K" \
		"$(row "$c" "udp$v" peer 12) $(row "$c" "udp$v" peer 13) $(row "$c" "udp$v" peer 5)"
	assert_eq "$n: server's TCP peer row" "$tp $(peer "$ca" "$v" "$tpeer") $trecvs" \
		"$(row "$s" "tcp$v" peer 12) $(row "$s" "tcp$v" peer 13) $(row "$s" "tcp$v" peer 8)"
	assert_eq "$n: server's UDP peer row" "$up $(peer "$ca" "$v" "$upeer") $K $((K * L))" \
		"$(row "$s" "udp$v" peer 12) $(row "$s" "udp$v" peer 13) $(row "$s" "udp$v" peer 8) $(row "$s" "udp$v" peer 9)"
	echo "$n $s $c $N $M $K $L $v $trecvs $ctsends $tl $ul $tp $up" >> "$T/truth"
done <<< "$PAIRS"

note "the veth namespaces' own UDP counters: the datagrams of ve4 and ve6"
snap "$T/snmp.1"
# delta NS PROTO: "IN OUT" datagrams since the first snapshot
delta() {
	awk -v ns="$1" -v p="$2" '$1 == ns && $2 == p { if (FILENAME ~ /0$/) { i = $3; o = $4 } else print $3 - i, $4 - o }' \
		"$T/snmp.0" "$T/snmp.1"
}
assert_eq "sla Udp, Udp6 In/OutDatagrams (12 and 10 sent)" "0 12 0 10" "$(delta sla Udp) $(delta sla Udp6)"
assert_eq "slb Udp, Udp6 In/OutDatagrams (12 and 10 received)" "12 0 10 0" "$(delta slb Udp) $(delta slb Udp6)"

note "the tool: top net -p, -r (JSON), -P agree with the helpers"
: > "$T/top.p"
while read -r n s c _; do
	for x in "$s" "$c"; do
		"$SL_TOOL" top net -p "$x" -j -n 0 > "$T/top.p.$x.json" || fail "top net -p $x -j failed"
		"$SL_TOOL" top net -p "$x" -r -j -n 0 > "$T/top.r.$x.json" || fail "top net -p $x -r -j failed"
	done
done < "$T/truth"
"$SL_TOOL" top net -P -j -n 0 > "$T/top.P.json" || fail "top net -P -j failed"
lo4c=$(awk '$1 == "lo4" { print $3 }' "$T/truth")
"$SL_TOOL" top net -p "$lo4c" -n 0 | tee "$T/top.txt"
"$SL_TOOL" top net -r -n 0 | grep -E "PEER|sl-net"
python3 - "$T" <<'PY' || fail "top net JSON: see above"
import json, sys
t = sys.argv[1]
for line in open(t + "/truth"):
    n, s, c, N, M, K, L, v, trecvs, ctsends, tl, ul, tp, up = line.split()
    s, c, N, M, K, L, trecvs, ctsends = map(int, (s, c, N, M, K, L, trecvs, ctsends))
    want = {
        (c, "tcp" + v): dict(sends=ctsends, send_bytes=N * M, recvs=1, recv_bytes=1),
        (c, "udp" + v): dict(sends=K, send_bytes=K * L, recvs=0, recv_bytes=0),
        (s, "tcp" + v): dict(sends=1, send_bytes=1, recvs=trecvs, recv_bytes=N * M),
        (s, "udp" + v): dict(sends=0, send_bytes=0, recvs=K, recv_bytes=K * L),
    }
    for p in (s, c):
        d = json.load(open("%s/top.p.%d.json" % (t, p)))
        assert d["what"] == "net" and d["by"] == "proto" and d["sort"] == "bytes", d
        got = {(r["tgid"], r["proto"]): r for r in d["rows"]}
        assert set(got) == {k for k in want if k[0] == p}, (n, p, list(got))
        for k in got:
            for f, x in want[k].items():
                assert got[k][f] == x, (n, k, f, got[k][f], x)
        r = json.load(open("%s/top.r.%d.json" % (t, p)))
        assert r["by"] == "peer" and len(r["rows"]) == 2, (n, r)
        for x in r["rows"]:
            k = (x["tgid"], x["proto"])
            for f, y in want[k].items():
                assert x[f] == y, (n, k, f, x[f], y)
            assert x["alias"] == 0, x
        lp = {x["proto"][:3]: x["lport"] for x in r["rows"]}
        assert lp == ({"tcp": int(tl), "udp": int(ul)} if p == c else
                      {"tcp": int(tp), "udp": int(up)}), (n, p, lp)
    dp = json.load(open(t + "/top.P.json"))
    assert dp["by"] == "process", dp["by"]
    for p in (s, c):
        r = [x for x in dp["rows"] if x["tgid"] == p]
        assert len(r) == 1, r
        tot = [sum(w[f] for k, w in want.items() if k[0] == p)
               for f in ("sends", "send_bytes", "recvs", "recv_bytes")]
        assert [r[0][f] for f in ("sends", "send_bytes", "recvs", "recv_bytes")] == tot, (n, p, r, tot)
print("ok: top net -p, -r and -P agree with the helpers' counts")
PY
read -r _ _ lo4c N M K L _ _ cts _ <<< "$(grep "^lo4 " "$T/truth")"
grep -Eq "^$lo4c +sl-net +tcp4 +$cts +$((N * M / 1024)) +1 +0$" "$T/top.txt" ||
	fail "top net text: the lo4 client's tcp4 row is not '$cts $((N * M / 1024)) 1 0'"
touch "$T/quit"
wait
st | grep -E "^ *(lost|keyed):" > "$T/counters"
cat "$T/counters"
# cnt LINE KIND: a counter of the keyed: or the lost: line
cnt() {
	awk -v l="$1:" -v k="$2" '$1 == l { for (i = 2; i <= NF; i++) { split($i, x, "="); if (x[1] == k) print x[2] } }' "$T/counters"
}
for k in full busy dropped; do
	assert_eq "keyed $k" 0 "$(cnt keyed "$k")"
done
ctl "disable nettop"
veth_down
sl_unload
pass "nettop: exact TCP and UDP calls and bytes per process, protocol and peer over loopback and veth, IPv4 and IPv6; against TCP_INFO and the namespaces' UDP counters"
