"""sec_probe.py: run inside the sandbox by tests/integration/security.sh. Prints
KEY=VALUE lines, the fields of /proc/self/status first, then one line per
syscall, "NAME=ok" or "NAME=errno N".
"""
import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)

with open("/proc/self/status") as f:
    for line in f:
        key, _, value = line.partition(":")
        if key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"):
            print("%s=%s" % (key, value.strip()))


def report(name, ret):
    print("%s=%s" % (name, "errno %d" % ctypes.get_errno() if ret == -1 else "ok"))


def call(name, nr, *args):
    ctypes.set_errno(0)
    ret = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    report(name, ret)
    return ret


CLONE_NEWUSER, SIGCHLD = 0x10000000, 17
call("getppid", 110)
call("keyctl", 250, 0, 0)              # KEYCTL_GET_KEYRING_ID of key 0: EINVAL unfiltered
call("mount", 165, 0, 0, 0, 0, 0)       # NULL pointers: EFAULT unfiltered
call("clone3", 435, 0, 0)               # no struct: EINVAL unfiltered
# clone(2) without a stack is fork(2): the child leaves at once, silently.
ctypes.set_errno(0)
ret = libc.syscall(ctypes.c_long(56), *[ctypes.c_long(a) for a in (CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0)])
if ret == 0:
    os._exit(0)
report("clone_newuser", ret)
if ret > 0:
    os.waitpid(ret, 0)
pid = os.fork()
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
print("fork=ok")
# glibc creates threads with clone3 and falls back to clone on ENOSYS only.
try:
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    print("thread=ok")
except RuntimeError as e:
    print("thread=failed: %s" % e)
# In a child: unshare(CLONE_NEWUSER) fails with EINVAL in a process that has
# (or just had) a second thread, and success would move the probe.
pid = os.fork()
if pid == 0:
    ctypes.set_errno(0)
    ret = libc.syscall(ctypes.c_long(272), ctypes.c_long(CLONE_NEWUSER))
    os._exit(0 if ret == 0 else min(ctypes.get_errno(), 255) or 255)
status = os.waitpid(pid, 0)[1]
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 255
print("unshare_newuser=%s" % ("ok" if code == 0 else "errno %d" % code))
