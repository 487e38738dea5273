"""orphans_query.py FILE EXPR: prints a Python expression over the scan in FILE
(doc) and the helpers below; tests/integration/orphans_cleanup.sh.
"""
import json, sys
doc = json.load(open(sys.argv[1]))
def ns(ino):
    f = [n for n in doc["netns"] if n["inode"] == int(ino)]
    return f[0] if f else None
def act(ino):
    f = [a for a in (doc["cleanup"] or {}).get("actions", []) if a["inode"] == int(ino)]
    return f[0] if f else None
def holders(ino):
    n = ns(ino)
    return sorted(h.get("path") or "%s:%s/%s" % (h["kind"], h["pid"], h["fd"]) for h in n["holders"]) if n else None
def gone(ino, ours):
    # Absent, or the inode is another namespace's now (the kernel gives a
    # freed inode number to the next namespace made on the machine): none
    # of its holders is a mount under one of the paths in ours.
    n = ns(ino)
    return n is None or not any(h.get("path") and any(h["path"] == p or h["path"].startswith(p + "/") for p in ours) for h in n["holders"])
print(eval(sys.argv[2]))
