"""Checks the JSON of sandboxtime netbench (tests/integration/netbench.sh).

netbench_check.py json FILE MODE
netbench_check.py options FILE PINNED
netbench_check.py one_cpu FILE
"""
import json, sys


def cmd_json():
    d = json.load(open(sys.argv[1]))
    assert d["schema"] == "sandboxtime/netbench/v1", d["schema"]
    assert d["host"]["rootless"] == (sys.argv[2] == "nobody"), d["host"]
    paths = {p["path"]: p for p in d["paths"]}
    assert sorted(paths) == ["bridge", "host", "veth"], list(paths)
    for name, p in paths.items():
        assert p["bytes_sent"] > 0, (name, p)
        assert p["throughput_gbps"]["n"] == 1 and p["throughput_gbps"]["median"] > 0, p
        lat = p["latency_us"]
        for k in ("p50", "p99", "mean", "n"):
            assert lat[k] > 0, (name, k, lat)
        assert lat["p99"] >= lat["p50"], lat
        assert isinstance(p["retransmits"], int), p
        assert 0 <= p["retransmits_dsacked"] <= p["retransmits"], p
        assert isinstance(p["reordering_seen"], int), p
        assert p["transactions_per_s"] > 0, p
        share = p["same_cpu_share"]
        assert share["n"] == 1 and 0 <= share["min"] <= share["max"] <= 1, (name, share)
    assert paths["host"]["mtu"] == 65536, paths["host"]["mtu"]
    assert paths["veth"]["mtu"] == 1500 and paths["bridge"]["mtu"] == 1500
    r = d["ratios"]
    for k in ("throughput_host_over_veth", "throughput_host_over_bridge",
              "latency_veth_over_host", "latency_bridge_over_host"):
        assert isinstance(r[k], float) and r[k] > 0, (k, r)
    assert len(d["notes"]) >= 4, d["notes"]
    # Unpinned, the notes say how much of each stream both ends shared a CPU.
    assert any(n.startswith("Both ends on one CPU") and "veth" in n for n in d["notes"]), d["notes"]


def cmd_options():
    d = json.load(open(sys.argv[1]))
    pinned = sys.argv[2] == "1"
    c = d["config"]
    assert c["streams"] == 3 and c["busy_poll"] is True and c["udp"] == "stream", c
    cp = c["cpu_placement"]
    assert cp["cpu_pin"] is pinned, cp
    if pinned:
        assert isinstance(cp["server_cpu"], int) and isinstance(cp["client_cpu"], int), cp
        assert cp["server_cpu"] != cp["client_cpu"], cp
    paths = {p["path"]: p for p in d["paths"]}
    assert sorted(paths) == ["bridge", "host", "host-to-sandbox", "macvlan", "veth"], list(paths)
    for name, p in paths.items():
        s = p["streams"]
        assert len(s) == 3, (name, s)
        for one in s:
            assert 0 < one["bytes_received"] <= one["bytes_sent"], (name, one)
            assert one["throughput_gbps"] > 0, (name, one)
        assert sum(x["bytes_received"] for x in s) == p["bytes_received"] <= p["bytes_sent"], name
        u = p["udp"]
        assert u["mode"] == "stream" and u["sent_datagrams"] > 0 and u["received_datagrams"] > 0, (name, u)
        assert u["received_datagrams"] <= u["sent_datagrams"], (name, u)
        assert 0 <= u["loss"] < 1 and u["received_bytes"] <= u["sent_bytes"], (name, u)
        # No IP fragments: a datagram fits the client's MTU.
        assert u["datagram_bytes"] + 28 <= min(p["mtu"], 65535), (name, u, p["mtu"])
        assert p["busy_poll"]["spin"] is True, (name, p["busy_poll"])
        assert p["latency_us"]["n"] > 0, (name, p["latency_us"])
        if pinned:
            assert p["cpus_seen"]["server"] == [cp["server_cpu"]], (name, p["cpus_seen"])
            assert p["cpus_seen"]["client"] == [cp["client_cpu"]], (name, p["cpus_seen"])
            # Apart on two CPUs for the whole stream: no slot saw both on one.
            assert p["same_cpu_share"]["max"] == 0, (name, p["same_cpu_share"])
    assert paths["host-to-sandbox"]["mtu"] == 1500 and paths["macvlan"]["mtu"] == 1500, paths
    for k in ("throughput_host_over_macvlan", "latency_macvlan_over_host"):
        assert d["ratios"][k] > 0, (k, d["ratios"])
    r = d["ratios"]
    assert r["throughput_host_over_host_to_sandbox"] > 0 and r["latency_host_to_sandbox_over_host"] > 0, r


def cmd_one_cpu():
    """--cpu=0: netbench, server and client on CPU 0, so every slot saw both ends there."""
    d = json.load(open(sys.argv[1]))
    assert d["host"]["pinned_cpu"] == 0, d["host"]
    assert not any(n.startswith("Both ends on one CPU") for n in d["notes"]), d["notes"]
    for p in d["paths"]:
        assert p["cpus_seen"] == {"server": [0], "client": [0]}, (p["path"], p["cpus_seen"])
        share = p["same_cpu_share"]
        assert share["n"] == 1 and share["min"] == 1, (p["path"], share)


# The command is the first argument; the snippets' sys.argv[1:] are its arguments.
CMDS = {"json": cmd_json, "options": cmd_options, "one_cpu": cmd_one_cpu}
CMDS[sys.argv.pop(1)]()
