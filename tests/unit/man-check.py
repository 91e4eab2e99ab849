#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""man-check.py TOOL MANPAGE: the man page is the full CLI manual, so
every command of the tool (stacklat --help) and every option its help
texts name (stacklat help CMD, short and long forms) must be in the man
page, and every option the man page's SYNOPSIS, COMMANDS and OPTIONS give
on a request line (.B, .BI, .BR, .TP ...) must be in some help text:
neither can grow an option the other does not know.  Exit 1 with what
is missing, one line each."""
import re, subprocess, sys

tool, man = sys.argv[1], sys.argv[2]
run = lambda *a: subprocess.run([tool, *a], capture_output=True, text=True).stdout
top = run("--help")
cmds = [m.group(1) for m in re.finditer(r"^  ([a-z]+) ", top, re.M)]
OPT = re.compile(r"(?<![\w\\-])(--?[A-Za-z][A-Za-z0-9-]*)")
help_opts, bad = {}, []
for c in cmds:
    t = run("help", c)
    if not t.strip():
        bad.append("tool: 'help %s' says nothing" % c)
    help_opts[c] = set(OPT.findall(t))
help_opts["-"] = set(OPT.findall(top))
src = open(man).read()
# the man page as text: \- is -, font escapes and requests' dots go
txt = re.sub(r"\\f[BIRP]|\\&", "", src).replace("\\-", "-")
alltool = set().union(*help_opts.values())
for c in cmds:
    if not re.search(r"^\.(B|BI|BR|TP)\b.*\b%s\b" % re.escape(c), src, re.M) and \
       "stacklat " + c not in txt:
        bad.append("man: no command '%s'" % c)
    for o in sorted(help_opts[c]):
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), txt):
            bad.append("man: '%s' of 'stacklat %s' missing" % (o, c))
# the reverse: the options the man page gives "stacklat" (in its SYNOPSIS,
# COMMANDS and OPTIONS sections), each known to the tool
sect, mine = None, set()
for line in src.splitlines():
    m = re.match(r"^\.SH\s+\"?([A-Z ]+)", line)
    if m:
        sect = m.group(1).strip()
        continue
    if sect in ("SYNOPSIS", "COMMANDS", "OPTIONS"):
        l = re.sub(r"\\f[BIRP]|\\&", "", line).replace("\\-", "-")
        if re.match(r"^\.(B|BI|BR|IR|TP|OP)\b", line) or l.startswith("stacklat"):
            mine |= set(OPT.findall(l))
for o in sorted(mine - alltool):
    bad.append("tool: the man page's '%s' is in no help text" % o)
print("\n".join(bad) if bad else "man-check: %d commands, %d options, both ways" % (len(cmds), len(alltool)))
sys.exit(1 if bad else 0)
