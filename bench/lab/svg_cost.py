"""svg_cost.py TRACE JSON SVG: milliseconds from the last write to JSON's fd
to the last write to SVG's fd, in an strace -ttt -e trace=openat,write log.

svg_cost.py --summary: the median, min and max of such figures, one a line
on standard input (bench/lab/svg_cost.sh's rounds)."""
import re
import statistics
import sys


def cost_ms(trace, json_path, svg_path):
    fds, last = {}, {}
    for line in open(trace):
        m = re.match(r"(\d+\.\d+) (openat|write)\((.*)\) += (-?\d+)", line)
        if not m:
            continue
        t, call, args, ret = float(m[1]), m[2], m[3], int(m[4])
        if call == "openat":
            for p in (json_path, svg_path):
                if f'"{p}"' in args and ret >= 0:
                    fds[ret] = p
        else:
            fd = int(args.split(",", 1)[0])
            if fd in fds:
                last[fds[fd]] = t
    return (last[svg_path] - last[json_path]) * 1000


def summary(lines):
    v = sorted(float(x) for x in lines)
    return f"svg cost over {len(v)} runs: median {statistics.median(v):.3f} ms, min {v[0]:.3f}, max {v[-1]:.3f}"


if __name__ == "__main__":
    if sys.argv[1:] == ["--summary"]:
        print(summary(sys.stdin))
    else:
        print(f"{cost_ms(*sys.argv[1:4]):.3f}")
