"""Two checks of tests/integration/report_json.sh beside report_check.py.

report_layers.py rootless FILE MODE     host.rootless, and user in config.ns
report_layers.py measured FILE MODE     the layers of a measured run, 2 samples each
"""
import json, sys


def cmd_rootless():
    d = json.load(open(sys.argv[1])); nobody = sys.argv[2] == "nobody"
    ok = d["host"]["rootless"] is nobody and ("user" in d["config"]["ns"]) is nobody
    print("host.rootless:", d["host"]["rootless"], "config.ns:", d["config"]["ns"])
    sys.exit(0 if ok else 1)


def cmd_measured():
    d = json.load(open(sys.argv[1]))
    want = ["base"] + (["user"] if sys.argv[2] == "nobody" else []) + ["uts", "net"]
    got = [l["layer"] for l in d["layers"]]
    print("layers:", got, "expected", want)
    sys.exit(0 if got == want and all(l["setup_us"]["n"] == 2 for l in d["layers"]) else 1)


# The command is the first argument; the snippets' sys.argv[1:] are its arguments.
CMDS = {"rootless": cmd_rootless, "measured": cmd_measured}
CMDS[sys.argv.pop(1)]()
