#!/bin/bash
# sql-agree.sh - `traceglot analyze` on formats lttng-analyses cannot read (trace-cmd's
# trace.dat: the corpus' gen/ftrace files; LTTng 0.x: the corpus' lttng0 trace; perf.data
# tracepoints: tests/data/perf/sched.data and perf-kernel/kernel.data, recorded by
# tests/perf/record-fixtures.sh) and on generated LTTng traces: its numbers equal SQL written
# by hand over the same trace (`traceglot sql`, Perfetto's ftrace_event and EXTRACT_ARG,
# thread): cputop's per-thread CPU time (cputop-by-hand.sql), schedstats' latencies
# (schedstats-by-hand.sql), memtop's pages (memtop-by-hand.sql; with page events: trace.dat
# tests/data/ftrace/all-events-v7.dat, perf.data perf-kernel/kmem.data), irqstats' counts,
# min, max and
# total durations per IRQ and softirq (irq-by-hand.sql), syscallstats' per thread and call
# (syscalls-by-hand.sql; x86_64's raw_syscalls named by the kernel header's table),
# iousagetop's block requests on trace.dat (block-by-hand.sql), iolatencystats' per I/O
# category (io-by-hand.sql; raw_syscalls and LTTng 0.x's calls by number too) and
# iousagetop's per-process bytes (iousage-by-hand.sql), from the LAMI output; the log, top
# and freq views against the same SQL (lami-agg.py).  A
# trace without the events an analysis needs gives lttng-analyses' message (Event NAME not
# found in the trace) and exit 1.  The corpus' traces are SKIPped (said) when absent.
. "$(dirname "$0")/../lib.sh"
here=$TG_TESTS/analyze
traces=()
for f in "$TG_CORPUS"/gen/ftrace/*.dat "$TG_CORPUS"/lttng0/trace-15316events-2.5 \
    "$TG_TEST_DATA"/perf/sched.data "$TG_TEST_DATA"/perf-kernel/kernel.data; do
    [ -e "$f" ] && traces+=("$f") || echo "SKIP $f: absent"
done
/usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/gen/kernel" 1 && traces+=("$TG_TMP/gen/kernel")
/usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/io/kernel" 3 2.8.0 io &&
    traces+=("$TG_TMP/io/kernel")
[ ${#traces[@]} -gt 0 ] || tg_skip "no trace"
# $1 analysis, $2 event, $3 trace: the trace has none of the analysis' events
missing() {
    if "$TG" analyze "$1" "$3" >"$TG_TMP/out" 2>"$TG_TMP/err"; then
        tg_fail "$n $1" "exit 0 on a trace without $2"
    elif [ $? -eq 1 ] && grep -qxF "traceglot: error: Event $2 not found in the trace" "$TG_TMP/err" &&
        [ ! -s "$TG_TMP/out" ]; then
        tg_pass "$n $1: Event $2 not found"
    else
        tg_fail "$n $1" "not lttng-analyses' message and exit 1: $(cat "$TG_TMP/err")"
    fi
}
# the log, top and freq views of the same figures, from their LAMI (lami-agg.py): $1 the
# family (sched, irq, io), $2 the trace; $TG_TMP/sql holds the SQL's KEY,count,min,max,sum
views_agree() {
    local log top freq
    case $1 in
    sched) log=schedlog top=schedtop freq=schedfreq ;;
    irq) log=irqlog top= freq=irqfreq ;;
    io) log=iolog top=iolatencytop freq=iolatencyfreq ;;
    esac
    # lttng-analyses draws no distribution of one value (min = max)
    awk -F, '$(NF-2) < $(NF-1) { print $(NF-3) "," $(NF-2) "," $(NF-1) }' "$TG_TMP/sql" |
        sort > "$TG_TMP/sql-freq"
    for v in $log $top; do
        "$TG" analyze $v --limit 1000000 --format json "$2" |
            /usr/bin/python3 "$here/lami-agg.py" "$1" > "$TG_TMP/got-$v"
        tg_same "$n $v = SQL" "$TG_TMP/sql" "$TG_TMP/got-$v"
    done
    local fk=freq
    [ "$1" = io ] && fk=freq-io
    "$TG" analyze $freq --format json "$2" | /usr/bin/python3 "$here/lami-agg.py" $fk \
        > "$TG_TMP/got-$freq"
    tg_same "$n $freq = SQL (count, min, max)" "$TG_TMP/sql-freq" "$TG_TMP/got-$freq"
}
# schedstats: per thread count, min, max and total latency (schedstats-by-hand.sql)
schedstats_agrees() {
    "$TG" sql --format csv "$1" -q "$(cat "$here/schedstats-by-hand.sql")" | tail -n +2 |
        sort > "$TG_TMP/sql"
    "$TG" analyze schedstats --format json "$1" | /usr/bin/python3 -c '
import json, sys
for t in json.load(sys.stdin)["results"]:
    for r in t["data"]:
        n = r[1]["value"]
        print("%d,%d,%d,%d,%d" % (r[0]["tid"], n, r[2]["value"], r[4]["value"],
                                  round(r[3]["value"] * n)))' | sort > "$TG_TMP/got"
    [ -s "$TG_TMP/got" ] || tg_fail "$n schedstats" "no latency measured"
    tg_same "$n schedstats = SQL" "$TG_TMP/sql" "$TG_TMP/got"
    views_agree sched "$1"
}
# memtop: per thread pages allocated and freed (memtop-by-hand.sql); a trace without page
# events: lttng-analyses' message, and none by SQL either
memtop_agrees() {
    "$TG" sql --format csv "$1" -q "$(cat "$here/memtop-by-hand.sql")" | tail -n +2 |
        sort > "$TG_TMP/sql"
    if ! "$TG" analyze memtop --limit 0 --format json "$1" > "$TG_TMP/json" 2> "$TG_TMP/err"; then
        if grep -qxF "traceglot: error: Event kmem_mm_page_alloc not found in the trace" \
            "$TG_TMP/err" && [ ! -s "$TG_TMP/sql" ]; then
            tg_pass "$n memtop: no page events, none by SQL"
        else
            tg_fail "$n memtop" "$(cat "$TG_TMP/err"), SQL: $(head -3 "$TG_TMP/sql")"
        fi
        return
    fi
    /usr/bin/python3 -c '
import json, sys
d = {}
for t in json.load(sys.stdin)["results"]:
    k = {"allocd": 0, "freed": 1}.get(t["class"])
    if k is not None:
        for r in t["data"]:
            d.setdefault(r[0]["tid"], [0, 0])[k] = r[1]["value"]
for tid, (a, f) in d.items():
    print("%d,%d,%d" % (tid, a, f))' < "$TG_TMP/json" | sort > "$TG_TMP/got"
    [ -s "$TG_TMP/got" ] || tg_fail "$n memtop" "no page counted"
    tg_same "$n memtop = SQL" "$TG_TMP/sql" "$TG_TMP/got"
}
# iousagetop's block requests on trace.dat (block-io.dat, recorded by record-block-dat.sh:
# ftrace's rwbs is text, its thread the issuing event's): per thread block bytes read and
# written, per disk requests and sectors (block-by-hand.sql)
block_agrees() {
    "$TG" sql --format csv "$1" -q "$(cat "$here/block-by-hand.sql")" | tail -n +2 |
        sort > "$TG_TMP/sql"
    "$TG" analyze iousagetop --limit 100000 --format json "$1" | /usr/bin/python3 -c '
import json, sys
disk = [0, 0]
for t in json.load(sys.stdin)["results"]:
    c = t["class"]
    title = c.get("title", "") if isinstance(c, dict) else c
    if title.startswith("Per-process top block I/O operations ["):
        d = "read" if title.endswith("[read]") else "write"
        for r in t["data"]:
            if r[1]["value"]:
                print("%d,%s,%d" % (r[0]["tid"], d, r[1]["value"]))
    elif title in ("per-disk-top-request", "per-disk-top-sector"):
        disk[title == "per-disk-top-sector"] = sum(r[1]["value"] for r in t["data"])
print("disk,%d,%d" % tuple(disk))' | sort > "$TG_TMP/got"
    grep -q ',write,' "$TG_TMP/got" || tg_fail "$n iousagetop" "no block write counted"
    tg_same "$n iousagetop block = SQL" "$TG_TMP/sql" "$TG_TMP/got"
}
# iolatencystats: per I/O category count, min, max and total duration (io-by-hand.sql)
iolatency_agrees() {
    "$TG" sql --format csv "$1" -q "$(by_hand io-by-hand.sql "$1")" | tail -n +2 | sort > "$TG_TMP/sql"
    "$TG" analyze iolatencystats --format json "$1" | /usr/bin/python3 -c '
import json, sys
for r in json.load(sys.stdin)["results"][0]["data"]:
    n = r[1]["value"]
    if n:
        print("%s,%d,%d,%d,%d" % (r[0]["value"], n, r[2]["value"], r[4]["value"],
                                  round(r[3]["value"] * n)))' | sort > "$TG_TMP/got"
    [ -s "$TG_TMP/got" ] || tg_fail "$n iolatencystats" "no calls counted"
    tg_same "$n iolatencystats = SQL" "$TG_TMP/sql" "$TG_TMP/got"
    views_agree io "$1"
    # iousagetop: per thread bytes read and written by system calls (iousage-by-hand.sql)
    "$TG" sql --format csv "$1" -q "$(by_hand iousage-by-hand.sql "$1")" | tail -n +2 |
        sort > "$TG_TMP/sql"
    "$TG" analyze iousagetop --limit 1000000 --format json "$1" | /usr/bin/python3 -c '
import json, sys
for t in json.load(sys.stdin)["results"]:
    c = t["class"]
    title = c.get("title", "") if isinstance(c, dict) else c
    if title.startswith("Per-process top I/O operations ["):
        for r in t["data"]:
            if r[1]["value"]:
                print("%d,%s,%d" % (r[0]["tid"], title[title.index("[") + 1:-1], r[1]["value"]))' |
        sort > "$TG_TMP/got"
    tg_same "$n iousagetop per-process bytes = SQL" "$TG_TMP/sql" "$TG_TMP/got"
}
# x86_64's system call names (tests' own reading of the kernel header's __NR_* lines), as
# SQL rows (nr, name)
unistd=/usr/include/x86_64-linux-gnu/asm/unistd_64.h
x86_64_rows=$([ -r $unistd ] && /usr/bin/python3 -c '
import re, sys
text = open(sys.argv[1]).read()
print(", ".join("(%s, \x27%s\x27)" % (m.group(2), m.group(1))
                for m in re.finditer(r"^#define __NR_(\w+)\s+(\d+)", text, re.M)))' $unistd)
# whether trace $1 was recorded on x86_64, as the peers read it: perf's header (arch
# feature), trace-cmd's uname option
is_x86_64() {
    case $1 in
    *.data) perf report --header-only -i "$1" 2>/dev/null | grep -qx '# arch : x86_64' ;;
    *.dat) trace-cmd dump --options "$1" 2>/dev/null | grep -q '^Linux .* x86_64$' ;;
    *) false ;;
    esac
}
# the SQL of file $1 for trace $2, after the views of syscall-calls.sql it reads: on an
# x86_64 trace, x86's row replaced by x86_64's names
by_hand() {
    local sql
    sql="$(cat "$here/syscall-calls.sql");
$(cat "$here/$1")"
    if is_x86_64 "$2"; then
        [ -n "$x86_64_rows" ] || echo "no $unistd: x86_64's calls unnamed by SQL" >&2
        sql=${sql/"x86 (nr, name) AS (VALUES (NULL, NULL))"/"x86 (nr, name) AS (VALUES $x86_64_rows)"}
    fi
    printf '%s\n' "$sql"
}
# syscallstats: per thread and call count, min, max and total duration
# (syscalls-by-hand.sql; on an x86_64 trace with x86_64's names in place of its x86 row)
syscalls_agrees() {
    "$TG" sql --format csv "$1" -q "$(by_hand syscalls-by-hand.sql "$1")" | tail -n +2 |
        sort > "$TG_TMP/sql"
    "$TG" analyze syscallstats --format json "$1" | /usr/bin/python3 -c '
import json, re, sys
for t in json.load(sys.stdin)["results"]:
    if not isinstance(t["class"], dict):
        continue
    tid = int(re.search(r"TID: (\d+)\)\]$", t["class"]["title"]).group(1))
    for r in t["data"]:
        n = r[1]["value"]
        print("%d,%s,%d,%d,%d,%d" % (tid, r[0]["name"], n, r[2]["value"], r[4]["value"],
                                     round(r[3]["value"] * n)))' | sort > "$TG_TMP/got"
    [ -s "$TG_TMP/got" ] || tg_fail "$n syscallstats" "no calls counted"
    if is_x86_64 "$1" && ! grep -q '^[0-9]*,read,' "$TG_TMP/got"; then
        tg_fail "$n syscallstats" "x86_64 calls by number not named (no read)"
    fi
    tg_same "$n syscallstats = SQL" "$TG_TMP/sql" "$TG_TMP/got"
}
# raw_syscalls (sys_enter/sys_exit by number) in a trace.dat (tests/ftrace/
# record-fixtures.sh's misc: x86_64)
n=misc-v7.dat
syscalls_agrees "$TG_TEST_DATA/ftrace/$n"
iolatency_agrees "$TG_TEST_DATA/ftrace/$n"
n=block-io.dat
block_agrees "$TG_TEST_DATA/ftrace/$n"
iolatency_agrees "$TG_TEST_DATA/ftrace/$n"
# with page events: trace.dat (tests/ftrace/record-fixtures.sh's all-events) and perf.data
# (tests/perf/record-fixtures.sh's kmem.data)
n=all-events-v7.dat
memtop_agrees "$TG_TEST_DATA/ftrace/$n"
n=kmem.data
memtop_agrees "$TG_TEST_DATA/perf-kernel/$n"
schedstats_agrees "$TG_TEST_DATA/perf-kernel/$n"
for t in "${traces[@]}"; do
    n=$(basename "$t")
    schedstats_agrees "$t"
    [ "$n" = sched.data ] || memtop_agrees "$t"
    "$TG" sql --format csv "$t" -q "$(cat "$here/cputop-by-hand.sql")" | tail -n +2 | sort > "$TG_TMP/sql"
    "$TG" analyze cputop --limit 0 --format json "$t" | /usr/bin/python3 -c '
import json, sys
t = json.load(sys.stdin)["results"][0]
span = t["time-range"]["end"]["value"] - t["time-range"]["begin"]["value"]
for r in t["data"]:
    print("%d,%d" % (r[0]["tid"], round(r[3]["value"] * span)))' | sort > "$TG_TMP/got"
    tg_same "$n cputop = SQL" "$TG_TMP/sql" "$TG_TMP/got"
    if [ "$n" = sched.data ]; then # sched:sched_switch and sched_wakeup only
        missing irqstats irq_handler_entry "$t"
        missing syscallstats 'syscall_entry_*' "$t"
        missing memtop kmem_mm_page_alloc "$t"
        continue
    fi
    "$TG" sql --format csv "$t" -q "$(cat "$here/irq-by-hand.sql")" | tail -n +2 |
        sed "s/^'//; s/',/,/" | sort > "$TG_TMP/sql"
    "$TG" analyze irqstats --format json "$t" | /usr/bin/python3 -c '
import json, sys
for t in json.load(sys.stdin)["results"]:
    for r in t["data"]:
        print("%s,%d,%d,%d,%d,%d" % ("hard" if r[0]["hard"] else "soft", r[0]["nr"], r[1]["value"],
              r[2]["value"], r[4]["value"], round(r[3]["value"] * r[1]["value"])))' |
        sort > "$TG_TMP/got"
    tg_same "$n irqstats = SQL" "$TG_TMP/sql" "$TG_TMP/got"
    views_agree irq "$t"
    if [ "$n" = trace-15316events-2.5 ]; then # hard IRQ names: LTTng 0.x's irq_state statedump
        "$TG" sql --format csv "$t" -q "$(cat "$here/irq-names-by-hand.sql")" | tail -n +2 |
            sort > "$TG_TMP/sql"
        "$TG" analyze irqstats --format json "$t" | /usr/bin/python3 -c '
import csv, json, sys
names = {int(r[0]): r[1] for r in csv.reader(open(sys.argv[1]))}
for t in json.load(sys.stdin)["results"]:
    for r in t["data"]:
        if r[0]["hard"] and r[0]["name"] != names.get(r[0]["nr"]):
            print("IRQ %d: %s, by SQL %s" % (r[0]["nr"], r[0]["name"], names.get(r[0]["nr"])))
        if r[0]["hard"] and r[0]["nr"] == 1 and r[0]["name"] != "i8042":
            print("IRQ 1 not i8042")' "$TG_TMP/sql" > "$TG_TMP/got"
        if [ -s "$TG_TMP/got" ]; then
            tg_fail "$n irq names = SQL" "$(cat "$TG_TMP/got")"
        else
            tg_pass "$n irq names = SQL"
        fi
    fi
    syscalls_agrees "$t"
    iolatency_agrees "$t"
done
tg_done
