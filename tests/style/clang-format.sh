#!/bin/bash
# clang-format.sh - the C sources follow the checked-in .clang-format: clang-format 14 would
# change nothing in any of them (the library, the CLI, the bench and the unit, fuzz and layer
# tests; not the programs under tests/ that record fixtures, whose line numbers are in them).
# A drift fails with the files and the number of places (tools/format-drift.sh prints them;
# `clang-format-14 -i FILE` fixes one).  SKIPs without clang-format 14, whose output the
# style is tuned to (other versions format differently).
cf=${CLANG_FORMAT:-clang-format-14}
command -v "$cf" >/dev/null || { echo "SKIP: $cf is not installed"; exit 77; }
cd "$TG_TESTS/.." || exit 1
mapfile -t files < <(find src include bench tests/unit tests/fuzz tests/layers -name '*.[ch]' | sort)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no C sources found under $(pwd)"; exit 1; }
bad=0
for f in "${files[@]}"; do
    n=$("$cf" --dry-run "$f" 2>&1 | grep -c 'warning:')
    if [ "$n" -gt 0 ]; then
        echo "FAIL: $f: $n places differ from .clang-format"
        bad=$((bad + 1))
    fi
done
echo "${#files[@]} files checked, $bad not formatted"
[ "$bad" -eq 0 ]
