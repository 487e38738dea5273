"""oci_args.py CONFIG ARG...: CONFIG (an OCI config.json, rewritten in place)
runs ARG... without a terminal; bench/run.sh's crun bundle from `crun spec`."""
import json
import sys


def main():
    path, args = sys.argv[1], sys.argv[2:]
    with open(path, encoding="utf-8") as f:
        c = json.load(f)
    c["process"]["args"] = args
    c["process"]["terminal"] = False
    with open(path, "w", encoding="utf-8") as f:
        json.dump(c, f)


if __name__ == "__main__":
    main()
