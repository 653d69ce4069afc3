#!/bin/bash
# live.sh - records fresh LTTng-UST traces with the real tools (record-fixtures.sh into a
# temp dir) and compares `traceglot cat --style=babeltrace` with babeltrace2 on them, both
# time styles.  SKIP (77) with the reason when lttng, its session daemon, babeltrace2 or
# liblttng-ust-dev is not usable here.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
out=$TG_TMP
bash "$here/record-fixtures.sh" "$out/rec" > "$out/log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$out/log"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: recording failed"; cat "$out/log"; exit 1; }
cat "$out/log"
mkdir -p "$out/data" && mv "$out/rec" "$out/data/ctf"
TG_TEST_DATA=$out/data bash "$here/golden-fixtures.sh"
rc=$?
# several traces on one command line: babeltrace2 muxes them all (and its recycled texts
# span them); compared afresh with babeltrace2 itself
export TZ=UTC
d=$out/data/ctf
babeltrace2 "$d/types" "$d/rotation" "$d/cyg" > "$out/bt.txt" 2>/dev/null
"$TG" cat --style=babeltrace "$d/types" "$d/rotation" "$d/cyg" > "$out/tg.txt" 2> "$out/err"
if cmp -s "$out/bt.txt" "$out/tg.txt"; then
    echo "ok   three traces at once"
else
    echo "FAIL three traces at once"; diff "$out/bt.txt" "$out/tg.txt" | head -4; rc=1
fi
exit $rc
