"""config_facts.py SRC DST FACTS: a copy of the OCI config SRC in DST with its
process.args replaced by `sh -c FACTS` (tests/integration/config.sh).
"""
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sh", "-c", sys.argv[3]]
json.dump(c, open(sys.argv[2], "w"))
