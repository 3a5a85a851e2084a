#!/usr/bin/env python3
"""The shape of the source tree, checked (doc/layout.md, "Rules").

    tools/check_tree.py [SRCDIR]

SRCDIR is the top of the sources (default: the folder above this script).
Checks, printing one line per violation and exiting 1 if there is any:

- layers: every '#include "DIR/FILE"' of a file under src/ names a folder of
  the same or a lower layer than the file's own; the layers are the rows of
  the table in doc/layout.md, lowest first, so the document and the tree
  cannot drift apart (a folder missing from the table is a violation too);
- circles: no two files depend on each other, directly or through others.
  An edge runs from a file to each header it includes and to each file that
  defines a function it calls (found from the sources: the functions defined
  at file scope, static inline ones of headers included, and the
  identifiers of every other file, comments and strings removed).  A header
  that declares a function does not depend on the file that defines it, and
  x.h and x.c are one piece;
- sizes: no file over MAX_FILE_LINES lines, no function over
  MAX_FUNCTION_LINES lines (from its first line to its closing brace), data
  tables and generated files aside (GENERATED below).

Standard library only: make check runs it with whichever python3 it found.
"""
import os
import re
import sys

MAX_FILE_LINES = 700
MAX_FUNCTION_LINES = 100
# Generated tables (never edited by hand; tools/gen_lut_small.c writes them).
GENERATED = {"impls/gelu_lut_small_data.c"}
SOURCE_SUFFIXES = (".c", ".h", ".cc")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A row of the layout table: | N | `src/DIR/` | ...
LAYER_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`src/([a-z_]+)/`")
TAG = re.compile(r"\b(?:struct|union|enum)\s+[A-Za-z_][A-Za-z0-9_]*")
IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
# A function definition at file scope: at column 0, a return type, the name
# and '(' on the same line, not a declaration (checked below); static only
# in a header (an inline function its includers call).
FUNCTION_HEAD = re.compile(r"(?m)^(?!typedef\b)(?!extern\b)(static\s+)?[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(")


def strip_comments_and_strings(text):
    """The text with comments, string and character literals blanked
    (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_layers(top):
    """Folder -> layer number, from the table of doc/layout.md."""
    layers = {}
    with open(os.path.join(top, "doc", "layout.md"), encoding="utf-8") as f:
        for line in f:
            m = LAYER_ROW.match(line)
            if m:
                layers[m.group(2)] = int(m.group(1))
    return layers


def source_files(src):
    """Paths relative to src/ of every source file, sorted."""
    found = []
    for root, _, files in os.walk(src):
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                found.append(os.path.relpath(os.path.join(root, name), src))
    return sorted(found)


def check_layers(files, texts, layers, problems):
    folders = sorted({f.split(os.sep)[0] for f in files})
    for folder in folders:
        if folder not in layers:
            problems.append(f"src/{folder}/: not in the layer table of doc/layout.md")
    for f in files:
        own = layers.get(f.split(os.sep)[0])
        for target in INCLUDE.findall(texts[f]):
            folder = target.split("/")[0]
            if "/" not in target or folder not in layers or own is None:
                continue
            if layers[folder] > own:
                problems.append(f"src/{f}: includes {target}, of layer {layers[folder]} "
                                f"above its own {own} (doc/layout.md)")


def function_spans(code):
    """(name, first line, last line) of each function body in code whose
    braces open and close at column 0, its head being the lines above."""
    lines = code.split("\n")
    spans = []
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            head = i - 1
            while head > 0 and lines[head - 1].strip() and not lines[head - 1].rstrip().endswith((";", "}", "*/")) \
                    and not lines[head - 1].startswith("#"):
                head -= 1
            end = i + 1
            while end < len(lines) and lines[end] != "}":
                end += 1
            m = re.search(r"([A-Za-z_]\w*)\s*\(", " ".join(lines[head:i]))
            spans.append((m.group(1) if m else "?", head + 1, end + 1))
            i = end
        i += 1
    return spans


def check_sizes(files, texts, codes, problems):
    for f in files:
        if f in GENERATED:
            continue
        n = texts[f].count("\n")
        if n > MAX_FILE_LINES:
            problems.append(f"src/{f}: {n} lines, above {MAX_FILE_LINES}")
        for name, first, last in function_spans(codes[f]):
            if last - first + 1 > MAX_FUNCTION_LINES:
                problems.append(f"src/{f}:{first}: {name}() is {last - first + 1} lines, "
                                f"above {MAX_FUNCTION_LINES}")


def function_bodies(f, code):
    """(name, body) of each function f defines at file scope: a head at
    column 0 whose parameter list is followed by '{' (not ';'); in a header
    only the static inline ones, in a source file only the others."""
    header = f.endswith(".h")
    found = []
    for m in FUNCTION_HEAD.finditer(code):
        if bool(m.group(1)) != header:
            continue
        i = m.end() - 1
        depth = 0
        while i < len(code):
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
            if depth == 0:
                break
        while i < len(code) and code[i].isspace():
            i += 1
        if i >= len(code) or code[i] != "{":
            continue
        start = i
        depth = 0
        while i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
            if depth == 0:
                break
        found.append((m.group(2), code[start:i]))
    return found


def dependency_graph(files, texts, codes):
    """file -> set of files it includes or calls into.  A header calls what
    the bodies of its inline functions call; a declaration is no call."""
    defined, used, twice = {}, {}, set()
    for f in files:
        bodies = function_bodies(f, codes[f])
        for name, _ in bodies:
            if name in defined and defined[name] != f:
                twice.add(name)  # each real-library module defines its own
            defined.setdefault(name, f)
        scope = " ".join(body for _, body in bodies) if f.endswith(".h") else codes[f]
        # a tag (struct ga_truth) is a type, not a call of the function of that name
        used[f] = set(IDENT.findall(TAG.sub(" ", scope)))
    graph = {f: set() for f in files}
    for f in files:
        for target in INCLUDE.findall(texts[f]):
            if target in graph and target != f:
                graph[f].add(target)
        for ident in used[f] - twice:
            owner = defined.get(ident)
            if owner is not None and owner != f:
                graph[f].add(owner)
    # a header and the file of the same name that implements it are one piece
    for f in files:
        graph[f] = {t for t in graph[f] if os.path.splitext(t)[0] != os.path.splitext(f)[0]}
    return graph


def circles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(max(10000, 4 * len(graph)))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main(argv):
    top = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = os.path.join(top, "src")
    files = source_files(src)
    texts = {}
    for f in files:
        with open(os.path.join(src, f), encoding="utf-8", errors="replace") as fh:
            texts[f] = fh.read()
    codes = {f: strip_comments_and_strings(texts[f]) for f in files}
    problems = []
    check_layers(files, texts, read_layers(top), problems)
    check_sizes(files, texts, codes, problems)
    for component in circles(dependency_graph(files, texts, codes)):
        problems.append("circle between files: " + " <-> ".join(component))
    for p in problems:
        print(p)
    print(f"check_tree: {len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
