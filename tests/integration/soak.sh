#!/usr/bin/env bash
# Soak (issue 7): SOAK_RUNS sandboxes (200 here, 2,000 in `make soak`) with
# --net=veth, half one after the other and half two at a time, as root and as
# nobody, each inside a user and network namespace of its own where the
# network namespaces are counted exactly (tests/py/soak.py says how): the count
# comes back to its start value, sandboxtime's fd count and RSS while the
# sandbox runs are flat from the first runs to the last, and no process, no
# zombie and no link of any run is left.
source "$(dirname "$0")/../lib.sh" "$1"

RUNS=${SOAK_RUNS:-200}

plan 2

t_soak() {
	local mode=$1 dir rc
	dir=$(st_scratch) || return 1
	if [ "$mode" = nobody ]; then
		as_nobody "$ST_PY" -B "$ST_PYDIR/soak.py" --bin "$ST_NOBODY_BIN" --runs "$RUNS" --tmp "$dir" \
			>"$ST_TMP/soak.$mode" 2>&1
	else
		"$ST_PY" -B "$ST_PYDIR/soak.py" --bin "$ST_BIN" --runs "$RUNS" --tmp "$dir" >"$ST_TMP/soak.$mode" 2>&1
	fi
	rc=$?
	cat "$ST_TMP/soak.$mode"
	[ "$rc" -eq 0 ] && grep -q "^sandboxes $RUNS failures 0 " "$ST_TMP/soak.$mode"
}

each_mode "$RUNS sandboxes (--net=veth, half two at a time): namespaces back, fds and RSS flat, nothing left" t_soak
for mode in root nobody; do
	[ -f "$ST_TMP/soak.$mode" ] || continue
	while read -r line; do diag "$mode: $line"; done <"$ST_TMP/soak.$mode"
done
