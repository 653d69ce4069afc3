#!/bin/bash
# bt-spellings.sh - babeltrace2's own command lines, typed to traceglot: `traceglot convert
# [OPTIONS] TRACE` (babeltrace2's convert: no --to) and `traceglot run -c NAME:CLASS -p
# PARAMS ... -x A:B` print what babeltrace2 prints, byte for byte, TZ=UTC.
#
#   bt-spellings.sh DATADIR   the CTF fixtures (types, cyg, rotation): every option line
#                             record-babeltrace-options.sh recorded (babeltrace-options/T.ID.txt,
#                             T.ID.fails) through `convert`; run's graphs of the same
#                             outputs (source.ctf.fs, filter.utils.muxer, filter.utils.trimmer,
#                             sink.text.pretty's booleans); `-o ctf -w DIR` and run's
#                             sink.ctf.fs read back by babeltrace2 (when installed) giving
#                             the trace's own text; what cannot be honoured refused (exit 2).
. "$(dirname "$0")/../lib.sh"
export TZ=UTC
data=${1:?usage: bt-spellings.sh DATADIR}
opts=$data/babeltrace-options
tg_need_dir "$opts"

graph() { # graph TRACE [PRETTY-PARAMS [TRIMMER-PARAMS]]: run's arguments
    local t=$1 pretty=${2:-} trim=${3:-}
    echo -c src:src.ctf.fs -p "inputs=[\"$t\"]" -c mux:filter.utils.muxer
    if [ -n "$trim" ]; then
        echo -c trim:flt.utils.trimmer -p "$trim"
    fi
    echo -c out:sink.text.pretty
    [ -n "$pretty" ] && echo -p "$pretty"
    if [ -n "$trim" ]; then
        echo -x src:mux -x mux:trim -x trim:out
    else
        echo -x src:mux -x mux:out
    fi
}

for args_file in "$opts"/*.args; do
    t=$(basename "$args_file" .args)
    trace=$data/$t
    [ -d "$trace" ] || continue
    # convert: every recorded option line
    while IFS=$'\t' read -r id args; do
        eval "set -- $args"
        if [ -f "$opts/$t.$id.fails" ]; then
            tg_check_status "$t convert $id: refused, as babeltrace2 refuses it" 2 \
                "$TG" convert "$@" "$trace"
        else
            tg_check "$t convert $id" "$opts/$t.$id.txt" "$TG" convert "$@" "$trace"
        fi
    done < <(grep -v '^#' "$args_file")
    tg_check "$t convert -o text -i ctf" "$data/$t.babeltrace2.txt" \
        "$TG" convert -o text --input-format=ctf "$trace"
    # run: the graphs of the same outputs
    # shellcheck disable=SC2046 # the graph's words, one per line, paths without spaces
    tg_check "$t run" "$data/$t.babeltrace2.txt" "$TG" run $(graph "$trace")
    for pair in "no-delta:no-delta=yes" "cycles:clock-cycles=true" "date:clock-date=yes" \
        "gmt:clock-gmt=yes" "seconds-no-delta:clock-seconds=yes,no-delta=yes"; do
        id=${pair%%:*}
        [ -e "$opts/$t.$id.txt" ] || continue
        # shellcheck disable=SC2046
        tg_check "$t run $id" "$opts/$t.$id.txt" "$TG" run $(graph "$trace" "${pair#*:}")
    done
    range=$(awk -F'\t' '$1 == "range-tod" { print $2 }' "$args_file")
    if [ -e "$opts/$t.range-tod.txt" ] && [ -n "$range" ]; then
        b=${range#--begin=}
        b=${b%% *}
        e=${range##*--end=}
        # shellcheck disable=SC2046
        tg_check "$t run range-tod" "$opts/$t.range-tod.txt" \
            "$TG" run $(graph "$trace" "" "begin=\"$b\",end=\"$e\"")
    fi
    # -o ctf: the CTF written, read back by babeltrace2, prints the trace's text.  Known
    # difference: rotation's texts that decode empty, which babeltrace2 shows with the text
    # an earlier event of the same stream file left (the CTF writer writes one stream, so
    # that earlier event is another one there).
    if [ "$t" = rotation ]; then
        echo "note $t -o ctf: not read back (known difference: babeltrace2's recycled texts)"
    elif command -v babeltrace2 > /dev/null; then
        rm -rf "$TG_TMP/ctf" "$TG_TMP/ctf-run"
        tg_run "$TG" convert -o ctf -w "$TG_TMP/ctf" "$trace"
        rc=$?
        babeltrace2 "$trace" > "$TG_TMP/want" 2> /dev/null
        if [ "$rc" != 0 ]; then
            tg_fail "$t convert -o ctf" "exit $rc: $(head -c 200 "$TG_TMP/err")"
        else
            babeltrace2 "$TG_TMP/ctf" > "$TG_TMP/got" 2> "$TG_TMP/got.err"
            tg_same "$t convert -o ctf, read back by babeltrace2" "$TG_TMP/want" "$TG_TMP/got"
        fi
        tg_run "$TG" run -c s:src.ctf.fs -p "inputs=[\"$trace\"]" -c m:filter.utils.muxer \
            -c k:sink.ctf.fs -p "path=\"$TG_TMP/ctf-run\"" -x s:m -x m:k
        rc=$?
        if [ "$rc" != 0 ]; then
            tg_fail "$t run sink.ctf.fs" "exit $rc: $(head -c 200 "$TG_TMP/err")"
        else
            babeltrace2 "$TG_TMP/ctf-run" > "$TG_TMP/got" 2> /dev/null
            tg_same "$t run sink.ctf.fs, read back by babeltrace2" "$TG_TMP/want" "$TG_TMP/got"
        fi
    else
        echo "note: babeltrace2 is not installed: -o ctf not read back"
    fi
    tg_check_status "$t convert -o dummy" 0 "$TG" convert -o dummy "$trace"
    [ -s "$TG_TMP/out" ] && tg_fail "$t convert -o dummy" "printed something"
done

# what traceglot cannot honour: refused by name, exit 2
t=$data/cyg
tg_said "convert -o ctf-metadata" 2 "ctf-metadata" "$TG" convert -o ctf-metadata "$t"
tg_said "convert -o ctf without -w" 2 "--output" "$TG" convert -o ctf "$t"
tg_said "convert --run-args" 2 "--run-args" "$TG" convert --run-args "$t"
tg_said "convert -i lttng-live" 2 "lttng-live" "$TG" convert -i lttng-live "$t"
tg_said "convert -c a filter traceglot lacks" 2 "filter.lttng-utils.debug-info" \
    "$TG" convert -c filter.lttng-utils.debug-info "$t"
tg_said "run: a source traceglot lacks" 2 "src.text.dmesg" \
    "$TG" run -c s:src.text.dmesg -c k:sink.text.pretty -x s:k
tg_said "run: a parameter of sink.text.pretty traceglot lacks" 2 "verbose" \
    "$TG" run -c s:src.ctf.fs -p "inputs=[\"$t\"]" -c k:sink.text.pretty -p verbose=yes -x s:k
tg_said "run: an unnamed component" 2 "NAME:TYPE.PLUGIN.CLASS" \
    "$TG" run -c src.ctf.fs -p "inputs=[\"$t\"]" -c k:sink.text.pretty -x s:k
tg_said "run: no connection" 2 "--connect" \
    "$TG" run -c s:src.ctf.fs -p "inputs=[\"$t\"]" -c k:sink.text.pretty
tg_done
