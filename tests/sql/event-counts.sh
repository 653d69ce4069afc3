#!/bin/bash
# event-counts.sh - the ftrace_event table holds every event: per event name, its rows are
# the events `trace-cmd report` prints (trace.dat: the corpus's and the project's fixtures,
# except function_graph files, where trace-cmd folds an entry and its exit into one line) and
# the events babeltrace2 prints (CTF: the corpus's and the fixtures; babeltrace2's compact
# details output, one line per event, so names with spaces read right), with the tracer's
# lost-events records as its lost lines; and babeltrace2's text has one line per row.
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
q="SELECT name, count(*) AS n FROM ftrace_event GROUP BY name ORDER BY name"
n=0

ours() { # NAME TRACE -> $TG_TMP/ours.csv, or a failure
    if tg_run "$TG" sql --format csv "$2" -q "$q"; then
        cp "$TG_TMP/out" "$TG_TMP/ours.csv"
        return 0
    fi
    tg_fail "$1" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
    return 1
}

if command -v trace-cmd >/dev/null; then
    for f in "$TG_CORPUS"/ftrace/*.dat "$TG_CORPUS"/gen/ftrace/*.dat "$TG_CORPUS"/mixed/*.dat \
             "$TG_TEST_DATA"/ftrace/*.dat; do
        [ -f "$f" ] || continue
        case $(basename "$f") in *fgraph* | *funcgraph* | *func-graph*) continue ;; esac
        trace-cmd report "$f" >"$TG_TMP/report.txt" 2>/dev/null || continue
        grep -q "funcgraph_" "$TG_TMP/report.txt" && continue
        name="trace-cmd $(basename "$f")"
        ours "$name" "$f" || continue
        /usr/bin/python3 "$TG_TESTS/sql/count-events.py" trace-cmd "$TG_TMP/report.txt" >"$TG_TMP/peer.csv"
        tg_same "$name" "$TG_TMP/peer.csv" "$TG_TMP/ours.csv"
        n=$((n + 1))
    done
fi
if command -v babeltrace2 >/dev/null; then
    for t in "$TG_CORPUS"/ctf/babeltrace/succeed/* "$TG_CORPUS"/ctf-classes/* \
             "$TG_CORPUS"/gen/ctf/* "$TG_CORPUS"/mixed/ust "$TG_TEST_DATA"/ctf/*; do
        [ -d "$t" ] || continue
        babeltrace2 -c sink.text.details --params=with-metadata=false,compact=true "$t" \
            >"$TG_TMP/details.txt" 2>/dev/null || continue
        name="babeltrace2 ${t#"$TG_CORPUS"/}"
        ours "$name" "$t" || continue
        /usr/bin/python3 "$TG_TESTS/sql/count-events.py" babeltrace2 "$TG_TMP/details.txt" >"$TG_TMP/peer.csv"
        tg_same "$name" "$TG_TMP/peer.csv" "$TG_TMP/ours.csv"
        lines=$(babeltrace2 "$t" 2>/dev/null | wc -l)
        rows=$(awk -F, 'NR > 1 && $1 != "\"lost events\"" { s += $NF } END { print s + 0 }' "$TG_TMP/ours.csv")
        if [ "$lines" = "$rows" ]; then
            tg_pass "$name: $rows rows = babeltrace2's lines"
        else
            tg_fail "$name" "$rows rows, babeltrace2 printed $lines lines"
        fi
        n=$((n + 1))
    done
fi
[ "$n" -gt 0 ] || tg_skip "neither trace-cmd nor babeltrace2 is installed, or no traces"
tg_done
