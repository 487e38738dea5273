#!/usr/bin/env bash
# Each man page agrees with the --help of its commands: every option of one is
# in the other with the same short form, argument and default wording, and
# every page renders without warnings (man, groff; lint.sh runs mandoc -Tlint
# on every page).
# The pages are parsed as troff source (no man or groff needed for that), so
# only the render checks can skip.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
MAN_DIR=${ST_MAN_DIR:-$TOP/man}

plan 19

BENCHES="syscall cpu fork churn files userns where mounts cgroup launch all"

# A page of the commands (sandboxtime-runtime(1) has runc's flags, no table-made help).
PAGES="sandboxtime sandboxtime-bench sandboxtime-netbench sandboxtime-orphans sandboxtime-compare"

# The command lines whose --help the OPTIONS of page $1 must match, one a line.
page_commands() {
	local b
	case $1 in
	sandboxtime) printf '%s\n' "" layers cleanup ;;
	sandboxtime-bench) echo bench; for b in $BENCHES; do echo "bench $b"; done ;;
	sandboxtime-*) echo "${1#sandboxtime-}" ;;
	esac
}

# The --help of every command of page $PAGE_NAME (default: sandboxtime), one after the other.
help_text() {
	local cmd
	while IFS= read -r cmd; do
		# shellcheck disable=SC2086 # "bench where" is two words
		"$ST_BIN" $cmd --help 2>/dev/null
	done < <(page_commands "${PAGE_NAME:-sandboxtime}")
}

