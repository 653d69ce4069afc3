#!/usr/bin/env bash
# empty-answers.sh - an empty answer explains itself: an event filter naming no event of
# the trace is refused with the nearest names (exit 2, as trace-cmd refuses an unknown -F
# event), one glob of several naming none is a warning; a --cpu or --tid the trace does not
# have is a warning; report, replay, graph and convert --to folded|svg|speedscope on a trace
# without function calls say so and what it holds (exit 1), as convert --to uftrace does.
. "$(dirname "$0")/../lib.sh"

kernel=$TG_TEST_DATA/ftrace/comm-idle-first-v6.dat
lttng0=$TG_TEST_DATA/lttng0/flight
calls=$TG_TESTS/../examples/fib.uftrace.data
fgraph=$TG_TEST_DATA/ftrace/fgraph-be64-4cpu-v6.dat
for f in "$kernel" "$lttng0" "$calls" "$fgraph"; do [ -e "$f" ] || tg_skip "no $f"; done

# the events filter
tg_said "misspelt event" 2 "no event of the trace is named 'sched_swtch' (did you mean sched_switch?)" \
    "$TG" cat --events sched_swtch "$kernel"
tg_said "misspelt event, stats" 2 "did you mean sched_switch?" \
    "$TG" stats --events sched_swtch "$kernel"
tg_said "event near nothing" 2 "no event of the trace is named 'zzzzzzzz'" \
    "$TG" cat --events zzzzzzzz "$kernel"
tg_said "a glob of several naming none" 0 \
    "warning: no event of the trace is named 'sched_wakup' (did you mean sched_wakeup" \
    "$TG" cat --events sched_switch,sched_wakup "$kernel"
[ -s "$TG_TMP/out" ] && tg_pass "the other glob's events printed" ||
    tg_fail "the other glob's events printed" "empty output"
tg_check_status "a system glob names classes" 0 "$TG" cat --events 'sched:*' "$kernel"
grep -q "warning" "$TG_TMP/err" && tg_fail "no warning for a matching glob" "$(cat "$TG_TMP/err")" ||
    tg_pass "no warning for a matching glob"

# CPUs and threads the trace lacks
tg_said "--cpu 9 on a 2-CPU trace" 0 "warning: the trace has no CPU 9: --cpu 9 selects nothing" \
    "$TG" cat --cpu 9 "$kernel"
tg_check_status "--cpu of the trace" 0 "$TG" cat --cpu 0 "$kernel"
grep -q "warning" "$TG_TMP/err" && tg_fail "no warning for a CPU it has" "$(cat "$TG_TMP/err")" ||
    tg_pass "no warning for a CPU it has"
tg_said "--tid of no thread" 0 "warning: the trace has no thread 999999: --tid 999999 selects nothing" \
    "$TG" replay --tid 999999 "$calls"
tid=$("$TG" sql --format csv -q 'select tid from thread where tid > 0 limit 1' "$calls" | tail -1)
tg_check_status "--tid of a thread it has" 0 "$TG" replay --tid "$tid" "$calls"
grep -q "warning" "$TG_TMP/err" && tg_fail "no warning for a thread it has" "$(cat "$TG_TMP/err")" ||
    tg_pass "no warning for a thread it has"

