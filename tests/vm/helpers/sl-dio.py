#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Known disk I/O for the disktop scenario.

  sl-dio.py OUT GO QUIT STEP...
      writes "ready PID" to OUT, waits for the file GO, runs the steps in
      order, writes "done", then waits for the file QUIT (so that its rows
      stay those of a live process while they are read).  A step is
      KIND:DEVICE:OFFSET:SIZE:BS (sizes in bytes, K and M allowed):
        dw   O_DIRECT writes of BS bytes from OFFSET: SIZE / BS bios
        dr   O_DIRECT reads, the same
        bws  buffered writes, then fsync: written by this process
        bw   buffered writes, no fsync, the descriptor kept open until
             QUIT: left to the flusher's writeback
        br   buffered reads (the page cache's readahead)
      The buffers of direct I/O are page-aligned (an anonymous mmap).
"""
import mmap
import os
import sys
import time

held = []


def size(s):
    m = {"K": 1 << 10, "M": 1 << 20}
    return int(s[:-1]) * m[s[-1]] if s[-1] in m else int(s)


def wait_for(path):
    while not os.path.exists(path):
        time.sleep(0.02)


def step(spec):
    kind, dev, off, total, bs = spec.split(":")
    off, total, bs = size(off), size(total), size(bs)
    direct = kind in ("dw", "dr")
    write = kind in ("dw", "bws", "bw")
    flags = (os.O_WRONLY if write else os.O_RDONLY) | (os.O_DIRECT if direct else 0)
    fd = os.open(dev, flags)
    buf = mmap.mmap(-1, bs)
    buf.write(b"\x5a" * bs)
    done = 0
    while done < total:
        if write:
            n = os.pwrite(fd, buf, off + done)
        else:
            n = os.preadv(fd, [buf], off + done)
        if n != bs:
            sys.exit("%s: %d of %d bytes at %d" % (spec, n, bs, off + done))
        done += n
    if kind == "bws":
        os.fsync(fd)
    if kind == "bw":
        held.append(fd)
    else:
        os.close(fd)


def main():
    out, go, quit_ = sys.argv[1:4]
    with open(out, "w") as f:
        f.write("ready %d\n" % os.getpid())
    wait_for(go)
    for s in sys.argv[4:]:
        step(s)
    with open(out, "a") as f:
        f.write("done\n")
    wait_for(quit_)
    for fd in held:
        os.close(fd)


main()
