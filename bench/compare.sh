#!/usr/bin/env bash
# bench/compare.sh [BIN] [ROUNDS] [RUNS]: how long `sandboxtime compare` takes
# on two layers-shaped reports with 10,000 samples per figure
# (bench/compare_gen.py): one set (6 sampled figures, 3 without samples) and
# all nine sets (54 and 27), against reading the same two files with jq (a C
# JSON parser: the floor of any tool that reads them), and with 100
# resamples instead of 2000 (what the bootstrap itself costs). The commands share
# each round, their order rotated (bench/launch_rounds.py, hyperfine -N).
# Target (issue 16): under 200 ms. Notes: docs/bench-notes/16-compare.md.
set -eu
BIN=${1:-build/sandboxtime}
ROUNDS=${2:-3}
RUNS=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/st-bench-compare.XXXXXX)
trap 'rm -rf "$dir"' EXIT
command -v hyperfine >/dev/null && command -v jq >/dev/null ||
	{ echo "bench/compare.sh: needs hyperfine and jq (sh .ci/install-deps bench)" >&2; exit 1; }
python3 -B "$here/compare_gen.py" "$dir/one" 10000 1
python3 -B "$here/compare_gen.py" "$dir/all" 10000 9
ls -l "$dir"/one "$dir"/all
python3 -B "$here/launch_rounds.py" "$dir/rounds" "$ROUNDS" "$RUNS" \
	"compare-1set=$BIN compare $dir/one/a.json $dir/one/b.json --seed=1 -o /dev/null" \
	"jq-1set=jq -c length $dir/one/a.json $dir/one/b.json" \
	"compare-9sets=$BIN compare $dir/all/a.json $dir/all/b.json --seed=1 -o /dev/null" \
	"compare-9sets-json=$BIN compare $dir/all/a.json $dir/all/b.json -J --seed=1 -o /dev/null" \
	"compare-9sets-r100=$BIN compare $dir/all/a.json $dir/all/b.json --resamples=100 --seed=1 -o /dev/null" \
	"jq-9sets=jq -c length $dir/all/a.json $dir/all/b.json"
