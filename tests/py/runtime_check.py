"""runtime_check.py: the checks of tests/integration/runtime.sh and engines.sh
on what the OCI runtime wrote.

runtime_check.py hooks LOG REPORT     the hooks ran in order, each with the
                                      state on stdin, each a step of REPORT
runtime_check.py report REPORT        create, start, delete lines and steps
runtime_check.py summary-input FILE   writes report lines with known values
runtime_check.py summary OUT          `report --format=json` of those, against
                                      Python's statistics module
runtime_check.py engines REPORT       the lines of containers engines ran
"""
import json
import statistics
import sys


def check(cond, what):
    if not cond:
        sys.exit("runtime_check: %r" % (what,))


def hooks(log, report):
    lines = [l.split(" ", 1) for l in open(log).read().splitlines()]
    kinds = [k for k, _ in lines]
    check(kinds == ["prestart", "createRuntime", "poststart", "poststop"], kinds)
    for kind, state in lines:
        s = json.loads(state)
        check(s["id"] == "hooked" and s["ociVersion"] and s["bundle"], (kind, s))
        check(s["status"] in ("created", "running", "stopped"), (kind, s))
        if kind != "poststop":
            check(s["pid"] > 0, (kind, s))
    run = [json.loads(l) for l in open(report)]
    steps = [s["step"] for s in run[-1]["steps"]]
    for k in ("prestart", "create_runtime", "poststart", "poststop"):
        check("hook_%s_0" % k in steps, (k, steps))


def report(path):
    docs = [json.loads(l) for l in open(path)]
    check([d["op"] for d in docs] == ["create", "start", "delete"], docs)
    for d in docs:
        check(d["schema"] == "sandboxtime/runtime/v1" and d["id"] == "rep", d)
        check(abs(d["total_us"] - sum(s["us"] for s in d["steps"])) < 1e-6 and d["total_us"] > 0, d)
    steps = [s["step"] for s in docs[0]["steps"]]
    for want in ("clone", "pivot_root", "mount_apply", "caps_drop"):
        check(want in steps, (want, steps))
    check(docs[0]["security"]["from"] == "config", docs[0]["security"])
    check([s["step"] for s in docs[1]["steps"]] == ["exec_release"], docs[1])
    check("kill_wait" in [s["step"] for s in docs[2]["steps"]], docs[2])


CLONE = [5.0, 1.0, 7.0, 3.0, 2.0, 6.0, 4.0]
RMDIR = [9.0, 8.0, 30.0]


def summary_input(path):
    with open(path, "w") as f:
        for i, us in enumerate(CLONE):
            f.write(json.dumps({"schema": "sandboxtime/runtime/v1", "op": "create", "id": "c%d" % i, "bundle": "/b",
                                "time": 1.0, "steps": [{"step": "clone", "us": us}, {"step": "pivot_root", "us": 10 * us}],
                                "total_us": 11 * us}) + "\n")
        for us in RMDIR:
            f.write(json.dumps({"schema": "sandboxtime/runtime/v1", "op": "delete", "id": "d", "bundle": "/b", "time": 1.0,
                                "steps": [{"step": "cgroup_rmdir", "us": us}], "total_us": us}) + "\n")
        f.write("not a report line\n")


def summary(path):
    d = json.load(open(path))
    check(d["schema"] == "sandboxtime/runtime-report/v1" and d["operations"] == 10 and d["skipped_lines"] == 1, d)
    by = {(x["op"], x["step"]): x for x in d["figures"]}
    clone = by[("create", "clone")]
    check(clone["n"] == 7 and clone["median_us"] == statistics.median(CLONE), clone)
    # n = 7: P(B <= 0) = 1/128 <= 2.5% < P(B <= 1) = 8/128, so the interval is the extremes.
    check((clone["ci_low_us"], clone["ci_high_us"]) == (min(CLONE), max(CLONE)), clone)
    check(by[("create", "total")]["median_us"] == 11 * statistics.median(CLONE), by[("create", "total")])
    rm = by[("delete", "cgroup_rmdir")]
    check(rm["n"] == 3 and rm["median_us"] == statistics.median(RMDIR), rm)
    check(rm["ci_low_us"] is None and rm["ci_why"] == "n=3: 95% needs n >= 6", rm)


def engines(path):
    docs = [json.loads(l) for l in open(path)]
    ops = [d["op"] for d in docs]
    # podman deletes a --rm container from its cleanup process, which does not get --runtime-flag:
    # the deletes here are containerd's (its wrapper passes --report to every call).
    check(ops.count("create") >= 6 and ops.count("start") >= 6 and ops.count("delete") >= 2 and "exec" in ops, ops)
    for d in docs:
        check(d["schema"] == "sandboxtime/runtime/v1" and d["id"] and d["steps"], d)
        if d["op"] == "create":
            names = [s["step"] for s in d["steps"]]
            for want in ("clone", "pivot_root", "mount_apply", "caps_drop"):
                check(want in names, (want, names))
            check(d["security"]["from"] == "config", d["security"])
            # podman's bundles carry its seccomp profile; ctr's default spec has none: no filter.
            sc = d["security"]["seccomp"]
            check(sc is None or (sc["program"] == "compiled" and "seccomp_compile" in names and "seccomp_load" in names),
                  (sc, names))
    check(any(d["op"] == "create" and d["security"]["seccomp"] for d in docs), "no create with podman's profile")


CMDS = {"hooks": hooks, "report": report, "summary-input": summary_input, "summary": summary, "engines": engines}

if __name__ == "__main__":
    CMDS[sys.argv[1]](*sys.argv[2:])
