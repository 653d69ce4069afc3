#!/bin/bash
# sched.sh - sched_slice on trace.dat files with sched_switch: per CPU, the slices cover the
# span from the CPU's first event to the trace's last without a gap or an overlap (each
# begins where the one before it ended), one per sched_switch `trace-cmd report -t` prints on
# that CPU (plus the task running before the first), the idle task's as utid 0.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd trace-cmd
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
per_cpu="SELECT cpu, count(*), sum(utid = 0), sum(dur), min(ts), max(ts + dur)
         FROM sched_slice GROUP BY cpu ORDER BY cpu"
gaps="SELECT count(*) FROM (SELECT ts, dur, lead(ts) OVER (PARTITION BY cpu ORDER BY ts) AS next
                          FROM sched_slice) WHERE next IS NOT NULL AND next != ts + dur"
n=0
for f in "$TG_CORPUS"/gen/ftrace/*.dat "$TG_CORPUS"/mixed/*.dat "$TG_CORPUS"/ftrace/*.dat \
         "$TG_CORPUS"/ftrace-func/*.dat "$TG_TEST_DATA"/ftrace/*.dat; do
    [ -f "$f" ] || continue
    trace-cmd report -t "$f" >"$TG_TMP/report.txt" 2>/dev/null || continue
    grep -q " sched_switch: " "$TG_TMP/report.txt" || continue
    name=$(basename "$f")
    if ! tg_run "$TG" sql --format csv "$f" -q "$per_cpu"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    cp "$TG_TMP/out" "$TG_TMP/slices.csv"
    tg_run /usr/bin/python3 "$TG_TESTS/sql/sched-check.py" "$TG_TMP/report.txt" "$TG_TMP/slices.csv" &&
        tg_pass "$name: $(tail -1 "$TG_TMP/out")" || { tg_fail "$name" "sched_slice"; cat "$TG_TMP/out"; }
    tg_run "$TG" sql --format csv "$f" -q "$gaps"
    [ "$(tail -1 "$TG_TMP/out")" = 0 ] && tg_pass "$name: no gap, no overlap" ||
        tg_fail "$name: no gap, no overlap" "$(tail -1 "$TG_TMP/out") slices do not begin where the one before ended"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || tg_skip "no trace.dat with sched_switch"
tg_done
