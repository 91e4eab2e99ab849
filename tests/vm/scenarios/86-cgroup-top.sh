#!/bin/bash
# kernels: all
#   the rows keep the task's cgroup v2 id, read in probe context (css_set,
#   kernfs ids): every kernel's structures, as 84's filter
# top syscalls|files|net|disk --by cgroup (issue 29 item 3): two cgroups
# made with mkdir, sla and slb; every helper joins its cgroup before its
# first instruction (a shell writes its own pid to cgroup.procs, then
# execs the helper):
#  - net: an sl-net client in sla, its server in slb, TCP N x M bytes and
#    UDP K datagrams of L bytes on loopback: sla's row is exactly the
#    client's calls and bytes, slb's the server's (the helpers count them:
#    the ground truth), in the table and in -j; top net -j's process rows
#    (tcp4, udp4) carry their cgroup's id and path;
#  - syscalls: sl-spin makes A getppid calls in sla, B in slb: the debugfs
#    rows say so, with the cgroup's id in their new column; each cgroup's
#    --by cgroup row is exactly the sum of the debugfs rows with its id
#    (calls, errors), and its processes are the tgids of those rows;
#  - files: sl-files writes FB bytes in FC calls to a named file (tmpfs)
#    and reads them back, in sla: its debugfs row, cgroup column sla's;
#    sla's --by cgroup row is the sum of the rows with sla's id;
#  - disk (the scratch disk, if mounted): dd writes 1 MiB with O_DIRECT in
#    slb: slb's write bytes exactly 1 MiB;
#  - slb removed (rmdir, its processes gone, their rows lingering): its row
#    is "cgroup:ID (removed)", -j "removed": true;
#  - intervals: two of 0.2 s after the work, no row;
#  - -j output's keys are docs/json.md's (tests/json-keys-check.py);
#  - without a cgroup2 mount (a mount namespace without one): "not
#    available", exit 1.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

CG=/sys/fs/cgroup
H=$SL_REPO/tests/vm/helpers
T=/tmp/sl-86
A=3000 B=2000
FB=262144 FC=64
N=20 M=1000 K=10 L=700
MIB=1048576

grep -q "^cgroup2 $CG " /proc/mounts || mount -t cgroup2 none $CG || fail "cannot mount cgroup2 on $CG"
umount "$T/m" 2> /dev/null || true
rm -rf "$T"
mkdir -p "$T/m"
mount -t tmpfs sl-86 "$T/m" || fail "cannot mount a tmpfs"
rmdir $CG/sla $CG/slb 2> /dev/null || true
mkdir $CG/sla $CG/slb
ida=$(stat -c %i $CG/sla) idb=$(stat -c %i $CG/slb)
cleanup() {
	touch "$T/quit"
	umount "$T/m" 2> /dev/null || true
	rmdir $CG/sla $CG/slb 2> /dev/null || true
}
trap cleanup EXIT

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }
# in_cg CGROUP CMD... &: CMD in CGROUP from its first instruction, with
# the background job's pid ($!): the job's subshell joins, then execs CMD
# (no shell starting in between: dash's own getppid() would count)
in_cg() {
	echo "$BASHPID" > "$CG/$1/cgroup.procs"
	shift
	exec "$@"
}
waitfor() {
	for _ in $(seq 600); do
		grep -q "^$2" "$T/$1" 2> /dev/null && return
		sleep 0.05
	done
	fail "$1: no '$2' ($(cat "$T/$1" 2> /dev/null))"
}
# dbgsum FILE ID COLUMN...: the sums of the columns over a debugfs table's
# rows whose cgroup (column CGCOL) is ID, then the number of their tgids
dbgsum() {
	awk -v id="$2" -v cc="$3" -v cols="$4" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $cc == id { n = split(cols, c, ","); for (i = 1; i <= n; i++) s[i] += $(c[i]); t[$1] = 1 }
		END { for (i = 1; i <= split(cols, c, ","); i++) printf "%d ", s[i]; k = 0; for (x in t) k++; print k }' "$1"
}
# jrow FILE ID KEYS: the -j row of cgroup ID, its KEYS (jq, "a,b")
jrow() {
	jq -r --argjson id "$2" ".rows[] | select(.cgroup_id == \$id) | [$3] | map(tostring) | join(\" \")" "$1"
}

