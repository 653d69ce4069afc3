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
# check NAME SQL ANALYSIS PYTHON [LIMIT]: the SQL's CSV rows (sorted) against PYTHON's lines
# from the analysis' LAMI document (in variable d) with --limit LIMIT (0: every row; the I/O
# analyses' --limit 0 still shows one, they take the largest)
check() {
    local name=$1 sql=$2 analysis=$3 py=$4 limit=${5:-0}
    "$TG" sql --format csv "$t" -q "$sql" | tail -n +2 | sort > "$TG_TMP/sql"
    "$TG" analyze "$analysis" --limit "$limit" --format json "$t" |
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
# the I/O analyses, on a trace with descriptors, block requests and packets
/usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/io/kernel" 3 2.8.0 io ||
    { tg_fail "make-kernel-trace.py io" "cannot write the trace"; tg_done; }
t=$TG_TMP/io/kernel n=io all=1000000000
sub='import re
def sub(t): return re.search(r"\[(.*)\]$", t["class"]["title"]).group(1).encode().hex().upper()
def cls(t): return t["class"] if isinstance(t["class"], str) else t["class"]["inherit"]
def hx(s): return s.encode().hex().upper()'
check analysis_iolatencytop "SELECT hex(category), ts, duration, syscall, ifnull(size, '-'), tid, ifnull(path, '-'), ifnull(fd, '-') FROM analysis_iolatencytop" iolatencytop "$sub
for t in d:
    for r in t['data']:
        print('%s,%d,%d,%s,%s,%d,%s,%s' % (sub(t), r[0]['begin']['value'], r[2]['value'],
              r[3]['name'], r[4]['value'] if r[4] else '-', r[5]['tid'],
              r[6]['path'] if r[6] and 'path' in r[6] else '-', r[7]['fd'] if r[7] else '-'))" $all
check analysis_iolog "SELECT count(*), sum(duration), sum(size), count(path), sum(fd), sum(out_of_range IS NULL) FROM analysis_iolog" iolog '
rows = d[0]["data"]
print("%d,%d,%d,%d,%d,%d" % (len(rows), sum(r[2]["value"] for r in rows), sum(r[4]["value"] for r in rows if r[4]),
      sum(1 for r in rows if r[6] and "path" in r[6]), sum(r[7]["fd"] for r in rows if r[7]),
      sum(1 for r in rows if r[1]["value"] is None)))' $all
check analysis_iolatencystats "SELECT hex(object), count, min, max, printf('%.3f', avg) FROM analysis_iolatencystats" iolatencystats "$sub
for t in d:
    for r in t['data']:
        print('%s,%d,%d,%d,%.3f' % (hx(r[0].get('value', r[0].get('name'))), r[1]['value'], r[2]['value'],
              r[4]['value'], r[3]['value']))" $all
check analysis_iolatencyfreq "SELECT hex(category), count(*), sum(count), printf('%.3f', min(lower)) FROM analysis_iolatencyfreq GROUP BY category" iolatencyfreq "$sub
for t in d:
    print('%s,%d,%d,%.3f' % (sub(t), len(t['data']), sum(r[2]['value'] for r in t['data']),
          min(r[0]['value'] for r in t['data'])))" $all
check analysis_iousage_process "SELECT hex(direction), tid, size, disk_size, net_size, unknown_size FROM analysis_iousage_process" iousagetop "$sub
for t in d:
    if cls(t) == 'per-process-top':
        for r in t['data']:
            print('%s,%d,%d,%d,%d,%d' % (sub(t), r[0]['tid'], r[1]['value'], r[2]['value'], r[3]['value'], r[4]['value']))" $all
check analysis_iousage_file "SELECT hex(direction), hex(path), size FROM analysis_iousage_file" iousagetop "$sub
for t in d:
    if cls(t) == 'per-file-top':
        for r in t['data']:
            print('%s,%s,%d' % (sub(t), hx(r[0]['path']), r[1]['value']))" $all
check analysis_iousage_block "SELECT hex(direction), tid, size FROM analysis_iousage_block" iousagetop "$sub
for t in d:
    if cls(t) == 'per-process-top-block':
        for r in t['data']:
            print('%s,%d,%d' % (sub(t), r[0]['tid'], r[1]['value']))" $all
check analysis_iousage_disk "SELECT metric, hex(disk), printf('%.3f', value) FROM analysis_iousage_disk" iousagetop "$sub
for t in d:
    if cls(t).startswith('per-disk'):
        for r in t['data']:
            print('%s,%s,%.3f' % (cls(t), hx(r[0]['name']), r[1]['value']))" $all
check analysis_iousage_netif "SELECT hex(direction), hex(netif), size FROM analysis_iousage_netif" iousagetop "$sub
for t in d:
    if cls(t) == 'per-netif-top':
        for r in t['data']:
            print('%s,%s,%d' % (sub(t), hx(r[0]['name']), r[1]['value']))" $all
tg_done