# every format: a CPU or thread known only from the events (perf.data's samples, LTTng 0.x,
# CTF, XRay, Chrome JSON, Perfetto; formats that record no CPU) is said after the pass, on
# every command that reads all events; one the trace has is not
no_cpu_nor_thread() { # NAME FILE CPU TID: CPU and TID the trace has ("" none)
    local name=$1 f=$2 cpu=$3 tid=$4 cmd
    [ -e "$f" ] || { tg_fail "$name" "no $f"; return; }
    for cmd in stats cat; do
        tg_said "$name: $cmd --cpu 99" 0 "--cpu 99 selects nothing" "$TG" $cmd --cpu 99 "$f"
        tg_said "$name: $cmd --tid 999999" 0 "--tid 999999 selects nothing" \
            "$TG" $cmd --tid 999999 "$f"
    done
    tg_said "$name: sql --tid 999999" 0 "--tid 999999 selects nothing" \
        "$TG" sql --tid 999999 -q 'select count(*) from ftrace_event' "$f"
    for opt in ${cpu:+"--cpu $cpu"} ${tid:+"--tid $tid"}; do
        # shellcheck disable=SC2086
        tg_check_status "$name: stats $opt" 0 "$TG" stats $opt "$f"
        if grep -q "warning" "$TG_TMP/err"; then
            tg_fail "$name: no warning for stats $opt" "$(cat "$TG_TMP/err")"
        elif [ "$(tail -1 "$TG_TMP/out")" = "total: 0 events, 0 lost" ]; then
            tg_fail "$name: stats $opt selects events" "$(tail -1 "$TG_TMP/out")"
        else
            tg_pass "$name: no warning for stats $opt"
        fi
    done
}
no_cpu_nor_thread "perf.data, sched" "$TG_TEST_DATA/perf/sched.data" 0 1
no_cpu_nor_thread "perf.data, cpu-clock" "$TG_TEST_DATA/perf/cpu-clock.data" "" 14885
no_cpu_nor_thread "LTTng 0.x" "$TG_TEST_DATA/lttng0/smp8" 0 200
no_cpu_nor_thread "LTTng 0.x, flight" "$lttng0" 0 ""
no_cpu_nor_thread "CTF" "$TG_TEST_DATA/ctf/cyg" 0 7697
no_cpu_nor_thread "XRay" "$TG_TEST_DATA/xray/basic.xray" 0 1846
no_cpu_nor_thread "Chrome JSON" "$TG_TEST_DATA/json/uftrace-recursion.json" "" 31771
no_cpu_nor_thread "Perfetto" "$TG_TEST_DATA/perfetto/ftrace.pb" 0 200
no_cpu_nor_thread "uftrace" "$calls" "" "$tid"
no_cpu_nor_thread "trace.dat" "$kernel" 0 ""
# said after the pass: the words say what was looked at
tg_said "perf.data: what --cpu 99 met" 0 "the trace has no event on CPU 99: --cpu 99 selects nothing" \
    "$TG" stats --cpu 99 "$TG_TEST_DATA/perf/sched.data"
tg_said "CTF: what --tid met" 0 \
    "the trace has no event of thread 999999: --tid 999999 selects nothing" \
    "$TG" cat --tid 999999 "$TG_TEST_DATA/ctf/cyg"
# a pass that stops before the end (--end) does not say it
tg_check_status "--cpu 99 --end: no pass to the end" 0 "$TG" stats --cpu 99 --end 1ns \
    "$TG_TEST_DATA/perf/sched.data"
grep -q "selects nothing" "$TG_TMP/err" && tg_fail "no warning before the end" "$(cat "$TG_TMP/err")" ||
    tg_pass "no warning before the end"

# commands that show function calls, on traces without them
for cmd in report replay graph "convert --to folded" "convert --to speedscope" \
    "convert --to svg -o $TG_TMP/x.svg"; do
    # shellcheck disable=SC2086
    tg_said "$cmd on a trace.dat without function_graph" 1 \
        "the ftrace trace holds no function calls (its event classes: sched:sched_switch" \
        "$TG" $cmd "$kernel"
    [ -s "$TG_TMP/out" ] && tg_fail "$cmd wrote nothing" "$(head -3 "$TG_TMP/out")" ||
        tg_pass "$cmd wrote nothing"
done
# a trace.dat declaring the function_graph classes without such events: the events it holds
tg_said "report on a trace.dat declaring funcgraph classes" 1 \
    "the ftrace trace holds no function calls (its events: mmap_lock:mmap_lock_acquire_returned" \
    "$TG" report "$TG_TEST_DATA/ftrace/all-events-v6.dat"
tg_said "report on an LTTng 0.x kernel trace" 1 "the lttng0 trace holds no function calls (its event classes:" \
    "$TG" report "$lttng0"
[ ! -e "$TG_TMP/x.svg" ] && tg_pass "no svg file left" || tg_fail "no svg file left"
# and traces with function calls still run
tg_check_status "report on uftrace" 0 "$TG" report "$calls"
tg_check_status "report on function_graph" 0 "$TG" report "$fgraph"
tg_check_status "folded on uftrace" 0 "$TG" convert --to folded "$calls"
tg_done
