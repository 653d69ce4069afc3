#!/bin/bash
# kernel-dat.sh - the kernel model on trace.dat files against `trace-cmd report -t`
# (kernel_report.py counts its lines): the events of each thread (but lost-event records) (ftrace_event per utid's tid
# = the report's lines per comm-pid), and the IRQ and softirq slices of each CPU (slice on
# cpu_track: Perfetto's "IRQ (name)" and softirq action names, their ts and dur = the
# irq_handler_entry/exit and softirq_entry/exit pairs the report prints), through `traceglot
# sql` and the database `convert --to sqlite` writes; the per-CPU tracks are listed in track
# and the CPUs in cpu; thread_state's Running rows are sched_slice's; the Perfetto output
# (decoded by protoc) keeps every softirq_entry/exit/raise's vec.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/running-check.sh"
tg_need_cmd trace-cmd
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
per_thread="SELECT t.tid, count(*) FROM ftrace_event e JOIN thread t USING (utid) WHERE e.name != 'lost'
            GROUP BY t.tid ORDER BY 1"
slices() { # TYPE
    echo "SELECT c.cpu, s.ts, s.dur, s.name FROM slice s JOIN cpu_track c ON s.track_id = c.id
          WHERE c.type = '$1' ORDER BY 1, 2"
}
tracks="SELECT count(*) FROM track t JOIN cpu_track c USING (id) JOIN cpu ON cpu.cpu = c.cpu"
n=0
for f in "$TG_TEST_DATA"/ftrace/sched-irq-timer-v6.dat "$TG_TEST_DATA"/ftrace/sched-irq-timer-v7zstd.dat \
         "$TG_TEST_DATA"/ftrace/instances-v6.dat "$TG_TEST_DATA"/ftrace/misc-v6.dat \
         "$TG_TEST_DATA"/ftrace/kmem-block-wq-v6.dat "$TG_CORPUS"/gen/ftrace/kernel-visible-v6.dat \
         "$TG_CORPUS"/gen/ftrace/kernel-visible-v7zstd.dat "$TG_CORPUS"/mixed/*.dat; do
    [ -f "$f" ] || continue
    name=${f#"$TG_CORPUS"/}
    name=${name#"$TG_TEST_DATA"/}
    trace-cmd report -t "$f" >"$TG_TMP/report.txt" 2>/dev/null || continue
    for what in per-thread irq softirq; do
        /usr/bin/python3 "$TG_TESTS/sql/kernel_report.py" "$what" "$TG_TMP/report.txt" >"$TG_TMP/want-$what"
    done
    if ! tg_run "$TG" sql --format csv "$f" -q "$per_thread" -q "$(slices cpu_irq)" \
            -q "$(slices cpu_softirq)" -q "$tracks"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    # the statements' rows one after the other, each under its header line
    awk -v d="$TG_TMP" '/^(tid|cpu|count)/ { k++; next } { print > (d "/got-" k) }' "$TG_TMP/out"
    touch "$TG_TMP/got-1" "$TG_TMP/got-2" "$TG_TMP/got-3"
    tg_same "$name: events per thread = trace-cmd report's lines per comm-pid" \
        "$TG_TMP/want-per-thread" "$TG_TMP/got-1"
    tg_same "$name: IRQ slices ($(wc -l <"$TG_TMP/want-irq")) = irq_handler_entry/exit pairs" \
        "$TG_TMP/want-irq" "$TG_TMP/got-2"
    tg_same "$name: softirq slices ($(wc -l <"$TG_TMP/want-softirq")) = softirq_entry/exit pairs" \
        "$TG_TMP/want-softirq" "$TG_TMP/got-3"
    irq_tracks=$(cut -d, -f1 "$TG_TMP/want-irq" | sort -u | wc -l)
    soft_tracks=$(cut -d, -f1 "$TG_TMP/want-softirq" | sort -u | wc -l)
    [ "$(cat "$TG_TMP/got-4")" -ge $((irq_tracks + soft_tracks)) ] &&
        tg_pass "$name: the per-CPU tracks are in track, their CPUs in cpu" ||
        tg_fail "$name: per-CPU tracks" "$(cat "$TG_TMP/got-4") joined, want $((irq_tracks + soft_tracks))"
    if command -v sqlite3 >/dev/null && [ "$name" = "ftrace/sched-irq-timer-v6.dat" ]; then
        rm -f "$TG_TMP/k.sqlite"
        tg_run "$TG" convert --to sqlite -o "$TG_TMP/k.sqlite" "$f" &&
            sqlite3 -csv "$TG_TMP/k.sqlite" "$(slices cpu_softirq)" >"$TG_TMP/db" &&
            tg_same "$name: convert --to sqlite, softirq slices" "$TG_TMP/want-softirq" "$TG_TMP/db" ||
            tg_fail "$name: convert --to sqlite" "$(head -3 "$TG_TMP/err")"
    fi
    running_check "$name" "$f"
    # the Perfetto writer keeps each softirq's vec (trace-cmd's vec=N) on trace.dat too
    proto=$TG_CORPUS/../specs/perfetto_trace.proto
    rm -f "$TG_TMP/k.pftrace"
    if command -v protoc >/dev/null && [ -f "$proto" ] &&
        tg_run "$TG" convert --to perfetto -o "$TG_TMP/k.pftrace" "$f"; then
        grep -o ' softirq_[a-z]*: *vec=[0-9]*' "$TG_TMP/report.txt" | sed 's/: *vec=/ /; s/^ //' |
            sort | uniq -c >"$TG_TMP/want-vec"
        protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace "$proto" \
            <"$TG_TMP/k.pftrace" 2>/dev/null |
            awk '/^ *softirq_(entry|exit|raise) \{/ { k = $1; next }
                 k != "" && /vec:/ { print k, $2; k = "" } /}/ { k = "" }' |
            sort | uniq -c >"$TG_TMP/got-vec"
        tg_same "$name: convert --to perfetto keeps every softirq's vec" "$TG_TMP/want-vec" "$TG_TMP/got-vec"
    fi
    rm -f "$TG_TMP"/got-*
    n=$((n + 1))
done
[ "$n" -gt 0 ] || tg_skip "no trace.dat fixtures"
tg_done
