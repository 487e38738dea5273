"""The process table as the test drivers read it (tests/py/soak.py, tests/py/signals_random.py).

Every reader is robust to processes that exit while /proc is walked.
"""
import os


def proc_stat(pid):
    """(comm, fields after comm) of /proc/PID/stat; OSError if PID is gone."""
    with open("/proc/%s/stat" % pid) as f:
        st = f.read()
    end = st.rindex(")")
    return st[st.index("(") + 1:end], st[end + 2:].split()


def procs(keep):
    """'pid state comm' of every process for which keep(pid, fields) holds."""
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            comm, fields = proc_stat(p)
            if keep(p, fields):
                out.append("%s %s %s" % (p, fields[0], comm))
        except OSError:
            continue
    return out


def session_procs(*sids):
    """'pid state comm' of every process in one of the sessions sids."""
    wanted = set(sids)
    return procs(lambda pid, fields: int(fields[3]) in wanted)
