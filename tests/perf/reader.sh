#!/bin/bash
# reader.sh - the perf.data reader on the fixtures of record-fixtures.sh, against perf's own
# outputs recorded beside them:
#   - samples per event equal `perf report --stats` ("NAME stats: SAMPLE events: N");
#   - the samples in the order perf delivers them (sorted per FINISHED_ROUND), each with its
#     time in ns and thread, equal `perf script --ns` line for line (so the per-thread
#     counts are equal too);
#   - SQL sees the same samples per event (ftrace_event rows).
# File mode, pipe mode (perf record -o -) and zstd-compressed records (-z) alike.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
for f in "$D"/*.data; do
    n=$(basename "$f" .data)
    # perf report --stats: "cpu-clock stats:" then "SAMPLE events: N"
    awk '/ stats:$/ && $1 != "Aggregated" {name=$1} /SAMPLE events:/ && name {print name, $3; name=""}' \
        "$D/$n.stats.txt" | sort >"$TG_TMP/want-counts"
    tg_run "$TG" stats "$f"
    awk 'NR > 1 && $1 !~ /^PERF_RECORD_/ && $1 != "total:" {print $1, $2}' "$TG_TMP/out" |
        sort >"$TG_TMP/got-counts"
    tg_same "$n: samples per event = perf report --stats" "$TG_TMP/want-counts" "$TG_TMP/got-counts"
    # perf script --ns: "comm tid [cpu] time: ..." on the first line of each sample
    grep -v $'^\t' "$D/$n.script-ns.txt" | grep -v '^$' |
        awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
                  t = $i; sub(":", "", t); tid = $(i - 1); if (tid ~ /^\[/) tid = $(i - 2)
                  sub("\\.", "", t); sub("^0+", "", t); print t, tid; break }}' >"$TG_TMP/want-order"
    tg_run "$TG" sql "$f" --format csv -q \
        "SELECT e.ts, t.tid FROM ftrace_event e JOIN thread t USING (utid) WHERE e.name NOT LIKE 'PERF_RECORD_%' ORDER BY e.id"
    tail -n +2 "$TG_TMP/out" | tr ',' ' ' >"$TG_TMP/got-order"
    tg_same "$n: samples in perf script's order, time and tid" "$TG_TMP/want-order" "$TG_TMP/got-order"
done
tg_done
