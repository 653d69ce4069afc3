#!/bin/bash
# discarded-warnings.sh - `traceglot cat` in the babeltrace style says on stderr what
# babeltrace2's text sink says there for discarded events and packets, byte for byte
# ("WARNING: Tracer discarded 2 packets between [...] and [...] in trace "..." (UUID: ...)
# within stream "..." (stream class ID: 0, stream ID: 0)."), and prints the same events on
# stdout; with the clock options that shape the warnings' times and those that do not.
#
#   discarded-warnings.sh TRACE...   CTF traces (LTTng fixtures, the corpus); the trace
#                                    make-discarded.py writes (packets lost alone, events
#                                    alone, both in one packet, a stream class without packet
#                                    times) always.
#                                    babeltrace2 runs here on each.
. "$(dirname "$0")/../lib.sh"

tg_need_cmd babeltrace2
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$TG_TESTS/ctf/make-discarded.py" "$TG_TMP/made" > /dev/null || tg_fail make-discarded.py "did not run"

compare() { # compare NAME TRACE OPTION...
    local name=$1 t=$2
    shift 2
    if ! timeout 300 babeltrace2 "$@" "$t" > "$TG_TMP/peer" 2> "$TG_TMP/peer.err"; then
        echo "note $name: babeltrace2 does not read it: not compared"
        return
    fi
    tg_check "$name $* (stdout)" "$TG_TMP/peer" "$TG" cat --style=babeltrace "$@" "$t"
    # babeltrace2's log lines (metadata it accepts with a warning, stamped with the time
    # and pid) and traceglot's own warning about them are another matter (ctf/golden-*)
    grep -Ev '^[0-9]{2}-[0-9]{2} [0-9:.]+ +[0-9]+ +[0-9]+ [WE] ' "$TG_TMP/peer.err" > "$TG_TMP/peer.said"
    grep -v '^traceglot: warning: .*/metadata: ' "$TG_TMP/err" > "$TG_TMP/said"
    tg_same "$name $* (stderr)" "$TG_TMP/peer.said" "$TG_TMP/said"
}

for t in "$TG_TMP"/made/* "$@"; do
    [ -d "$t" ] || continue
    name=$(basename "$t")
    compare "$name" "$t"
    for opts in --clock-seconds --clock-gmt "--clock-date --clock-gmt" "--clock-date" \
        --clock-cycles "--clock-seconds --no-delta" "--names=all --fields=all"; do
        # shellcheck disable=SC2086 # the options are words
        compare "$name" "$t" $opts
    done
done
tg_done
