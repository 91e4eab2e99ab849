#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds kmod/core/flight.c alone as a module (stacklat_ftest) against the
# 6.1 headers of the VM cache, W=1 and sparse (C=2), and fails on any
# warning; then checks that the probe-context functions call nothing
# (no __fentry__, memset or other call besides the return thunk).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck disable=SC1091
. "${SL_VM_CACHE:-/work/vmcache}/k/6.1/env"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/kmod/core"
cp kmod/core/flight.c kmod/core/flight.h "$tmp/kmod/core/"
cp kmod/compat.h "$tmp/kmod/"
cat > "$tmp/Kbuild" <<'KB'
ccflags-y := -I$(src)/kmod/core -I$(src)/kmod -include $(src)/kmod/compat.h
obj-m := stacklat_ftest.o
stacklat_ftest-y := kmod/core/flight.o lic.o
KB
printf '// SPDX-License-Identifier: GPL-2.0\n#include <linux/module.h>\nMODULE_LICENSE("GPL");\n' > "$tmp/lic.c"
out=$(make -C "$KDIR" M="$tmp" W=1 C=2 modules 2>&1) || { echo "$out"; exit 1; }
if grep -E "warning:|error:" <<<"$out"; then exit 1; fi
calls=$(objdump -dr "$tmp/kmod/core/flight.o" | awk '
	/^[0-9a-f]+ <sl_flight_(get|put|has|unlock|unlock_remove)>:/ { p = 1; next }
	/^[0-9a-f]+ </ { p = 0 }
	p && /R_X86_64_PLT32/ && !/__x86_return_thunk/')
if [ -n "$calls" ]; then
	echo "kcheck: probe-context functions call out:"; echo "$calls"; exit 1
fi
echo "kcheck: flight.o W=1 and sparse clean, probe paths call nothing"
