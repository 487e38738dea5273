"""net_steps_check.py FILE MODE N: the net_steps object of the report in FILE
(tests/integration/net_steps.sh).
"""
import json, sys
d = json.load(open(sys.argv[1])); mode = sys.argv[2]; n = int(sys.argv[3])
ns = d["net_steps"]
assert ns["repeat"] == n, ns["repeat"]
steps = {s["step"]: s for s in ns["steps"]}
want = {"veth_create", "host_link_up", "veth_delete"}
want |= {"bridge_create", "bridge_addr_add", "bridge_up", "bridge_attach", "bridge_delete"} if mode == "bridge" else {"host_addr_add"}
assert want <= set(steps), sorted(steps)
for name, s in steps.items():
    assert s["us"]["n"] == n == len(s["us"]["samples"]), (name, s["us"]["n"])
    assert all(x > 0 for x in s["us"]["samples"]), (name, s["us"]["samples"])
    assert s["median_us"] == s["us"]["median"]
# Deleting a veth waits for the kernel (RTNL, an RCU grace period): far slower than creating one.
assert steps["veth_delete"]["median_us"] > steps["veth_create"]["median_us"], (steps["veth_delete"]["median_us"], steps["veth_create"]["median_us"])
