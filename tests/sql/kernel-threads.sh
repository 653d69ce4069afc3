#!/bin/bash
# kernel-threads.sh - every event of an LTTng kernel trace has its thread (the kernel model,
# core/kernel_model.h), as babeltrace2's text says when the per-CPU current task is followed
# by hand from its sched_switch lines (kernel_threads.py): events per thread in
# ftrace_event, the tids of thread and the pids of process (the statedump's, the forks',
# the sched events'), the same through `traceglot stats --tid`, `--pid`, Python's events and
# `convert --to sqlite`; per-thread system calls as lttng-syscallstats counts them; the IRQ
# and softirq slices on per-CPU tracks (their durations: the entry/exit pairs) and the
# cpufreq/cpuidle counters, and per IRQ the count, min and max of lttng-irqstats.
# Traces: make-lttng-kernel.py's (babeltrace2 run here) and the corpus's many-threads (its
# recorded babeltrace2 text and lttng-syscallstats output, read in place).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/running-check.sh"
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
per_thread="SELECT coalesce(t.tid, -1), count(*) FROM ftrace_event e LEFT JOIN thread t USING (utid)
            GROUP BY 1 ORDER BY 1"
syscalls="SELECT t.tid, count(*) FROM (SELECT utid, name, lag(name) OVER (PARTITION BY utid
                                      ORDER BY id) AS before FROM ftrace_event
                                      WHERE name LIKE 'syscall_entry_%' OR name LIKE 'syscall_exit_%') e
          JOIN thread t USING (utid)
          WHERE e.name LIKE 'syscall_exit_%' AND e.before LIKE 'syscall_entry_%'
          GROUP BY t.tid ORDER BY t.tid"
threads="SELECT DISTINCT tid FROM thread ORDER BY tid"
slices() { # TYPE
    echo "SELECT c.cpu, s.dur, s.name FROM slice s JOIN cpu_track c ON s.track_id = c.id
          WHERE c.type = '$1' ORDER BY c.cpu, s.ts"
}
counters="SELECT c.cpu, c.name, k.value FROM counter k JOIN cpu_counter_track c ON k.track_id = c.id
          ORDER BY k.ts, k.id"
processes="SELECT DISTINCT pid FROM process ORDER BY pid"


# sql_csv NAME TRACE QUERY OUT: the query's rows without the header
sql_csv() {
    if ! tg_run "$TG" sql --format csv "$2" -q "$3"; then
        tg_fail "$1" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        return 1
    fi
    tail -n +2 "$TG_TMP/out" >"$4"
}

