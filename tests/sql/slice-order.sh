#!/bin/bash
# slice-order.sh - a slice scan hands its rows out in id order (trace_processor's: a slice is
# numbered when it begins) although each row is known only when its slice ends, and the
# reorder window changes the order only, never a row: on uftrace recordings (calls nested in
# a main open the whole run, several threads) and Perfetto traces (TrackEvent and kernel
# slices), the plain scan prints what ORDER BY id prints; with the window cut to its least
# (TG_SQL_SLICE_ORDER_MB=0: slices open longer than 64 ids come late) the rows are the same;
# a statement that reads no column counts them all; parent_id joins to the parent's id; and a
# scan run beside another (the inner loop of a join, reading a second set of the trace) gives
# the rows the first gives (it did not on declared tracks: the model knew only its own set's).
. "$(dirname "$0")/../lib.sh"
traces=("$TG_TEST_DATA/uftrace/threads.data" "$TG_TEST_DATA/uftrace/recursion.data"
    "$TG_TEST_DATA/uftrace/forks.data" "$TG_TEST_DATA/perfetto/track-events.pb")
pf_tests=${1:-$TG_CORPUS/../perfetto-tests} # Perfetto's diff tests (optional)
for t in "$pf_tests"/{Atrace__android_b2b_async_begin_list_slices,GraphicsParser__virtio_video_slice}/trace.pb; do
    [ -f "$t" ] && traces+=("$t")
done
cols="id, ts, dur, track_id, depth, parent_id, name, arg_set_id, self_dur, end_ts"
for t in "${traces[@]}"; do
    [ -e "$t" ] || tg_skip "no fixture $t"
    name=$(basename "$t")
    "$TG" sql --format csv "$t" -q "SELECT $cols FROM slice ORDER BY id" >"$TG_TMP/by-id.csv"
    "$TG" sql --format csv "$t" -q "SELECT $cols FROM slice" >"$TG_TMP/plain.csv"
    tg_same "$name: a plain scan comes in id order" "$TG_TMP/by-id.csv" "$TG_TMP/plain.csv"
    TG_SQL_SLICE_ORDER_MB=0 "$TG" sql --format csv "$t" -q "SELECT $cols FROM slice" |
        sort >"$TG_TMP/small.csv"
    sort "$TG_TMP/plain.csv" >"$TG_TMP/plain-sorted.csv"
    tg_same "$name: the least window gives the same rows" "$TG_TMP/plain-sorted.csv" \
        "$TG_TMP/small.csv"
    n=$(($(wc -l <"$TG_TMP/plain.csv") - 1))
    "$TG" sql --format csv "$t" -q "SELECT count(*) FROM slice" | tail -n 1 >"$TG_TMP/count"
    echo "$n" >"$TG_TMP/want-count"
    tg_same "$name: count(*) counts every row" "$TG_TMP/want-count" "$TG_TMP/count"
    "$TG" sql --format csv "$t" -q "SELECT id, depth, parent_id, track_id FROM slice" |
        sort >"$TG_TMP/one.csv"
    "$TG" sql --format csv "$t" -q "SELECT b.id, b.depth, b.parent_id, b.track_id
                                     FROM (SELECT id FROM slice LIMIT 3) a, slice b" |
        sort -u >"$TG_TMP/beside.csv"
    tg_same "$name: a scan beside another gives the same rows" "$TG_TMP/one.csv" \
        "$TG_TMP/beside.csv"
    "$TG" sql --format csv "$t" -q "SELECT count(*) FROM slice WHERE parent_id IS NOT NULL" \
        >"$TG_TMP/want-join"
    "$TG" sql --format csv "$t" -q "SELECT count(*) FROM slice s JOIN slice p ON s.parent_id = p.id
                                     AND p.depth = s.depth - 1 AND p.ts <= s.ts" \
        >"$TG_TMP/join"
    tg_same "$name: each parent_id is a row one level up" "$TG_TMP/want-join" "$TG_TMP/join"
done
tg_done
