#!/usr/bin/env bash
# What the workload sees inside the sandbox, checked from inside (and, for
# file ownership and the host's state, from outside), as root and as nobody.
source "$(dirname "$0")/../lib.sh" "$1"

plan 28

# The default hostname, and the host's own left alone.
t_hostname_default() {
	local mode=$1 host_before host_after
	host_before=$(hostname)
	st_run "$mode" --repeat=0 -q -- hostname || return 1
	host_after=$(hostname)
	expect_rc 0 && expect_stdout sandbox && expect_clean || return 1
	expect_eq "$host_after" "$host_before"
}

t_hostname_option() {
	local mode=$1
	st_run "$mode" --repeat=0 -q --hostname=x -- hostname || return 1
	expect_rc 0 && expect_stdout x && expect_clean
}

# With pid, the init is pid 1 and the workload pid 2; --no-init makes it 1.
t_pid_with_init() {
	st_run "$1" --repeat=0 -q -- sh -c 'echo $$' || return 1
	expect_rc 0 && expect_stdout 2 && expect_clean
}

t_pid_no_init() {
	st_run "$1" --repeat=0 -q --no-init -- sh -c 'echo $$' || return 1
	expect_rc 0 && expect_stdout 1 && expect_clean
}

# pid + mount: /proc is the sandbox's own and lists only its processes. The
# listing uses only shell builtins, so that it adds no process of its own.
LIST_PROC='cd /proc && for p in [0-9]*; do read -r pid comm rest < "$p/stat"; echo "$pid $comm"; done'

t_proc_only_sandbox() {
	st_run "$1" --repeat=0 -q -- sh -c "$LIST_PROC" || return 1
	expect_rc 0 && expect_clean || return 1
	expect_eq "$(awk '{ print $1 }' "$ST_OUT" | sort -n | tr '\n' ' ')" "1 2 " || { st_show; return 1; }
	expect_eq "$(awk '$1 == 2 { print $2 }' "$ST_OUT")" "(sh)"
}

# Builtins only: with --no-init the workload alone is in /proc.
t_proc_only_workload() {
	st_run "$1" --repeat=0 -q --no-init -- sh -c 'cd /proc && for p in [0-9]*; do echo "$p"; done' || return 1
	expect_rc 0 && expect_stdout 1 && expect_clean
}

# net: the only interface is lo.
t_net_only_lo() {
	st_run "$1" --repeat=0 -q -- sh -c 'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "' || return 1
	expect_rc 0 && expect_stdout lo && expect_clean
}

# lo is up (UP and LOWER_UP), and ip sees no other link.
t_net_lo_up() {
	st_run "$1" --repeat=0 -q -- sh -c 'ip -o link show | wc -l; ip -o link show lo' || return 1
	expect_rc 0 && expect_clean || return 1
	[ "$(head -n1 "$ST_OUT")" = 1 ] || { echo "ip lists more than one link"; st_show; return 1; }
	grep -qE '^1: lo: <([A-Z_]+,)*UP(,[A-Z_]+)*>' "$ST_OUT" || { echo "lo is not UP"; st_show; return 1; }
	grep -qE '^1: lo: <([A-Z_]+,)*LOWER_UP(,[A-Z_]+)*>' "$ST_OUT" || { echo "lo is not LOWER_UP"; st_show; return 1; }
}

# --net=none (the default, said out loud) gives the same.
t_net_none_explicit() {
	st_run "$1" --repeat=0 -q --net=none --ns=net -- sh -c 'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "' || return 1
	expect_rc 0 && expect_stdout lo && expect_clean
}

# --net=host: no network namespace: the workload is in the caller's network
# namespace (the same inode), and sees every interface the host had both
# before and after the run (another job's links may come and go meanwhile).
t_net_host() {
	local before after stable inside
	before=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort)
	st_run "$1" --repeat=0 -q --net=host -- sh -c 'readlink /proc/self/ns/net; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "' || return 1
	after=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort)
	expect_rc 0 && expect_clean || return 1
	expect_eq "$(head -n1 "$ST_OUT")" "$(readlink /proc/self/ns/net)" || { st_show; return 1; }
	inside=$(tail -n +2 "$ST_OUT" | sort)
	stable=$(comm -12 <(printf '%s\n' "$before") <(printf '%s\n' "$after"))
	[ -n "$stable" ] || { echo "no interface outside"; return 1; }
	if [ -n "$(comm -23 <(printf '%s\n' "$stable") <(printf '%s\n' "$inside"))" ]; then
		echo "interfaces of the host missing inside: $(comm -23 <(printf '%s\n' "$stable") <(printf '%s\n' "$inside") | tr '\n' ' ')"
		st_show
		return 1
	fi
}

