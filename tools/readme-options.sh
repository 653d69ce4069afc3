#!/bin/sh
# readme-options.sh [TRACEGLOT] - rewrite the option tables of README.md from the options the
# library declares: each block between `<!-- options: COMMAND -->` and `<!-- /options -->`
# becomes `traceglot options COMMAND`.  tests/cli/readme-options.sh fails while they differ.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tg=${1:-$root/build/traceglot}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
awk -v tg="$tg" '
    /^<!-- options: [a-z]+ -->$/ { print; run = tg " options " $3
                                   while ((run | getline l) > 0) print l
                                   close(run); skip = 1; next }
    /^<!-- \/options -->$/ { skip = 0 }
    !skip { print }' "$root/README.md" > "$tmp"
cat "$tmp" > "$root/README.md"