# Lines of the troff source between ".SH NAME" and the next .SH.
man_section() {
	awk -v want="$1" '
		/^\.SH / { name = substr($0, 5); gsub(/"/, "", name); insec = (name == want); next }
		insec { print }' "$MAN_DIR/${PAGE_NAME:-sandboxtime}".[17]
}

# Turns troff lines into plain text: font macros lose their fonts (the
# alternating ones, .BR .IR ..., join their arguments), other requests become
# paragraph breaks ("\n\n"), escapes become the characters they stand for.
troff_text() {
	awk '
	function split_args(s, A,    n, i, c, cur, inq, started) {
		n = 0; cur = ""; inq = 0; started = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\\") { cur = cur c substr(s, i + 1, 1); i++; started = 1; continue }
			if (inq) {
				if (c == "\"") inq = 0; else cur = cur c
				continue
			}
			if (c == "\"") { inq = 1; started = 1; continue }
			if (c == " " || c == "\t") {
				if (started) { A[++n] = cur; cur = ""; started = 0 }
				continue
			}
			cur = cur c; started = 1
		}
		if (started) A[++n] = cur
		return n
	}
	function unescape(s) {
		gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\\(dq/, "\"", s)
		gsub(/\\\(aq/, "\047", s); gsub(/\\\(mu/, "x", s); gsub(/\\&/, "", s)
		gsub(/\\ /, " ", s); gsub(/\\e/, "\\", s)
		return s
	}
	/^\.\\"/ { next }
	/^\.(B|I|SM|SB) / || /^\.(BR|BI|IR|RB|IB|RI) / {
		mac = substr($0, 2, index($0, " ") - 2)
		n = split_args(substr($0, length(mac) + 3), A)
		out = ""
		for (k = 1; k <= n; k++)
			out = out ((length(mac) == 1 || mac == "SM" || mac == "SB") && k > 1 ? " " : "") A[k]
		print unescape(out)
		next
	}
	/^\./ { print ""; next }
	{ print unescape($0) }'
}

# OPTIONS entries as "TAG<TAB>BODY", both in plain text, one a line.
man_option_entries() {
	man_section OPTIONS | sed -e 's/^\.TP.*/@@TP@@/' -e 's/^\.\(PP\|P\|LP\|SS\).*/@@END@@/' |
		troff_text | awk '
		function flush() { if (tag != "") { gsub(/  +/, " ", body); print tag "\t" body }; tag = "" }
		/^@@TP@@$/ { flush(); getline tag; body = ""; next }
		/^@@END@@$/ { flush(); next }
		tag != "" { body = body " " $0 }
		END { flush() }'
}

# "SHORT|LONG|ARG" per option: "-o|--output|=", "|--alone|". Reads option
# heads ("-o, --output=FILE", "--ns=list") on standard input, one a line.
signatures() {
	sed -n 's/^ *\(-[A-Za-z]\)\{0,1\}[, ]*\(--[a-z][a-z-]*\)\(=\{0,1\}\).*/\1|\2|\3/p' | sort -u
}

help_signatures() {
	help_text | grep -E '^ +(-[A-Za-z], )?--[a-z]' | signatures
}

man_signatures() {
	man_option_entries | cut -f1 | signatures
}

# Body text of --help per option, continuation lines joined: "--NAME<TAB>TEXT".
help_entries() {
	help_text | awk '
		/^ +(-[A-Za-z], )?--[a-z]/ {
			if (opt != "") print opt "\t" text
			line = $0; sub(/^ +(-[A-Za-z], )?/, "", line)
			opt = line; sub(/[= ].*/, "", opt)
			text = line; sub(/^--[a-z-]+(=[A-Z]+)? +/, "", text)
			next
		}
		opt != "" && /^          +[^ -]/ { t = $0; sub(/^ +/, "", t); text = text " " t; next }
		{ if (opt != "") print opt "\t" text; opt = "" }
		END { if (opt != "") print opt "\t" text }'
}

test_help_stdout() {
	local out err rc
	out=$("$ST_BIN" --help 2>"$ST_TMP/help.err")
	rc=$?
	err=$(cat "$ST_TMP/help.err")
	[ "$rc" -eq 0 ] || { echo "--help exited $rc"; return 1; }
	[ -z "$err" ] || { echo "--help wrote to standard error: $err"; return 1; }
	case $out in
	Usage:*) ;;
	*) echo "--help did not start with 'Usage:' on standard output"; return 1 ;;
	esac
	grep -q -- '--version' <<<"$out" || { echo "--help does not mention --version"; return 1; }
}

test_short_help() {
	expect_eq "$("$ST_BIN" -h 2>&1)" "$("$ST_BIN" --help 2>&1)"
}

test_version() {
	local out rc
	out=$("$ST_BIN" --version 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] || { echo "--version exited $rc"; return 1; }
	# runc's form, which engines read: the first line names the version, then spec and libseccomp.
	[ "$(sed -n 1p <<<"$out")" = "sandboxtime version $(sed -n 's/^#define ST_VERSION "\(.*\)"/\1/p' "$TOP/include/sandboxtime/version.h")" ] &&
		grep -qxE 'spec: [0-9]+\.[0-9]+\.[0-9]+' <<<"$out" &&
		grep -qxE "libseccomp: $(pkg-config --modversion libseccomp | sed 's/\./\\./g')" <<<"$out" ||
		{ echo "--version printed '$out', expected runc's form: 'sandboxtime version X.Y.Z', 'spec: ...', 'libseccomp: ...'"; return 1; }
	expect_eq "$("$ST_BIN" -V 2>&1)" "$out"
}

# Every page's header names the version of --version.
test_th_version() {
	local version th page bad=""
	version=$("$ST_BIN" --version | awk 'NR == 1 { print $3 }')
	for page in "$MAN_DIR"/*.[17]; do
		th=$(grep -m1 '^\.TH ' "$page")
		grep -qF "\"sandboxtime $version\"" <<<"$th" || bad="$bad\n$page: '$th'"
	done
	[ -z "$bad" ] || { printf 'man page headers that do not name sandboxtime %s:%b\n' "$version" "$bad"; return 1; }
}

# Runs test $1 for every page of PAGES, PAGE_NAME set; fails if one fails,
# each failure's message prefixed with its page.
for_each_page() {
	local out rc=0
	for PAGE_NAME in $PAGES; do
		out=$("$@" 2>&1) || { printf '%s(%s): %s\n' "$PAGE_NAME" "$1" "$out"; rc=1; }
	done
	PAGE_NAME=
	return $rc
}

# Each long option of --help, as \-\-name in the troff or --name in its text.
test_help_longs_in_man() {
	local name missing="" text page=$MAN_DIR/$PAGE_NAME.1
	text=$(troff_text <"$page")
	for name in $(help_text | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "${name//-/\\-}" "$page" && continue
		grep -qF -- "$name" <<<"$text" && continue
		missing="$missing $name"
	done
	[ -z "$missing" ] || { echo "in --help but not in the man page:$missing"; return 1; }
}

# Each option of --help has its own entry in OPTIONS, and vice versa.
test_help_options_have_entries() {
	local missing
	missing=$(comm -23 <(help_signatures | cut -d'|' -f2 | sort -u) \
		<(man_signatures | cut -d'|' -f2 | sort -u))
	[ -z "$missing" ] || { echo "options of --help without an entry in OPTIONS: ${missing//$'\n'/ }"; return 1; }
}

test_man_options_exist() {
	local extra
	[ -n "$(man_signatures)" ] || { echo "found no option in the man page's OPTIONS"; return 1; }
	extra=$(comm -13 <(help_signatures | cut -d'|' -f2 | sort -u) \
		<(man_signatures | cut -d'|' -f2 | sort -u))
	[ -z "$extra" ] || { echo "documented in OPTIONS but not in --help: ${extra//$'\n'/ }"; return 1; }
}

# Same short form and same "takes a value" on both sides.
test_signatures_match() {
	local d
	d=$(diff <(help_signatures) <(man_signatures)) ||
		{ echo "SHORT|LONG|=ARG differ (< --help, > man page):"; echo "$d"; return 1; }
}

# The wording of every default in --help is in that option's man entry:
# "default: X" up to ';' or ')', "WORD (default)", and "(...; default)".
test_defaults_wording() {
	local bad
	# One awk over both lists (the OPTIONS entries first, then --help's), not
	# a process per option: the man page's entry of each option by each of its
	# names, then each default fragment of its --help text looked up in it.
	bad=$(awk -F'\t' '
		FILENAME == ARGV[1] { n = split($1, w, /[ ,=]+/); for (i = 1; i <= n; i++) if (!(w[i] in entry)) entry[w[i]] = $2; next }
		{
			text = $2
			while (match(text, /default: [^;)]+|[A-Za-z]+ \(default\)|\([^()]*; default\)/)) {
				frag = substr(text, RSTART, RLENGTH); text = substr(text, RSTART + RLENGTH)
				if (index(entry[$1], frag) == 0) printf "\n%s: '\''%s'\''", $1, frag
			}
		}' <(man_option_entries) <(help_entries))
	[ -z "$bad" ] || { printf 'default wording of --help missing in the man page:%s\n' "$bad"; return 1; }
}

test_commands_documented() {
	local cmds cmd section missing=""
	section=$(man_section COMMANDS | troff_text)
	cmds=$(help_text | sed -n 's/^ *sandboxtime \([a-z][a-z-]*\) .*/\1/p' | sort -u)
	[ -n "$cmds" ] || { echo "no command found in the --help usage"; return 1; }
	for cmd in $cmds; do
		grep -qE "^$cmd( |\$)" <<<"$section" || missing="$missing $cmd"
	done
	[ -z "$missing" ] || { echo "commands of --help not in COMMANDS:$missing"; return 1; }
}

test_exit_codes_documented() {
	local code section missing=""
	section=$(man_section "EXIT STATUS" | troff_text)
	for code in $(help_text | sed -n '/^Exit status/,/^$/p' | grep -oE '12[0-9](\+N)?' | sort -u); do
		grep -qF -- "$code" <<<"$section" || missing="$missing $code"
	done
	[ -z "$missing" ] || { echo "exit codes of --help not in EXIT STATUS:$missing"; return 1; }
}

# util-linux order on every page; sections that are not listed (FILES, NOTES,
# BENCHMARKS) may sit between. COMMANDS and EXAMPLES only where they are.
test_section_order() {
	local want="NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS EXIT_STATUS ENVIRONMENT EXAMPLES SEE_ALSO"
	local need="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS SEE_ALSO"
	local got s bad=""
	for PAGE_NAME in $PAGES; do
		got=$(sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$MAN_DIR/$PAGE_NAME.1" | tr ' ' '_' |
			grep -xF -f <(tr ' ' '\n' <<<"$want") | tr '\n' ' ')
		# The order of $want kept, restricted to the sections the page has.
		[ "${got% }" = "$(for s in $want; do grep -qw "$s" <<<"$got" && printf '%s ' "$s"; done | sed 's/ $//')" ] ||
			bad="$bad\n$PAGE_NAME: $got"
		for s in $need; do grep -qw "$s" <<<"$got" || bad="$bad\n$PAGE_NAME: no $s"; done
	done
	PAGE_NAME=
	[ -z "$bad" ] || { printf 'sections out of util-linux order (%s):%b\n' "$want" "$bad"; return 1; }
}

test_bad_option() {
	local out err rc
	out=$("$ST_BIN" --no-such-option 2>"$ST_TMP/bad.err")
	rc=$?
	err=$(cat "$ST_TMP/bad.err")
	[ "$rc" -eq 125 ] || { echo "exit $rc, expected 125"; return 1; }
	[ -z "$out" ] || { echo "wrote to standard output: $out"; return 1; }
	grep -qF "Try 'sandboxtime --help'" <<<"$err" || { echo "no pointer to --help: $err"; return 1; }
}

test_man_warnings() {
	local err page bad=""
	for page in "$MAN_DIR"/*.[17]; do
		err=$(LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat PAGER=cat man --warnings -l "$page" 2>&1 >/dev/null) ||
			err="man failed: $err"
		[ -z "$err" ] || bad="$bad\n$page: $err"
	done
	[ -z "$bad" ] || { printf '%b\n' "$bad"; return 1; }
}

test_groff_warnings() {
	local err page bad=""
	for page in "$MAN_DIR"/*.[17]; do
		err=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || err="groff failed: $err"
		[ -z "$err" ] || bad="$bad\n$page: $err"
	done
	[ -z "$bad" ] || { printf '%b\n' "$bad"; return 1; }
}

# `make install` installs every page under man/ into its section's directory,
# and DESIGN.md, which the pages point to (read from make's plan, -n: nothing
# built or installed here; build.sh runs a real install).
test_install_pages() {
	local plan page sec bad=""
	plan=$(make -s -C "$TOP" -n install DESTDIR=/st-dest PREFIX=/usr 2>&1) || { echo "$plan"; return 1; }
	for page in "$TOP"/man/*.[17]; do
		sec=${page##*.}
		grep -E "^install .*man/${page##*/} .*/st-dest/usr/share/man/man$sec/\$" <<<"$plan" >/dev/null ||
			bad="$bad ${page##*/}"
	done
	grep -qE '^install .*docs/DESIGN.md /st-dest/usr/share/doc/sandboxtime/$' <<<"$plan" || bad="$bad DESIGN.md"
	[ -z "$bad" ] || { echo "make install does not install:$bad"; printf '%s\n' "$plan"; return 1; }
}