# uid 0 inside; a file written inside belongs to the caller outside (65534
# rootless, 0 as root): the sandbox gives no uid the caller does not have.
t_uid_mapping() {
	local mode=$1 dir owner
	dir=$(mktemp -d "$ST_TMP/uid.XXXXXX") && chmod 777 "$dir" || return 1
	st_run "$mode" --repeat=0 -q -- sh -c "id -u; id -g; : > '$dir/made-inside'" || return 1
	expect_rc 0 && expect_clean || return 1
	expect_eq "$(tr '\n' ' ' <"$ST_OUT")" "0 0 " || return 1
	[ -e "$dir/made-inside" ] || { echo "the workload did not create its file"; st_show; return 1; }
	owner=$(stat -c %u "$dir/made-inside")
	expect_eq "$owner" "$(mode_uid "$mode")"
}

# The user namespace's map: rootless, exactly "0 <caller> 1"; as root, with
# the default --ns=all, the identity (root stays root, no more).
t_uid_map_file() {
	local mode=$1 want
	st_run "$mode" --repeat=0 -q -- sh -c 'cat /proc/self/uid_map' || return 1
	expect_rc 0 && expect_clean || return 1
	if [ "$mode" = nobody ]; then want="0 $(mode_uid nobody) 1"; else want="0 0 4294967295"; fi
	expect_eq "$(tr -s ' ' <"$ST_OUT" | sed 's/^ //')" "$want"
}

# --ns=none: nothing is isolated: the host's hostname and the caller's uid.
t_ns_none() {
	local mode=$1
	st_run "$mode" --repeat=0 -q --ns=none -- sh -c 'hostname; id -u' || return 1
	expect_rc 0 && expect_clean || return 1
	expect_eq "$(tr '\n' ' ' <"$ST_OUT")" "$(hostname) $(mode_uid "$mode") "
}

# Zombies: an orphan that exits is reaped by the sandbox's init, so no
# process inside is left in state Z.
t_init_reaps_orphans() {
	st_run "$1" --repeat=0 -q -- sh -c '(sleep 0.1 &); sleep 0.6
		cd /proc && for p in [0-9]*; do read -r pid comm state rest < "$p/stat"; echo "$pid $comm $state"; done' || return 1
	expect_rc 0 && expect_clean || return 1
	if awk '$3 == "Z"' "$ST_OUT" | grep -q .; then
		echo "zombies inside the sandbox:"
		cat "$ST_OUT"
		return 1
	fi
	grep -q . "$ST_OUT" || { echo "no process listed"; return 1; }
}

each_mode "hostname is 'sandbox', the host's is unchanged" t_hostname_default
each_mode "--hostname=x gives x" t_hostname_option
each_mode "pid: the workload is pid 2 under the init" t_pid_with_init
each_mode "pid: --no-init makes the workload pid 1" t_pid_no_init
each_mode "pid+mount: /proc lists only the init and the workload" t_proc_only_sandbox
each_mode "pid+mount: with --no-init /proc lists only the workload" t_proc_only_workload
each_mode "net: /proc/net/dev lists only lo" t_net_only_lo
each_mode "net: lo is UP and LOWER_UP, and the only link" t_net_lo_up
each_mode "--net=none --ns=net: only lo" t_net_none_explicit
each_mode "--net=host: the host's network namespace and all its interfaces" t_net_host
each_mode "uid 0 inside, a file made inside belongs to the caller outside" t_uid_mapping
each_mode "uid_map: one uid rootless, identity as root" t_uid_map_file
each_mode "--ns=none: host's hostname and the caller's uid" t_ns_none
each_mode "the init reaps orphans: no zombie inside" t_init_reaps_orphans
