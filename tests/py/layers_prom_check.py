"""layers_prom_check.py: `sandboxtime layers --format=prometheus` against the
same options' JSON, and the fleet configs (tests/integration/layers_prom.sh).

  metrics FILE.prom   the names follow the conventions (base unit seconds,
                      _seconds suffix, summaries with quantile 0.5 and 0.95,
                      _sum and _count), one `layer` label per set, base
                      first, every layer with an increment; the free time per
                      type below the clock's idea of an hour
  configs DIR         configs/kubernetes/cronjob-layers.yaml is an hourly
                      CronJob that runs layers --textfile= into the
                      textfile directory, one pod per node; configs/prometheus/layers-rules.yml
                      has its recording rules and the netns alert, every
                      expression naming metrics that FILE-like output has
"""
import re
import sys

import yaml

SAMPLE = re.compile(r'^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$')


def fail(msg):
    print("layers prom check failed:", msg)
    sys.exit(1)


def parse(path):
    types, samples = {}, []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
        elif line and not line.startswith("#"):
            m = SAMPLE.match(line)
            if not m:
                fail(f"bad sample line {line!r}")
            labels = dict(re.findall(r'([a-z_]+)="([^"]*)"', m[2] or ""))
            samples.append((m[1], labels, float(m[3])))
    return types, samples


def metrics(path):
    types, samples = parse(path)
    for name, kind in types.items():
        if not name.startswith("sandboxtime_"):
            fail(f"{name}: not in the sandboxtime_ namespace")
        if kind == "summary" and not name.endswith("_seconds"):
            fail(f"{name}: a summary of times without the _seconds suffix")
    for fam in ("sandboxtime_layer_setup_seconds", "sandboxtime_layer_teardown_seconds"):
        if types.get(fam) != "summary":
            fail(f"{fam} is not a summary")
        layers = [l["layer"] for n, l, _ in samples if n == fam and l.get("quantile") == "0.5"]
        if not layers or layers[0] != "base" or len(set(layers)) != len(layers):
            fail(f"{fam}: layers {layers}: base first, each once")
        for q in ("0.5", "0.95"):
            got = [l["layer"] for n, l, _ in samples if n == fam and l.get("quantile") == q]
            if got != layers:
                fail(f"{fam}: quantile {q} for {got}, not {layers}")
        for suffix in ("_sum", "_count"):
            got = [l["layer"] for n, l, _ in samples if n == fam + suffix]
            if got != layers:
                fail(f"{fam}{suffix} for {got}, not {layers}")
        p50 = {l["layer"]: v for n, l, v in samples if n == fam and l.get("quantile") == "0.5"}
        if not all(0 < v < 1 for v in p50.values()):
            fail(f"{fam}: a median outside (0, 1) s: {p50} (microseconds written as seconds?)")
        inc = [l["layer"] for n, l, _ in samples if n == fam.replace("layer_", "layer_incremental_")]
        if inc != layers[1:]:
            fail(f"incremental {fam}: {inc}, not {layers[1:]}")
    free = {l["type"]: v for n, l, v in samples
            if n == "sandboxtime_namespace_free_seconds" and l.get("quantile") == "0.5"}
    if not all(0 <= v < 3600 for v in free.values()):
        fail(f"free times {free}")
    print(" ".join(layers), "|", " ".join(sorted(free)))


def configs(top):
    with open(f"{top}/configs/kubernetes/cronjob-layers.yaml", encoding="utf-8") as f:
        cron = yaml.safe_load(f)
    if cron.get("kind") != "CronJob" or cron["apiVersion"] != "batch/v1":
        fail("cronjob-layers.yaml is not a batch/v1 CronJob")
    if not re.fullmatch(r"\d+ \* \* \* \*", cron["spec"]["schedule"]):
        fail(f"schedule {cron['spec']['schedule']!r} is not hourly")
    job = cron["spec"]["jobTemplate"]["spec"]
    pod = job["template"]["spec"]
    cmd = " ".join(pod["containers"][0]["command"])
    if "layers --textfile=/var/lib/node_exporter/textfile/" not in cmd:
        fail(f"the CronJob does not write layers' metrics to the textfile directory: {cmd}")
    anti = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
    if anti["topologyKey"] != "kubernetes.io/hostname" or job["parallelism"] != job["completions"]:
        fail("the Job does not put one pod on each node")
    with open(f"{top}/configs/prometheus/layers-rules.yml", encoding="utf-8") as f:
        rules = yaml.safe_load(f)
    names = {r.get("record") or r.get("alert"): r for g in rules["groups"] for r in g["rules"]}
    alert = names.get("SandboxtimeNetnsFreeSlow")
    if not alert or 'type="net"' not in alert["expr"] or "2 *" not in alert["expr"]:
        fail("no alert for a node whose netns free time doubles the fleet's median")
    for name, r in names.items():
        for metric in re.findall(r"\b(sandboxtime_[a-z_]+|[a-z]+:sandboxtime_[a-z_:]+)", r["expr"]):
            if ":" in metric and metric not in names:
                fail(f"{name}: uses {metric}, which no rule records")
    print(" ".join(sorted(names)))


if __name__ == "__main__":
    {"metrics": metrics, "configs": configs}[sys.argv[1]](*sys.argv[2:])
