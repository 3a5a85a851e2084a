#!/bin/bash
# The HTML reports render in a browser: the committed pages (reports/index.html
# and each FORMAT.html) and a freshly written float16 report, each checked by
# scripts/check-render.sh (referenced plots exist and are well-formed SVG; the
# page renders in headless Chromium and is not blank).
top=${top_srcdir:-.}
reports=$top/reports
render=$top/scripts/check-render.sh

# The browser is not ours to sanitize, and report_test writes the same
# pages under the sanitizers: a sanitized build leaves this to make check.
case " ${GELU_ACC_BUILD_FLAGS:-} " in
*-fsanitize=*)
    echo "1..0 # SKIP a sanitized build: the rendering is checked by the unsanitized make check"
    exit 0 ;;
esac
if ! command -v chromium >/dev/null 2>&1; then
    echo "1..0 # SKIP chromium not installed"
    exit 0
fi
if ! command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
    echo "1..0 # SKIP ${PYTHON:-python3} not installed"
    exit 0
fi
shopt -s nullglob
pages=("$reports"/*.html)
if [ ${#pages[@]} -eq 0 ]; then
    echo "1..0 # SKIP no HTML pages in reports/ yet (make report writes them)"
    exit 0
fi

. "$top/tests/tap.sh"

check "reports/index.html exists" test -f "$reports/index.html"
for md in "$reports"/*.md; do
    name=$(basename "$md" .md)
    # the audit's pages are Markdown only (gelu-acc audit --out)
    case $name in
    README) continue ;;
    audit-*)
        check "index.html links $name.md" grep -q "href=\"$name.md\"" "$reports/index.html"
        continue ;;
    # the vector oracle's proof: Markdown only (make vec-oracle-audit)
    vec-oracle-audit)
        check "reports/README.md links $name.md" grep -q "($name.md)" "$reports/README.md"
        continue ;;
    esac
    check "reports/$name.html exists beside $name.md" test -f "$reports/$name.html"
    check "index.html links $name.html" grep -q "href=\"$name.html\"" "$reports/index.html"
done
for page in "${pages[@]}"; do
    check "reports/$(basename "$page") renders" "$render" "$page"
done

check "a fresh float16 report is written" \
    "$GELU_ACC" report --out "$tmp/r" --formats float16 --float16-backward-domain pairs:random:65536:1
check "its float16.html and index.html render" \
    "$render" "$tmp/r/float16.html" "$tmp/r/index.html"
finish
