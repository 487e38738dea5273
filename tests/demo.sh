#!/bin/sh
# make demo: the main job on a built-in default. Runs a small workload that
# shows the sandbox from inside (hostname, pid, interfaces, uid), after
# measuring every layer the kernel offers.
set -eu
bin=${1:-build/sandboxtime}
exec "$bin" --repeat=10 --warmup=2 -- sh -c '
echo "inside the sandbox:"
echo "  hostname:   $(hostname)"
echo "  pid:        $$ (pid 1 is the init of sandboxtime)"
echo "  uid:        $(id -u) (outside: '"$(id -u)"')"
echo "  interfaces: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | tr "\n" " ")"
echo "  processes:  $(ls /proc | grep -c "^[0-9]") visible in /proc"
'
