#!/usr/bin/python3
"""Randomized signals against sandboxtime (driven by tests/integration/signals_random.sh).

    signals_random.py --bin BIN --mode root|nobody --net none,veth,bridge --runs N
                      --seed S --jobs J --tmp DIR [--only I]

Each run draws, from one random.Random(seed), a signal (SIGINT, SIGTERM,
SIGHUP), an aimed phase and a delay, then starts sandboxtime in a session of
its own (its pid is the session id, which every process it leaves keeps) and
sends the signal at that moment of:
  setup     --repeat=0: 0-40 ms after the start (exec, options, building the
            sandbox, or already the workload);
  measure   --repeat=2 with a workload, or `layers --repeat=2`: any moment of
            the run, mostly the measurement;
  workload  --repeat=0: 0-120 ms after the workload said it runs;
  teardown  --repeat=0: 0-30 ms (root veth, bridge; else 0-3 ms) after the
            workload's process ended.
The phase the signal really landed in is then read from what happened, and
every run must satisfy the contract (docs/DESIGN.md, exit codes):
  - the workload traps the three signals, writes which one it got and exits
    with 40+N; when it got one, sandboxtime exits with that (its own code);
  - a signal while measuring: 128+N and one error line naming it;
  - a signal before the workload's trap was set: 128+N (the workload, or
    sandboxtime before it could block signals, died of it);
  - otherwise the workload finished (exit 0, so sandboxtime's 0), and then the
    signal was sent after it had finished: while it ran (and 100 ms of its
    life were left) it must have got it;
  - sandboxtime ends within 5 s of the signal, and leaves nothing: no process
    of its session, no stv<pid>/stbr<pid> link, no new nsfs mount of its sandbox's network
    namespace or named by its pid; as root, once all runs are over, the
    host's links are the ones there were before (host-wide: other work on
    the machine that adds or deletes links fails it).
Output: one line per run, "ok ..." or "FAIL ... SEED=S ONLY=I to reproduce",
and "phase SIG PHASE COUNT" totals, where PHASE is the one observed: exec
(sandboxtime died of it before main() blocked it), setup, measure, workload,
teardown (after the workload's end), after-exit (not delivered). Exit 1 when a run failed.
"""
import argparse
import os
import random
import select
import signal
import subprocess
import sys
import threading
import time

from proctab import session_procs

SIGS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
TRAP_BASE = 40
PHASES = ["setup", "measure", "workload", "teardown"]
WORK_S = 0.12   # the workload's main sleep, in which a signal must reach it
TAIL_S = 0.1    # its life after writing 'done': time enough for a forward


def workload(d):
    traps = " ".join("trap 'echo %s > %s/got; exit %d' %s;" % (s.name, d, TRAP_BASE + s, s.name[3:])
                     for s in SIGS)
    return ("%s readlink /proc/self/ns/net > %s/netns; : > %s/ready; sleep %s & wait $!; : > %s/done; sleep %s & wait $!; exit 0"
            % (traps, d, d, WORK_S, d, TAIL_S))


def nsfs_mounts():
    with open("/proc/self/mountinfo") as f:
        return sorted(l for l in f if " - nsfs " in l)


def links():
    return sorted(os.listdir("/sys/class/net"))


def exists(p):
    return os.path.exists(p)


def wait_path(p, deadline, proc_fd):
    """Waits for p to exist; False when the run ended first or time ran out."""
    while not exists(p):
        if time.monotonic() > deadline or select.select([proc_fd], [], [], 0.001)[0]:
            return exists(p)
    return True


def workload_pidfd(sid):
    """A pidfd of the workload: the sh of the session whose child is sleep, or the
    deepest sh (the innermost pid namespace)."""
    best, depth = None, -1
    for line in session_procs(sid):
        pid, _, comm = line.split(" ", 2)
        if comm != "sh":
            continue
        try:
            with open("/proc/%s/status" % pid) as f:
                nspid = next(l for l in f if l.startswith("NSpid:")).split()[1:]
        except (OSError, StopIteration):
            continue
        if len(nspid) > depth:
            best, depth = int(pid), len(nspid)
    if best is None:
        return None
    try:
        return os.pidfd_open(best)
    except OSError:
        return None


