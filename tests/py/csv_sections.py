"""Reads a run's CSV with Python's csv module and checks its sections against JSON.

csv_sections.py same CSV JSON   every field of every section against the JSON
                                of the same run (the golden pair: one fixture
                                written twice), numbers to the CSV's digits
csv_sections.py live CSV JSON   two runs with the same options: the same
                                sections and rows, and the fields no clock or
                                pid decides

A run's CSV is the layers table, then one section per run section, each after
a blank line: a header whose first field is "section", then rows whose first
field is the section's name (the JSON key). Prints one line per problem and
exits 1 if there is any.
"""
import csv, json, sys

problems = []


def need(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def read_sections(path):
    """The layers table, and {name: (header, [row dict])} for each section."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    blocks, cur = [], []
    for r in rows:
        if r:
            cur.append(r)
        elif cur:
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    sections = {}
    for b in blocks[1:]:
        header = b[0]
        need(header[0] == "section", f"a section's header starts with {header[0]!r}, not 'section'")
        need(len(set(header)) == len(header), f"{header}: a column twice")
        name = b[1][0] if len(b) > 1 else None
        if not need(name is not None, f"section with header {header}: no row"):
            continue
        need(name not in sections, f"section {name!r} twice")
        body = []
        for r in b[1:]:
            need(len(r) == len(header), f"{name}: {len(r)} fields for {len(header)} columns: {r}")
            need(r[0] == name, f"{name}: a row of section {r[0]!r} in it")
            body.append(dict(zip(header, r)))
        sections[name] = (header, body)
    return blocks[0] if blocks else [], sections


def stats(key, stat):
    return lambda row, doc: (row.get(key) or {}).get(stat)


def key(k):
    return lambda row, doc: row.get(k)


def group(g, k):
    return lambda row, doc: (row.get(g) or {}).get(k)


# Each section: where its rows are in the JSON, and each CSV column's value there.
STEPS = {"step": key("step"), "time_us": key("us"),
         "already_gone": lambda row, doc: row.get("already_gone", False)}
NETWORK = {c: key(c) for c in ("mode", "target", "interface", "address", "gateway", "host_interface",
                               "bridge", "bridge_joined", "simulated_host", "mtu", "address6",
                               "gateway6", "batch")}
NET_STEPS = {"step": key("step"), "rounds": lambda row, doc: doc["net_steps"]["repeat"],
             **{f"time_{s}_us": stats("us", s) for s in ("min", "median", "p95", "mean", "stddev")},
             "time_n": stats("us", "n")}
SECURITY = {**{c: key(c) for c in ("from", "capabilities", "capabilities_scope", "no_new_privs")},
            **{f"seccomp_{c}": group("seccomp", c)
               for c in ("profile", "rules", "instructions", "digest", "unknown_syscalls", "program")}}
CGROUP = {c: key(c) for c in ("mode", "paths", "born_into")}
WORKLOAD = {"argv": key("argv"), "exit_code": key("exit_code"), "signal": key("signal"),
            "wall_us": key("wall_us"), "user_us": key("user_us"), "sys_us": key("sys_us"),
            "max_rss_kb": key("max_rss_kb")}
SECTIONS = {
    "steps": (lambda doc: doc.get("steps") or [], STEPS),
    "network": (lambda doc: [doc["network"]] if "network" in doc else [], NETWORK),
    "net_steps": (lambda doc: doc["net_steps"]["steps"] if "net_steps" in doc else [], NET_STEPS),
    "security": (lambda doc: [doc["security"]] if "security" in doc else [], SECURITY),
    "cgroup": (lambda doc: [doc["cgroup"]] if "cgroup" in doc else [], CGROUP),
    "workload": (lambda doc: [doc["workload"]] if doc.get("workload") else [], WORKLOAD),
}
# What two runs with the same options share: no time, no pid-made name.
STABLE = {
    "steps": {"step"},
    "network": {"mode", "target", "interface", "bridge_joined", "simulated_host", "mtu", "batch"},
    "net_steps": {"step", "rounds", "time_n"},
    "security": set(SECURITY),
    "cgroup": {"mode"},
    "workload": {"argv", "exit_code", "signal"},
}


def same_value(text, v, col):
    """Whether the CSV field @text says JSON value @v."""
    if v is None:
        return text == ""
    if isinstance(v, bool):
        return text == ("1" if v else "0")
    if isinstance(v, list):
        if col == "argv":  # CMD's words as a JSON array: a word may hold any character
            return json.loads(text) == v
        return text == ";".join(v)
    if isinstance(v, int):
        return text == str(v)
    if isinstance(v, float):
        digits = len(text.split(".")[1]) if "." in text else 0
        try:
            return abs(float(text) - v) <= 0.5 * 10 ** -digits + 1e-9
        except ValueError:
            return False
    return text == v


def check(csv_path, json_path, only_stable):
    _, sections = read_sections(csv_path)
    doc = json.load(open(json_path))
    want = [s for s, (rows, _) in SECTIONS.items() if rows(doc)]
    need(sorted(sections) == sorted(want), f"sections {sorted(sections)}, the JSON has {sorted(want)}")
    for name, (header, body) in sections.items():
        if name not in SECTIONS:
            continue
        rows, cols = SECTIONS[name]
        need(header[1:] == list(cols), f"{name}: columns {header[1:]}, expected {list(cols)}")
        jrows = rows(doc)
        need(len(body) == len(jrows), f"{name}: {len(body)} rows, the JSON has {len(jrows)}")
        for i, (crow, jrow) in enumerate(zip(body, jrows)):
            for col, get in cols.items():
                if col not in crow or (only_stable and col not in STABLE[name]):
                    continue
                v = get(jrow, doc)
                need(same_value(crow[col], v, col), f"{name}[{i}].{col}: CSV {crow[col]!r}, JSON {v!r}")


modes = {"same": False, "live": True}
try:
    check(sys.argv[2], sys.argv[3], modes[sys.argv[1]])
except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
    problems.append(f"cannot check: {e!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
