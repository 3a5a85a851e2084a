#!/bin/bash
# The rules of the source tree (doc/layout.md): layers, no circles between
# files, file and function sizes, checked by tools/check_tree.py.
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
check "the tree keeps the rules of doc/layout.md" "$PYTHON" "$src/tools/check_tree.py" "$src"
finish
