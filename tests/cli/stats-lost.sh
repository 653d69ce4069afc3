#!/bin/bash
# stats-lost.sh - `traceglot stats` ends with "total: N events, M lost", where N counts the
# events the tracer recorded and M the records it lost: the lost-records markers are not
# events, on every format.  N and M come from the peers' own outputs: trace-cmd report's
# lines and its "[N EVENTS DROPPED]" lines (recorded beside the fixture), `uftrace dump`'s
# records and its [lost] records (uftrace runs here), babeltrace2's lines and its
# "discarded N events" warnings (make-threads.py's trace, babeltrace2 runs here), and the
# LTTng 0.x fixture's LTTV text and lost count as make-fixtures.py wrote them.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA

total() { # NAME N M PATH
    local name=$1 want="total: $2 events, $3 lost"
    shift 3
    tg_run "$TG" stats "$@"
    local got
    got=$(tail -n 1 "$TG_TMP/out")
    [ "$got" = "$want" ] && tg_pass "$name: $want" || tg_fail "$name" "'$got', expected '$want'"
}

dat=$D/ftrace/all-events-v7.dat
rep=$D/ftrace/all-events.report.txt
if [ -f "$dat" ] && [ -f "$rep" ]; then
    n=$(grep -vc -e '^cpus=' -e 'EVENTS DROPPED\]$' "$rep")
    m=$(sed -n 's/^CPU:[0-9]* \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$rep" | awk '{ s += $1 } END { print s + 0 }')
    total "ftrace all-events" "$n" "$m" "$dat"
fi

uf=$D/uftrace/lost.data
if [ -d "$uf" ] && command -v uftrace >/dev/null; then
    uftrace dump -d "$uf" 2>/dev/null | grep -E '^ *[0-9]+\.[0-9]+ +[0-9]+: \[' >"$TG_TMP/dump"
    n=$(grep -vc ': \[lost' "$TG_TMP/dump")
    # "[lost ] <6>(6)": six records lost
    m=$(sed -n 's/.*: \[lost *\] <\([0-9]*\)>.*/\1/p' "$TG_TMP/dump" | awk '{ s += $1 } END { print s + 0 }')
    total "uftrace lost.data" "$n" "$m" "$uf"
else
    echo "skip: uftrace or $uf missing"
fi

if command -v babeltrace2 >/dev/null && command -v python3 >/dev/null; then
    python3 "$TG_TESTS/ctf/make-threads.py" "$TG_TMP/t" || exit 1
    kt=$TG_TMP/t/kernel-threads
    n=$(babeltrace2 "$kt" 2>"$TG_TMP/bt-err" | wc -l)
    m=$(sed -n 's/.*Tracer discarded \([0-9]*\) events.*/\1/p' "$TG_TMP/bt-err" | awk '{ s += $1 } END { print s + 0 }')
    total "ctf kernel-threads" "$n" "$m" "$kt"
else
    echo "skip: babeltrace2 missing"
fi

for t in lost-be flight; do
    [ -d "$D/lttng0/$t" ] || continue
    n=$(grep -c ' (fixture/' "$D/lttng0/$t.lttv.txt")
    m=$(sed -n 's/^total: [0-9]* events, \([0-9]*\) lost$/\1/p' "$D/lttng0/$t.total.txt")
    total "lttng0 $t" "$n" "$m" "$D/lttng0/$t"
done
tg_done
