#!/usr/bin/python3
"""Soak: N sandboxes with --net=veth, and proof from outside that nothing leaks
(driven by tests/integration/soak.sh; `make soak` runs 2,000).

    soak.py --bin BIN --runs N --tmp DIR [--sample 100]

Run as root (sandboxtime in root mode) or as nobody (rootless). The soak runs
inside a user namespace U and a network namespace of its own that this script
makes: as root U maps every uid to itself, so sandboxtime sees root and wires
its veth pairs in that namespace as it would in the host's; as nobody U maps
nobody to itself alone, and sandboxtime runs rootless there with no
capability, as on the host (this script keeps the capabilities it got by
making U: it never execs). Nothing of the host is
touched, and the count of network namespaces is exact:

  Every network namespace created in U or below it is charged, at U's level,
  to the uid that made it (the kernel's ucounts climb to every ancestor user
  namespace), and U's own /proc/sys/user/max_net_namespaces is ours to set
  (as sandboxtime's deferred probe does, src/measure/deferred.c). With the limit at
  C, unshare(CLONE_NEWNET) fails with ENOSPC exactly when C or more are
  alive, including those the kernel has not finished freeing: so "ENOSPC at
  C and success at C+1" means exactly C. The start count is taken by making
  namespaces until ENOSPC with the limit at 256.

Half the runs go one after the other, half two at a time. In the first and
last --sample runs (and the last --sample of the sequential half) the
workload waits on a FIFO, and once sandboxtime waits for it (its signalfd and
the sandbox's pidfd are open, the last fds before poll(2)) it is read from
outside:
its fd count (/proc/PID/fd), VmRSS and VmHWM (/proc/PID/status), and its
children (exactly one, the sandbox's init, not a zombie). That moment is the
one at which a run holds the most (the sandbox, its wiring and the netlink
socket are all there); since each run is a new process, a leak across runs
can only come from state outside it that grows (links, routes, namespaces,
caches) and makes later runs hold or map more, which is what first vs last
shows. After every run: exit 0, nothing on stderr, no process of its session
(zombies included), no stv<pid>/stbr<pid> link. At the end: no child of this
script, no process in U but this script, and the namespace count back at its
start value within 30 s. Prints "key value" lines; exit 1 on any failure.
"""
import argparse
import ctypes
import errno
import os
import select
import statistics
import subprocess
import sys

from proctab import proc_stat, procs, session_procs
import tempfile
import time

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MAX_FILE = "/proc/sys/user/max_net_namespaces"
libc = ctypes.CDLL(None, use_errno=True)
problems = []


def fail(msg):
    problems.append(msg)
    print("FAIL " + msg, flush=True)


def unshare(flags):
    if libc.unshare(flags) < 0:
        return ctypes.get_errno()
    return 0


def enter_namespaces():
    """Forks: the child goes on in a new user and network namespace, once the
    parent (still outside) has written its id maps; the parent waits for it
    and exits with its status."""
    r, w = os.pipe()
    r2, w2 = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.close(w2)
        e = unshare(CLONE_NEWUSER | CLONE_NEWNET)
        os.write(w, b"%d" % e)
        os.close(w)
        if e or os.read(r2, 1) != b"g":
            os._exit(2)
        return
    os.close(w)
    os.close(r2)
    e = int(os.read(r, 16) or b"-1")
    if e:
        print("FAIL unshare(CLONE_NEWUSER|CLONE_NEWNET): %s" % os.strerror(e) if e > 0 else "child died")
        sys.exit(1)
    uid, gid = os.getuid(), os.getgid()
    if uid == 0:
        maps = ("0 0 4294967295", "0 0 4294967295")
    else:
        with open("/proc/%d/setgroups" % pid, "w") as f:
            f.write("deny")
        maps = ("%d %d 1" % (uid, uid), "%d %d 1" % (gid, gid))
    for name, m in zip(("uid_map", "gid_map"), maps):
        with open("/proc/%d/%s" % (pid, name), "w") as f:
            f.write(m)
    os.write(w2, b"g")
    os.close(w2)
    _, st = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(st))


def set_max(v):
    with open(MAX_FILE, "w") as f:
        f.write("%d" % v)


def probe(limit):
    """unshare(CLONE_NEWNET) in a child, with U's limit at @limit: 0 or errno."""
    set_max(limit)
    try:
        pid = os.fork()
        if pid == 0:
            os._exit(unshare(CLONE_NEWNET))
        _, st = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(st)
    finally:
        set_max(ORIG_MAX)


