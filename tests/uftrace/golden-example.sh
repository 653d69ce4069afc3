#!/bin/bash
# golden-example.sh - the shipped example (examples/fib.uftrace.data) against the installed
# uftrace: replay, replay -f time,tid,duration and report must be byte-identical.
# SKIP (77) when uftrace is not installed.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
ex=${TG_TESTS:?}/../examples/fib.uftrace.data
command -v uftrace >/dev/null || { echo "SKIP: uftrace is not installed"; exit 77; }
[ -d "$ex" ] || { echo "SKIP: $ex missing"; exit 77; }
tmp=$TG_TMP
fail=0
cmpout() { # NAME "UFTRACE ARGS" "TRACEGLOT ARGS"
    uftrace $2 -d "$ex" >"$tmp/want" 2>/dev/null
    "$TG" $3 "$ex" >"$tmp/got"
    if cmp -s "$tmp/want" "$tmp/got"; then echo "ok   $1"; else
        echo "FAIL $1"; diff "$tmp/want" "$tmp/got" | head -20; fail=1; fi
}
cmpout replay "replay" "replay"
cmpout replay-time "replay -f time,tid,duration" "replay -f time,tid,duration"
cmpout report "report" "report"
exit $fail
