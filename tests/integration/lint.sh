#!/usr/bin/env bash
# Lint of what is not C: the Python of tests/py/ and bench/ (pyflakes, any
# finding fails), no Python left in a shell heredoc under tests/ or bench/, the man page
# (mandoc -Tlint, any message fails), and the generated pages: BENCHMARKS.md
# (at most 150 lines) and docs/bench-notes/results.md are exactly what
# bench/summary.py renders from the committed bench/results/, and
# bench/results/run.json is what it extracts from docs/bench-notes/run.md.
# Needs no root; nothing is written into the tree.
source "$(dirname "$0")/../lib.sh" "$1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)

plan 7

t_pyflakes() {
	local out
	out=$(cd "$TOP" && "$ST_PY" -B -m pyflakes tests/py/*.py bench/*.py bench/lab/*.py 2>&1) && return 0
	printf '%s\n' "$out"
	return 1
}
if "$ST_PY" -B -c 'import pyflakes' 2>/dev/null; then
	ok "pyflakes: no finding in tests/py/, bench/ and bench/lab/" t_pyflakes
else
	skip "pyflakes: no finding in tests/py/, bench/ and bench/lab/" "python3-pyflakes is not installed (.ci/install-deps test)"
fi

# A Python helper lives in a .py file (tests/py/, bench/, bench/lab/), where
# pyflakes sees it; a heredoc fed to python, or python's -c with its code
# running on over the next lines, hides it from the lint.
t_no_heredoc_python() {
	local hits
	hits=$(grep -nE -e "(python3?|PY\}?\"?) .*<<-?[[:space:]]*['\"]?[A-Za-z_]+['\"]?([[:space:]]|$)" \
		-e "python3?( -[A-Za-z]+)* -c '[^']*$" \
		"$TOP"/tests/*.sh "$TOP"/tests/integration/*.sh "$TOP"/bench/*.sh "$TOP"/bench/lab/*.sh)
	[ -z "$hits" ] && return 0
	echo "Python in a heredoc or a multi-line python -c (move it to a .py file):"
	printf '%s\n' "$hits"
	return 1
}
ok "no Python heredoc in the suites and bench/ (a .py file holds it)" t_no_heredoc_python

t_mandoc() {
	local out
	out=$(mandoc -Tlint "$TOP"/man/*.[17] 2>&1)
	[ -z "$out" ] && return 0
	printf '%s\n' "$out"
	return 1
}
if command -v mandoc >/dev/null; then
	ok "mandoc -Tlint man/*: no message on any page" t_mandoc
else
	skip "mandoc -Tlint man/*: no message on any page" "mandoc is not installed (.ci/install-deps test)"
fi

# same_as FILE CMD...: CMD's standard output is FILE, byte for byte.
same_as() {
	local file=$1 out; shift
	out=$ST_TMP/generated
	"$@" >"$out" || return 1
	cmp -s "$file" "$out" && return 0
	echo "$file differs from what '$*' makes:"
	diff -u "$file" "$out" | head -40
	return 1
}
ok "BENCHMARKS.md is what bench/summary.py renders from bench/results/" \
	same_as "$TOP/BENCHMARKS.md" "$ST_PY" -B "$TOP/bench/summary.py" -o -
ok "docs/bench-notes/results.md is what bench/summary.py --tables renders" \
	same_as "$TOP/docs/bench-notes/results.md" "$ST_PY" -B "$TOP/bench/summary.py" --tables -o -

# The one-page summary stays one page: headline tables; the rest is in
# docs/bench-notes/results.md.
t_benchmarks_short() {
	local n
	n=$(wc -l <"$TOP/BENCHMARKS.md")
	[ "$n" -le 150 ] && return 0
	echo "BENCHMARKS.md has $n lines (at most 150: move a table to bench/results.md.in)"
	return 1
}
ok "BENCHMARKS.md is at most 150 lines" t_benchmarks_short
ok "bench/results/run.json holds the headline tables of docs/bench-notes/run.md" \
	same_as "$TOP/bench/results/run.json" "$ST_PY" -B "$TOP/bench/summary.py" --extract "$TOP/docs/bench-notes/run.md" -
