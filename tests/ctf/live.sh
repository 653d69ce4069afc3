#!/bin/bash
# live.sh - records fresh LTTng-UST traces with the real tools (record-fixtures.sh into a
# temp dir) and compares `traceglot cat --style=babeltrace` with babeltrace2 on them, both
# time styles.  SKIP (77) with the reason when lttng, its session daemon, babeltrace2 or
# liblttng-ust-dev is not usable here.
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash "$here/record-fixtures.sh" "$out/rec" > "$out/log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$out/log"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: recording failed"; cat "$out/log"; exit 1; }
cat "$out/log"
mkdir -p "$out/data" && mv "$out/rec" "$out/data/ctf"
TG_TEST_DATA=$out/data bash "$here/golden-fixtures.sh"
