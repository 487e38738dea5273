# bench/lib.sh: what every bench script records and computes alike, sourced
# (never run) after `set -euo pipefail`:
#
#   source "$(dirname "$0")/lib.sh"          (bench/lab/: ../lib.sh)
#
# It sets BENCH_ROOT (the top of the tree) and LC_ALL=C (sort, printf and
# the tools' numbers read the same everywhere). bench/common.py reads what
# bench_meta writes.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LC_ALL=C

# bench_usage USAGE: "usage: USAGE" on standard error, exit 2 (after the
# test of the arguments: `[ $# -eq 2 ] || bench_usage "bash bench/x.sh BIN OUTDIR"`).
bench_usage() {
	echo "usage: $1" >&2
	exit 2
}

# The 1, 5 and 15 minute load averages: how busy the shared machine was.
bench_load() { cut -d' ' -f1-3 /proc/loadavg; }

# The hypervisor's steal and all CPU time so far, in USER_HZ ticks summed
# over every CPU ("STEAL TOTAL", the cpu line of /proc/stat as
# src/base/steal.c reads it): two of them give the share stolen in between.
bench_steal() { awk '$1 == "cpu" { print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat; }

bench_commit() { git -C "$BENCH_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown; }

# bench_meta SEP [KEY VALUE]...: the facts every result records, one
# "KEY<SEP>VALUE" a line: date, commit, host, kernel, uid, load, steal, then
# the script's own. SEP is ": " (meta.txt) or "=" (facts.txt); both read
# back with bench/common.py's read_meta.
bench_meta() {
	local sep=$1
	shift
	printf 'date%s%s\n' "$sep" "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'commit%s%s\n' "$sep" "$(bench_commit)"
	printf 'host%s%s\n' "$sep" "$(uname -n)"
	printf 'kernel%s%s\n' "$sep" "$(uname -r)"
	printf 'uid%s%s\n' "$sep" "$(id -u)"
	printf 'load%s%s\n' "$sep" "$(bench_load)"
	printf 'steal%s%s\n' "$sep" "$(bench_steal)"
	while [ $# -ge 2 ]; do
		printf '%s%s%s\n' "$1" "$sep" "$2"
		shift 2
	done
}

# bench_meta_end SEP: the load and steal at the end, to append to bench_meta's
# lines once the measuring is done.
bench_meta_end() {
	printf 'load_end%s%s\n' "$1" "$(bench_load)"
	printf 'steal_end%s%s\n' "$1" "$(bench_steal)"
}

# bench_raw_begin OUTDIR [KEY VALUE]...: OUTDIR/raw made, for the rounds'
# own files, and its meta.txt begun (bench_meta ": "); bench_raw_end OUTDIR
# closes it once the rounds are done.
bench_raw_begin() {
	local out=$1
	shift
	mkdir -p "$out/raw"
	bench_meta ": " "$@" >"$out/raw/meta.txt"
}
bench_raw_end() { bench_meta_end ": " >>"$1/raw/meta.txt"; }

# bench_need_root NAME [WHY]: exit 1 unless root, saying why NAME needs it.
bench_need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	echo "$1: needs root${2:+ ($2)}" >&2
	exit 1
}

# bench_need_tools NAME TOOL...: exit 1 naming the first TOOL not on PATH.
bench_need_tools() {
	local name=$1 t
	shift
	for t in "$@"; do
		command -v "$t" >/dev/null || { echo "$name: $t is not installed (sh .ci/install-deps bench)" >&2; exit 1; }
	done
}

# bench_run_facts BIN: the machine and build facts of bench/run.sh's and
# bench/net_steps.sh's reports, one KEY=VALUE a line (bench/analyze.py reads
# them by these names): CPU, RCU mode, load, who ran it and which binary.
bench_run_facts() {
	echo "kernel=$(uname -r)"
	echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "cpus=$(nproc)"
	echo "hypervisor=$(grep -qw hypervisor /proc/cpuinfo && echo yes || echo no)"
	echo "rcu_expedited=$(cat /sys/kernel/rcu_expedited 2>/dev/null || echo unknown)"
	echo "loadavg=$(bench_load)"
	echo "steal=$(bench_steal)"
	echo "user=$(id -un) (uid $(id -u))"
	echo "sandboxtime=$("$1" --version | head -1)"
	echo "bin_sha256=$(sha256sum "$1" | cut -c1-16)"
	echo "git=$(git -C "$BENCH_ROOT" rev-parse --short HEAD 2>/dev/null || echo none)"
	echo "git_dirty_src=$(git -C "$BENCH_ROOT" status --porcelain -- src include Makefile 2>/dev/null | wc -l)"
}
