#!/bin/bash
# summary.sh - a GROUP BY name over slice or ftrace_event answered from the per-name summary
# (sql_summary.c) prints the bytes the plain statement prints (TG_SQL_PLAIN=1: every row
# through SQLite), on several traces of every format with calls or events, for the shapes the
# summary takes and for shapes it must decline (a bare column is a group's last row, avg and
# total add floats in row order, WHERE/HAVING/DISTINCT change the rows, a temporary table or
# one made after DROP TABLE slice stands for the table, a comment or a quoted name);
# TG_SQL_SUMMARY_NOTE=1 must show that the first took the summary and the others did not, so
# a summary that stopped being used (or one used where it must not) fails here.
. "$(dirname "$0")/../lib.sh"
taken=(
    "SELECT name, count(*), sum(dur) FROM slice GROUP BY name"
    "select NAME, COUNT( * ), Sum(dur) , min(dur), max(self_dur) from slice group by name;"
    "SELECT s.name AS fn, count(*) AS calls, sum(s.self_dur) self FROM slice s GROUP BY s.name ORDER BY calls DESC, fn LIMIT 5"
    "SELECT count(*), max(dur) FROM slice AS x GROUP BY name ORDER BY 1 DESC, max(dur)"
    "SELECT count(dur), sum(dur), min(self_dur), max(dur) FROM slice GROUP BY name ORDER BY sum(dur) DESC, 1"
    "SELECT name, count(*) AS n FROM ftrace_event GROUP BY name ORDER BY name"
    "SELECT name, count(*) FROM ftrace_event GROUP BY name ORDER BY count(*) DESC, name ASC"
)
declined=(
    "SELECT name, dur FROM slice GROUP BY name"
    "SELECT name, avg(dur), total(dur) FROM slice GROUP BY name"
    "SELECT name, count(*) FROM slice WHERE dur > 1000 GROUP BY name"
    "SELECT name, count(*) FROM slice GROUP BY name HAVING count(*) > 1"
    "SELECT name, group_concat(id) FROM slice GROUP BY name"
    "SELECT name, min(ts), max(depth) FROM slice GROUP BY name"
    "SELECT DISTINCT name, count(*) FROM slice GROUP BY name"
    "SELECT name, count(DISTINCT dur) FROM slice GROUP BY name"
    "SELECT name, count(*) FROM slice GROUP BY name, depth"
    "SELECT name, count(*) FROM slice GROUP BY name -- calls per name"
    "SELECT \"name\", count(*) FROM slice GROUP BY name"
    "SELECT name, count(*) FROM slice GROUP BY name ORDER BY dur"
    "SELECT name, count(*) FROM slice GROUP BY name ORDER BY tg_n"
    "SELECT name, count(*) AS name FROM slice GROUP BY name"
    "SELECT name, count(*) + 1 FROM slice GROUP BY name"
    "SELECT name, count(*) FROM ftrace_event GROUP BY name, cpu"
    "DROP TABLE slice; CREATE TABLE slice(name TEXT, dur INTEGER); INSERT INTO slice VALUES ('a', 1), ('a', 2), ('b', 3); SELECT name, count(*), sum(dur) FROM slice GROUP BY name"
    "CREATE TEMP TABLE slice(name TEXT, dur INTEGER); INSERT INTO slice VALUES ('a', 1), ('a', 2), ('b', 3); SELECT name, count(*), sum(dur) FROM slice GROUP BY name"
)
# run NAME TRACE QUERY FORMAT WANT-TAKEN
run() {
    local what="$1: $3 ($4)"
    TG_SQL_PLAIN=1 "$TG" sql --format "$4" "$2" -q "$3" >"$TG_TMP/plain" 2>"$TG_TMP/plain.err"
    echo "exit $?" >>"$TG_TMP/plain"
    TG_SQL_SUMMARY_NOTE=1 "$TG" sql --format "$4" "$2" -q "$3" >"$TG_TMP/fast" 2>"$TG_TMP/fast.err"
    echo "exit $?" >>"$TG_TMP/fast"
    if grep -q "read per name" "$TG_TMP/fast.err"; then took=yes; else took=no; fi
    grep -v "read per name" "$TG_TMP/fast.err" >>"$TG_TMP/fast"
    cat "$TG_TMP/plain.err" >>"$TG_TMP/plain"
    if [ "$took" != "$5" ]; then
        tg_fail "$what" "summary taken: $took, expected $5"
        return
    fi
    tg_same "$what" "$TG_TMP/plain" "$TG_TMP/fast"
}
n=0
for t in "$TG_TEST_DATA"/uftrace/recursion.data "$TG_TEST_DATA"/uftrace/threads.data \
         "$TG_TEST_DATA"/uftrace/cxx.data "$TG_TEST_DATA"/uftrace-sched/asleep2.data "$TG_TEST_DATA"/uftrace-sched/end2.data \
         "$TG_TEST_DATA"/ftrace/fgraph-le32-2cpu-v6.dat "$TG_TEST_DATA"/ftrace/all-events-v7.dat \
         "$TG_TEST_DATA"/xray/fdr.xray "$TG_TEST_DATA"/perfetto/track-events.pb \
         "$TG_CORPUS"/uftrace/oslab-ringbuf.data "$TG_CORPUS"/ftrace/trappy-trace.dat; do
    [ -e "$t" ] || continue
    n=$((n + 1))
    name=$(basename "$t")
    for q in "${taken[@]}"; do
        run "$name" "$t" "$q" csv yes
    done
    # a shape declined runs the plain statement: whether it is declined does not depend on
    # the trace, so two traces (calls, kernel events) tell
    case $name in recursion.data | fgraph-le32-2cpu-v6.dat)
        for q in "${declined[@]}"; do
            run "$name" "$t" "$q" csv no
        done
        run "$name" "$t" "${taken[1]}" table yes
        run "$name" "$t" "${taken[2]}" json yes
        ;;
    esac
done
[ "$n" -gt 0 ] || tg_skip "no fixtures"
# a damaged recording: the rows before the damage, then the error and exit 1, as plainly
if [ -d "$TG_TEST_DATA"/uftrace/threads.data ]; then
    cp -r "$TG_TEST_DATA"/uftrace/threads.data "$TG_TMP/damaged.data"
    f=$(ls "$TG_TMP"/damaged.data/[0-9]*.dat | head -1)
    truncate -s $(($(stat -c %s "$f") - 24)) "$f"
    run damaged.data "$TG_TMP/damaged.data" "${taken[0]}" csv yes
fi
[ -e "$TG_CORPUS"/uftrace/oslab-ringbuf.data ] || echo "note: the corpus is not at $TG_CORPUS: its traces were not compared"
tg_done
