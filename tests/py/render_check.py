"""render_check.py: checks what --svg, --html and --format=markdown wrote
(tests/integration/render.sh), against the JSON document of the same run.

  layers-svg RUN.json FILE.svg   one setup and one teardown bar per measured
                                 layer of RUN.json (base included), one
                                 deferred bar per type freed in its last
                                 set, axis titles with units, every text
                                 non-empty
  bars FILE.svg CLASS N          exactly N rects of class CLASS
  steps-svg RUN.json FILE.svg    one bar per step of the run
  nb-svg NB.json FILE.svg        one throughput bar per path of NB.json
  cmp-svg CMP.json FILE.svg      one bar per figure and file (A at 1)
  churn-svg CHURN.json FILE.svg  one backlog line per creator count with
                                 one point per series point, inside the plot
                                 and climbing where the series climbs; p50
                                 and p99 bars, rate and bare-loop bars per
                                 count; the axis titles with their units
  html FILE.html RUN.json        well-formed enough to parse; nothing fetched
                                 (no src/href/link/script/@import/url());
                                 the inline SVG has the layers' bars; the
                                 table text is in a <pre>
  png FILE.png                   a PNG whose chart area (the middle of the
                                 page's upper half) has non-white pixels:
                                 prints their count
  markdown FILE.md HEADING N     a pipe table whose first heading is
                                 HEADING: every row with the heading's cell
                                 count, a delimiter row, N body rows
"""
import html.parser
import json
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("render check failed:", msg)
    sys.exit(1)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def rects(root, cls):
    return [r for r in root.iter(SVG + "rect") if r.get("class") == cls]


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def svg_root(path):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"{path}: not well-formed XML: {e}")


def measured_layers(doc):
    return [l for l in doc["layers"] if l.get("available") and isinstance(l.get("increments"), dict)]


def check_layers(doc, root, where):
    layers = measured_layers(doc)
    if not layers:
        fail("the run measured no layer")
    for cls in ("bar-setup", "bar-teardown"):
        got = len(rects(root, cls))
        if got != len(layers):
            fail(f"{where}: {got} {cls} bars for {len(layers)} measured layers")
    words = texts(root)
    for name in [l["layer"] for l in layers]:
        if name not in words:
            fail(f"{where}: no label '{name}'")
    if "microseconds (µs)" not in words:
        fail(f"{where}: no axis title with its unit (µs)")
    by = [l["deferred_by_type"] for l in doc["layers"] if isinstance(l.get("deferred_by_type"), dict)]
    got = len(rects(root, "bar-deferred"))
    want = len(by[-1]) if by else 0
    if got != want:
        fail(f"{where}: {got} deferred bars for {want} types")
    if want and not any(w.startswith("milliseconds (ms)") for w in words):
        fail(f"{where}: the deferred chart's axis is not in milliseconds")
    for r in rects(root, "bar-setup") + rects(root, "bar-teardown"):
        if float(r.get("width")) < 0 or r.find(SVG + "title") is None:
            fail(f"{where}: a bar with a negative width or no title")
    return len(layers)


def layers_svg(run_json, svg):
    root = svg_root(svg)
    n = check_layers(load(run_json), root, svg)
    print(f"{n} layers, {len(rects(root, 'bar-deferred'))} deferred types")


def bars(svg, cls, n):
    got = len(rects(svg_root(svg), cls))
    if got != int(n):
        fail(f"{svg}: {got} rects of class {cls}, expected {n}")


def steps_svg(run_json, svg):
    steps = load(run_json)["steps"]
    if not steps:
        fail("the run has no steps")
    bars(svg, "bar-step", len(steps))


def nb_svg(nb_json, svg):
    doc, root = load(nb_json), svg_root(svg)
    paths = [p["path"] for p in doc["paths"]]
    bars(svg, "bar-throughput", len(paths))
    words = texts(root)
    for p in paths:
        if p not in words:
            fail(f"{svg}: no label for path {p}")
    if "gigabits per second (Gbit/s)" not in words:
        fail(f"{svg}: no throughput axis title with its unit")


def cmp_svg(cmp_json, svg):
    doc = load(cmp_json)
    figures = {f["figure"] for f in doc["figures"]}
    with_ratio = [f for f in doc["figures"] if f.get("ratio") is not None]
    bars(svg, "bar-file", len(figures) + len(with_ratio))


def churn_svg(churn_json, svg):
    doc, root = load(churn_json), svg_root(svg)
    rows = doc["rows"]
    lines = [p for p in root.iter(SVG + "polyline") if p.get("class") == "plot-line"]
    if len(lines) != len(rows):
        fail(f"{svg}: {len(lines)} backlog lines, {len(rows)} creator counts")
    for row, line in zip(rows, lines):
        pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        if len(pts) != len(row["series"]):
            fail(f"{svg}: {len(pts)} points, the series has {len(row['series'])}")
        xs = [x for x, _ in pts]
        if xs != sorted(xs):
            fail(f"{svg}: the backlog line goes back in time")
        # SVG's y grows downwards: the highest backlog is the smallest y.
        top = min(range(len(pts)), key=lambda i: pts[i][1])
        peak = max(p["backlog"] for p in row["series"])
        if row["series"][top]["backlog"] != peak:
            fail(f"{svg}: the line's highest point is not the series' largest backlog {peak}")
    for cls in ("bar-p50", "bar-p99", "bar-rate", "bar-bare"):
        bars(svg, cls, len(rows))
    words = texts(root)
    for title in ("backlog (sandboxes)", "seconds since the first clone3() (s)", "microseconds (µs)",
                  "sandboxes per second"):
        if title not in words:
            fail(f"{svg}: no axis title {title!r}")
    print(f"{len(rows)} lines, {sum(len(r['series']) for r in rows)} points")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.pre, self.fetches, self.in_style, self.style = [], "", [], False, ""

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href", "srcset", "xlink:href", "poster", "data"):
                self.fetches.append(f"<{tag} {k}={v}>")
        if tag in ("script", "link", "iframe", "img", "object", "embed"):
            self.fetches.append(f"<{tag}>")
        self.stack.append(tag)
        self.in_style = tag == "style"

    def handle_endtag(self, tag):
        self.in_style = False
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if "pre" in self.stack:
            self.pre += data
        if self.in_style:
            self.style += data


