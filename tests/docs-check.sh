#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation's shape, on the host in a second (make style runs it):
#   - the README is at most 250 lines;
#   - every docs/... page the README names exists, and every page under
#     docs/ is named by the README (a newcomer reaches each from it);
#   - every pipeline of kmod/pipelines/all.c's list has
#     docs/pipelines/NAME.md (NAME: its .name in its SL_PIPELINE(...));
#   - no relative link [text](path) in the README or under docs/ points
#     at a file that does not exist.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
err() { echo "docs-check: $*"; fail=1; }

max=250
n=$(wc -l < README)
[ "$n" -le "$max" ] || err "README is $n lines (at most $max)"

# pages the README names, as links or as plain paths
# (a set, not `printf | grep -q`: grep leaving at its first match killed
# printf with SIGPIPE, a failure under pipefail, in one run of some)
mapfile -t named < <(grep -oE 'docs/[A-Za-z0-9_./-]+\.md' README | sort -u)
declare -A isnamed=()
for p in "${named[@]}"; do
	isnamed[$p]=1
	[ -f "$p" ] || err "README names $p, which does not exist"
done
for p in docs/*.md docs/pipelines/*.md; do
	[ -f "$p" ] || continue
	[ -n "${isnamed[$p]:-}" ] || err "$p is not named in README"
done

# the pipelines the module registers, by their names
nr=0
while read -r var; do
	name=$(awk -v v="SL_PIPELINE($var)" '
		index($0, v) == 1 { f = 1; next }
		f && match($0, /\.name = "[^"]+"/) {
			s = substr($0, RSTART, RLENGTH); sub(/^\.name = "/, "", s)
			sub(/"$/, "", s); print s; exit }' kmod/pipelines/*.c)
	if [ -z "$name" ]; then
		err "no SL_PIPELINE($var) with a .name in kmod/pipelines/"
		continue
	fi
	nr=$((nr + 1))
	[ -f "docs/pipelines/$name.md" ] || err "pipeline $name has no docs/pipelines/$name.md"
done < <(sed -n 's/^[[:space:]]*&sl_pipe_\([a-z0-9_]*\),.*/\1/p' kmod/pipelines/all.c)
[ "$nr" -gt 0 ] || err "no pipeline found in kmod/pipelines/all.c"

# relative links: [text](target), target without a scheme or a leading #
links=0
for f in README docs/*.md docs/pipelines/*.md; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	while read -r t; do
		t=${t%%#*}
		[ -n "$t" ] || continue
		links=$((links + 1))
		[ -e "$dir/$t" ] || err "$f links $t, which does not exist"
	done < <(grep -oE '\]\([^)[:space:]]+\)' "$f" | sed 's/^](//; s/)$//' |
		grep -vE '^([a-z]+:|#)' || true)
done

if [ $fail = 0 ]; then
	echo "docs-check: README $n lines, ${#named[@]} pages named, $nr pipelines documented, $links links resolve"
fi
exit $fail
