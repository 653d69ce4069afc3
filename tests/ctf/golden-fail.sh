#!/bin/bash
# golden-fail.sh - the traces babeltrace2 rejects (corpus ctf/babeltrace/fail) must fail here
# too: non-zero exit, a clear error naming the metadata line or the file and offset, and on
# stdout exactly the events babeltrace2 printed before giving up (T.babeltrace2.txt).
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
dir=$root/ctf/babeltrace/fail
[ -d "$dir" ] || { echo "SKIP: corpus ctf/babeltrace/fail not found ($dir)"; exit 77; }
export TZ=UTC
out=$TG_TMP
fail=0 pass=0
for rcf in "$dir"/*.babeltrace2.rc "$dir"/*/*.babeltrace2.rc; do
    [ -f "$rcf" ] || continue
    t=${rcf%.babeltrace2.rc}
    name=${t#$dir/}
    timeout 60 "$TG" cat --style=babeltrace "$t" > "$out/got" 2> "$out/err"
    rc=$?
    if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
        echo "FAIL $name: exit $rc (expected a clean failure)"; fail=$((fail + 1)); continue
    fi
    if ! grep -q "metadata line [0-9]\|offset 0x" "$out/err"; then
        echo "FAIL $name: error names no metadata line or offset:"; head -3 "$out/err"
        fail=$((fail + 1)); continue
    fi
    if [ -f "$t.babeltrace2.txt" ] && ! cmp -s "$out/got" "$t.babeltrace2.txt"; then
        echo "FAIL $name: events printed before the error differ"; fail=$((fail + 1)); continue
    fi
    echo "ok   $name: $(head -1 "$out/err")"; pass=$((pass + 1))
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