check() { # NAME TRACE BABELTRACE2-TEXT
    local name=$1 trace=$2 text=$3 what
    for what in per-thread threads processes syscalls irq softirq counters; do
        /usr/bin/python3 "$TG_TESTS/sql/kernel_threads.py" "$what" "$text" >"$TG_TMP/want-$what" ||
            { tg_fail "$name: $what" "kernel_threads.py failed"; continue; }
    done
    sql_csv "$name" "$trace" "$per_thread" "$TG_TMP/got-per-thread" &&
        tg_same "$name: events per thread = babeltrace2's per-CPU current task" \
            "$TG_TMP/want-per-thread" "$TG_TMP/got-per-thread"
    sql_csv "$name" "$trace" "$threads" "$TG_TMP/got-threads" &&
        tg_same "$name: threads = idle + statedump + forks + sched events' tids" \
            "$TG_TMP/want-threads" "$TG_TMP/got-threads"
    sql_csv "$name" "$trace" "$processes" "$TG_TMP/got-processes" &&
        tg_same "$name: processes = 0 + statedump (pids, ppids) + forks" \
            "$TG_TMP/want-processes" "$TG_TMP/got-processes"
    sql_csv "$name" "$trace" "$syscalls" "$TG_TMP/got-syscalls" &&
        tg_same "$name: completed system calls per thread" "$TG_TMP/want-syscalls" "$TG_TMP/got-syscalls"
    sql_csv "$name" "$trace" "$(slices cpu_irq)" "$TG_TMP/got-irq" &&
        tg_same "$name: IRQ slices ($(wc -l <"$TG_TMP/want-irq")) = irq_handler_entry/exit pairs" \
            "$TG_TMP/want-irq" "$TG_TMP/got-irq"
    sql_csv "$name" "$trace" "$(slices cpu_softirq)" "$TG_TMP/got-softirq" &&
        tg_same "$name: softirq slices ($(wc -l <"$TG_TMP/want-softirq")) = irq_softirq_entry/exit pairs" \
            "$TG_TMP/want-softirq" "$TG_TMP/got-softirq"
    sql_csv "$name" "$trace" "$counters" "$TG_TMP/got-counters" &&
        tg_same "$name: cpufreq and cpuidle counters ($(wc -l <"$TG_TMP/want-counters")) = power_cpu_* events" \
            "$TG_TMP/want-counters" "$TG_TMP/got-counters"
    # (make-lttng-kernel.py's schedule runs a thread on two CPUs at once, which no thread
    # state can say: checked on the real trace only)
    [ "$name" = make-lttng-kernel ] || running_check "$name" "$trace"
    # the busiest known thread through --tid (stats' total line) and Python's events
    local busiest count
    busiest=$(grep -v '^-1,' "$TG_TMP/want-per-thread" | sort -t, -k2,2nr -k1,1n | head -1)
    count=${busiest#*,}
    busiest=${busiest%,*}
    tg_run "$TG" stats --tid "$busiest" "$trace" &&
        [ "$(tail -1 "$TG_TMP/out")" = "total: $count events, 0 lost" ] &&
        tg_pass "$name: stats --tid $busiest counts its $count events" ||
        tg_fail "$name: stats --tid $busiest" "$(tail -1 "$TG_TMP/out") (want $count)"
    if [ -n "$py_path" ]; then
        tg_run env PYTHONPATH="$py_path" /usr/bin/python3 -c '
import collections, sys, traceglot
with traceglot.open(sys.argv[1]) as t:
    c = collections.Counter(ev.tid for ev in t.events())
for tid in sorted(c):
    print("%d,%d" % (tid, c[tid]))' "$trace" &&
            tg_same "$name: Python events per tid" "$TG_TMP/want-per-thread" "$TG_TMP/out" ||
            tg_fail "$name: Python events" "$(head -3 "$TG_TMP/err")"
    fi
    # the same answers from the exported database
    rm -f "$TG_TMP/k.sqlite"
    if tg_run "$TG" convert --to sqlite -o "$TG_TMP/k.sqlite" "$trace" && command -v sqlite3 >/dev/null; then
        sqlite3 -csv "$TG_TMP/k.sqlite" "$per_thread" >"$TG_TMP/db-per-thread"
        tg_same "$name: convert --to sqlite, events per thread" "$TG_TMP/want-per-thread" "$TG_TMP/db-per-thread"
        sqlite3 -csv "$TG_TMP/k.sqlite" "$processes" >"$TG_TMP/db-processes"
        tg_same "$name: convert --to sqlite, processes" "$TG_TMP/want-processes" "$TG_TMP/db-processes"
    fi
}

# the binding the build made (not under the sanitizers: tests/python loads their runtimes)
py_path=${TG_BUILD_DIR:-$TG_TESTS/../build}/python
ls "$py_path"/traceglot/_traceglot*.so >/dev/null 2>&1 &&
    ! grep -q '^TG_SANITIZE:BOOL=ON' "$py_path/../CMakeCache.txt" 2>/dev/null || py_path=""
n=0
if command -v babeltrace2 >/dev/null; then
    /usr/bin/python3 "$TG_TESTS/viewers/make-lttng-kernel.py" "$TG_TMP/lttng-kernel" >/dev/null ||
        tg_fail "make-lttng-kernel.py" "could not write the trace"
    babeltrace2 "$TG_TMP/lttng-kernel" >"$TG_TMP/fixture.txt" 2>/dev/null &&
        check make-lttng-kernel "$TG_TMP/lttng-kernel" "$TG_TMP/fixture.txt" && n=$((n + 1))
fi
mt=$TG_CORPUS/ctf-kernel/many-threads
if [ -d "$mt" ] && command -v zstd >/dev/null; then
    zstd -dc "$mt.babeltrace2.txt.zst" >"$TG_TMP/mt.txt"
    check many-threads "$mt" "$TG_TMP/mt.txt"
    # lttng-syscallstats' Total per TID (its recorded output) = the completed calls counted
    zstd -dc "$mt.syscallstats.txt.zst" |
        awk '/, TID: [0-9]+\)/ { sub(/.*, TID: /, ""); sub(/\).*/, ""); tid = $0 }
             /^Total:/ && tid != "" { print tid "," $2; tid = "" }' | sort -t, -k1,1n >"$TG_TMP/lsc"
    sort -t, -k1,1n "$TG_TMP/got-syscalls" >"$TG_TMP/got-sorted"
    tg_same "many-threads: system calls per thread = lttng-syscallstats' totals" "$TG_TMP/lsc" "$TG_TMP/got-sorted"
    # lttng-irqstats' hard IRQs: count, min and max duration (us) of each IRQ's slices
    sed -n 's/^\([0-9]*\): <\(.*\)> *\([0-9]*\) *\([0-9.]*\) *[0-9.]* *\([0-9.]*\) .*/\1,\2,\3,\4,\5/p' \
        "$mt.irqstats.txt" >"$TG_TMP/irqstats"
    sql_csv many-threads "$mt" "SELECT EXTRACT_ARG(s.arg_set_id, 'irq'), substr(s.name, 6, length(s.name) - 6),
                                       count(*), printf('%.3f', min(s.dur) / 1000.0),
                                       printf('%.3f', max(s.dur) / 1000.0)
                                FROM slice s JOIN cpu_track c ON s.track_id = c.id
                                WHERE c.type = 'cpu_irq' GROUP BY 1, 2 ORDER BY 1" "$TG_TMP/got-irqstats" &&
        tg_same "many-threads: IRQ slices per IRQ (count, min, max) = lttng-irqstats'" \
            "$TG_TMP/irqstats" "$TG_TMP/got-irqstats"
    n=$((n + 1))
fi
[ "$n" -gt 0 ] || tg_skip "neither babeltrace2 nor the corpus's many-threads"
tg_done
