#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make profile's report: report.py OUT N RUN...

OUT/prof-RUN.tb (the plugin's "address instructions executions" per
block) and OUT/prof-RUN.ksyms (the guest's "address name [module]" text
symbols) for each RUN (new, base); N operations ran.  Prints the guest
instructions per operation of each function of the module, side by side
for the runs, then the kernel functions whose counts differ between the
runs by more than 5 per operation (these include the boot and the
module's load, which differ too)."""
import bisect
import collections
import os
import subprocess
import sys


def load(out, run):
    syms = []
    with open(f"{out}/prof-{run}.ksyms") as f:
        for line in f:
            w = line.split()
            if len(w) >= 2:
                syms.append((int(w[0], 16), " ".join(w[1:])))
    syms.sort()
    addrs = [a for a, _ in syms]
    tot = collections.Counter()
    with open(f"{out}/prof-{run}.tb") as f:
        for line in f:
            va, n, c = line.split()
            i = bisect.bisect_right(addrs, int(va, 16)) - 1
            tot[syms[i][1] if i >= 0 else "?"] += int(n) * int(c)
    return tot


def lines(out, n, fn):
    """FN of the working copy's module by translation block: instructions
    per operation, the block's size and runs per operation, its offset in
    prof-new.ko and its source line < the lines it was inlined from."""
    ko = f"{out}/prof-new.ko"
    syms = []
    with open(f"{out}/prof-new.ksyms") as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and w[2] == "[stacklat]":
                syms.append((int(w[0], 16), w[1]))
    syms.sort()
    starts = [a for a, name in syms if name == fn]
    if not starts:
        print(f"\n{fn}: not in the module")
        return
    start = starts[0]
    end = min([a for a, _ in syms if a > start] or [start + 0x4000])
    off0 = None
    nm = subprocess.run(["nm", ko], capture_output=True, text=True).stdout
    for line in nm.splitlines():
        w = line.split()
        if len(w) == 3 and w[2] == fn:
            off0 = int(w[0], 16)
            break
    rows = []
    with open(f"{out}/prof-new.tb") as f:
        for line in f:
            va, k, c = line.split()
            va = int(va, 16)
            if start <= va < end:
                rows.append((int(k) * int(c) / n, va - start + off0,
                             int(k), int(c) / n))
    src = {}
    if rows:
        res = subprocess.run(["addr2line", "-a", "-i", "-e", ko] +
                             [hex(r[1]) for r in rows],
                             capture_output=True, text=True).stdout
        cur = None
        for line in res.splitlines():
            if line.startswith("0x"):
                cur = int(line, 16)
                src[cur] = []
            elif cur is not None:
                src[cur].append(os.path.basename(line))
    print(f"\n{fn}: {sum(r[0] for r in rows):.1f} instructions per "
          "operation, by block (per op, size x runs per op, offset, source)")
    for r in sorted(rows, reverse=True):
        if r[0] >= 1:
            print("%8.1f %4d x%6.2f %6x %s" % (r[0], r[2], r[3], r[1],
                                               " < ".join(src.get(r[1], []))))


def main():
    out, n, runs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    tots = {r: load(out, r) for r in runs}
    mod = "[stacklat]"
    print("guest instructions per operation, stacklat's functions")
    print("%10s  %s" % ("  ".join("%8s" % r for r in runs), "function"))
    names = set()
    for t in tots.values():
        names |= {k for k, v in t.items() if mod in k and v / n >= 0.5}
    rows = sorted(names, key=lambda k: -max(t.get(k, 0) for t in tots.values()))
    for k in rows:
        print("%s  %s" % ("  ".join("%8.1f" % (tots[r].get(k, 0) / n)
                                    for r in runs), k.replace(" " + mod, "")))
    print("%s  total" % "  ".join(
        "%8.1f" % (sum(v for k, v in tots[r].items() if mod in k) / n)
        for r in runs))
    for fn in os.environ.get("PROFILE_LINES", "").split():
        lines(out, n, fn)
    if len(runs) < 2:
        return
    a, b = tots[runs[0]], tots[runs[1]]
    print("\nkernel functions, %s minus %s per operation (boot included)"
          % (runs[0], runs[1]))
    diff = {k: (a.get(k, 0) - b.get(k, 0)) / n
            for k in set(a) | set(b) if mod not in k}
    for k, d in sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:25]:
        if abs(d) > 5:
            print("%9.1f  %s" % (d, k))


if __name__ == "__main__":
    main()
