#!/bin/bash
# golden-corpus.sh - `traceglot cat --style=babeltrace` against babeltrace2 2.0.4's own output
# recorded in the corpus: every trace of ctf/babeltrace/succeed (T.babeltrace2.txt beside it;
# multi-domains has one output per domain) and the LTTng-UST sessions of gen/ctf (default
# and --clock-seconds).  The corpus was recorded with TZ=UTC, so the test runs that way.
# SKIP when the corpus is absent.  With EXPECTED (one T.babeltrace2.txt: the build registers
# one test per trace), only that trace.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
succ=$root/ctf/babeltrace/succeed
gen=$root/gen/ctf
[ -d "$succ" ] || { echo "SKIP: corpus ctf/babeltrace not found ($succ)"; exit 77; }
export TZ=UTC
out=$TG_TMP
fail=0 pass=0
only=${1:-}
check() { # name expected command...
    local name=$1 exp=$2
    shift 2
    timeout 60 "$@" > "$out/got" 2> "$out/err"
    local rc=$?
    if [ $rc -eq 0 ] && cmp -s "$out/got" "$exp"; then
        echo "ok   $name"; pass=$((pass + 1))
    else
        echo "FAIL $name (exit $rc)"; diff "$exp" "$out/got" | head -4 | cut -c1-300; head -3 "$out/err"
        fail=$((fail + 1))
    fi
}
for exp in "$succ"/*.babeltrace2.txt "$succ"/*/*.babeltrace2.txt; do
    [ -f "$exp" ] || continue
    [ -z "$only" ] || [ "$exp" = "$only" ] || continue
    t=${exp%.babeltrace2.txt}
    [ -d "$t" ] || continue
    check "succeed/${t#$succ/}" "$exp" "$TG" cat --style=babeltrace "$t"
done
for exp in "$gen"/*.babeltrace2.txt; do
    [ -f "$exp" ] || continue
    [ -z "$only" ] || [ "$exp" = "$only" ] || continue
    t=${exp%.babeltrace2.txt}
    check "gen/${t##*/}" "$exp" "$TG" cat --style=babeltrace "$t"
    [ -f "$t.babeltrace2-seconds.txt" ] &&
        check "gen/${t##*/} --clock-seconds" "$t.babeltrace2-seconds.txt" \
            "$TG" cat --style=babeltrace --clock-seconds "$t"
done
echo "$pass passed, $fail failed"
[ $((pass + fail)) -gt 0 ] || tg_skip "no trace beside ${only:-the recorded outputs}"
[ $fail -eq 0 ]
