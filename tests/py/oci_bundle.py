"""The busybox bundle of tests/integration/oci_bundle.sh, from the stock
`runc spec` configs in configs/oci/.

oci_bundle.py config FIXTURE DST UID GID SCRIPT [PYTHON]
    DST: FIXTURE with terminal false, args `sh -c SCRIPT`, the id mappings
    (if any) on UID and GID, as `runc spec --rootless` run by that user
    writes them, then edited by PYTHON (c is the dict)
oci_bundle.py check FIXTURE OUT WANT...
    asserts on OUT, what SCRIPT printed in the sandbox ("mi" lines are
    /proc/self/mountinfo, "fact K=V" lines the rest): every mount of
    FIXTURE is there with its type and options, every masked and read-only
    path the host has is a mount point (read-only ones "ro"), and each
    WANT K=V is a fact
oci_bundle.py steps REPORT STEP...
    every STEP is a step of the JSON report REPORT
"""
import json
import os
import sys


def cmd_config():
    fixture, dst, uid, gid, script = sys.argv[1:6]
    c = json.load(open(fixture))
    c["process"]["terminal"] = False
    c["process"]["args"] = ["sh", "-c", script]
    for key, host in (("uidMappings", uid), ("gidMappings", gid)):
        for m in c["linux"].get(key, []):
            m["hostID"] = int(host)
    if len(sys.argv) > 6:
        g = dict(globals(), c=c)
        exec(sys.argv[6], g)
        c = g["c"]
    json.dump(c, open(dst, "w"), indent=1)


def mountinfo(lines):
    """{mount point: (fs type, per-mount options, superblock options, source)}, the last one wins."""
    out = {}
    for line in lines:
        left, right = line.split(" - ", 1)
        f = left.split()
        r = right.split()
        out[f[4]] = (r[0], set(f[5].split(",")), set(r[2].split(",")), r[1])
    return out


# Options that are flags of the mount (mountinfo field 6), the rest are the filesystem's.
PER_MOUNT = {"ro", "nosuid", "nodev", "noexec", "relatime", "strictatime", "noatime"}


def check_mount(m, mi):
    dest, opts = m["destination"], set(m.get("options", []))
    assert dest in mi, "%s is not mounted: %s" % (dest, sorted(mi))
    fstype, flags, fsopts, source = mi[dest]
    want = m["type"]
    if "rbind" in opts or "bind" in opts:
        want = None     # a bind shows the source's type
    elif want in ("cgroup", "cgroup2"):
        want = None     # the host's tree, bound (see the man page)
    assert want is None or fstype == want, (dest, fstype, want)
    assert want is None or source == m.get("source", want), (dest, source, m.get("source"))
    for o in opts & PER_MOUNT - {"relatime", "strictatime"}:
        assert o in flags, (dest, o, flags)
    if "ro" not in opts:
        assert "rw" in flags, (dest, flags)
    for o in opts - PER_MOUNT - {"rbind", "bind", "newinstance", "rprivate"}:
        k, _, v = o.partition("=")
        if k == "size" or (k == "mode" and v.lstrip("0") == "1777"):
            continue    # shown in the kernel's own unit; tmpfs's default mode not shown
        shown = {x.partition("=")[0]: x.partition("=")[2] for x in fsopts}
        assert k in shown, (dest, o, fsopts)
        assert v == "" or shown[k].lstrip("0") == v.lstrip("0"), (dest, o, fsopts)


def check_paths(c, mi, facts):
    """Each masked or read-only path the host has is a mount point inside, as it should be."""
    for p in c["linux"].get("maskedPaths", []):
        if os.path.exists(p):
            assert p in mi, "masked %s is not a mount point" % p
    for p in c["linux"].get("readonlyPaths", []):
        if os.path.exists(p):
            assert p in mi and "ro" in mi[p][1], "read-only %s: %s" % (p, mi.get(p))
    # What the sandbox read from them (see FACTS): every masked one read empty.
    assert facts.get("masked_unmasked") == "", facts.get("masked_unmasked")


def cmd_check():
    fixture, out = sys.argv[1:3]
    c = json.load(open(fixture))
    lines = open(out).read().splitlines()
    mi = mountinfo(x[3:] for x in lines if x.startswith("mi "))
    facts = dict(x[5:].partition("=")[::2] for x in lines if x.startswith("fact "))
    for m in c["mounts"]:
        check_mount(m, mi)
    check_paths(c, mi, facts)
    for w in sys.argv[3:]:
        k, _, v = w.partition("=")
        assert facts.get(k) == v, "%s: want %r, got %r (facts: %s)" % (k, v, facts.get(k), facts)


def cmd_steps():
    steps = [s["step"] for s in json.load(open(sys.argv[1]))["steps"]]
    missing = [w for w in sys.argv[2:] if w not in steps]
    assert not missing, "steps %s missing from %s" % (missing, steps)


# The command is the first argument; the snippets' sys.argv[1:] are its arguments.
CMDS = {"config": cmd_config, "check": cmd_check, "steps": cmd_steps}
CMDS[sys.argv.pop(1)]()
