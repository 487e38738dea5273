#!/usr/bin/env bash
# Every JSON report records the hypervisor's steal over the run (issue 27):
# host.steal {ms, share, flagged} in a run, layers, netbench, bench syscall
# and cpu, as root; as nobody the commands that run rootless. The grid benches'
# suites check their own reports the same way (steal_check.py).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 3

# One short run of each command; the name of its report comes first, and
# OUT stands where "-J -o FILE" goes (before a run's "--").
ROOT_RUNS=(
	"run|--repeat=1 --deferred-repeat=0 OUT -- true"
	"layers|layers --repeat=1 --deferred-repeat=0 OUT"
	"netbench|netbench --repeat=1 --duration=0.1 --paths=host --no-rr OUT"
	"syscall|bench syscall --repeat=1 OUT"
	"cpu|bench cpu --repeat=1 OUT"
)
# The grid benches (fork, files, userns, where, churn, mounts, cgroup,
# launch) are long: their own suites run steal_check.py on their JSON.
NOBODY_RUNS=(
	"run|--repeat=1 --deferred-repeat=0 OUT -- true"
	"layers|layers --repeat=1 --deferred-repeat=0 OUT"
	"netbench|netbench --repeat=1 --duration=0.1 --paths=host --no-rr OUT"
	"syscall|bench syscall --repeat=1 OUT"
)

t_reports() {
	local mode=$1 dir entry name word files=()
	local -a runs args
	if [ "$mode" = root ]; then runs=("${ROOT_RUNS[@]}"); else runs=("${NOBODY_RUNS[@]}"); fi
	dir=$(st_scratch) || return 1
	for entry in "${runs[@]}"; do
		name=${entry%%|*}
		args=()
		for word in ${entry#*|}; do
			if [ "$word" = OUT ]; then args+=(-J -o "$dir/$name.json"); else args+=("$word"); fi
		done
		st_run "$mode" "${args[@]}" >/dev/null || return 1
		expect_rc 0 && expect_clean || { echo "$name"; st_show; return 1; }
		files+=("$dir/$name.json")
	done
	expect_eq "${#files[@]}" "${#runs[@]}" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "${files[@]}"
}
each_mode "every JSON report has host.steal {ms, share, flagged}" t_reports

# The table flags a run over 1%, and compare warns: from a report whose steal says so.
t_compare_warns() {
	local dir t
	dir=$(st_scratch) || return 1
	t=$("$ST_BIN" compare "$(dirname "$0")"/../fixtures/compare/drain_a.json \
		"$(dirname "$0")"/../fixtures/compare/drain_b.json 2>&1) || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q '^WARNING steal: hypervisor steal during .*drain_b.json 2.50%' ||
		{ echo "$t"; return 1; }
}
ok "compare warns when a file had steal over 1%" t_compare_warns
