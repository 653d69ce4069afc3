#!/bin/bash
# follow.sh - `traceglot cat --follow` on the CTF trace of a running LTTng session (normal
# mode, written to a local folder by the test's own lttng-sessiond, isolated and stopped by
# pid: relay-daemons.sh).  The channel's switch timer (100 ms) flushes what the UST program
# (tg_fixture_app.c, pinned to CPU 0: 24 events of the two classes enabled per run) fired.
#   - traceglot follows the trace after the first run: the run's events are printed while
#     the session records; each next run's events are printed before the run after it fires
#   - after `lttng stop` and Ctrl-C, traceglot ends (exit 0); its whole text is babeltrace2's
#     and `cat`'s on the finished trace (every event once, in order), and every line printed
#     while recording is where it is in the end
#   - the same in the native style
# Every wait is bounded (20 s): nothing depends on timing luck.  SKIP where the session
# daemon cannot start.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/relay-daemons.sh"
tg_relay_isolate "$@"
. "$here/../lib.sh"
tg_need_cmd taskset
w=$TG_TMP
tg_relay_start "$w"
run_app() { LTTNG_UST_ALLOW_BLOCKING=1 taskset -c 0 "$w/app" >/dev/null; }
# waits (at most 20 s) until FILE has N lines
wait_lines() {
    for _ in $(seq 200); do [ "$(wc -l < "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    return 1
}

# follow SESSION STYLE: three runs followed, then the comparisons
follow() {
    local s=$1 style=$2 out=$w/$1.tg
    lttng create "$s" --output="$w/$s" >/dev/null &&
        lttng enable-channel -u -s "$s" --switch-timer=100000 ch >/dev/null &&
        lttng enable-event -u -s "$s" -c ch tg_fixture:ints,tg_fixture:floats_strings >/dev/null &&
        lttng add-context -u -s "$s" -c ch -t vpid -t vtid -t procname >/dev/null &&
        lttng start "$s" >/dev/null || tg_fail "$s: create the session" "lttng create failed"
    run_app # the trace's folder is there once the program registered
    local trace
    trace=$(dirname "$(find "$w/$s" -name metadata | head -1)")
    timeout 90 "$TG" cat --follow --style="$style" "$trace" > "$out" 2> "$out.err" &
    local tg=$! n
    for n in 24 48 72; do
        [ $n = 24 ] || run_app
        local t0=$SECONDS
        if wait_lines "$out" $n && kill -0 $tg 2>/dev/null; then
            cp "$out" "$w/$s.seen.$n"
            tg_pass "$s: run $((n / 24)): $n lines while the session records ($((SECONDS - t0)) s)"
        else
            tg_fail "$s: run $((n / 24)): $n lines while the session records" \
                "$(wc -l < "$out") lines: $(head -c 300 "$out.err")"
        fi
    done
    lttng stop "$s" >/dev/null 2>&1
    kill -INT "$(pgrep -P $tg)" # Ctrl-C to traceglot itself (not through timeout)
    wait $tg
    local rc=$?
    [ $rc = 0 ] && tg_pass "$s: Ctrl-C ends, exit 0" ||
        tg_fail "$s: Ctrl-C ends, exit 0" "exit $rc: $(head -c 300 "$out.err")"
    lttng destroy "$s" >/dev/null 2>&1
    "$TG" cat --style="$style" "$trace" > "$w/$s.cat" 2>&1
    tg_same "$s: the whole text = cat of the finished trace" "$w/$s.cat" "$out"
    for n in 24 48 72; do
        head -n $n "$out" | cmp -s - "$w/$s.seen.$n" &&
            tg_pass "$s: the $n lines shown while recording stay as they were" ||
            tg_fail "$s: the $n lines shown while recording stay as they were" \
                "$(diff "$w/$s.seen.$n" "$out" | head -5)"
    done
    [ "$(wc -l < "$out")" = 72 ] && tg_pass "$s: 72 events, each once" ||
        tg_fail "$s: 72 events, each once" "$(wc -l < "$out") lines"
    [ "$style" = babeltrace ] || return 0
    babeltrace2 "$trace" > "$w/$s.bt" 2>/dev/null
    tg_same "$s: the whole text = babeltrace2 on the finished trace" "$w/$s.bt" "$out"
}

follow fb babeltrace
follow fn native

# ---- refused ---------------------------------------------------------------------------------
tg_check_status "a trace.dat: refused" 2 "$TG" cat --follow "$TG_TEST_DATA/ftrace/all-events-v6.dat"
grep -q "a trace.dat is readable only when trace-cmd record ends" "$TG_TMP/err" &&
    tg_pass "a trace.dat: says why" || tg_fail "a trace.dat: says why" "$(cat "$TG_TMP/err")"
tg_check_status "--follow with --end: refused" 2 "$TG" cat --follow --end 5 "$TG_TEST_DATA/ctf/types"
tg_check_status "--follow of a missing path" 1 "$TG" cat --follow "$w/nothing"
tg_done
