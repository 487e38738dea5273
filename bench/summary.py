#!/usr/bin/env python3
"""BENCHMARKS.md, the one-page summary, and docs/bench-notes/results.md,
every result table, from templates and the last results.

usage: summary.py [-o FILE|-]            render bench/summary.md.in with
                                         bench/results/*.json into FILE
                                         (default: BENCHMARKS.md at the top)
       summary.py --tables [-o FILE|-]   render bench/results.md.in into FILE
                                         (default: docs/bench-notes/results.md)
       summary.py --extract REPORT.md [OUT|-]
                                         the headline tables of the report that
                                         bench/analyze.py wrote for the last
                                         full bench/run.sh (docs/bench-notes/
                                         run.md) into OUT (bench/results/run.json)

bench/run.sh runs --extract and then renders both pages, so they always
show its last run; `make bench` (bench/all.sh) runs every script whose
figures the pages quote and merges their tables into bench/results/. Each
table keeps the command that produced it, its date and its commit.
Rendering measures nothing and reads nothing else: the committed pages are
exactly what this script makes from the committed results
(tests/integration/lint.sh checks that), and every table of bench/results/
is on one page or the other (rendering fails otherwise).

A result file is {"tables": {ID: TABLE}}; a TABLE has "title", "command"
(one line or a list), "date", "commit", "notes" (the file under docs/bench-notes/
with the details), "columns", "align" (optional, one markdown alignment cell per
column), "rows" and optional "text" (lines printed under the table). A
template names a table with a line "@@table FILE.ID@@" (FILE without .json):
the table in full, its command, date and commit above it and its text below;
"@@headline FILE.ID@@" gives the rows with one line above them, the command
that made them and where the details are.
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
# The pages: (template, default output), each output's links relative to it.
SUMMARY = (os.path.join(ROOT, "bench", "summary.md.in"), os.path.join(ROOT, "BENCHMARKS.md"))
TABLES = (os.path.join(ROOT, "bench", "results.md.in"), os.path.join(ROOT, "docs", "bench-notes", "results.md"))


def load_results():
    res = {}
    for path in sorted(glob.glob(os.path.join(RESULTS, "*.json"))):
        with open(path, encoding="utf-8") as f:
            res[os.path.basename(path)[:-5]] = json.load(f)
    return res


def link(notes, page_dir):
    """A markdown link to NOTES (a path from the top) from a page in PAGE_DIR."""
    return "[%s](%s)" % (notes, os.path.relpath(os.path.join(ROOT, notes), page_dir))


def table_rows(t):
    cols = t["columns"]
    align = t.get("align") or ["---"] * len(cols)
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join(align) + "|"]
    for row in t["rows"]:
        if len(row) != len(cols):
            raise SystemExit("summary: %s: row %r has %d cells for %d columns" % (
                t["title"], row, len(row), len(cols)))
        out.append("| " + " | ".join(row) + " |")
    return out


def render_table(t, page_dir=ROOT):
    cmds = t["command"] if isinstance(t["command"], list) else [t["command"]]
    out = ["Produced on %s at commit %s by the command below; details in %s." % (
        t["date"], t["commit"], link(t["notes"], page_dir)), "", "```"]
    out.extend(cmds)
    out.extend(["```", ""])
    out.extend(table_rows(t))
    if t.get("text"):
        out.append("")
        out.extend(t["text"])
    return out


def render_headline(t, page_dir=ROOT):
    """The rows, under the command that made them (its first line, without
    the comment), its date and commit, and the link to the details."""
    cmd = (t["command"] if isinstance(t["command"], list) else [t["command"]])[0]
    cmd = re.sub(r"\s+#.*$", "", cmd)
    out = ["`%s` (%s, %s; %s)" % (cmd, t["date"], t["commit"], link(t["notes"], page_dir)), ""]
    return out + table_rows(t)


def render(res, template, page_dir, used=None):
    """TEMPLATE with its tables from RES, for a page in PAGE_DIR; the
    (file, id) of each table it names is added to USED."""
    with open(template, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    for line in lines:
        m = re.fullmatch(r"@@(table|headline) (\w+)\.([\w-]+)@@", line)
        if m:
            kind, fname, tid = m.groups()
            try:
                t = res[fname]["tables"][tid]
            except KeyError:
                raise SystemExit("summary: %s names %s.%s, which bench/results/ lacks" % (
                    os.path.basename(template), fname, tid))
            if used is not None:
                used.add((fname, tid))
            out.extend((render_table if kind == "table" else render_headline)(t, page_dir))
            continue
        out.append(re.sub(r"@(\w+)\.(\w+)@", lambda m: str(res[m.group(1)][m.group(2)]), line))
    return "\n".join(out).rstrip("\n") + "\n"


def render_pages(res):
    """{page: text} for both pages; every table of RES is on one of them."""
    used = set()
    pages = {}
    for template, page in (SUMMARY, TABLES):
        pages[page] = render(res, template, os.path.dirname(page), used)
    left = sorted("%s.%s" % (f, tid) for f, doc in res.items() for tid in doc["tables"] if (f, tid) not in used)
    if left:
        raise SystemExit("summary: no page shows %s (name it in bench/results.md.in)" % ", ".join(left))
    return pages


# ---------------------------------------------------------------------------
# --extract: the headline tables of analyze.py's report.

def section(lines, heading):
    """The lines after the heading line that starts with HEADING, up to the
    next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = next(i for i, l in enumerate(lines) if l.startswith(heading))
    end = len(lines)
    for i in range(start + 1, len(lines)):
        m = re.match(r"(#+) ", lines[i])
        if m and len(m.group(1)) <= level:
            end = i
            break
    return lines[start + 1:end]