# Every command family's page is there, and each help points to it.
test_family_pages() {
	local page bad=""
	for page in $PAGES sandboxtime-runtime; do
		[ -f "$MAN_DIR/$page.1" ] || bad="$bad no $page.1;"
	done
	[ -f "$MAN_DIR/sandboxtime-method.7" ] || bad="$bad no sandboxtime-method.7;"
	"$ST_BIN" netbench --help | grep -qx 'For more details see sandboxtime-netbench(1)\.' || bad="$bad netbench --help;"
	"$ST_BIN" orphans --help | grep -qx 'For more details see sandboxtime-orphans(1)\.' || bad="$bad orphans --help;"
	"$ST_BIN" compare --help | grep -qx 'For more details see sandboxtime-compare(1)\.' || bad="$bad compare --help;"
	"$ST_BIN" bench fork --help | grep -qx 'For more details see sandboxtime-bench(1)\.' || bad="$bad bench fork --help;"
	"$ST_BIN" layers --help | grep -qx 'For more details see sandboxtime(1)\.' || bad="$bad layers --help;"
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# `CMD --help` lists that command's options only: --cleanup is orphans', --streams netbench's,
# --kernel bench where's; each help names its own usage line and man page.
test_command_help() {
	local h
	h=$("$ST_BIN" bench where --help) || return 1
	printf '%s\n' "$h" | grep -q -- '--kernel=PATH' || { echo "bench where: no --kernel"; return 1; }
	printf '%s\n' "$h" | grep -q -- '--cleanup\|--streams\|--sizes' && { echo "$h"; return 1; }
	printf '%s\n' "$h" | grep -q '^ sandboxtime bench where \[OPTIONS\]' || { echo "$h"; return 1; }
	expect_eq "$(printf '%s\n' "$h" | grep -c '^ sandboxtime ')" 1 || return 1
	printf '%s\n' "$h" | grep -q '^For more details see sandboxtime.*(1)\.$' || return 1
	# `bench --help`: every bench's usage line and the family's page, no other command's options.
	h=$("$ST_BIN" bench --help) || return 1
	expect_eq "$(printf '%s\n' "$h" | grep -c '^ sandboxtime bench [a-z]* \[OPTIONS\]')" "$(wc -w <<<"$BENCHES")" || return 1
	printf '%s\n' "$h" | grep -q -- '--kernel=PATH' || { echo "bench --help: no --kernel"; return 1; }
	printf '%s\n' "$h" | grep -q -- '--cleanup\|--streams' && { echo "$h"; return 1; }
	printf '%s\n' "$h" | grep -qx 'For more details see sandboxtime-bench(1)\.' || { echo "$h"; return 1; }
	h=$("$ST_BIN" netbench --help) || return 1
	printf '%s\n' "$h" | grep -q -- '--streams' || { echo "netbench: no --streams"; return 1; }
	printf '%s\n' "$h" | grep -q -- '--kernel\|--cleanup' && { echo "$h"; return 1; }
	h=$("$ST_BIN" orphans --help) || return 1
	printf '%s\n' "$h" | grep -q -- '--cleanup' || { echo "orphans: no --cleanup"; return 1; }
	printf '%s\n' "$h" | grep -q -- '--streams' && { echo "$h"; return 1; }
	return 0
}

# A bench's help prints its default repeat from the registry: 10 for mounts, 5 for launch.
test_bench_help_repeat() {
	"$ST_BIN" bench mounts --help | grep -q '^Without --repeat: 10 rounds\.$' || return 1
	"$ST_BIN" bench launch --help | grep -q '^Without --repeat: 5 rounds\.$' || return 1
	"$ST_BIN" bench syscall --help | grep -q '^Without --repeat: 20 rounds\.$'
}

ok "--help exits 0 and writes the usage to standard output only" test_help_stdout
ok "-h prints the same text as --help" test_short_help
ok "--version and -V print runc's form: 'sandboxtime version X.Y.Z', spec, libseccomp" test_version
ok "every man page's header names the version of --version" test_th_version
ok "every long option of a command's --help appears in its page" for_each_page test_help_longs_in_man
ok "every option of a command's --help has an entry in its page's OPTIONS" for_each_page test_help_options_have_entries
ok "every option in a page's OPTIONS exists in its commands' --help" for_each_page test_man_options_exist
ok "short forms and option arguments match between --help and OPTIONS" for_each_page test_signatures_match
ok "the defaults of --help are worded the same in OPTIONS" for_each_page test_defaults_wording
ok "the commands of the --help usage are in COMMANDS" test_commands_documented
ok "the exit codes of --help are in EXIT STATUS" test_exit_codes_documented
ok "the sections of every page follow util-linux's order" test_section_order
ok "an unknown option exits 125 and points to --help" test_bad_option
ok "CMD --help lists that command's usage and options only" test_command_help
ok "bench NAME --help prints the default repeat from the registry" test_bench_help_repeat
ok "each command family has its page, and its --help names it" test_family_pages
ok "make install installs every man page and DESIGN.md" test_install_pages
if command -v man >/dev/null 2>&1; then
	ok "every man page renders without warnings (man --warnings -l)" test_man_warnings
else
	skip "every man page renders without warnings (man --warnings -l)" "man is not installed"
fi
if command -v groff >/dev/null 2>&1; then
	ok "every man page renders without warnings (groff -ww)" test_groff_warnings
else
	skip "every man page renders without warnings (groff -ww)" "groff is not installed"
fi
