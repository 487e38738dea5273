#!/usr/bin/env bash
# README's Layout section and the tree agree: every source file under src/ is
# named on its folder's line, and every name there is a file. A reader finds
# the room for a change from that section, so it must not drift.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

TOP=$(cd "$(dirname "$0")/../.." && pwd)

plan 2

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

ok "README Layout names every file under src/*/ and nothing else" check_same
ok "src/ holds only main.c beside the folders" check_flat_only_main
