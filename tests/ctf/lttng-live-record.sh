#!/bin/bash
# lttng-live-record.sh - the commands that answer or write at the end of a live session:
# `sql` and `convert` read the session until Ctrl-C or its destroy, then answer for (or
# write) what arrived.  One session of the test's own daemons (relay-daemons.sh: isolated,
# stopped by pid), where the UST program (tg_fixture_app.c) fired its 36 events, read in turn
# (each viewer from the relay's first packet):
#   - sql, stopped by Ctrl-C once every packet came: = sql on the relay's copy, exit 0
#   - cat, stopped by Ctrl-C: babeltrace2's text of the relay's copy, exit 0
#   - convert --to perfetto, stopped by Ctrl-C: the bytes `convert --to perfetto` writes from
#     the relay's copy; protoc decodes as many track events as babeltrace2 prints events
#   - convert --to sqlite, until the session is destroyed: sqlite3's counts per event name =
#     sql's on the relay's copy, and as many events as babeltrace2 prints
# Every wait is bounded; SKIP where the daemons cannot start.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/relay-daemons.sh"
tg_relay_isolate "$@"
. "$here/../lib.sh"
tg_need_cmd sqlite3
tg_need_cmd protoc
proto=$TG_CORPUS/../specs/perfetto_trace.proto
[ -f "$proto" ] || tg_skip "no Perfetto schema at $proto"
w=$TG_TMP
tg_relay_start "$w"
url="net://127.0.0.1:$relay_live/host/$(hostname)/rec"
data_bytes() { find "$@" -type f -name 'channel*' ! -path '*/index/*' -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
# waits (at most 20 s) until traceglot's scratch folders under SPOOL hold every packet of
# the relay's copy of the session
caught_up() {
    local r sp
    for _ in $(seq 200); do
        r=$(data_bytes "$w/relay"/*/rec-*) sp=$(data_bytes "$1")
        [ "$r" -gt 0 ] && [ "$r" = "$sp" ] && return 0
        sleep 0.1
    done
    return 1
}
# ctrl_c NAME PID SPOOL: Ctrl-C to traceglot (the child of timeout PID) once it caught up
ctrl_c() {
    tg_relay_clients rec 1 || tg_fail "$1: attach" "traceglot did not attach in 20 s"
    caught_up "$3" || tg_fail "$1: caught up" "traceglot did not get the packets in 20 s"
    # to traceglot itself: timeout(1) would send its signal twice (to the child and its
    # group), where a terminal's Ctrl-C sends one
    kill -INT "$(pgrep -P "$2")"
    wait "$2"
    local rc=$?
    [ $rc = 0 ] && tg_pass "$1: Ctrl-C, exit 0" || tg_fail "$1: Ctrl-C, exit 0" "exit $rc: $(head -c 300 "$w/err")"
    tg_relay_clients rec 0 || tg_fail "$1: detach" "still attached after 20 s"
}

lttng create rec --live=100000 --set-url="net://127.0.0.1:$relay_ctl:$relay_data" >/dev/null &&
    lttng enable-event -u -s rec 'tg_fixture:*' >/dev/null &&
    lttng add-context -u -s rec -t vpid -t vtid -t procname >/dev/null &&
    lttng start rec >/dev/null || tg_fail "create the session" "lttng create --live failed"
LTTNG_UST_ALLOW_BLOCKING=1 "$w/app" >/dev/null
relay_trace() { dirname "$(find "$w/relay" -path "*/rec-*" -name metadata | head -1)"; }

# ---- sql, Ctrl-C -----------------------------------------------------------------------------
q="SELECT name, COUNT(*), MIN(ts), MAX(ts) FROM ftrace_event GROUP BY name ORDER BY name"
mkdir -p "$w/spool1"
TMPDIR=$w/spool1 timeout 60 "$TG" sql --format csv -q "$q" "$url" > "$w/sql.tg" 2> "$w/err" &
ctrl_c "sql" $! "$w/spool1"
"$TG" sql --format csv -q "$q" "$(relay_trace)" > "$w/sql.files" 2>&1
tg_same "sql net://, Ctrl-C = sql of the relay's copy" "$w/sql.files" "$w/sql.tg"
grep -q '^"\?tg_fixture:compound"\?,12,' "$w/sql.tg" && tg_pass "sql: 12 compound events" ||
    tg_fail "sql: 12 compound events" "$(cat "$w/sql.tg")"
babeltrace2 "$(relay_trace)" > "$w/files.bt" 2>/dev/null
events=$(wc -l < "$w/files.bt")
[ "$events" = 36 ] && tg_pass "babeltrace2: 36 events" || tg_fail "babeltrace2: 36 events" "$events"

# ---- cat, Ctrl-C: what was shown, then the rest of what arrived ------------------------------
mkdir -p "$w/spool0"
TMPDIR=$w/spool0 timeout 60 "$TG" cat --style=babeltrace "$url" > "$w/cat.tg" 2> "$w/err" &
ctrl_c "cat" $! "$w/spool0"
tg_same "cat net://, Ctrl-C = babeltrace2 on the relay's copy" "$w/files.bt" "$w/cat.tg"

# ---- convert --to perfetto, Ctrl-C ----------------------------------------------------------
mkdir -p "$w/spool2"
TMPDIR=$w/spool2 timeout 60 "$TG" convert --to perfetto -o "$w/rec.pftrace" "$url" > "$w/err" 2>&1 &
ctrl_c "convert --to perfetto" $! "$w/spool2"
"$TG" convert --to perfetto -o "$w/files.pftrace" "$(relay_trace)" > /dev/null 2>&1
cmp -s "$w/files.pftrace" "$w/rec.pftrace" &&
    tg_pass "convert --to perfetto net:// = its conversion of the relay's copy" ||
    tg_fail "convert --to perfetto net:// = its conversion of the relay's copy" "$(ls -l "$w"/*.pftrace)"
protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
    "$(basename "$proto")" < "$w/rec.pftrace" > "$w/rec.decoded" 2> "$w/protoc.err"
n=$(grep -c 'type: TYPE_INSTANT' "$w/rec.decoded")
[ "$n" = "$events" ] && tg_pass "perfetto: protoc reads $events instant events" ||
    tg_fail "perfetto: protoc reads $events instant events" "$n: $(head -c 300 "$w/protoc.err")"

# ---- convert --to sqlite, until the destroy -------------------------------------------------
timeout 60 "$TG" convert --to sqlite -o "$w/rec.db" "$url" > "$w/err" 2>&1 &
tg=$!
tg_relay_clients rec 1 || tg_fail "convert --to sqlite: attach" "traceglot did not attach in 20 s"
sleep 0.5 # a live timer's flush
lttng stop rec >/dev/null 2>&1
lttng destroy rec >/dev/null 2>&1
wait $tg
rc=$?
[ $rc = 0 ] && tg_pass "convert --to sqlite ends at the destroy" ||
    tg_fail "convert --to sqlite ends at the destroy" "exit $rc: $(head -c 300 "$w/err")"
q2="SELECT name, COUNT(*) FROM ftrace_event GROUP BY name ORDER BY name"
sqlite3 -csv -header "$w/rec.db" "$q2" > "$w/db.csv" 2>&1
"$TG" sql --format csv -q "$q2" "$(relay_trace)" > "$w/db.files" 2>&1
tg_same "convert --to sqlite net://: sqlite3's counts = sql's on the relay's copy" "$w/db.files" "$w/db.csv"
[ "$(wc -l < "$w/db.csv")" = 4 ] && tg_pass "sqlite: three event names" ||
    tg_fail "sqlite: three event names" "$(cat "$w/db.csv")"
n=$(sqlite3 "$w/rec.db" "SELECT COUNT(*) FROM ftrace_event" 2>&1)
[ "$n" = "$events" ] && tg_pass "sqlite: $events events" || tg_fail "sqlite: $events events" "$n"
tg_done
