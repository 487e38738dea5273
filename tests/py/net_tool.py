"""net_tool.py COMMAND ARG...

Inside the sandbox:
  refused PORT               TCP connect to the default gateway, 2 s timeout:
                             prints "refused GW MS"; exit 0 only when refused
  serve ADDR PORT PORTFILE   serve one connection on ADDR:PORT (0: any), the port
                             written to PORTFILE once listening; answers
                             "pong:" + what it got, prints "served PEER"
  talk HOST PORTFILE MSG     connect to HOST ("gw": the default gateway) on the
                             port in PORTFILE, send MSG, print the answer
Outside:
  inside REPORT OUT [mtu=N]  the workload's "ip" output OUT against REPORT
  json REPORT key=value...   the "network" object and the steps of REPORT
                             (net=, mode=root|nobody, pid=, mtu=, bridge=, addr=)
  has-step REPORT STEP       REPORT has STEP
  field REPORT KEY           network.KEY of REPORT, without a /prefix
  freenet                    a 10.215.R (a /24) that no route or address here uses
Prints one line per problem and exits 1 if there is any.
"""
import ipaddress, json, math, os, re, socket, struct, subprocess, sys, time

problems = []


def need(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def done():
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


def gateway():
    with open("/proc/net/route") as f:
        for line in f.readlines()[1:]:
            p = line.split()
            if p[1] == "00000000" and p[2] != "00000000":
                return socket.inet_ntoa(struct.pack("<L", int(p[2], 16)))
    sys.exit("no default route in /proc/net/route")


def refused(port):
    gw = gateway()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(20)
    t0 = time.monotonic()
    try:
        s.connect((gw, int(port)))
        print(f"connected to {gw}:{port}: something listens there")
        return 1
    except ConnectionRefusedError:
        print(f"refused {gw} {int((time.monotonic() - t0) * 1000)}")
        return 0
    except socket.timeout:
        print(f"timed out after 20 s connecting to {gw}:{port} (no answer: the path does not work)")
    except OSError as e:
        print(f"connecting to {gw}:{port}: {e}")
    return 1


def serve(addr, port, portfile):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, int(port)))
    s.listen(1)
    s.settimeout(8)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.chmod(portfile + ".tmp", 0o644)
    os.rename(portfile + ".tmp", portfile)
    c, peer = s.accept()
    c.settimeout(5)
    data = c.recv(200)
    c.sendall(b"pong:" + data)
    c.close()
    print("served", peer[0])
    return 0


def talk(host, portfile, msg):
    if host == "gw":
        host = gateway()
    with open(portfile) as f:
        port = int(f.read())
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(msg.encode())
    s.shutdown(socket.SHUT_WR)
    reply = b""
    while True:
        b = s.recv(200)
        if not b:
            break
        reply += b
    print(reply.decode())
    return 0


def load(path):
    with open(path) as f:
        return json.load(f)


def kv(args):
    out = {}
    for a in args:
        k, _, v = a.partition("=")
        out[k] = v
    return out


def sections(path):
    """The workload's output: "#name" lines start a section."""
    out, cur = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                cur = line[1:]
                out[cur] = []
            elif cur:
                out[cur].append(line)
    return out


