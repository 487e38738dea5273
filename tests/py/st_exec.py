"""st_exec.py PIDFILE CMD...: see st-exec in tests/lib.sh (it runs a copy of
this file, behind a #! line naming $ST_PY)."""
import os, signal, sys
for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ):
    signal.signal(s, signal.SIG_DFL)
os.setsid()
tmp = sys.argv[1] + ".tmp"
with open(tmp, "w") as f:
    f.write("%d\n" % os.getpid())
os.rename(tmp, sys.argv[1])
os.closerange(3, 1 << 16)
os.execvp(sys.argv[2], sys.argv[2:])