class Run:
    def __init__(self, i, rng, nets):
        self.i = i
        self.net = nets[i % len(nets)]
        self.sig = rng.choice(SIGS)
        self.aim = rng.choice(PHASES)
        self.layers = self.aim == "measure" and rng.random() < 0.5
        self.frac = rng.random()
        self.problems = []
        self.phase = "?"


def argv_of(a, run, d):
    if run.layers:
        return [a.bin, "layers", "--repeat=2", "--warmup=0", "--deferred-repeat=1", "--ns=uts,net", "-q"]
    repeat = ["--repeat=2", "--warmup=0", "--deferred-repeat=1", "--ns=uts,net,pid,mount"] \
        if run.aim == "measure" else ["--repeat=0"]
    return [a.bin] + repeat + ["-q", "--net=" + run.net, "--", "sh", "-c", workload(d)]


def start(a, argv, d):
    kw = {}
    if a.mode == "nobody":
        kw = dict(user=65534, group=65534, extra_groups=[])
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=open(d + "/stdout", "w"),
                            stderr=open(d + "/stderr", "w"), cwd="/tmp", start_new_session=True,
                            close_fds=True, **kw)


def trigger(a, run, d, proc, pfd, t0):
    """Sleeps until the run's moment; returns the workload's pidfd if it was used."""
    deadline = time.monotonic() + 20
    if run.aim == "setup":
        time.sleep(0.040 * run.frac)
    elif run.aim == "measure":
        time.sleep(0.3 * a.slow * run.frac)
    elif run.aim == "workload":
        if wait_path(d + "/ready", deadline, pfd):
            time.sleep(WORK_S * run.frac)
    else:
        if wait_path(d + "/done", deadline, pfd):
            wfd = workload_pidfd(proc.pid)
            if wfd is not None:
                select.select([wfd, pfd], [], [], 5)
                os.close(wfd)
                # Unwiring takes ~20-30 ms with a root veth or bridge, ~1 ms else.
                wired = a.mode == "root" and run.net != "none"
                time.sleep((0.030 if wired else 0.003) * a.slow * run.frac)
                return True
    return False


