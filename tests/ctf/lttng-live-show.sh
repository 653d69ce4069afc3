#!/bin/bash
# lttng-live-show.sh - `traceglot cat net://...` prints a live session's events while it
# records, in time order, and ends with the same text as babeltrace2.  On one session of the
# test's own daemons (relay-daemons.sh: isolated, stopped by pid), the UST program
# (tg_fixture_app.c: 24 events of the two classes enabled per run) runs four times:
#   - babeltrace2 attached before the first run, prints runs 1 and 2 (48 lines), is stopped
#   - traceglot attaches (from the relay's first packet): runs 1 and 2 are printed while the
#     session records; run 3 fires, its events are printed (72 lines) before run 4 fires; run
#     4's events are printed (96 lines) before the session is destroyed
#   - traceglot ends at the destroy, exit 0; its first 48 lines are babeltrace2's text of the
#     same session, the whole text is babeltrace2's on the relay's copy of the session, and
#     every line printed while recording is where it is in the end
# Every wait is bounded (20 s); SKIP where the daemons cannot start.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/relay-daemons.sh"
tg_relay_isolate "$@"
. "$here/../lib.sh"
w=$TG_TMP
tg_relay_start "$w"
url="$relay/host/$host/show"
run_app() { LTTNG_UST_ALLOW_BLOCKING=1 "$w/app" >/dev/null; }
# waits (at most 20 s) until FILE has N lines
wait_lines() {
    for _ in $(seq 200); do [ "$(wc -l < "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    return 1
}
# shown WHAT FILE N: FILE has N lines while the session records and traceglot runs
shown() {
    if wait_lines "$2" "$3" && kill -0 "$tg" 2>/dev/null; then
        cp "$2" "$w/seen.$3"
        tg_pass "$1: $3 lines while the session records"
    else
        tg_fail "$1: $3 lines while the session records" "$(wc -l < "$2") lines: $(head -c 300 "$w/show.tg.err")"
    fi
}

# Without the compound event: where a text sequence is empty babeltrace2 2.0.4 prints a
# recycled text that depends on how its graph batches messages (see lttng-live.sh).
lttng create show --live=100000 --set-url="net://127.0.0.1:$relay_ctl:$relay_data" >/dev/null &&
    lttng enable-event -u -s show tg_fixture:ints,tg_fixture:floats_strings >/dev/null &&
    lttng add-context -u -s show -t vpid -t vtid -t procname >/dev/null &&
    lttng start show >/dev/null || tg_fail "create the session" "lttng create --live failed"

timeout 60 babeltrace2 -i lttng-live "$url" > "$w/show.bt" 2> "$w/show.bt.err" &
bt=$!
tg_relay_clients show 1 || tg_fail "babeltrace2 attach" "babeltrace2 did not attach in 20 s"
run_app
run_app
wait_lines "$w/show.bt" 48 || tg_fail "babeltrace2 live" "fewer than 48 events in 20 s"
kill -INT $bt
wait $bt
[ "$(wc -l < "$w/show.bt")" = 48 ] && tg_pass "babeltrace2 live: 48 events" ||
    tg_fail "babeltrace2 live: 48 events" "$(wc -l < "$w/show.bt") lines"
tg_relay_clients show 0 || tg_fail "babeltrace2 detach" "still attached after 20 s"

timeout 90 "$TG" cat --style=babeltrace "$url" > "$w/show.tg" 2> "$w/show.tg.err" &
tg=$!
shown "runs 1 and 2, recorded before traceglot attached" "$w/show.tg" 48
run_app
shown "run 3, before run 4 fires" "$w/show.tg" 72
run_app
shown "run 4, before the destroy" "$w/show.tg" 96
lttng stop show >/dev/null 2>&1
lttng destroy show >/dev/null 2>&1
wait $tg
rc=$?
[ $rc = 0 ] && tg_pass "cat ends at the destroy, exit 0" ||
    tg_fail "cat ends at the destroy, exit 0" "exit $rc: $(head -c 300 "$w/show.tg.err")"
head -48 "$w/show.tg" > "$w/show.tg48"
tg_same "the first 48 lines = babeltrace2 net:// on the same session" "$w/show.bt" "$w/show.tg48"
relay_trace=$(dirname "$(find "$w/relay" -path "*/show-*" -name metadata | head -1)")
babeltrace2 "$relay_trace" > "$w/show.files" 2>/dev/null
tg_same "the whole text = babeltrace2 on the relay's copy" "$w/show.files" "$w/show.tg"
for n in 48 72 96; do
    head -n $n "$w/show.tg" | cmp -s - "$w/seen.$n" &&
        tg_pass "the $n lines shown while recording stay as they were" ||
        tg_fail "the $n lines shown while recording stay as they were" "$(diff "$w/seen.$n" "$w/show.tg" | head -5)"
done
[ "$(wc -l < "$w/show.tg")" = 96 ] && tg_pass "96 events, each once" ||
    tg_fail "96 events, each once" "$(wc -l < "$w/show.tg") lines"
tg_done