sl_load keyed_linger_ms=60000
for p in syscalls files nettop disktop; do ctl enable $p; done

note "sla: sl-net client (TCP $N x $M, UDP $K x $L), sl-files ($FB bytes in $FC writes), sl-spin $A; slb: the server, sl-spin $B"
in_cg slb "$H/sl-net" server 127.0.0.1 7861 7862 $((N * M)) $K "$T/S" "$T/quit" &
ps=$!
in_cg sla "$H/sl-files" "$T/m/f86" $FB $FC "$T/m/missing" 3 "$T/go" "$T/quit" "$T/F" &
pf=$!
waitfor S ready
waitfor F ready
touch "$T/go"
in_cg sla "$H/sl-net" client 127.0.0.1 7861 7862 $N $M $K $L "$T/C" "$T/quit" &
pc=$!
in_cg sla "$H/sl-spin" -n $A -t 0 > /dev/null &
pa=$!
in_cg slb "$H/sl-spin" -n $B -t 0 > /dev/null &
pb=$!
wait $pa $pb
dd=
if mountpoint -q "${SL_MNT:-/none}"; then
	in_cg slb dd if=/dev/zero of="$SL_MNT/sl86" bs=64k count=16 oflag=direct status=none &
	dd=$!
	wait $dd
fi
waitfor F "done"
waitfor S "done"
waitfor C "done"
# every process of the two cgroups ends: their rows stay (linger 60 s), unchanged
touch "$T/quit"
wait $ps $pf $pc
for p in syscalls files nettop disktop; do cat "$SL_DBG/$p" > "$T/$p"; done
for v in net syscalls files disk; do
	"$SL_TOOL" top $v --by cgroup -n 0 -j > "$T/$v.json" || fail "top $v --by cgroup -j"
	"$SL_TOOL" top $v -n 0 -j > "$T/$v-proc.json" || fail "top $v -j"
done
"$SL_TOOL" top net --by cgroup -n 0 > "$T/net.txt"
cat "$T/net.txt"

# ---- net: exactly the helpers' calls and bytes
# shellcheck disable=SC2034 # the helpers' words, by name
read -r _ _ strecvs strbytes stsends stsbytes surecvs surbytes _ <<< "$(grep "^done" "$T/S")"
# shellcheck disable=SC2034
read -r _ _ ctsends ctsbytes ctrecvs ctrbytes cusends cusbytes _ <<< "$(grep "^done" "$T/C")"
assert_eq "sla (client): sends send_bytes recvs recv_bytes, path, processes" \
	"$((ctsends + cusends)) $((N * M + K * L)) $ctrecvs $ctrbytes /sla 1" \
	"$(jrow "$T/net.json" "$ida" ".sends,.send_bytes,.recvs,.recv_bytes,.cgroup,.processes")"
assert_eq "slb (server): sends send_bytes recvs recv_bytes, path, processes" \
	"$stsends $stsbytes $((strecvs + surecvs)) $((N * M + K * L)) /slb 1" \
	"$(jrow "$T/net.json" "$idb" ".sends,.send_bytes,.recvs,.recv_bytes,.cgroup,.processes")"
assert_eq "top net -j: the client's and the server's rows, cgroup_id cgroup" \
	"$ida /sla $ida /sla $idb /slb $idb /slb" \
	"$(jq -r --argjson c $pc --argjson s $ps '[.rows[] | select(.tgid == $c)] + [.rows[] | select(.tgid == $s)] |
		map("\(.cgroup_id) \(.cgroup)") | join(" ")' "$T/net-proc.json")"
grep -Eq "^ +1 +$((ctsends + cusends)) +$(((N * M + K * L) / 1024)) +$ctrecvs +0  /sla\$" "$T/net.txt" ||
	fail "top net --by cgroup: no such row for /sla"

# ---- syscalls: the debugfs rows (count $5, errors $6, cgroup $11)
assert_eq "sla's sl-spin: getppid calls, cgroup" "$A $ida" \
	"$(awk -v t=$pa '$1 == t && $4 == 110 { print $5, $11 }' "$T/syscalls")"
