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
# With --objects DIR (a build of the module: make style's sparse build),
# the same floors and no circle on what the objects really reference of
# each other (nm: calls and data), object by object.
#
# Usage: layers.py [--objects DIR] [ROOT]: prints each violation, exits 1
# if any.
import os
import re
import subprocess
import sys

args = sys.argv[1:]
objdir = None
if args[:1] == ['--objects']:
    objdir = args[1]
    args = args[2:]
root = os.path.abspath(args[0] if args else
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

def circles(g):
    """the cycles of graph @g (depth-first), each once, by its nodes"""
    seen, stack, onstack, found = set(), [], set(), set()

    def dfs(r):
        seen.add(r)
        stack.append(r)
        onstack.add(r)
        for t in sorted(g.get(r, ())):
            if t in onstack:
                cyc = stack[stack.index(t):]
                k = min(range(len(cyc)), key=lambda i: cyc[i])
                found.add(tuple(cyc[k:] + cyc[:k]))
            elif t not in seen:
                dfs(t)
        stack.pop()
        onstack.discard(r)

    for r in sorted(g):
        if r not in seen:
            dfs(r)
    return sorted(found)


sys.setrecursionlimit(10000)
for c in circles(graph):
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

nobj = 0
if objdir:
    # what each object defines and what it takes from the others
    defs, uses = {}, {}
    for d, _, names in os.walk(os.path.join(objdir, 'kmod')):
        for n in names:
            if not n.endswith('.o') or n.endswith('.mod.o'):
                continue
            o = os.path.relpath(os.path.join(d, n), objdir)
            nobj += 1
            out = subprocess.run(['nm', os.path.join(objdir, o)],
                                 capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                f = line.split()
                if len(f) == 3 and f[1] in 'TDBRVW':
                    defs[f[2]] = o
                elif len(f) == 2 and f[0] == 'U':
                    uses.setdefault(o, set()).add(f[1])
    ograph, why = {}, {}
    for o, syms in uses.items():
        for s in syms:
            t = defs.get(s)
            if not t or t == o:
                continue
            src, dst = o[:-2] + '.c', t[:-2] + '.c'
            ograph.setdefault(src, set()).add(dst)
            why.setdefault((src, dst), set()).add(s)
            if floor(dst) > floor(src):
                errors.append('%s uses %s of %s, up from %s to %s' %
                              (src, s, dst, FLOOR_NAME[floor(src)],
                               FLOOR_NAME[floor(dst)]))
    for c in circles(ograph):
        errors.append('circle of references: ' + ', '.join(
            '%s -> %s (%s)' % (c[i], c[(i + 1) % len(c)],
                               ' '.join(sorted(why[(c[i],
                                                    c[(i + 1) % len(c)])])[:3]))
            for i in range(len(c))))

for e in errors:
    print('layers: ' + e)
if errors:
    sys.exit(1)
print('layers: %d files, %d rooms, floors and rooms in order, no circle' %
      (len(files), len(set(room(f) for f in files))) +
      (' (and the references of %d objects)' % nobj if objdir else ''))
