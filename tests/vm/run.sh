#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--bench|--demo] KERNEL...     (KERNEL: 5.10 6.1 6.1-rt 6.12)
#
# For each kernel: fetch it (cached), build the module against its headers
# with W=1 (any warning fails), make an initramfs, boot it in QEMU (TCG)
# with the host's root shared read-only over 9p, a virtio-net NIC with a
# port forward on 127.0.0.1 and a virtio-blk ext4 scratch disk, run the
# scenarios in the guest and judge the results here.
#
# Environment: SCENARIOS="10 4" runs only scenarios whose names start so;
# VM_TIMEOUT (s, default 1500) bounds a boot; VM_MEM (MB, default 1024).
# Logs: tests/vm/out/KERNEL/{build.log,console.log,results.log}.
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mode=test
case ${1:-} in
--bench) mode=bench; shift ;;
--demo) mode=demo; shift ;;
esac
[ $# -gt 0 ] || set -- 5.10 6.1 6.1-rt 6.12

cache=$here/.cache
passed=0
failed=0
skipped=0
summary=()

bad_re='Oops|WARNING:|BUG:|Call Trace|lockdep|possible recursive locking|KASAN|UBSAN|kernel BUG|general protection|INFO: task|stack-protector|kmemleak|RCU stall|rcu_sched self-detected|soft lockup|hard LOCKUP|refcount_t:|list_add corruption|list_del corruption'

record() { # record KERNEL NAME VERDICT MSG
	summary+=("$(printf '%-7s %-28s %s %s' "$1" "$2" "$3" "$4")")
	case $3 in
	PASS) passed=$((passed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	echo "[$1] $2: $3 $4"
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

make_initrd() { # make_initrd KERNEL -> path
	local k=$1 ird=$cache/initrd/$k
	. "$cache/k/$k/env"
	if [ -s "$ird.gz" ] && [ "$ird.gz" -nt "$here/init.sh" ]; then
		echo "$ird.gz"
		return
	fi
	rm -rf "$ird"
	mkdir -p "$ird"/{bin,dev,proc,sys,mnt,modules,tmp}
	cp /bin/busybox "$ird/bin/busybox"
	ln -s busybox "$ird/bin/sh"
	cp "$here/init.sh" "$ird/init"
	chmod +x "$ird/init"
	: > "$ird/modules.order"
	local m f b
	for m in virtio_pci virtio_net virtio_blk 9pnet_virtio 9p ext4; do
		modprobe --show-depends -d "$MODROOT" -S "$KVER" "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }' |
			while read -r f; do
				b=$(basename "$f")
				b=${b%.xz}
				b=${b%.zst}
				grep -qx "$b" "$ird/modules.order" && continue
				case $f in
				*.xz) xz -dc "$f" > "$ird/modules/$b" ;;
				*.zst) zstd -qdc "$f" > "$ird/modules/$b" ;;
				*) cp "$f" "$ird/modules/$b" ;;
				esac
				echo "$b" >> "$ird/modules.order"
			done
	done
	(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) > "$ird.gz"
	echo "$ird.gz"
}

build_module() { # build_module KERNEL LOG
	local k=$1 log=$2 b=$cache/build/$k cc=()
	. "$cache/k/$k/env"
	rm -rf "$b"
	mkdir -p "$b"
	cp -r "$repo/Kbuild" "$repo/Makefile" "$repo/VERSION" "$repo/kmod" "$repo/uapi" "$b/"
	# Debian's 5.10 headers name gcc-10, which bookworm lacks
	grep -q 'gcc-10' "$KDIR/include/generated/compile.h" 2>/dev/null && ! command -v gcc-10 >/dev/null && cc=(CC=gcc-12)
	[ "$k" = 5.10 ] && ! command -v gcc-10 >/dev/null && cc=(CC=gcc-12)
	if ! make -C "$KDIR" M="$b" W=1 "${cc[@]}" modules > "$log" 2>&1; then
		return 1
	fi
	! grep -E "warning:|error:" "$log"
}

