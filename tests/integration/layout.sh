#!/usr/bin/env bash
# README's Layout section and the tree agree: every source file under src/ is
# named on its folder's line, and every name there is a file. A reader finds
# the room for a change from that section, so it must not drift.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

TOP=$(cd "$(dirname "$0")/../.." && pwd)

plan 7

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

# Split at the seams (issue 29): a file past MAX_FILE_LINES or a function past
# MAX_FUNC_LINES holds more than one concern; the reader then has to find the
# seam the author did not cut. Table literals are data, not logic: a body that
# closes with "};" is one and is not counted.
MAX_FILE_LINES=700
MAX_FUNC_LINES=80

# "FILE:LINE NAME LINES" for every function body in the files given: from its
# "{" alone at column 0 to its "}" alone at column 0, both counted.
function_lengths() {
	awk '
		FNR == 1 { start = 0 }
		/^[A-Za-z_].*\(/ { sig = $0 }
		/^\{$/ { start = FNR; name = sig; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n] }
		/^\};/ { start = 0 }
		/^\}$/ && start { print FILENAME ":" start " " name " " (FNR - start + 1); start = 0 }
	' "$@"
}

check_file_lengths() {
	local long
	long=$(wc -l "$TOP"/src/*.c "$TOP"/src/*/*.c | awk -v max=$MAX_FILE_LINES '$2 != "total" && $1 > max { print $2 ": " $1 " lines" }')
	[ -z "$long" ] && return 0
	echo "over $MAX_FILE_LINES lines (split along a seam, a file per concern):"
	printf '%s\n' "${long//$TOP\//}"
	return 1
}

check_function_lengths() {
	local long
	long=$(function_lengths "$TOP"/src/*.c "$TOP"/src/*/*.c | awk -v max=$MAX_FUNC_LINES '$3 > max')
	[ -z "$long" ] && return 0
	echo "functions over $MAX_FUNC_LINES lines (FILE:LINE NAME LINES):"
	printf '%s\n' "${long//$TOP\//}"
	return 1
}

# The measure itself: a function of 81 lines is found with its name and length, a
# table literal of 100 lines and a function of 80 are not.
check_function_lengths_measure() {
	local dir out
	dir=$(mktemp -d) || return 1
	{
		printf 'static int long_one(void)\n{\n'
		for _ in $(seq 79); do printf '\tx++;\n'; done
		printf '}\n\nstatic const int table[] =\n{\n'
		for _ in $(seq 98); do printf '\t1,\n'; done
		printf '};\n\nint\nshort_one(int a,\n\t  int b)\n{\n'
		for _ in $(seq 78); do printf '\tx++;\n'; done
		printf '}\n'
	} >"$dir/t.c"
	out=$(function_lengths "$dir/t.c" | awk -v max=$MAX_FUNC_LINES '$3 > max { print $2, $3 }')
	rm -r "$dir"
	[ "$out" = "long_one 81" ] || { echo "expected 'long_one 81', got '$out'"; return 1; }
}

ok "README Layout names every file under src/*/ and nothing else" check_same
ok "src/ holds only main.c beside the folders" check_flat_only_main
ok "every include between folders is an arrow tests/layers.txt allows" check_layers
ok "tests/layers.txt is a layering: each folder uses only folders above it" check_matrix_ordered
ok "no .c under src/ is over $MAX_FILE_LINES lines" check_file_lengths
ok "no function under src/ is over $MAX_FUNC_LINES lines (table literals aside)" check_function_lengths
ok "the function measure finds an 81-line function and skips a table literal" check_function_lengths_measure
