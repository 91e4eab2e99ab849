#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh KERNEL   (KERNEL: 6.1-debug)
#
# Builds a debug kernel from Debian's linux-source-6.1 (tests/deps.sh
# installs it): allnoconfig, tests/vm/debug.config merged in (what the
# scenarios need, plus KASAN, UBSAN, kmemleak, lockdep and friends), then
# olddefconfig; every line of the fragment is checked against the result.
# The tree is tests/vm/.cache/k/KERNEL/linux (KDIR: bzImage, modules and
# Module.symvers are built in it), the modules are installed into
# tests/vm/.cache/k/KERNEL/root (MODROOT) and the image copied to its boot/;
# tests/vm/.cache/k/KERNEL/env is written as fetch-kernel.sh writes it,
# plus TIMEOUT_SCALE (run.sh multiplies its timeouts by it).
#
# Cached: rebuilt only when the fragment, the source package's version, the
# compiler or this script's recipe number changes.  Their hash ends the
# kernel release (6.1.N-sldebug-HASH), so whatever run.sh caches by KVER
# (the initramfs) follows.  The build runs under nice; its log is
# tests/vm/.cache/k/KERNEL/build.log.  From scratch ~20 min on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:?usage: debug-kernel.sh KERNEL}
cache=${SL_VM_CACHE:-$here/.cache}
kc=$cache/k/$kernel
recipe=1	# bump when a change here must rebuild the kernel

case $kernel in
6.1-debug)
	pkg=linux-source-6.1
	src=/usr/src/linux-source-6.1.tar.xz
	frag=$here/debug.config
	# KASAN, lockdep and kmemleak under single-threaded TCG
	scale=4
	;;
*)	echo "debug-kernel: unknown kernel '$kernel' (6.1-debug)" >&2; exit 2 ;;
esac
[ -r "$src" ] || { echo "debug-kernel: no $src (apt-get install $pkg, or make deps)" >&2; exit 1; }

mkdir -p "$kc"
# one build at a time per tree (two run.sh, or run.sh and make check-debug)
exec {lock}> "$cache/k/$kernel.lock"
flock "$lock"

srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || stat -c %Y "$src")
cc=${CC:-gcc}
hash=$( { echo "$recipe $srcver"; "$cc" --version | head -n1; cat "$frag"; } | sha256sum | cut -c1-8)

if [ -s "$kc/env" ] && [ "$(cat "$kc/stamp" 2>/dev/null)" = "$hash" ]; then
	# shellcheck disable=SC1091
	. "$kc/env"
	# shellcheck disable=SC2153
	[ -f "$VMLINUZ" ] && [ -f "$KDIR/Module.symvers" ] && [ -d "$MODROOT/lib/modules/$KVER" ] && exit 0
	echo "debug-kernel: $kc is incomplete, building again" >&2
fi
rm -f "$kc/env" "$kc/stamp"
t0=$SECONDS
tree=$kc/linux
log=$kc/build.log
: > "$log"
say() { echo "debug-kernel: $*" | tee -a "$log"; }
run() { # run CMD...: logged; on failure the log's tail goes to stderr
	echo "+ $*" >> "$log"
	if ! nice -n 19 "$@" >> "$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "debug-kernel: failed: $* (all in $log)" >&2
		exit 1
	fi
}

# the source: extracted again only for another package version
if [ "$(cat "$kc/srcver" 2>/dev/null)" != "$srcver" ] || [ ! -f "$tree/Makefile" ]; then
	say "extracting $pkg $srcver"
	rm -rf "$tree" "$kc/srcver"
	mkdir -p "$tree"
	run tar -xJf "$src" -C "$tree" --strip-components=1
	echo "$srcver" > "$kc/srcver"
fi

say "configuring (allnoconfig + $(basename "$frag"), release suffix -sldebug-$hash)"
mk=(make -C "$tree" ARCH=x86_64 CC="$cc")
run "${mk[@]}" allnoconfig
(cd "$tree" && run scripts/kconfig/merge_config.sh -m .config "$frag")
run "$tree/scripts/config" --file "$tree/.config" --set-str LOCALVERSION "-sldebug-$hash"
run "${mk[@]}" olddefconfig
# what the fragment asks for must have survived olddefconfig
missing=$(awk '
	FNR == NR {
		if ($0 ~ /^CONFIG_[A-Za-z0-9_]+=/) { split($0, a, "="); want[a[1]] = $0 }
		else if ($0 ~ /^# CONFIG_[A-Za-z0-9_]+ is not set/) want[$2] = "n"
		next
	}
	/^CONFIG_[A-Za-z0-9_]+=/ { split($0, a, "="); have[a[1]] = $0 }
	END {
		for (s in want) {
			if (want[s] == "n") { if (s in have && have[s] !~ /=n$/) print have[s] " (wanted off)" }
			else if (!(s in have)) print want[s] " (got unset)"
			else if (have[s] != want[s]) print want[s] " (got " have[s] ")"
		}
	}' "$frag" "$tree/.config")
if [ -n "$missing" ]; then
	echo "debug-kernel: olddefconfig did not keep what $(basename "$frag") asks for:" >&2
	echo "$missing" >&2
	exit 1
fi

say "building bzImage and modules (make -j$(nproc))"
run "${mk[@]}" -j"$(nproc)" bzImage modules
kver=$(cat "$tree/include/config/kernel.release")
say "installing the modules of $kver into $kc/root"
rm -rf "$kc/root"
mkdir -p "$kc/root/boot"
run "${mk[@]}" INSTALL_MOD_PATH="$kc/root" modules_install
rm -f "$kc/root/lib/modules/$kver/build" "$kc/root/lib/modules/$kver/source"
cp "$tree/arch/x86/boot/bzImage" "$kc/root/boot/vmlinuz-$kver"
cp "$tree/.config" "$kc/root/boot/config-$kver"
cp "$tree/System.map" "$kc/root/boot/System.map-$kver"
depmod -b "$kc/root" "$kver"
cat > "$kc/env" <<EOF
KVER=$kver
VMLINUZ=$kc/root/boot/vmlinuz-$kver
KDIR=$tree
MODROOT=$kc/root
TIMEOUT_SCALE=$scale
EOF
echo "$hash" > "$kc/stamp"
say "$kernel ready: $kver ($((SECONDS - t0)) s)"
