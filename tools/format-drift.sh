#!/bin/sh
# format-drift.sh [FILES...] - how far the sources are from .clang-format: the number of
# places `clang-format --dry-run` would change, per file and in total (default: every C file
# under src/, include/ and tests/).  Used to tune .clang-format to the code as written, and
# to check that a change does not add drift.  CLANG_FORMAT overrides the binary.
cf=${CLANG_FORMAT:-clang-format}
cd "$(dirname "$0")/.." || exit 1
[ $# -gt 0 ] || set -- $(git ls-files 'src/*.[ch]' 'include/*.h' 'tests/*.[ch]')
total=0
for f in "$@"; do
    n=$("$cf" --dry-run "$f" 2>&1 | grep -c 'warning:')
    [ "$n" -gt 0 ] && printf '%6d %s\n' "$n" "$f"
    total=$((total + n))
done
echo "total: $total"
