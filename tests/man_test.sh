#!/bin/bash
# The manual page keeps up with the program: every command that
# 'gelu-acc --help' lists has a SYNOPSIS line and a COMMANDS entry, and every
# long option that 'gelu-acc COMMAND --help' prints is described in an
# option list (a .TP item) of doc/gelu-acc.1.  With groff installed, the page
# also renders without warnings.
top=${top_srcdir:-.}
page=$top/doc/gelu-acc.1

. "$top/tests/tap.sh"

# The page's source as plain text: \- is a hyphen, font escapes go.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$page" >"$tmp/page" 2>/dev/null
# The first line of each .TP item: the term an option list describes.
awk 'item { print; item = 0 } /^\.TP/ { item = 1 }' "$tmp/page" >"$tmp/terms"

# has_synopsis CMD: a SYNOPSIS line starts 'gelu-acc CMD'.
has_synopsis() {
    grep -qE "^\.B gelu-acc $1( |$)" "$tmp/page"
}

# has_entry CMD: the COMMANDS section has an item for CMD.
has_entry() {
    awk '/^\.SH COMMANDS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$tmp/page" \
        | grep -qxF ".B $1"
}

# describes OPTION: some option-list term names OPTION as a whole word.
describes() {
    grep -qE -- "(^|[^a-z0-9-])$1([^a-z0-9-]|$)" "$tmp/terms"
}

check "doc/gelu-acc.1 exists" test -s "$page"

"$GELU_ACC" --help >"$tmp/help" 2>&1
commands=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }' \
    "$tmp/help")
check "'gelu-acc --help' lists commands" test -n "$commands"

for cmd in $commands; do
    check "the page has a SYNOPSIS line for '$cmd'" has_synopsis "$cmd"
    check "the page has a COMMANDS entry for '$cmd'" has_entry "$cmd"
    "$GELU_ACC" "$cmd" --help >"$tmp/cmd_help" 2>&1
    for option in $(grep -oE -- '--[a-z0-9][a-z0-9-]*' "$tmp/cmd_help" | sort -u); do
        check "the page describes '$cmd $option'" describes "$option"
    done
done
for option in $(grep -oE -- '--[a-z0-9][a-z0-9-]*' "$tmp/help" | sort -u); do
    check "the page describes '$option'" describes "$option"
done

if command -v groff >/dev/null 2>&1; then
    check "groff renders the page without warnings" \
        bash -c 'out=$(groff -man -Tutf8 -ww "$1" 2>&1 >/dev/null); [ -z "$out" ] || { echo "$out"; exit 1; }' \
        _ "$page"
else
    tap_count=$((tap_count + 1))
    echo "ok $tap_count # SKIP groff not installed"
fi

finish
