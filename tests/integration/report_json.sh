#!/usr/bin/env bash
# The reports: JSON (schema "sandboxtime/v1" of DESIGN.md) parsed back with
# python3 and checked key by key against the run that made it; CSV; where the
# report goes. As root and as nobody.
source "$(dirname "$0")/../lib.sh" "$1"

plan 28

VERSION=$("$ST_BIN" --version | awk '{ print $NF }')
CHECK=$ST_TMP/check-report.py
cat >"$CHECK" <<'PY'
"""Checks a sandboxtime report against DESIGN.md and against the run that made it.

check-report.py layers FILE MODE NS REPEAT WARMUP DEFERRED VERSION
check-report.py run FILE MODE ARGV_JSON EXIT_CODE SIGNAL|null MIN_WALL_US VERSION
check-report.py shape FILE FILE
check-report.py csv FILE SETS REPEAT
check-report.py claim FILE
Prints one line per problem and exits 1 if there is any.
"""
import json, math, os, pwd, re, statistics, sys

ORDER = ["user", "uts", "ipc", "pid", "mount", "cgroup", "time", "net"]
FLAG = {"user": "CLONE_NEWUSER", "uts": "CLONE_NEWUTS", "ipc": "CLONE_NEWIPC",
        "pid": "CLONE_NEWPID", "mount": "CLONE_NEWNS", "cgroup": "CLONE_NEWCGROUP",
        "time": "CLONE_NEWTIME", "net": "CLONE_NEWNET"}
STATS_KEYS = {"min", "median", "p95", "mean", "stddev", "n", "samples"}
problems = []


