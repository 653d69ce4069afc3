#!/bin/bash
# live.sh - differential test against the installed uftrace on freshly recorded traces.
#
# Records the fixture programs anew (tests/uftrace/record-fixtures.sh into a temp dir) and
# compares traceglot with what the installed uftrace prints for those same recordings.
# SKIP (77) when uftrace or gcc is missing, or when recording is not possible here.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
here=$(cd "$(dirname "$0")" && pwd)
for tool in uftrace gcc; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
out=$TG_TMP
if ! "$here/record-fixtures.sh" "$out" >"$out.log" 2>&1; then
    echo "SKIP: uftrace could not record here:"
    tail -5 "$out.log"
    rm -f "$out.log"
    exit 77
fi
rm -f "$out.log"
bash "$here/golden.sh" "$out" || exit 1
# more columns than the recorded outputs have, straight against the installed uftrace
fail=0
for d in "$out"/*.data; do
    for f in "duration,tid,addr,time,delta,elapsed" "delta,elapsed" "+addr" "none"; do
        if cmp -s <(uftrace replay -f "$f" -d "$d" 2>/dev/null) <("$TG" replay -f "$f" "$d" 2>&1); then
            echo "ok   $(basename "$d") replay -f $f"
        else
            echo "FAIL $(basename "$d") replay -f $f"
            fail=1
        fi
    done
done
exit $fail