def one(a, run, base):
    d = os.path.join(a.tmp, "r%d" % run.i)
    os.mkdir(d)
    os.chmod(d, 0o1777)
    mounts_before = set(nsfs_mounts())
    proc = start(a, argv_of(a, run, d), d)
    pfd = os.pidfd_open(proc.pid)
    t0 = time.monotonic()
    trigger(a, run, d, proc, pfd, t0)
    ready_before = exists(d + "/ready")
    gone = bool(select.select([pfd], [], [], 0)[0])
    if not gone:
        signal.pidfd_send_signal(pfd, run.sig)
    t_kill = time.monotonic()
    done_after = exists(d + "/done")
    try:
        rc = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        run.problems.append("still running 30 s after the signal")
        os.killpg(proc.pid, signal.SIGKILL)
        rc = proc.wait()
    os.close(pfd)
    elapsed = time.monotonic() - t_kill
    died = rc < 0       # of the signal itself, before main() blocked it: a shell says 128+N
    if died:
        rc = 128 - rc
    got = open(d + "/got").read().strip() if exists(d + "/got") else None
    err = open(d + "/stderr").read()
    n = int(run.sig)
    want = None
    if got is not None:
        run.phase = "workload" if ready_before else "setup"
        want = TRAP_BASE + n
        if got != run.sig.name:
            run.problems.append("the workload got %s, not %s" % (got, run.sig.name))
    elif "while measuring" in err:
        run.phase = "measure"
        want = 128 + n
        if err.count("\n") != 1 or ("interrupted by %s" % run.sig.name) not in err:
            run.problems.append("not one error line naming %s" % run.sig.name)
        if exists(d + "/ready"):
            run.problems.append("the workload ran after an interrupted measurement")
    elif run.layers:
        # Killed before it blocked signals (128+N), or sent after its last
        # sample, from when layers no longer looks at them (0); silent both.
        run.phase = "setup" if rc == 128 + n else "teardown"
        want = rc if rc in (0, 128 + n) else 128 + n
        if err:
            run.problems.append("unexpected standard error")
    elif not exists(d + "/ready"):
        run.phase = "setup"
        want = 128 + n
    else:
        run.phase = "teardown"
        want = 0
        if not done_after:
            run.problems.append("the workload was running when %s was sent (ready, not done) "
                                "and did not get it" % run.sig.name)
    if died:
        run.phase = "exec"
        if err or exists(d + "/ready"):
            run.problems.append("killed by %s, yet it had printed or started the workload" % run.sig.name)
    if gone:
        run.phase = "after-exit"
    if rc != want:
        run.problems.append("exit status %d, expected %d" % (rc, want))
    if elapsed > 5:
        run.problems.append("ended %.1f s after the signal" % elapsed)
    left = []
    for _ in range(40):
        left = session_procs(proc.pid)
        if not left:
            break
        time.sleep(0.05)
    if left:
        run.problems.append("processes left (pid stat comm): " + "; ".join(left))
        os.killpg(proc.pid, signal.SIGKILL)
    if a.mode == "root":
        mine = [l for l in links() if l in ("stv%d" % proc.pid, "stbr%d" % proc.pid)]
        if mine:
            run.problems.append("links left: " + " ".join(mine))
    # Per run, so that other work on the host cannot fail it: a new nsfs
    # mount of this run's sandbox namespace, or named by its pid.
    ns = open(d + "/netns").read().strip() if exists(d + "/netns") else None
    mine = [m.strip() for m in set(nsfs_mounts()) - mounts_before
            if (ns and " %s " % ns in m) or str(proc.pid) in m.split()[4]]
    if mine:
        run.problems.append("nsfs mounts left: " + " | ".join(mine))
    run.rc, run.pid, run.elapsed = rc, proc.pid, elapsed
    run.stderr = err.strip().replace("\n", " | ")[:300]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--mode", choices=["root", "nobody"], required=True)
    p.add_argument("--net", default="none,veth,bridge")
    p.add_argument("--runs", type=int, default=100)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--jobs", type=int, default=4)
    p.add_argument("--tmp", required=True)
    p.add_argument("--slow", type=float, default=1.0, help="stretch of the measure delays (ASan)")
    p.add_argument("--only", type=int, default=-1, help="run only this run index")
    a = p.parse_args()
    a.bin = os.path.abspath(a.bin)  # the runs start in another directory
    # Ignored signals stay ignored across exec and a shell cannot trap them.
    for s in SIGS + [signal.SIGQUIT, signal.SIGPIPE]:
        signal.signal(s, signal.SIG_DFL)
    rng = random.Random("%d-%s" % (a.seed, a.mode))
    runs = [Run(i, rng, a.net.split(",")) for i in range(a.runs)]
    if a.only >= 0:
        runs = [r for r in runs if r.i == a.only]
    base = {"links": links()}
    todo = list(runs)
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                r = todo.pop(0)
            try:
                one(a, r, base)
            except Exception as e:  # a broken harness fails the run, loudly
                r.problems.append("harness: %r" % e)
                r.rc, r.pid, r.elapsed, r.stderr = -1, 0, 0, ""

    threads = [threading.Thread(target=worker) for _ in range(max(1, a.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    failed = 0
    for r in runs:
        desc = ("run %d: %s net=%s %s aimed at %s%s, landed in %s: exit %d"
                % (r.i, a.mode, r.net, r.sig.name, r.aim, " (layers)" if r.layers else "", r.phase, r.rc))
        if r.problems:
            failed += 1
            print("FAIL %s; %s; stderr: %s; SEED=%d ONLY=%d to reproduce"
                  % (desc, "; ".join(r.problems), r.stderr, a.seed, r.i))
        else:
            print("ok %s" % desc)
    # Host-wide, so only once every run of this batch is over.
    if a.mode == "root":
        for _ in range(40):
            now = links()
            if now == base["links"]:
                break
            time.sleep(0.05)
        if now != base["links"]:
            failed += 1
            print("FAIL the host's links changed: before %s, after %s; SEED=%d"
                  % (" ".join(base["links"]), " ".join(now), a.seed))
    counts = {}
    for r in runs:
        k = (r.sig.name, r.phase)
        counts[k] = counts.get(k, 0) + 1
    for (s, ph), c in sorted(counts.items()):
        print("phase %s %s %d" % (s, ph, c))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
