#!/usr/bin/env bash
# README's Layout section and the tree agree: every source file under src/ is
# named on its folder's line, and every name there is a file. A reader finds
# the room for a change from that section, so it must not drift.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

TOP=$(cd "$(dirname "$0")/../.." && pwd)

plan 4

# "DIR NAME" for every module the Layout section names: a line that starts
# with src/DIR/ opens a folder, indented lines after it continue its list
# (the words after its colon).
layout_names() {
	awk '
		/^## / { inlayout = ($0 == "## Layout") ; next }
		!inlayout { next }
		/^    src\/[a-z_]+\/ / { dir = $1; sub(/^src\//, "", dir); sub(/\/$/, "", dir)
			line = $0; sub(/^[^:]*:/, "", line); listing = 1 }
		/^    src\// && !/^    src\/[a-z_]+\/ / { listing = 0; next }
		/^                 / && listing { line = $0 }
		/^    [a-z.]/ && !/^    src\// { listing = 0; next }
		listing && line != "" { n = split(line, w, " "); for (i = 1; i <= n; i++) print dir " " w[i]; line = "" }
	' "$TOP/README.md" | sort -u
}

tree_names() {
	(cd "$TOP/src" && for f in */*.c; do d=${f%%/*}; b=${f##*/}; echo "$d ${b%.c}"; done) | sort -u
}

check_same() {
	local diff
	diff=$(diff <(layout_names) <(tree_names))
	[ -z "$diff" ] && return 0
	echo "README Layout (<) and src/ (>) differ:"
	printf '%s\n' "$diff"
	return 1
}

check_flat_only_main() {
	local extra
	extra=$(cd "$TOP/src" && ls ./*.c 2>/dev/null | grep -v '^./main.c$')
	[ -z "$extra" ] || { echo "files directly under src/ besides main.c: $extra"; return 1; }
}

# "FROM TO" for every include in src/FROM/*.c of a header whose .c is in src/TO/, TO != FROM.
include_edges() {
	local c from h t
	for c in "$TOP"/src/*/*.c; do
		from=${c%/*}; from=${from##*/}
		for h in $(sed -n 's/^#include "sandboxtime\/\([a-z0-9_]*\)\.h".*/\1/p' "$c"); do
			for t in "$TOP"/src/*/"$h".c; do
				[ -f "$t" ] || continue
				t=${t%/*}; t=${t##*/}
				[ "$t" = "$from" ] || echo "$from $t"
			done
		done
	done | sort -u
}

# "FROM TO" for every arrow tests/layers.txt allows.
allowed_edges() {
	awk -F': *' '/^#/ || !NF { next } { n = split($2, to, " "); for (i = 1; i <= n; i++) print $1, to[i] }' \
		"$TOP/tests/layers.txt" | sort -u
}

check_layers() {
	local bad
	bad=$(comm -23 <(include_edges) <(allowed_edges))
	[ -z "$bad" ] && return 0
	echo "includes against tests/layers.txt (FROM TO):"
	printf '%s\n' "$bad"
	return 1
}

# The matrix is a layering: no folder may use one listed after it, so no cycle hides in it.
check_matrix_ordered() {
	awk -F': *' '/^#/ || !NF { next }
		{ n = split($2, to, " "); for (i = 1; i <= n; i++) if (!(to[i] in seen)) { print $1 " uses " to[i] ", not listed above it"; bad = 1 } seen[$1] = 1 }
		END { exit bad }' "$TOP/tests/layers.txt"
}

ok "README Layout names every file under src/*/ and nothing else" check_same
ok "src/ holds only main.c beside the folders" check_flat_only_main
ok "every include between folders is an arrow tests/layers.txt allows" check_layers
ok "tests/layers.txt is a layering: each folder uses only folders above it" check_matrix_ordered
