#!/bin/bash
# clang-format.sh [FILE-LIST] - the C sources follow the checked-in .clang-format:
# clang-format 14 would change nothing in them.  FILE-LIST (written by the build: the files
# it compiles and their headers) names them, relative to the source tree; without it, every
# C file of the library, the CLI, the bench and the unit, fuzz and layer tests (not the
# programs under tests/ that record fixtures, whose line numbers are in them).  The files go
# to clang-format in a few runs, two at a time, not one process per file.
# A drift fails with the files and the number of places (tools/format-drift.sh prints them;
# `clang-format-14 -i FILE` fixes one).  SKIPs without clang-format 14, whose output the
# style is tuned to (other versions format differently).
TG_NO_CLI=1
. "$(dirname "$0")/../lib.sh"
cf=${CLANG_FORMAT:-clang-format-14}
command -v "$cf" >/dev/null || { echo "SKIP: $cf is not installed"; exit 77; }
cd "$TG_TESTS/.." || exit 1
if [ $# -ge 1 ] && [ -f "$1" ]; then
    mapfile -t files < "$1"
else
    mapfile -t files < <(find src include bench tests/unit tests/fuzz tests/layers -name '*.[ch]' | sort)
fi
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no C sources found under $(pwd)"; exit 1; }
printf '%s\0' "${files[@]}" | xargs -0 -P 2 -n 40 "$cf" --dry-run > "$TG_TMP/warnings" 2>&1
bad=0
while read -r n f; do
    echo "FAIL: $f: $n places differ from .clang-format"
    bad=$((bad + 1))
done < <(grep ': warning:' "$TG_TMP/warnings" | cut -d: -f1 | sort | uniq -c)
echo "${#files[@]} files checked, $bad not formatted"
[ "$bad" -eq 0 ]
