"""orphans_check.py FILE INODE STATE [HOLDER...]: the scan in FILE (sandboxtime
orphans -J) has namespace INODE in STATE with at least the holders given
("mount:PATH", "fd:PID/FD(COMM)"); tests/integration/orphans.sh.
"""
import json, sys
doc = json.load(open(sys.argv[1]))
ino, state, want = int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def text(h):
    if h["kind"] == "mount":
        return "mount:" + h["path"]
    return "%s:%d/%d(%s)" % (h["kind"], h["pid"], h["fd"], h["comm"])
found = [n for n in doc["netns"] if n["inode"] == ino]
if state == "absent":
    sys.exit("namespace %d is listed: %s" % (ino, found) if found else 0)
if state == "gone":
    # Absent, or the inode is another namespace's now: the kernel gives a
    # freed inode number to the next namespace made on the machine. Ours
    # would still have a holder of ours ("mount:PATH", "pid:N": a copy of
    # a mount keeps its path); another job's has none.
    held = ["%s held by %s" % (n["inode"], text(h)) for n in found for h in n["holders"]
            if text(h) in want or (h["kind"] != "mount" and "pid:%d" % h["pid"] in want)]
    sys.exit("namespace still listed: " + ", ".join(held) if held else 0)
if len(found) != 1:
    sys.exit("namespace %d listed %d times" % (ino, len(found)))
n = found[0]
if n["state"] != state:
    sys.exit("namespace %d is %s, expected %s: %s" % (ino, n["state"], state, n))
have = [text(h) for h in n["holders"]]
for w in want:
    if w not in have:
        sys.exit("namespace %d: holder %r missing in %r" % (ino, w, have))
if state == "orphan" and n["processes"] != 0:
    sys.exit("orphan %d with processes" % ino)
