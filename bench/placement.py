#!/usr/bin/env python3
"""bench/placement.py OUT PID_A PID_B: where two processes ran, sampled.

Every 10 ms, reads the CPU each of the two processes last ran on (field 39
of /proc/PID/stat) until either is gone, then writes to OUT one JSON object:
{"samples": N, "same_cpu_share": S}, S the share of samples in which both
had last run on one CPU (null when no sample saw both). This is the outside
view of what sandboxtime netbench notes for itself (same_cpu_share, 10 ms
slots, each end's CPU at its last send or receive), for a peer tool
(iperf3) that does not report it; bench/netbench.sh runs it beside iperf3.
It costs the machine one short read of two small files per 10 ms.
"""
import json
import sys
import time


def last_cpu(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            stat = f.read()
    except OSError:
        return None
    # comm (field 2) may hold spaces: count fields after its closing parenthesis.
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[39 - 3])


def main():
    out, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    n = same = 0
    while True:
        ca, cb = last_cpu(a), last_cpu(b)
        if ca is None or cb is None:
            break
        n += 1
        same += ca == cb
        time.sleep(0.01)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"samples": n, "same_cpu_share": same / n if n else None}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