def count_by_filling(limit=256):
    """How many are alive: make namespaces (keeping each) until ENOSPC."""
    r, w = os.pipe()
    set_max(limit)
    try:
        pid = os.fork()
        if pid == 0:
            os.close(r)
            kept, n = [], 0
            while n < limit:
                e = unshare(CLONE_NEWNET)
                if e:
                    break
                kept.append(os.open("/proc/self/ns/net", os.O_RDONLY))
                n += 1
            os.write(w, b"%d %d" % (n, e))
            os._exit(0)
        os.close(w)
        n, e = map(int, os.read(r, 64).split())
        os.close(r)
        os.waitpid(pid, 0)
    finally:
        set_max(ORIG_MAX)
    if e != errno.ENOSPC:
        fail("filling the namespace limit stopped with %s, not ENOSPC" % os.strerror(e))
    return limit - n


def wait_count(want, bound_s=30.0):
    """Waits until exactly @want are alive; returns (seconds waited, ok)."""
    t0 = time.monotonic()
    while True:
        at_least = probe(want) == errno.ENOSPC
        if at_least and probe(want + 1) == 0:
            return time.monotonic() - t0, True
        if time.monotonic() - t0 > bound_s:
            return time.monotonic() - t0, False
        time.sleep(0.02)


def fd_kinds(pid):
    """What each fd of pid is, without inode numbers: 'pipe', 'socket', 'anon_inode:[pidfd]', a path."""
    out = []
    for fd in sorted(os.listdir("/proc/%d/fd" % pid), key=int):
        try:
            t = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            t = "?"
        out.append("%s:%s" % (fd, t.split(":[")[0] if t.startswith(("pipe:", "socket:")) else t))
    return out


