#!/usr/bin/env bash
# Issue 26: real engines with runc, crun and sandboxtime as their OCI runtime.
#  1. Conformance: each engine command (podman run --rm, a failing command's
#     status, run -d + exec + stop + rm, run -it through a pty; ctr run and
#     ctr task exec) with each runtime: pass or fail, a markdown table.
#  2. Performance, hyperfine -N, the runtimes in the same rounds with the
#     order rotated round by round, unpinned and then pinned to CPU 1
#     (taskset): `podman run --rm IMAGE true` end to end. The runtime's own
#     create, start and delete is bench/oci_compare.sh's sandboxtime-runtime.
# Root only; nothing downloaded (busybox imported); stores under a temp dir.
# crun 1.8 refuses this hybrid cgroup host, so all of it runs in a private
# mount namespace where an empty file hides the unified hierarchy's
# controllers (as bench/oci_compare.sh does).
#
#   bash bench/engines.sh path/to/sandboxtime [OUT_DIR]
# ROUNDS (default 3), RUNS (per command and round, default 10).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(realpath "${1:?usage: bench/engines.sh path/to/sandboxtime [OUT_DIR]}")
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-10}
bench_need_root engines
bench_need_tools engines podman containerd ctr runc crun hyperfine busybox script taskset
TMP=$(mktemp -d /tmp/st-engines-bench.XXXXXX)
chmod 755 "$TMP"
OUT=$(realpath -m "${2:-$TMP/out}")
mkdir -p "$OUT"
cp "$BIN" "$TMP/sandboxtime"
mkdir -p "$TMP/rootfs/bin" "$TMP/rootfs/etc" "$TMP/rootfs/tmp" "$TMP/rootfs/proc" "$TMP/rootfs/sys" "$TMP/rootfs/dev"
cp "$(command -v busybox)" "$TMP/rootfs/bin/busybox"
for a in $(busybox --list); do [ "$a" = busybox ] || ln -s busybox "$TMP/rootfs/bin/$a"; done
tar -C "$TMP/rootfs" -cf "$TMP/bb.tar" .

cat >"$TMP/inner.sh" <<'EOF2'
set -u
TMP=$1 OUT=$2 ROUNDS=$3 RUNS=$4
f=/sys/fs/cgroup/unified/cgroup.controllers
if [ -n "$(cat "$f" 2>/dev/null)" ]; then : >"$TMP/empty"; mount --bind "$TMP/empty" "$f"; fi
IMAGE=localhost/st-busybox:1
PM="podman --root $TMP/pm/root --runroot $TMP/pm/run --tmpdir $TMP/pm/tmp --cgroup-manager=cgroupfs --events-backend=file"
# Containers under a cgroup parent of the bench's own (not the shared libpod_parent), removed at the end.
CG=/st-engines-bench-$$
LIM="--ulimit nofile=1024:1024 --ulimit nproc=1000:1000 --cgroup-parent=$CG"
$PM import "$TMP/bb.tar" $IMAGE >/dev/null 2>&1
rt() { case $1 in sandboxtime) echo "--runtime=$TMP/sandboxtime" ;; *) echo "--runtime=$(command -v "$1")" ;; esac; }
bin() { case $1 in sandboxtime) echo "$TMP/sandboxtime" ;; *) command -v "$1" ;; esac; }

# Conformance.
mkdir -p "$TMP/ctd"
cat >"$TMP/ctd/config.toml" <<EOF
version = 2
root = "$TMP/ctd/root"
state = "$TMP/ctd/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$TMP/ctd/ctd.sock"
[ttrpc]
  address = "$TMP/ctd/ctd.sock.ttrpc"
