# SPDX-License-Identifier: GPL-2.0
"""What the stacklat module must refuse: the oracle of the fuzzers.

A Python model of the rules the module enforces - the filter grammar of
uapi/stacklat_filter.h, the symbol syntax, the netlink policy and ranges.
It answers "must reject" only when a rule says so for certain; anything
else may be accepted or refused (an enable whose hooks do not arm, a
function that does not exist, a slot table that is full).
"""
import re

PIPES = {
    "func": {"tgid", "tid"},
    "net_rx": {"tgid", "tid", "lport", "rport", "proto", "ifindex", "iface"},
    "net_tx": {"tgid", "tid", "lport", "rport", "proto", "ifindex", "iface"},
    "storage": {"tgid", "tid", "op", "fs"},
    "block": {"dev"},
    "syscalls": {"tgid", "tid"},
    "disktop": {"tgid", "tid", "dev"},
    "sched": {"tgid", "tid"},
    # kernel stacks (issue 28)
    "stacks": {"tgid", "tid"},
    # off-CPU time by reason and stack (issue 26)
    "offcpu": {"tgid", "tid"},
    # CPU time per thread (issue 26)
    "cpu": {"tgid", "tid"},
}
# the pipelines that keep keyed rows (GET_KEYED)
KEYED_PIPES = {"syscalls", "disktop", "sched", "offcpu", "cpu"}
# those of PIPES without slow events: a threshold other than 0 is refused
NOEVENT_PIPES = {"storage", "disktop", "stacks", "sched", "offcpu", "cpu"}
KEYS = ["tgid", "tid", "lport", "rport", "proto", "ifindex", "iface", "dev",
        "op", "fs"]
ATTR_OF_KEY = {"tgid": 1, "tid": 2, "lport": 3, "rport": 4, "proto": 5,
               "ifindex": 6, "iface": 6, "dev": 7, "op": 8, "fs": 9}
OPS = {"read": 1, "write": 2, "open": 3, "fsync": 4}
FS = {"ext4": 0xef53, "xfs": 0x58465342, "btrfs": 0x9123683e,
      "bdev": 0x62646576}
SYM_RE = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_.]*:)?[A-Za-z_][A-Za-z0-9_.]*$")


def valid_symbol(s):
    return bool(SYM_RE.match(s)) and len(s) < 128 and s.isascii()


def dec(v, lo, hi):
    if not v or not all("0" <= c <= "9" for c in v):
        return None
    n = int(v)
    return n if lo <= n <= hi else None


def plain(v, mx):
    return 0 < len(v) <= mx and all(
        " " < c < "\x7f" and c not in "'\"\\" for c in v)


def value_ok(key, v):
    """Grammar only; names (iface=, dev=NAME) may still fail to resolve."""
    if key in ("tgid", "tid"):
        return dec(v, 1, 4194304) is not None
    if key in ("lport", "rport"):
        return dec(v, 1, 65535) is not None
    if key == "proto":
        return v in ("tcp", "udp")
    if key == "ifindex":
        return dec(v, 1, 0x7fffffff) is not None
    if key == "iface":
        return (plain(v, 15) and v not in (".", "..") and "/" not in v
                and ":" not in v)
    if key == "dev":
        if ":" in v:
            ma, mi = v.split(":", 1)
            a, b = dec(ma, 0, 0xfff), dec(mi, 0, 0xfffff)
            return a is not None and b is not None and (a or b)
        return plain(v, 48)
    if key == "op":
        return v in OPS
    if key == "fs":
        if v in FS:
            return True
        if v[:2] in ("0x", "0X"):
            h = v[2:]
            return (1 <= len(h) <= 8 and
                    all(c in "0123456789abcdefABCDEF" for c in h) and
                    int(h, 16) != 0)
        return dec(v, 1, 0xffffffff) is not None
    return False


def filter_words_ok(pipe, words):
    """True/False for the grammar and the pipeline's keys."""
    if not words or len(words) > 16:
        return False
    if words[0] == "clear":
        words = words[1:]
    if "clear" in words:
        return False
    seen = set()
    for w in words:
        if "=" not in w:
            return False
        k, v = w.split("=", 1)
        if k not in KEYS or ATTR_OF_KEY[k] in seen or not value_ok(k, v):
            return False
        seen.add(ATTR_OF_KEY[k])
        if k not in PIPES[pipe]:
            return False
    return True


WS = " \t\n\r\v\f\xa0"	# the kernel's isspace() (latin-1 NBSP too)


