"""The OCI bundle of tests/integration/rootfs.sh.

rootfs_tool.py config FILE FACTS PYTHON   writes FILE, the test config edited by PYTHON (c is the dict)
rootfs_tool.py steps FILE                 the mount steps of the report in FILE
"""
import json, sys


def cmd_config():
    c = {"ociVersion": "1.0.2",
         "root": {"path": "rootfs", "readonly": True},
         "process": {"args": ["sh", "-c", sys.argv[2]], "cwd": "/", "env": ["PATH=/usr/bin:/bin"]},
         "mounts": [
             {"destination": "/proc", "type": "proc", "source": "proc"},
             {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "size=512k", "mode=1777"]},
             {"destination": "/usr", "type": "bind", "source": "/usr", "options": ["rbind", "ro", "nosuid"]},
             {"destination": "/evil", "type": "tmpfs", "source": "tmpfs", "options": ["size=64k"]}],
         "linux": {"namespaces": [{"type": "pid"}, {"type": "mount"}, {"type": "uts"}, {"type": "ipc"}]}}
    # The edit runs as it did at the top of a script: it may rebind c.
    g = dict(globals(), c=c)
    exec(sys.argv[3], g)
    c = g["c"]
    json.dump(c, open(sys.argv[1], "w"))


def cmd_steps():
    steps = [s["step"] for s in json.load(open(sys.argv[1]))["steps"]]
    want = ["mount_private", "root_bind", "mount_apply", "pivot_root", "old_root_detach", "root_readonly"]
    assert [s for s in steps if s in want] == want, steps
    assert "mount_proc" not in steps, steps   # the config mounts its own /proc


# The command is the first argument; the snippets' sys.argv[1:] are its arguments.
CMDS = {"config": cmd_config, "steps": cmd_steps}
CMDS[sys.argv.pop(1)]()
