#!/bin/bash
# browser.sh - traceglot's speedscope output opened in the speedscope app and its SVG flame
# graph (also a differential one: convert --to svg --diff on the diff fixtures' two builds),
# both in Debian's Chromium (playwright-core drives it; browser.mjs has the checks).
# The screenshots are kept in $TG_BUILD_DIR/viewers-screenshots.  Skips, saying why, when
# chromium, node or the npm packages (make check runs `npm ci` in tests/) are missing.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
tests=${TG_TESTS:-$(cd "$(dirname "$0")/.." && pwd)}
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "SKIP: $chromium is not installed (apt-get install chromium)"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed (apt-get install nodejs npm)"; exit 77; }
for pkg in speedscope playwright-core; do
    [ -d "$tests/node_modules/$pkg" ] ||
        { echo "SKIP: npm package $pkg is not installed (cd tests && npm ci)"; exit 77; }
done
input=${TG_TEST_DATA:-$tests/data}/uftrace/threads.data
[ -d "$input" ] || { echo "SKIP: $input not found"; exit 77; }
shots=${TG_BUILD_DIR:-/tmp}/viewers-screenshots
mkdir -p "$shots"
tmp=$TG_TMP
"$TG" convert --to speedscope -o "$tmp/profile.speedscope.json" "$input" || exit 1
"$TG" convert --to svg -o "$tmp/flamegraph.svg" "$input" || exit 1
pair=${TG_TEST_DATA:-$tests/data}/diff
diff_svg=
if [ -d "$pair/a4.data" ]; then
    diff_svg=$tmp/flamegraph-diff.svg
    "$TG" convert --to svg --diff "$pair/b4.data" -o "$diff_svg" "$pair/a4.data" || exit 1
fi
CHROMIUM=$chromium timeout 600 node "$tests/viewers/browser.mjs" \
    "$tmp/profile.speedscope.json" "$tmp/flamegraph.svg" "$shots" $diff_svg
rc=$?
echo "screenshots: $shots"
exit $rc
