#!/bin/bash
# perfetto-fields.sh - the Perfetto output of a trace.dat carries every field trace-cmd prints
# for its sched, irq, softirq and power events: protoc decodes it with Perfetto's schema, and
# perfetto_fields.py finds each event of `trace-cmd report -R -t` in the decoded bundles (typed
# message, generic event, compact sched arrays) with the same pid and field values.  Also, on
# LTTng kernel traces (trace.dat names no process): the ProcessTree packets (taken from the
# kernel model) name each thread of a known process as `traceglot sql`'s thread table does
# (one model, two consumers that must agree).  Skips without protoc, trace-cmd or the schema.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd protoc
tg_need_cmd trace-cmd
proto=$TG_CORPUS/../specs/perfetto_trace.proto
[ -f "$proto" ] || tg_skip "$proto not found"
here=$TG_TESTS/viewers
n=0
for dat in "$TG_TEST_DATA"/ftrace/sched-irq-timer-v6.dat "$TG_TEST_DATA"/ftrace/sched-irq-timer-v7zstd.dat \
    "$TG_CORPUS"/gen/ftrace/kernel-visible-v6.dat \
    "$TG_CORPUS"/mixed/kernel.dat; do
    [ -f "$dat" ] || continue
    name=$(basename "$dat")
    if ! tg_run "$TG" convert --to perfetto --force -o "$TG_TMP/ours.pftrace" "$dat" ||
        ! protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
            "$(basename "$proto")" <"$TG_TMP/ours.pftrace" >"$TG_TMP/ours.txt" 2>"$TG_TMP/err"; then
        tg_fail "$name" "convert or protoc failed: $(head -c 300 "$TG_TMP/err")"
        continue
    fi
    trace-cmd report -R -t "$dat" >"$TG_TMP/report.txt" 2>/dev/null
    if (cd "$here" && /usr/bin/python3 perfetto_fields.py "$proto" "$TG_TMP/ours.txt" \
            "$TG_TMP/report.txt") >"$TG_TMP/summary" 2>"$TG_TMP/diff"; then
        tg_pass "$name: every field trace-cmd prints ($(cat "$TG_TMP/summary"))"
    else
        tg_fail "$name: fields trace-cmd prints" "$(cat "$TG_TMP/summary" "$TG_TMP/diff" | head -20)"
    fi
    n=$((n + 1))
done
[ "$n" -gt 0 ] || tg_skip "no trace.dat fixtures"

# ProcessTree threads (tid, name) = the thread table's threads of a known process (the last
# thread of each tid), on kernel traces that name processes: make-lttng-kernel.py's LTTng
# kernel trace and the corpus's LTTng 0.x trace (many-threads, 8584 threads, is too slow a
# decode for a test; it was checked by hand)
/usr/bin/python3 "$here/make-lttng-kernel.py" "$TG_TMP/lttng-kernel" >/dev/null ||
    tg_fail "make-lttng-kernel.py" "could not write the trace"
for t in "$TG_TMP/lttng-kernel" "$TG_CORPUS"/lttng0/trace-15316events-2.5; do
    [ -e "$t" ] || continue
    name=$(basename "$t")
    if ! tg_run "$TG" convert --to perfetto --force -o "$TG_TMP/ours.pftrace" "$t" ||
        ! protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
            "$(basename "$proto")" <"$TG_TMP/ours.pftrace" >"$TG_TMP/ours.txt" 2>"$TG_TMP/err"; then
        tg_fail "$name" "convert or protoc failed: $(head -c 300 "$TG_TMP/err")"
        continue
    fi
    (cd "$here" && /usr/bin/python3 perfetto_fields.py --tree "$TG_TMP/ours.txt") >"$TG_TMP/got"
    tg_run "$TG" sql --format csv "$t" -q "SELECT 'thread', tid, name FROM thread WHERE tid > 0
            AND upid IS NOT NULL AND name IS NOT NULL AND utid IN (SELECT max(utid) FROM thread GROUP BY tid)"
    /usr/bin/python3 -c 'import csv, sys
for r in sorted((r for r in csv.reader(sys.stdin) if r[0] == "thread"), key=lambda r: int(r[1])):
    print("thread", r[1], r[2])' <"$TG_TMP/out" >"$TG_TMP/want"
    [ -s "$TG_TMP/want" ] || { tg_fail "$name" "the thread table names no thread of a process"; continue; }
    tg_same "$name: ProcessTree threads ($(wc -l <"$TG_TMP/want")) = sql thread table" "$TG_TMP/want" "$TG_TMP/got"
done
tg_done
