#!/bin/bash
# synthetic.sh - hand-built logs of every XRay layout version (gen_synthetic.py: FDR 1-5,
# basic 1-3) compared with llvm-xray 14 on the same bytes: YAML and accounting.  SKIP when
# llvm-xray or python3 is missing.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
command -v llvm-xray >/dev/null || { echo "SKIP: llvm-xray not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
out=$TG_TMP
python3 "$here/gen_synthetic.py" "$out" || exit 1
fail=0
for log in "$out"/*.xray; do
    b=$(basename "$log")
    llvm-xray convert -output-format=yaml -symbolize "$log" > "$out/exp" 2>/dev/null
    "$TG" cat --style=xray-yaml "$log" > "$out/got" 2>"$out/err"
    if cmp -s "$out/exp" "$out/got"; then echo "ok   yaml $b"; else
        echo "FAIL yaml $b"; diff "$out/exp" "$out/got" | head -6; head -2 "$out/err"; fail=1; fi
    for key in funcid count sum; do
        llvm-xray account -keep-going -sort=$key "$log" > "$out/exp" 2>/dev/null
        "$TG" report --style=xray --sort=$key "$log" > "$out/got" 2>"$out/err"
        cmp -s "$out/exp" "$out/got" || {
            echo "FAIL account $key $b"; diff "$out/exp" "$out/got" | head -6; fail=1; }
    done
done
exit $fail
