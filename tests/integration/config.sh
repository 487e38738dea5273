#!/usr/bin/env bash
# --config: an OCI runtime-spec config.json gives the same sandbox as the
# equivalent command line; what it cannot apply is refused, never dropped.
source "$(dirname "$0")/../lib.sh" "$1"
plan 11
top=$(cd "$(dirname "$0")/../.." && pwd)
FACTS='echo host=$(hostname) pid=$$; grep -E "^(CapEff|CapBnd|NoNewPrivs|Seccomp):" /proc/self/status; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "'

# A copy of a config with its args replaced by the facts command, readable by nobody.
config_with_facts() {
	local src=$1 dst=$2
	python3 -B "$ST_PYDIR/config_facts.py" "$src" "$dst" "$FACTS"
	chmod 644 "$dst"
}

# run MODE ARGS...: the workload's output, then the report's config.ns, on stdout.
run() {
	local mode=$1 dir out rc; shift
	dir=$(mktemp -d); chmod 777 "$dir"
	if [ "$mode" = nobody ]; then
		out=$(as_nobody "$ST_NOBODY_BIN" --repeat=0 -J -o "$dir/r.json" "$@"); rc=$?
	else
		out=$("$ST_BIN" --repeat=0 -J -o "$dir/r.json" "$@"); rc=$?
	fi
	[ $rc -eq 0 ] || { echo "exit $rc"; rm -rf "$dir"; return 1; }
	printf '%s\n' "$out"
	python3 -c 'import json,sys; print("ns=" + ",".join(json.load(open(sys.argv[1]))["config"]["ns"]))' "$dir/r.json"
	rm -rf "$dir"
}

t_same_as_cli() {
	local mode=$1 src=$2 cfg a b; shift 2
	cfg=$(mktemp --suffix=.json -p "$ST_TMP")
	config_with_facts "$src" "$cfg"
	a=$(run "$mode" --config="$cfg" 2>/dev/null) || { echo "$a"; return 1; }
	b=$(run "$mode" "$@" -- sh -c "$FACTS" 2>/dev/null) || { echo "$b"; return 1; }
	expect_eq "$a" "$b"
}

t_env_cwd() {
	local out
	out=$("$ST_BIN" --repeat=0 -q --config="$top/configs/oci/minimal.json" 2>/dev/null) || return 1
	printf '%s\n' "$out" | grep -q "cwd=/tmp GREETING=hello" || { echo "$out"; return 1; }
}

# process.args[0] is looked up in process.env's PATH, as runc and crun do:
# never in the PATH sandboxtime was started with.
t_env_path() {
	local dir out rc
	dir=$(mktemp -d -p "$ST_TMP"); chmod 755 "$dir"
	mkdir "$dir/inpath" "$dir/hostpath"
	printf '#!/bin/sh\nexit 7\n' >"$dir/inpath/stt-prog" && chmod 755 "$dir/inpath/stt-prog"
	printf '#!/bin/sh\nexit 9\n' >"$dir/hostpath/stt-prog" && chmod 755 "$dir/hostpath/stt-prog"
	printf '{"root":{"path":"/"},"process":{"args":["stt-prog"],"env":["PATH=%s:/usr/bin:/bin"]}}' "$dir/inpath" >"$dir/c.json"
	PATH="$dir/hostpath:$PATH" "$ST_BIN" --repeat=0 -q --config="$dir/c.json" 2>/dev/null; rc=$?
	expect_eq "$rc" 7 || return 1
	# Not in the config's PATH: not found (127), though the caller's PATH has it.
	printf '{"root":{"path":"/"},"process":{"args":["stt-prog"],"env":["PATH=/usr/bin:/bin"]}}' >"$dir/d.json"
	out=$(PATH="$dir/hostpath:$PATH" "$ST_BIN" --repeat=0 -q --config="$dir/d.json" 2>&1); rc=$?
	expect_eq "$rc" 127 || { echo "$out"; return 1; }
}

t_cli_wins() {
	local out
	out=$("$ST_BIN" --repeat=0 -q --config="$top/configs/oci/docker-like.json" --seccomp=none --hostname=mine \
		-- sh -c 'hostname; grep Seccomp: /proc/self/status' 2>/dev/null) || return 1
	expect_eq "$out" "$(printf 'mine\nSeccomp:\t0')"
}

