#!/bin/bash
# handmade-bt.sh - the CTF 1.8 traces of make-handmade.py (big- and little-endian bit fields of
# every width at every bit offset behind LTTng-modules' compact event header; clocks at
# 2.8 GHz, 1.6 GHz, 1 MHz, 33.333 MHz and an odd frequency, with large offsets; metadata
# babeltrace2 accepts with warnings; a named event header with its align(32)), of
# make-threads.py (per-cpu kernel streams with a tid context), of make-byte-order.py (a
# big-endian trace with a little-endian stream class and fields of every byte order) and of
# make-strings.py (kernel
# events whose strings, text arrays and text sequences decode empty: babeltrace2 shows an
# earlier event's text) printed with --style=babeltrace must equal babeltrace2's text recorded
# by record-handmade.sh, and the metadata warnings babeltrace2's (NAME.babeltrace2-warnings.txt,
# same words, same order); the native style prints the empty texts as the bytes say.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/../data/ctf/handmade
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$TG_TMP
python3 "$here/make-handmade.py" "$work/t" || exit 1
python3 "$here/make-strings.py" "$work/t" || exit 1
python3 "$here/make-threads.py" "$work/t" || exit 1
python3 "$here/make-byte-order.py" "$work/t" || exit 1
export TZ=UTC
fail=0 pass=0
for e in "$exp"/*.babeltrace2.txt; do
    n=${e##*/}
    n=${n%.babeltrace2.txt}
    if timeout 60 "$TG" cat --style=babeltrace "$work/t/$n" > "$work/got" 2> "$work/err" &&
        cmp -s "$work/got" "$e"; then
        echo "ok   $n"; pass=$((pass + 1))
        if [ -f "$exp/$n.babeltrace2-warnings.txt" ]; then
            # babeltrace2 warns about each unknown attribute and goes on: so must traceglot,
            # in the same words and order
            sed -n 's|^traceglot: warning: .*/metadata: \(At line .*\)$|\1|p' "$work/err" >"$work/warn"
            if cmp -s "$work/warn" "$exp/$n.babeltrace2-warnings.txt"; then
                echo "ok   $n: $(wc -l <"$work/warn") warnings as babeltrace2's"; pass=$((pass + 1))
            else
                echo "FAIL $n: warnings differ from babeltrace2's"
                diff "$exp/$n.babeltrace2-warnings.txt" "$work/warn"; fail=$((fail + 1))
            fi
        fi
        if [ -f "$work/t/$n.empty" ]; then
            # the native style keeps what the bytes say: every empty text prints ""
            want=$(cat "$work/t/$n.empty")
            got=$("$TG" cat "$work/t/$n" | grep -o '=""' | wc -l)
            if [ "$got" = "$want" ]; then
                echo "ok   $n: native prints its $want empty texts empty"; pass=$((pass + 1))
            else
                echo "FAIL $n: native prints $got empty texts ($want in the bytes)"; fail=$((fail + 1))
            fi
        fi
    else
        echo "FAIL $n"; diff "$e" "$work/got" | head -4 | cut -c1-300; head -3 "$work/err"
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $pass -gt 0 ] && [ $fail -eq 0 ]
