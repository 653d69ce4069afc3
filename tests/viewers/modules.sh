#!/bin/bash
# modules.sh - the SVG flame graph and the speedscope file name each function's module as
# uftrace recorded it, and the SVG colours each module its own hue family.  On the uftrace
# fixtures (library calls, kernel records) and the corpus's uftrace recordings, modules.py
# compares each frame's module with `uftrace replay -f module` (uftrace's own output) and
# the recording's sid-*.map paths, and checks the hues.  At least one recording must show
# two modules (the kernel fixture: the program and the kernel).  Skips without uftrace.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
corpus=${TG_CORPUS:-}
here=$(cd "$(dirname "$0")" && pwd)
data=${TG_TEST_DATA:-$here/../data}
command -v uftrace >/dev/null || { echo "SKIP: uftrace is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
tmp=$TG_TMP
fail=0 passed=0 several=0

for d in "$data"/uftrace/*.data "$data"/uftrace-kernel/*.data \
    "$corpus"/uftrace/*.data "$corpus"/gen/uftrace/*.data "$corpus"/mixed/*.uftrace.data; do
    [ -f "$d/info" ] || continue
    label=${d#"$(dirname "$(dirname "$d")")"/}
    if ! uftrace replay -f module -d "$d" >"$tmp/replay" 2>/dev/null; then
        echo "     $label: uftrace replay failed, not compared"; continue
    fi
    if ! "$TG" convert --to svg --force -o "$tmp/out.svg" "$d" ||
        ! "$TG" convert --to speedscope --force -o "$tmp/out.json" "$d"; then
        echo "FAIL $label: convert failed"; fail=$((fail + 1)); continue
    fi
    if python3 "$here/modules.py" "$tmp/replay" "$tmp/out.svg" "$tmp/out.json" "$d"/sid-*.map >"$tmp/check"; then
        echo "ok   $label: $(cat "$tmp/check")"; passed=$((passed + 1))
        grep -q ', [2-9][0-9]* modules\|, [1-9][0-9]\+ modules' "$tmp/check" && several=$((several + 1))
    else
        echo "FAIL $label:"; sed 's/^/     /' "$tmp/check"; fail=$((fail + 1))
    fi
done
[ $several -gt 0 ] || { echo "FAIL: no recording showed two modules"; fail=$((fail + 1)); }
echo "modules: $passed passed, $fail failed"
[ $passed -gt 0 ] && [ $fail -eq 0 ]
