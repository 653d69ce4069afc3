#!/usr/bin/env bash
# peer-spellings.sh - the peers' own spellings of what a user types out of habit, each
# byte for byte what the peer prints, run live against it on the project's fixtures:
#   uftrace      replay/report/graph/info -d DIR; graph -d DIR FUNC; graph FUNC DIR
#   trace-cmd    report -i FILE, --cpus, --first-event, --last-event (with -t), -e, --uname
#   babeltrace2  --timerange=BEGIN,END and [BEGIN,END]
# and the peers' commands traceglot does not have refused by name (exit 2), never silence.
. "$(dirname "$0")/../lib.sh"

uf=$TG_TEST_DATA/uftrace/cxx.data
ftrace=$TG_TEST_DATA/ftrace
ctf=$TG_TEST_DATA/ctf/cyg
for f in "$uf" "$ftrace" "$ctf"; do [ -e "$f" ] || tg_skip "no $f"; done

# peer_same NAME PEER-CMD... -- TRACEGLOT-ARGS...: both exit 0 and print the same bytes
peer_same() {
    local name=$1 peer=()
    shift
    while [ "$1" != "--" ]; do peer+=("$1"); shift; done
    shift
    "${peer[@]}" > "$TG_TMP/want" 2> /dev/null || { tg_fail "$name" "the peer failed: ${peer[*]}"; return; }
    tg_run "$TG" "$@" && tg_same "$name" "$TG_TMP/want" "$TG_TMP/out" ||
        tg_fail "$name" "exit $? $(head -c 300 "$TG_TMP/err")"
}

if command -v uftrace > /dev/null; then
    peer_same "replay -d DIR = uftrace replay -d DIR" uftrace replay -d "$uf" -- replay -d "$uf"
    peer_same "replay --data=DIR" uftrace replay --data="$uf" -- replay --data="$uf"
    peer_same "report -d DIR -s call = uftrace's" uftrace report -d "$uf" -s call -- report -d "$uf" -s call
    peer_same "graph -d DIR = uftrace graph -d DIR" uftrace graph -d "$uf" -- graph -d "$uf"
    peer_same "graph -d DIR main = uftrace graph -d DIR main" uftrace graph -d "$uf" main -- graph -d "$uf" main
    peer_same "graph main DIR (uftrace's order)" uftrace graph -d "$uf" main -- graph main "$uf"
else
    echo "note: uftrace is not installed: its -d spellings not compared"
fi
"$TG" info "$uf" > "$TG_TMP/want"
tg_run "$TG" info -d "$uf" && tg_same "info -d DIR = info DIR" "$TG_TMP/want" "$TG_TMP/out" ||
    tg_fail "info -d DIR" "$(cat "$TG_TMP/err")"
tg_said "graph -d DIR FUNC FUNC: one FUNC" 2 "one FUNC at most" "$TG" graph -d "$uf" main foo

if command -v trace-cmd > /dev/null; then
    for f in "$ftrace"/*-v6.dat "$ftrace"/all-events-v7zstd.dat; do
        n=${f##*/}
        for o in --cpus --first-event --last-event "--first-event --last-event" "-t --last-event" -e --uname; do
            # shellcheck disable=SC2086
            peer_same "$n: report -i FILE $o" trace-cmd report -i "$f" $o -- cat --style=trace-cmd -i "$f" $o
        done
    done
else
    echo "note: trace-cmd is not installed: its report options not compared"
fi
tg_said "--cpus of a uftrace trace: trace.dat only" 2 "trace.dat files only" \
    "$TG" cat --style=trace-cmd --cpus "$uf"

if command -v babeltrace2 > /dev/null; then
    first=$(babeltrace2 --clock-gmt "$ctf" | sed -n '3s/^\[\([^]]*\)\].*/\1/p')
    last=$(babeltrace2 --clock-gmt "$ctf" | sed -n '12s/^\[\([^]]*\)\].*/\1/p')
    peer_same "--timerange=B,E = babeltrace2's" babeltrace2 --clock-gmt --timerange="$first,$last" "$ctf" \
        -- cat --style=babeltrace --clock-gmt --timerange="$first,$last" "$ctf"
    peer_same "--timerange [B,E] = babeltrace2's" babeltrace2 --clock-gmt --timerange "[$first,$last]" "$ctf" \
        -- cat --style=babeltrace --clock-gmt --timerange "[$first,$last]" "$ctf"
    [ "$(wc -l < "$TG_TMP/out")" = 10 ] && tg_pass "--timerange selects the 10 events" ||
        tg_fail "--timerange selects the 10 events" "$(wc -l < "$TG_TMP/out") lines"
else
    echo "note: babeltrace2 is not installed: --timerange not compared"
fi
tg_said "--timerange without a comma" 2 "expecting BEGIN,END" "$TG" cat --style=babeltrace --timerange=5 "$ctf"
tg_said "--timerange under another style" 2 "does not take --timerange" "$TG" cat --timerange=1,2 "$ctf"

# the peers' commands traceglot does not have: refused by name
for v in "split trace-cmd"; do
    set -- $v
    tg_said "traceglot $1: $2's command, refused" 2 "'$1' is $2's command" "$TG" "$1" "$uf"
done
# trace-cmd hist is traceglot's (tests/ftrace/hist.sh compares it): another format is refused
tg_said "hist of a uftrace recording refused" 2 "trace-cmd hist reads one trace.dat" \
    "$TG" hist "$uf"
# uftrace's dump is traceglot's (tests/uftrace/golden-options.sh compares it); what it does not
# take is refused by name, and a trace of another format is no uftrace recording
tg_said "dump --chrome refused by name" 2 "'--chrome'" "$TG" dump --chrome "$uf"
tg_said "dump of a trace.dat refused" 1 "not a uftrace recording" "$TG" dump \
    "$TG_TEST_DATA/ftrace/all-events-v6.dat"
tg_done
