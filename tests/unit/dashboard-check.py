#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dashboard-check.py DASHBOARD.json METRICS|-: the Grafana dashboard
against the exporter.

METRICS is `stacklat metrics` text (make unit: metrics-names, tool/metrics.c
rendering a fixture with every family it can write).  Checks that the
dashboard is JSON (the json module), that it has panels, that every panel
with a data source has queries, and that every PromQL expression in it
(panel targets' "expr", template variables' queries, label_values(...)
included) names at least one metric and only metrics METRICS has.
A metric picked by a __name__ matcher is refused: it could name anything.
Exit 1 on any error, each printed.
"""
import json
import re
import sys

# PromQL words that are not metric names (functions are followed by "(")
WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool",
         "and", "or", "unless", "offset", "inf", "nan", "atan2"}


def exporter_names(text):
    names = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            names.add(re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0))
    return names


def metrics_of(expr):
    """The metric names an expression selects, or raises ValueError."""
    m = re.fullmatch(r"\s*label_values\((.*),\s*[a-zA-Z_][a-zA-Z0-9_]*\s*\)\s*", expr, re.S)
    if m:
        expr = m.group(1)
    elif re.match(r"\s*[a-z_]+_values\(|\s*query_result\(|\s*metrics\(", expr):
        raise ValueError("a template function this check does not read")
    if "__name__" in expr:
        raise ValueError("a __name__ matcher")
    e = re.sub(r'"(\\.|[^"\\])*"', '""', expr)	# strings ($vars in them too)
    e = re.sub(r"\{[^{}]*\}", " ", e)		# label matchers
    e = re.sub(r"\[[^\]]*\]", " ", e)		# ranges
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    e = re.sub(r"\$\{?\w+\}?", " ", e)		# Grafana variables outside strings
    names = []
    for m in re.finditer(r"(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?", e):
        if m.group(2) or m.group(1).lower() in WORDS:
            continue
        names.append(m.group(1))
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        dash = json.load(open(sys.argv[1], encoding="utf-8"))
    except ValueError as e:
        print("dashboard-check: %s is not JSON: %s" % (sys.argv[1], e))
        return 1
    text = sys.stdin.read() if sys.argv[2] == "-" else open(sys.argv[2]).read()
    known = exporter_names(text)
    errors, exprs = [], []
    if not known:
        errors.append("no metric in the exporter's output")
    if not isinstance(dash, dict) or not dash.get("panels"):
        errors.append("no panels")
        dash = {}

    def panels(ps):
        for p in ps:
            yield p
            yield from panels(p.get("panels", []))

    for p in panels(dash.get("panels", [])):
        if p.get("type") == "row":
            continue
        where = "panel %r" % p.get("title")
        ts = p.get("targets") or []
        if not ts:
            errors.append(where + ": no query")
        for t in ts:
            exprs.append((where + " " + t.get("refId", "?"), t.get("expr", "")))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") == "query":
            q = v.get("query")
            exprs.append(("variable $%s" % v.get("name"),
                          q.get("query", "") if isinstance(q, dict) else q or ""))
    used = set()
    for where, expr in exprs:
        try:
            names = metrics_of(expr)
        except ValueError as e:
            errors.append("%s: %s: %s" % (where, e, expr))
            continue
        if not names:
            errors.append("%s: names no metric: %r" % (where, expr))
        for n in names:
            if n not in known:
                errors.append("%s: %s is not a metric the exporter writes" % (where, n))
            used.add(n)
    for e in errors:
        print("dashboard-check: " + e)
    print("dashboard-check: %s: %d queries, %d of the exporter's %d metrics used; %d errors"
          % (sys.argv[1], len(exprs), len(used), len(known), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
