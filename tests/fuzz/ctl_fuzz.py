#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fuzz /sys/kernel/debug/stacklat/control; stacklat_model is the oracle.

    ctl_fuzz.py [-n COUNT] [-s SEED] [-f CONTROL]

Each write (one write(2)) is random bytes, random words from the command
vocabulary, or a valid command mutated (a byte flipped, inserted or
deleted, a NUL, a TAB, a newline and a second line, a word swapped, a
value pushed to an edge).  The same seed gives the same writes.  A write
the oracle says must be refused and that succeeds is an unexpected accept.
Prints "ctl-fuzz: N writes, A accepted, R refused, U unexpected accepts";
exits 1 on any unexpected accept.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stacklat_model as m  # noqa: E402

VALID = [
    "reset", "reset func", "reset net_rx", "disable func", "disable net_rx",
    "disable storage", "enable func", "filter func tgid=1",
    "filter func tid=4194304", "filter func clear", "filter net_rx lport=80",
    "filter net_rx rport=443 proto=tcp", "filter net_tx proto=udp ifindex=1",
    "filter net_rx iface=lo", "filter storage op=read",
    "filter storage op=fsync fs=ext4", "filter storage fs=0xef53",
    "filter block dev=254:0", "filter block dev=vda",
    "filter storage clear", "filter net_rx clear", "filter block clear",
    "func add __x64_sys_getppid", "func del __x64_sys_getppid",
    "func add vfs_fsync_range", "func del vfs_fsync_range",
    "func add no_such_fn_fuzz", "threshold func 0", "threshold storage 0",
    "threshold func 1000", "threshold func all", "threshold storage all",
    "# a comment", "",
]
WORDS = ["enable", "disable", "reset", "filter", "func", "add", "del",
         "clear", "threshold", "#"] + list(m.PIPES) + [
    k + "=" + v for k in m.KEYS for v in
    ["1", "0", "010", "0x10", "65535", "65536", "4194305", "tcp", "udp",
     "read", "bogus", "ext4", "lo", "8:0", "0:0", "vda", "-1", ""]]
EDGE = ["\0", "\t", "\n", "\r", "\x0b", "\xa0", "\x01", "\x7f", "\xff", "=",
        " ", "#", ":", ".", "'", "\\"]


def mutate(r, s):
    k = r.randrange(9)
    if k == 0 and s:
        i = r.randrange(len(s))
        return s[:i] + chr(ord(s[i]) ^ (1 << r.randrange(8))) + s[i + 1:]
    if k == 1:
        i = r.randrange(len(s) + 1)
        return s[:i] + r.choice(EDGE) + s[i:]
    if k == 2 and s:
        i = r.randrange(len(s))
        return s[:i] + s[i + 1:]
    if k == 3:
        return s + "\n" + r.choice(VALID + ["garbage", "enable nosuch"])
    if k == 4:
        return r.choice(VALID) + "\n" + s
    if k == 5:
        w = s.split(" ")
        w[r.randrange(len(w))] = r.choice(WORDS)
        return " ".join(w)
    if k == 6:
        return s + " " + r.choice(WORDS)
    if k == 7:
        return s + r.choice(["\n", "\n\n", "\r\n", " ", "\t", "\0"])
    return s.replace("=", "=" + r.choice(["0", "00", "+", "-", " ", "x"]), 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("-s", "--seed", type=int, default=1)
    ap.add_argument("-f", default="/sys/kernel/debug/stacklat/control")
    a = ap.parse_args()
    r = random.Random(a.seed)
    acc = rej = unexp = 0
    shown = 0
    i = -1
    while acc + rej < a.n:	# N sent; skipped ones do not count
        i += 1
        k = r.randrange(10)
        if k == 0:
            s = "".join(chr(r.randrange(256))
                        for _ in range(r.randrange(1, 48)))
        elif k < 3:
            s = " ".join(r.choice(WORDS) for _ in range(r.randrange(1, 5)))
        else:
            s = r.choice(VALID)
            for _ in range(r.randrange(1, 3)):
                s = mutate(r, s)
        data = s.encode("latin-1")
        if not data:
            continue
        must = m.ctl_write_must_reject(data)
        if not must and m.ctl_enables(data) - {"func"}:
            continue	# arming a whole pipeline: not the fuzzer's job
        fd = os.open(a.f, os.O_WRONLY)
        try:
            os.write(fd, data)
            ok = True
        except OSError:
            ok = False
        finally:
            os.close(fd)
        if ok:
            acc += 1
            if must:
                unexp += 1
                if shown < 10:
                    shown += 1
                    print(f"ctl-fuzz: UNEXPECTED ACCEPT #{i}: {data!r}")
        else:
            rej += 1
    print(f"ctl-fuzz: {acc + rej} writes (seed {a.seed}), {acc} accepted, "
          f"{rej} refused, {unexp} unexpected accepts")
    return 1 if unexp else 0


if __name__ == "__main__":
    sys.exit(main())