run_kernel() {
	local k=$1 out=$repo/tests/vm/out/$1 ird port gport peer qpid rc=0
	mkdir -p "$out"
	rm -f "$out"/*.log
	if ! "$here/fetch-kernel.sh" "$k" > "$out/fetch.log" 2>&1; then
		record "$k" fetch FAIL "see $out/fetch.log"
		return
	fi
	. "$cache/k/$k/env"
	if ! build_module "$k" "$out/build.log"; then
		record "$k" build FAIL "module build failed or warned: see $out/build.log"
		return
	fi
	record "$k" build PASS "W=1 warning-free against $KVER"
	ird=$(make_initrd "$k")
	if [ ! -s "$cache/disk.img" ]; then
		truncate -s 64M "$cache/disk.img.tmp"
		mkfs.ext4 -q -F "$cache/disk.img.tmp"
		mv "$cache/disk.img.tmp" "$cache/disk.img"
	fi
	cp --sparse=always "$cache/disk.img" "$out/disk.img"
	port=$(free_port)
	gport=7777
	"$here/host-peer.py" "$port" "${VM_TIMEOUT:-1500}" &
	peer=$!
	local sel
	sel=$(echo "${SCENARIOS:-}" | tr ' ' ',')
	local t0=$SECONDS
	timeout -k 5 "${VM_TIMEOUT:-1500}" qemu-system-x86_64 -accel tcg -cpu max \
		-m "${VM_MEM:-1024}" -smp 2 -nographic -no-reboot \
		-kernel "$VMLINUZ" -initrd "$ird" \
		-append "console=ttyS0 quiet panic=-1 panic_on_warn=1 oops=panic sl.repo=$repo sl.kernel=$k sl.mode=$mode sl.port=$port sl.gport=$gport sl.scenarios=$sel" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$port-:$gport" -device virtio-net-pci,netdev=n0 \
		-drive "file=$out/disk.img,if=virtio,format=raw" \
		-serial mon:stdio -serial "file:$out/results.log" \
		< /dev/null > "$out/console.log" 2>&1 || rc=$?
	kill "$peer" 2>/dev/null || true
	wait "$peer" 2>/dev/null || true
	rm -f "$out/disk.img"
	local secs=$((SECONDS - t0))
	[ $rc = 124 ] && record "$k" boot FAIL "VM timed out after ${VM_TIMEOUT:-1500}s: see $out/console.log"

	local n=0 name verdict msg
	while read -r _ name verdict msg; do
		record "$k" "$name" "$verdict" "$msg"
		n=$((n + 1))
	done < <(grep -a '^STACKLAT-RESULT ' "$out/results.log" 2>/dev/null || true)
	grep -a '^STACKLAT-BENCH ' "$out/results.log" 2>/dev/null | sed "s/^/[$k] /" || true
	if [ "$mode" = demo ]; then
		echo
		sed -n 's/^\[00-demo\] //p' "$out/results.log"
		echo
	fi
	if [ $n = 0 ] && [ "$mode" != bench ]; then
		record "$k" scenarios FAIL "no scenario result: see $out/console.log"
	fi
	if ! grep -aq '^STACKLAT-ALL-DONE' "$out/results.log" 2>/dev/null; then
		record "$k" guest FAIL "the guest did not finish: see $out/console.log"
	fi
	if grep -aE "$bad_re" "$out/console.log" "$out/results.log" > "$out/bad.log" 2>/dev/null; then
		record "$k" kernel-log FAIL "$(head -n1 "$out/bad.log" | cut -c1-120)"
	else
		record "$k" kernel-log PASS "no oops/WARN/BUG/lockdep/KASAN in ${secs}s"
	fi
}

[ "$mode" = test ] || { [ $# -gt 1 ] && set -- "$1"; }
for k in "$@"; do
	run_kernel "$k"
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