EOF
containerd --config "$TMP/ctd/config.toml" >"$TMP/ctd/log" 2>&1 &
ctd=$!
for i in $(seq 100); do [ -S "$TMP/ctd/ctd.sock" ] && break; sleep 0.1; done
$PM save --format oci-archive -o "$TMP/ctd/bb.tar" $IMAGE >/dev/null 2>&1
C="ctr --address $TMP/ctd/ctd.sock --namespace st-engines-bench-$$"
$C images import "$TMP/ctd/bb.tar" >/dev/null 2>&1
check() { # NAME RUNTIME: 0 if the engine command did what runc does
	local r=$2 out cid
	case $1 in
	run) out=$($PM $(rt $r) run --rm --network=none $LIM $IMAGE echo ok 2>&1); [ "$out" = ok ] ;;
	status) $PM $(rt $r) run --rm --network=none $LIM $IMAGE sh -c 'exit 7' >/dev/null 2>&1; [ $? -eq 7 ] ;;
	detached) cid=$($PM $(rt $r) run -d --network=none $LIM $IMAGE sleep 30 2>/dev/null) &&
		out=$($PM $(rt $r) exec "$cid" echo in 2>&1) && $PM $(rt $r) stop -t 1 "$cid" >/dev/null 2>&1 &&
		$PM $(rt $r) rm "$cid" >/dev/null 2>&1 && [ "$out" = in ] ;;
	# (a short sleep first: podman attaches to the pty after start, and output before that is lost whatever the runtime)
	tty) out=$(script -qec "$PM $(rt $r) run --rm -it --network=none $LIM $IMAGE sh -c 'sleep 0.3; tty'" /dev/null </dev/null 2>&1); grep -q /dev/pts/0 <<<"$out" ;;
	ctr_run) out=$($C run --rm --runc-binary="$(bin $r)" $IMAGE c-$r echo ok 2>&1); [ "$out" = ok ] ;;
	ctr_exec) $C run -d --runc-binary="$(bin $r)" $IMAGE x-$r sleep 30 >/dev/null 2>&1 &&
		out=$($C task exec --exec-id e "x-$r" echo in 2>&1); $C task kill -s KILL "x-$r" >/dev/null 2>&1; sleep 0.3
		$C task rm "x-$r" >/dev/null 2>&1; $C containers rm "x-$r" >/dev/null 2>&1; [ "$out" = in ] ;;
	esac
}
{
	echo "| engine command | runc | crun | sandboxtime |"
	echo "|---|---|---|---|"
	for c in "run:podman run --rm" "status:podman run, a failing command's status" "detached:podman run -d, exec, stop, rm" \
		"tty:podman run -it (pty)" "ctr_run:ctr run --rm" "ctr_exec:ctr run -d, ctr task exec"; do
		row="| ${c#*:} |"
		for r in runc crun sandboxtime; do
			if check "${c%%:*}" $r; then row="$row pass |"; else row="$row **fail** |"; fi
			$PM rm -af -t 0 >/dev/null 2>&1
		done
		echo "$row"
	done
} >"$OUT/conformance.md"
kill $ctd; wait $ctd 2>/dev/null

# Performance: podman run --rm end to end (the runtime alone: bench/oci_compare.sh, sandboxtime-runtime).
for pin in unpinned pinned; do
	pre=""; [ $pin = pinned ] && pre="taskset -c 1 "
	set -- runc crun sandboxtime
	for r in $(seq $ROUNDS); do
		args=""
		for t in "$@"; do
			args="$args -n podman-$t '$pre$PM $(rt $t) run --rm --network=none $LIM $IMAGE true'"
		done
		eval hyperfine -N --style basic --warmup 2 --runs $RUNS --export-json "$OUT/$pin-round$r.json" $args >>"$OUT/hyperfine.log" 2>&1
		first=$1; shift; set -- "$@" "$first"
	done
done
$PM rm -af -t 0 >/dev/null 2>&1
for m in $(awk -F' - ' '$2 ~ /^cgroup2? / { split($1, f, " "); print f[5] }' /proc/self/mountinfo); do
	[ -d "$m$CG" ] && find "$m$CG" -depth -type d -exec rmdir {} + 2>/dev/null
done
rm -rf /run/containerd/runc/st-engines-bench-$$
EOF2
unshare --mount --propagation private bash "$TMP/inner.sh" "$TMP" "$OUT" "$ROUNDS" "$RUNS"
bench_meta = \
	versions "$(podman --version), containerd $(containerd --version | awk '{print $3}'), $(runc --version | head -1), $(crun --version | head -1), $("$BIN" --version | head -1)" \
	rounds "$ROUNDS rounds of $RUNS runs, unpinned then pinned to CPU 1" >"$OUT/facts.txt"
for m in $(awk -v t="$TMP" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do umount -l "$m" 2>/dev/null || true; done
rm -rf "$TMP"
python3 "$BENCH_ROOT/bench/engines.py" "$OUT"
