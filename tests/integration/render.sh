#!/usr/bin/env bash
# --svg, --html, --format=markdown and --color (issue 16, items 2-5), on
# real runs as root and as nobody: the SVG is well-formed XML (xmllint) with
# one bar per measured layer of the same run's JSON; the HTML page fetches
# nothing and, opened in headless Chromium in a network namespace of our
# own, draws a chart that is not blank; markdown parses back as pipe tables;
# colour only where asked or on a terminal, never under NO_COLOR.
# Short runs: --repeat=4 --deferred-repeat=2, netbench --duration=0.2.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 18

CHECK=$ST_PYDIR/render_check.py
check() { "$ST_PY" -B "$CHECK" "$@"; }
FAST=(--repeat=4 --deferred-repeat=2)
# An SGR sequence (colour, bold): what NO_COLOR forbids. Progress's \033[K is no colour.
SGR=$'\033\\[[0-9;]*m'

FIX=$(st_scratch)
cp "$(dirname "$0")"/../fixtures/compare/*.json "$FIX"/ && chmod 644 "$FIX"/*.json || exit 1
PAGE=$ST_TMP/page.html

t_layers_charts() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" layers "${FAST[@]}" -J -o "$dir/run.json" --svg="$dir/l.svg" --html="$dir/l.html" || return 1
	expect_rc 0 && expect_clean || return 1
	xmllint --noout "$dir/l.svg" || { echo "xmllint refused the SVG"; return 1; }
	check layers-svg "$dir/run.json" "$dir/l.svg" || return 1
	check html "$dir/l.html" "$dir/run.json" || return 1
	[ "$mode" = root ] && cp "$dir/l.html" "$PAGE"
	return 0
}
each_mode "layers --svg --html: well-formed, one setup and teardown bar per layer, deferred in ms, nothing fetched" t_layers_charts

# The page as a person sees it: chromium renders it offline (unshare -n: a
# network namespace of ours with nothing in it) and takes a screenshot.
t_chromium() {
	local png=$ST_TMP/page.png home=$ST_TMP/chromium-home
	mkdir -p "$home"
	HOME=$home timeout 60 unshare -n "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-extensions --disable-sync --hide-scrollbars --window-size=800,1400 \
		--screenshot="$png" "file://$PAGE" >"$ST_TMP/chromium.log" 2>&1
	[ -s "$png" ] || { echo "chromium wrote no screenshot:"; tail -5 "$ST_TMP/chromium.log"; return 1; }
	diag_of "non-background pixels in the chart area: " check png "$png"
}
CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	skip "the HTML page in headless chromium: its chart area is not blank" "chromium is not installed (Debian package chromium, in .ci/debian-packages)"
elif ! is_root; then
	skip "the HTML page in headless chromium: its chart area is not blank" "needs root for a network namespace of its own"
elif [ ! -s "$PAGE" ]; then
	skip "the HTML page in headless chromium: its chart area is not blank" "no page: the layers run above failed"
elif ! HOME=$ST_TMP timeout 60 unshare -n "$CHROMIUM" --headless --no-sandbox --disable-gpu --version >/dev/null 2>&1 &&
	! HOME=$ST_TMP timeout 60 "$CHROMIUM" --version >/dev/null 2>&1; then
	skip "the HTML page in headless chromium: its chart area is not blank" "chromium does not start here"
else
	ok "the HTML page in headless chromium: its chart area is not blank" t_chromium
fi

t_run_charts() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" --ns=user,uts "${FAST[@]}" -J -o "$dir/run.json" --svg="$dir/r.svg" -- true || return 1
	expect_rc 0 && expect_clean || return 1
	xmllint --noout "$dir/r.svg" || return 1
	check layers-svg "$dir/run.json" "$dir/r.svg" || return 1
	# The run's steps, one bar each.
	check steps-svg "$dir/run.json" "$dir/r.svg"
}
each_mode "a run's --svg: its layers and one bar per step" t_run_charts

t_netbench_svg() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" netbench --duration=0.2 --repeat=1 --paths=host,veth -J -o "$dir/nb.json" --svg="$dir/nb.svg" || return 1
	expect_rc 0 && expect_clean || return 1
	xmllint --noout "$dir/nb.svg" || return 1
	check nb-svg "$dir/nb.json" "$dir/nb.svg"
}
each_mode "netbench --svg: one throughput bar per path, axis in Gbit/s" t_netbench_svg

t_churn_svg() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --count=60 --parallel=1,2 --ns=uts,net -J -o "$dir/c.json" --svg="$dir/c.svg" || return 1
	expect_rc 0 || return 1
	xmllint --noout "$dir/c.svg" || return 1
	diag_of "$mode: " check churn-svg "$dir/c.json" "$dir/c.svg"
}
each_mode "bench churn --svg: the backlog over time, a line per creator count, its points where the series puts them" t_churn_svg

# A grid whose operations have two units (ns, us) draws a chart per unit: no axis mixes them.
t_grid_units_svg() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench cgroup --repeat=1 -J -o "$dir/g.json" --svg="$dir/g.svg" || return 1
	expect_rc 0 && expect_clean || return 1
	xmllint --noout "$dir/g.svg" || return 1
	check grid-svg "$dir/g.json" "$dir/g.svg"
}
each_mode "a grid's --svg: one chart per unit, each axis naming it, one bar per figure" t_grid_units_svg

t_compare_charts() {
	local dir
	dir=$(st_scratch) || return 1
	st_run root compare "$FIX/base.json" "$FIX/shifted.json" -J -o "$dir/cmp.json" --seed=3 \
		--svg="$dir/cmp.svg" --html="$dir/cmp.html" || return 1
	expect_rc 0 || return 1
	xmllint --noout "$dir/cmp.svg" || return 1
	check cmp-svg "$dir/cmp.json" "$dir/cmp.svg" || return 1
	grep -q '<pre>sandboxtime compare' "$dir/cmp.html" || { echo "no table in the page"; return 1; }
}
ok "compare --svg --html: A at 1 and B beside it for every figure" t_compare_charts

# Markdown parses back: one row per set in a fixed order, a run's steps fenced.
t_markdown() {
	local mode=$1 dir names
	dir=$(st_scratch) || return 1
	st_run "$mode" layers --ns=user,uts,net "${FAST[@]}" --format=markdown -o "$dir/l.md" || return 1
	expect_rc 0 && expect_clean || return 1
	names=$(check markdown "$dir/l.md" LAYER 4) || { echo "$names"; return 1; }
	expect_eq "$names" "base user uts net" || return 1
	st_run "$mode" --ns=user,uts "${FAST[@]}" --format=markdown -o "$dir/r.md" -- true || return 1
	expect_rc 0 || return 1
	check markdown "$dir/r.md" LAYER 3 >/dev/null || return 1
	grep -qx '```text' "$dir/r.md" && grep -q '^STEP ' "$dir/r.md" || { echo "no fenced steps"; cat "$dir/r.md"; return 1; }
}
each_mode "--format=markdown: layers and a run parse back as pipe tables" t_markdown

t_markdown_orphans() {
	local dir
	dir=$(st_scratch) || return 1
	st_run root orphans --all --format=markdown -o "$dir/o.md" || return 1
	expect_rc 0 1 || return 1
	# At least the host's own namespace is active: --all lists it.
	[ "$(grep -c '^| [0-9]' "$dir/o.md")" -ge 1 ] || { echo "no namespace row"; cat "$dir/o.md"; return 1; }
	check markdown "$dir/o.md" NS "$(grep -c '^| [0-9]' "$dir/o.md")" >/dev/null
}
if is_root; then ok "orphans --format=markdown parses back" t_markdown_orphans
else skip "orphans --format=markdown parses back" "not running as root"; fi

# U+2588, the bars' block, as its UTF-8 bytes: $'\u2588' would need the
# test's own locale to be UTF-8 (CI runs with none).
FULL_BLOCK=$'\xe2\x96\x88'

# stdout/stderr of a command on a terminal (script(1) gives it one).
on_tty() { script -qec "$*" /dev/null </dev/null; }

# on_tty_bar CMD...: on_tty, tried up to three times until the output has a
# bar: the bar draws net's increments, which a loaded machine can make ~0
# (no bar) in one run. An output that never has one still fails.
on_tty_bar() {
	local i out
	for i in 1 2 3; do
		out=$(on_tty "$@") || return 1
		grep -q "$FULL_BLOCK" <<<"$out" && break
	done
	printf '%s\n' "$out"
}

# net's setup and teardown stand well above the noise: its bar is rarely empty.
COLOR_RUN=(layers --ns=net --repeat=12 --deferred-repeat=0)

t_color() {
	local dir out i
	dir=$(st_scratch) || return 1
	# (up to three runs for a bar, as on_tty_bar: see there)
	for i in 1 2 3; do
		st_run root "${COLOR_RUN[@]}" --color=always -o "$dir/a.txt" || return 1
		expect_rc 0 || return 1
		grep -q "$FULL_BLOCK" "$dir/a.txt" && break
	done
	grep -q "$SGR" "$dir/a.txt" || { echo "--color=always: no colour in the file"; return 1; }
	grep -q "$FULL_BLOCK" "$dir/a.txt" || { echo "--color=always: no bar column"; return 1; }
	st_run root "${COLOR_RUN[@]}" -o "$dir/n.txt" || return 1
	! grep -q "$SGR" "$dir/n.txt" || { echo "colour in a file without --color"; return 1; }
	out=$(on_tty_bar "$ST_BIN" "${COLOR_RUN[@]}") || return 1
	grep -q "$SGR" <<<"$out" || { echo "auto on a terminal: no colour"; return 1; }
	grep -q "$FULL_BLOCK" <<<"$out" || { echo "auto on a terminal: no bar column"; return 1; }
	out=$(on_tty_bar env NO_COLOR=1 "$ST_BIN" "${COLOR_RUN[@]}") || return 1
	! grep -q "$SGR" <<<"$out" || { echo "NO_COLOR=1 on a terminal: colour"; return 1; }
	grep -q "$FULL_BLOCK" <<<"$out" || { echo "NO_COLOR=1: the bar column went too"; return 1; }
	out=$(on_tty "$ST_BIN" "${COLOR_RUN[@]}" --color=never) || return 1
	! grep -q "$SGR" <<<"$out" || { echo "--color=never on a terminal: colour"; return 1; }
	out=$(on_tty env NO_COLOR=1 "$ST_BIN" "${COLOR_RUN[@]}" --color=always) || return 1
	grep -q "$SGR" <<<"$out" || { echo "--color=always must win over NO_COLOR"; return 1; }
}
if is_root && command -v script >/dev/null; then
	ok "--color: always and auto on a terminal colour, never, NO_COLOR and a file do not" t_color
else
	skip "--color: always and auto on a terminal colour, never, NO_COLOR and a file do not" "needs root and script(1)"
fi

t_bad_input() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" layers "${FAST[@]}" -J -o "$dir/r.json" --svg="$dir/missing/x.svg" || return 1
	expect_rc 125 && expect_error_line && expect_error_names "--svg" || return 1
	[ ! -e "$dir/r.json" ] || { echo "-o file left behind"; return 1; }
	st_run "$mode" layers "${FAST[@]}" --html="$dir/h.html" --svg="$dir/missing/x.svg" || return 1
	expect_rc 125 || return 1
	[ ! -e "$dir/h.html" ] || { echo "--html file left behind"; return 1; }
	st_run "$mode" layers --color=sometimes || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "--color" || return 1
	st_run "$mode" orphans --svg="$dir/o.svg" || return 1
	expect_rc 125 && expect_error_line usage && [ ! -e "$dir/o.svg" ]
}
each_mode "bad input: --svg where nothing can be written, --color=sometimes, orphans --svg: 125, nothing left" t_bad_input
