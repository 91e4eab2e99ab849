#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fuzz the "stacklat" generic netlink family; stacklat_model is the oracle.

    nl_fuzz.py [-n COUNT] [-s SEED] [-v]

Each message is, by turns, random (random command, flags and attribute
bytes), random-structured (well-formed attributes of random types, sizes
and values) or a valid request mutated (bit flips, truncation, a byte
changed, an attribute dropped, duplicated or retyped, a filter value
changed).  The same seed gives the same messages.  Every request asks for
an ACK; the module's answer (accepted: ACK 0 or a reply/dump ending in
DONE; refused: an error) is compared with the oracle: a message the oracle
says must be refused and that is accepted is an unexpected accept.
Prints one summary line "nl-fuzz: N messages, A accepted, R refused,
U unexpected accepts ..." and exits 1 on any unexpected accept.
"""
import argparse
import os
import random
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stacklat_model as m  # noqa: E402

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3


def nla(t, payload):
    ln = 4 + len(payload)
    return struct.pack("<HH", ln, t) + payload + b"\0" * ((4 - ln % 4) % 4)


def nlmsg(ftype, flags, seq, cmd, attrs, version=1):
    body = struct.pack("<BBH", cmd, version, 0) + attrs
    return struct.pack("<IHHII", 16 + len(body), ftype, flags, seq, 0) + body


class Conn:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.bind((0, 0))
        self.s.settimeout(30)
        self.seq = 0

    def request(self, ftype, flags, cmd, attrs, version=1):
        """Send one request; 0 if accepted, the negative errno if not."""
        self.seq += 1
        seq = self.seq
        self.s.send(nlmsg(ftype, flags | NLM_F_REQUEST | NLM_F_ACK, seq, cmd,
                          attrs, version))
        replies = []
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                ln, t, fl, rseq, _ = struct.unpack_from("<IHHII", data, off)
                if ln < 16:
                    break
                if rseq == seq:
                    if t == NLMSG_ERROR:
                        err = struct.unpack_from("<i", data, off + 16)[0]
                        return err, replies
                    if t == NLMSG_DONE:
                        err = struct.unpack_from("<i", data, off + 16)[0] \
                            if ln >= 20 else 0
                        return err, replies
                    replies.append(data[off:off + ln])
                off += (ln + 3) & ~3

    def family(self, name):
        err, replies = self.request(GENL_ID_CTRL, 0, 3,
                                    nla(2, name.encode() + b"\0"))
        if err:
            return None
        for r in replies:
            for t, _, p in m.parse_attrs(r[20:]) or []:
                if t == 1:
                    return struct.unpack("<H", p[:2])[0]
        return None


def u32(v):
    return struct.pack("<I", v & 0xffffffff)


VALID_FILTERS = {
    "func": [(1, u32(1)), (2, u32(4194304))],
    "net_rx": [(1, u32(1)), (3, struct.pack("<H", 80)),
               (4, struct.pack("<H", 443)), (5, b"\x06"), (6, u32(1))],
    "net_tx": [(2, u32(7)), (5, b"\x11"), (6, u32(2))],
    "storage": [(1, u32(1)), (8, u32(1)), (9, u32(0xef53))],
    "block": [(7, u32(8 << 20 | 16))],
    "syscalls": [(1, u32(1)), (2, u32(1))],
    "disktop": [(1, u32(1)), (7, u32(8 << 20 | 16))],
}
SYMS = ["__x64_sys_getppid", "vfs_fsync_range", "no_such_fn_fuzz"]


def valid_corpus():
    """(command, attributes, dump) of valid requests, never arming a probe
    except in func (its slots fill up and then refuse)."""
    c = [(m.CMD_GET_STATUS, b"", False), (m.CMD_GET_CPU_STATUS, b"", True),
         (m.CMD_GET_PIPELINES, b"", True),
         (m.CMD_GET_HIST, b"", True), (m.CMD_RESET, b"", False),
         (m.CMD_GET_KEYED, b"", True),
         (m.CMD_GET_KEYED, nla(m.A_PIPELINE_NAME, b"syscalls\0"), True),
         (m.CMD_GET_KEYED, nla(m.A_PIPELINE_NAME, b"disktop\0"), True)]
    for p, fl in VALID_FILTERS.items():
        name = nla(m.A_PIPELINE_NAME, p.encode() + b"\0")
        c.append((m.CMD_GET_PIPELINES, name, True))
        c.append((m.CMD_GET_HIST, name, True))
        c.append((m.CMD_RESET, name, False))
        c.append((m.CMD_SET_PIPELINE, name + nla(m.A_ENABLE, b"\0"), False))
        c.append((m.CMD_SET_PIPELINE, name + nla(m.A_FILTER, b""), False))
        nest = b"".join(nla(t, v) for t, v in fl)
        c.append((m.CMD_SET_PIPELINE, name + nla(m.A_FILTER | 0x8000, nest),
                  False))
        c.append((m.CMD_SET_PIPELINE, name + nla(m.A_FILTER, nest), False))
        c.append((m.CMD_SET_PIPELINE,
                  name + nla(m.A_THRESHOLD_NS, struct.pack("<Q", 0)), False))
    for s in SYMS:
        for cmd in (m.CMD_FUNC_ADD, m.CMD_FUNC_DEL):
            c.append((cmd, nla(m.A_FUNC_SYMBOL, s.encode() + b"\0"), False))
    return c


def rand_bytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def rand_value(r):
    k = r.randrange(8)
    if k == 0:
        return b""
    if k == 1:
        return bytes([r.choice([0, 1, 2, 255])])
    if k == 2:
        return struct.pack("<H", r.choice([0, 1, 80, 65535]))
    if k == 3:
        return u32(r.choice([0, 1, 4, 5, 6, 17, 4194304, 4194305, 0x7fffffff,
                             0x80000000, 0xffffffff]))
    if k == 4:
        return r.choice(list(m.PIPES) + ["", "nosuch", "func\x01"]).encode() \
            + r.choice([b"\0", b"", b"\0junk"])
    if k == 5:
        return r.choice(SYMS + ["a b", "vfs_read\tx", "x" * 130]).encode() \
            + b"\0"
    if k == 6:
        return b"".join(nla(r.randrange(0, 12), rand_value(r))
                        for _ in range(r.randrange(3)))
    return rand_bytes(r, r.randrange(0, 40))


def mutate(r, attrs):
    b = bytearray(attrs)
    k = r.randrange(9)
    if k == 0 and b:			# bit flips
        for _ in range(r.randrange(1, 4)):
            i = r.randrange(len(b))
            b[i] ^= 1 << r.randrange(8)
    elif k == 1 and b:			# truncate
        del b[r.randrange(len(b)):]
    elif k == 2 and b:			# a byte to an edge value
        b[r.randrange(len(b))] = r.choice([0, 1, 0x7f, 0x80, 0xff])
    elif k == 3:			# append garbage
        b += rand_bytes(r, r.randrange(1, 12))
    elif k == 4:			# an extra attribute
        b += nla(r.randrange(0, 18) | r.choice([0, 0, 0x8000, 0x4000]),
                 rand_value(r))
    else:
        parsed = m.parse_attrs(bytes(b)) or []
        if not parsed:
            return bytes(b) + nla(r.randrange(16), rand_value(r))
        i = r.randrange(len(parsed))
        t, fl, p = parsed[i]
        if k == 5:			# drop one
            del parsed[i]
        elif k == 6:			# duplicate one
            parsed.insert(i, parsed[i])
        elif k == 7:			# retype one
            parsed[i] = (r.randrange(16), fl, p)
        else:				# new value, or mutate a nest
            if t == m.A_FILTER and p and r.random() < 0.7:
                parsed[i] = (t, fl, mutate(r, p))
            else:
                parsed[i] = (t, fl, rand_value(r))
        b = bytearray(b"".join(nla(t | fl, p) for t, fl, p in parsed))
    return bytes(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("-s", "--seed", type=int, default=1)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    r = random.Random(a.seed)
    c = Conn()
    fam = c.family("stacklat")
    if fam is None:
        print("nl-fuzz: no stacklat family")
        return 2
    corpus = valid_corpus()
    acc = rej = unexp = vrej = 0
    kinds = {}
    shown = 0
    i = -1
    while acc + rej < a.n:	# N sent; skipped ones do not count
        i += 1
        k = r.randrange(10)
        ver = 1
        if k < 2:				# random
            cmd = r.randrange(0, m.CMD_LAST + 1)
            dump = r.random() < 0.3
            attrs = rand_bytes(r, r.randrange(0, 64))
            ver = r.randrange(256)
        elif k < 4:				# random, well-formed
            cmd = r.randrange(0, m.CMD_LAST + 2)
            dump = cmd in m.DUMP_CMDS if r.random() < 0.9 else r.random() < 0.5
            attrs = b"".join(nla(r.randrange(0, 20), rand_value(r))
                             for _ in range(r.randrange(0, 4)))
        else:					# mutated valid
            cmd, attrs, dump = r.choice(corpus)
            if r.random() < 0.05:
                cmd = r.randrange(0, m.CMD_LAST + 1)
            attrs = mutate(r, attrs)
        why = m.nl_must_reject(cmd, attrs, dump)
        if why is None and cmd == m.CMD_SET_PIPELINE:
            tb = {t: p for t, _, p in m.parse_attrs(attrs)}
            if m.A_ENABLE in tb and tb[m.A_ENABLE][0] == 1 and \
                    m.nul_string(tb[m.A_PIPELINE_NAME], 31) != "func":
                continue	# arming a whole pipeline: not the fuzzer's job
        err, _ = c.request(fam, NLM_F_DUMP if dump else 0, cmd, attrs, ver)
        if err == 0:
            acc += 1
            if why:
                unexp += 1
                kinds[why] = kinds.get(why, 0) + 1
                if shown < 10:
                    shown += 1
                    print(f"nl-fuzz: UNEXPECTED ACCEPT #{i} ({why}): cmd={cmd}"
                          f" dump={dump} attrs={attrs.hex()}")
        else:
            rej += 1
            if a.v and not why:
                vrej += 1
    print(f"nl-fuzz: {acc + rej} messages (seed {a.seed}), {acc} accepted, "
          f"{rej} refused, {unexp} unexpected accepts"
          + (f" {kinds}" if kinds else ""))
    return 1 if unexp else 0


if __name__ == "__main__":
    sys.exit(main())