def need(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def close(a, b):
    return abs(a - b) <= 1e-3 + 1e-6 * abs(b)


def expected_layers(mode, asked):
    """The layers a run has: the asked ones, plus user when rootless, in the fixed order."""
    want = set(asked)
    if mode == "nobody":
        want.add("user")
    return [l for l in ORDER if l in want]


def check_stats(where, s, n):
    if not need(isinstance(s, dict), f"{where}: not a stats object: {s!r}"):
        return
    need(STATS_KEYS <= set(s), f"{where}: missing keys {sorted(STATS_KEYS - set(s))}")
    if not STATS_KEYS <= set(s):
        return
    samples = s["samples"]
    if not need(isinstance(samples, list) and all(is_num(x) for x in samples),
                f"{where}.samples: not a list of numbers"):
        return
    need(s["n"] == len(samples), f"{where}: n={s['n']} but {len(samples)} samples")
    need(s["n"] == n, f"{where}: n={s['n']}, asked for {n}")
    for k in ("min", "median", "p95", "mean", "stddev"):
        need(is_num(s[k]), f"{where}.{k}: not a number: {s[k]!r}")
    if not samples or not all(is_num(s[k]) for k in ("min", "median", "p95", "mean", "stddev")):
        return
    need(all(x > 0 for x in samples), f"{where}: a sample is not positive: {samples}")
    for k in ("min", "median", "p95", "mean"):
        need(s[k] > 0, f"{where}.{k} is not positive: {s[k]}")
    need(s["stddev"] >= 0, f"{where}.stddev is negative: {s['stddev']}")
    need(s["min"] <= s["median"] <= s["p95"] <= max(samples),
         f"{where}: not min <= median <= p95 <= max: {s['min']} {s['median']} {s['p95']} {max(samples)}")
    # The figures are those of the samples.
    need(close(s["min"], min(samples)), f"{where}.min {s['min']} != min(samples) {min(samples)}")
    need(close(s["median"], statistics.median(samples)),
         f"{where}.median {s['median']} != median(samples) {statistics.median(samples)}")
    need(close(s["mean"], statistics.fmean(samples)),
         f"{where}.mean {s['mean']} != mean(samples) {statistics.fmean(samples)}")
    if len(samples) > 1:
        need(close(s["stddev"], statistics.stdev(samples)),
             f"{where}.stddev {s['stddev']} != stdev(samples) {statistics.stdev(samples)}")


def check_common(d, mode, version):
    need(d.get("schema") == "sandboxtime/v1", f"schema: {d.get('schema')!r}")
    tool = d.get("tool") or {}
    need(tool.get("name") == "sandboxtime", f"tool.name: {tool.get('name')!r}")
    need(tool.get("version") == version, f"tool.version: {tool.get('version')!r}, --version says {version}")
    host = d.get("host")
    if not need(isinstance(host, dict), "host: missing"):
        return
    for k in ("kernel", "cpus", "cpu_model", "rootless", "uid", "pinned_cpu", "rcu_expedited", "cgroup"):
        need(k in host, f"host.{k}: missing")
    need(host.get("kernel") == os.uname().release, f"host.kernel {host.get('kernel')!r} != {os.uname().release!r}")
    need(host.get("cpus") == os.sysconf("SC_NPROCESSORS_ONLN"), f"host.cpus {host.get('cpus')!r}")
    need(isinstance(host.get("cpu_model"), str), f"host.cpu_model: {host.get('cpu_model')!r}")
    need(host.get("rootless") is (mode == "nobody"), f"host.rootless: {host.get('rootless')!r} as {mode}")
    uid = pwd.getpwnam("nobody").pw_uid if mode == "nobody" else os.getuid()
    need(host.get("uid") == uid, f"host.uid: {host.get('uid')!r}, ran as {uid}")
    try:
        rcu = int(open("/sys/kernel/rcu_expedited").read())
    except OSError:
        rcu = None
    need(host.get("rcu_expedited") == rcu, f"host.rcu_expedited: {host.get('rcu_expedited')!r}, /sys says {rcu!r}")
    need(host.get("cgroup") in ("v1", "v2", "hybrid", "none"), f"host.cgroup: {host.get('cgroup')!r}")
    need(host.get("clone") == "clone3", f"host.clone: {host.get('clone')!r} on a kernel with clone3")
    need(isinstance(d.get("errors"), list), "errors: not a list")


def cmd_layers(path, mode, ns, repeat, warmup, deferred, version):
    d = json.load(open(path))
    repeat, warmup, deferred = int(repeat), int(warmup), int(deferred)
    check_common(d, mode, version)
    need(d["host"].get("pinned_cpu", 0) is None, f"host.pinned_cpu: {d['host'].get('pinned_cpu')!r} without --cpu")
    layers = expected_layers(mode, ns.split(","))
    cfg = d.get("config") or {}
    need(cfg.get("ns") == layers, f"config.ns: {cfg.get('ns')!r}, expected {layers}")
    need(cfg.get("net") == "none", f"config.net: {cfg.get('net')!r}")
    need(cfg.get("repeat") == repeat, f"config.repeat: {cfg.get('repeat')!r}")
    need(cfg.get("warmup") == warmup, f"config.warmup: {cfg.get('warmup')!r}")
    need("workload" not in d, "layers: the document has a workload")
    got = [l.get("layer") for l in d.get("layers", [])]
    if not need(got == ["base"] + layers, f"layers: {got}, expected {['base'] + layers}"):
        return
    medians = {}
    for i, l in enumerate(d["layers"]):
        name = l["layer"]
        flags = ["SIGCHLD"] + [FLAG[x] for x in layers[:i]]
        need(l.get("flags") == flags, f"{name}.flags: {l.get('flags')!r}, expected {flags}")
        for fig in ("setup_us", "ready_us", "teardown_us"):
            check_stats(f"{name}.{fig}", l.get(fig), repeat)
        if name == "base":
            need("deferred_us" in l and l["deferred_us"] is None, f"base.deferred_us: {l.get('deferred_us', 'missing')!r}")
        else:
            check_stats(f"{name}.deferred_us", l.get("deferred_us"), deferred)
        # ready runs from clone() until the child runs: never less than setup.
        try:
            for k, (s, r) in enumerate(zip(l["setup_us"]["samples"], l["ready_us"]["samples"])):
                need(r >= s, f"{name}: sample {k}: ready {r} < setup {s}")
        except (KeyError, TypeError):
            pass
        inc = l.get("incremental")
        if not need(isinstance(inc, dict), f"{name}.incremental: {inc!r}"):
            continue
        for fig in ("setup_us", "teardown_us", "deferred_us"):
            need(fig in inc, f"{name}.incremental.{fig}: missing")
        try:
            cur = {f: l[f]["median"] for f in ("setup_us", "teardown_us")}
            prev = medians.get(i - 1)
            for f, v in cur.items():
                want = v - prev[f] if prev else v
                need(is_num(inc.get(f)) and close(inc[f], want),
                     f"{name}.incremental.{f}: {inc.get(f)!r}, medians give {want}")
            medians[i] = cur
        except (KeyError, TypeError):
            pass
        if name == "base":
            need(inc.get("deferred_us", 0) is None, f"base.incremental.deferred_us: {inc.get('deferred_us')!r}")


def cmd_run(path, mode, argv, exit_code, signal, min_wall, version):
    d = json.load(open(path))
    check_common(d, mode, version)
    steps = d.get("steps")
    if need(isinstance(steps, list) and steps, f"steps: {steps!r}"):
        for s in steps:
            need(isinstance(s, dict) and isinstance(s.get("step"), str) and is_num(s.get("us")) and s["us"] >= 0,
                 f"steps: bad entry {s!r}")
        names = [s.get("step") for s in steps if isinstance(s, dict)]
        want = ["clone", "sethostname", "lo_up"] + (["setgroups", "uid_map", "gid_map"] if mode == "nobody" else [])
        for w in want:
            need(w in names, f"steps: no {w!r} in {names}")
    w = d.get("workload")
    if not need(isinstance(w, dict), f"workload: {w!r}"):
        return
    for k in ("argv", "exit_code", "signal", "wall_us", "user_us", "sys_us", "max_rss_kb"):
        need(k in w, f"workload.{k}: missing")
    need(w.get("argv") == json.loads(argv), f"workload.argv: {w.get('argv')!r}, ran {argv}")
    need(w.get("exit_code") == int(exit_code), f"workload.exit_code: {w.get('exit_code')!r}, sandboxtime exited {exit_code}")
    sig = None if signal == "null" else int(signal)
    need(w.get("signal") == sig, f"workload.signal: {w.get('signal')!r}, expected {sig!r}")
    need(is_num(w.get("wall_us")) and float(min_wall) <= w["wall_us"] < 30e6,
         f"workload.wall_us: {w.get('wall_us')!r}, expected at least {min_wall}")
    for k in ("user_us", "sys_us"):
        need(is_num(w.get(k)) and w[k] >= 0, f"workload.{k}: {w.get(k)!r}")
    need(isinstance(w.get("max_rss_kb"), int) and w["max_rss_kb"] > 0, f"workload.max_rss_kb: {w.get('max_rss_kb')!r}")


def shape(v):
    """The structure of a document: keys and types, not the measured values."""
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape(x) for x in v] if v and not is_num(v[0]) else ["numbers"]
    return "number" if is_num(v) else type(v).__name__


