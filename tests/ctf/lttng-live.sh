#!/bin/bash
# lttng-live.sh - traceglot as an lttng-live viewer, against babeltrace2 2.0.4 on the same
# sessions of the test's own lttng-sessiond and lttng-relayd (relay-daemons.sh: isolated,
# stopped by pid).  The UST program (tg_fixture_app.c, 6 iterations on 2 threads) fires 36
# events each run.
#   - the relay's session list: `traceglot cat net://RELAY` = `babeltrace2 -i lttng-live`
#   - one session read in turn: babeltrace2 attached before the program ran and printed its
#     24 events (two of the three event classes), then traceglot attached (from the relay's first packet) until the session
#     was destroyed: the same bytes, and the same as babeltrace2 on the relay's files
#   - stats of a session read after its program ran, until destroyed: = stats of its files
#   - Ctrl-C while stats reads: the stats of what arrived, exit 0
#   - convert --to ctf and sql of a session until destroyed: = babeltrace2 / sql on its files
#   - a viewer attached to a session with no streams yet, destroyed before any metadata:
#     ends at the destroy, nothing printed, exit 0
#   - session-not-found-action: end (nothing, 0), fail (an error, 1), bad values refused
#   - the relay killed mid-session: the events read, then a clear error, exit 1
# Every wait is bounded (timeout); SKIP where the daemons cannot start.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/relay-daemons.sh"
tg_relay_isolate "$@"
. "$here/../lib.sh"
w=$TG_TMP
tg_relay_start "$w"
url() { echo "$relay/host/$host/$1"; }