def tables(lines):
    """Every markdown table in LINES: (header, rows), each a list of cells."""
    found, cur = [], []
    for l in lines + [""]:
        if l.startswith("|"):
            cur.append([c.strip() for c in l.strip().strip("|").split("|")])
        elif cur:
            found.append((cur[0], [r for r in cur[2:]]))
            cur = []
    return found


def pick(table, want, where=None):
    """The columns WANT (header names) of TABLE, rows filtered by WHERE."""
    header, rows = table
    idx = [header.index(c) for c in want]
    return [[r[i] for i in idx] for r in rows if where is None or where(dict(zip(header, r)))]


def first_code_line(lines):
    i = lines.index("```")
    return lines[i + 1].rstrip(" \\")


def extract(report, path=os.path.join(RESULTS, "run.json")):
    with open(report, encoding="utf-8") as f:
        lines = f.read().split("\n")
    facts = dict(pick(tables(section(lines, "## Machine"))[0], ["fact", "value"]))
    date = facts["date"]
    commit = re.search(r"git (\w+)", facts["sandboxtime"]).group(1)
    m = re.match(r"Generated by `([^`]+)`", lines[2])
    run = m.group(1) if m else "bash bench/run.sh build/sandboxtime"
    notes = "docs/bench-notes/" + os.path.basename(report)

    def table(title, command, cols, rows, align=None, text=None):
        t = {"title": title, "command": command, "date": date, "commit": commit,
             "notes": notes, "columns": cols, "rows": rows}
        if align:
            t["align"] = align
        if text:
            t["text"] = text
        return t

    out = {"date": date, "commit": commit, "run": run,
           "machine": "%s, %s; load average %s at the start" % (
               facts["kernel"], facts["CPU"], facts["load average"].split(" at start")[0]),
           "tables": {}}
    T = out["tables"]
    T["targets"] = table("Targets", run, ["target", "measured", "verdict"],
                         pick(tables(section(lines, "## Targets"))[0], ["target", "measured", "verdict"]))
    launch_cols = ["command", "median ms", "round medians ms", "p95 ms", "/ unshare", "/ floor"]
    for tid, head in (("launch-root", "### 1a."), ("launch-rootless", "### 1b.")):
        sec = section(lines, head)
        T[tid] = table(head, [run + "   # section " + head[4:6] + ", 3 rounds of:", first_code_line(sec) + " ..."],
                       launch_cols, pick(tables(sec)[0], launch_cols))
    sec = section(lines, "### As root")
    inc = ["layer", "+setup st", "+setup cl", "+teardown st", "+teardown cl"]
    T["layers-root"] = table("layers", [run + "   # section 3, 3 rounds of:",
                                        first_code_line(sec), "clone_loop -c 0 -n 200 -w 5 SETS..."],
                             inc, pick(tables(sec)[1], inc))
    sec = section(lines, "## 5.")
    tb = tables(sec)
    T["deferred-clone-loop"] = table("deferred, clone_loop", [
        run + "   # section 5:", "clone_loop --deferred -n 10 -w 1 [-s 0|-s 100] FLAGS"],
        tb[0][0], pick(tb[0], tb[0][0]))
    T["deferred-sandboxtime"] = table("deferred, sandboxtime", [
        run + "   # section 5:", "sandboxtime layers --ns=X --repeat=10 -J"],
        ["--ns", "deferred median ms", "min", "p95"], pick(tb[1], ["--ns", "deferred median ms", "min", "p95"]))
    if path == "-":
        sys.stdout.write(dump(out))
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(dump(out))
    print("summary: wrote %s" % path, file=sys.stderr)


def dump(doc):
    """JSON with one table row per line, so that a new run's diff reads by row."""
    rows = {}

    def mark(o):
        if isinstance(o, dict):
            return {k: mark(v) for k, v in o.items()}
        if isinstance(o, list) and o and all(isinstance(r, list) for r in o):
            keys = []
            for r in o:
                rows["@row%d@" % len(rows)] = json.dumps(r, ensure_ascii=False)
                keys.append("@row%d@" % (len(rows) - 1))
            return keys
        return o
    text = json.dumps(mark(doc), indent=1, ensure_ascii=False)
    return re.sub(r'"(@row\d+@)"', lambda m: rows[m.group(1)], text) + "\n"


def main(argv):
    if argv[:1] == ["--extract"] and len(argv) in (2, 3):
        extract(*argv[1:])
        return
    template, out = SUMMARY
    if argv[:1] == ["--tables"]:
        template, out = TABLES
        argv = argv[1:]
    if argv[:1] == ["-o"] and len(argv) == 2:
        out = argv[1]
    elif argv:
        raise SystemExit(__doc__.split("\n\n")[1])
    text = render_pages(load_results())[(SUMMARY if template == SUMMARY[0] else TABLES)[1]]
    if out == "-":
        sys.stdout.write(text)
    else:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
