#!/usr/bin/env python3
"""bench/lab/launch_phases.py TRACE MATCH [--timeline I]: docs/bench-notes/24.

TRACE is bench/lab/launch_trace.sh's output; MATCH a part of the launcher's path (st-final, bwrap,
unshare). Per launch, from the launcher's execve to its parent's wait4 returning:
  startup    execve to the launcher's first clone/clone3 (exec, dynamic loading, its own work)
  clone      that clone call
  setup      to the exec of /bin/true completing (the sandbox's configuration, init, hardening)
  true runs  /bin/true's own start until its exit_group
  exit       to the launcher reaped (the exits, namespace teardown, wake-ups)
and two waits: from the sandbox's pid 1 writing its status to the launcher being woken (the
pid 1's exit when the launcher waits for it), and the time in umount2/pivot_root. Medians and
quartiles. --timeline I prints launch I event by event (syscalls with their duration in us).
Tracing adds a few us per event: compare launchers traced in the same session.
"""
import re
import statistics as S
import sys

NAMES = {0:'read',1:'write',3:'close',7:'poll',9:'mmap',10:'mprotect',11:'munmap',12:'brk',13:'rt_sigaction',14:'rt_sigprocmask',17:'pread64',21:'access',22:'pipe',39:'getpid',41:'socket',44:'sendto',45:'recvfrom',46:'sendmsg',47:'recvmsg',49:'bind',51:'getsockname',53:'socketpair',54:'setsockopt',56:'clone',57:'fork',58:'vfork',59:'execve',60:'exit',61:'wait4',62:'kill',72:'fcntl',79:'getcwd',80:'chdir',83:'mkdir',88:'symlink',89:'readlink',95:'umask',102:'getuid',104:'getgid',107:'geteuid',110:'getppid',125:'capget',126:'capset',137:'statfs',155:'pivot_root',157:'prctl',158:'arch_prctl',165:'mount',166:'umount2',170:'sethostname',202:'futex',217:'getdents64',218:'set_tid_address',231:'exit_group',257:'openat',262:'newfstatat',273:'set_robust_list',282:'signalfd',284:'eventfd',290:'eventfd2',293:'pipe2',302:'prlimit64',317:'seccomp',318:'getrandom',334:'rseq',435:'clone3',434:'pidfd_open',288:'accept4',272:'unshare',308:'setns',16:'ioctl',5:'fstat',4:'stat',6:'lstat',8:'lseek',20:'writev',61:'wait4',247:'waitid',100:'times',63:'uname',97:'getrlimit'}
RX = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s*(.*)$')


def events(path):
    ev = []
    for line in open(path):
        m = RX.match(line)
        if m:
            ev.append((float(m.group(4)) * 1e6, int(m.group(2)), int(m.group(3)), m.group(5), m.group(6)))
    return ev


def launches(ev, match):
    """(index of the launcher's execve enter, its pid, its parent's pid) per launch."""
    out = []
    for i0, e in enumerate(ev):
        if e[3] != 'sched_process_exec' or match not in e[4]:
            continue
        root = e[1]
        b = i0
        while b > 0 and not (ev[b][1] == root and ev[b][3] == 'sys_enter' and ev[b][4].startswith('NR 59 ')):
            b -= 1
        parent = None
        for j in range(b, -1, -1):
            if ev[j][3] == 'sched_process_fork' and ('child_pid=%d' % root) in ev[j][4]:
                parent = int(re.search(r' pid=(\d+)', ev[j][4]).group(1))
                break
        out.append((b, root, parent))
    return out


