#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: any
#   an application-level variant: the uprobes' entry and return paths are
#   97-ufunc's and 97-ufunc-life's, on every kernel
# A real server program from Debian (issue 27): memcached, driven by its
# real client (python3-pymemcache).  Debian's memcached is stripped: no
# function of its own is in any symbol table (.symtab gone, .dynsym only
# imports), so the function is the one of its libraries it calls once per
# response: libc's sendmsg (memcached writes each response with one
# sendmsg of its iovecs).  "func add -p MEMCACHED c:sendmsg" (the loader's
# cache, .dynsym) counts exactly the responses:
#  - S sets (pymemcache sends them "noreply": no response) and N gets on
#    one connection: N calls, all memcached's; every other process's calls
#    (the client's, this tool's own netlink messages) counted filtered,
#    none in the row - the filter is set before the point is armed;
#  - the count against memcached's own: its "stats" cmd_get moved by N;
#  - a slow-event threshold of 1 ns: one line per call, memcached's pid
#    and a worker thread's comm ("mc-worker").
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

PORT=11297
S=10 N=200
T=/tmp/sl-97mc
rm -rf "$T"
mkdir -p "$T"
command -v memcached > /dev/null || fail "memcached not installed on the host (tests/deps.sh)"
python3 -c 'import pymemcache' 2> /dev/null || fail "python3-pymemcache not installed on the host (tests/deps.sh)"

memcached -u root -t 2 -p $PORT -U 0 -l 127.0.0.1 -m 16 &
MC=$!
trap 'kill $MC 2> /dev/null || true' EXIT
for _ in $(seq 50); do
	python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT)).close()" 2> /dev/null && break
	sleep 0.1
done
# stat NAME: memcached's own counter NAME (a request of its own, answered
# with a sendmsg: made before the point is armed and after it is read)
stat() {
	python3 -c '
import sys
from pymemcache.client.base import Client
c = Client(("127.0.0.1", int(sys.argv[1])))
print(int(c.stats()[sys.argv[2].encode()]))
c.close()' $PORT "$1"
}
g0=$(stat cmd_get)
sl_load
echo "enable func" > "$SL_DBG/control"
echo "threshold func 1" > "$SL_DBG/control"
"$SL_TOOL" func add -p $MC c:sendmsg || fail "func add -p $MC c:sendmsg"
grep -Eq "^  hook /.*/libc\.so\.6:0x[0-9a-f]+ +armed +uprobe " "$SL_DBG/status" ||
	fail "sendmsg not an armed uprobe: $(grep '^  hook' "$SL_DBG/status")"
timeout 120 python3 - "$PORT" "$S" "$N" <<'PY' || fail "memcached client failed"
import sys
from pymemcache.client.base import Client
port, s, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
c = Client(("127.0.0.1", port), no_delay=True)
for i in range(s):
    c.set("k%d" % i, b"v" * 100)
for i in range(n):
    assert c.get("k%d" % (i % s)) == b"v" * 100
c.close()
PY
cat "$SL_DBG/func"
cnt=$(awk '$1 == "sendmsg" { print $2 }' "$SL_DBG/func")
json=$("$SL_TOOL" show -j func | jq -r '.. | objects | select(.name? == "sendmsg") | "\(.count) \(.p50_ns)"' | sed -n 1p)
read -r jc p50 <<<"$json"
"$SL_TOOL" events -d 0.5 func > "$T/ev"
"$SL_TOOL" func del c:sendmsg || fail "func del c:sendmsg"
grep '^pipeline func' -A12 "$SL_DBG/status" | grep -E 'lost:' || true
g1=$(stat cmd_get)
note "memcached's cmd_get: $g0 -> $g1"
assert_eq "memcached's sendmsg calls for $S noreply sets and $N gets" $N "$cnt"
assert_eq "memcached's own count of gets (stats cmd_get)" "$cnt" $((g1 - g0))
assert_eq "netlink count" $N "$jc"
sed -n 1,2p "$T/ev"
assert_eq "event lines of memcached's workers" $N "$(grep -Ec "^ *[0-9.]+ mc-worker $MC/[0-9]+ func total=[^ ]+ sendmsg=" "$T/ev" || true)"
assert_eq "event lines in all" $N "$(grep -c ' func total=' "$T/ev" || true)"
echo "disable func" > "$SL_DBG/control"
pass "memcached (Debian's, stripped): c:sendmsg of its pid counts its $N responses exactly ($S noreply sets, $N gets by pymemcache; its cmd_get agrees), p50 $p50 ns, $N event lines"
