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