def page_html(path, run_json):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    p.close()
    if p.fetches:
        fail(f"{path} would fetch: {p.fetches}")
    if "@import" in p.style or "url(" in p.style:
        fail(f"{path}: the style fetches something")
    start, end = text.find("<svg"), text.find("</svg>")
    if start < 0 or end < 0:
        fail(f"{path}: no inline SVG")
    check_layers(load(run_json), ET.fromstring(text[start:end + 6]), path + " (inline SVG)")
    if "LAYER" not in p.pre or "+setup" not in p.pre:
        fail(f"{path}: the table is not in a <pre>")


def png_rows(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, ctype, _, _, interlace = hdr
    bpp = {2: 3, 6: 4}.get(ctype)
    if depth != 8 or not bpp or interlace:
        fail(f"{path}: PNG colour type {ctype}, depth {depth}, interlace {interlace}: not read here")
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        ftype, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                cur[i] = (cur[i] + a) & 255
            elif ftype == 2:
                cur[i] = (cur[i] + b) & 255
            elif ftype == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(cur)
        prev = cur
    return width, height, bpp, rows


def png(path):
    width, height, bpp, rows = png_rows(path)
    # The chart area: below the page's heading, left of its margin, where the bars are.
    inked = 0
    for y in range(height // 8, height // 2):
        row = rows[y]
        for x in range(width // 5, width * 4 // 5):
            r, g, b = row[x * bpp:x * bpp + 3]
            if r < 200 or g < 200 or b < 200:
                inked += 1
    if inked < 500:
        fail(f"{path}: the chart area is blank ({inked} non-background pixels)")
    print(inked)


def markdown(path, heading, n):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("| " + heading + " ")), None)
    if start is None:
        fail(f"{path}: no table starting with heading {heading}")

    def cells(line):
        if not (line.startswith("|") and line.endswith("|")):
            fail(f"{path}: not a table row: {line!r}")
        return [c.strip() for c in line[1:-1].replace("\\|", "\0").split("|")]

    width = len(cells(lines[start]))
    delim = cells(lines[start + 1])
    if len(delim) != width or not all(set(c) <= set("-:") and "---" in c for c in delim):
        fail(f"{path}: bad delimiter row {lines[start + 1]!r}")
    body = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        if len(cells(line)) != width:
            fail(f"{path}: row {line!r} has {len(cells(line))} cells, the heading {width}")
        body.append(cells(line))
    if len(body) != int(n):
        fail(f"{path}: {len(body)} rows, expected {n}")
    print(" ".join(row[0] for row in body))


def grid_svg(grid_json, svg):
    """A grid's charts: one per unit; each chart's labels are its unit's rows and its axis names it."""
    doc, root = load(grid_json), svg_root(svg)
    axis = {"ns": "nanoseconds (ns)", "us": "microseconds (µs)"}
    want = {}
    for r in doc["rows"]:
        want.setdefault(r.get("unit", doc["config"]["unit"]), set()).add(f"{r['op']} {r['place']}")
    charts = [g for g in root.iter(SVG + "g") if g.get("class") == "chart"]
    if len(charts) != len(want):
        fail(f"{svg}: {len(charts)} charts for {len(want)} units")
    for g in charts:
        words = [t.text for t in g.iter(SVG + "text") if t.text]
        units = [u for u in want if axis[u] in words]
        if len(units) != 1:
            fail(f"{svg}: a chart whose axis names {units}, not one unit")
        labels = {w for w in words if w in set().union(*want.values())}
        if labels != want[units[0]]:
            fail(f"{svg}: the {units[0]} chart shows {sorted(labels)}, its rows are {sorted(want[units[0]])}")
        bars = [e for e in g.iter(SVG + "rect") if e.get("class") == "bar-bench"]
        measured = [r for r in doc["rows"] if r.get("unit", doc["config"]["unit"]) == units[0] and r["median"] is not None]
        if len(bars) != len(measured):
            fail(f"{svg}: {len(bars)} bars in the {units[0]} chart, {len(measured)} figures measured")


COMMANDS = {"grid-svg": grid_svg, "layers-svg": layers_svg, "bars": bars, "steps-svg": steps_svg, "nb-svg": nb_svg, "cmp-svg": cmp_svg,
            "churn-svg": churn_svg,
            "html": page_html, "png": png, "markdown": markdown}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        fail("usage: render_check.py " + "|".join(COMMANDS) + " ARG...")
    COMMANDS[sys.argv[1]](*sys.argv[2:])
