#!/bin/bash
# fgraph-nesting.sh - the calls of every function_graph trace.dat (the corpus's and the
# project's) nest in SQL's slice table, and the viewers draw the same calls.
#
# A recording that begins inside calls has exits whose entries it does not hold.  Their
# records declare the depth the kernel counts, so the call-stack builder starts the thread's
# stack there: such a call is a slice at its depth, parent of the calls inside it (it was a
# slice at depth 0 on the same track as its children: slices of one depth overlapped).
# For each trace (fgraph_nesting.py): no two slices of a track overlap at one depth
# (`select ... from slice a join slice b on a.track_id = b.track_id and a.depth = b.depth
# and a.id < b.id and b.ts < a.ts + a.dur and a.ts < b.ts + b.dur` is empty); each slice
# below depth 0 lies in its parent, one depth up; `convert --to chrome`'s B/E pairs are the
# slices (name, begin, end); `convert --to folded`'s self times per thread and function are
# slice.self_dur summed.  trace-cmd's durations of the same calls: fgraph-durations.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
n=0
while IFS= read -r dat; do
    [ "$(head -c 10 "$dat" | tail -c 7 | tr -d '\0')" = tracing ] || continue
    tg_run "$TG" sql --format csv "$dat" -q \
        "select count(*) as n from ftrace_event where name = 'funcgraph_exit'" || continue
    [ "$(tail -n 1 "$TG_TMP/out")" != 0 ] || continue
    name=${dat#"$TG_TEST_DATA"/}
    n=$((n + 1))
    tg_run "$TG" sql --format csv "$dat" -q "select s.id, s.ts, s.dur, s.depth, s.parent_id,
        s.name, s.self_dur, s.track_id, t.tid from slice s join thread_track tt
        on s.track_id = tt.id join thread t using (utid)" && cp "$TG_TMP/out" "$TG_TMP/s.csv"
    tg_run "$TG" sql --format csv "$dat" -q "select count(*) as n from slice a join slice b
        on a.track_id = b.track_id and a.depth = b.depth and a.id < b.id
        and b.ts < a.ts + a.dur and a.ts < b.ts + b.dur"
    if [ "$(tail -n 1 "$TG_TMP/out")" != 0 ]; then
        tg_fail "$name: overlapping slices" "$(cat "$TG_TMP/out" "$TG_TMP/err")"
        continue
    fi
    tg_run "$TG" convert --to chrome -o "$TG_TMP/c.json" --force "$dat" &&
        tg_run "$TG" convert --to folded -o "$TG_TMP/f.txt" --force "$dat" &&
        tg_run /usr/bin/python3 "$here/fgraph_nesting.py" "$TG_TMP/s.csv" "$TG_TMP/c.json" \
            "$TG_TMP/f.txt"
    if [ $? = 0 ]; then
        tg_pass "$name: $(cat "$TG_TMP/out")"
    else
        tg_fail "$name" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -c 800)"
    fi
done < <(find "$TG_TEST_DATA" "$TG_CORPUS" -name '*.dat' -type f 2>/dev/null | sort)
[ "$n" -gt 0 ] || tg_skip "no function_graph trace.dat in $TG_TEST_DATA or $TG_CORPUS"
tg_done
