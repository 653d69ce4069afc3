#!/bin/bash
# kernel-model.sh - the kernel model on an LTTng 0.x trace against LTTV's text dump recorded
# beside the corpus trace (LTTV's state machine prints each event's running process):
# every event after its CPU's first kernel.sched_schedule has LTTV's thread in ftrace_event
# (a switch the task switched out, as Perfetto gives it; lttv_threads.py), `traceglot cat
# --tid` prints as many events as LTTV gives each of the busiest threads, the thread and
# process tables hold every task the statedump (task_state.process_state) and the forks
# (kernel.process_fork) name with its process, and the statedump's names.  Skips without
# the corpus trace (LTTV is not packaged: its output is the recorded one).
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
t=$TG_CORPUS/lttng0/trace-15316events-2.5
dump=$t.lttv-textdump.txt
[ -d "$t" ] && [ -f "$dump" ] || tg_skip "$t or its LTTV text dump not found"
py() { /usr/bin/python3 "$TG_TESTS/lttng0/lttv_threads.py" "$@"; }

if tg_run "$TG" sql --format csv "$t" -q "SELECT e.ts, e.cpu, e.name, t.tid FROM ftrace_event e
        LEFT JOIN thread t USING (utid) ORDER BY e.id"; then
    cp "$TG_TMP/out" "$TG_TMP/ours.csv"
    if py events "$dump" "$TG_TMP/ours.csv" >"$TG_TMP/counts" 2>"$TG_TMP/diff"; then
        tg_pass "every event's thread is LTTV's ($(awk '{ n += $2 } END { print n }' "$TG_TMP/counts") events, $(wc -l <"$TG_TMP/counts") threads)"
    else
        tg_fail "events' threads" "$(head -10 "$TG_TMP/diff")"
    fi
else
    tg_fail "traceglot sql" "$(head -3 "$TG_TMP/err")"
fi

# --tid: the busiest threads but the idle task, as many lines as LTTV's events of each
while read -r tid n; do
    tg_run "$TG" cat --tid "$tid" "$t"
    got=$(wc -l <"$TG_TMP/out")
    [ "$got" = "$n" ] && tg_pass "cat --tid $tid: $n events, as LTTV's" ||
        tg_fail "cat --tid $tid" "$got lines, LTTV gives the thread $n events"
done < <(sort -k2,2nr "$TG_TMP/counts" | awk '$1 > 0' | head -4)

py tasks "$dump" | sort >"$TG_TMP/want"
tg_run "$TG" sql --format csv "$t" -q "SELECT DISTINCT t.tid, p.pid FROM thread t JOIN process p
        USING (upid)"
tail -n +2 "$TG_TMP/out" | tr , ' ' | sort >"$TG_TMP/got"
comm -23 "$TG_TMP/want" "$TG_TMP/got" >"$TG_TMP/missing"
[ -s "$TG_TMP/want" ] && [ ! -s "$TG_TMP/missing" ] &&
    tg_pass "thread/process: the $(wc -l <"$TG_TMP/want") tasks of the statedump and forks, with their process" ||
    tg_fail "thread/process tables" "missing (tid pid): $(head -5 "$TG_TMP/missing" | tr '\n' ' ')"

grep '^task_state.process_state' "$dump" |
    sed -n 's/.*{ pid = \([1-9][0-9]*\),.*name = "\([^"]*\)".*/\1,\2/p' | sort >"$TG_TMP/want"
tg_run "$TG" sql --format csv "$t" -q "SELECT tid, name FROM thread WHERE tid > 0"
tail -n +2 "$TG_TMP/out" | sort >"$TG_TMP/got"
comm -23 "$TG_TMP/want" "$TG_TMP/got" >"$TG_TMP/missing"
[ -s "$TG_TMP/want" ] && [ ! -s "$TG_TMP/missing" ] &&
    tg_pass "thread names: the statedump's $(wc -l <"$TG_TMP/want")" ||
    tg_fail "thread names" "missing (tid,name): $(head -5 "$TG_TMP/missing" | tr '\n' ' ')"
tg_done
