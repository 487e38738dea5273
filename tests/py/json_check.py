"""json_check.py FILE CODE: runs the Python CODE with d = the JSON document in
FILE (tests/integration/security.sh); an AssertionError fails with its
message and the report's security, steps and errors.
"""
import json, sys
d = json.load(open(sys.argv[1]))
try:
    exec(sys.argv[2])
except AssertionError as e:
    print("report check failed:", e)
    print(json.dumps({k: d.get(k) for k in ("security", "steps", "errors")}, indent=1)[:3000])
    sys.exit(1)
