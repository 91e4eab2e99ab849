#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The module's layering, from its #include "..." lines (tests/style.sh runs
# this; kmod/README says why):
#
#  1. floors: main.c > iface/ > pipelines/ > core/ > uapi/ and compat.h.
#     A file includes only files on its own floor or below.
#  2. no circle: a room is a .c and the .h of the same name (chain.c and
#     chain.h; flight_fast.h, the inline half of flight.h, is flight's; a
#     header whose functions live elsewhere, like sl.h or hook_backend.h,
#     is a room of its own).  The rooms and their includes must form no
#     cycle, so that calls, which go through a room's header, run down too.
#  3. a file in pipelines/ includes of the engine only sl.h, the pipeline
#     author's API: no other header of core/ (pipelines/' own headers and
#     uapi/ are fine).
#  4. a file in pipelines/ never names what is the engine's own in a
#     pipeline or a hook: the members of struct sl_pipeline and struct
#     sl_hook behind their "priv" member (types.h).
#
# Usage: layers.py [ROOT]: prints each violation, exits 1 if any.
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..'))
# the -I directories Kbuild gives, in its order
search = ['uapi', 'kmod/core', 'kmod']
# included only where SL_USERSPACE builds core files in tests/unit
USERSPACE = {'kshim.h', 'dim_shim.h'}


def floor(rel):
    if rel == 'kmod/main.c':
        return 4
    if rel.startswith('kmod/iface/'):
        return 3
    if rel.startswith('kmod/pipelines/'):
        return 2
    if rel.startswith('kmod/core/'):
        return 1
    if rel.startswith('uapi/') or rel == 'kmod/compat.h':
        return 0
    return None


FLOOR_NAME = {4: 'main.c', 3: 'iface/', 2: 'pipelines/', 1: 'core/',
              0: 'uapi/ and compat.h'}

files = []
for top in ('kmod', 'uapi'):
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in sorted(names):
            if n.endswith(('.c', '.h')) and not n.endswith('.mod.c'):
                files.append(os.path.relpath(os.path.join(d, n), root))
files.sort()
have = set(files)
inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
errors = []


def resolve(src, name):
    for d in [os.path.dirname(src)] + search:
        rel = os.path.normpath(os.path.join(d, name))
        if rel in have:
            return rel
    return None


edges = {}
for f in files:
    fl = floor(f)
    if fl is None:
        errors.append('%s: on no floor (add it to tests/layers.py)' % f)
        continue
    with open(os.path.join(root, f), encoding='utf-8') as fh:
        lines = fh.read().split('\n')
    for ln, line in enumerate(lines, 1):
        m = inc_re.match(line)
        if not m:
            continue
        if m.group(1) in USERSPACE:
            continue
        to = resolve(f, m.group(1))
        where = '%s:%d' % (f, ln)
        if not to:
            errors.append('%s: "%s" is no file of kmod/ or uapi/' %
                          (where, m.group(1)))
            continue
        edges.setdefault(f, set()).add(to)
        if floor(to) > fl:
            errors.append('%s: includes %s, up from %s to %s' %
                          (where, to, FLOOR_NAME[fl], FLOOR_NAME[floor(to)]))
        if (f.startswith('kmod/pipelines/') and
                to.startswith('kmod/core/') and to != 'kmod/core/sl.h'):
            errors.append('%s: a pipeline includes %s: of the engine, only '
                          'sl.h' % (where, to))


def room(f):
    r = os.path.splitext(f)[0]
    return r[:-len('_fast')] if r.endswith('_fast') else r


graph = {}
for f, tos in edges.items():
    for t in tos:
        if room(t) != room(f):
            graph.setdefault(room(f), set()).add(room(t))

# cycles: depth-first search, each one reported once by its rooms
seen, stack, onstack, cycles = set(), [], set(), set()


def dfs(r):
    seen.add(r)
    stack.append(r)
    onstack.add(r)
    for t in sorted(graph.get(r, ())):
        if t in onstack:
            cyc = stack[stack.index(t):]
            k = min(range(len(cyc)), key=lambda i: cyc[i])
            cycles.add(tuple(cyc[k:] + cyc[:k]))
        elif t not in seen:
            dfs(t)
    stack.pop()
    onstack.discard(r)


sys.setrecursionlimit(10000)
for r in sorted(graph):
    if r not in seen:
        dfs(r)
for c in sorted(cycles):
    errors.append('circle: ' + ' -> '.join(c + (c[0],)))

# engine-private members named in a pipeline
priv_re = re.compile(r'(->|\.)\s*priv\b|\bsl_(pipe|hook)_priv\b')
for f in files:
    if not f.startswith('kmod/pipelines/'):
        continue
    with open(os.path.join(root, f), encoding='utf-8') as fh:
        for ln, line in enumerate(fh, 1):
            code = re.sub(r'/\*.*?\*/|//.*', '', line)
            if priv_re.search(code):
                errors.append('%s:%d: a pipeline touches the engine\'s '
                              'private state: %s' % (f, ln, line.strip()))

for e in errors:
    print('layers: ' + e)
if errors:
    sys.exit(1)
print('layers: %d files, %d rooms, floors and rooms in order, no circle' %
      (len(files), len(set(room(f) for f in files))))
