#!/bin/bash
# pushdown.sh - constraints applied while reading lose no row and keep every value: a ts
# window, a cpu, a name, an id give what trace-cmd prints in that window or on that cpu, and
# the same rows (ids, durations, parents) as the whole table materialized and filtered by
# SQLite (slice, sched_slice, thread_state, whose rows end after they begin); two scans at
# once of a trace read once (CTF) agree; args and EXTRACT_ARG agree, in and out of order.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd trace-cmd
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
dat=$TG_TEST_DATA/ftrace/sched-irq-timer-v6.dat
uft=$TG_TEST_DATA/uftrace/threads.data
ctf=$TG_TEST_DATA/ctf/types
[ -f "$dat" ] && [ -d "$uft" ] && [ -d "$ctf" ] || tg_skip "no fixtures"

sql1() { "$TG" sql --format csv "$@" | tail -n +2; }

# a window of the middle third of the trace.dat, from trace-cmd's own timestamps
trace-cmd report -t "$dat" 2>/dev/null >"$TG_TMP/report.txt"
read -r lo hi < <(/usr/bin/python3 - "$TG_TMP/report.txt" <<'PY'
import re, sys
ts = [int(m.group(1)) * 10**9 + int(m.group(2)) for m in
      (re.match(r"^.*-\d+\s+\[\d+\]\s+(\d+)\.(\d{9}):", l) for l in open(sys.argv[1])) if m]
a, b = min(ts), max(ts)
print(a + (b - a) // 3, a + 2 * (b - a) // 3)
PY
)
/usr/bin/python3 - "$TG_TMP/report.txt" "$lo" "$hi" >"$TG_TMP/want.csv" <<'PY'
import re, sys
from collections import Counter
lo, hi = int(sys.argv[2]), int(sys.argv[3])
c = Counter()
for l in open(sys.argv[1]):
    m = re.match(r"^.*-\d+\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+([^\s:]+):", l)
    if m and lo <= int(m.group(2)) * 10**9 + int(m.group(3)) <= hi:
        c[(m.group(1).lstrip("0") or "0", m.group(4))] += 1
for k in sorted(c, key=lambda k: (int(k[0]), k[1])):
    print("%s,%s,%d" % (k[0], k[1], c[k]))
PY
# (lost-event records: trace-cmd prints its "[EVENTS DROPPED]" lines without a time)
sql1 "$dat" -q "SELECT cpu, name, count(*) FROM ftrace_event WHERE ts BETWEEN $lo AND $hi
                AND name != 'lost' GROUP BY cpu, name ORDER BY cpu, name" >"$TG_TMP/got.csv"
tg_same "ftrace_event in a ts window = trace-cmd's lines in it" "$TG_TMP/want.csv" "$TG_TMP/got.csv"
grep '^1,' "$TG_TMP/want.csv" | cut -d, -f2- >"$TG_TMP/want1.csv"
sql1 "$dat" -q "SELECT name, count(*) FROM ftrace_event WHERE cpu = 1 AND ts >= $lo AND ts <= $hi
                AND name != 'lost' GROUP BY name ORDER BY name" >"$TG_TMP/got1.csv"
tg_same "cpu = 1 in the window = trace-cmd's [001] lines" "$TG_TMP/want1.csv" "$TG_TMP/got1.csv"

# pushed down or filtered by SQLite over the whole table: the same rows
same_rows() { # NAME TRACE TABLE WHERE ORDER
    local name=$1 trace=$2 table=$3 where=$4 order=$5
    sql1 "$trace" -q "SELECT * FROM $table WHERE $where ORDER BY $order" >"$TG_TMP/pushed.csv"
    sql1 "$trace" -q "WITH t AS MATERIALIZED (SELECT * FROM $table)
                      SELECT * FROM t WHERE $where ORDER BY $order" >"$TG_TMP/whole.csv"
    if [ -s "$TG_TMP/whole.csv" ]; then
        tg_same "$name ($(wc -l <"$TG_TMP/whole.csv") rows)" "$TG_TMP/whole.csv" "$TG_TMP/pushed.csv"
    else
        tg_fail "$name" "no rows to compare"
    fi
}
same_rows "sched_slice window" "$dat" sched_slice "ts BETWEEN $lo AND $hi" id
same_rows "sched_slice cpu and utid" "$dat" sched_slice "cpu = 0 AND utid = 0 AND ts < $hi" id
same_rows "thread_state window" "$dat" thread_state "ts > $lo AND ts < $hi" id
same_rows "ftrace_event name and utid" "$dat" ftrace_event "name = 'sched_switch' AND utid = 0" id
same_rows "ftrace_event id" "$dat" ftrace_event "id = 100" id
read -r ulo uhi < <(sql1 "$uft" -q "SELECT min(ts) + (max(ts) - min(ts)) / 3,
                                           min(ts) + 2 * (max(ts) - min(ts)) / 3 FROM slice" | tr , ' ')
same_rows "slice window" "$uft" slice "ts BETWEEN $ulo AND $uhi" id
same_rows "slice name and track" "$uft" slice "name = 'leaf' AND track_id = 3 AND ts > $ulo" id

# two scans at once of a trace read once (CTF has no rewind): a self-join by id
n=$(sql1 "$ctf" -q "SELECT count(*) FROM ftrace_event")
j=$(sql1 "$ctf" -q "SELECT count(*) FROM ftrace_event a JOIN ftrace_event b ON b.id = a.id AND b.name = a.name")
[ "$n" -gt 0 ] && [ "$n" = "$j" ] && tg_pass "two scans at once of CTF: $j of $n rows pair" ||
    tg_fail "two scans at once of CTF" "$j of $n rows pair"

# args by join, by EXTRACT_ARG, and looked up backwards (a pass read again)
bad=$(sql1 "$dat" -q "SELECT count(*) FROM ftrace_event e JOIN args a USING (arg_set_id)
                      WHERE e.name = 'sched_switch' AND a.key = 'next_pid'
                        AND a.int_value IS NOT EXTRACT_ARG(e.arg_set_id, 'next_pid')")
[ "$bad" = 0 ] && tg_pass "args join = EXTRACT_ARG" || tg_fail "args join = EXTRACT_ARG" "$bad differ"
fwd=$(sql1 "$dat" -q "SELECT group_concat(v) FROM (SELECT EXTRACT_ARG(id, 'next_comm') AS v
                       FROM (SELECT id FROM ftrace_event WHERE name = 'sched_switch' ORDER BY id))")
back=$(sql1 "$dat" -q "SELECT group_concat(v) FROM (SELECT v FROM (SELECT id, EXTRACT_ARG(id, 'next_comm') AS v
                        FROM (SELECT id FROM ftrace_event WHERE name = 'sched_switch' ORDER BY id DESC))
                        ORDER BY id)")
[ -n "$fwd" ] && [ "$fwd" = "$back" ] && tg_pass "EXTRACT_ARG in and out of order" ||
    tg_fail "EXTRACT_ARG in and out of order" "forwards '$fwd', backwards '$back'"
first=$(sql1 "$ctf" -q "SELECT EXTRACT_ARG(0, 'context.vtid') IS (SELECT int_value FROM args WHERE arg_set_id = 0 AND key = 'context.vtid')
                       AND EXTRACT_ARG(0, 'context.vtid') IS NOT NULL AS ok")
[ "$first" = 1 ] && tg_pass "EXTRACT_ARG of the first event, first call" ||
    tg_fail "EXTRACT_ARG of the first event, first call" "$first"
tg_done
