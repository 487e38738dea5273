#!/usr/bin/env bash
# The build on machines set up otherwise than ours. A cross compiler that
# cannot link (gcc-aarch64-linux-gnu without libc6-dev-arm64-cross, common
# where kernels are cross-built) must not break `make` or `make install`:
# the optional aarch64 probe is skipped, in one line that says why.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ST_BUILD_DIR

# The flags the build was made with: make rebuilds everything otherwise.
SANITIZE=$(sed -n 's/.*SANITIZE=\([^ ]*\).*/\1/p' "$BUILD/build-flags")
MAKE_ARGS=(--no-print-directory SANITIZE="$SANITIZE")

plan 2

# A copy of the finished build (objects, library, binary, flags), so that
# make has only the probe's rule left to run and the real build keeps its
# aarch64 probe; the stamp goes, so that the rule runs again.
copy_build() {
	local to=$1
	mkdir -p "$to" && cp -a "$BUILD/obj" "$BUILD/gen" "$BUILD/build-flags" "$BUILD/libsandboxtime.a" \
		"$BUILD/sandboxtime" "$BUILD/sandboxtime-probe" "$BUILD/sandboxtime-seccomp-gen" "$to/" &&
		rm -f "$to/probe-aarch64.stamp"
}

# A cross compiler that fails the way Debian's does without its C library.
broken_cross_cc() {
	mkdir -p "$1" && cat >"$1/aarch64-linux-gnu-gcc" <<'CC' && chmod 755 "$1/aarch64-linux-gnu-gcc"
#!/bin/sh
echo "/usr/include/features.h:394:12: fatal error: bits/wordsize.h: No such file or directory" >&2
exit 1
CC
}

t_broken_cross() {
	local dir out
	dir=$(st_scratch) || return 1
	copy_build "$dir/build" && broken_cross_cc "$dir/bin" || return 1
	out=$(cd "$TOP" && PATH="$dir/bin:$PATH" make "${MAKE_ARGS[@]}" BUILD="$dir/build" all 2>&1) ||
		{ echo "make failed:"; printf '%s\n' "$out"; return 1; }
	[ "$(grep -c 'SKIP .*sandboxtime-probe-aarch64: aarch64-linux-gnu-gcc cannot link a static program' <<<"$out")" -eq 1 ] ||
		{ echo "no one-line skip:"; printf '%s\n' "$out"; return 1; }
	[ ! -e "$dir/build/sandboxtime-probe-aarch64" ] || { echo "an aarch64 probe was made"; return 1; }
	out=$(cd "$TOP" && PATH="$dir/bin:$PATH" make "${MAKE_ARGS[@]}" BUILD="$dir/build" DESTDIR="$dir/dest" install 2>&1) ||
		{ echo "make install failed:"; printf '%s\n' "$out"; return 1; }
	[ -x "$dir/dest/usr/local/bin/sandboxtime" ] && [ -x "$dir/dest/usr/local/libexec/sandboxtime/sandboxtime-probe" ] ||
		{ echo "not installed:"; find "$dir/dest"; return 1; }
	[ ! -e "$dir/dest/usr/local/libexec/sandboxtime/sandboxtime-probe-aarch64" ] || { echo "installed a probe that was not built"; return 1; }
}

# With none on PATH at all: the same, with that reason.
t_no_cross() {
	local dir out
	dir=$(st_scratch) || return 1
	copy_build "$dir/build" || return 1
	out=$(cd "$TOP" && make "${MAKE_ARGS[@]}" BUILD="$dir/build" CROSS_CC_AARCH64=st-no-such-cc all 2>&1) ||
		{ echo "make failed:"; printf '%s\n' "$out"; return 1; }
	grep -q 'SKIP .*sandboxtime-probe-aarch64: no st-no-such-cc on PATH' <<<"$out" ||
		{ echo "no skip line:"; printf '%s\n' "$out"; return 1; }
}

ok "a cross compiler that cannot link: make and make install pass, the aarch64 probe skipped in one line" t_broken_cross
ok "no cross compiler: make passes, the skip line says so" t_no_cross
