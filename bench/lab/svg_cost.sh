#!/usr/bin/env bash
# What --svg adds to a run (issue 16's target: under 5 ms): strace -ttt of
# sandboxtime itself (not its children: -f would slow every clone) gives the
# time from the JSON report's last write to the chart's last write, which
# covers building the document again and drawing and writing the SVG.
# Usage: bench/lab/svg_cost.sh BIN ROUNDS [layers options...]
set -eu
bin=${1:-build/sandboxtime}
rounds=${2:-10}
shift 2 || shift $#
here=$(dirname "$0")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for ((i = 0; i < rounds; i++)); do
	rm -f "$dir/r.json" "$dir/r.svg"
	strace -ttt -e trace=openat,write -o "$dir/trace" \
		"$bin" layers "$@" -J -o "$dir/r.json" --svg="$dir/r.svg"
	python3 "$here/svg_cost.py" "$dir/trace" "$dir/r.json" "$dir/r.svg"
done | python3 "$here/svg_cost.py" --summary