def inside(report, out, args):
    opt = kv(args)
    doc = load(report)
    n = doc.get("network") or {}
    addr = n.get("address")
    gw = str(n.get("gateway", "")).split("/")[0]
    s = sections(out)
    for name in ("addr", "route", "link"):
        if not need(name in s, f"no '{name}' section in the workload's output"):
            return
    # ip -o -4 addr: "2: eth0    inet 10.213.1.2/30 brd ... scope global eth0"
    inet = {}
    for line in s["addr"]:
        m = re.match(r"\d+:\s+(\S+)\s+inet\s+(\S+)", line)
        if m:
            inet.setdefault(m.group(1), []).append(m.group(2))
    need(inet.get("eth0") == [addr], f"eth0 has IPv4 {inet.get('eth0')}, the report says {addr}")
    need(set(inet) <= {"lo", "eth0"}, f"IPv4 addresses on {sorted(inet)}")
    # ip -o link: "2: eth0@if15: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 ... state UP ..."
    links = {}
    for line in s["link"]:
        m = re.match(r"\d+:\s+([^:@\s]+)(@\S+)?:\s+<([^>]*)>(.*)", line)
        if need(m, f"unexpected line from ip -o link: {line}"):
            links[m.group(1)] = (set(m.group(3).split(",")), m.group(4))
    need(sorted(links) == ["eth0", "lo"], f"links inside: {sorted(links)} (expected eth0 and lo)")
    if "eth0" in links:
        flags, rest = links["eth0"]
        need({"UP", "LOWER_UP"} <= flags, f"eth0 is not up with a carrier: <{','.join(sorted(flags))}>")
        need(re.search(r"\bstate UP\b", rest), f"eth0 state is not UP: {rest.strip()}")
        if "mtu" in opt:
            m = re.search(r"\bmtu (\d+)", rest)
            need(m and m.group(1) == opt["mtu"], f"eth0 mtu {m and m.group(1)}, expected {opt['mtu']}")
    defaults = [l.split() for l in s["route"] if l.startswith("default")]
    need(len(defaults) == 1, f"default routes inside: {defaults}")
    if defaults:
        d = defaults[0]
        need(d[1:5] == ["via", gw, "dev", "eth0"],
             f"default route is '{' '.join(d)}', expected via {gw} dev eth0")


STEPS = {
    ("veth", "root", False): ["veth_create", "host_addr_add", "host_link_up", "lo_up", "addr_add",
                              "link_up", "route_add", "veth_delete"],
    ("bridge", "root", False): ["veth_create", "bridge_create", "bridge_addr_add", "bridge_up",
                                "bridge_attach", "host_link_up", "lo_up", "addr_add", "link_up",
                                "route_add", "veth_delete", "bridge_delete"],
    ("bridge", "root", True): ["veth_create", "bridge_attach", "host_link_up", "lo_up", "addr_add",
                               "link_up", "route_add", "veth_delete"],
    ("veth", "nobody", False): ["netns_outside", "veth_create", "host_addr_add", "host_link_up",
                                "lo_up", "addr_add", "link_up", "route_add"],
    ("bridge", "nobody", False): ["netns_outside", "veth_create", "bridge_create", "bridge_addr_add",
                                  "bridge_up", "bridge_attach", "host_link_up", "lo_up", "addr_add",
                                  "link_up", "route_add"],
}
# Steps that a configuration must not have.
NEVER = {
    "veth": {"bridge_create", "bridge_addr_add", "bridge_up", "bridge_attach", "bridge_delete"},
    "bridge": {"host_addr_add"},
    "joined": {"bridge_create", "bridge_addr_add", "bridge_up", "bridge_delete"},
    "root": {"netns_outside"},
}


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_json(report, args):
    opt = kv(args)
    doc = load(report)
    net, mode, pid = opt["net"], opt["mode"], opt["pid"]
    joined = "bridge" in opt
    n = doc.get("network")
    if not need(isinstance(n, dict), f"network is not an object: {n!r}"):
        return
    keys = ["mode", "interface", "address", "gateway", "host_interface", "bridge",
            "bridge_joined", "simulated_host", "mtu"]
    need(set(keys) <= set(n), f"network lacks {sorted(set(keys) - set(n))}")
    if not set(keys) <= set(n):
        return
    need(n["mode"] == net, f"network.mode {n['mode']!r}, expected {net!r}")
    need(n["interface"] == "eth0", f"network.interface {n['interface']!r}")
    need(n["host_interface"] == f"stv{pid}", f"network.host_interface {n['host_interface']!r}, expected stv{pid}")
    ifaces = {}
    for k in ("address", "gateway"):
        v = n[k]
        if need(isinstance(v, str) and re.fullmatch(r"\d+\.\d+\.\d+\.\d+/\d+", v),
                f"network.{k} is not A.B.C.D/N: {v!r}"):
            ifaces[k] = ipaddress.ip_interface(v)
    if len(ifaces) == 2:
        a, g = ifaces["address"], ifaces["gateway"]
        need(a.network == g.network, f"address {a} and gateway {g} are not in one subnet")
        need(a.ip != g.ip, f"address and gateway are both {a.ip}")
        for i in (a, g):
            need(i.ip not in (i.network.network_address, i.network.broadcast_address),
                 f"{i} is its network's network or broadcast address")
        if "addr" in opt:
            need(str(a) == opt["addr"], f"network.address {a}, asked for {opt['addr']}")
        elif net == "veth":
            need(a.network.prefixlen == 30 and a.network.subnet_of(ipaddress.ip_network("10.213.0.0/16")),
                 f"default veth address {a} is not a /30 of 10.213.0.0/16")
        elif not joined:
            need(a.network.prefixlen == 24 and a.network.subnet_of(ipaddress.ip_network("10.214.0.0/16")),
                 f"default bridge address {a} is not in a /24 of 10.214.0.0/16")
            need(int(g.ip) - int(g.network.network_address) == 1 and
                 int(a.ip) - int(a.network.network_address) == 2,
                 f"bridge: expected gateway .1 and sandbox .2, got {g} and {a}")
    if net == "veth":
        need(n["bridge"] is None, f"network.bridge {n['bridge']!r}, expected null")
    else:
        want = opt.get("bridge", f"stbr{pid}")
        need(n["bridge"] == want, f"network.bridge {n['bridge']!r}, expected {want!r}")
    need(n["bridge_joined"] is joined, f"network.bridge_joined {n['bridge_joined']!r}, expected {joined}")
    need(n["simulated_host"] is (mode == "nobody"),
         f"network.simulated_host {n['simulated_host']!r}, expected {mode == 'nobody'}")
    if "mtu" in opt:
        need(n["mtu"] == int(opt["mtu"]) and not isinstance(n["mtu"], bool),
             f"network.mtu {n['mtu']!r}, expected {opt['mtu']}")
    else:
        need(n["mtu"] is None, f"network.mtu {n['mtu']!r}, expected null")

    steps = doc.get("steps")
    if not need(isinstance(steps, list), f"steps is not a list: {steps!r}"):
        return
    names = []
    for s in steps:
        if need(isinstance(s, dict) and isinstance(s.get("step"), str) and is_num(s.get("us")),
                f"a step is not {{step: string, us: number}}: {s!r}"):
            names.append(s["step"])
            need(s["us"] > 0, f"step {s['step']} took {s['us']} us (not positive)")
    want = STEPS[(net, mode, joined)]
    missing = [w for w in want if w not in names]
    need(not missing, f"steps lack {missing}; steps: {names}")
    if not missing:
        pos = [names.index(w) for w in want]
        need(pos == sorted(pos), f"steps not in the order {want}: {names}")
    never = set(NEVER[net]) | (NEVER["joined"] if joined else set()) | (NEVER["root"] if mode == "root" else set())
    bad = sorted(never & set(names))
    need(not bad, f"unexpected steps {bad} for --net={net} ({mode}{', joined' if joined else ''}): {names}")
    need(doc.get("errors") == [], f"errors: {doc.get('errors')!r}")


