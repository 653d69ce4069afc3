#!/bin/bash
# golden-fixtures.sh - `traceglot cat --style=babeltrace` (and --clock-seconds) against
# babeltrace2's outputs of the project's own LTTng-UST fixtures (tests/data/ctf, recorded
# by record-fixtures.sh with TZ=UTC): every field type, and a cyg-profile function trace.
# With EXPECTED (one T.babeltrace2.txt: the build registers one test per fixture), only it.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=${TG_TEST_DATA:-$here/../data}/ctf
ls "$data"/*.babeltrace2.txt >/dev/null 2>&1 || { echo "SKIP: no fixtures in $data"; exit 77; }
export TZ=UTC
out=$TG_TMP
fail=0
for exp in "$data"/*.babeltrace2.txt; do
    [ -z "${1:-}" ] || [ "$exp" = "$1" ] || continue
    t=${exp%.babeltrace2.txt}
    n=${t##*/}
    for mode in "" --clock-seconds; do
        e=$exp
        [ -n "$mode" ] && e=$t.babeltrace2-seconds.txt
        if "$TG" cat --style=babeltrace $mode "$t" > "$out/got" 2> "$out/err" && cmp -s "$out/got" "$e"; then
            echo "ok   $n $mode"
        else
            echo "FAIL $n $mode"; diff "$e" "$out/got" | head -4 | cut -c1-300; head -3 "$out/err"; fail=1
        fi
    done
done
[ $fail -eq 0 ]
