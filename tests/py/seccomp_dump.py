"""seccomp_dump.py PID: the seccomp program the kernel holds for PID, read
back with ptrace(PTRACE_SECCOMP_GET_FILTER) (needs CAP_SYS_ADMIN: root),
printed as "instructions=N digest=sha256:HEX" over its bytes (struct
sock_filter, 8 bytes each), so that a test can compare what sandboxtime's
report says it loaded with what the kernel enforces. Only the newest
filter (index 0) is read; "filters=N" says how many the process has.
"""
import ctypes
import hashlib
import os
import sys

PTRACE_SEIZE, PTRACE_INTERRUPT, PTRACE_DETACH = 0x4206, 0x4207, 17
PTRACE_SECCOMP_GET_FILTER = 0x420c

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


def ptrace(req, pid, addr, data):
    ret = libc.ptrace(req, pid, addr, data)
    if ret < 0:
        e = ctypes.get_errno()
        raise OSError(e, "ptrace(%#x): %s" % (req, os.strerror(e)))
    return ret


def filters(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Seccomp_filters:"):
                return int(line.split()[1])
    return 0


def main():
    pid = int(sys.argv[1])
    ptrace(PTRACE_SEIZE, pid, None, None)
    try:
        ptrace(PTRACE_INTERRUPT, pid, None, None)
        os.waitpid(pid, os.WUNTRACED | getattr(os, "__WALL", 0x40000000))
        n = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 0, None)
        buf = ctypes.create_string_buffer(8 * n)
        got = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 0, buf)
        if got != n:
            sys.exit("seccomp_dump: %d instructions, then %d" % (n, got))
    finally:
        ptrace(PTRACE_DETACH, pid, None, None)
    print("filters=%d instructions=%d digest=sha256:%s" % (filters(pid), n, hashlib.sha256(buf.raw).hexdigest()))


if __name__ == "__main__":
    main()
