#!/bin/bash
# index-lookup.sh - joins on the join columns (id, parent_id, utid, upid, track_id,
# arg_set_id) are looked up through an index, and give the rows of the plain plan: the same
# query on a copy of the tables in real SQLite tables (`convert --to sqlite`, then sqlite3)
# prints the same bytes.  Each query runs with the index in memory and spilled to SQLite's
# temp store (TG_SQL_INDEX_MB=0); the plan must show the lookup (idxStr "#KEY:COLUMNS"), so
# a join that went back to a pass per row fails here, not only in the bench.  A GROUP BY of
# one column gets its rows grouped from an index sorted by that column (idxStr
# "@KEY:COLUMNS"): the groups must come in the order SQLite's own sort gives them.  The outer
# loop of a join that scans every row of the inner's table reads on from the inner's index
# once it is built (the index keeps its columns too): its rows must be those of its own pass.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd sqlite3
queries=(
    "SELECT count(*) FROM slice s JOIN slice p ON s.parent_id = p.id"
    "SELECT s.id, s.ts, s.dur, s.end_ts, p.ts, p.name FROM slice s JOIN slice p ON s.parent_id = p.id ORDER BY s.id"
    "SELECT s.*, p.id FROM slice s JOIN slice p ON s.parent_id = p.id ORDER BY s.id"
    "SELECT s.id, s.ts, s.dur, p.ts, p.dur, p.end_state FROM sched_slice s JOIN sched_slice p ON p.id = s.id - 1 ORDER BY s.id"
    "SELECT name, count(*), sum(IIF(recursive, 0, end_ts - ts)), sum(self_dur), sum(dur), max(recursive OR dur < 0) FROM slice GROUP BY name"
    "SELECT s.id, s.name, p.id, p.name, p.depth, s.ts - p.ts FROM slice s JOIN slice p ON s.parent_id = p.id ORDER BY s.id"
    "SELECT p.name, count(*), sum(s.dur) FROM slice s JOIN slice p ON p.id = s.parent_id GROUP BY p.name ORDER BY p.name"
    "SELECT s.id, t.tid, t.name FROM slice s JOIN thread_track tt ON s.track_id = tt.id JOIN thread t USING (utid) ORDER BY s.id"
    "SELECT t.utid, t.tid, p.pid, p.name FROM thread t LEFT JOIN process p USING (upid) ORDER BY t.utid"
    "SELECT e.id, e.name, t.tid FROM ftrace_event e JOIN thread t USING (utid) ORDER BY e.id"
    "SELECT e.id, a.key, a.string_value, a.int_value FROM ftrace_event e JOIN args a USING (arg_set_id) ORDER BY e.id, a.key"
    "SELECT s.id, t.tid, s.dur FROM sched_slice s JOIN thread t USING (utid) ORDER BY s.id"
    "SELECT count(*), sum(p.dur) FROM sched_slice s JOIN sched_slice p ON p.id = s.id - 1"
    "SELECT c.id, c.value, t.name FROM counter c JOIN counter_track t ON c.track_id = t.id ORDER BY c.id"
    "SELECT (SELECT name FROM slice p WHERE p.id = s.parent_id), count(*) FROM slice s GROUP BY 1 ORDER BY 1"
    "SELECT name, count(*), sum(dur), min(ts), max(depth) FROM slice GROUP BY name"
    "SELECT parent_id, count(*), sum(dur) FROM slice GROUP BY parent_id"
    "SELECT depth, count(*), group_concat(id) FROM slice GROUP BY depth"
    "SELECT name, count(*) FROM ftrace_event GROUP BY name"
    "SELECT name, count(*) AS n FROM ftrace_event GROUP BY name ORDER BY name"
    "SELECT utid, count(*), min(id) FROM ftrace_event GROUP BY utid"
    "SELECT value, count(*) FROM counter GROUP BY value"
    "SELECT end_state, count(*), sum(dur) FROM sched_slice GROUP BY end_state"
)
n=0
for t in "$TG_TEST_DATA"/uftrace/recursion.data "$TG_TEST_DATA"/uftrace/threads.data \
         "$TG_TEST_DATA"/uftrace/cxx.data "$TG_TEST_DATA"/ftrace/sched-irq-timer-v7zstd.dat \
         "$TG_TEST_DATA"/ftrace/fgraph-le32-2cpu-v6.dat "$TG_TEST_DATA"/xray/fdr.xray; do
    [ -e "$t" ] || continue
    name=$(basename "$t")
    db=$TG_TMP/$name.db
    n=$((n + 1))
    if ! tg_run "$TG" convert --to sqlite -o "$db" "$t"; then
        tg_fail "$name" "convert failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    for q in "${queries[@]}"; do
        sqlite3 -csv "$db" "$q" >"$TG_TMP/sqlite3.csv"
        for mb in 256 0; do
            TG_SQL_INDEX_MB=$mb tg_run "$TG" sql --format csv "$t" -q "$q"
            tail -n +2 "$TG_TMP/out" >"$TG_TMP/ours.csv"
            tg_same "$name (index $mb MB): $q ($(wc -l <"$TG_TMP/ours.csv") rows)" \
                "$TG_TMP/sqlite3.csv" "$TG_TMP/ours.csv"
        done
    done
done
[ "$n" -gt 0 ] || tg_skip "no fixtures"
# the plans: the inner table of each join is looked up, not read again per row
t=$TG_TEST_DATA/uftrace/recursion.data
plan() { # QUERY WANTED-PATTERN WHAT
    tg_run "$TG" sql --format csv "$t" -q "EXPLAIN QUERY PLAN $1"
    if grep -q -e "$2" "$TG_TMP/out"; then tg_pass "plan: $3"; else
        tg_fail "plan: $3" "$(tr '\n' ' ' <"$TG_TMP/out")"; fi
}
plan "SELECT count(*) FROM slice s JOIN slice p ON s.parent_id = p.id" "INDEX 0:#0:" "slice by id"
plan "SELECT count(*) FROM slice s JOIN slice p ON p.parent_id = s.id" "INDEX 0:#9:" "slice by parent_id"
plan "SELECT count(*) FROM thread t JOIN process p USING (upid)" "INDEX 0:i" "process by upid (its own lookup)"
plan "SELECT count(*) FROM process p JOIN thread t USING (upid)" "INDEX 0:#5:" "thread by upid"
plan "SELECT name, count(*) FROM slice GROUP BY name" "INDEX 0:@5:" "GROUP BY name: rows grouped"
# a constant is one pass of the table, no index
# (idxStr: the codes of the constraints the scan applies, none here, then the columns read:
# all of slice's, a bit each)
"$TG" sql --format csv "$t" -q "SELECT count(*) FROM pragma_table_info('slice')" > "$TG_TMP/ncols"
all=$(printf '%x' $(((1 << $(tail -1 "$TG_TMP/ncols")) - 1)))
plan "SELECT * FROM slice WHERE id = 3" "SCAN slice VIRTUAL TABLE INDEX 0::$all\"" "a constant id: one pass"
tg_done
