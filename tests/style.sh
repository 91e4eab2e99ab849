#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style and static checks of the module: checkpatch.pl --no-tree from
# Debian's linux-source-6.1 (extracted once into a cache) over kmod/ and
# uapi/, the layering of kmod/ (layers.py), sparse (C=2) against the 6.1
# headers, the scenarios' "# kernels:" lines (tests/vm/run.sh --check),
# and shellcheck (warnings) over the test scripts and the compat probe;
# then the documentation's shape (tests/docs-check.sh).
#
# compat.h is the one place allowed to compare kernel versions, so only
# there are checkpatch's LINUX_VERSION_CODE and CONSTANT_COMPARISON
# warnings (which object to exactly that) ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=tests/vm/.cache/checkpatch
src=/usr/src/linux-source-6.1.tar.xz
fail=0

if [ ! -x "$cache/scripts/checkpatch.pl" ]; then
	[ -r "$src" ] || { echo "style: $src missing (apt-get install linux-source-6.1)"; exit 1; }
	mkdir -p "$cache"
	tar -xJf "$src" -C "$cache" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
fi

# checkpatch, sparse and shellcheck run side by side (each one process,
# or make -j: the machine's cores), each into a file of its own; their
# verdicts are printed below in this order
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# checkpatch: one perl for all files (compat.h apart, for its ignores); a
# file fails on any ERROR, WARNING or CHECK
checkpatch() {
	local files=() f rc=0
	for f in kmod/*.c kmod/*.h kmod/*/*.c kmod/*/*.h uapi/*.h; do
		[ "$f" = kmod/compat.h ] || files+=("$f")
	done
	"$cache/scripts/checkpatch.pl" --no-tree --terse --show-types -f "${files[@]}" > "$tmp/cp" 2>&1 || rc=1
	"$cache/scripts/checkpatch.pl" --no-tree --terse --show-types \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f kmod/compat.h >> "$tmp/cp" 2>&1 || rc=1
	if [ $rc != 0 ] || grep -qE ": (ERROR|WARNING|CHECK):" "$tmp/cp"; then
		grep -vE "^total: 0 errors, 0 warnings" "$tmp/cp"
		return 1
	fi
	echo "style: checkpatch clean"
}
checkpatch > "$tmp/checkpatch.out" 2>&1 &
cp_pid=$!

# the test scripts: shellcheck, warnings and errors (.shellcheckrc)
shellcheck_all() {
	local out
	if out=$(shellcheck -x -S warning kmod/*.sh tests/*.sh tests/unit/*.sh tests/vm/*.sh \
		tests/vm/scenarios/*.sh tests/vm/bench/*.sh debian/*.sh debian/stacklat-apply-conf 2>&1); then
		echo "style: shellcheck clean (tests/, kmod/*.sh, debian/)"
	else
		echo "$out"
		return 1
	fi
}
shellcheck_all > "$tmp/shellcheck.out" 2>&1 &
sc_pid=$!

# the layering of kmod/ (tests/layers.py): no include up a floor, no
# circle between rooms, a pipeline includes of the engine only sl.h and
# never touches its private state
python3 tests/layers.py || fail=1

# sparse against Debian's 6.1 headers: the host's own if installed, else
# the ones the VM harness fetches (fetch-kernel.sh 6.1, cached)
kdir=${SPARSE_KDIR:-}
[ -n "$kdir" ] || kdir=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | head -n1 || true)
if [ -z "$kdir" ]; then
	if tests/vm/fetch-kernel.sh 6.1 > /dev/null; then
		# shellcheck disable=SC1091
		kdir=$(. "${SL_VM_CACHE:-tests/vm/.cache}/k/6.1/env" && echo "$KDIR")
	else
		echo "style: could not fetch the 6.1 headers for sparse"
	fi
fi
if [ -n "$kdir" ] && command -v sparse >/dev/null; then
	sp=$tmp/sparse
	mkdir "$sp"
	cp -r Kbuild Makefile VERSION kmod uapi "$sp/"
	if ! out=$(make -j"$(nproc)" -C "$kdir" M="$sp" C=2 modules 2>&1); then
		echo "$out"; fail=1
	elif grep -E "warning:|error:" <<<"$out"; then
		fail=1
	else
		echo "style: sparse clean ($(basename "$kdir"))"
		# what the objects reference of each other runs down too
		python3 tests/layers.py --objects "$sp" || fail=1
	fi
else
	echo "style: no 6.1 headers or no sparse: sparse not run"
	fail=1
fi
# every scenario says which kernels it runs on, in a "# kernels:" line
# run.sh understands (tests/vm/README.md)
if out=$(tests/vm/run.sh --check 2>&1); then
	echo "style: every scenario declares its kernels"
else
	echo "$out"
	fail=1
fi
# the documentation's shape: README length, every page reachable from it,
# a page per pipeline, no dangling relative link (tests/docs-check.sh)
tests/docs-check.sh || fail=1
wait $cp_pid || fail=1
cat "$tmp/checkpatch.out"
wait $sc_pid || fail=1
cat "$tmp/shellcheck.out"
exit $fail
