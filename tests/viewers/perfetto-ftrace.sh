#!/bin/bash
# perfetto-ftrace.sh - kernel traces in Perfetto output are Perfetto's own ftrace events: the
# protoc decoding (Perfetto's schema) of each conversion holds, per CPU and in its order,
# the context switches the peer tool prints (time, prev and next pid, prev state), whether
# written as sched_switch messages or compact sched arrays, and each CPU's bundles follow
# one another in time (perfetto_sched.py).  trace.dat v6/v7 (project fixtures, the corpus):
# `trace-cmd report -R -t`, and every event of the file is in the bundles under its name
# (the Chrome JSON's sched_switch args, typed JSON values, equal the report's too);
# LTTng kernel CTF (the corpus's LTTng kernel trace and the trace make-lttng-kernel.py
# writes in lttng-modules' shape): `babeltrace2 --clock-seconds`;
# LTTng 0.x: LTTV's text dump recorded beside the corpus trace, and `traceglot cat` for the
# project's fixtures (LTTV is not packaged).  Skips without protoc, trace-cmd, babeltrace2
# or the schema.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd protoc
tg_need_cmd trace-cmd
tg_need_cmd babeltrace2
proto=$TG_CORPUS/../specs/perfetto_trace.proto
[ -f "$proto" ] || tg_skip "$proto not found"
here=$TG_TESTS/viewers
sched() { (cd "$here" && /usr/bin/python3 perfetto_sched.py "$@"); }

decode() { # decode NAME INPUT: the conversion's protoc text in $TG_TMP/ours.txt
    tg_run "$TG" convert --to perfetto --force -o "$TG_TMP/ours.pftrace" "$2" &&
        protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
            "$(basename "$proto")" <"$TG_TMP/ours.pftrace" >"$TG_TMP/ours.txt" 2>"$TG_TMP/err" ||
        { tg_fail "$1" "convert or protoc failed: $(head -c 300 "$TG_TMP/err")"; return 1; }
}

switches() { # switches NAME EXPECTED-ROWS
    if sched perfetto "$TG_TMP/ours.txt" >"$TG_TMP/ours.rows" 2>"$TG_TMP/summary"; then
        tg_same "$1: switches per cpu ($(cat "$TG_TMP/summary"))" "$2" "$TG_TMP/ours.rows"
    else
        tg_fail "$1" "$(cat "$TG_TMP/summary")"
    fi
}

for dat in "$TG_TEST_DATA"/ftrace/*.dat "$TG_CORPUS"/gen/ftrace/*.dat "$TG_CORPUS"/ftrace/*.dat \
    "$TG_CORPUS"/ftrace-func/*.dat; do
    [ -f "$dat" ] || continue
    name=$(basename "$dat")
    decode "$name" "$dat" || continue
    trace-cmd report -R -t "$dat" >"$TG_TMP/report.txt" 2>/dev/null
    sched trace-cmd "$TG_TMP/report.txt" >"$TG_TMP/theirs.rows"
    switches "$name" "$TG_TMP/theirs.rows"
    case $name in fgraph-*) continue ;; esac # function_graph calls are slices, not ftrace events
    sched perfetto-counts "$TG_TMP/ours.txt" >"$TG_TMP/ours.counts"
    sched trace-cmd-counts "$TG_TMP/report.txt" >"$TG_TMP/theirs.counts"
    tg_same "$name: events per name" "$TG_TMP/theirs.counts" "$TG_TMP/ours.counts"
    # the Chrome JSON of the same file: sched_switch fields as typed JSON values
    tg_run "$TG" convert --to chrome --force -o "$TG_TMP/ours.json" "$dat"
    sched trace-cmd-comm "$TG_TMP/report.txt" >"$TG_TMP/theirs.comm"
    if sched chrome "$TG_TMP/ours.json" >"$TG_TMP/ours.comm" 2>"$TG_TMP/err"; then
        tg_same "$name: chrome sched_switch args, typed" "$TG_TMP/theirs.comm" "$TG_TMP/ours.comm"
    else
        tg_fail "$name: chrome sched_switch args" "$(cat "$TG_TMP/err")"
    fi
done

/usr/bin/python3 "$TG_TESTS/viewers/make-lttng-kernel.py" "$TG_TMP/lttng-kernel" >/dev/null ||
    tg_fail "make-lttng-kernel.py" "could not write the trace"
for t in "$TG_TMP/lttng-kernel" "$TG_CORPUS"/ctf-classes/flipping-endianness; do
    [ -f "$t/metadata" ] || continue
    decode "$(basename "$t")" "$t" || continue
    babeltrace2 --clock-seconds "$t" >"$TG_TMP/bt.txt" 2>/dev/null
    sched babeltrace2 "$TG_TMP/bt.txt" >"$TG_TMP/theirs.rows"
    [ -s "$TG_TMP/theirs.rows" ] || tg_fail "$(basename "$t")" "babeltrace2 shows no sched_switch"
    switches "$(basename "$t") (babeltrace2)" "$TG_TMP/theirs.rows"
done

for t in "$TG_CORPUS"/lttng0/*; do
    [ -d "$t" ] && [ -f "$t.lttv-textdump.txt" ] || continue
    decode "$(basename "$t")" "$t" || continue
    sched lttv "$t.lttv-textdump.txt" >"$TG_TMP/theirs.rows"
    switches "$(basename "$t") (LTTV)" "$TG_TMP/theirs.rows"
done
for t in "$TG_TEST_DATA"/lttng0/*/; do
    t=${t%/}
    decode "$(basename "$t")" "$t" || continue
    tg_run "$TG" cat "$t"
    sched native "$TG_TMP/out" >"$TG_TMP/theirs.rows"
    switches "$(basename "$t") (native)" "$TG_TMP/theirs.rows"
done
tg_done
