"""net6_tool.py COMMAND ARG...
  refused PORT                  inside: TCP connect to the IPv6 gateway; exit 0 when refused
  serve PORTFILE                serve one connection on [::]:0, port to PORTFILE; print the peer
  talk PORTFILE MSG             inside: send MSG to the IPv6 gateway, print the answer
  inside REPORT OUT             the workload's ip output OUT against REPORT's network
  steps REPORT want=A,B never=C,D [key=net_steps]
Prints one line per problem and exits 1 if there is any."""
import ipaddress, json, os, socket, subprocess, sys, time


def gateway6():
    out = subprocess.run(["ip", "-6", "route", "show", "default"], capture_output=True, text=True).stdout
    return out.split()[2]


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "refused":
        s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        s.settimeout(20)
        t0 = time.monotonic()
        try:
            s.connect((gateway6(), int(a[0])))
            sys.exit("connected: something listens there")
        except ConnectionRefusedError:
            print(f"refused {int((time.monotonic() - t0) * 1000)}")
            return
    if cmd == "serve":
        s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        s.bind(("::", 0))
        s.listen(1)
        s.settimeout(15)
        with open(a[0] + ".tmp", "w") as f:
            f.write("%d\n" % s.getsockname()[1])
        os.chmod(a[0] + ".tmp", 0o644)
        os.rename(a[0] + ".tmp", a[0])
        c, peer = s.accept()
        c.settimeout(5)
        c.sendall(b"pong:" + c.recv(200))
        c.close()
        print("served", peer[0])
        return
    if cmd == "talk":
        with open(a[0]) as f:
            port = int(f.read())
        s = socket.create_connection((gateway6(), port), timeout=5)
        s.sendall(a[1].encode())
        s.shutdown(socket.SHUT_WR)
        print(s.recv(200).decode())
        return
    doc = json.load(open(a[0]))
    problems = []
    if cmd == "inside":
        n = doc["network"]
        addr, gw = n.get("address6"), n.get("gateway6")
        if not (isinstance(addr, str) and isinstance(gw, str)):
            sys.exit(f"network.address6 {addr!r}, gateway6 {gw!r}")
        ai, gi = ipaddress.ip_interface(addr), ipaddress.ip_interface(gw)
        if ai.network != gi.network or ai.ip == gi.ip:
            problems.append(f"address6 {ai} and gateway6 {gi}: not two addresses of one block")
        if not ai.network.subnet_of(ipaddress.ip_network("fd00::/8")):
            problems.append(f"address6 {ai} is not in fd00::/8")
        want = a[2] if len(a) > 2 else None
        if want and str(ai) != want:
            problems.append(f"address6 {ai}, asked for {want}")
        lines = open(a[1]).read().splitlines()
        # "2: eth0    inet6 fd5b:...::2/64 scope global nodad ..."
        glob = [l.split()[3] for l in lines if " inet6 " in l and "scope global" in l]
        if glob != [str(ai)]:
            problems.append(f"eth0's global IPv6 addresses: {glob}, the report says {ai}")
        if not any("scope global" in l and "nodad" in l for l in lines):
            problems.append("eth0's address is not nodad")
        if any("tentative" in l and "scope global" in l for l in lines):
            problems.append("eth0's address is tentative")
        defaults = [l.split() for l in lines if l.startswith("default")]
        if len(defaults) != 1 or defaults[0][1:5] != ["via", str(gi.ip), "dev", "eth0"]:
            problems.append(f"IPv6 default routes {defaults}, expected via {gi.ip} dev eth0")
    elif cmd == "steps":
        opt = dict(x.split("=", 1) for x in a[1:])
        if opt.get("key") == "net_steps":
            names = [s["step"] for s in doc.get("net_steps", {}).get("steps", [])]
        else:
            names = [s["step"] for s in doc.get("steps", [])]
        want = [w for w in opt.get("want", "").split(",") if w]
        missing = [w for w in want if w not in names]
        if missing:
            problems.append(f"steps lack {missing}: {names}")
        elif [names.index(w) for w in want] != sorted(names.index(w) for w in want):
            problems.append(f"steps not in the order {want}: {names}")
        bad = [w for w in opt.get("never", "").split(",") if w and w in names]
        if bad:
            problems.append(f"unexpected steps {bad}: {names}")
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
