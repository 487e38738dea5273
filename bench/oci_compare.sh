#!/usr/bin/env bash
# Issue 13.1: the stock `runc spec` bundle (configs/oci/runc-spec.json, and
# runc-spec-rootless.json as nobody) with a busybox root built here from
# Debian's busybox-static, process.args ["true"], terminal false, run by
# sandboxtime (--repeat=0 -q --config), crun and runc: setup-and-teardown
# time of the whole container, by hyperfine -N, in ROUNDS rounds whose
# command order rotates (the peers interleaved round by round), medians.
#
# Root, and rootless where each tool can. On this hybrid cgroup host crun 1.8
# refuses to start while the unified hierarchy lists a controller ("cgroups
# in hybrid mode not supported"), so every tool runs in a private mount
# namespace where an empty file is bound over
# /sys/fs/cgroup/unified/cgroup.controllers (bench/lab/crun_compare.sh does the
# same); crun runs with --cgroup-manager=disabled. sandboxtime-runtime is
# sandboxtime as an OCI runtime (`sandboxtime run --bundle B ID`, runc's
# command line): the comparison with crun run and runc run is like for like. runc makes and removes a
# cgroup for each container (its default, and the runtime spec's
# linux.resources.devices rule is enforced there); the bundle asks for no
# limit, so sandboxtime and crun make none. sandboxtime-cgroup is the same
# bundle with --cgroup: sandboxtime-PID made, joined and removed in every
# hierarchy, as runc does (rootless without a delegated cgroup the layer is
# unavailable, as runc --rootless makes none either).
#
#   bash bench/oci_compare.sh path/to/sandboxtime [OUT_DIR]
# ROUNDS (default 3), RUNS (hyperfine runs per command and round, default 30).
# Then: python3 bench/oci_compare.py OUT_DIR [--results bench/results/oci.json]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(realpath "${1:?usage: bench/oci_compare.sh path/to/sandboxtime [OUT_DIR]}")
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-30}
bench_need_root oci_compare "it runs the rootless part as nobody"
bench_need_tools oci_compare crun runc hyperfine busybox
TMP=$(mktemp -d /tmp/st-oci.XXXXXX)
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
OUT=$(realpath -m "${2:-$TMP/out}")
mkdir -p "$OUT"

# One busybox root, copied into each bundle (runc refuses a symlinked rootfs).
mkdir -p "$TMP/rootfs/bin" "$TMP/rootfs/proc" "$TMP/rootfs/sys" "$TMP/rootfs/dev" "$TMP/rootfs/tmp"
cp "$(command -v busybox)" "$TMP/rootfs/bin/busybox"
for a in $(busybox --list); do [ "$a" = busybox ] || ln -s busybox "$TMP/rootfs/bin/$a"; done
cp "$BIN" "$TMP/sandboxtime"
for m in root nobody; do
	mkdir -p "$TMP/$m" "$TMP/$m-state" "$TMP/$m-st"
	cp -a "$TMP/rootfs" "$TMP/$m/rootfs"
	fixture=$BENCH_ROOT/configs/oci/runc-spec.json id=0
	[ $m = nobody ] && fixture=$BENCH_ROOT/configs/oci/runc-spec-rootless.json id=$(id -u nobody)
	python3 "$BENCH_ROOT/bench/oci_compare.py" --config "$fixture" "$TMP/$m/config.json" "$id"
done
chown nobody "$TMP/nobody-state" "$TMP/nobody-st"
chmod 700 "$TMP/root-st" "$TMP/nobody-st"
# hyperfine runs as the mode's user: its exports go here first.
mkdir -p "$TMP/hf" && chmod 1777 "$TMP/hf"
chmod -R a+rX "$TMP"

# spec MODE TOOL: the command that runs the MODE bundle with TOOL.
spec() {
	case $2 in
	sandboxtime) echo "$TMP/sandboxtime --repeat=0 -q --config=$TMP/$1/config.json" ;;
	sandboxtime-cgroup) echo "$TMP/sandboxtime --repeat=0 -q --cgroup --config=$TMP/$1/config.json" ;;
	# The OCI runtime's own create, start, wait and delete (runc's command line), as crun run and runc run.
	sandboxtime-runtime) echo "$TMP/sandboxtime --root $TMP/$1-st run --bundle $TMP/$1 oci-$1" ;;
	crun) echo "crun --cgroup-manager=disabled --root $TMP/$1-state run --bundle $TMP/$1 oci-$1" ;;
	runc) [ "$1" = nobody ] && echo "runc --rootless=true --root $TMP/$1-state run --bundle $TMP/$1 oci-$1" ||
		echo "runc --root $TMP/$1-state run --bundle $TMP/$1 oci-$1" ;;
	esac
}

cat >"$TMP/inner.sh" <<EOF2
set -u
f=/sys/fs/cgroup/unified/cgroup.controllers
if [ -n "\$(cat "\$f" 2>/dev/null)" ]; then : >"$TMP/empty"; mount --bind "$TMP/empty" "\$f"; fi
as() { if [ "\$1" = nobody ]; then shift; (cd /tmp && setpriv --reuid=nobody --regid=nogroup --clear-groups env XDG_RUNTIME_DIR=$TMP/nobody-state "\$@"); else shift; "\$@"; fi; }
for m in root nobody; do
	tools=""
	for t in sandboxtime sandboxtime-cgroup sandboxtime-runtime crun runc; do
		if as \$m \$(grep "^\$m \$t=" "$TMP/specs" | cut -d= -f2-) >"$OUT/\$m-\$t.check" 2>&1; then
			tools="\$tools \$t"
		else
			echo "\$m \$t refused: \$(tail -1 "$OUT/\$m-\$t.check")" >>"$OUT/refused.txt"
		fi
	done
	set -- \$tools
	for r in \$(seq $ROUNDS); do
		args=""
		for t in "\$@"; do args="\$args -n \$t"; args="\$args '\$(grep "^\$m \$t=" "$TMP/specs" | cut -d= -f2-)'"; done
		eval as \$m hyperfine -N --style basic --warmup 3 --runs $RUNS --export-json "$TMP/hf/\$m-round\$r.json" \$args >>"$OUT/hyperfine.log" 2>&1
		# Rotate the order for the next round.
		[ \$# -gt 1 ] && { first=\$1; shift; set -- "\$@" "\$first"; }
	done
done
EOF2
: >"$TMP/specs"
for m in root nobody; do for t in sandboxtime sandboxtime-cgroup sandboxtime-runtime crun runc; do echo "$m $t=$(spec $m $t)" >>"$TMP/specs"; done; done
: >"$OUT/refused.txt"
unshare --mount --propagation private sh "$TMP/inner.sh"
cp "$TMP"/hf/*.json "$OUT"/
"$TMP/sandboxtime" --repeat=0 -J -o "$OUT/steps-root.json" --config="$TMP/root/config.json" >/dev/null
bench_meta = crun "$(crun --version | head -1)" runc "$(runc --version | head -1)" \
	sandboxtime "$("$BIN" --version | head -1)" rounds "$ROUNDS rounds of $RUNS runs" >"$OUT/facts.txt"
python3 "$BENCH_ROOT/bench/oci_compare.py" "$OUT"