assert_eq "slb's sl-spin: getppid calls, cgroup" "$B $idb" \
	"$(awk -v t=$pb '$1 == t && $4 == 110 { print $5, $11 }' "$T/syscalls")"
for g in a b; do
	id=$([ $g = a ] && echo "$ida" || echo "$idb")
	assert_eq "sl$g: --by cgroup calls errors processes = debugfs's rows of its id" \
		"$(dbgsum "$T/syscalls" "$id" 11 5,6)" "$(jrow "$T/syscalls.json" "$id" ".count,.errors,.processes")"
done

# ---- files: the named file's row ($8 reads, $9 read_bytes, $10 writes,
# $11 write_bytes, $15 cgroup), sla's sums
assert_eq "sl-files' f86: reads read_bytes writes write_bytes cgroup" "$FC $FB $FC $FB $ida" \
	"$(awk -v t=$pf '$1 == t && $NF == "f86" { print $8, $9, $10, $11, $15 }' "$T/files")"
assert_eq "sla: --by cgroup opens reads read_bytes writes write_bytes processes = debugfs's" \
	"$(dbgsum "$T/files" "$ida" 15 6,8,9,10,11)" \
	"$(jrow "$T/files.json" "$ida" ".opens,.reads,.read_bytes,.writes,.write_bytes,.processes")"

# ---- disk
if [ -n "$dd" ]; then
	assert_eq "slb: dd's O_DIRECT write bytes" "$MIB" "$(jrow "$T/disk.json" "$idb" ".write_bytes")"
	rm -f "$SL_MNT/sl86"
fi

# ---- intervals: nothing ran in sla and slb since, no row of theirs
"$SL_TOOL" top net --by cgroup -j 0.2 2 > "$T/net-int.json"
assert_eq "two intervals of 0.2 s: lines, with an interval, rows of sla or slb" "2 2 0" \
	"$(jq -s -r --argjson a "$ida" --argjson b "$idb" '[length, ([.[] | select(.interval_ns > 0)] | length),
		([.[].rows[] | select(.cgroup_id == $a or .cgroup_id == $b)] | length)] | map(tostring) | join(" ")' "$T/net-int.json")"

# ---- slb removed: its rows linger, named as removed
rmdir $CG/slb || fail "rmdir of the emptied slb"
"$SL_TOOL" top net --by cgroup -n 0 -j > "$T/net-rm.json"
"$SL_TOOL" top net --by cgroup -n 0 > "$T/net-rm.txt"
assert_eq "slb after rmdir: cgroup removed" "cgroup:$idb (removed) true" \
	"$(jrow "$T/net-rm.json" "$idb" ".cgroup,.removed")"
grep -q "  cgroup:$idb (removed)\$" "$T/net-rm.txt" || fail "the text table does not say slb was removed"

# ---- the keys, against docs/json.md
python3 "$SL_REPO/tests/json-keys-check.py" "$SL_REPO/docs/json.md" "$T"/*.json ||
	fail "the --by cgroup JSON and docs/json.md disagree"

# ---- no cgroup2 mount: not available
if out=$(unshare -m sh -c "awk '\$3 == \"cgroup2\" { print \$2 }' /proc/mounts | xargs -r umount -l &&
	exec \"$SL_TOOL\" top syscalls --by cgroup" 2>&1); then
	fail "top --by cgroup without cgroup2 succeeded: $out"
else
	rc=$?
fi
assert_eq "exit status without cgroup2" 1 "$rc"
grep -q "not available" <<< "$out" || fail "without cgroup2: '$out'"

for p in syscalls files nettop disktop; do ctl disable $p; done
sl_unload
pass "--by cgroup: net exact against the helpers (sla $((ctsends + cusends)) sends, slb $((strecvs + surecvs)) recvs), getppid $A/$B in their cgroups' rows, syscalls and files rows summed per cgroup as debugfs's, ${dd:+disk 1 MiB in slb, }a removed cgroup named so, JSON keys as documented, not available without cgroup2"