def ctl_line_ok(line):
    """A control line (no newline): True must parse, False must not."""
    s = line.strip(WS)
    if not s or s.startswith("#"):
        return True
    # the module splits the command at the first space or TAB
    i = min([j for j in (s.find(" "), s.find("\t")) if j >= 0] or [len(s)])
    cmd, rest = s[:i], s[i + 1:].lstrip(WS) if i < len(s) else ""
    if cmd in ("enable", "disable"):
        return rest in PIPES
    if cmd == "reset":
        return rest == "" or rest in PIPES
    if cmd == "filter":
        j = min([x for x in (rest.find(" "), rest.find("\t")) if x >= 0] or
                [len(rest)])
        pipe, args = rest[:j], rest[j + 1:] if j < len(rest) else ""
        if pipe not in PIPES:
            return False
        words = [w for w in re.split(r"[ \t]", args) if w]
        return filter_words_ok(pipe, words)
    if cmd in ("func", "stacks"):
        j = min([x for x in (rest.find(" "), rest.find("\t")) if x >= 0] or
                [len(rest)])
        arg, sym = rest[:j], (rest[j + 1:] if j < len(rest) else "").strip(WS)
        return arg in ("add", "del") and sym != "" and valid_symbol(sym)
    if cmd == "threshold":
        j = min([x for x in (rest.find(" "), rest.find("\t")) if x >= 0] or
                [len(rest)])
        pipe, v = rest[:j], (rest[j + 1:] if j < len(rest) else "").strip(WS)
        # "all" (every object: 1 ns), or kstrtou64 base 10: digits only,
        # at most 3600 s in ns
        if pipe in PIPES and v == "all":
            return pipe not in NOEVENT_PIPES
        return (pipe in PIPES and v != "" and all("0" <= c <= "9" for c in v)
                and int(v) <= THRESHOLD_MAX_NS
                and (pipe not in NOEVENT_PIPES or int(v) == 0))
    return False


def ctl_enables(data):
    """The pipelines a (valid) write enables."""
    out = set()
    for line in data.decode("latin-1").split("\n"):
        w = line.strip(WS).split(None, 1)
        if len(w) == 2 and w[0] == "enable":
            out.add(w[1].strip(WS))
    return out


def ctl_write_must_reject(data):
    """A whole write (bytes): True when the module must refuse it."""
    if b"\0" in data or len(data) >= 4096:
        return True
    try:
        text = data.decode("latin-1")
    except UnicodeDecodeError:
        return True
    return not all(ctl_line_ok(l) for l in text.split("\n"))


# ---- netlink --------------------------------------------------------------

CMD_GET_STATUS, CMD_GET_PIPELINES, CMD_GET_HIST = 1, 2, 3
CMD_SET_PIPELINE, CMD_RESET, CMD_FUNC_ADD, CMD_FUNC_DEL = 4, 5, 6, 7
CMD_GET_INFLIGHT, CMD_GET_EVENTS, CMD_GET_KEYED = 8, 9, 10
CMD_GET_CPU_STATUS = 11
CMD_GET_STACKS = 12
CMD_LAST = 12
DUMP_CMDS = (CMD_GET_PIPELINES, CMD_GET_HIST, CMD_GET_INFLIGHT,
             CMD_GET_EVENTS, CMD_GET_KEYED, CMD_GET_CPU_STATUS,
             CMD_GET_STACKS)
A_PIPELINE_NAME, A_ENABLE, A_FILTER, A_FUNC_SYMBOL = 7, 12, 13, 14
A_THRESHOLD_NS, A_MAX = 17, 20
THRESHOLD_MAX_NS = 3600 * 10**9
FILTER_A_MAX = 9
# attribute -> (kind, size or max string length)
POLICY = {A_PIPELINE_NAME: ("str", 31), A_ENABLE: ("u8", 1),
          A_FILTER: ("nest", 0), A_FUNC_SYMBOL: ("str", 127),
          A_THRESHOLD_NS: ("u64", 8)}
FPOLICY = {1: 4, 2: 4, 3: 2, 4: 2, 5: 1, 6: 4, 7: 4, 8: 4, 9: 4}
FKEY_OF_ATTR = {1: "tgid", 2: "tid", 3: "lport", 4: "rport", 5: "proto",
                6: "ifindex", 7: "dev", 8: "op", 9: "fs"}
NLA_F_MASK = 0xc000


def parse_attrs(b):
    """[(type, flags, payload)] or None if the stream is malformed."""
    out, i = [], 0
    while i < len(b):
        if len(b) - i < 4:
            return None
        ln = int.from_bytes(b[i:i + 2], "little")
        t = int.from_bytes(b[i + 2:i + 4], "little")
        if ln < 4 or ln > len(b) - i:
            return None
        out.append((t & ~NLA_F_MASK & 0xffff, t & NLA_F_MASK, b[i + 4:i + ln]))
        i += (ln + 3) & ~3
    return out


