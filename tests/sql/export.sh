#!/bin/bash
# export.sh - `convert --to sqlite -o out.db` writes every table as a real table: for each
# table, `sqlite3 -csv out.db "SELECT * FROM t"` prints the bytes `traceglot sql --format csv`
# prints for the same query, less its header (one recording of each format, a perf.data file
# for the samples' tables: perf_session's cmdline, the mappings' build ids); so do the views
# (raw, sched, counters, instant, thread_slice), and the join columns are indexed so sqlite3 joins through them.  The database
# is written under a temporary name and renamed; an existing output is refused; a damaged
# input leaves nothing behind.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd sqlite3
tables="slice thread process thread_track counter counter_track sched_slice thread_state
        ftrace_event args trace stats trace_bounds metadata process_counter_track perf_session
        perf_sample stack_profile_callsite stack_profile_frame stack_profile_mapping"
n=0
for t in "$TG_TEST_DATA"/uftrace/events.data "$TG_TEST_DATA"/uftrace/forks.data \
         "$TG_TEST_DATA"/ftrace/sched-irq-timer-v7zstd.dat "$TG_TEST_DATA"/ctf/types \
         "$TG_TEST_DATA"/xray/fdr.xray "$TG_TEST_DATA"/lttng0/smp8 "$TG_CORPUS"/gen/ftrace/kernel-visible-v6.dat \
         "$TG_TEST_DATA"/perf/cpu-clock-g.data; do
    [ -e "$t" ] || continue
    db=$TG_TMP/out-$n.db
    if ! tg_run "$TG" convert --to sqlite -o "$db" "$t"; then
        tg_fail "$(basename "$t")" "convert failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    ls "$TG_TMP" | grep -q "tmp-" && tg_fail "$(basename "$t")" "a temporary file is left"
    for table in $tables; do
        sqlite3 -csv "$db" "SELECT * FROM $table" >"$TG_TMP/sqlite3.csv"
        tg_run "$TG" sql --format csv "$t" -q "SELECT * FROM $table"
        tail -n +2 "$TG_TMP/out" >"$TG_TMP/ours.csv"
        tg_same "$(basename "$t") $table ($(wc -l <"$TG_TMP/ours.csv") rows)" "$TG_TMP/sqlite3.csv" "$TG_TMP/ours.csv"
    done
    # Perfetto's other names (views) answer in sqlite3 as in traceglot
    for view in raw sched counters instant thread_slice; do
        sqlite3 -csv "$db" "SELECT * FROM $view" >"$TG_TMP/sqlite3.csv"
        tg_run "$TG" sql --format csv "$t" -q "SELECT * FROM $view"
        tail -n +2 "$TG_TMP/out" >"$TG_TMP/ours.csv"
        tg_same "$(basename "$t") view $view ($(wc -l <"$TG_TMP/ours.csv") rows)" "$TG_TMP/sqlite3.csv" "$TG_TMP/ours.csv"
    done
    # the join columns are indexed, and sqlite3's plan for the parent join uses the index
    sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name" >"$TG_TMP/idx"
    missing=
    for i in slice__id slice__parent_id slice__track_id slice__arg_set_id thread__utid thread__upid \
             process__upid ftrace_event__id ftrace_event__utid ftrace_event__arg_set_id \
             args__arg_set_id sched_slice__utid counter__track_id counter_track__id \
             thread_track__utid; do
        grep -qx "$i" "$TG_TMP/idx" || missing="$missing $i"
    done
    if [ -z "$missing" ]; then tg_pass "$(basename "$t") join columns indexed"; else
        tg_fail "$(basename "$t") join columns indexed" "missing:$missing"; fi
    sqlite3 "$db" "EXPLAIN QUERY PLAN SELECT count(*) FROM slice s JOIN slice p ON s.parent_id = p.id" >"$TG_TMP/plan"
    if grep -q "USING.*INDEX" "$TG_TMP/plan"; then tg_pass "$(basename "$t") sqlite3 joins through the index"; else
        tg_fail "$(basename "$t") sqlite3 joins through the index" "$(tr '\n' ' ' <"$TG_TMP/plan")"; fi
    n=$((n + 1))
done
[ "$n" -gt 0 ] || tg_skip "no fixtures"
tg_check_status "an existing output is refused" 2 "$TG" convert --to sqlite -o "$TG_TMP/out-0.db" "$TG_TEST_DATA"/uftrace/forks.data
d=$TG_TMP/damaged.data
cp -r "$TG_TEST_DATA"/uftrace/threads.data "$d"
f=$(ls -S "$d"/*.dat | head -1)
truncate -s $(($(stat -c %s "$f") / 2 + 5)) "$f"
tg_check_status "a damaged input is refused" 1 "$TG" convert --to sqlite -o "$TG_TMP/damaged.db" "$d"
if ls "$TG_TMP" | grep -q "damaged.db"; then tg_fail "nothing left of a refused output" "$(ls "$TG_TMP")"; else tg_pass "nothing left of a refused output"; fi
tg_done
