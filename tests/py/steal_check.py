"""steal_check.py: every JSON report records the hypervisor's steal over the
run (tests/integration/steal.sh).

  steal_check.py REPORT.json...   host.steal is {ms, share, flagged}: numbers,
                                  share in [0, 1] and flagged exactly when it
                                  is above 1%; or all three null where
                                  /proc/stat could not be read
"""
import json
import sys


def check(path):
    with open(path) as f:
        doc = json.load(f)
    steal = doc.get("host", {}).get("steal")
    if not isinstance(steal, dict) or set(steal) != {"ms", "share", "flagged"}:
        return "%s: host.steal is %r" % (path, steal)
    if all(steal[k] is None for k in steal):
        return None
    ms, share, flagged = steal["ms"], steal["share"], steal["flagged"]
    if not isinstance(ms, (int, float)) or ms < 0:
        return "%s: steal.ms %r" % (path, ms)
    if not isinstance(share, (int, float)) or not 0 <= share <= 1:
        return "%s: steal.share %r" % (path, share)
    if flagged is not (share > 0.01):
        return "%s: steal.flagged %r with share %r" % (path, flagged, share)
    return None


def main():
    errors = [e for e in (check(p) for p in sys.argv[1:]) if e]
    for e in errors:
        print("# " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
