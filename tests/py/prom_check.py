"""prom_check.py FILE [METRIC...]: FILE is valid Prometheus text exposition (the
textfile of sandboxtime orphans, layers --format=prometheus) and has each METRIC;
tests/integration/orphans_watch.sh, layers_prom.sh.
"""
import re, sys
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(r"^(%s)(\{(?:%s(?:,%s)*)?\})? (\S+)$" % (NAME, LABEL, LABEL))
helps, types, seen, bad = {}, {}, set(), []
text = open(sys.argv[1]).read()
if not text.endswith("\n"):
    bad.append("no line feed at the end")
for n, line in enumerate(text.splitlines(), 1):
    if line.startswith("# HELP ") or line.startswith("# TYPE "):
        parts = line.split(" ", 3)
        if len(parts) < 4 or not re.fullmatch(NAME, parts[2]):
            bad.append("%d: bad comment %r" % (n, line)); continue
        table = helps if parts[1] == "HELP" else types
        if parts[2] in table:
            bad.append("%d: second %s for %s" % (n, parts[1], parts[2]))
        if parts[2] in seen:
            bad.append("%d: %s of %s after its samples" % (n, parts[1], parts[2]))
        table[parts[2]] = parts[3]
        continue
    if line.startswith("#") or not line:
        continue
    m = SAMPLE.match(line)
    if not m:
        bad.append("%d: not 'name{labels} value' nor 'name value': %r" % (n, line)); continue
    name = m.group(1)
    # A summary's or histogram's _sum, _count and _bucket belong to its family.
    for suffix in ("_sum", "_count", "_bucket"):
        base = name[:-len(suffix)]
        if name.endswith(suffix) and types.get(base) in ("summary", "histogram"):
            name = base
    try:
        float(m.group(3))
    except ValueError:
        bad.append("%d: value %r is not a number" % (n, m.group(3)))
    if name not in helps or name not in types:
        bad.append("%d: sample of %s before its HELP and TYPE" % (n, name))
    seen.add(name)
for name, t in types.items():
    if t not in ("gauge", "counter", "histogram", "summary", "untyped"):
        bad.append("%s: unknown TYPE %s" % (name, t))
    if t == "gauge" and name.endswith("_total"):
        bad.append("%s: a gauge named _total" % name)
    if name not in helps:
        bad.append("%s: TYPE without HELP" % name)
for name in helps:
    if name not in types:
        bad.append("%s: HELP without TYPE" % name)
for want in sys.argv[2:]:
    if want not in seen:
        bad.append("no sample of %s" % want)
if bad:
    sys.exit("\n".join(bad))
