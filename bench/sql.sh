#!/bin/bash
# bench/sql.sh - traceglot sql against the peers' fixed answers on the same traces.
#
# Cases (median of 3 runs each, output to /dev/null, peak RSS from /usr/bin/time; one more
# run checks the answers agree):
#   - the report query over slice on each uftrace bench recording (bench/uftrace.sh records
#     them in $TG_BENCH_OUT: fib and mix) against `uftrace report` (goal: 3x); the
#     answers: uftrace report's calls, total and self times (tests/sql/report-compare.py);
#   - `SELECT name, count(*) FROM ftrace_event GROUP BY name` on the trace.dat bench file
#     (bench/ftrace.sh captures it) against `trace-cmd report --stat` (the kernel buffer
#     counts it prints without reading the events) and `trace-cmd report | wc -l` (reading
#     them); the answers: events per name = trace-cmd report's lines per name;
#   - the parent join on the same recordings (`slice s JOIN slice p ON s.parent_id = p.id`:
#     goal < 2 s, each parent looked up through the index built on first use);
#   - the rate of a scan (`SELECT count(*) FROM ftrace_event`, and the GROUP BY) in events/s
#     and MB/s of trace data, beside Perfetto's published 13-40 MB/s of trace_processor.
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}
dat=$out/ftrace-bench-v6.dat
command -v /usr/bin/time >/dev/null || { echo "sql: SKIP (/usr/bin/time is not installed)"; exit 0; }

. "$here/timing.sh"

# bench NAME PEER-NAME "TRACEGLOT CMD" "PEER CMD" AGREE -> one result line
bench() {
    local name=$1 peer=$2 ours=$3 theirs=$4 agree=$5 t1=() t2=() c1=() c2=() m1=0 m2=0 s kb c i
    for i in 1 2 3; do
        read -r s kb c < <(tg_timed /dev/null bash -c "$ours")
        t1+=("$s"); c1+=("$c"); [ "$kb" -gt "$m1" ] && m1=$kb
        read -r s kb c < <(tg_timed /dev/null bash -c "$theirs")
        t2+=("$s"); c2+=("$c"); [ "$kb" -gt "$m2" ] && m2=$kb
    done
    awk -v n="$name" -v p="$peer" -v a="$(tg_median "${t1[@]}")" -v b="$(tg_median "${t2[@]}")" \
        -v ca="$(tg_median "${c1[@]}")" -v cb="$(tg_median "${c2[@]}")" \
        -v m1="$m1" -v m2="$m2" -v s="$agree" 'BEGIN {
        printf "%s: traceglot %.3f s, %s %.3f s, ratio %.1fx (median of 3), peak RSS %.0f MB / %.0f MB, %s; cpu time %.2f s / %.2f s (%.1fx)\n",
               n, a, p, b, (a > 0 ? b / a : 0), m1 / 1024, m2 / 1024, s, ca, cb, (ca > 0 ? cb / ca : 0) }'
}

# rate NAME BYTES QUERY TRACE -> events/s and MB/s of a scan, by wall and CPU time (median of 3)
rate() {
    local name=$1 bytes=$2 q=$3 trace=$4 t=() c=() s kb cpu i events
    events=$("$TG" sql --format csv "$trace" -q "SELECT count(*) FROM ftrace_event" | tail -1)
    for i in 1 2 3; do
        read -r s kb cpu < <(tg_timed /dev/null "$TG" sql --format csv "$trace" -q "$q")
        t+=("$s"); c+=("$cpu")
    done
    awk -v n="$name" -v s="$(tg_median "${t[@]}")" -v c="$(tg_median "${c[@]}")" -v e="$events" \
        -v b="$bytes" 'BEGIN {
        if (c <= 0) c = s;
        printf "%s: %d events, %.0f MB: %.3f s, %.1f M events/s, %.0f MB/s; cpu %.2f s, %.1f M events/s, %.0f MB/s (Perfetto trace_processor: 13-40 MB/s)\n",
               n, e, b / 1e6, s, e / s / 1e6, b / s / 1e6, c, e / c / 1e6, b / c / 1e6 }'
}

