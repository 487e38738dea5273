"""Checks the JSON of sandboxtime bench (tests/integration/bench.sh).

bench_check.py syscall FILE
bench_check.py cpu FILE
"""
import json
import statistics, sys


def cmd_syscall():
    d = json.load(open(sys.argv[1]))
    assert d["schema"] == "sandboxtime/bench/v1", d["schema"]
    assert d["bench"] == "syscall"
    rows = d["rows"]
    wheres = {r["where"] for r in rows}
    want = {"host", "sandbox", "seccomp:default", "seccomp:10", "seccomp:100", "seccomp:300"}
    assert wheres == want, wheres
    assert {r["op"] for r in rows} == {"getppid", "write_devnull"}
    for r in rows:
        s = r["us"]
        assert s["n"] == len(s["samples"]) == d["config"]["repeat"], (r["where"], s["n"])
        # a syscall takes more than 10 ns and less than 100 us, even on a busy VM
        assert all(1e-2 < x < 100 for x in s["samples"]), (r["where"], s["samples"])
        # the median and the cost over the host, recomputed from the samples
        # by Python's statistics module; to the 9 significant digits the JSON
        # keeps (a loaded machine's 10 us medians round at 1e-8)
        assert abs(r["median_us"] - statistics.median(s["samples"])) <= 1e-8 * max(1.0, r["median_us"]), r
    host = {r["op"]: statistics.median(r["us"]["samples"]) for r in rows if r["where"] == "host"}
    for r in rows:
        want = statistics.median(r["us"]["samples"]) - host[r["op"]]
        tol = 1e-8 * max(1.0, abs(r["median_us"]), abs(host[r["op"]]))
        assert abs(r["over_host_us"] - want) < tol, (r["where"], r["over_host_us"], want)
    assert d["notes"], "notes say what the numbers do not show"


def cmd_cpu():
    d = json.load(open(sys.argv[1]))
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "cpu", d["bench"]
    rows = d["rows"]
    assert {(r["op"], r["where"]) for r in rows} == {(o, w) for o in ("cpu_loop", "memcpy_64mib")
        for w in ("host", "sandbox", "seccomp:default", "seccomp:spec_allow")}, rows
    ssb = {r["where"]: r["speculation_store_bypass"] for r in rows}
    # SPEC_ALLOW leaves the task as a fresh child of the host is, and so do namespaces.
    assert ssb["seccomp:spec_allow"] == ssb["host"] == ssb["sandbox"] != "unknown", ssb
    for r in rows:
        assert r["us"]["n"] == d["config"]["repeat"]
        # 2^22 steps or one 64 MiB copy: more than 0.5 ms, less than 10 s
        assert all(500 < x < 1e7 for x in r["us"]["samples"]), (r["where"], r["us"]["samples"])
        if r["op"] == "memcpy_64mib":
            # GB/s from the samples' median (statistics), 64 MiB per copy
            gbps = 64 * 2**20 / (statistics.median(r["us"]["samples"]) * 1e3)
            assert r["checksum_ok"] and abs(r["median_gbps"] - gbps) < 1e-6 * max(1.0, gbps), r


# The command is the first argument; the snippets' sys.argv[1:] are its arguments.
CMDS = {"syscall": cmd_syscall, "cpu": cmd_cpu}
CMDS[sys.argv.pop(1)]()
