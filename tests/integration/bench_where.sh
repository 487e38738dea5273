#!/usr/bin/env bash
# sandboxtime bench where: the same probe on the host, in the sandbox, in a
# microVM and under qemu-aarch64, as root and as nobody. Every figure that
# stands passed the probe's own count or checksum; a place whose program,
# kernel or accelerator is missing is unavailable with the reason, and the
# rest runs. The microVM runs under TCG here when a kernel is at hand (the
# KVM path is the same code with -accel kvm; this machine's /dev/kvm may not
# run a stock kernel, and nobody cannot open it).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 8
TOP=$(cd "$(dirname "$0")/../.." && pwd)

# qemu-aarch64-static and the kernel come out of Debian's packages into
# .ci/tools/ (sh .ci/install-deps test); copied where nobody can read them.
TOOLS=$ST_TMP/tools
mkdir -p "$TOOLS" && chmod 755 "$TOOLS"
for f in "$TOP"/.ci/tools/qemu-aarch64-static "$TOP"/.ci/tools/vmlinuz-*; do
	[ -e "$f" ] && install -m 0755 "$f" "$TOOLS/"
done
KERNEL=$(ls "$TOOLS"/vmlinuz-* 2>/dev/null | tail -n 1)
HOST_PATH=$PATH
export PATH="$PATH:$TOOLS"
EMULATION=
[ -x "$TOOLS/qemu-aarch64-static" ] && [ -x "$ST_BUILD_DIR/sandboxtime-probe-aarch64" ] &&
	EMULATION=qemu-aarch64

t_json() {
	local mode=$1 dir must=(host)
	dir=$(st_scratch) || return 1
	[ "$mode" = root ] || userns_works && must+=(sandbox)
	[ -n "$EMULATION" ] && must+=("$EMULATION")
	[ "$mode" = nobody ] && [ -n "$KERNEL" ] && must+=("unavailable:vm-kvm:/dev/kvm")
	st_run "$mode" bench where --repeat=1 ${KERNEL:+--kernel="$KERNEL"} -J -o "$dir/w.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/w.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_where_check.py" "$dir/w.json" 1 vm-kvm "${must[@]}"
}

# The microVM: Debian's kernel boots an initramfs sandboxtime wrote to
# memory, the probe runs as its /init and powers it off.
t_vm_tcg() {
	local dir
	dir=$(st_scratch) || return 1
	# two boots (the warm-up round and one measured), each about 10 s under TCG;
	# without the emulation column, measured above
	PATH=$HOST_PATH ST_TIMEOUT=240 st_run root bench where --repeat=1 --vm-accel=tcg --kernel="$KERNEL" -J -o "$dir/w.json" || return 1
	expect_rc 0 && expect_clean || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_where_check.py" "$dir/w.json" 1 vm-tcg host vm-tcg
}

# Hidden: no qemu on PATH (only what the suite's own helpers need), a kernel
# that is not there. Both columns say why.
t_hidden() {
	local dir tool
	dir=$(st_scratch) || return 1
	mkdir "$dir/bin" || return 1
	# (the harness's own tools: tests/lib.sh)
	for tool in timeout sleep cat ps awk mktemp mkdir chmod rm wc head sed; do ln -s "$(command -v "$tool")" "$dir/bin/" || return 1; done
	PATH=$dir/bin st_run root bench where --repeat=1 -J -o "$dir/w.json" || return 1
	expect_rc 0 && expect_clean || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_where_check.py" "$dir/w.json" 1 vm-kvm host \
		"unavailable:vm-kvm:qemu-system-x86" "unavailable:qemu-aarch64:" || return 1
	# (without the tools: the emulation column is measured above, and costs seconds here)
	PATH=$HOST_PATH st_run root bench where --repeat=1 --kernel=/nonexistent/vmlinuz -J -o "$dir/k.json" || return 1
	expect_rc 0 || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_where_check.py" "$dir/k.json" 1 vm-kvm host \
		"unavailable:vm-kvm:/nonexistent/vmlinuz"
}

t_usage() {
	st_run root bench where --vm-accel=xen || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "xen" || { st_show; return 1; }
}

t_interrupted() {
	local mode=$1
	st_start "$mode" bench where --repeat=100000 -q || return 1
	sleep 2
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean
}

# The emulation column is measured only where qemu-aarch64-static and the
# aarch64 probe exist: say so, not drop it in silence.
t_aarch64_probe() {
	local probe machine
	probe=$ST_BUILD_DIR/sandboxtime-probe-aarch64
	# ELF e_machine, bytes 18-19 little-endian: 183 is EM_AARCH64.
	machine=$(od -An -t u2 -j 18 -N 2 "$probe" | tr -d ' ')
	expect_eq "$machine" 183
}
if [ -n "$EMULATION" ]; then
	ok "bench where: the qemu-aarch64 column's probe is an aarch64 program (it is measured above)" t_aarch64_probe
else
	skip "bench where: the qemu-aarch64 column" \
		"no qemu-aarch64-static in .ci/tools or no sandboxtime-probe-aarch64 (sh .ci/install-deps test installs both)"
fi
each_mode "bench where: every place and figure, checked by the probe's counts" t_json
if is_root && [ -n "$KERNEL" ] && command -v qemu-system-x86_64 >/dev/null; then
	ok "bench where: the microVM boots Debian's kernel and runs the probe as /init (TCG)" t_vm_tcg
else
	skip "bench where: the microVM under TCG" "needs root, qemu-system-x86 and a kernel in .ci/tools (sh .ci/install-deps test)"
fi
if is_root; then
	ok "bench where: without qemu or the kernel, the VM and emulation say why" t_hidden
	ok "bench where: --vm-accel=xen is a usage error" t_usage
else
	skip "bench where: hidden qemu and kernel" "not running as root"
	skip "bench where: --vm-accel=xen" "not running as root"
fi
each_mode "bench where: SIGINT while measuring exits 130 and leaves nothing" t_interrupted