def timeline(ev, b, root, parent):
    """[(t, role, what)] of one launch; roles: main, main>1 (its first child), main>1>1, ..."""
    pids, cnt, pend, out = {root: 'main'}, {}, {}, []
    for t, pid, cpu, kind, det in ev[b:]:
        if kind == 'sched_process_fork':
            m = re.search(r'pid=(\d+) child_comm=\S+ child_pid=(\d+)', det)
            p, c = int(m.group(1)), int(m.group(2))
            if p in pids:
                cnt[p] = cnt.get(p, 0) + 1
                pids[c] = '%s>%d' % (pids[p], cnt[p])
                out.append((t, pids[p], 'fork -> ' + pids[c]))
            continue
        if kind in ('sched_wakeup', 'sched_wakeup_new'):
            m = re.search(r' pid=(\d+) .*target_cpu=(\d+)', det)
            if int(m.group(1)) in pids:
                out.append((t, pids[int(m.group(1))], 'woken on cpu%s' % m.group(2)))
            continue
        if kind == 'sched_switch':
            m = re.search(r'prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+) next_pid=(\d+)', det)
            pp, st, npid = int(m.group(1)), m.group(2), int(m.group(4))
            if npid in pids:
                out.append((t, pids[npid], 'runs on cpu%d' % cpu))
            if pp in pids:
                out.append((t, pids[pp], ('preempted' if st.startswith('R') else 'sleeps (%s)' % st) + ' cpu%d' % cpu))
            continue
        if pid == parent and kind == 'sys_exit' and det.startswith('NR 61 ') and any(w == 'EXIT' and r == 'main' for _, r, w in out):
            out.append((t, 'parent', 'wait4 returns'))
            break
        if pid not in pids:
            continue
        if kind == 'sys_enter':
            pend[pid] = (t, int(det.split()[1]))
        elif kind == 'sys_exit' and pid in pend and pend[pid][1] == int(det.split()[1]):
            ts, nr = pend.pop(pid)
            out.append((ts, pids[pid], '%s %.0f' % (NAMES.get(nr, 'NR%d' % nr), t - ts)))
        elif kind == 'sched_process_exec':
            out.append((t, pids[pid], 'EXEC ' + det.split()[0]))
        elif kind == 'sched_process_exit':
            out.append((t, pids[pid], 'EXIT'))
    for pid, (ts, nr) in pend.items():
        if pid in pids:
            out.append((ts, pids[pid], '%s (no return)' % NAMES.get(nr, 'NR%d' % nr)))
    return sorted(out)


def phases(tl):
    t0 = tl[0][0]
    first = lambda pred: next((t for t, r, w in tl if pred(r, w)), None)
    clone = first(lambda r, w: r == 'main' and re.match(r'(clone3|clone) \d', w))
    cloned = clone + float(next(w for t, r, w in tl if t == clone and r == 'main' and w.startswith('clone')).split()[1]) if clone else None
    true = first(lambda r, w: w == 'EXEC filename=/bin/true')
    true_exit = first(lambda r, w: w.startswith('exit_group') and true is not None)
    end = first(lambda r, w: r == 'parent')
    if None in (clone, true, true_exit, end):
        return None
    true_exit = next(t for t, r, w in tl if w.startswith('exit_group') and t > true)
    p1_write = [t for t, r, w in tl if r == 'main>1' and w.startswith('write') and t > true_exit]
    woken = [t for t, r, w in tl if r == 'main' and w.startswith('woken') and p1_write and t > p1_write[0]]
    umount = sum(float(w.split()[1]) for t, r, w in tl if re.match(r'(umount2|pivot_root) \d', w))
    return {'startup': clone - t0, 'clone': cloned - clone, 'setup': true - cloned, 'true runs': true_exit - true,
            'exit': end - true_exit, 'total': end - t0,
            'pid 1 status -> launcher woken': (woken[0] - p1_write[0]) if woken else float('nan'),
            'umount2 + pivot_root': umount}


def main():
    path, match = sys.argv[1], sys.argv[2]
    ev = events(path)
    ls = launches(ev, match)
    if len(sys.argv) > 4 and sys.argv[3] == '--timeline':
        tl = timeline(ev, *ls[int(sys.argv[4])])
        prev = tl[0][0]
        for t, r, w in tl:
            print('%8.0f %+6.0f %-10s %s' % (t - tl[0][0], t - prev, r, w))
            prev = t
        return
    rows = [p for p in (phases(timeline(ev, *l)) for l in ls) if p]
    print('%s: %d launches, us: median (p25-p75)' % (match, len(rows)))
    for k in rows[0]:
        v = sorted(x[k] for x in rows if x[k] == x[k])
        if v:
            print('  %-32s %6.0f (%5.0f-%5.0f)' % (k, S.median(v), v[len(v) // 4], v[3 * len(v) // 4]))


if __name__ == '__main__':
    main()