uftrace_cases() { # RECORDING LABEL
    local uft=$1 label=$2 q full agree jq s kb c want got
    q="SELECT name, count(*), sum(dur) FROM slice GROUP BY name"
    full="SELECT name, count(*) AS calls, sum(IIF(recursive, 0, end_ts - ts)) AS total,
                 sum(self_dur) AS self, sum(dur) AS plain, max(recursive OR dur < 0) AS special
          FROM slice GROUP BY name"
    uftrace report -d "$uft" >"$out/sql-uf.txt" 2>/dev/null
    "$TG" sql --format csv "$uft" -q "$full" >"$out/sql-tg.csv" 2>/dev/null
    if /usr/bin/python3 "$here/../tests/sql/report-compare.py" "$out/sql-uf.txt" "$out/sql-tg.csv" \
        >"$out/sql-cmp.txt" 2>&1; then
        agree="same calls and times as uftrace report"
    else
        agree="ANSWERS DIFFER: $(tail -1 "$out/sql-cmp.txt")"
    fi
    bench "sql slice report query$label" "uftrace report" "'$TG' sql --format csv '$uft' -q '$q'" \
        "uftrace report -d '$uft'" "$agree"
    # the parent join (issues 34, 35: goal < 2 s): each row's parent looked up by id
    jq="SELECT count(*) FROM slice s JOIN slice p ON s.parent_id = p.id"
    read -r s kb c < <(tg_timed "$out/sql-join.csv" "$TG" sql --format csv "$uft" -q "$jq")
    want=$("$TG" sql --format csv "$uft" -q "SELECT count(*) FROM slice WHERE parent_id IN (SELECT id FROM slice)" | tail -1)
    got=$(tail -1 "$out/sql-join.csv")
    awk -v lbl="${label# }" -v s="$s" -v kb="$kb" -v got="$got" -v want="$want" 'BEGIN {
        printf "sql slice parent join (uftrace%s): %.3f s (goal < 2 s), peak RSS %.0f MB, %s rows, %s\n",
               (lbl == "" ? "" : " " lbl), s, kb / 1024, got, (got == want ? "as many as slices whose parent is a slice" : "ROWS DIFFER from " want) }'
    rm -f "$out/sql-join.csv"
    rate "sql slice scan (uftrace$label)" "$(du -sbL "$uft" | cut -f1)" "SELECT count(*) FROM slice" "$uft"
    rm -f "$out/sql-uf.txt" "$out/sql-tg.csv" "$out/sql-cmp.txt"
}

found=0
for uft in "$out/uftrace-fib.data" "$out/uftrace-mix.data"; do
    [ -f "$uft/info" ] && command -v uftrace >/dev/null || continue
    found=1
    label=
    [ "$uft" = "$out/uftrace-fib.data" ] || label=" ($(basename "$uft" .data | sed 's/^uftrace-//'))"
    uftrace_cases "$uft" "$label"
done
[ $found = 1 ] || echo "sql: SKIP the uftrace case (no $out/uftrace-fib.data: run bench/uftrace.sh first)"

if [ -f "$dat" ] && command -v trace-cmd >/dev/null; then
    q="SELECT name, count(*) AS n FROM ftrace_event GROUP BY name ORDER BY name"
    trace-cmd report "$dat" 2>/dev/null >"$out/sql-tc.txt"
    /usr/bin/python3 "$here/../tests/sql/count-events.py" trace-cmd "$out/sql-tc.txt" >"$out/sql-tc.csv"
    "$TG" sql --format csv "$dat" -q "$q" >"$out/sql-tg.csv" 2>/dev/null
    if cmp -s "$out/sql-tc.csv" "$out/sql-tg.csv"; then
        agree="same events per name as trace-cmd report's lines"
    else
        agree="ANSWERS DIFFER"
    fi
    bench "sql ftrace_event count by name" "trace-cmd report --stat" \
        "'$TG' sql --format csv '$dat' -q '$q'" "trace-cmd report --stat '$dat'" "$agree"
    bench "sql ftrace_event count by name" "trace-cmd report | wc -l" \
        "'$TG' sql --format csv '$dat' -q '$q'" "trace-cmd report '$dat' | wc -l" "$agree"
    rate "sql ftrace_event scan" "$(stat -L -c %s "$dat")" "SELECT count(*) FROM ftrace_event" "$dat"
    rate "sql ftrace_event count by name" "$(stat -L -c %s "$dat")" "$q" "$dat"
    rm -f "$out/sql-tc.txt" "$out/sql-tc.csv" "$out/sql-tg.csv"
else
    echo "sql: SKIP the trace.dat case (no $dat: run bench/ftrace.sh first)"
fi
