#!/bin/bash
# folded-vs-report.sh DIR... - for every NAME.data recording with NAME.report.txt beside it
# (written by `uftrace report` itself), the folded stacks' weights added up per function
# print as uftrace report's Self time column (folded_self.py compares them).
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$TG_TMP
fail=0 passed=0
for dir in "$@"; do
    for data in "$dir"/*.data; do
        report=${data%.data}.report.txt
        [ -f "$report" ] || continue
        name=$(basename "$data")
        if ! "$TG" convert --to folded --force -o "$tmp/folded" "$data" 2>"$tmp/err"; then
            echo "FAIL $name: $(head -c 300 "$tmp/err")"
            fail=$((fail + 1))
        elif python3 "$here/folded_self.py" "$tmp/folded" "$report" >"$tmp/out"; then
            echo "ok   $name: $(tail -1 "$tmp/out")"
            passed=$((passed + 1))
        else
            echo "FAIL $name:"
            cat "$tmp/out"
            fail=$((fail + 1))
        fi
    done
done
[ $((passed + fail)) -gt 0 ] || { echo "SKIP: no uftrace recordings with reports in $*"; exit 77; }
echo "$passed passed, $fail failed"
[ "$fail" = 0 ]