def cmd_shape(a, b):
    da, db = json.load(open(a)), json.load(open(b))
    need(shape(da) == shape(db), f"the two documents differ in structure:\n{json.dumps(shape(da))}\n{json.dumps(shape(db))}")


def cmd_csv(path, sets, repeat):
    lines = open(path).read().splitlines()
    sets = sets.split(",")
    if not need(len(lines) == 1 + len(sets), f"{len(lines)} lines, expected a header and {len(sets)} rows"):
        return
    header = lines[0].split(",")
    need(len(set(header)) == len(header), "duplicate column names")
    need(header[0] == "layer", f"first column: {header[0]!r}")
    for col in ("setup_median_us", "ready_median_us", "teardown_median_us", "deferred_median_us"):
        need(col in header, f"no column {col}")
    for h in header:
        need(re.fullmatch(r"[a-z][a-z0-9_]*", h) is not None, f"column name {h!r}")
        # available (0/1) and reason (why a layer is unavailable) carry no unit.
        need(h in ("layer", "alone", "available", "reason") or h.endswith("_us") or h.endswith("_n"),
             f"column {h!r} has no unit in its name")
    for row, want in zip(lines[1:], sets):
        cells = row.split(",")
        if not need(len(cells) == len(header), f"row {row!r}: {len(cells)} cells for {len(header)} columns"):
            continue
        need(cells[0] == want, f"row for {cells[0]!r}, expected {want!r}")
        for h, c in zip(header[1:], cells[1:]):
            need(c == "" or re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", c) is not None,
                 f"{want}.{h}: {c!r} is not a plain number")
        rec = dict(zip(header, cells))
        need(rec.get("available") == "1" and rec.get("reason") == "",
             f"{want}: measured, yet available={rec.get('available')!r} reason={rec.get('reason')!r}")
        need(rec.get("setup_n") == str(repeat), f"{want}.setup_n: {rec.get('setup_n')!r}, asked {repeat}")
        try:
            need(float(rec["setup_median_us"]) > 0, f"{want}.setup_median_us: {rec['setup_median_us']}")
        except (KeyError, ValueError):
            need(False, f"{want}.setup_median_us: {rec.get('setup_median_us')!r}")


def cmd_claim(path):
    """Prints the net set's deferred and setup medians, or fails if they are missing."""
    d = json.load(open(path))
    for l in d.get("layers", []):
        if l.get("layer") == "net":
            try:
                print(l["deferred_us"]["median"], l["setup_us"]["median"])
                return
            except (KeyError, TypeError):
                break
    need(False, "no deferred_us and setup_us medians for the net set")


cmds = {"layers": cmd_layers, "run": cmd_run, "shape": cmd_shape, "csv": cmd_csv, "claim": cmd_claim}
try:
    cmds[sys.argv[1]](*sys.argv[2:])
except (OSError, ValueError) as e:
    problems.append(f"cannot read the report: {e}")
except (KeyError, TypeError, AttributeError, IndexError) as e:
    problems.append(f"the report lacks what the check needs: {e!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY

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
	"$ST_PY" - "$file" "$mode" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); nobody = sys.argv[2] == "nobody"
ok = d["host"]["rootless"] is nobody and ("user" in d["config"]["ns"]) is nobody
print("host.rootless:", d["host"]["rootless"], "config.ns:", d["config"]["ns"])
sys.exit(0 if ok else 1)
PY
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
	"$ST_PY" - "$file" "$mode" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = ["base"] + (["user"] if sys.argv[2] == "nobody" else []) + ["uts", "net"]
got = [l["layer"] for l in d["layers"]]
print("layers:", got, "expected", want)
sys.exit(0 if got == want and all(l["setup_us"]["n"] == 2 for l in d["layers"]) else 1)
PY
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
