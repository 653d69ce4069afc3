#!/bin/bash
# fixtures.sh - the hand-made LTTng 0.x traces of make-fixtures.py: LTTV's text and the
# stats totals must be what the script computed from the bytes it wrote (8 cpus and a sparse
# channel, TSC wrap across 2^32, every header form and field type; big endian, 64-bit,
# aligned, lost events; flight recorder in ring order, format 2.3).  The committed fixtures
# must also be exactly what the script writes.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
D=${TG_TEST_DATA:?}/lttng0
[ -d "$D/smp8" ] || { echo "SKIP: fixtures missing in $D"; exit 77; }
tmp=$TG_TMP
fail=0
if command -v python3 >/dev/null; then
    python3 "$(dirname "$0")/make-fixtures.py" "$tmp/gen"
    if ! diff -r "$tmp/gen" "$D" >/dev/null; then
        echo "FAIL: the committed fixtures differ from what make-fixtures.py writes"; fail=1
    fi
fi
for n in smp8 lost-be flight; do
    "$TG" cat --style=lttv --path-prefix fixture "$D/$n" >"$tmp/$n.txt"
    rc=$?
    if [ $rc != 0 ] || ! cmp -s "$tmp/$n.txt" "$D/$n.lttv.txt"; then
        echo "FAIL $n: lttv text (exit $rc)"; diff "$tmp/$n.txt" "$D/$n.lttv.txt" | head -6; fail=1
    else
        echo "ok   $n: $(grep -c ' (fixture/' "$D/$n.lttv.txt") events as written"
    fi
    total=$("$TG" stats "$D/$n" | tail -1)
    if [ "$total" != "$(cat "$D/$n.total.txt")" ]; then
        echo "FAIL $n: stats '$total', expected '$(cat "$D/$n.total.txt")'"; fail=1
    else
        echo "ok   $n: $total"
    fi
done
# native cat, info, filters and the chrome conversion run too
for n in smp8 lost-be flight; do
    "$TG" info "$D/$n" >/dev/null && "$TG" cat --events 'fs:*,kernel:*' --cpu 3 "$D/$n" >/dev/null &&
        "$TG" convert --to chrome -o "$tmp/$n.json" "$D/$n" ||
        { echo "FAIL $n: info/cat/convert"; fail=1; }
done
exit $fail
