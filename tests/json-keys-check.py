#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""json-keys-check.py DOC FILE...: the keys of real -j output against
docs/json.md's list ("Keys, per output").

DOC's list items "- **PATH**: `key`, `key`\\* (...), `key`{} ..." give,
per object, its keys: plain ones must be in every such object, \\* ones
may be missing, {} ones hold a map whose keys are data (not descended
into).  The keys of **envelope** are in every output.  FILE holds JSON
lines (any -j output; several files, several commands).  Each line's
object is named by its "command" ("top WHAT" for top views, "top WHAT
--by cgroup" for their rows by cgroup) and every
object inside by the path of keys to it (arrays: each element).

Fails (exit 1) when an object has a key the list does not have, lacks a
plain key of the list, or has no list item at all.  Prints what the
files did not exercise (a \\* key never seen, an item never reached):
that is not an error, the files decide what is covered.
"""
import json
import re
import sys


def parse_doc(path):
    """{PATH: {key: mark}} from DOC's list items; mark '', '*' or '{}'."""
    items, cur = [], None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"- \*\*([^*]+)\*\*(.*)", line)
        if m:
            cur = [m.group(1), m.group(2)]
            items.append(cur)
        elif cur and line.startswith("  ") and line.strip():
            cur[1] += " " + line.strip()
        else:
            cur = None
    doc = {}
    for name, text in items:
        # explanations in parentheses name keys of other objects: drop them
        prev = None
        while prev != text:
            prev = text
            text = re.sub(r"\([^()]*\)", "", text)
        if ":" not in text:
            continue
        text = text.split(":", 1)[1]
        keys = {}
        for k, mark in re.findall(r"`([A-Za-z0-9_]+)`(\\\*|\{\})?", text):
            keys[k] = mark.replace("\\", "")
        if not keys:
            sys.exit("%s: item %s lists no key" % (path, name))
        if name in doc:
            sys.exit("%s: item %s twice" % (path, name))
        doc[name] = keys
    if "envelope" not in doc:
        sys.exit("%s: no **envelope** item" % path)
    return doc


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    doc = parse_doc(sys.argv[1])
    env = doc["envelope"]
    seen, reached, errors = {}, set(), []

    def walk(o, path, where):
        keys = doc.get(path)
        if keys is None:
            errors.append("%s: object %s is not in the list (keys %s)" %
                          (where, path, sorted(o)))
            return
        if "." not in path and path != "envelope":
            keys = dict(env, **keys)
        reached.add(path)
        s = seen.setdefault(path, set())
        s.update(o)
        for k in sorted(set(o) - set(keys)):
            errors.append("%s: %s.%s is emitted, not documented" % (where, path, k))
        for k in sorted(k for k, m in keys.items() if m == "" and k not in o):
            errors.append("%s: %s.%s is documented, not emitted" % (where, path, k))
        for k, v in o.items():
            if keys.get(k) == "{}" or k not in keys:
                continue
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, dict):
                    walk(x, path + "." + k, where)

    nlines = 0
    for f in sys.argv[2:]:
        for i, line in enumerate(open(f, encoding="utf-8"), 1):
            if not line.strip():
                continue
            where = "%s:%d" % (f, i)
            try:
                o = json.loads(line)
            except ValueError as e:
                errors.append("%s: not JSON: %s" % (where, e))
                continue
            nlines += 1
            cmd = o.get("command")
            name = "top " + str(o.get("what")) if cmd == "top" else str(cmd)
            if cmd == "top" and o.get("by") == "cgroup":
                name += " --by cgroup"
            walk(o, name, where)
    # one line per (object, key) is enough: the first file and line say where
    first = {}
    for e in errors:
        first.setdefault(e.split(": ", 1)[1], e)
    for e in first.values():
        print("json-keys-check: " + e)
    unreached = sorted(p for p in doc if p not in reached and p != "envelope")
    unseen = sorted("%s.%s" % (p, k) for p in reached for k, m in doc[p].items()
                    if m == "*" and k not in seen[p])
    print("json-keys-check: %d lines, %d objects checked against %s; %d errors" %
          (nlines, len(reached), sys.argv[1], len(first)))
    if unreached:
        print("json-keys-check: not exercised (no such object): " + " ".join(unreached))
    if unseen:
        print("json-keys-check: not exercised (optional key never seen): " + " ".join(unseen))
    return 1 if first else 0


if __name__ == "__main__":
    sys.exit(main())
