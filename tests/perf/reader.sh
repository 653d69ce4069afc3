#!/bin/bash
# reader.sh - the perf.data reader on the fixtures of record-fixtures.sh, against perf's own
# outputs recorded beside them:
#   - samples per event equal `perf report --stats` ("NAME stats: SAMPLE events: N");
#   - the samples in the order perf delivers them (sorted per FINISHED_ROUND), each with its
#     time in ns and thread, equal `perf script --ns` line for line (so the per-thread
#     counts are equal too);
#   - SQL sees the same samples per event (ftrace_event rows);
#   - tracepoint samples decode their raw data with the tracing data's formats: the
#     sched_switch and sched_wakeup fields (comm, pid, prio) equal those perf script prints,
#     sample by sample, as SQL args.
# File mode, pipe mode (perf record -o -) and zstd-compressed records (-z) alike.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
for f in "$D"/*.data; do
    n=$(basename "$f" .data)
    # perf report --stats: "cpu-clock stats:" then "SAMPLE events: N"
    awk '/ stats:$/ && $1 != "Aggregated" {name=$1; sub(/^[^:]*:/, "", name)} /SAMPLE events:/ && name {print name, $3; name=""}' \
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
# the tracepoint fields, as SQL args, against the key=value text perf script prints
tg_need_cmd /usr/bin/python3
tg_run "$TG" sql "$D/sched.data" --format csv -q \
    "SELECT e.name, a.key, coalesce(a.string_value, a.int_value) FROM ftrace_event e JOIN args a USING (arg_set_id) WHERE e.name LIKE 'sched_%' AND a.key NOT LIKE 'context.%' AND a.key IN ('comm', 'pid', 'prio', 'prev_comm', 'prev_pid', 'prev_prio', 'next_comm', 'next_pid', 'next_prio') ORDER BY e.id, a.rowid"
/usr/bin/python3 - "$D/sched.script.txt" "$TG_TMP/out" >"$TG_TMP/cmp" <<'PY'
import csv, re, sys
keys = ('comm', 'pid', 'prio', 'prev_comm', 'prev_pid', 'prev_prio', 'next_comm', 'next_pid', 'next_prio')
want = []
for line in open(sys.argv[1]):
    m = re.search(r' sched:(sched_\w+): (.*)$', line)
    if m:
        want += [(m.group(1), k, v) for k, v in re.findall(r'(\w+)=(\S+)', m.group(2)) if k in keys]
rows = list(csv.reader(open(sys.argv[2])))[1:]
got = [tuple(r) for r in rows]
print('same' if want == got and want else 'differ: %d perf fields, %d rows; first difference %s' % (
    len(want), len(got), next(((w, g) for w, g in zip(want, got) if w != g), None)))
PY
if [ "$(cat "$TG_TMP/cmp")" = same ]; then
    tg_pass "sched: tracepoint fields = perf script's"
else
    tg_fail "sched: tracepoint fields = perf script's" "$(cat "$TG_TMP/cmp")"
fi
tg_done
