#!/bin/bash
# sql-tables.sh - the analysis_* SQL tables (src/sql/sql_analysis.c) hold the rows `traceglot
# analyze NAME --format json --limit 0` prints: on a generated LTTng kernel trace and the
# corpus' trace.dat (when present), per table the rows' keys and numbers.
. "$(dirname "$0")/../lib.sh"
here=$TG_TESTS/analyze
/usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/gen/kernel" 2 ||
    { tg_fail "make-kernel-trace.py" "cannot write the trace"; tg_done; }
traces=("$TG_TMP/gen/kernel")
for f in "$TG_CORPUS"/gen/ftrace/kernel-visible-v6.dat; do [ -f "$f" ] && traces+=("$f"); done
# check NAME SQL ANALYSIS PYTHON: the SQL's CSV rows (sorted) against PYTHON's lines from the
# analysis' LAMI document (in variable d)
check() {
    local name=$1 sql=$2 analysis=$3 py=$4
    "$TG" sql --format csv "$t" -q "$sql" | tail -n +2 | sort > "$TG_TMP/sql"
    "$TG" analyze "$analysis" --limit 0 --format json "$t" |
        /usr/bin/python3 -c "import json, sys
d = json.load(sys.stdin)['results']
$py" | sort > "$TG_TMP/got"
    [ -s "$TG_TMP/got" ] || { tg_fail "$n $name" "the analysis has no rows"; return; }
    tg_same "$n $name" "$TG_TMP/got" "$TG_TMP/sql"
}
for t in "${traces[@]}"; do
    n=$(basename "$t")
    check analysis_cputop "SELECT thread_tid, '<' || thread_name || '>', migrations, printf('%.9f', usage) FROM analysis_cputop" cputop '
for r in d[0]["data"]:
    print("%d,<%s>,%d,%.9f" % (r[0]["tid"], r[0]["name"], r[1]["value"], r[3]["value"]))'
    check analysis_cputop_cpu "SELECT cpu, printf('%.9f', usage) FROM analysis_cputop_cpu" cputop '
for r in d[1]["data"]:
    print("%d,%.9f" % (r[0]["id"], r[1]["value"]))'
    check analysis_schedstats "SELECT thread_tid, count, min, max, printf('%.3f', avg) FROM analysis_schedstats" schedstats '
for r in d[0]["data"]:
    print("%d,%d,%d,%d,%.3f" % (r[0]["tid"], r[1]["value"], r[2]["value"], r[4]["value"], r[3]["value"]))'
    check analysis_schedlog "SELECT count(*), sum(latency), sum(wakee_tid), count(waker_tid) FROM analysis_schedlog" schedlog '
rows = d[0]["data"] if d else []
print("%d,%d,%d,%d" % (len(rows), sum(r[2]["value"] for r in rows), sum(r[5]["tid"] for r in rows),
                       sum(1 for r in rows if r[6])))'
    check analysis_irqstats "SELECT hard, nr, count, min, max FROM analysis_irqstats" irqstats '
for t in d:
    for r in t["data"]:
        print("%d,%d,%d,%d,%d" % (r[0]["hard"], r[0]["nr"], r[1]["value"], r[2]["value"], r[4]["value"]))'
    check analysis_irqlog "SELECT count(*), sum(end_ts - ts), count(raised_ts) FROM analysis_irqlog" irqlog '
rows = d[0]["data"]
print("%d,%d,%d" % (len(rows), sum(r[0]["end"]["value"] - r[0]["begin"]["value"] for r in rows),
                    sum(1 for r in rows if r[1] and r[1]["class"] == "timestamp")))'
    check analysis_syscallstats "SELECT tid, syscall, count, min, max FROM analysis_syscallstats" syscallstats '
import re
for t in d:
    if isinstance(t["class"], dict):
        tid = int(re.search(r"TID: (\d+)\)\]$", t["class"]["title"]).group(1))
        for r in t["data"]:
            print("%d,%s,%d,%d,%d" % (tid, r[0]["name"], r[1]["value"], r[2]["value"], r[4]["value"]))'
done
tg_done
