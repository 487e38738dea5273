"""reference_check.py: sandboxtime's figures against references that share no
code with it (tests/integration/references.sh). Each pair is measured on the
same machine back to back, while other suites may run; so the bounds are
wide, because the point is agreement in kind and unit, not a speed target: a
figure in the wrong unit is off by 8 (bytes for bits), 1,000 or 1,000,000.
Layer timings compare minima, which other work on the machine moves least.

reference_check.py sets LAYERS.json
    the clone flag sets of the report's available layers, as clone_loop takes them
reference_check.py layers LAYERS.json CLONE_LOOP.jsonl
    every set's setup median against clone_loop's for the same clone flags
reference_check.py prom LAYERS.prom CLONE_LOOP.jsonl WALL_S
    the Prometheus figures are seconds: the base setup median against
    clone_loop's in us (within 20x), no clone faster than a microsecond, and
    all the setup and teardown time summed within the run's wall time WALL_S
reference_check.py netbench NETBENCH.json IPERF3.json
    netbench's host-path throughput against iperf3's over loopback, both
    pinned to two CPUs (within 3x: pinned, five runs read 0.77-1.23; a
    figure in bytes instead of bits reads 1/8)
"""
import json
import re
import sys

RATIO = 4.0
FLAG_NAMES = {"CLONE_NEWUSER": "user", "CLONE_NEWUTS": "uts", "CLONE_NEWIPC": "ipc",
              "CLONE_NEWPID": "pid", "CLONE_NEWNS": "mount", "CLONE_NEWCGROUP": "cgroup",
              "CLONE_NEWTIME": "time", "CLONE_NEWNET": "net"}


class Mismatch(Exception):
    pass


def agree(what, ours, ref, ratio=RATIO):
    if not (ours > 0 and ref > 0):
        raise Mismatch(f"{what}: sandboxtime {ours}, reference {ref}: both must be positive")
    r = ours / ref
    print(f"# {what}: sandboxtime {ours:.6g}, reference {ref:.6g}, ratio {r:.2f}")
    if not 1 / ratio <= r <= ratio:
        raise Mismatch(f"{what}: ratio {r:.3g} is outside [1/{ratio:g}, {ratio:g}]")


def clone_loop_sets(path):
    """{flags "uts,ipc" or "none": clone_loop's record} from its JSON lines."""
    sets = {}
    for line in open(path):
        if line.strip():
            rec = json.loads(line)
            sets[rec["flags"]] = rec
    return sets


def set_name(flags):
    names = [FLAG_NAMES[f] for f in flags if f in FLAG_NAMES]
    return ",".join(names) if names else "none"


def cmd_layers(report, loop):
    d = json.load(open(report))
    sets = clone_loop_sets(loop)
    seen = 0
    for layer in d["layers"]:
        if not layer["available"]:
            continue
        name = set_name(layer["flags"])
        if name not in sets:
            raise Mismatch(f"layer {layer['layer']}: clone_loop measured no set {name} ({sorted(sets)})")
        agree(f"setup of {layer['layer']} ({name}), min us", layer["setup_us"]["min"],
              sets[name]["setup_us"]["min"])
        seen += 1
    if seen < 2:
        raise Mismatch(f"{seen} set(s) compared: expected the base and at least one layer")


def cmd_sets(report):
    d = json.load(open(report))
    print(" ".join(set_name(l["flags"]) for l in d["layers"] if l["available"]))


def cmd_prom(prom, loop, wall_s):
    text = open(prom).read()
    m = re.search(r'^sandboxtime_layer_setup_seconds\{layer="base",quantile="0.5"\} (\S+)$', text, re.M)
    if not m:
        raise Mismatch("no base setup median in the Prometheus text")
    median_s = float(m.group(1))
    agree("base setup median, Prometheus seconds x 1e6 against clone_loop us",
          median_s * 1e6, clone_loop_sets(loop)["none"]["setup_us"]["median"], ratio=20.0)
    if median_s < 1e-6:
        raise Mismatch(f"a clone in {median_s} s: under a microsecond, not seconds")
    sums = re.findall(r'^sandboxtime_layer_(?:setup|teardown)_seconds_sum\{[^}]*\} (\S+)$', text, re.M)
    total = sum(float(v) for v in sums)
    print(f"# {len(sums)} setup and teardown sums: {total:.6g} s in a run of {float(wall_s):.3g} s")
    if not sums or total > float(wall_s):
        raise Mismatch(f"setup and teardown sum to {total} s, more than the run's {wall_s} s wall time")


def cmd_netbench(report, iperf):
    d = json.load(open(report))
    host = [p for p in d["paths"] if p["path"] == "host"]
    if len(host) != 1:
        raise Mismatch(f"no single host path in {[p['path'] for p in d['paths']]}")
    bps = json.load(open(iperf))["end"]["sum_received"]["bits_per_second"]
    agree("host-path throughput, Gbit/s (iperf3 over loopback)", host[0]["throughput_gbps"]["median"],
          bps / 1e9, ratio=3.0)


def main():
    cmds = {"sets": cmd_sets, "layers": cmd_layers, "prom": cmd_prom, "netbench": cmd_netbench}
    try:
        cmds[sys.argv[1]](*sys.argv[2:])
    except Mismatch as e:
        print(e)
        sys.exit(1)


if __name__ == "__main__":
    main()
