#!/usr/bin/env python3
"""The timed loop of bench/net_steps.sh: sandboxtime's netlink steps against ip(8).

usage: net_steps.py --bin SANDBOXTIME --out DIR --netns NS --veth IF --bridge IF
                    [--runs N] [--warmup N] [--gap-ms MS]

Run by bench/net_steps.sh, which creates the network namespace NS, checks that
10.216.0.0/16 is free and that the names are unused, and deletes everything on
exit. This script only creates the links IF and BRIDGE (and eth0 inside NS),
and deletes them again at the end of every sequence.

Each iteration runs ten items in an order rotated by one per iteration:
  st-veth     sandboxtime --repeat=0 --net=veth -J -o F -- true
  st-bridge   sandboxtime --repeat=0 --net=bridge -J -o F -- true
  ip-veth     the same steps as ip commands, each timed on its own
  ip-bridge   likewise for the bridge wiring
  st-vethb    st-veth with --net-batch: the inside steps as one batch
  ip-batch    the inside steps of ip-veth as one `ip -n NS -batch FILE`
              (one process, one round trip per command), the wiring
              before and after it untimed
  lab-veth    sandboxtime --repeat=0 --net=veth --net-steps-repeat=LAB ...:
              the wiring, inside steps included, LAB times in a private
              namespace, in-process (no spawn in the figures)
  lab-vethb   the same with --net-batch
  lab-veth6   the same with --ipv6 (two requests more inside)
  lab-veth6b  the same with --ipv6 --net-batch
The IPv6 items are left out where the host has IPv6 off or forwards it
(sandboxtime refuses --ipv6 as root there).
and each ip sequence first runs `ip link show lo` twice untimed (after the
idle gap the first spawn is slow), then times three floors: /bin/true,
`ip link show lo` and `ip -n NS link show lo`. Each command is timed with time.perf_counter_ns()
(CLOCK_MONOTONIC) around subprocess.run(), so a figure is fork/vfork+exec of
ip, ip's own start-up, its netlink round trips, and the wait for its exit.
Before every item the loop sleeps --gap-ms, so that a sandbox's network
namespace, torn down by the kernel in the background (cleanup_net takes the
RTNL lock), is gone before the next item's first step.

Writes DIR/net-steps.json; sandboxtime's reports go to DIR/net-st/.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--out", required=True)
p.add_argument("--netns", required=True)
p.add_argument("--veth", required=True)
p.add_argument("--bridge", required=True)
p.add_argument("--runs", type=int, default=50)
p.add_argument("--warmup", type=int, default=3)
p.add_argument("--gap-ms", type=float, default=100.0)
p.add_argument("--lab-rounds", type=int, default=10)
a = p.parse_args()

NS, V, B = a.netns, a.veth, a.bridge
IP = "/usr/sbin/ip" if os.path.exists("/usr/sbin/ip") else "/sbin/ip"
TRUE = "/bin/true"

# Addresses in 10.216.0.0/16 (net_steps.sh checked that nothing routes there):
# a /30 for the veth wiring, a /24 for the bridge, like sandboxtime's pools.
VETH_HOST, VETH_IN, VETH_GW = "10.216.0.1/30", "10.216.0.2/30", "10.216.0.1"
BR_HOST, BR_IN, BR_GW = "10.216.1.1/24", "10.216.1.2/24", "10.216.1.1"

FLOORS = [
    ("true", [TRUE]),
    ("ip_show_lo", [IP, "link", "show", "lo"]),
    ("ip_netns_show_lo", [IP, "-n", NS, "link", "show", "lo"]),
]


def seq(mode):
    """(step, argv) in the order sandboxtime runs them; names as in its report."""
    host, inside, gw = (VETH_HOST, VETH_IN, VETH_GW) if mode == "veth" else (BR_HOST, BR_IN, BR_GW)
    s = [("veth_create", [IP, "link", "add", V, "type", "veth", "peer", "name", "eth0", "netns", NS])]
    if mode == "bridge":
        s += [
            ("bridge_create", [IP, "link", "add", B, "type", "bridge"]),
            ("bridge_addr_add", [IP, "addr", "add", host, "brd", "+", "dev", B]),
            ("bridge_up", [IP, "link", "set", B, "up"]),
            ("bridge_attach", [IP, "link", "set", V, "master", B]),
        ]
    else:
        s += [("host_addr_add", [IP, "addr", "add", host, "brd", "+", "dev", V])]
    s += [
        ("host_link_up", [IP, "link", "set", V, "up"]),
        ("lo_up", [IP, "-n", NS, "link", "set", "lo", "up"]),
        ("addr_add", [IP, "-n", NS, "addr", "add", inside, "brd", "+", "dev", "eth0"]),
        ("link_up", [IP, "-n", NS, "link", "set", "eth0", "up"]),
        ("route_add", [IP, "-n", NS, "route", "add", "default", "via", gw, "dev", "eth0",
                       "proto", "static"]),
        ("veth_delete", [IP, "link", "del", V]),
    ]
    if mode == "bridge":
        s += [("bridge_delete", [IP, "link", "del", B])]
    return s


# The inside steps of the veth sequence, for ip -batch (ip's own batch mode:
# one process, still one request and round trip per command).
def inside_batch_lines():
    return [" ".join(argv[3:]) for step, argv in seq("veth") if step in ("lo_up", "addr_add", "link_up", "route_add")]


def ipv6_usable():
    def val(path):
        try:
            return open(path).read().strip()
        except OSError:
            return None
    return (os.path.exists("/proc/net/if_inet6") and val("/proc/sys/net/ipv6/conf/all/disable_ipv6") == "0"
            and val("/proc/sys/net/ipv6/conf/default/disable_ipv6") == "0"
            and val("/proc/sys/net/ipv6/conf/all/forwarding") == "0"
            and val("/proc/sys/net/ipv6/conf/default/force_forwarding") in (None, "0"))


# Untimed, after each sequence: lo down again, so that every lo_up does the
# work it does in a fresh namespace (sandboxtime's lo starts down).
RESET = [[IP, "-n", NS, "link", "set", "lo", "down"]]


def link_exists(name, netns=None):
    cmd = [IP] + (["-n", netns] if netns else []) + ["link", "show", "dev", name]
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def cleanup_own():
    """Only the links this script creates."""
    for name in (V, B):
        if link_exists(name):
            subprocess.run([IP, "link", "del", name], stderr=subprocess.DEVNULL)


def run_timed(argv):
    t0 = time.perf_counter_ns()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t1 = time.perf_counter_ns()
    if r.returncode != 0:
        cleanup_own()
        sys.exit(f"net_steps: `{' '.join(argv)}` failed ({r.returncode}): {r.stderr.decode().strip()}")
    return (t1 - t0) / 1000.0  # µs


def ip_item(mode, rec):
    # Untimed: after the idle gap the first spawn is slow (a cold CPU on a VM);
    # sandboxtime's steps run in a process that has been busy for a while.
    for _ in range(2):
        subprocess.run(FLOORS[1][1], stdout=subprocess.DEVNULL, check=True)
    for name, argv in FLOORS:
        rec["floor"].setdefault(name, []).append(run_timed(argv))
    row = {}
    for step, argv in seq(mode):
        row[step] = run_timed(argv)
    for argv in RESET:
        run_timed(argv)
    if link_exists(V) or link_exists(B) or link_exists("eth0", NS):
        cleanup_own()
        sys.exit("net_steps: a link survived its ip sequence")
    row["setup_sum"] = sum(v for k, v in row.items() if not k.endswith("_delete"))
    rec["ip"][mode].append(row)


# The sandboxtime items: key -> options after --repeat=0.
ST_ITEMS = {
    "veth": ["--net=veth"],
    "bridge": ["--net=bridge"],
    "vethb": ["--net=veth", "--net-batch"],
}
LAB_ITEMS = {
    "veth": ["--net=veth"],
    "vethb": ["--net=veth", "--net-batch"],
    "veth6": ["--net=veth", "--ipv6"],
    "veth6b": ["--net=veth", "--ipv6", "--net-batch"],
}


def lab_argv(key, f):
    return [a.bin, "--repeat=0"] + LAB_ITEMS[key] + [f"--net-steps-repeat={a.lab_rounds}", "-J", "-o", f, "--",
                                                      "true"]


def lab_item(key, i, rec):
    """Per round of the lab: each step's figure (rounds in order, the samples' order)."""
    f = os.path.join(a.out, "net-st", f"lab-{key}-{i}.json")
    r = subprocess.run(lab_argv(key, f), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit(f"net_steps: lab {key} failed ({r.returncode}): {r.stderr.decode().strip()}")
    steps = json.load(open(f))["net_steps"]["steps"]
    for k in range(a.lab_rounds):
        rec["lab"][key].append({s["step"]: s["us"]["samples"][k] for s in steps})


def ip_batch_item(rec):
    """ip -n NS -batch FILE with the four inside steps, timed; the wiring around it untimed."""
    for _ in range(2):
        subprocess.run(FLOORS[1][1], stdout=subprocess.DEVNULL, check=True)
    steps = dict(seq("veth"))
    for k in ("veth_create", "host_addr_add", "host_link_up"):
        run_timed(steps[k])
    rec["ipbatch"].append(run_timed([IP, "-n", NS, "-batch", BATCH_FILE]))
    run_timed(steps["veth_delete"])
    for argv in RESET:
        run_timed(argv)
    if link_exists(V) or link_exists("eth0", NS):
        cleanup_own()
        sys.exit("net_steps: a link survived its ip -batch sequence")


def st_item(mode, i, rec):
    f = os.path.join(a.out, "net-st", f"{mode}-{i}.json")
    argv = [a.bin, "--repeat=0"] + ST_ITEMS[mode] + ["-J", "-o", f, "--", "true"]
    t0 = time.perf_counter_ns()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t1 = time.perf_counter_ns()
    if r.returncode != 0:
        sys.exit(f"net_steps: `{' '.join(argv)}` failed ({r.returncode}): {r.stderr.decode().strip()}")
    d = json.load(open(f))
    if d.get("errors"):
        sys.exit(f"net_steps: {f}: errors {d['errors']}")
    # sandboxtime deletes its own links; check, and delete what it left (its
    # names are in its report, so they are ours), counting it as a leak.
    net = d.get("network") or {}
    for name in (net.get("host_interface"), None if net.get("bridge_joined") else net.get("bridge")):
        if name and link_exists(name):
            rec["leaks"].append(name)
            subprocess.run([IP, "link", "del", name], stderr=subprocess.DEVNULL)
    row = {}
    for s in d["steps"]:
        row[s["step"]] = row.get(s["step"], 0.0) + s["us"]
    row["process_wall"] = (t1 - t0) / 1000.0
    rec["st"][mode].append(row)


# strace does not always decode the type (requests in another network namespace)
RTM_HEX = {"0x10": "RTM_NEWLINK", "0x11": "RTM_DELLINK", "0x12": "RTM_GETLINK",
           "0x14": "RTM_NEWADDR", "0x16": "RTM_GETADDR", "0x18": "RTM_NEWROUTE", "0x1a": "RTM_GETROUTE"}


def strace_counts(argv, out):
    """Counts of the system calls that show ip's (or sandboxtime's) netlink and namespace work."""
    subprocess.run(["strace", "-f", "-qq", "-o", out, "-e",
                    "trace=sendto,sendmsg,recvmsg,recvfrom,setns,unshare,mount,umount2,execve,socket"]
                   + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    c = {"requests": 0, "types": []}
    with open(out) as fh:
        for line in fh:
            m = re.match(r"(?:\d+\s+)?(\w+)\(", line)
            if m:
                c[m.group(1)] = c.get(m.group(1), 0) + 1
                # a netlink request (strace decodes its header); every one is answered
                if m.group(1) in ("sendto", "sendmsg") and "nlmsg_type=" in line:
                    c["requests"] += 1
                    t = re.search(r"nlmsg_type=([A-Z_]+|0x[0-9a-f]+)", line)
                    t = t.group(1) if t else "?"
                    c["types"].append(RTM_HEX.get(t, t))
    return c


def getlink_rtt(n=300, warm=30):
    """One RTM_GETLINK by name (IFLA_IFNAME "lo", NLM_F_ACK, as src/net/nl.c link_index()
    sends it), timed in this process around send and the receives up to the ACK.
    Python adds its own overhead: an upper bound of what the lookup costs."""
    import socket
    import struct
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW | socket.SOCK_CLOEXEC, 0)  # NETLINK_ROUTE
    s.bind((0, 0))
    name = b"lo\0"
    attr = struct.pack("HH", 4 + len(name), 3) + name  # IFLA_IFNAME
    attr += b"\0" * (-len(attr) % 4)
    times = []
    for seq in range(1, n + warm + 1):
        body = struct.pack("BBHiII", 0, 0, 0, 0, 0, 0) + attr  # ifinfomsg, AF_UNSPEC
        msg = struct.pack("IHHII", 16 + len(body), 18, 1 | 4, seq, 0) + body  # RTM_GETLINK, REQUEST|ACK
        t0 = time.perf_counter_ns()
        s.send(msg)
        done = False
        while not done:
            buf = s.recv(65536)
            off = 0
            while off + 16 <= len(buf):
                ln, typ = struct.unpack_from("IH", buf, off)
                if typ == 2:  # NLMSG_ERROR: the ACK (or an error)
                    err = struct.unpack_from("i", buf, off + 16)[0]
                    if err:
                        sys.exit(f"net_steps: RTM_GETLINK lo: error {err}")
                    done = True
                off += (ln + 3) & ~3
        t1 = time.perf_counter_ns()
        if seq > warm:
            times.append((t1 - t0) / 1000.0)
    s.close()
    return times


BATCH_FILE = os.path.join(a.out, "net-ip-batch.txt")


def main():
    os.makedirs(os.path.join(a.out, "net-st"), exist_ok=True)
    with open(BATCH_FILE, "w") as fh:
        fh.write("\n".join(inside_batch_lines()) + "\n")
    v6 = ipv6_usable()
    lab_keys = [k for k in LAB_ITEMS if v6 or "6" not in k]

    def fresh():
        return {"ip": {"veth": [], "bridge": []}, "st": {k: [] for k in ST_ITEMS}, "floor": {},
                "ipbatch": [], "lab": {k: [] for k in lab_keys}, "leaks": rec["leaks"]}

    rec = {"leaks": []}
    rec.update(fresh())
    rec["orders"] = []
    items = ["st-veth", "st-bridge", "ip-veth", "ip-bridge", "st-vethb", "ip-batch"] + \
        [f"lab-{k}" for k in lab_keys]
    total = a.warmup + a.runs
    for i in range(total):
        n = len(items)
        order = items[i % n:] + items[:i % n]
        cur = rec if i >= a.warmup else fresh()
        if i >= a.warmup:
            rec["orders"].append(order)
        for it in order:
            time.sleep(a.gap_ms / 1000.0)
            kind, mode = it.split("-")
            if kind == "st":
                st_item(mode, i, cur)
            elif kind == "lab":
                lab_item(mode, i, cur)
            elif mode == "batch":
                ip_batch_item(cur)
            else:
                ip_item(mode, cur)
        if (i + 1) % 10 == 0:
            print(f"net_steps: {i + 1}/{total}", file=sys.stderr)

    # Once more, untimed, under strace: what each command does.
    sdir = os.path.join(a.out, "net-strace")
    os.makedirs(sdir, exist_ok=True)
    straced = {"ip": {}, "floor": {}, "st": {}}
    for name, argv in FLOORS:
        straced["floor"][name] = strace_counts(argv, os.path.join(sdir, f"floor-{name}.txt"))
    for mode in ("veth", "bridge"):
        straced["ip"][mode] = {}
        for step, argv in seq(mode):
            straced["ip"][mode][step] = strace_counts(argv, os.path.join(sdir, f"ip-{mode}-{step}.txt"))
        for argv in RESET:
            subprocess.run(argv, check=True)
        st_json = os.path.join(sdir, f"st-{mode}.json")
        straced["st"][mode] = strace_counts(
            [a.bin, "--repeat=0", f"--net={mode}", "-J", "-o", st_json, "--", "true"],
            os.path.join(sdir, f"st-{mode}.txt"))
        net = json.load(open(st_json)).get("network") or {}
        for name in (net.get("host_interface"), net.get("bridge")):
            if name and link_exists(name):
                rec["leaks"].append(name)
                subprocess.run([IP, "link", "del", name], stderr=subprocess.DEVNULL)
    cleanup_own()
    rec["getlink_rtt"] = getlink_rtt()

    rec["commands"] = {
        "floor": {n: " ".join(argv) for n, argv in FLOORS},
        "veth": {s: " ".join(argv) for s, argv in seq("veth")},
        "bridge": {s: " ".join(argv) for s, argv in seq("bridge")},
        "reset": [" ".join(argv) for argv in RESET],
        "st": {m: f"{a.bin} --repeat=0 {' '.join(ST_ITEMS[m])} -J -o F -- true" for m in ST_ITEMS},
        "lab": {k: " ".join(lab_argv(k, "F")) for k in lab_keys},
        "ip_batch": f"{IP} -n {NS} -batch FILE",
        "ip_batch_file": inside_batch_lines(),
    }
    rec["config"] = {"runs": a.runs, "warmup": a.warmup, "gap_ms": a.gap_ms, "netns": NS, "ipv6": v6, "lab_rounds": a.lab_rounds,
                     "veth": V, "bridge": B, "ip": IP,
                     "clock": str(time.get_clock_info("perf_counter"))}
    rec["strace"] = straced
    with open(os.path.join(a.out, "net-steps.json"), "w") as fh:
        json.dump(rec, fh, indent=1)


main()