def nul_string(p, maxlen):
    """The string of an NLA_NUL_STRING payload, or None if invalid."""
    z = p.find(b"\0")
    if z < 0 or z > maxlen:
        return None
    return p[:z].decode("latin-1")


def filter_nest_must_reject(pipe, payload):
    attrs = parse_attrs(payload)
    if attrs is None:
        return "filter nest malformed"
    seen = {}
    for t, fl, p in attrs:
        if fl & 0x8000:
            return "NLA_F_NESTED on a filter value"
        if t == 0 or t > FILTER_A_MAX:
            return "unknown filter attribute"
        if len(p) < FPOLICY[t]:
            return "short filter attribute"
        seen[t] = int.from_bytes(p[:FPOLICY[t]], "little")
    for t, v in seen.items():
        key = FKEY_OF_ATTR[t]
        if key not in PIPES[pipe]:
            return "key not honoured by the pipeline"
        if t in (1, 2) and not 1 <= v <= 4194304:
            return "pid out of range"
        if t in (3, 4, 9) and v == 0:
            return "zero value"
        if t == 5 and v not in (6, 17):
            return "proto not tcp/udp"
        if t == 6 and not 1 <= v <= 0x7fffffff:
            return "ifindex out of range"
        if t == 7 and v == 0:
            return "dev 0"
        if t == 8 and v not in OPS.values():
            return "unknown op"
    return None


def nl_must_reject(cmd, attr_bytes, dump):
    """Why the module must refuse this request, or None if it may accept.

    Structure (strict validation of every kernel of the matrix): a
    malformed attribute stream, an attribute above STACKLAT_A_MAX or one
    with no policy (reply-only), a string without its NUL or too long, a
    short integer.  Then the meaning: unknown command, unknown pipeline,
    nothing to set, enable > 1, a bad filter, a bad symbol.
    """
    if not 1 <= cmd <= CMD_LAST:
        return "unknown command"
    if dump != (cmd in DUMP_CMDS):
        return "dump flag does not match the command"
    attrs = parse_attrs(attr_bytes)
    if attrs is None:
        return "malformed attributes"
    tb = {}
    for t, fl, p in attrs:
        if t > A_MAX:
            return "attribute above max"
        if t not in POLICY:
            return "attribute without policy"
        kind, size = POLICY[t]
        if kind != "nest" and fl & 0x8000:
            return "NLA_F_NESTED on a value"
        if kind == "str" and nul_string(p, size) is None:
            return "bad string"
        if kind == "u8" and len(p) < 1:
            return "short u8"
        if kind == "u64" and len(p) < 8:
            return "short u64"
        if kind == "nest" and 0 < len(p) < 4:
            return "nest shorter than a header"
        tb[t] = p
    name = None
    if A_PIPELINE_NAME in tb:
        name = nul_string(tb[A_PIPELINE_NAME], 31)
    if cmd in (CMD_GET_PIPELINES, CMD_GET_HIST, CMD_RESET, CMD_GET_INFLIGHT,
               CMD_GET_STACKS):
        if name is not None and name not in PIPES:
            return "unknown pipeline"
        return None
    if cmd in (CMD_GET_STATUS, CMD_GET_EVENTS, CMD_GET_CPU_STATUS):
        return None
    if cmd == CMD_GET_KEYED:
        if name is not None and name not in KEYED_PIPES:
            return "unknown pipeline, or one without keyed rows"
        return None
    if cmd == CMD_SET_PIPELINE:
        if name is None or name not in PIPES:
            return "no or unknown pipeline"
        if A_ENABLE not in tb and A_FILTER not in tb and A_THRESHOLD_NS not in tb:
            return "nothing to set"
        if (A_THRESHOLD_NS in tb and
                int.from_bytes(tb[A_THRESHOLD_NS][:8], "little") > THRESHOLD_MAX_NS):
            return "threshold above 3600 s"
        if (A_THRESHOLD_NS in tb and name in NOEVENT_PIPES and
                int.from_bytes(tb[A_THRESHOLD_NS][:8], "little")):
            return "threshold on a pipeline without slow events"
        if A_FILTER in tb:
            why = filter_nest_must_reject(name, tb[A_FILTER])
            if why:
                return why
        if A_ENABLE in tb and tb[A_ENABLE][0] > 1:
            return "enable > 1"
        return None
    # FUNC_ADD / FUNC_DEL
    if A_FUNC_SYMBOL not in tb:
        return "no symbol"
    sym = nul_string(tb[A_FUNC_SYMBOL], 127)
    if not valid_symbol(sym):
        return "bad symbol"
    return None
