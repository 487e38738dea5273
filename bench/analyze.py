#!/usr/bin/env python3
"""Turns the raw results of bench/run.sh into docs/bench-notes/run.md (bench/run.sh; BENCHMARKS.md is the summary of it).

usage: analyze.py RESULTS_DIR OUTPUT.md
       analyze.py --only=net RESULTS_DIR OUTPUT.md

Every figure comes from a file in RESULTS_DIR; nothing here is measured.
Medians everywhere; spread as min/p95 (p95 interpolated between ranks, as
sandboxtime and clone_loop compute it) or stddev.

The section "Network steps" (bench/net_steps.sh) sits between two HTML
comment markers, with its own date and machine facts. --only=net (what
`BENCH_ONLY=net bash bench/run.sh BIN` runs) rewrites that block and its row
in the Targets table, and leaves every other line of OUTPUT.md as it was. A
full run without network results (not root) keeps the previous block.
"""
import glob
import json
import os
import re
import statistics
import sys

ARGS = sys.argv[1:]
ONLY = None
if ARGS and ARGS[0].startswith("--only="):
    ONLY = ARGS.pop(0).split("=", 1)[1]
    if ONLY != "net":
        raise SystemExit(f"analyze: --only={ONLY}: only --only=net exists")
RES, OUT = ARGS
TARGET_UNSHARE = 0.8
TARGET_FLOOR = 1.3
TARGET_AGREE = 0.15
TARGET_COST_S = 5.0
TARGET_RSS_KB = 4 * 1024

md = []


def w(line=""):
    md.append(line)


def path(name):
    return os.path.join(RES, name)


def exists(name):
    return os.path.exists(path(name))


def load(name):
    with open(path(name)) as f:
        return json.load(f)


def load_lines(name):
    with open(path(name)) as f:
        return [json.loads(l) for l in f if l.strip()]


