#!/bin/sh
# Renders HTML pages in headless Chromium and fails when one looks broken.
#
# Usage: scripts/check-render.sh PAGE.html|DIR...   (a DIR: every *.html in it)
#
# A page fails (exit 1, a line naming it) when
#   - a file referenced by <img src>, <object data> or <embed src> is missing
#     (paths relative to the page; http:, https: and data: URLs are skipped),
#   - an inline <svg> or a referenced .svg file is not well-formed XML
#     (this suite's plots are; a browser would draw a broken one partially),
#   - Chromium cannot render it, or
#   - the rendering is blank: fewer than CHECK_RENDER_MIN_INK (default
#     0.001) of its pixels differ from the most common colour.
# Exit 77 (automake's SKIP) when chromium or Python 3 is not installed.
# Needs the Debian packages chromium and python3 (standard library only: the
# PNG is decoded with zlib here, no PIL); PYTHON names the interpreter
# (default python3).  Screenshots are kept in
# CHECK_RENDER_KEEP when that names a directory.
set -u

usage() {
    echo "usage: $0 PAGE.html|DIR..." >&2
    exit 2
}
[ $# -ge 1 ] || usage

if ! command -v chromium >/dev/null 2>&1; then
    echo "chromium not installed: render check skipped"
    exit 77
fi
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
    echo "$python not installed: render check skipped"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/check-render.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

cat >"$work/check.py" <<'PYTHON'
"""Static checks of a page, and the blank test of its screenshot."""
import html.parser
import os
import struct
import sys
import urllib.parse
import xml.etree.ElementTree as ET
import zlib

REFERENCES = {"img": "src", "object": "data", "embed": "src"}


class Page(html.parser.HTMLParser):
    """Collects referenced files and the text of each top-level inline <svg>."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0]
        for i, c in enumerate(text):
            if c == "\n":
                self.line_starts.append(i + 1)
        self.refs = []
        self.svgs = []
        self.depth = 0
        self.svg_start = 0

    def position(self):
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if tag in REFERENCES:
            for name, value in attrs:
                if name == REFERENCES[tag] and value:
                    self.refs.append(value)
        if tag == "svg":
            if self.depth == 0:
                self.svg_start = self.position()
            self.depth += 1

    def handle_startendtag(self, tag, attrs):
        if tag in REFERENCES:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "svg" and self.depth > 0:
            self.depth -= 1
            if self.depth == 0:
                end = self.text.index(">", self.position()) + 1
                self.svgs.append(self.text[self.svg_start:end])


def local_path(page, ref):
    """The file a reference names, or None for URLs that are not files."""
    url = urllib.parse.urlsplit(ref)
    if url.scheme in ("http", "https", "data", "blob", "about", "javascript"):
        return None
    if url.scheme == "file":
        return urllib.parse.unquote(url.path)
    if url.scheme or ref.startswith("//"):
        return None
    path = urllib.parse.unquote(url.path)
    if not path:
        return None
    return path if path.startswith("/") else os.path.join(os.path.dirname(page), path)


def check_page(page):
    problems = []
    with open(page, encoding="utf-8", errors="replace") as f:
        text = f.read()
    parser = Page(text)
    parser.feed(text)
    parser.close()
    for ref in parser.refs:
        path = local_path(page, ref)
        if path is None:
            continue
        if not os.path.isfile(path):
            problems.append(f"missing file {ref}")
        elif path.lower().endswith(".svg"):
            try:
                ET.parse(path)
            except ET.ParseError as e:
                problems.append(f"{ref} is not well-formed XML: {e}")
    for i, svg in enumerate(parser.svgs, 1):
        try:
            ET.fromstring(svg)
        except ET.ParseError as e:
            problems.append(f"inline svg #{i} is not well-formed XML: {e}")
    return problems


def read_png(path):
    """Width, height, bytes per pixel and the unfiltered rows of a PNG
    (8-bit grey, grey+alpha, RGB or RGBA, not interlaced)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, "
                         f"interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    bpp, stride = channels, width * channels
    rows, prior = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], raw[start + 1:start + 1 + stride]
        rows.append(unfilter(kind, line, prior, bpp))
        prior = rows[-1]
    return width, height, bpp, rows


def add_bytes(a, b):
    """Bytewise (a + b) mod 256 of two equal-length byte strings, in one
    big-integer addition with the carries between bytes masked off."""
    n = len(a)
    low = int.from_bytes(b"\x7f" * n, "big")
    high = int.from_bytes(b"\x80" * n, "big")
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(n, "big")


