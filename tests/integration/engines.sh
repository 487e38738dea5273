#!/usr/bin/env bash
# Real engines drive sandboxtime as their OCI runtime, with runc beside it as
# the control: podman (Debian's 4.3, through conmon) as root and rootless (a
# throwaway user with subuids, podman's default rootless setup), and
# containerd (1.6, its runc v2 shim) started here on its own socket and
# directories. The image is made offline: a busybox root from Debian's
# busybox-static, `podman import`ed, and `podman save`d as an OCI archive
# for `ctr images import`. Nothing is downloaded, no network is used
# (--network=none; ctr makes none), and every store, state directory, mount,
# process and the user are this suite's own and gone after it.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

PLAN=16
plan $PLAN
skip_all() { for _ in $(seq $PLAN); do skip "engines" "$1"; done; exit 0; }
is_root || skip_all "needs root (podman's and containerd's stores, a user for rootless podman)"
for t in podman containerd ctr runc busybox script useradd newuidmap; do
	command -v "$t" >/dev/null || skip_all "no $t here (sh .ci/install-deps test)"
done

T=$(mktemp -d /tmp/st-engines.XXXXXX)
chmod 755 "$T"
ST_RL=st-rootless-$$
# podman's containers under a cgroup parent of ours (not the shared libpod_parent), and
# containerd's in a namespace of ours, whose shim keeps its runtime root in /run/containerd/runc/NS.
PM_CGROUP=/st-engines-$$
CTR_NS=st-engines-$$
CTD_PID=
cleanup() {
	local m
	[ -n "$CTD_PID" ] && kill "$CTD_PID" 2>/dev/null && wait "$CTD_PID" 2>/dev/null
	pm rm -af -t 0 >/dev/null 2>&1
	# podman's and containerd's mounts under our directory, deepest first (they are ours).
	for m in $(awk -v t="$T" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do umount -l "$m" 2>/dev/null; done
	for m in $(awk -F' - ' '$2 ~ /^cgroup2? / { split($1, f, " "); print f[5] }' /proc/self/mountinfo); do
		[ -d "$m$PM_CGROUP" ] && find "$m$PM_CGROUP" -depth -type d -exec rmdir {} + 2>/dev/null
	done
	rm -rf "/run/containerd/runc/$CTR_NS"
	if id "$ST_RL" >/dev/null 2>&1; then
		pkill_user_procs
		userdel "$ST_RL" 2>/dev/null
		sed -i "/^$ST_RL:/d" /etc/subuid /etc/subgid
	fi
	rm -rf "$T"
}
# The throwaway user's processes (podman's pause process), ended by pid.
pkill_user_procs() {
	local p
	for p in $(ps -o pid= -u "$ST_RL" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
}
trap 'cleanup; rm -rf "$ST_TMP"' EXIT

# The runtimes: runc, the control, and sandboxtime, each container's steps in a report.
RUNTIME_ST=$T/sandboxtime
cp "$ST_BIN" "$RUNTIME_ST" && chmod 755 "$RUNTIME_ST"
REPORT=$T/report.jsonl
# Each test's user limits: this VM's hard nofile is above what runc allows a container to take
# without CAP_SYS_RESOURCE (which root lacks here), and so is podman's default nproc.
LIMITS_RL=(--ulimit nofile=1024:1024 --ulimit nproc=1000:1000)
LIMITS=("${LIMITS_RL[@]}" --cgroup-parent="$PM_CGROUP")

# The image: busybox with relative links, in an archive podman imports.
mkdir -p "$T/rootfs/bin" "$T/rootfs/etc" "$T/rootfs/tmp" "$T/rootfs/proc" "$T/rootfs/sys" "$T/rootfs/dev"
cp "$(command -v busybox)" "$T/rootfs/bin/busybox"
for a in $(busybox --list); do [ "$a" = busybox ] || ln -s busybox "$T/rootfs/bin/$a"; done
tar -C "$T/rootfs" -cf "$T/bb.tar" . && chmod 644 "$T/bb.tar"
IMAGE=localhost/st-busybox:1

# pm ARG...: podman as root, with stores of this suite's own.
pm() {
	podman --root "$T/pm/root" --runroot "$T/pm/run" --tmpdir "$T/pm/tmp" --cgroup-manager=cgroupfs \
		--events-backend=file "$@"
}
pm import "$T/bb.tar" "$IMAGE" >/dev/null 2>&1 || skip_all "podman import failed here: $(pm import "$T/bb.tar" "$IMAGE" 2>&1 | tail -1)"

# rt_of NAME: podman's --runtime arguments for runc or sandboxtime.
rt_of() {
	if [ "$1" = runc ]; then echo "--runtime=$(command -v runc)"; else echo "--runtime=$RUNTIME_ST --runtime-flag=report=$REPORT"; fi
}

t_run() {
	local out
	# shellcheck disable=SC2046
	out=$(pm $(rt_of "$1") run --rm --network=none "${LIMITS[@]}" "$IMAGE" sh -c 'echo "hi $(cat /proc/1/comm)"' 2>&1) ||
		{ echo "$out"; return 1; }
	expect_eq "$out" "hi sh"
}

t_exit_codes() {
	local rc
	# shellcheck disable=SC2046
	pm $(rt_of "$1") run --rm --network=none "${LIMITS[@]}" "$IMAGE" sh -c 'exit 7' >/dev/null 2>&1
	rc=$?
	expect_eq "$rc" 7 || return 1
	# shellcheck disable=SC2046
	pm $(rt_of "$1") run --rm --network=none "${LIMITS[@]}" "$IMAGE" /bin/no-such-command >/dev/null 2>&1
	rc=$?
	expect_eq "$rc" 127
}

t_detached() {
	local cid out
	# shellcheck disable=SC2046
	cid=$(pm $(rt_of "$1") run -d --network=none "${LIMITS[@]}" "$IMAGE" sleep 60) || { echo "run -d: $cid"; return 1; }
	pm ps --format '{{.ID}} {{.Status}}' | grep -q "^${cid:0:12} Up" || { echo "not in podman ps:"; pm ps -a; return 1; }
	# shellcheck disable=SC2046
	out=$(pm $(rt_of "$1") exec "$cid" sh -c 'echo "exec $$ $(cat /proc/1/comm)"' 2>&1)
	# In the container's pid namespace, not its pid 1 (runc's own helpers take pids there first).
	[[ "$out" =~ ^exec\ ([0-9]+)\ sleep$ ]] && [ "${BASH_REMATCH[1]}" -gt 1 ] ||
		{ echo "exec said '$out'"; pm rm -f -t 0 "$cid" >/dev/null; return 1; }
	# sleep as pid 1 ignores SIGTERM: stop waits its 2 s, then kills, as with runc.
	# shellcheck disable=SC2046
	pm $(rt_of "$1") stop -t 2 "$cid" >/dev/null 2>&1 || { echo "stop failed"; pm rm -f -t 0 "$cid" >/dev/null; return 1; }
	# shellcheck disable=SC2046
	pm $(rt_of "$1") rm "$cid" >/dev/null || return 1
	[ -z "$(pm ps -aq)" ] || { echo "left:"; pm ps -a; return 1; }
}

t_tty() {
	local out
	# shellcheck disable=SC2046
	out=$(script -qec "podman --root $T/pm/root --runroot $T/pm/run --tmpdir $T/pm/tmp --cgroup-manager=cgroupfs --events-backend=file $(rt_of "$1") run --rm -it --network=none ${LIMITS[*]} $IMAGE sh -c 'sleep 0.3; tty; echo tty-done'" /dev/null </dev/null 2>&1)
	grep -q "/dev/pts/0" <<<"$out" && grep -q tty-done <<<"$out" || { echo "$out" | cat -A | head; return 1; }
}

# Rootless: a user of this suite's own, with subuids, its stores under $T.
setup_rootless() {
	local base=$((300000 + ($$ % 1000) * 65536))
	useradd -M -d "$T/rl" -s /bin/sh "$ST_RL" || return 1
	echo "$ST_RL:$base:65536" >>/etc/subuid && echo "$ST_RL:$base:65536" >>/etc/subgid || return 1
	mkdir -p "$T/rl/run" && chown -R "$ST_RL" "$T/rl" && chmod 700 "$T/rl/run" || return 1
	as_rl podman import "$T/bb.tar" "$IMAGE" >/dev/null 2>&1
}
as_rl() {
	runuser -u "$ST_RL" -- env HOME="$T/rl" XDG_RUNTIME_DIR="$T/rl/run" XDG_CONFIG_HOME="$T/rl/config" \
		XDG_DATA_HOME="$T/rl/data" "$@" --cgroup-manager=cgroupfs --events-backend=file 2>/dev/null ||
		runuser -u "$ST_RL" -- env HOME="$T/rl" XDG_RUNTIME_DIR="$T/rl/run" XDG_CONFIG_HOME="$T/rl/config" \
			XDG_DATA_HOME="$T/rl/data" "$@"
}
rl_pm() {
	runuser -u "$ST_RL" -- env HOME="$T/rl" XDG_RUNTIME_DIR="$T/rl/run" XDG_CONFIG_HOME="$T/rl/config" \
		XDG_DATA_HOME="$T/rl/data" podman --cgroup-manager=cgroupfs --events-backend=file "$@"
}

t_rootless() {
	local out cid rt
	rt=$(rt_of "$1")
	[ "$1" = sandboxtime ] && rt="--runtime=$RUNTIME_ST"
	# shellcheck disable=SC2086
	out=$(rl_pm $rt run --rm --network=none "${LIMITS_RL[@]}" "$IMAGE" sh -c 'echo "rl $(id -u)"; exit 3' 2>/dev/null)
	expect_eq "$?/$out" "3/rl 0" || return 1
	# shellcheck disable=SC2086
	cid=$(rl_pm $rt run -d --network=none "${LIMITS_RL[@]}" "$IMAGE" sleep 60) || { echo "$cid"; return 1; }
	# shellcheck disable=SC2086
	out=$(rl_pm $rt exec "$cid" sh -c 'echo "exec $$"' 2>&1)
	# shellcheck disable=SC2086
	rl_pm $rt rm -f -t 0 "$cid" >/dev/null 2>&1
	[[ "$out" =~ ^exec\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -gt 1 ] || { echo "exec said '$out'"; return 1; }
}

# containerd of our own: its own root, state, sockets; no CRI plugin.
start_containerd() {
	local i
	mkdir -p "$T/ctd"
	cat >"$T/ctd/config.toml" <<EOF
version = 2
root = "$T/ctd/root"
state = "$T/ctd/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$T/ctd/ctd.sock"
[ttrpc]
  address = "$T/ctd/ctd.sock.ttrpc"
[debug]
  address = "$T/ctd/debug.sock"
EOF
	containerd --config "$T/ctd/config.toml" >"$T/ctd/log" 2>&1 &
	CTD_PID=$!
	for ((i = 0; i < 100; i++)); do [ -S "$T/ctd/ctd.sock" ] && break; sleep 0.1; done
	[ -S "$T/ctd/ctd.sock" ] || return 1
	pm save --format oci-archive -o "$T/ctd/bb.tar" "$IMAGE" >/dev/null 2>&1 &&
		C images import "$T/ctd/bb.tar" >/dev/null 2>&1
}
C() { ctr --address "$T/ctd/ctd.sock" --namespace "$CTR_NS" "$@"; }
# ctr's --runc-binary for runc or sandboxtime (a wrapper adds --report: the shim passes no other flag).
ctr_bin() {
	if [ "$1" = runc ]; then command -v runc; return; fi
	printf '#!/bin/sh\nexec %s --report=%s "$@"\n' "$RUNTIME_ST" "$REPORT" >"$T/ctr-sandboxtime" && chmod 755 "$T/ctr-sandboxtime"
	echo "$T/ctr-sandboxtime"
}

t_ctr_run() {
	local out id=st-run-$1
	out=$(C run --rm --runc-binary="$(ctr_bin "$1")" "$IMAGE" "$id" sh -c 'echo "ctr $(cat /proc/1/comm)"' 2>&1) ||
		{ echo "$out"; return 1; }
	expect_eq "$out" "ctr sh" || return 1
	[ -z "$(C containers ls -q)" ] || { echo "containers left: $(C containers ls -q)"; return 1; }
}

t_ctr_exec() {
	local out id=st-exec-$1
	C run -d --runc-binary="$(ctr_bin "$1")" "$IMAGE" "$id" sleep 60 >/dev/null 2>&1 || return 1
	out=$(C task exec --exec-id e1 "$id" sh -c 'echo "task exec $$"' 2>&1)
	C task kill -s KILL "$id" >/dev/null 2>&1
	for ((i = 0; i < 50; i++)); do C task rm "$id" >/dev/null 2>&1 && break; sleep 0.1; done
	C containers rm "$id" >/dev/null 2>&1
	[[ "$out" =~ ^task\ exec\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -gt 1 ] || { echo "exec said '$out'"; return 1; }
}

# What the report made of the containers podman and containerd ran through sandboxtime.
t_report() {
	"$ST_PY" -B "$ST_PYDIR/runtime_check.py" engines "$REPORT" || return 1
	"$RUNTIME_ST" report "$REPORT" | grep -q "^create   clone " || { "$RUNTIME_ST" report "$REPORT"; return 1; }
}

for r in runc sandboxtime; do
	ok "podman run --rm: output, pid 1 is the command [$r]" t_run $r
	ok "podman run: a failing command's status (7), a missing one's (127) [$r]" t_exit_codes $r
	ok "podman run -d, ps, exec (in its pid namespace), stop -t 2, rm: nothing left [$r]" t_detached $r
	ok "podman run -it through a pty (script): a tty of the container's own [$r]" t_tty $r
done
if setup_rootless; then
	for r in runc sandboxtime; do
		ok "rootless podman (a user with subuids): run --rm with its status, run -d, exec, rm [$r]" t_rootless $r
	done
else
	for r in runc sandboxtime; do skip "rootless podman [$r]" "could not make a user with subuids here"; done
fi
if start_containerd; then
	for r in runc sandboxtime; do
		ok "containerd: ctr run --rm --runc-binary: output, nothing left [$r]" t_ctr_run $r
		ok "containerd: ctr run -d, ctr task exec (in its pid namespace), kill, rm [$r]" t_ctr_exec $r
	done
else
	for r in runc sandboxtime; do
		skip "containerd: ctr run [$r]" "containerd did not start: $(tail -1 "$T/ctd/log")"
		skip "containerd: ctr task exec [$r]" "containerd did not start"
	done
fi
ok "--report: every container's create, start and delete with their steps; sandboxtime report reads them" t_report
ok "nothing of the engines' runs is left: no container, no mount under the suite's stores" \
	eval '[ -z "$(pm ps -aq)" ] && [ -z "$(C containers ls -q 2>/dev/null)" ]'