def status_kib(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


class Run:
    def __init__(self, a, i, sampled):
        self.i = i
        self.sampled = sampled
        self.d = os.path.join(a.tmp, "r%d" % i)
        if sampled:
            os.mkdir(self.d)
            os.chmod(self.d, 0o1777)
            os.mkfifo(self.d + "/go", 0o666)
            os.chmod(self.d + "/go", 0o666)
            cmd = ["sh", "-c", ": > %s/ready; read x < %s/go" % (self.d, self.d)]
        else:
            cmd = ["true"]
        self.err = tempfile.TemporaryFile("w+", dir=a.tmp)
        self.t0 = time.monotonic()
        self.p = subprocess.Popen([a.bin, "--repeat=0", "-q", "--net=veth", "--"] + cmd,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.err,
                                  start_new_session=True, close_fds=True, cwd="/")
        self.pidfd = os.pidfd_open(self.p.pid)
        self.sample = None

    def take_sample(self):
        """Once the workload waits: sandboxtime's fds, memory and children, then release it."""
        if not self.sampled or self.sample is not None or not os.path.exists(self.d + "/ready"):
            return
        pid = self.p.pid
        # Once sandboxtime waits for the sandbox (wait_forwarding): the last
        # fds it opens before poll(2) are its signalfd and then the sandbox's
        # pidfd, and it opens or closes none until the sandbox ends. Before
        # that the count depends on the moment. (/proc/PID/wchan would say
        # "poll" too, but reads 0 while the task is on a CPU.)
        try:
            kinds = fd_kinds(pid)
        except OSError:
            return
        if not any("signalfd" in k for k in kinds) or not any("pidfd" in k for k in kinds):
            return
        self.fd_kinds = kinds
        fds = len(self.fd_kinds)
        rss, hwm = status_kib(pid, "VmRSS"), status_kib(pid, "VmHWM")
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            kids = f.read().split()
        states = [proc_stat(k)[1][0] for k in kids]
        self.sample = (fds, rss, hwm)
        if len(kids) != 1 or "Z" in states:
            fail("run %d: sandboxtime's children while the workload ran: %s (states %s)"
                 % (self.i, kids, states))
        fd = os.open(self.d + "/go", os.O_WRONLY)
        os.write(fd, b"go\n")
        os.close(fd)

    def finish(self):
        rc = self.p.wait()
        self.secs = time.monotonic() - self.t0
        os.close(self.pidfd)
        self.err.seek(0)
        err = self.err.read()
        self.err.close()
        if rc != 0 or err:
            fail("run %d: exit %d, stderr: %s" % (self.i, rc, err.strip()[:300]))
        if self.sampled and self.sample is None:
            fail("run %d: the workload never said it was ready" % self.i)
        left = []
        for _ in range(40):
            left = session_procs(self.p.pid)
            if not left:
                break
            time.sleep(0.05)
        if left:
            fail("run %d: processes left (pid state comm): %s" % (self.i, "; ".join(left)))
        links = [l for l in os.listdir("/sys/class/net") if l in ("stv%d" % self.p.pid, "stbr%d" % self.p.pid)]
        if links:
            fail("run %d: links left: %s" % (self.i, " ".join(links)))


def run_all(a, order, two):
    """Runs the indices in @order, @two at a time (1 or 2); returns the runs."""
    done, active, todo = [], [], list(order)
    deadline_per_run = 60
    while todo or active:
        while todo and len(active) < two:
            i = todo.pop(0)
            active.append(Run(a, i, i in a.sampled))
        for r in active:
            r.take_sample()
        ready, _, _ = select.select([r.pidfd for r in active], [], [], 0.001)
        for r in [r for r in active if r.pidfd in ready]:
            active.remove(r)
            r.finish()
            done.append(r)
        for r in active:
            if time.monotonic() - r.t0 > deadline_per_run:
                fail("run %d: still running after %d s, killed" % (r.i, deadline_per_run))
                os.killpg(r.p.pid, 9)
                r.t0 = float("inf")
    return done


def summary(name, runs):
    s = [r.sample for r in runs if r.sample]
    if not s:
        return None
    fds = sorted(x[0] for x in s)
    rss = statistics.median(x[1] for x in s)
    hwm = statistics.median(x[2] for x in s)
    secs = statistics.median(r.secs for r in runs) * 1000
    print("%s runs %d fds %d-%d rss_kib_median %d rss_kib_max %d hwm_kib_median %d run_ms_median %.1f"
          % (name, len(s), fds[0], fds[-1], rss, max(x[1] for x in s), hwm, secs))
    return fds, rss, hwm


def zombies_and_strays(runs):
    sids = {r.p.pid for r in runs}
    left = session_procs(*sids)
    print("zombies %d" % sum(1 for s in left if s.split()[1] == "Z"))
    if left:
        fail("processes of the runs' sessions left (pid state comm): " + "; ".join(left))
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
        fail("a child of the soak was still there: %d" % pid)
    except ChildProcessError:
        pass
    me = os.readlink("/proc/self/ns/user")
    stray = procs(lambda pid, fields: int(pid) != os.getpid()
                  and os.readlink("/proc/%s/ns/user" % pid) == me)
    if stray:
        fail("processes left in the soak's user namespace (pid state comm): " + "; ".join(stray))


def main():
    global ORIG_MAX
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--sample", type=int, default=100)
    p.add_argument("--tmp", required=True)
    a = p.parse_args()
    a.bin = os.path.abspath(a.bin)  # the runs start in another directory
    n, k = a.runs, min(a.sample, a.runs // 4)
    half = n // 2
    a.sampled = set(range(k)) | set(range(half - k, half)) | set(range(n - k, n))
    enter_namespaces()
    with open(MAX_FILE) as f:
        ORIG_MAX = int(f.read())
    # Root mode wires in this namespace, as in a host's, whose lo is up.
    if os.getuid() == 0:
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    t_start = time.monotonic()
    start = count_by_filling()
    settle, ok = wait_count(start)
    print("netns_start %d (settled in %.2f s)" % (start, settle))
    if not ok:
        fail("the start count did not settle at %d" % start)
    t0 = time.monotonic()
    seq = run_all(a, range(half), 1)
    t1 = time.monotonic()
    par = run_all(a, range(half, n), 2)
    t2 = time.monotonic()
    print("sequential %d in %.1f s, two at a time %d in %.1f s" % (len(seq), t1 - t0, len(par), t2 - t1))
    every = sorted(seq + par, key=lambda r: r.i)
    # Time per run across the sequential half, by tenths: a leak that makes
    # later runs slower (more links, routes, namespaces to walk) shows here.
    tenth = max(1, len(seq) // 10)
    print("seq_run_ms_by_tenth " + " ".join("%.1f" % (statistics.median(r.secs for r in seq[j:j + tenth]) * 1000)
                                           for j in range(0, len(seq) - tenth + 1, tenth)))
    first = summary("first", every[:k])
    summary("seq_last", seq[-k:])
    last = summary("last", every[-k:])
    zombies_and_strays(every)
    waited, ok = wait_count(start)
    end = start if ok else count_by_filling()
    print("netns_end %d (waited %.2f s for deferred frees)" % (end, waited))
    if not ok:
        fail("network namespaces: %d at the start, %d after %.0f s" % (start, end, waited))
    if first and last:
        if first[0] != last[0]:
            fail("fd counts differ: first %s, last %s" % (sorted(set(first[0])), sorted(set(last[0]))))
            usual = statistics.mode(first[0] + last[0])
            shown = [r for r in every[:k] if r.sample and r.sample[0] == usual][:1]
            shown += [r for r in every[:k] + every[-k:] if r.sample and r.sample[0] != usual][:5]
            for r in shown:
                print("fds of run %d: %s" % (r.i, " ".join(r.fd_kinds)))
        # RSS moves by a few pages from run to run (ASLR, lazy faults): a leak grows more than 5%.
        if last[1] > first[1] * 1.05 + 64:
            fail("RSS grew: median %d KiB in the first runs, %d KiB in the last" % (first[1], last[1]))
    print("sandboxes %d failures %d total %.1f s" % (len(every), len(problems), time.monotonic() - t_start))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