def unfilter(kind, line, prior, bpp):
    """PNG filter types 0-4 (PNG specification, section 9)."""
    if kind == 0:
        return bytes(line)
    if kind == 2:
        return add_bytes(line, prior)
    out = bytearray(line)
    n = len(out)
    if kind == 1:
        for i in range(bpp, n):
            out[i] = (out[i] + out[i - bpp]) & 0xFF
    elif kind == 3:
        for i in range(n):
            left = out[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + ((left + prior[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(n):
            a = out[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out[i] = (out[i] + pred) & 0xFF
    else:
        raise ValueError(f"bad PNG filter type {kind}")
    return bytes(out)


def ink_fraction(path):
    """Fraction of pixels that differ from the most common colour."""
    width, height, bpp, rows = read_png(path)
    sample = {}
    for y in range(0, height, max(1, height // 64)):
        row = rows[y]
        for x in range(0, width, max(1, width // 64)):
            px = row[x * bpp:(x + 1) * bpp]
            sample[px] = sample.get(px, 0) + 1
    background = max(sorted(sample), key=lambda p: sample[p])
    uniform = background * width
    same = 0
    for row in rows:
        if row == uniform:
            same += width
            continue
        match = None
        for c in range(bpp):
            table = bytes(1 if v == background[c] else 0 for v in range(256))
            mask = int.from_bytes(row[c::bpp].translate(table), "big")
            match = mask if match is None else match & mask
        same += bin(match).count("1")
    return 1 - same / (width * height)


def main():
    mode = sys.argv[1]
    if mode == "page":
        problems = check_page(sys.argv[2])
        for p in problems:
            print(p)
        return 1 if problems else 0
    if mode == "blank":
        png, minimum = sys.argv[2], float(sys.argv[3])
        try:
            ink = ink_fraction(png)
        except (ValueError, zlib.error, OSError) as e:
            print(f"cannot read the screenshot: {e}")
            return 1
        if ink < minimum:
            print(f"blank: only {ink:.5f} of the pixels differ from the background "
                  f"(minimum {minimum})")
            return 1
        return 0
    return 2


sys.exit(main())
PYTHON

# The pages, in a stable order.
: >"$work/pages"
: >"$work/checked"
for arg in "$@"; do
    if [ -d "$arg" ]; then
        found=$(find "$arg" -type f -name '*.html' | LC_ALL=C sort)
        if [ -z "$found" ]; then
            echo "FAIL $arg: no HTML pages in this directory"
            echo "$arg" >>"$work/failed"
            echo "$arg" >>"$work/checked"
        fi
        [ -n "$found" ] && printf '%s\n' "$found" >>"$work/pages"
    else
        printf '%s\n' "$arg" >>"$work/pages"
    fi
done

min_ink=${CHECK_RENDER_MIN_INK:-0.001}
count=0
while IFS= read -r page; do
    count=$((count + 1))
    echo "$page" >>"$work/checked"
    page_failed=no
    if [ ! -f "$page" ]; then
        echo "FAIL $page: no such file"
        echo "$page" >>"$work/failed"
        continue
    fi
    abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
    if ! problems=$("$python" "$work/check.py" page "$abs" 2>&1); then
        printf '%s\n' "$problems" | while IFS= read -r line; do
            echo "FAIL $page: $line"
        done
        echo "$page" >>"$work/failed"
        page_failed=yes
    fi
    png="$work/shot$count.png"
    profile="$work/profile$count"
    mkdir "$profile"
    # A fresh profile each time, no network, no background services: the
    # rendering depends only on the page.
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --user-data-dir="$profile" --screenshot="$png" \
        --window-size=1200,2000 --hide-scrollbars "file://$abs" \
        >"$work/chromium.log" 2>&1
    rc=$?
    rm -rf "$profile"
    if [ $rc -ne 0 ] || [ ! -s "$png" ]; then
        echo "FAIL $page: chromium could not render it (exit $rc)"
        tail -n 5 "$work/chromium.log" | sed 's/^/    /'
        echo "$page" >>"$work/failed"
        continue
    fi
    if [ -n "${CHECK_RENDER_KEEP:-}" ] && [ -d "${CHECK_RENDER_KEEP}" ]; then
        cp "$png" "$CHECK_RENDER_KEEP/$(basename "$page" .html).png"
    fi
    if ! verdict=$("$python" "$work/check.py" blank "$png" "$min_ink" 2>&1); then
        echo "FAIL $page: $verdict"
        echo "$page" >>"$work/failed"
    elif [ $page_failed = no ]; then
        echo "ok   $page"
    fi
done <"$work/pages"

total=$(LC_ALL=C sort -u "$work/checked" 2>/dev/null | wc -l)
if [ -s "$work/failed" ]; then
    echo "render check: $(LC_ALL=C sort -u "$work/failed" | wc -l) of $total failed"
    exit 1
fi
echo "render check: $total page(s) rendered"
exit 0