def freenet():
    used = []
    for cmd in (["ip", "-o", "-4", "route", "show", "table", "all"], ["ip", "-o", "-4", "addr", "show"]):
        for line in subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines():
            for w in line.split():
                try:
                    net = ipaddress.ip_network(w, strict=False)
                except ValueError:
                    continue
                if net.prefixlen > 0:
                    used.append(net)
    start = os.getpid() % 200
    for i in range(200):
        cand = ipaddress.ip_network(f"10.215.{(start + i) % 200 + 20}.0/24")
        if not any(cand.overlaps(u) for u in used):
            print(str(cand.network_address).rsplit(".", 1)[0])
            return 0
    print("no free /24 in 10.215.0.0/16")
    return 1


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "refused":
        sys.exit(refused(*args))
    if cmd == "serve":
        sys.exit(serve(*args))
    if cmd == "talk":
        sys.exit(talk(*args))
    if cmd == "freenet":
        sys.exit(freenet())
    if cmd == "field":
        v = load(args[0])["network"][args[1]]
        print(str(v).split("/")[0])
        return
    if cmd == "has-step":
        names = [s.get("step") for s in load(args[0]).get("steps", [])]
        need(args[1] in names, f"no step {args[1]} in {names}")
    elif cmd == "inside":
        inside(args[0], args[1], args[2:])
    elif cmd == "json":
        check_json(args[0], args[1:])
    else:
        sys.exit(f"unknown command {cmd}")
    done()


main()