def pct(v, p):
    s = sorted(v)
    if not s:
        return float("nan")
    rank = p * (len(s) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def med(v):
    return statistics.median(v)


def fmt(x, nd=1):
    if x is None:
        return "-"
    return f"{x:,.{nd}f}"


# ---------------------------------------------------------------------------
# Network steps: sandboxtime's netlink steps against ip(8) (bench/net_steps.sh)
NET_BEGIN = "<!-- BEGIN net-steps: written by bench/analyze.py; `BENCH_ONLY=net bash bench/run.sh BIN` rewrites only this block -->"
NET_END = "<!-- END net-steps -->"
# The reliability section (sanitizers, valgrind, fuzzing) is written by hand
# from `make check`, `make valgrind` and `make fuzz`, not by a benchmark: a
# run of this script keeps it as it is, after the network block.
REL_BEGIN = "<!-- BEGIN reliability: written by hand from make check/valgrind/fuzz; bench/analyze.py keeps this block as it is -->"
REL_END = "<!-- END reliability -->"
NET_TARGET_NAME = "network steps"
NET_TARGET_PREFIX = "| " + NET_TARGET_NAME
TARGET_NET_RATIO = 10.0
# Netlink requests per step in src/net/nl.c: the steps that take an interface name
# for an index (link_index(): one RTM_GETLINK) send two, the others one.
NL_REQUESTS = {
    "veth_create": ["RTM_NEWLINK"],
    "host_addr_add": ["RTM_GETLINK", "RTM_NEWADDR"],
    "host_link_up": ["RTM_NEWLINK"],
    "bridge_create": ["RTM_NEWLINK"],
    "bridge_addr_add": ["RTM_GETLINK", "RTM_NEWADDR"],
    "bridge_up": ["RTM_NEWLINK"],
    "bridge_attach": ["RTM_GETLINK", "RTM_NEWLINK"],
    "lo_up": ["RTM_NEWLINK"],
    "addr_add": ["RTM_GETLINK", "RTM_NEWADDR"],
    "link_up": ["RTM_NEWLINK"],
    "route_add": ["RTM_GETLINK", "RTM_NEWROUTE"],
    "veth_delete": ["RTM_DELLINK"],
    "bridge_delete": ["RTM_DELLINK"],
}
NL_PLAN_REQUESTS = ["RTM_GETROUTE", "RTM_GETADDR"]  # st_nl_ip4_in_use(), before the sandbox
NET_INSIDE = ("lo_up", "addr_add", "link_up", "route_add")


def net_lines(res, invocation_hint):
    """The block of the network section, markers included, from RES's files."""
    out = []

    def o(line=""):
        out.append(line)

    def p(name):
        return os.path.join(res, name)

    nf = {}
    with open(p("net-facts.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            nf[k] = v
    d = json.load(open(p("net-steps.json")))
    cfg = d["config"]
    runs = cfg["runs"]

    def stats(v):
        return {"median": med(v), "min": min(v), "p95": pct(v, 0.95), "n": len(v)} if v else None

    def col(rows, key):
        return [r[key] for r in rows if key in r]

    def setup_sum(row):
        return sum(v for k, v in row.items() if k in NL_REQUESTS and not k.endswith("_delete"))

    modes = ("veth", "bridge")
    order = {m: list(d["commands"][m].keys()) for m in modes}
    st = {m: {k: stats(col(d["st"][m], k)) for k in order[m]} for m in modes}
    ip = {m: {k: stats(col(d["ip"][m], k)) for k in order[m]} for m in modes}
    for m in modes:
        st[m]["setup (sum per run)"] = stats([setup_sum(r) for r in d["st"][m]])
        ip[m]["setup (sum per run)"] = stats([r["setup_sum"] for r in d["ip"][m]])
    floor = {k: stats(v) for k, v in d["floor"].items()}
    wall = {m: stats(col(d["st"][m], "process_wall")) for m in modes}
    sc = d["strace"]
    fl_host = floor["ip_show_lo"]["median"]
    fl_ns = floor["ip_netns_show_lo"]["median"]

    o(NET_BEGIN)
    o("## 7. Network steps: netlink (libmnl) against ip(8)")
    o()
    inv = nf.get("invocation") or invocation_hint
    o(f"Generated by `{inv}` on {nf['date']}: this section has a run of its own (its date and machine")
    o("facts are below; the rest of the file may come from another run, see the top). It compares")
    o("the steps by which `sandboxtime --net=veth|bridge` wires a sandbox, each one (or two) netlink")
    o("round trips over libmnl (src/net/nl.c, src/net/ns_net.c), timed by sandboxtime itself and reported in")
    o("its JSON `steps`, with the same steps done by `ip` commands, each timed on its own.")
    o()
    o("| fact | value |")
    o("|---|---|")
    o(f"| date | {nf['date']} |")
    o(f"| kernel | {nf['kernel']} |")
    o(f"| CPU | {nf['cpu']}, {nf['cpus']} online CPUs, "
      f"{'virtual machine (hypervisor flag), shared and noisy' if nf['hypervisor'] == 'yes' else 'bare metal'}; not pinned |")
    o(f"| load average | {nf['loadavg']} at start, {nf.get('loadavg_end', '?')} at the end (other work on the machine was not stopped) |")
    o(f"| /sys/kernel/rcu_expedited | {nf['rcu_expedited']} |")
    o(f"| run as | {nf['user']} |")
    o(f"| sandboxtime | {nf['sandboxtime']}, git {nf['git']} ({nf.get('git_branch', '?')}), binary sha256 "
      f"{nf['bin_sha256']}…, {nf['git_dirty_src']} uncommitted change(s) in src/ include/ Makefile at run time; "
      f"libmnl {nf['libmnl']} |")
    o(f"| ip | {nf['iproute2']} ({cfg['ip']}) |")
    o(f"| timer for ip | {nf['python']}, time.perf_counter_ns() around subprocess.run(): {cfg['clock']} |")
    o(f"| runs | {runs} iterations after {cfg['warmup']} not kept; {cfg['gap_ms']:.0f} ms idle before every item |")
    o()
    o("Method. bench/net_steps.sh checks that no route or address of the host is in 10.216.0.0/16, makes")
    o(f"one network namespace (`ip netns add {cfg['netns']}`) and runs bench/net_steps.py, which does")
    o(f"{runs} iterations of four items, their order rotated by one per iteration:")
    o()
    o("```")
    o(f"st-veth    {short_net(d['commands']['st']['veth'])}")
    o(f"st-bridge  {short_net(d['commands']['st']['bridge'])}")
    o("ip-veth    floors, then one ip command per step (below)")
    o("ip-bridge  floors, then one ip command per step (below)")
    o("```")
    o()
    o("Every ip command is timed alone with a monotonic clock around `subprocess.run()`: a figure is")
    o("the spawn (vfork+exec) of ip, its start-up, its netlink round trips and the wait for its exit.")
    o("The floors, timed the same way at the start of every ip sequence (after two untimed")
    o("`ip link show lo`: the first spawn after the idle gap is slow), are that path doing nothing")
    o("(`/bin/true`), ip doing a minimal netlink query, and the same inside the namespace (`ip -n`).")
    o("sandboxtime's figure for a step is its own in-process clock around the step's library call(s):")
    o("the socket is opened before the first step and is not in any figure. The idle gap lets the")
    o("previous sandbox's network namespace, which the kernel tears down in the background while")
    o("holding the RTNL lock, go before the next item starts. After each ip sequence lo is set down")
    o(f"again (`{d['commands']['reset'][0]}`, untimed), so that every lo_up brings a down lo up, as in")
    o("sandboxtime's fresh namespace. Names and addresses of the ip sequences:")
    o()
    o("```")
    for m in modes:
        o(f"# {m}")
        for k, c in d["commands"][m].items():
            o(f"{k:16} {c}")
    o("```")
    o()

    o("### 7a. Floors: ip doing (almost) nothing")
    o()
    o("| command | median µs | min µs | p95 µs | p95/median | n | netlink requests (strace) |")
    o("|---|---|---|---|---|---|---|")
    for k, c in d["commands"]["floor"].items():
        s = floor[k]
        req = sc["floor"][k]
        o(f"| `{c}` | {fmt(s['median'])} | {fmt(s['min'])} | {fmt(s['p95'])} | {s['p95'] / s['median']:.2f} | "
          f"{s['n']} | {req['requests']}" + (f": {', '.join(req['types'])}" if req["types"] else "") + " |")
    o()

    # per-mode tables
    verdict_bad = []
    ratios = {}
    for idx, m in enumerate(modes):
        o(f"### 7{'bc'[idx]}. --net={m}: per step")
        o()
        o(f"netlink = sandboxtime's step (JSON `steps`, {st[m]['veth_create']['n']} runs); ip = the ip command for")
        o("the step (same iterations). Requests: netlink messages sent, for sandboxtime from src/net/nl.c, for ip")
        o("counted with strace in one extra untimed sequence. *ip − floor* is ip's median minus the median of")
        o("the matching floor (`ip link show lo`, or `ip -n … link show lo` for the steps inside the")
        o("namespace): what the step adds to an ip that starts and asks one question *(inferred: medians")
        o("do not subtract exactly)*.")
        o()
        o("| step | netlink requests | netlink median µs | min | p95/median | ip requests | ip median µs | min | "
          "p95/median | **ip / netlink** | ip − floor µs |")
        o("|---|---|---|---|---|---|---|---|---|---|---|")
        for k in order[m] + ["setup (sum per run)"]:
            a, b = st[m].get(k), ip[m].get(k)
            if k in NL_REQUESTS:
                nreq = str(len(NL_REQUESTS[k]))
                ireq = str(sc["ip"][m][k]["requests"])
            else:
                nreq = str(sum(len(NL_REQUESTS[x]) for x in order[m] if not x.endswith("_delete")))
                ireq = str(sum(sc["ip"][m][x]["requests"] for x in order[m] if not x.endswith("_delete")))
            fl = fl_ns if k in NET_INSIDE else fl_host
            if a is None:
                o(f"| {k} | {nreq} | (not reported) | | | {ireq} | {fmt(b['median'])} | {fmt(b['min'])} | "
                  f"{b['p95'] / b['median']:.2f} | - | {fmt(b['median'] - fl)} |")
                continue
            r = b["median"] / a["median"]
            dele = k.endswith("_delete")
            if not dele:
                ratios.setdefault(m, {})[k] = r
                if k != "setup (sum per run)" and r < TARGET_NET_RATIO:
                    verdict_bad.append(f"{m} {k} {r:.1f}")
            extra = "" if a["n"] == runs else f" (n={a['n']})"
            o(f"| {k}{extra} | {nreq} | {fmt(a['median'])} | {fmt(a['min'])} | {a['p95'] / a['median']:.2f} | "
              f"{ireq} | {fmt(b['median'])} | {fmt(b['min'])} | {b['p95'] / b['median']:.2f} | "
              f"{'**' + f'{r:.1f}' + '**' if not dele else f'{r:.2f}'} | "
              f"{fmt(b['median'] - fl) if k != 'setup (sum per run)' else '-'} |")
        o()
        w_ = wall[m]
        o(f"Whole `sandboxtime --net={m}` process, spawn to exit, same timer as ip: median "
          f"{fmt(w_['median'] / 1000, 2)} ms (min {fmt(w_['min'] / 1000, 2)}, p95 {fmt(w_['p95'] / 1000, 2)}).")
        o()

    # ip's requests, as strace saw them
    o("### 7d. What each side sends")
    o()
    o("| step | sandboxtime (src/net/nl.c) | ip (strace, in order) | ip's namespace switch |")
    o("|---|---|---|---|")
    seen = set()
    for m in modes:
        for k in order[m]:
            if k in seen:
                continue
            seen.add(k)
            c = sc["ip"][m][k]
            sw = ("setns + unshare(CLONE_NEWNS) + "
                  f"{c.get('mount', 0)} mount + {c.get('umount2', 0)} umount2 (/sys remounted)") if c.get("setns") else "-"
            o(f"| {k} | {', '.join(NL_REQUESTS[k])} | {', '.join(c['types'])} | {sw} |")
    for m in modes:
        c = sc["st"][m]
        expect = NL_PLAN_REQUESTS + [t for k in order[m] for t in NL_REQUESTS[k]]
        o(f"| whole `sandboxtime --net={m}` | {len(expect)} expected (2 to plan the range + the steps) | "
          f"strace counts {c['requests']} netlink requests"
          f"{' (agrees)' if c['requests'] == len(expect) else ' (**differs**: ' + ', '.join(c['types']) + ')'} | - |")
    o()
    o("ip's link commands (`ip link add|set|del`) first send an empty RTM_NEWLINK, which the kernel")
    o("answers ENODEV: iproute2 probing whether RTM_NEWLINK exists. Every interface name it is given")
    o("becomes an RTM_GETLINK on a socket of its own. sandboxtime sends names in the request where the")
    o("kernel takes them (IFLA_IFNAME in RTM_NEWLINK/RTM_DELLINK) and looks up an index only where the")
    o("message has no name field (RTM_NEWADDR, RTM_NEWROUTE, IFLA_MASTER).")
    o()

    # ---- reading
    veth_del = {m: (st[m].get("veth_delete"), ip[m].get("veth_delete")) for m in modes}
    br_del = (st["bridge"].get("bridge_delete"), ip["bridge"].get("bridge_delete"))
    allr = [(m, k, r) for m in modes for k, r in ratios.get(m, {}).items() if k != "setup (sum per run)"]
    lo = min(allr, key=lambda x: x[2])
    hi = max(allr, key=lambda x: x[2])
    o("Reading:")
    o()
    o(f"- Per setup step, ip takes **{lo[2]:.0f}x** ({lo[0]} {lo[1]}) to **{hi[2]:.0f}x** ({hi[0]} {hi[1]}) "
      "sandboxtime's median; the whole setup (sum of the steps per run) "
      + ", ".join(f"{m}: {fmt(st[m]['setup (sum per run)']['median'])} µs against "
                  f"{fmt(ip[m]['setup (sum per run)']['median'])} µs, **{ratios[m]['setup (sum per run)']:.0f}x**"
                  for m in modes) + ". "
      + ("Every setup step is more than 10x under ip." if not verdict_bad else
         f"Not every step is 10x under ip: {', '.join(verdict_bad)}."))
    spawn = floor["true"]["median"]
    o(f"- What ip pays that sandboxtime does not: the spawn, {fmt(spawn)} µs for /bin/true by the same timer;")
    o(f"  ip's start-up (dynamic libraries, socket, its probe), {fmt(fl_host - spawn)} µs more for `ip link show lo`;")
    o(f"  inside the namespace, `ip -n` adds setns, a new mount namespace and a fresh /sys mount, "
      f"{fmt(fl_ns - fl_host)} µs more. *(inferred)* Nearly all of an ip step is this fixed cost: `ip link")
    o(f"  show lo` alone takes {fl_host / ip['veth']['host_link_up']['median'] * 100:.0f}% of the time of `ip link set … up`, "
      f"`ip -n … link show lo` {fl_ns / ip['veth']['link_up']['median'] * 100:.0f}% of that of")
    o("  `ip -n … link set eth0 up`. The ratios say what a process per step costs, not that the kernel")
    o("  does less work for sandboxtime; where the kernel's own work is large (veth_create, bridge_create)")
    o("  the ratio is small.")
    o("- Not the same work, step by step: host_link_up and bridge_up also carry IFLA_AF_SPEC")
    o("  {AF_INET {IFLA_INET_CONF {FORWARDING=0}}} in sandboxtime's RTM_NEWLINK (`ip link set` cannot;")
    o("  ip would need a sysctl write as well), so ip does slightly less there. sandboxtime's figures exclude")
    o("  opening the socket; ip's include it.")
    o("- Name lookups: sandboxtime's addr_add, host_addr_add, bridge_addr_add, route_add and bridge_attach")
    o("  each send one RTM_GETLINK before the request (src/net/nl.c link_index()), two round trips where the")
    o("  others have one; ip does the same lookups (plus its probe). Two of them repeat a lookup just made:")
    o("  route_add looks up eth0 again after addr_add, bridge_attach looks up the bridge again after")
    o("  bridge_addr_add.")
    gl = stats(d.get("getlink_rtt") or [])
    if gl:
        o("  One such lookup alone (RTM_GETLINK with IFLA_IFNAME \"lo\" and NLM_F_ACK, sent and read up to")
        o(f"  the ACK by net_steps.py in-process, {gl['n']} times; Python's overhead included, so an upper bound):")
        o(f"  median **{fmt(gl['median'])} µs** (min {fmt(gl['min'])}, p95 {fmt(gl['p95'])}). *(inferred)* Keeping the index")
        o("  of a name already looked up would save one lookup per --net=veth launch and two per --net=bridge,")
        o(f"  about {fmt(gl['median'], 0)} and {fmt(2 * gl['median'], 0)} µs; knowing every index (say from the")
        o("  kernel's echo of the created link, NLM_F_ECHO, whose IFLA_LINK is the peer's index) would remove")
        o("  all of them. The inside steps can already go out as one batch (several messages in one")
        o("  send(), the kernel runs them in order and ACKs each): `--net-batch` sends lo_up, addr_add,")
        o("  link_up and route_add together after one lookup of eth0, two round trips instead of six;")
        o("  measured in 7e.")
    for m in modes:
        a = st[m]
        one = a["link_up"]["median"]
        two = [k for k in order[m] if len(NL_REQUESTS[k]) == 2]
        o(f"  {m}: one-request link_up {fmt(one)} µs; the two-request steps " +
          ", ".join(f"{k} {fmt(a[k]['median'])}" for k in two) + " µs.")
    # suspicious: much slower than a one-request step
    sus = []
    for m in modes:
        one = st[m]["link_up"]["median"]
        for k in order[m]:
            if k.endswith("_delete"):
                continue
            if st[m][k]["median"] > 3 * one:
                sus.append((m, k, st[m][k]["median"], st[m][k]["median"] / one,
                            ip[m][k]["median"] - (fl_ns if k in NET_INSIDE else fl_host)))
    if sus:
        o("- Slow steps (more than 3x that mode's link_up): "
          + "; ".join(f"{m} {k} {fmt(v)} µs ({x:.1f}x; ip − floor {fmt(e)} µs)" for m, k, v, x, e in sus)
          + ". *(inferred)* Where ip − floor is of the same size, the time is the kernel's (creating a")
        o("  device pair and moving the peer into another namespace, registering a bridge, enslaving a")
        o("  port), not the library's.")
    for m in modes:
        a, b = veth_del[m]
        if a and b:
            o(f"- veth_delete, {m}: sandboxtime {fmt(a['median'] / 1000, 2)} ms (min {fmt(a['min'] / 1000, 2)}, "
              f"p95 {fmt(a['p95'] / 1000, 2)}, reported in {a['n']} of {runs} runs) against `ip link del` "
              f"{fmt(b['median'] / 1000, 2)} ms (min {fmt(b['min'] / 1000, 2)}, p95 {fmt(b['p95'] / 1000, 2)}): "
              f"{a['median'] / b['median']:.2f}x.")
        elif b:
            o(f"- veth_delete, {m}: sandboxtime did not report it (the link was gone with the sandbox's"
              f" namespace); `ip link del` {fmt(b['median'] / 1000, 2)} ms.")
    if br_del[0] and br_del[1]:
        a, b = br_del
        o(f"- bridge_delete: sandboxtime {fmt(a['median'] / 1000, 2)} ms (min {fmt(a['min'] / 1000, 2)}, "
          f"p95 {fmt(a['p95'] / 1000, 2)}) against `ip link del` {fmt(b['median'] / 1000, 2)} ms "
          f"(min {fmt(b['min'] / 1000, 2)}, p95 {fmt(b['p95'] / 1000, 2)}): {a['median'] / b['median']:.2f}x.")
    if veth_del["veth"][0]:
        sv = st["veth"]["setup (sum per run)"]["median"]
        o("- A delete is one request that returns only when the kernel has unregistered the device, which")
        o("  waits for RCU grace periods and for the last references to drop (netdev_run_todo): the")
        o(f"  ~{fmt(veth_del['veth'][0]['median'] / 1000, 0)} ms of veth_delete is "
          f"{veth_del['veth'][0]['median'] / sv:.0f}x the whole veth setup ({fmt(sv)} µs), and the spawn")
        dl = [(f"{m} veth_delete", *veth_del[m]) for m in modes] + [("bridge_delete", *br_del)]
        dl = [(n, a["median"] / b["median"]) for n, a, b in dl if a and b]
        near = [f"{n} {r:.2f}" for n, r in dl if abs(r - 1) <= 0.15]
        slow = [f"{n} {r:.2f}" for n, r in dl if r > 1.15]
        fast = [f"{n} {r:.2f}" for n, r in dl if r < 0.85]
        o("  that ip adds is lost in it (sandboxtime / ip: "
          + "; ".join(x for x in ((f"within 15%: {', '.join(near)}" if near else ""),
                                  (f"sandboxtime slower: {', '.join(slow)}" if slow else ""),
                                  (f"sandboxtime faster: {', '.join(fast)}" if fast else "")) if x) + ").")
        if slow:
            o("  *(inferred)* sandboxtime deletes while the kernel tears the sandbox's network namespace down")
            o("  (its processes have just exited; cleanup_net takes the RTNL lock and waits for grace periods")
            o("  of its own), where ip's peer sits in a namespace that lives on.")
        per = {m: med([sum(r.get(k, 0) for k in ("veth_delete", "bridge_delete")) / r["process_wall"]
                       for r in d["st"][m]]) for m in modes}
        o("- The deletes are most of a networked sandboxtime's wall time: "
          + ", ".join(f"{m} {per[m] * 100:.0f}% (whole process {fmt(wall[m]['median'] / 1000, 1)} ms)" for m in modes)
          + " (median over runs of the deletes' share of the whole process).")
        o("  sandboxtime waits for them one after the other. *(inferred, not measured)* The veth need not be")
        o("  deleted at all: it goes with the sandbox's namespace (delete_link() in src/net/ns_net.c already")
        o("  accepts ENODEV for that), in the kernel's background cleanup_net; in bridge mode only the")
        o("  bridge would remain to delete. That would take the veth_delete wait off every launch, at the")
        o("  price of the host end lingering until the kernel's cleanup runs.")
    batch_section(d, o, stats, runs)
    o()
    o(NET_END)
    target = None
    if ratios:
        worst = lo
        target = (f"{NET_TARGET_NAME}: every setup step's ip / netlink ≥ {TARGET_NET_RATIO:.0f} (section 7, run {nf['date']})",
                  f"lowest {worst[2]:.1f} ({worst[0]} {worst[1]}), highest {hi[2]:.1f}; setup sums: "
                  + ", ".join(f"{m} {ratios[m]['setup (sum per run)']:.1f}" for m in modes),
                  "met" if not verdict_bad else f"missed on {len(verdict_bad)} step(s): {', '.join(verdict_bad)}")
    return out, target


NET_INSIDE6 = NET_INSIDE + ("addr6_add", "route6_add")


def batch_section(d, o, stats, runs):
    """7e: the inside configuration as one batch (--net-batch) against one round trip per step, and ip."""
    st, lab = d.get("st", {}), d.get("lab", {})
    if "vethb" not in st or not d.get("ipbatch") or "vethb" not in lab:
        return

    def inside_sum(rows, names):
        return [sum(r[k] for k in names) for r in rows if all(k in r for k in names)]

    def batch(rows):
        return [r["inside_batch"] for r in rows if "inside_batch" in r]

    nlab = d["config"]["lab_rounds"]
    # (group, label, requests, stats); the ratio is to the batch of the same group
    rows = [
        ("launch", "sandboxtime, one step per request (`--net=veth`, 7b)", "6 requests, 6 round trips",
         stats(inside_sum(st["veth"], NET_INSIDE))),
        ("launch", "sandboxtime, one batch (`--net=veth --net-batch`)", "1 lookup, then 4 requests in 1 sendmsg: 2 round trips",
         stats(batch(st["vethb"]))),
        ("launch", "ip, one process per command (7b)",
         f"{sum(d['strace']['ip']['veth'][k]['requests'] for k in NET_INSIDE)} requests (strace), 4 processes",
         stats(inside_sum(d["ip"]["veth"], NET_INSIDE))),
        ("launch", "ip, one process for all four (`ip -n NS -batch FILE`)", "the same requests, 1 process",
         stats(d["ipbatch"])),
        ("lab4", "lab, one step per request", "6 requests, 6 round trips", stats(inside_sum(lab["veth"], NET_INSIDE))),
        ("lab4", "lab, one batch (`--net-batch`)", "1 lookup, then 4 in 1 sendmsg: 2 round trips", stats(batch(lab["vethb"]))),
    ]
    if "veth6" in lab and "veth6b" in lab:
        rows += [
            ("lab6", "lab `--ipv6`, one step per request", "10 requests, 10 round trips",
             stats(inside_sum(lab["veth6"], NET_INSIDE6))),
            ("lab6", "lab `--ipv6 --net-batch`, one batch", "1 lookup, then 6 in 1 sendmsg: 2 round trips",
             stats(batch(lab["veth6b"]))),
        ]
    ref = {g: next(r[3]["median"] for r in rows if r[0] == g and "batch" in r[1] and r[3]) for g in ("launch", "lab4")}
    if any(r[0] == "lab6" for r in rows):
        ref["lab6"] = rows[-1][3]["median"]
    o("### 7e. The inside configuration: one batch against one round trip per step")
    o()
    o("The inside configuration of `--net=veth` (lo up, eth0's address, eth0 up, the default route)")
    o("is one request and timed step each by default; `--net-batch` sends it as one batch after one")
    o("lookup of eth0's index and reports the single step `inside_batch`. Measured two ways in the")
    o("same iterations as above, in the same rotation:")
    o()
    o("- per launch: the sum of lo_up, addr_add, link_up and route_add of each `--net=veth` run (7b)")
    o("  against `inside_batch` of a `--net=veth --net-batch` run, one sample per launch; ip's four")
    o("  commands of 7b summed, and the same four commands in one `ip -n NS -batch FILE` process (the")
    o("  veth wiring before and after it untimed);")
    o(f"- in the lab: `--net-steps-repeat={nlab}` per item wires a fresh namespace {nlab} times in-process")
    o("  (no spawn, no sandbox), inside steps included; one sample per round, the per-step figure")
    o("  summed per round. With and without `--ipv6` (two requests more inside).")
    o()
    o("```")
    for k, c in d["commands"]["st"].items():
        o(f"st-{k:8} {short_net(c)}")
    for k, c in d["commands"]["lab"].items():
        o(f"lab-{k:7} {short_net(c)}")
    o(f"ip-batch   {d['commands']['ip_batch']}, FILE:")
    for line in d["commands"]["ip_batch_file"]:
        o(f"             {line}")
    o("```")
    o()
    o("| inside configuration | requests | median µs | min µs | p95 µs | p95/median | n | median / the batch's |")
    o("|---|---|---|---|---|---|---|---|")
    for g, name, req, s_ in rows:
        if not s_:
            o(f"| {name} | {req} | (no data) | | | | | |")
            continue
        o(f"| {name} | {req} | {fmt(s_['median'])} | {fmt(s_['min'])} | {fmt(s_['p95'])} | "
          f"{s_['p95'] / s_['median']:.2f} | {s_['n']} | **{s_['median'] / ref[g]:.2f}x** |")
    o()
    walls = {k: stats([r["process_wall"] for r in st[k]]) for k in ("veth", "vethb")}
    o("Whole process, spawn to exit (medians): " + ", ".join(
        f"`{' '.join(x for x in d['commands']['st'][k].split() if x.startswith('--net'))}` "
        f"{fmt(w['median'] / 1000, 2)} ms (p95 {fmt(w['p95'] / 1000, 2)})" for k, w in walls.items()) + ".")
    o()
    per, bat, ipc, ipb = (r[3]["median"] for r in rows[:4])
    lp, lb = rows[4][3]["median"], rows[5][3]["median"]
    o("Reading:")
    o()
    def delta(x, y):
        return f"{fmt(abs(x - y))} µs {'saved' if x > y else 'more'}"

    line = (f"- In the lab, batching takes the IPv4 inside configuration from {fmt(lp)} to {fmt(lb)} µs "
            f"({lp / lb:.2f}x, {delta(lp, lb)})")
    if len(rows) == 8 and rows[6][3] and rows[7][3]:
        p6, b6 = rows[6][3]["median"], rows[7][3]["median"]
        line += f", with IPv6 from {fmt(p6)} to {fmt(b6)} µs ({p6 / b6:.2f}x, {delta(p6, b6)})"
    o(line + ";")
    o(f"  per launch from {fmt(per)} to {fmt(bat)} µs ({per / bat:.2f}x), with the launch's noise (p95/median")
    o("  above). *(inferred)* What goes is the round trips (four of six, eight of ten), each a send, a")
    o("  wake-up and a receive; the kernel's work per request (an address, a route, a link state")
    o("  change under the RTNL lock) stays, and it is most of each step.")
    fl_ns = med(d["floor"]["ip_netns_show_lo"])
    o(f"- ip: {fmt(ipc)} µs for the four commands as four processes ({ipc / bat:.0f}x the batch), {fmt(ipb)} µs as")
    o(f"  one `ip -batch` process ({ipb / bat:.0f}x). ip's batch mode saves three spawns, but its one process")
    o(f"  still starts and switches namespace (`ip -n … link show lo` alone: {fmt(fl_ns)} µs, 7a).")
    wv = walls["veth"]["median"]
    o("- The batch is an option (`--net-batch`), not the default: it reports one figure,")
    o("  `inside_batch`, where the default reports every step, which is what the report is for; and")
    o(f"  the lab's difference, {fmt(abs(lp - lb))} µs, is {abs(lp - lb) / wv * 100:.2f}% of a whole `--net=veth` launch "
      f"({fmt(wv / 1000, 2)} ms; 7b shows where it goes).")

def short_net(cmd):
    return re.sub(r"\S*/sandboxtime(?=\s)", "sandboxtime", cmd, count=1)


def target_row(t):
    bold = t[2].startswith("missed")
    return f"| {t[0]} | {t[1]} | {'**' + t[2] + '**' if bold else t[2]} |"


def old_net_block(text):
    """The network block (lines) and its target row of an existing report, if any."""
    lines = text.split("\n")
    if NET_BEGIN.split(":")[0] not in text:
        return None, None
    b = next(i for i, l in enumerate(lines) if l.startswith(NET_BEGIN.split(":")[0]))
    e = next((i for i, l in enumerate(lines) if l == NET_END and i > b), None)
    if e is None:
        return None, None
    row = next((l for l in lines if l.startswith(NET_TARGET_PREFIX)), None)
    return lines[b:e + 1], row


def old_rel_block(text):
    """The reliability block (lines, markers included) of an existing report, if any."""
    lines = text.split("\n")
    key = REL_BEGIN.split(":")[0]
    b = next((i for i, l in enumerate(lines) if l.startswith(key)), None)
    e = next((i for i, l in enumerate(lines) if l == REL_END and b is not None and i > b), None)
    if b is None or e is None:
        return None
    return lines[b:e + 1]


HAND_BEGIN = "<!-- BEGIN hand"
HAND_END = "<!-- END hand -->"


def old_hand_blocks(text):
    """Every hand-written block (<!-- BEGIN hand...--> to <!-- END hand -->) of the report,
    kept as it is: results of commands this script does not run (bench syscall, netbench)."""
    lines = text.split("\n")
    blocks, b = [], None
    for i, l in enumerate(lines):
        if l.startswith(HAND_BEGIN):
            b = i
        elif l == HAND_END and b is not None:
            blocks.append(lines[b:i + 1])
            b = None
    return blocks


def splice_net(text, block, row):
    """text with the network block and target row replaced (or added)."""
    lines = text.split("\n") if text else ["# sandboxtime benchmarks", ""]
    key = NET_BEGIN.split(":")[0]
    b = next((i for i, l in enumerate(lines) if l.startswith(key)), None)
    e = next((i for i, l in enumerate(lines) if l == NET_END and b is not None and i > b), None)
    if b is not None and e is not None:
        lines[b:e + 1] = block
    else:
        while lines and lines[-1] == "":
            lines.pop()
        lines += [""] + block
    lines = [l for l in lines if not l.startswith(NET_TARGET_PREFIX)]
    if row:
        try:
            t = lines.index("## Targets")
            i = t + 1
            while i < len(lines) and not lines[i].startswith("|"):
                i += 1
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            lines.insert(i, row)
        except ValueError:
            pass
    return "\n".join(lines).rstrip() + "\n"


if ONLY == "net":
    if not os.path.exists(path("net-steps.json")):
        raise SystemExit(f"analyze: {RES} has no net-steps.json")
    blk, tgt = net_lines(RES, "BENCH_ONLY=net bash bench/run.sh BIN")
    old = open(OUT).read() if os.path.exists(OUT) else ""
    with open(OUT, "w") as f:
        f.write(splice_net(old, blk, target_row(tgt) if tgt else None))
    print(f"analyze: rewrote the network section of {OUT}", file=sys.stderr)
    sys.exit(0)

facts = {}
with open(path("facts.txt")) as f:
    for line in f:
        k, _, v = line.rstrip("\n").partition("=")
        facts[k] = v
ROUNDS = int(facts["rounds"])
TMP = facts["tmp"]


def short(cmd):
    """The commands as a reader can run them: no temporary directory."""
    return cmd.replace(TMP + "/bin/", "")


# ---------------------------------------------------------------------------
def launch_group(tag):
    """Per command name: round medians and pooled times, in ms."""
    with open(path(tag + ".commands")) as f:
        specs = [l.rstrip("\n") for l in f if l.strip()]
    names = [s.split("=", 1)[0] for s in specs]
    cmds = {s.split("=", 1)[0]: s.split("=", 1)[1] for s in specs}
    rounds = {n: [] for n in names}
    pooled = {n: [] for n in names}
    userfrac = {n: [] for n in names}
    per_round = []
    for r in range(1, ROUNDS + 1):
        f = f"{tag}-{r}.json"
        if not exists(f):
            continue
        res = load(f)["results"]
        n = len(names)
        order = [names[(i + r - 1) % n] for i in range(n)]
        this = {}
        for name, b in zip(order, res):
            if b["command"] != name:
                raise SystemExit(f"analyze: {f}: expected {name}, found {b['command']}")
            times = [t * 1000 for t in b["times"]]
            rounds[name].append(med(times))
            pooled[name].extend(times)
            userfrac[name].append((b["user"] + b["system"]) * 1000)
            this[name] = med(times)
        per_round.append((r, order, this))
    stats = {}
    for n in names:
        p = pooled[n]
        stats[n] = {
            "median": med(rounds[n]),
            "rounds": rounds[n],
            "min": min(p),
            "p95": pct(p, 0.95),
            "stddev": statistics.stdev(p),
            "n": len(p),
            "cpu": med(userfrac[n]),
        }
    return names, cmds, stats, per_round


def ratio_rounds(per_round, a, b):
    return [pr[a] / pr[b] for _, _, pr in per_round if a in pr and b in pr]


def launch_section(title, tag, who, floor_name, ratio_peers):
    names, cmds, st, per_round = launch_group(tag)
    runs = facts["runs"]
    w(f"### {title}")
    w()
    w(f"Run {who}. Each round is one hyperfine call (the commands below, in that order in round 1,")
    w("rotated by one in each later round, so that no command always runs first or last):")
    w()
    w("```")
    prefix = "setpriv --reuid=nobody --regid=nogroup --clear-groups " if who.startswith("as nobody") else ""
    w(f"{prefix}hyperfine -N --warmup {facts['warmup']} --runs {runs} --export-json ROUND.json \\")
    for n in names:
        w(f"    -n {n} '{short(cmds[n])}' \\")
    w("```")
    w()
    w(f"Median = median of the {len(per_round)} round medians; min, p95 and stddev over all "
      f"{st[names[0]]['n']} runs pooled; CPU = user+sys per run (hyperfine, median of rounds).")
    w()
    hdr = "| command | median ms | round medians ms | min ms | p95 ms | p95/median | stddev ms | CPU ms |"
    for p in ratio_peers:
        hdr += f" / {p} |"
    w(hdr)
    w("|" + "---|" * (8 + len(ratio_peers)))
    for n in names:
        s = st[n]
        row = (f"| {n} | {fmt(s['median'], 2)} | {', '.join(fmt(x, 2) for x in s['rounds'])} | "
               f"{fmt(s['min'], 2)} | {fmt(s['p95'], 2)} | {fmt(s['p95'] / s['median'], 2)} | "
               f"{fmt(s['stddev'], 2)} | {fmt(s['cpu'], 2)} |")
        for p in ratio_peers:
            row += f" {s['median'] / st[p]['median']:.2f} |"
        w(row)
    w()
    out = {}
    for peer in ["unshare", "bwrap", floor_name]:
        rr = ratio_rounds(per_round, "sandboxtime", peer)
        out[peer] = (st["sandboxtime"]["median"] / st[peer]["median"], rr)
    w("Ratios of sandboxtime's median to each peer's (per round in brackets; below 1 means sandboxtime is faster):")
    w()
    for peer, (r, rr) in out.items():
        w(f"- sandboxtime / {peer}: **{r:.2f}** ({', '.join(f'{x:.2f}' for x in rr)})")
    w()
    return st, out


# ---------------------------------------------------------------------------
w("# sandboxtime benchmarks")
w()
w(f"Generated by `{facts.get('invocation', 'bash bench/run.sh BIN')}` (plain `make bench` runs "
  f"`bash bench/run.sh build/sandboxtime`) on {facts['date']}; every number below")
w("comes from that run, and rerunning the script rewrites this file. Medians of repeated runs, with")
w("their spread; key rows are repeated in rounds and the rounds are shown. Measured numbers and")
w("inferences are kept apart: inferences are marked *(inferred)*.")
w()
w("## Machine")
w()
w("| fact | value |")
w("|---|---|")
w(f"| date | {facts['date']} |")
w(f"| kernel | {facts['kernel']} (CONFIG_HZ={facts.get('hz') or '?'}) |")
w(f"| CPU | {facts['cpu']}, {facts['cpus']} online CPUs, "
  f"{'virtual machine (hypervisor flag), shared and noisy' if facts['hypervisor'] == 'yes' else 'bare metal'} |")
w(f"| load average | {facts['loadavg']} at start, {facts.get('loadavg_end', '?')} at the end (other work on the "
  "machine, other engineers' test runs included, was not stopped) |")
w(f"| run as | {facts['user']}; rootless rows as `nobody` via setpriv |")
w("| pinned | launch rows: no (hyperfine and the tools float over both CPUs); accuracy rows: "
  "`--cpu=0` / `clone_loop -c 0` (parent and child on CPU 0) |")
rcu_line = facts["rcu_expedited"]
if "rcu_old" in facts:
    rcu_line += (f" for every row except section 5b, run with 1 and then restored to "
                 f"{facts.get('rcu_restored', '?')} (was {facts['rcu_old']})")
w(f"| /sys/kernel/rcu_expedited | {rcu_line} |")
w(f"| sandboxtime | {facts['sandboxtime']}, git {facts['git']}, binary sha256 {facts['bin_sha256']}…, "
  f"{facts['git_dirty_src']} uncommitted change(s) in src/ include/ Makefile at run time |")
w(f"| tools | {facts['hyperfine']}; {facts['bwrap']}; {facts['unshare']}; "
  f"{facts['crun'] or 'crun not installed'}; {facts['gcc']} (clone_loop -O2) |")
w("| PATH | fixed by run.sh to the Debian default (unshare resolves `true` through it) |")
w()

# ---------------------------------------------------------------------------
summary = []
body_start = len(md)

w("## 1. Launch: sandboxtime against unshare, bwrap and the floor")
w()
w("The floor is `clone_loop --exec FLAGS -- /bin/true` (bench/clone_loop.c): hyperfine execs it,")
w("it calls clone3() with the same namespace flags, the child execs /bin/true, the parent waits.")
w("That is fork+exec twice plus the clone with the flags, timed by the same instrument as the")
w("others. It sets up nothing inside (no /proc, no `lo`, no id maps), so it is a floor, not a peer.")
w("bwrap is `bwrap --unshare-all` with /usr bound read-only and a fresh /proc (it cannot run")
w("/bin/true with an empty root); note that `--unshare-all` also makes a user and a cgroup")
w("namespace, so bwrap builds seven namespaces where the others build five (six rootless).")
w()
launch = {}
if exists("launch-root.commands"):
    launch["root"] = launch_section("1a. As root", "launch-root", "as root", "floor",
                                    ["unshare", "floor"])
if exists("launch-rootless.commands"):
    launch["rootless"] = launch_section(
        "1b. Rootless", "launch-rootless",
        "as nobody (hyperfine itself runs as nobody; sandboxtime adds the user namespace by itself)",
        "floor", ["unshare", "floor"])

# in-process floor
w("### 1c. The floor computed in-process")
w()
w("`clone_loop --floor -n 300 -w 20 FLAGS`: per round one fork+exec+wait of /bin/true and one")
w("clone3(FLAGS) cycle (clone, child reports on a pipe, exits, is reaped); floor = 2 × median")
w("fork+exec + median clone cycle. No hyperfine in the loop, so it lacks hyperfine's own spawn cost.")
w()
w("| run as | flags | fork+exec+wait /bin/true ms (p95) | clone cycle ms (p95) | floor ms | sandboxtime (hyperfine) / this floor |")
w("|---|---|---|---|---|---|")
inproc_floor = {}
for who, f in (("root", "floor-root.json"), ("rootless", "floor-rootless.json")):
    if not exists(f):
        continue
    d = load_lines(f)[0]
    fe, cc = d["fork_exec_true_us"], d["clone_cycle_us"]
    fl = d["floor_us"] / 1000
    inproc_floor[who] = fl
    st_med = launch[who][0]["sandboxtime"]["median"] if who in launch else None
    w(f"| {who} | {d['flags']} | {fmt(fe['median'] / 1000, 3)} ({fmt(fe['p95'] / 1000, 3)}) | "
      f"{fmt(cc['median'] / 1000, 3)} ({fmt(cc['p95'] / 1000, 3)}) | {fmt(fl, 3)} | "
      f"{fmt(st_med / fl, 2) if st_med else '-'} |")
w()

for who in ("root", "rootless"):
    if who not in launch:
        continue
    st, out = launch[who]
    r_un, rr_un = out["unshare"]
    r_fl, rr_fl = out["floor"]
    verdict = "met" if r_un <= TARGET_UNSHARE else f"missed: {r_un:.2f} is {r_un / TARGET_UNSHARE:.2f}x the target"
    summary.append((f"launch, {who}: sandboxtime / unshare ≤ {TARGET_UNSHARE}",
                    f"{r_un:.2f} (rounds {', '.join(f'{x:.2f}' for x in rr_un)}); "
                    f"{fmt(st['sandboxtime']['median'], 2)} ms vs {fmt(st['unshare']['median'], 2)} ms",
                    verdict))
    verdict = "met" if r_fl <= TARGET_FLOOR else f"missed: {r_fl:.2f} is {r_fl / TARGET_FLOOR:.2f}x the target"
    extra = ""
    if who in inproc_floor:
        extra = f"; against the in-process floor ({fmt(inproc_floor[who], 2)} ms): " \
                f"{st['sandboxtime']['median'] / inproc_floor[who]:.2f}"
    summary.append((f"launch, {who}: sandboxtime / floor ≤ {TARGET_FLOOR}",
                    f"{r_fl:.2f} (rounds {', '.join(f'{x:.2f}' for x in rr_fl)}); floor "
                    f"{fmt(st['floor']['median'], 2)} ms{extra}", verdict))

# ---------------------------------------------------------------------------
if exists("parts.commands"):
    w("## 2. Where sandboxtime's launch time goes (root)")
    w()
    names, cmds, st, per_round = launch_group("parts")
    w("Same method as 1a (hyperfine -N, rounds rotated), with sandboxtime's options that skip")
    w("work, and the exec of the binary alone:")
    w()
    w("```")
    for n in names:
        w(f"{n}: {short(cmds[n])}")
    w("```")
    w()
    base = st["sandboxtime"]["median"]
    w("| variant | median ms | round medians ms | p95 ms | vs default sandboxtime |")
    w("|---|---|---|---|---|")
    for n in names:
        s = st[n]
        w(f"| {n} | {fmt(s['median'], 2)} | {', '.join(fmt(x, 2) for x in s['rounds'])} | "
          f"{fmt(s['p95'], 2)} | {s['median'] - base:+.2f} ms |")
    w()
    exec_extra = st["st --version"]["median"] - st["/bin/true"]["median"]
    nonet_ratio = st["st no net"]["median"] / st["unshare no net"]["median"]
    probe_net = load_lines("probe-net.json")[0]["probe_us"]
    probe_none = load_lines("probe-none.json")[0]["probe_us"]
    steps = {}
    walls = []
    for f in sorted(glob.glob(path("steps-*.json"))):
        d = json.load(open(f))
        for s in d["steps"]:
            steps.setdefault(s["step"], []).append(s["us"])
        walls.append(d["workload"]["wall_us"])
    w("Measured in-process, as root:")
    w()
    w("| what | median µs | p95 µs | how |")
    w("|---|---|---|---|")
    w(f"| availability probe (fork, unshare {{uts,ipc,pid,mount,net}} one by one, exit, reap) | "
      f"{fmt(probe_net['median'])} | {fmt(probe_net['p95'])} | `clone_loop --probe -n 300 uts,ipc,pid,mount,net`: "
      f"the same work as sandboxtime's st_layer_probe(), which runs before measuring (--repeat above 0); a single launch (--repeat=0) runs it only when its clone fails |")
    w(f"| same probe without namespaces (fork, exit, reap) | {fmt(probe_none['median'])} | {fmt(probe_none['p95'])} | "
      f"`clone_loop --probe -n 300 none` |")
    for k, v in steps.items():
        w(f"| step `{k}` (sandboxtime's own report) | {fmt(med(v))} | {fmt(pct(v, 0.95))} | "
          f"`sandboxtime --repeat=0 -J`, {len(v)} runs |")
    w(f"| workload wall (init forks, execs /bin/true, reaps) | {fmt(med(walls))} | {fmt(pct(walls, 0.95))} | same runs |")
    w()
    # strace counts
    def strace_counts(f):
        c = {}
        with open(path(f)) as fh:
            for line in fh:
                m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$", line)
                if m:
                    c[m.group(2)] = int(m.group(1))
        return c
    sc = {t: strace_counts(f"strace-{t}.txt") for t in ("sandboxtime", "unshare", "floor")}
    w("System calls of one launch (`strace -f -c`, counts only: strace's times are distorted):")
    w()
    w("| syscall | sandboxtime -q | unshare | floor |")
    w("|---|---|---|---|")
    for k in ("clone", "clone3", "unshare", "execve", "wait4", "mount", "socket", "total"):
        w(f"| {k} | " + " | ".join(str(sc[t].get(k, 0)) for t in ("sandboxtime", "unshare", "floor")) + " |")
    w()
    gap = base - st["unshare"]["median"]
    # round-to-round spread of the default row: a change smaller than this is noise
    noise = max(st["sandboxtime"]["rounds"]) - min(st["sandboxtime"]["rounds"])
    noise = max(noise, 0.05 * base)

    def effect(name):
        d = st[name]["median"] - base
        per = [pr[name] - pr["sandboxtime"] for _, _, pr in per_round]
        txt = f"{d:+.2f} ms (per round {', '.join(f'{x:+.2f}' for x in per)})"
        if abs(d) <= noise:
            return txt + f", inside the noise (±{noise:.2f} ms)"
        return txt
    w("Reading *(inferred from the rows above; the parts overlap and do not add up exactly)*:")
    w()
    if gap is not None:
        w(f"- In this group sandboxtime takes {gap:+.2f} ms over unshare for the same five namespaces.")
    n_unshare = sc["sandboxtime"].get("unshare", 0)
    n_procs = sc["sandboxtime"].get("clone", 0) + sc["sandboxtime"].get("clone3", 0)
    w(f"- strace counts {n_unshare} unshare() calls and {n_procs} process creations for sandboxtime, "
      f"{sc['unshare'].get('unshare', 0)} and {sc['unshare'].get('clone', 0) + sc['unshare'].get('clone3', 0)} for unshare.")
    if n_unshare:
        w("  The unshare() calls are the availability probe (`st_layer_probe`, from `st_session_prepare`),")
        w("  which runs even with `--repeat=0`: a forked child creates every asked-for namespace once more,")
        w(f"  the network namespace included; clone_loop's copy of that work takes "
          f"{probe_net['median'] / 1000:.2f} ms ({(probe_net['median'] - probe_none['median']) / 1000:.2f} ms of it in the namespaces).")
        w("  Its network namespace is then torn down by the kernel (cleanup_net) while the real sandbox is")
        w("  being built, on a 2-CPU machine.")
    else:
        w("  This binary no longer runs the availability probe at launch (no unshare() call); the probe it")
        w(f"  used to run costs {probe_net['median'] / 1000:.2f} ms in clone_loop's copy of that work "
          f"({(probe_net['median'] - probe_none['median']) / 1000:.2f} ms of it in the namespaces). Section 2b times the change.")
    w(f"- Exec of the binary: `sandboxtime --version` costs "
      f"{st['st --version']['median'] - st['/bin/true']['median']:+.2f} ms over /bin/true "
      f"(shared libraries {facts.get('bin_libs', '').strip()} and their relocations).")
    ratio_net = base / st["unshare"]["median"]
    w(f"- Without the network namespace, sandboxtime / unshare is {nonet_ratio:.2f} "
      f"('st no net' / 'unshare no net'){f', against {ratio_net:.2f} with it' if ratio_net else ''}.")
    w(f"- `--quiet` (no report): {effect('st --quiet')}.")
    w(f"- `--no-init` (no init process, one fork less): {effect('st --no-init')}.")
    w(f"- both: {effect('st --quiet --no-init')}.")
    # Like with like: what each peer does, and only that.
    if "st like unshare" in st:
        lu = st["st like unshare"]["median"]
        w(f"- Like with like, unshare: 'st like unshare' (`-q --no-init --seccomp=none --cap-add=ALL "
          f"--no-new-privileges=false`: no init, no filter, every capability kept, as unshare does; "
          f"it still sets the hostname and brings `lo` up) takes {lu:.2f} ms, "
          f"{lu / st['unshare']['median']:.2f}x unshare; the default run adds the init, the capability drop, "
          f"no_new_privs and the seccomp filter on top ({effect('st like unshare')}).")
    if "st no seccomp" in st and "bwrap" in st:
        sn = st["st no seccomp"]["median"]
        w(f"- Like with like, bwrap: bwrap --unshare-all has a pid-1 init of its own, brings `lo` up, drops "
          f"capabilities and sets no_new_privs, but loads no filter: 'st no seccomp' (`--seccomp=none`) takes {sn:.2f} ms, "
          f"{sn / st['bwrap']['median']:.2f}x bwrap (which also makes a user and a cgroup namespace and a tmpfs root).")
    if "lo_up" in steps:
        w(f"- Inside the sandbox, `lo_up` (a netlink socket and one RTM_NEWLINK) takes "
          f"{fmt(med(steps['lo_up']))} µs median and `mount_proc` {fmt(med(steps.get('mount_proc', [0])))} µs;")
        w("  unshare mounts /proc too but does not bring `lo` up.")
    if gap is not None:
        known = (probe_net["median"] if n_unshare else 0) / 1000 + med(steps.get("lo_up", [0])) / 1000 + \
            st["st --version"]["median"] - st["/bin/true"]["median"]
        w(f"- {'Probe + ' if n_unshare else ''}extra exec cost + lo_up ≈ {known:.2f} ms of the {gap:.2f} ms gap; "
          "the rest is spread over the remaining work (a process more than unshare: the init, pipes,")
        w("  the report, and the 2-CPU machine's other activity).")
    w()
    w("Which optimisations help and by how much: the rows above measure the options that exist")
    w("(`--quiet`, `--no-init`) and work that could be avoided; "
      + ("section 2b times earlier commits against this binary." if exists("versions.commands")
         else "rerun with `BENCH_COMMITS=\"sha ...\"` to time earlier commits beside it."))
    w("This benchmark changes nothing in src/.")
    w()

# ---------------------------------------------------------------------------
FIGS = ("setup_us", "ready_us", "teardown_us")
SETNAMES = ["base", "user", "uts", "ipc", "pid", "mount", "cgroup", "time", "net"]


def accuracy_section(tag, who):
    rr = [r for r in range(1, ROUNDS + 1) if exists(f"{tag}-st-{r}.json")]
    sts = [load(f"{tag}-st-{r}.json") for r in rr]
    cls = [load_lines(f"{tag}-cl-{r}.json") for r in rr]
    libs = [load_lines(f"{tag}-cllibs-{r}.json") for r in rr if exists(f"{tag}-cllibs-{r}.json")]
    rows = []
    worst = (0, None)
    within = total = within_libs = 0
    avail = [l for l in sts[0]["layers"] if l.get("available", True)]
    unavailable = [l["layer"] for l in sts[0]["layers"] if not l.get("available", True)]
    # clone_loop measured every set; keep those sandboxtime could measure
    cl_idx = [i for i, n in enumerate(SETNAMES) if n not in unavailable]

    def layer_of(doc, name):
        return next(l for l in doc["layers"] if l["layer"] == name)

    for k, layer in enumerate(avail):
        name = layer["layer"]
        for fig in FIGS:
            stm = [layer_of(s, name)[fig]["median"] for s in sts]
            stp = [layer_of(s, name)[fig]["p95"] for s in sts]
            clm = [c[cl_idx[k]][fig]["median"] for c in cls]
            clp = [c[cl_idx[k]][fig]["p95"] for c in cls]
            lbm = [c[cl_idx[k]][fig]["median"] for c in libs]
            a, b = med(stm), med(clm)
            lb = med(lbm) if lbm else None
            ratio = a / b
            ok = abs(ratio - 1) <= TARGET_AGREE
            within += ok
            if lb:
                within_libs += abs(a / lb - 1) <= TARGET_AGREE
            total += 1
            if abs(ratio - 1) > worst[0]:
                worst = (abs(ratio - 1), f"{name} {fig[:-3]} ({ratio:.2f})")
            rows.append((name, cls[0][cl_idx[k]]["flags"], fig[:-3], a, stm, b, clm, ratio, ok,
                         med(stp) / a, med(clp) / b, lb))
    w(f"### {who}")
    w()
    w("```")
    pre = "setpriv --reuid=nobody --regid=nogroup --clear-groups " if who.startswith("Rootless") else ""
    w(f"{pre}sandboxtime layers --format=json --cpu=0 --ns=all --repeat={sts[0]['config']['repeat']} "
      f"--warmup={sts[0]['config']['warmup']} --deferred-repeat=0 -o st-R.json")
    w(f"{pre}clone_loop -c 0 -n {cls[0][0]['setup_us']['n']} -w 5 " + " ".join(c["flags"] for c in cls[0]))
    if libs:
        w(f"{pre}clone_loop_libs -c 0 -n {cls[0][0]['setup_us']['n']} -w 5 ...same sets...")
    w("```")
    w()
    w(f"Alternated {len(sts)} times (sandboxtime, clone_loop{', clone_loop_libs' if libs else ''}, then again). "
      f"Report: host.rootless={sts[0]['host']['rootless']}, pinned_cpu={sts[0]['host']['pinned_cpu']}."
      + (f" Unavailable here: {', '.join(unavailable)}." if unavailable else ""))
    w("Median = median of the per-run medians (each run's median in brackets); spread = p95/median")
    w("(median over runs). `clone_loop_libs` is the same source linked with the libraries sandboxtime")
    w(f"loads ({facts.get('bin_libs', '?').strip()}), to show what the measuring process's own size adds.")
    w()
    w("| set | clone_loop flags | figure | sandboxtime µs | clone_loop µs | st / cl | within 15% | spread st | spread cl | st / cl_libs |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for (name, flags, fig, a, stm, b, clm, ratio, ok, sp_a, sp_b, lb) in rows:
        w(f"| {name} | {flags} | {fig} | {fmt(a)} [{', '.join(fmt(x, 0) for x in stm)}] | "
          f"{fmt(b)} [{', '.join(fmt(x, 0) for x in clm)}] | {ratio:.2f} | {'yes' if ok else '**no**'} | "
          f"{sp_a:.2f} | {sp_b:.2f} | {f'{a / lb:.2f}' if lb else '-'} |")
    w()
    w("Per-layer increments (set median minus the previous set's median), µs:")
    w()
    w("| layer | +setup st | +setup cl | +teardown st | +teardown cl |")
    w("|---|---|---|---|---|")
    by = {}
    for row in rows:
        by.setdefault(row[0], {})[row[2]] = (row[3], row[5])
    names = [l["layer"] for l in avail]
    incdiff = []
    for i in range(1, len(names)):
        cur, prev = by[names[i]], by[names[i - 1]]
        for f_ in ("setup", "teardown"):
            a_inc, b_inc = cur[f_][0] - prev[f_][0], cur[f_][1] - prev[f_][1]
            # agreement: within 15% of the increment, or 5 µs for increments too small for a ratio
            ok_inc = abs(a_inc - b_inc) <= max(5.0, TARGET_AGREE * abs(b_inc))
            incdiff.append((names[i], f_, a_inc - b_inc, ok_inc, a_inc, b_inc))
        w(f"| {names[i]} | {cur['setup'][0] - prev['setup'][0]:+.1f} | {cur['setup'][1] - prev['setup'][1]:+.1f} | "
          f"{cur['teardown'][0] - prev['teardown'][0]:+.1f} | {cur['teardown'][1] - prev['teardown'][1]:+.1f} |")
    w()
    w(f"{within} of {total} figures agree within 15% with clone_loop"
      + (f", {within_libs} of {total} with clone_loop_libs." if libs else "."))
    w()
    ratios = [row[7] for row in rows]
    libr = [row[3] / row[11] for row in rows if row[11]]
    net_inc = None
    if "net" in by and len(names) > 1:
        i = names.index("net")
        net_inc = (by["net"]["setup"][0] - by[names[i - 1]]["setup"][0],
                   by["net"]["setup"][1] - by[names[i - 1]]["setup"][1])
    info = {"min": min(ratios), "max": max(ratios), "net_inc": net_inc,
            "inc_ok": sum(1 for x in incdiff if x[3]), "inc_n": len(incdiff),
            "inc_bad": [x for x in incdiff if not x[3]],
            "libs": (min(libr), max(libr)) if libr else None,
            "incdiff": max(incdiff, key=lambda x: abs(x[2])) if incdiff else None,
            "incdiff_nonet": max((x for x in incdiff if x[0] != "net"), key=lambda x: abs(x[2]), default=None)}
    return within, total, worst, within_libs if libs else None, info


if exists("versions.commands"):
    w("### 2b. Which changes helped: earlier commits built and timed beside this binary")
    w()
    names, cmds, st, per_round = launch_group("versions")
    subj = {}
    for line in open(path("versions.txt")):
        sha, date, text = line.rstrip("\n").split("\t", 2)
        subj[sha] = (date, text)
    w("Each commit was built from `git archive SHA` with its own Makefile (`make BUILD=build WERROR=0`),")
    w(f"then timed as in 1a (hyperfine -N, {len(per_round)} rotated rounds), all with")
    w(f"`--repeat=0 --ns=uts,ipc,pid,mount,net -- /bin/true`. BIN is the binary under test ({facts['git']}).")
    w()
    w("| build | commit | median ms | round medians ms | p95 ms | / unshare | change vs the row above |")
    w("|---|---|---|---|---|---|---|")
    order = [n for n in names if n not in ("BIN", "unshare")] + ["BIN", "unshare"]
    prev = None
    for n in order:
        sd = st[n]
        title = "-" if n in ("BIN", "unshare") else f"{subj[n][1]} ({subj[n][0][:16]})"
        if n == "BIN":
            title = f"working tree at git {facts['git']}"
        if n == "unshare":
            title = "util-linux, for reference"
        ch = "-"
        if prev is not None and n != "unshare":
            per = [pr[n] - pr[prev] for _, _, pr in per_round]
            ch = f"{sd['median'] - st[prev]['median']:+.2f} ms ({', '.join(f'{x:+.2f}' for x in per)})"
        w(f"| {n} | {title} | {fmt(sd['median'], 2)} | {', '.join(fmt(x, 2) for x in sd['rounds'])} | "
          f"{fmt(sd['p95'], 2)} | {sd['median'] / st['unshare']['median']:.2f} | {ch} |")
        if n != "unshare":
            prev = n
    older = [st[n]["median"] for n in names if n not in ("BIN", "unshare")]
    if older:
        w()
        w(f"The earlier builds' medians span {min(older):.2f}–{max(older):.2f} ms; BIN against their median: "
          f"{st['BIN']['median'] - med(older):+.2f} ms ({(st['BIN']['median'] / med(older) - 1) * 100:+.0f}%). "
          "Commits that do not touch the launch path measure this machine's noise.")
    w()

w("## 3. Accuracy: sandboxtime's per-layer medians against an independent loop")
w()
w("bench/clone_loop.c shares no code with libsandboxtime. For each cumulative flag set it runs")
w("clone3 → child writes one byte on a pipe → parent closes the child's \"go\" pipe → child exits →")
w("waitpid, interleaving the sets round by round as sandboxtime does; setup = the clone3() call,")
w("ready = clone3() start until the byte arrives, teardown = closing \"go\" until waitpid() returns.")
w("Both pinned to CPU 0, run back to back in the same session.")
w()
acc = {}
if exists("acc-root-st-1.json"):
    acc["root"] = accuracy_section("acc-root", "As root (user namespace asked for by --ns=all)")
if exists("acc-rootless-st-1.json"):
    acc["rootless"] = accuracy_section("acc-rootless", "Rootless (as nobody)")
if acc:
    w("Reading:")
    w()
    for who, (within, total, worst, wl, info) in acc.items():
        d = info["incdiff_nonet"]
        w(f"- {who}: {within}/{total} set medians within 15% of clone_loop"
          + (f", {wl}/{total} of clone_loop_libs" if wl is not None else "")
          + f". sandboxtime / clone_loop ranges {info['min']:.2f}–{info['max']:.2f}"
          + (f", sandboxtime / clone_loop_libs {info['libs'][0]:.2f}–{info['libs'][1]:.2f}" if info["libs"] else "")
          + f"; {info['inc_ok']}/{info['inc_n']} per-layer increments agree within 15% or 5 µs"
          + (f", the largest difference outside net {d[2]:+.1f} µs ({d[0]} {d[1]})" if d else "")
          + (f", net's by {info['incdiff'][2]:+.1f} µs" if info["incdiff"] and info["incdiff"][0] == "net" else "")
          + ".")
    w("- Where the two differ, sandboxtime is the higher one, most on the light sets (a constant number")
    w("  of µs is a larger fraction of 50 µs than of 500 µs), while the increments mostly agree: a per-clone")
    w("  overhead, not a per-layer error. *(inferred)* clone3() copies the caller's")
    w("  memory map and exit tears it down, so the extra mappings of the libraries sandboxtime loads are")
    w("  part of its base setup, ready and teardown figures: these are the costs of cloning")
    w("  sandboxtime, and a leaner caller (a container runtime's small init, clone_loop) pays less.")
    w("  The increments, which the report's + columns show, do not depend on it.")
    w()

for who, (within, total, worst, wl, info) in acc.items():
    summary.append((f"accuracy, {who}: set medians within 15% of clone_loop",
                    f"{within}/{total} figures within; worst {worst[1]}"
                    + (f"; against clone_loop_libs {wl}/{total}" if wl is not None else ""),
                    "met" if within == total else f"missed on {total - within} of {total}"))
    ni = info["net_inc"]
    if info["inc_n"]:
        bad = "; ".join(f"{x[0]} +{x[1]} {x[4]:.1f} vs {x[5]:.1f} µs" for x in info["inc_bad"])
        summary.append((f"accuracy, {who}: per-layer increments (+setup, +teardown) within 15% (or 5 µs) of clone_loop's",
                        f"{info['inc_ok']}/{info['inc_n']} agree" + (f" (not: {bad})" if bad else "")
                        + (f"; net +setup {ni[0]:.0f} vs {ni[1]:.0f} µs ({ni[0] / ni[1]:.2f})" if ni else ""),
                        "met" if info["inc_ok"] == info["inc_n"] else
                        f"missed on {info['inc_n'] - info['inc_ok']} of {info['inc_n']}"))

# ---------------------------------------------------------------------------
w("## 4. The cost of measuring")
w()
w("```")
w("/usr/bin/time -f '%e %M' sandboxtime layers --ns=all                       # defaults, table")
w("/usr/bin/time -f '%e %M' sandboxtime layers --ns=all --format=json -o F     # for its own timers")
w("```")
w()
w("Wall and peak RSS from /usr/bin/time (GNU time's %M is the maximum resident set of sandboxtime")
w("and of the children it reaped, which are forks of itself: an upper bound on its own peak).")
w("`elapsed`, `deferred wait` and `drain wait` are the report's measurement.elapsed_us, deferred_wait_us")
w("and drain_wait_us (the table's \"waited N ms for frees, and M ms untimed before the samples\");")
w("`wall − waits` is everything but the waiting for the kernel: its late frees, and the untimed drain")
w("before each deferred sample that keeps the samples independent (docs/DESIGN.md, \"drain\").")
w()
w("| run as | format | run | wall s | deferred wait s | drain wait s | elapsed s | wall − waits s | peak RSS KiB |")
w("|---|---|---|---|---|---|---|---|---|")
cost = {}
for who in ("root", "rootless"):
    for r in range(1, ROUNDS + 1):
        for fmt_ in ("table", "json"):
            f = f"cost-{who}-{fmt_}-{r}.time"
            if not exists(f):
                continue
            with open(path(f)) as fh:
                parts = fh.read().split()
            wall, rss = float(parts[-2]), int(parts[-1])
            dw = dr = el = None
            if fmt_ == "json":
                m = load(f"cost-{who}-json-{r}.json")["measurement"]
                dw, el = m["deferred_wait_us"] / 1e6, m["elapsed_us"] / 1e6
                dr = m.get("drain_wait_us", 0) / 1e6
            else:
                txt = open(path(f"cost-{who}-table-{r}.txt")).read()
                mm = re.search(r"waited ([\d.]+) ms", txt)
                drm = re.search(r"and ([\d.]+) ms untimed", txt)
                dw = float(mm.group(1)) / 1000 if mm else None
                dr = float(drm.group(1)) / 1000 if drm else 0.0
            c = cost.setdefault(who, {"net": [], "rss": []})
            if dw is not None:
                c["net"].append(wall - dw - dr)
            c["rss"].append(rss)
            w(f"| {who} | {fmt_} | {r} | {wall:.2f} | {fmt(dw, 2)} | {fmt(dr, 2)} | {fmt(el, 2)} | "
              f"{fmt(wall - dw - dr, 2) if dw is not None else '-'} | {rss} |")
w()
for who, c in cost.items():
    worst = max(c["net"])
    summary.append((f"cost of measuring, {who}: wall − waits for the kernel (frees, drains) < {TARGET_COST_S:.0f} s",
                    f"median {med(c['net']):.2f} s, worst {worst:.2f} s",
                    "met" if worst < TARGET_COST_S else "missed"))
    summary.append((f"cost of measuring, {who}: peak RSS < 4 MiB",
                    f"median {med(c['rss']):.0f} KiB, worst {max(c['rss'])} KiB",
                    "met" if max(c["rss"]) < TARGET_RSS_KB else "missed"))

# ---------------------------------------------------------------------------
w("## 5. Deferred teardown: are the figures plausible?")
w()


def deferred_tables(tag, label):
    rcu = load_lines(f"{tag}-rcu.json")[0]["synchronize_rcu_us"]
    w(f"One RCU grace period, {label}: `clone_loop --rcu -n 50` times membarrier(MEMBARRIER_CMD_GLOBAL),")
    w(f"which is synchronize_rcu() on a machine with more than one CPU: median "
      f"**{fmt(rcu['median'] / 1000, 3)} ms** (min {fmt(rcu['min'] / 1000, 3)}, p95 {fmt(rcu['p95'] / 1000, 3)}).")
    w()
    s0 = {d["flags"]: d for d in load_lines(f"{tag}-cl-s0.json")}
    s100 = {d["flags"]: d for d in load_lines(f"{tag}-cl-s100.json")}
    w("`clone_loop --deferred -n 10 -w 1 [-s 0|-s 100] FLAGS`: the method of docs/DESIGN.md in code of its")
    w("own (a helper in a fresh user namespace sets its max_<type>_namespaces to 1, runs one cycle, then")
    w("retries unshare() every 20 µs until ENOSPC stops), back to back (-s 0) or after 100 ms idle (-s 100):")
    w()
    w("| flags | back to back: median ms (min, p95) | after 100 ms idle: median ms (min, p95) |")
    w("|---|---|---|")
    for k in s0:
        a, b = s0[k]["deferred_us"], s100[k]["deferred_us"]
        w(f"| {k} | {fmt(a['median'] / 1000, 1)} ({fmt(a['min'] / 1000, 1)}, {fmt(a['p95'] / 1000, 1)}) | "
          f"{fmt(b['median'] / 1000, 1)} ({fmt(b['min'] / 1000, 1)}, {fmt(b['p95'] / 1000, 1)}) |")
    w()
    w("sandboxtime on one layer at a time (`sandboxtime layers --ns=X --repeat=10 -J`; rootless")
    w("is not involved, as root a single set besides base):")
    w()
    w("| --ns | deferred median ms | min | p95 | samples ms |")
    w("|---|---|---|---|---|")
    single = {}
    for ns in ("pid", "user", "net"):
        f = f"{tag}-st-{ns}.json"
        if not exists(f):
            continue
        l = [x for x in load(f)["layers"] if x["layer"] == ns][0]["deferred_us"]
        single[ns] = l["median"]
        w(f"| {ns} | {fmt(l['median'] / 1000)} | {fmt(l['min'] / 1000)} | {fmt(l['p95'] / 1000)} | "
          f"{', '.join(fmt(x / 1000, 0) for x in l['samples'])} |")
    w()
    return rcu, s0, s100, single


rcu0, s0, s100, single0 = deferred_tables("deferred", f"rcu_expedited={facts['rcu_expedited']}")

# sandboxtime --ns=all default, from the cost runs
alls = [load(f"cost-root-json-{r}.json") for r in range(1, ROUNDS + 1) if exists(f"cost-root-json-{r}.json")]
if alls:
    w(f"sandboxtime with defaults (`layers --ns=all`, the {len(alls)} JSON runs of section 4, as root),")
    w("deferred per cumulative set (each set includes user, so every row waits at least for the user")
    w("namespace):")
    w()
    w("| set | deferred median ms (per run) | p95 ms | +deferred (increment) ms | probes per sample |")
    w("|---|---|---|---|---|")
    neg = []
    all_net = None
    for name in SETNAMES[1:]:
        ls = [[x for x in d["layers"] if x["layer"] == name] for d in alls]
        if not ls[0] or not ls[0][0].get("deferred_us"):
            continue
        ms = [l[0]["deferred_us"]["median"] / 1000 for l in ls]
        p95 = [l[0]["deferred_us"]["p95"] / 1000 for l in ls]
        inc = [l[0]["incremental"]["deferred_us"] / 1000 for l in ls]
        probes = [l[0]["deferred_probes"] / l[0]["deferred_us"]["n"] for l in ls]
        if any(x < 0 for x in inc):
            neg.append(name)
        if name == "net":
            all_net = med(ms)
        w(f"| {name} | {fmt(med(ms))} ({', '.join(fmt(x) for x in ms)}) | {fmt(med(p95))} | "
          f"{', '.join(f'{x:+.1f}' for x in inc)} | {fmt(med(probes), 0)} |")
    w()

exp = None
if exists("deferred-exp-rcu.json"):
    w("### 5b. The same with /sys/kernel/rcu_expedited=1")
    w()
    w(f"run.sh wrote 1 to /sys/kernel/rcu_expedited (it was {facts.get('rcu_old')}), ran the rows below,")
    w(f"and wrote the old value back (read back: {facts.get('rcu_restored')}); an exit trap restores it")
    w("too if the run is interrupted. Opt-in: `BENCH_RCU_EXPEDITED=1 make bench`.")
    w()
    exp = deferred_tables("deferred-exp", "rcu_expedited=1")
    if exists("deferred-exp-st-all.json"):
        d = load("deferred-exp-st-all.json")
        w(f"`sandboxtime layers --ns=all --repeat=10 -J` with rcu_expedited=1 (report says "
          f"rcu_expedited={d['host']['rcu_expedited']}): deferred medians ms: " +
          ", ".join(f"{l['layer']} {fmt(l['deferred_us']['median'] / 1000)}"
                    for l in d["layers"] if l.get("deferred_us")))
        w()

w("Reading:")
w()
w(f"- One synchronize_rcu() takes {fmt(rcu0['median'] / 1000, 1)} ms here, the namespaces' deferred frees "
  f"{fmt(s100['pid']['deferred_us']['median'] / 1000, 0)}–{fmt(s100['user']['deferred_us']['median'] / 1000, 0)} ms "
  "(pid, user, after idle): several grace periods, not one.")
if exp:
    rcu1, e0, e100, _ = exp
    w(f"- With rcu_expedited=1, synchronize_rcu() drops to {fmt(rcu1['median'] / 1000, 3)} ms "
      f"({rcu0['median'] / rcu1['median']:.0f}x faster), but the deferred figures barely move "
      f"(after idle: pid {fmt(s100['pid']['deferred_us']['median'] / 1000)} → {fmt(e100['pid']['deferred_us']['median'] / 1000)} ms, "
      f"user {fmt(s100['user']['deferred_us']['median'] / 1000)} → {fmt(e100['user']['deferred_us']['median'] / 1000)} ms, "
      f"net {fmt(s100['net']['deferred_us']['median'] / 1000)} → {fmt(e100['net']['deferred_us']['median'] / 1000)} ms).")
    w("  So the wait is not a synchronize_rcu() that expediting would shorten. *(inferred)* It fits")
    w("  chains of call_rcu() callbacks, which rcu_expedited does not speed up: the task_struct and its")
    w("  creds are freed after a grace period, and only that drops the last reference to the user")
    w("  namespace (then freed from a work queue); the pid namespace goes through delayed_put_pid and")
    w("  then its own call_rcu; cleanup_net ends with rcu_barrier(). The README's \"~45 ms (an RCU")
    w("  grace period)\" should say \"several RCU grace periods and callbacks\".")
same = [(ns, single0[ns], s0[ns]["deferred_us"]["median"]) for ns in ("pid", "user", "net")
        if ns in single0 and ns in s0]
if same:
    w("- Same method, different code: sandboxtime alone on one layer against clone_loop back to back: "
      + ", ".join(f"{ns} {a / 1000:.1f} vs {b / 1000:.1f} ms" for ns, a, b in same)
      + (". The two implementations agree within 15%; what follows is a property of the method."
         if all(abs(a / b - 1) <= TARGET_AGREE for _, a, b in same) else
         ". They do not agree within 15% on every layer."))
if "net" in single0:
    w("- The network namespace's figure depends on what ran just before it. Back to back, clone_loop")
    w(f"  measures {fmt(s0['net']['deferred_us']['median'] / 1000)} ms; after 100 ms idle "
      f"{fmt(s100['net']['deferred_us']['median'] / 1000)} ms. sandboxtime alone on net (`--ns=net`) reports "
      f"{fmt(single0['net'] / 1000)} ms" + (f", but inside `--ns=all` the net set gets {fmt(all_net)} ms." if alls and all_net else "."))
    w("  *(inferred)* Each sample ends with the probe's own successful unshare(CLONE_NEWNET); that")
    w("  namespace dies with the helper, and its cleanup_net (one ordered work queue, namespaces batched)")
    w("  is still running when the next sample's namespace dies, which then waits for the next batch.")
    w("  With other sets interleaved (each waits ~40 ms for the user namespace), the previous cleanup")
    w("  has finished (sandboxtime's sets are interleaved, so what precedes a net sample varies with --ns).")
    w("  deferred.c says the probe's namespace \"never weighs on the next one\"; for net it")
    w("  does. An idle gap (or waiting for the helper's own net namespace to go) before each net sample")
    w("  would fix it.")
if alls and neg:
    w(f"- `incremental.deferred_us` is negative for {', '.join(neg)} in at least one run: a cumulative set's")
    w("  deferred time is the time until *all* its namespaces are free, i.e. a maximum of overlapping")
    w("  waits, not a sum, so set-minus-previous-set is not a per-layer cost. The table and JSON present it")
    w("  as one; `--alone` (or no increment for deferred) would say what is meant.")
w()

# ---------------------------------------------------------------------------
w("## 6. crun")
w()
status = open(path("crun.status")).read().strip()
if status == "ok":
    w("crun ran; see its row in 1a.")
elif status == "refused":
    w(f"crun ({facts['crun']}, Debian 12) was tried once with a minimal bundle (`crun spec`, /bin/true")
    w("copied with its libraries, the same five namespaces) and refused to start:")
    w()
    w("```")
    w(open(path("crun.txt")).read().strip())
    w("```")
    w()
    w("This host mounts cgroup v1 controllers beside a cgroup2 hierarchy that holds a controller")
    w("(hybrid mode). crun 1.8 checks /sys/fs/cgroup/unified/cgroup.controllers before it looks at")
    w("the cgroup manager (libcrun_cgroup_enter), so `--cgroup-manager=disabled` and a config without")
    w("linux.resources do not help. bench/lab/crun_compare.sh runs it in a private mount namespace where an")
    w("empty file hides that list (the host is not changed): the side-by-side with the same config.json")
    w("is in section 9e.")
else:
    w("crun is not installed; it is not part of this comparison (on a cgroup v1/v2 hybrid host crun")
    w("1.8 refuses to start without the private mount namespace of bench/lab/crun_compare.sh, section 9e).")
w()

# ---------------------------------------------------------------------------
# 7. network steps: this run's, or the block already in OUT (its own date)
net_block, net_target = None, None
if exists("net-steps.json"):
    net_block, net_target = net_lines(RES, facts.get("invocation", "bash bench/run.sh BIN"))
    net_target = target_row(net_target) if net_target else None
elif os.path.exists(OUT):
    net_block, net_target = old_net_block(open(OUT).read())
if net_block:
    md.extend(net_block)
    w()

# ---------------------------------------------------------------------------
# Reliability: kept from OUT as it is (written by hand, see REL_BEGIN)
rel_block = old_rel_block(open(OUT).read()) if os.path.exists(OUT) else None
if rel_block:
    md.extend(rel_block)
    w()
for hand_block in (old_hand_blocks(open(OUT).read()) if os.path.exists(OUT) else []):
    md.extend(hand_block)
    w()

# ---------------------------------------------------------------------------
head = ["## Targets", "",
        "| target | measured | verdict |", "|---|---|---|"]
for t, m, v in summary:
    bold = v.startswith("missed") or v.startswith("differ")
    head.append(f"| {t} | {m} | {'**' + v + '**' if bold else v} |")
if net_target:
    head.append(net_target)
head.append("")
md[body_start:body_start] = head

with open(OUT, "w") as f:
    f.write("\n".join(md).rstrip() + "\n")
print(f"analyze: wrote {OUT}", file=sys.stderr)
