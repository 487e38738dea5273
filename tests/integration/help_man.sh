#!/usr/bin/env bash
# --help, --version and man/sandboxtime.1 agree: every option of one is in the
# other with the same short form, argument and default wording, and the page
# renders without warnings. The man page is parsed as troff source (no man or
# groff needed for that), so only the render checks can skip.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
MAN_PAGE=$TOP/man/sandboxtime.1

plan 17

help_text() { "$ST_BIN" --help 2>/dev/null; }

# Lines of the troff source between ".SH NAME" and the next .SH.
man_section() {
	awk -v want="$1" '
		/^\.SH / { name = substr($0, 5); gsub(/"/, "", name); insec = (name == want); next }
		insec { print }' "$MAN_PAGE"
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

test_th_version() {
	local version th
	[ -f "$MAN_PAGE" ] || { echo "no $MAN_PAGE"; return 1; }
	version=$("$ST_BIN" --version | awk 'NR == 1 { print $3 }')
	th=$(grep -m1 '^\.TH ' "$MAN_PAGE")
	grep -qF "\"sandboxtime $version\"" <<<"$th" ||
		{ echo "man page header '$th' does not name sandboxtime $version"; return 1; }
}

# Each long option of --help, as \-\-name in the troff or --name in its text.
test_help_longs_in_man() {
	local name missing="" text
	text=$(troff_text <"$MAN_PAGE")
	for name in $(help_text | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "${name//-/\\-}" "$MAN_PAGE" && continue
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
	local opt text entry frag bad=""
	local entries
	entries=$(man_option_entries)
	while IFS=$'\t' read -r opt text; do
		entry=$(awk -F'\t' -v o="$opt" '{ n = split($1, w, /[ ,=]+/)
			for (i = 1; i <= n; i++) if (w[i] == o) { print $2; exit } }' <<<"$entries")
		while IFS= read -r frag; do
			[ -n "$frag" ] || continue
			grep -qF -- "$frag" <<<"$entry" || bad="$bad\n$opt: '$frag'"
		done < <(printf '%s\n' "$text" |
			grep -oE 'default: [^;)]+|[A-Za-z]+ \(default\)|\([^()]*; default\)')
	done < <(help_entries)
	[ -z "$bad" ] || { printf 'default wording of --help missing in the man page:%b\n' "$bad"; return 1; }
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

# util-linux order; sections that are not listed (FILES, NOTES) may sit between.
test_section_order() {
	local want="NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS EXIT_STATUS ENVIRONMENT EXAMPLES SEE_ALSO"
	local got
	got=$(sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$MAN_PAGE" | tr ' ' '_' |
		grep -xF -f <(tr ' ' '\n' <<<"$want") | tr '\n' ' ')
	expect_eq "${got% }" "$want"
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
	local err
	err=$(LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat PAGER=cat man --warnings -l "$MAN_PAGE" 2>&1 >/dev/null) ||
		{ echo "man failed: $err"; return 1; }
	[ -z "$err" ] || { echo "$err"; return 1; }
}

test_groff_warnings() {
	local err
	err=$(groff -man -Tutf8 -ww -z "$MAN_PAGE" 2>&1) || { echo "groff failed: $err"; return 1; }
	[ -z "$err" ] || { echo "$err"; return 1; }
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
ok "the man page header names the version of --version" test_th_version
ok "every long option of --help appears in the man page" test_help_longs_in_man
ok "every option of --help has an entry in the man page's OPTIONS" test_help_options_have_entries
ok "every option in the man page's OPTIONS exists in --help" test_man_options_exist
ok "short forms and option arguments match between --help and OPTIONS" test_signatures_match
ok "the defaults of --help are worded the same in OPTIONS" test_defaults_wording
ok "the commands of the --help usage are in COMMANDS" test_commands_documented
ok "the exit codes of --help are in EXIT STATUS" test_exit_codes_documented
ok "the sections follow util-linux's order" test_section_order
ok "an unknown option exits 125 and points to --help" test_bad_option
ok "CMD --help lists that command's usage and options only" test_command_help
ok "bench NAME --help prints the default repeat from the registry" test_bench_help_repeat
if command -v man >/dev/null 2>&1; then
	ok "the man page renders without warnings (man --warnings -l)" test_man_warnings
else
	skip "the man page renders without warnings (man --warnings -l)" "man is not installed"
fi
if command -v groff >/dev/null 2>&1; then
	ok "the man page renders without warnings (groff -ww)" test_groff_warnings
else
	skip "the man page renders without warnings (groff -ww)" "groff is not installed"
fi