# live_session NAME [EVENTS]: a live session of the events (default all of the program's)
live_session() {
    lttng create "$1" --live=100000 --set-url="net://127.0.0.1:$relay_ctl:$relay_data" >/dev/null &&
        lttng enable-event -u -s "$1" "${2:-tg_fixture:*}" >/dev/null &&
        lttng add-context -u -s "$1" -t vpid -t vtid -t procname >/dev/null &&
        lttng start "$1" >/dev/null
}
end_session() { lttng stop "$1" >/dev/null 2>&1; lttng destroy "$1" >/dev/null 2>&1; }
run_app() { LTTNG_UST_ALLOW_BLOCKING=1 "$w/app" >/dev/null; }
# the relay's copy of a session's trace (written beside what it serves)
relay_trace() { dirname "$(find "$w/relay" -path "*/$1-*" -name metadata | head -1)"; }
# the bytes of the data stream files under the folders given
data_bytes() { find "$@" -type f -name 'channel*' ! -path '*/index/*' -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
# waits (at most 20 s) until traceglot's scratch folder SPOOL holds every packet of the
# relay's copy of SESSION
caught_up() {
    local r sp
    for _ in $(seq 200); do
        r=$(data_bytes "$w/relay"/*/"$1"-*) sp=$(data_bytes "$2")
        [ "$r" -gt 0 ] && [ "$r" = "$sp" ] && return 0
        sleep 0.1
    done
    return 1
}
# waits (at most 20 s) until FILE has N lines
wait_lines() {
    for _ in $(seq 200); do [ "$(wc -l < "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    return 1
}

# ---- the session list ----------------------------------------------------------------------
live_session s1 tg_fixture:ints,tg_fixture:floats_strings || tg_fail "create s1" "lttng create --live failed"
timeout 20 babeltrace2 -i lttng-live "$relay" > "$w/list.bt" 2>&1
tg_check "list: one session, no stream yet" "$w/list.bt" timeout 20 "$TG" cat "$relay"

# ---- one session, babeltrace2 then traceglot -----------------------------------------------
# Without the compound event: where a text sequence is empty babeltrace2 2.0.4 prints a
# recycled text, and which one depends on how its graph batches messages, which differs
# between its live and file sources; traceglot prints what it prints for the files (checked
# on the compound events of s4 below).
timeout 60 babeltrace2 -i lttng-live "$(url s1)" --params session-not-found-action=end \
    > "$w/s1.bt" 2> "$w/s1.bt.err" &
bt=$!
tg_relay_clients s1 1 || tg_fail "babeltrace2 attach" "babeltrace2 did not attach in 20 s"
run_app
wait_lines "$w/s1.bt" 24 || tg_fail "babeltrace2 live" "fewer than 24 events in 20 s"
kill -INT $bt; wait $bt
[ "$(wc -l < "$w/s1.bt")" = 24 ] && tg_pass "babeltrace2 live: 24 events" ||
    tg_fail "babeltrace2 live: 24 events" "$(wc -l < "$w/s1.bt") lines"
timeout 60 "$TG" cat --style=babeltrace "$(url s1)" > "$w/s1.tg" 2> "$w/s1.tg.err" &
tg=$!
tg_relay_clients s1 1 || tg_fail "traceglot attach" "traceglot did not attach in 20 s"
timeout 20 babeltrace2 -i lttng-live "$relay" > "$w/list2.bt" 2>&1
tg_check "list: the session with its streams and a viewer" "$w/list2.bt" timeout 20 "$TG" cat "$relay"
end_session s1
wait $tg
rc=$?
[ $rc = 0 ] && tg_pass "cat ends at the destroy" || tg_fail "cat ends at the destroy" "exit $rc: $(cat "$w/s1.tg.err")"
tg_same "cat --style=babeltrace = babeltrace2 net://" "$w/s1.bt" "$w/s1.tg"
babeltrace2 "$(relay_trace s1)" > "$w/s1.files" 2>/dev/null
tg_same "cat net:// = babeltrace2 on the relay's files" "$w/s1.files" "$w/s1.tg"

# ---- stats of a session read after its program ran -----------------------------------------
live_session s2 || tg_fail "create s2" "lttng create --live failed"
run_app
timeout 60 "$TG" stats --progress "$(url s2)" > "$w/s2.tg" 2> "$w/s2.tg.err" &
tg=$!
tg_relay_clients s2 1 || tg_fail "stats attach" "traceglot did not attach in 20 s"
sleep 0.5 # a live timer's flush: the program's last packets reach the relay
end_session s2
wait $tg
rc=$?
[ $rc = 0 ] && tg_pass "stats ends at the destroy" || tg_fail "stats ends at the destroy" "exit $rc: $(cat "$w/s2.tg.err")"
"$TG" stats "$(relay_trace s2)" > "$w/s2.files" 2>&1
tg_same "stats net:// = stats of the relay's files" "$w/s2.files" "$w/s2.tg"
grep -q "traceglot: net://.*/s2: [0-9]* packets, [0-9]* KiB (output at the session's end or Ctrl-C)" \
    "$w/s2.tg.err" && tg_pass "--progress: the reading's line" ||
    tg_fail "--progress: the reading's line" "$(head -c 300 "$w/s2.tg.err")"
grep -q "^total: 36 events, 0 lost$" "$w/s2.tg" && tg_pass "stats: 36 events" || tg_fail "stats: 36 events" "$(cat "$w/s2.tg")"

# ---- no stream yet, destroyed before any metadata ------------------------------------------
live_session s3 || tg_fail "create s3" "lttng create --live failed"
timeout 30 "$TG" cat "$(url s3)" > "$w/s3.tg" 2> "$w/s3.tg.err" &
tg=$!
tg_relay_clients s3 1 || tg_fail "attach s3" "traceglot did not attach in 20 s"
end_session s3
wait $tg
rc=$?
[ $rc = 0 ] && [ ! -s "$w/s3.tg" ] && tg_pass "no stream, destroyed: ends, nothing printed" ||
    tg_fail "no stream, destroyed: ends, nothing printed" "exit $rc: $(head -c 300 "$w/s3.tg" "$w/s3.tg.err")"

# ---- a session that is not there ----------------------------------------------------------
: > "$w/empty"
tg_check "not found, end: nothing" "$w/empty" timeout 20 "$TG" cat "$(url nosuch)" \
    --params session-not-found-action=end
tg_check_status "not found, fail: exit 1" 1 timeout 20 "$TG" cat "$(url nosuch)" \
    --params session-not-found-action=fail
grep -q 'no session named "nosuch"' "$TG_TMP/err" && tg_pass "not found, fail: says so" ||
    tg_fail "not found, fail: says so" "$(cat "$TG_TMP/err")"
tg_check_status "bad --params value" 2 "$TG" cat "$(url nosuch)" --params session-not-found-action=maybe
tg_check_status "unknown --params key" 2 "$TG" cat "$(url nosuch)" --params url=x
tg_check_status "not a live URL" 2 "$TG" cat "net://127.0.0.1:$relay_live/nohost"

# ---- Ctrl-C: stats answers for what arrived --------------------------------------------------
live_session s5 || tg_fail "create s5" "lttng create --live failed"
mkdir -p "$w/spool5"
TMPDIR=$w/spool5 timeout 60 "$TG" stats "$(url s5)" > "$w/s5.tg" 2> "$w/s5.tg.err" &
tg=$!
tg_relay_clients s5 1 || tg_fail "attach s5" "traceglot did not attach in 20 s"
run_app
caught_up s5 "$w/spool5" || tg_fail "Ctrl-C: caught up" "traceglot did not get the packets in 20 s"
# to traceglot itself: timeout(1) would send its signal twice (to the child and its group),
# where a terminal's Ctrl-C sends one
kill -INT "$(pgrep -P $tg)"
wait $tg
rc=$?
[ $rc = 0 ] && tg_pass "Ctrl-C: stats exits 0" || tg_fail "Ctrl-C: stats exits 0" "exit $rc: $(cat "$w/s5.tg.err")"
"$TG" stats "$(relay_trace s5)" > "$w/s5.files" 2>&1
tg_same "Ctrl-C: stats of what arrived" "$w/s5.files" "$w/s5.tg"
end_session s5

# ---- convert and sql record a session until it is destroyed ---------------------------------
# (convert: without the compound event, whose empty text sequences babeltrace2 prints with a
# recycled text that depends on the packets' layout, which a conversion changes)
live_session s6 tg_fixture:ints,tg_fixture:floats_strings || tg_fail "create s6" "lttng create --live failed"
run_app
timeout 60 "$TG" convert --to ctf -o "$w/s6.ctf" "$(url s6)" > "$w/s6.out" 2>&1 &
tg=$!
tg_relay_clients s6 1 || tg_fail "attach s6" "traceglot did not attach in 20 s"
sleep 0.5 # a live timer's flush
end_session s6
wait $tg || tg_fail "convert --to ctf net://" "exit $?: $(cat "$w/s6.out")"
babeltrace2 "$(relay_trace s6)" > "$w/s6.files" 2>/dev/null
babeltrace2 "$w/s6.ctf" > "$w/s6.bt" 2>&1
tg_same "convert --to ctf net://: babeltrace2 reads the events" "$w/s6.files" "$w/s6.bt"
q="SELECT name, COUNT(*), MIN(ts), MAX(ts) FROM ftrace_event GROUP BY name ORDER BY name"
live_session s7 || tg_fail "create s7" "lttng create --live failed"
run_app
timeout 60 "$TG" sql --format csv -q "$q" "$(url s7)" > "$w/s7.tg" 2> "$w/s7.tg.err" &
tg=$!
tg_relay_clients s7 1 || tg_fail "attach s7" "traceglot did not attach in 20 s"
sleep 0.5
end_session s7
wait $tg || tg_fail "sql net://" "exit $?: $(cat "$w/s7.tg.err")"
"$TG" sql --format csv -q "$q" "$(relay_trace s7)" > "$w/s7.files" 2>&1
tg_same "sql net:// = sql of the relay's files" "$w/s7.files" "$w/s7.tg"

# ---- the relay killed mid-session ----------------------------------------------------------
live_session s4 || tg_fail "create s4" "lttng create --live failed"
mkdir -p "$w/spool"
TMPDIR=$w/spool timeout 60 "$TG" cat --style=babeltrace "$(url s4)" > "$w/s4.tg" 2> "$w/s4.tg.err" &
tg=$!
tg_relay_clients s4 1 || tg_fail "attach s4" "traceglot did not attach in 20 s"
run_app
caught_up s4 "$w/spool" || tg_fail "relay killed: caught up" "traceglot did not get the packets in 20 s"
tg_relay_kill
wait $tg
rc=$?
[ $rc = 1 ] && tg_pass "relay killed: exit 1" || tg_fail "relay killed: exit 1" "exit $rc"
grep -q "lttng-live: .*closed by the relay" "$w/s4.tg.err" && tg_pass "relay killed: says so" ||
    tg_fail "relay killed: says so" "$(cat "$w/s4.tg.err")"
babeltrace2 "$(relay_trace s4)" > "$w/s4.files" 2>/dev/null
tg_same "relay killed: the events read before" "$w/s4.files" "$w/s4.tg"
[ -z "$(ls -A "$w/spool")" ] && tg_pass "scratch folder removed" || tg_fail "scratch folder removed" "$(ls "$w/spool")"
tg_check_status "relay gone: cannot connect" 1 timeout 20 "$TG" cat "$(url s4)"
tg_done
