"""svg_cost.py TRACE JSON SVG: milliseconds from the last write to JSON's fd
to the last write to SVG's fd, in an strace -ttt -e trace=openat,write log."""
import re
import sys

trace, json_path, svg_path = sys.argv[1:4]
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
print(f"{(last[svg_path] - last[json_path]) * 1000:.3f}")
