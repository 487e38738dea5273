#!/usr/bin/env bash
# The reports: JSON (schema "sandboxtime/v1" of docs/DESIGN.md) parsed back with
# python3 and checked key by key against the run that made it; CSV; where the
# report goes. As root and as nobody.
source "$(dirname "$0")/../lib.sh" "$1"

plan 28

VERSION=$("$ST_BIN" --version | awk 'NR == 1 { print $NF }')
CHECK=$ST_PYDIR/report_check.py

check() { "$ST_PY" "$CHECK" "$@"; }

# Reports are written where nobody may write too.
OUT=$(st_scratch)

# The measurement of the brief, kept for the claim below.
LAYERS_ARGS=(layers --format=json --repeat=3 --warmup=1 --deferred-repeat=2 --ns=uts,pid,net)

t_layers_json() {
	local mode=$1 file=$OUT/layers-$1.json
	st_run "$mode" "${LAYERS_ARGS[@]}" -o "$file" || return 1
	expect_rc 0 && expect_clean || return 1
	[ ! -s "$ST_OUT" ] && [ ! -s "$ST_ERR" ] || { echo "output besides the report file"; st_show; return 1; }
	check layers "$file" "$mode" uts,pid,net 3 1 2 "$VERSION"
}

# Asked in any order, the layers come in the fixed one.
t_layers_order() {
	local mode=$1
	st_run "$mode" layers -J --repeat=1 --warmup=0 --deferred-repeat=1 --ns=net,pid,ipc,uts || return 1
	expect_rc 0 && expect_clean || return 1
	check layers "$ST_ERR" "$mode" net,pid,ipc,uts 1 0 1 "$VERSION"
}

# Rootless: host.rootless, and user in config.ns though --ns did not name it.
t_rootless_fields() {
	local mode=$1 file=$OUT/layers-$1.json
	[ -s "$file" ] || { echo "no report from the layers run"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/report_layers.py" rootless "$file" "$mode"
}

# A run: steps and workload, with what the run really did.
t_run_json() {
	local mode=$1 want_rc=$2 signal=$3 min_wall=$4 argv_json=$5; shift 5
	st_run "$mode" -J --repeat=0 -- "$@" || return 1
	expect_rc "$want_rc" && expect_clean || return 1
	check run "$ST_ERR" "$mode" "$argv_json" "$want_rc" "$signal" "$min_wall" "$VERSION"
}

# The measured run: layers and the run's own parts in one document.
t_run_measured_json() {
	local mode=$1 file=$OUT/run-measured-$1.json
	st_run "$mode" -J --repeat=2 --warmup=0 --deferred-repeat=1 --ns=uts,net -o "$file" -- true || return 1
	expect_rc 0 && expect_clean || return 1
	check run "$file" "$mode" '["true"]' 0 null 1 "$VERSION" || return 1
	"$ST_PY" -B "$ST_PYDIR/report_layers.py" measured "$file" "$mode"
}

# The workload owns standard output; the report goes to standard error.
t_stdout_is_workloads() {
	st_run "$1" -J --repeat=0 -- echo hello || return 1
	expect_rc 0 && expect_clean && expect_stdout hello || return 1
	"$ST_PY" -c 'import json, sys; json.load(open(sys.argv[1]))' "$ST_ERR" || { st_show; return 1; }
}

# -J, --json and --format=json give the same document.
t_json_spellings() {
	local mode=$1 a=$OUT/spell-$1-a.json b=$OUT/spell-$1-b.json c=$OUT/spell-$1-c.json
	local common=(layers --repeat=1 --warmup=0 --deferred-repeat=1 --ns=uts)
	st_run "$mode" "${common[@]}" -J -o "$a" && expect_rc 0 || return 1
	st_run "$mode" "${common[@]}" --json -o "$b" && expect_rc 0 || return 1
	st_run "$mode" "${common[@]}" --format=json -o "$c" && expect_rc 0 || return 1
	check shape "$a" "$c" && check shape "$b" "$c"
}

t_csv() {
	local mode=$1 file=$OUT/layers-$1.csv sets=base,uts,pid,net
	[ "$mode" = nobody ] && sets=base,user,uts,pid,net
	st_run "$mode" layers --format=csv --repeat=3 --warmup=1 --deferred-repeat=2 --ns=uts,pid,net -o "$file" || return 1
	expect_rc 0 && expect_clean || return 1
	check csv "$file" "$sets" 3
}

# -q: no report at all, the workload's output and status stay.
t_quiet() {
	st_run "$1" -q --repeat=0 -- sh -c 'echo out; exit 3' || return 1
	expect_rc 3 && expect_clean && expect_stdout out || return 1
	[ ! -s "$ST_ERR" ] || { echo "-q but stderr is not empty"; st_show; return 1; }
}

# --cpu=0: the report says it was pinned, to CPU 0.
t_pinned() {
	st_run "$1" -J --repeat=0 --cpu=0 -- true || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -c 'import json, sys; p = json.load(open(sys.argv[1]))["host"]["pinned_cpu"]; print("pinned_cpu:", p); sys.exit(p != 0)' "$ST_ERR"
}

each_mode "layers JSON: every key of sandboxtime/v1, stats consistent with samples" t_layers_json
each_mode "layers JSON: layers in the fixed order whatever --ns says" t_layers_order
each_mode "host.rootless and config.ns: rootless adds user unasked" t_rootless_fields

# The seeds' claim about the kernel: tearing a network namespace down takes
# longer after the reap than creating it. Reported, not asserted; what is
# asserted is that the report has both figures.
for mode in root nobody; do
	if ! can_run "$mode"; then
		skip "net set has deferred and setup medians [$mode]" "cannot run as $mode here"
		continue
	fi
	ok "net set has deferred and setup medians [$mode]" check claim "$OUT/layers-$mode.json"
	deferred= setup=
	if claim=$(check claim "$OUT/layers-$mode.json" 2>&1); then
		read -r deferred setup <<<"$claim"
	fi
	if [ -n "${setup:-}" ] && "$ST_PY" -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' "$deferred" "$setup" 2>/dev/null; then
		diag "[$mode] net: deferred median $deferred us > setup median $setup us, as claimed"
	else
		diag "[$mode] net: deferred median ${deferred:-?} us does NOT exceed setup median ${setup:-?} us (a claim about the kernel)"
	fi
	unset deferred setup
done

each_mode "run JSON (-- true): steps and workload" t_run_json 0 null 1 '["true"]' true
each_mode "run JSON: exit_code 7, signal null" t_run_json 7 null 1 '["sh","-c","exit 7"]' sh -c 'exit 7'
each_mode "run JSON: killed by SIGTERM: exit_code 143, signal 15" t_run_json 143 15 1 '["sh","-c","kill -TERM $$"]' sh -c 'kill -TERM $$'
each_mode "run JSON: wall_us covers the workload (sleep 0.3)" t_run_json 0 null 300000 '["sleep","0.3"]' sleep 0.3
each_mode "measured run JSON: layers, steps and workload" t_run_measured_json
each_mode "the workload owns stdout, the report goes to stderr" t_stdout_is_workloads
each_mode "-J, --json and --format=json give the same document" t_json_spellings
each_mode "CSV: a header with units, one row per layer set, plain numbers" t_csv
each_mode "-q: no report, the workload's output and status stay" t_quiet
each_mode "--cpu=0: host.pinned_cpu is 0" t_pinned
