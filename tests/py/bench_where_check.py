"""Checks the JSON of sandboxtime bench where (tests/integration/bench_where.sh).

bench_where_check.py FILE REPEAT VM_PLACE MUST...

Every place has every operation, once, in order, each with its unit; every
figure that stands is positive with REPEAT samples and none is refused (the
probe's counts and checksums matched); a place is unavailable only with a
reason. MUST: the places that have to be measured here; "unavailable:PLACE:TEXT":
PLACE must be unavailable, its reason containing TEXT.
"""
import json
import sys

OPS = ["call", "write_devnull", "getppid", "memset_64mib", "memcpy_64mib", "fork_100mb", "start"]
UNITS = ["ns", "ns", "ns", "us", "us", "us", "us"]


def main():
    d = json.load(open(sys.argv[1]))
    repeat, vm = int(sys.argv[2]), sys.argv[3]
    places = ["host", "sandbox", vm, "qemu-aarch64"]
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "where", d["bench"]
    assert d["config"]["repeat"] == repeat, d["config"]
    rows = d["rows"]
    assert [(r["place"], r["op"], r["unit"]) for r in rows] == \
        [(p, o, u) for p in places for o, u in zip(OPS, UNITS)], rows
    by = {(r["place"], r["op"]): r for r in rows}
    for r in rows:
        where = (r["place"], r["op"])
        if r["unavailable"] is not None:
            assert len(r["unavailable"]) > 10 and r["median"] is None, r
            continue
        assert r["refused"] is None, (where, r["refused"])
        s = r["per_op"]
        assert s["n"] == len(s["samples"]) == repeat, (where, s)
        assert all(x > 0 for x in s["samples"]), (where, s["samples"])
    for want in sys.argv[4:]:
        if want.startswith("unavailable:"):
            _, place, text = want.split(":", 2)
            why = by[(place, "call")]["unavailable"]
            assert why is not None and text in why, (place, text, why)
        else:
            assert by[(want, "call")]["unavailable"] is None, (want, by[(want, "call")])
    # the sandbox syscalls pass seccomp's filter: never cheaper than half the host's
    h, s = by[("host", "getppid")]["median"], by[("sandbox", "getppid")]["median"]
    if h and s:
        assert s > 0.5 * h, (h, s)
    # a microVM's boot to /init takes longer than a process's exec to main
    if by[(vm, "start")]["median"] and by[("host", "start")]["median"]:
        assert by[(vm, "start")]["median"] > 10 * by[("host", "start")]["median"], \
            (by[(vm, "start")], by[("host", "start")])
    assert len(d["notes"]) == 3 and d["notes"][0].startswith("On this machine"), d["notes"]


if __name__ == "__main__":
    main()
