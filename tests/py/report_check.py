"""Checks a sandboxtime report against docs/DESIGN.md and against the run that made it.

report_check.py layers FILE MODE NS REPEAT WARMUP DEFERRED VERSION
report_check.py run FILE MODE ARGV_JSON EXIT_CODE SIGNAL|null MIN_WALL_US VERSION
report_check.py shape FILE FILE
report_check.py csv FILE SETS REPEAT
report_check.py claim FILE
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