# Nothing is dropped silently: a key sandboxtime does not apply is refused, naming it.
t_unsupported_refused() {
	local dir out rc f
	dir=$(mktemp -d)
	printf '%s' '{"root":{"path":"/"},"process":{"args":["true"],"consoleSize":{"height":1,"width":1}}}' > "$dir/console.json"
	printf '%s' '{"root":{"path":"/"},"process":{"args":["true"]},"hooks":{}}' > "$dir/hooks.json"
	printf '%s' '{"root":{"path":"/"},"process":{"args":["true"]},"linux":{"resources":{"blockIO":{"weight":10}}}}' > "$dir/resources.json"
	for f in console:'.process: "consoleSize" is not supported' hooks:'.: "hooks" is not supported' \
		resources:'.linux.resources: "blockIO" is not supported'; do
		out=$("$ST_BIN" --repeat=0 -q --config="$dir/${f%%:*}.json" 2>&1); rc=$?
		[ $rc -eq 125 ] || { echo "${f%%:*}: exit $rc"; rm -rf "$dir"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -qF "$dir/${f%%:*}.json: ${f#*:}" || { echo "${f%%:*}: $out"; rm -rf "$dir"; return 1; }
	done
	rm -rf "$dir"
}

t_bad_configs() {
	local dir out rc
	dir=$(mktemp -d)
	printf '%s' '{"root":{"path":"/"},"process":{"args":[]}}' > "$dir/empty-args.json"
	printf '%s' '{"root":{"path":"/"},"process":{"args":["true"]},"linux":{"namespaces":[{"type":"foo"}]}}' > "$dir/bad-ns.json"
	printf '%s' '{"process":{"args":["true"]}}' > "$dir/no-root.json"
	printf '%s' 'not json' > "$dir/not-json.json"
	printf '%s' '{"root":{"path":"/"},"process":{"args":["true"]},"linux":{"seccomp":{"defaultAction":"SCMP_ACT_FOO"}}}' > "$dir/bad-seccomp.json"
	for f in empty-args:.process.args bad-ns:.linux.namespaces no-root:.root.path not-json:not-json bad-seccomp:defaultAction; do
		out=$("$ST_BIN" --repeat=0 -q --config="$dir/${f%%:*}.json" 2>&1); rc=$?
		[ $rc -eq 125 ] || { echo "${f%%:*}: exit $rc"; rm -rf "$dir"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: .*${f#*:}" || { echo "${f%%:*}: $out"; rm -rf "$dir"; return 1; }
	done
	rm -rf "$dir"
}

for mode in root nobody; do
	# minimal.json names no capability and no linux.seccomp: none of either, as runc gives.
	ok "minimal.json: the same sandbox as the command line [$mode]" \
		t_same_as_cli "$mode" "$top/configs/oci/minimal.json" --ns=pid,ipc,uts,mount,net --hostname=oci-minimal \
		--cap-drop=ALL --seccomp=none
	ok "docker-like.json: the same sandbox as the command line [$mode]" \
		t_same_as_cli "$mode" "$top/configs/oci/docker-like.json" --ns=pid,ipc,uts,mount,net,cgroup --hostname=docker-like
done
ok "process.env and process.cwd reach the workload" t_env_cwd
ok "process.args[0] is found in process.env's PATH, not in the caller's" t_env_path
ok "options on the command line win over the file" t_cli_wins
ok "what the file says and sandboxtime does not do is refused, naming the key, 125" t_unsupported_refused
ok "bad configs: one line naming the file and the JSON path, 125" t_bad_configs
t_layers_refuses_config() {
	st_run root layers --config=x || return 1
	expect_rc 125 && expect_clean && expect_error_line usage && expect_error_names "--config" "run only"
}
t_missing_config() {
	st_run root --repeat=0 -q --config=/nonexistent.json || return 1
	expect_rc 125 && expect_clean && expect_error_line usage && expect_error_names /nonexistent.json "No such file"
}
ok "--config in layers is refused: 125, one line saying it applies to a run only" t_layers_refuses_config
ok "a missing config file: 125, one line naming the file and why" t_missing_config
