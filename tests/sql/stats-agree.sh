#!/bin/bash
# stats-agree.sh - the SQL `stats` table and `traceglot stats` give one answer: the events
# read (a tracer's lost-records marker is not one of them) and the events lost, on the LTTng
# 0.x traces of the corpus (15316 and 1021 events, as their names and LTTV's dump say) and
# the project's fixtures made by tests/lttng0/make-fixtures.py (NAME.total.txt: the totals the
# script computed from the bytes it wrote; flight and lost-be hold lost-records markers), and
# on the other formats' fixtures that hold lost records (uftrace's LOST record).
. "$(dirname "$0")/../lib.sh"
q="SELECT name, value FROM stats WHERE name IN ('events', 'lost_events') ORDER BY name"

agree() { # NAME TRACE [EXPECTED-TOTAL-LINE]
    if ! tg_run "$TG" stats "$2"; then
        tg_fail "$1" "traceglot stats failed: $(head -3 "$TG_TMP/err")"
        return
    fi
    local total
    total=$(tail -1 "$TG_TMP/out")
    if [ -n "${3:-}" ] && [ "$total" != "$3" ]; then
        tg_fail "$1: stats" "'$total', expected '$3'"
    fi
    if ! tg_run "$TG" sql --format csv "$2" -q "$q"; then
        tg_fail "$1" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        return
    fi
    local events lost
    events=$(sed -n 's/^events,//p' "$TG_TMP/out")
    lost=$(sed -n 's/^lost_events,//p' "$TG_TMP/out")
    [ "total: $events events, $lost lost" = "$total" ] && tg_pass "$1: $total" ||
        tg_fail "$1" "sql stats: $events events, $lost lost; traceglot stats: '$total'"
}

found=0
C=$TG_CORPUS/lttng0
for t in "$C"/trace-*events-*; do
    [ -d "$t" ] || continue
    found=1
    n=$(basename "$t" | sed -E 's/^trace-([0-9]+)events-.*/\1/')
    agree "corpus $(basename "$t")" "$t" "total: $n events, 0 lost"
done
dump=$C/trace-15316events-2.5.lttv-textdump.txt
if [ -f "$dump" ]; then # LTTV's dump: one line per event, naming its tracefile
    n=$(grep -c ' (traceset/' "$dump")
    [ "$n" = 15316 ] && tg_pass "LTTV's dump holds $n events" ||
        tg_fail "LTTV's dump" "$n lines of events"
fi
for t in "$TG_TEST_DATA"/lttng0/*; do
    [ -d "$t" ] && [ -f "$t.total.txt" ] || continue
    found=1
    agree "fixture $(basename "$t")" "$t" "$(cat "$t.total.txt")"
done
for t in "$TG_TEST_DATA"/uftrace/lost.data; do
    [ -d "$t" ] || continue
    found=1
    agree "uftrace $(basename "$t")" "$t"
done
[ "$found" = 1 ] || tg_skip "no LTTng 0.x traces"
tg_done
