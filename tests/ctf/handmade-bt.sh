#!/bin/bash
# handmade-bt.sh - the CTF 1.8 traces of make-handmade.py (big- and little-endian bit fields of
# every width at every bit offset behind LTTng-modules' compact event header; clocks at
# 2.8 GHz, 1.6 GHz, 1 MHz, 33.333 MHz and an odd frequency, with large offsets) printed with
# --style=babeltrace must equal babeltrace2's text recorded by record-handmade.sh.
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/../data/ctf/handmade
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/make-handmade.py" "$work/t" || exit 1
export TZ=UTC
fail=0 pass=0
for e in "$exp"/*.babeltrace2.txt; do
    n=${e##*/}
    n=${n%.babeltrace2.txt}
    if timeout 60 "$TG" cat --style=babeltrace "$work/t/$n" > "$work/got" 2> "$work/err" &&
        cmp -s "$work/got" "$e"; then
        echo "ok   $n"; pass=$((pass + 1))
    else
        echo "FAIL $n"; diff "$e" "$work/got" | head -4 | cut -c1-300; head -3 "$work/err"
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $pass -gt 0 ] && [ $fail -eq 0 ]
