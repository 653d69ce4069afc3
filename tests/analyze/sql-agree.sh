#!/bin/bash
# sql-agree.sh - `traceglot analyze` on formats lttng-analyses cannot read (trace-cmd's
# trace.dat: the corpus' gen/ftrace files) and on a generated LTTng trace: its numbers equal
# SQL written by hand over the same trace (`traceglot sql`, Perfetto's ftrace_event and
# EXTRACT_ARG, thread): cputop's per-thread CPU time (cputop-by-hand.sql), irqstats' counts,
# min, max and total durations per IRQ and softirq (irq-by-hand.sql), syscallstats' per
# thread and call (syscalls-by-hand.sql) and iolatencystats' per I/O category
# (io-by-hand.sql), from the LAMI output.
# SKIP when the corpus is absent.
. "$(dirname "$0")/../lib.sh"
here=$TG_TESTS/analyze
traces=()
for f in "$TG_CORPUS"/gen/ftrace/*.dat; do [ -f "$f" ] && traces+=("$f"); done
/usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/gen/kernel" 1 && traces+=("$TG_TMP/gen/kernel")
/usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/io/kernel" 3 2.8.0 io &&
    traces+=("$TG_TMP/io/kernel")
[ ${#traces[@]} -gt 0 ] || tg_skip "no trace (corpus gen/ftrace absent)"
for t in "${traces[@]}"; do
    n=$(basename "$t")
    "$TG" sql --format csv "$t" -q "$(cat "$here/cputop-by-hand.sql")" | tail -n +2 | sort > "$TG_TMP/sql"
    "$TG" analyze cputop --limit 0 --format json "$t" | /usr/bin/python3 -c '
import json, sys
t = json.load(sys.stdin)["results"][0]
span = t["time-range"]["end"]["value"] - t["time-range"]["begin"]["value"]
for r in t["data"]:
    print("%d,%d" % (r[0]["tid"], round(r[3]["value"] * span)))' | sort > "$TG_TMP/got"
    tg_same "$n cputop = SQL" "$TG_TMP/sql" "$TG_TMP/got"
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
    "$TG" sql --format csv "$t" -q "$(cat "$here/syscalls-by-hand.sql")" | tail -n +2 |
        sort > "$TG_TMP/sql"
    "$TG" analyze syscallstats --format json "$t" | /usr/bin/python3 -c '
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
    tg_same "$n syscallstats = SQL" "$TG_TMP/sql" "$TG_TMP/got"
    "$TG" sql --format csv "$t" -q "$(cat "$here/io-by-hand.sql")" | tail -n +2 | sort > "$TG_TMP/sql"
    "$TG" analyze iolatencystats --format json "$t" | /usr/bin/python3 -c '
import json, sys
for r in json.load(sys.stdin)["results"][0]["data"]:
    n = r[1]["value"]
    if n:
        print("%s,%d,%d,%d,%d" % (r[0]["value"], n, r[2]["value"], r[4]["value"],
                                  round(r[3]["value"] * n)))' | sort > "$TG_TMP/got"
    [ -s "$TG_TMP/got" ] || tg_fail "$n iolatencystats" "no calls counted"
    tg_same "$n iolatencystats = SQL" "$TG_TMP/sql" "$TG_TMP/got"
done
tg_done
