#!/bin/bash
# live-corpus-seconds.sh - the corpus keeps babeltrace2's default output only for the
# ctf/babeltrace/succeed traces; this runs the installed babeltrace2 with --clock-seconds on
# each of them and compares `traceglot cat --style=babeltrace --clock-seconds` byte for byte.
# A trace babeltrace2 itself cannot print (it exits non-zero) is listed and left out.
# SKIP when the corpus or babeltrace2 is absent.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
succ=$root/ctf/babeltrace/succeed
[ -d "$succ" ] || { echo "SKIP: corpus ctf/babeltrace not found ($succ)"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
export TZ=UTC
out=$TG_TMP
fail=0 pass=0
for exp in "$succ"/*.babeltrace2.txt "$succ"/*/*.babeltrace2.txt; do
    t=${exp%.babeltrace2.txt}
    [ -d "$t" ] || continue
    name=${t#$succ/}
    if ! timeout 60 babeltrace2 --clock-seconds "$t" > "$out/exp" 2>/dev/null; then
        echo "note $name: babeltrace2 --clock-seconds fails on it; not compared"
        continue
    fi
    timeout 60 "$TG" cat --style=babeltrace --clock-seconds "$t" > "$out/got" 2> "$out/err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$out/got" "$out/exp"; then
        echo "ok   $name --clock-seconds"; pass=$((pass + 1))
    else
        echo "FAIL $name --clock-seconds (exit $rc)"; diff "$out/exp" "$out/got" | head -4 | cut -c1-300
        head -3 "$out/err"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
