#!/bin/bash
# report-options.sh - the trace-cmd style with each trace-cmd report option it takes (-F
# filters, -v, --pid, --cpu ranges, -w, --stat, -E, -P, --ts-diff, -q, -l, -N, -G,
# -i FILE --ts-offset) prints what
# `trace-cmd report` prints with it, byte for byte; where trace-cmd refuses the option (a
# filter naming no event, a filter it cannot parse), traceglot refuses it too (exit 2).
#
#   report-options.sh DIR            the fixtures: the outputs record-report-options.sh kept
#                                    from the real trace-cmd in DIR/report-options/
#   report-options.sh --live DIR...  other trace.dat files (the corpus): trace-cmd runs here
#                                    with every option of report-options.txt
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/report-options-lib.sh"

check_one() { # check_one NAME ID EXPECTED_OUT|"" EXPECTED_FAILS|"" DAT ARGS
    local name=$1 id=$2 exp=$3 fails=$4 dat=$5 args=$6
    tc_argv "$dat" "$args"
    if [ -n "$fails" ]; then
        tg_run "$TG" cat --style=trace-cmd "${tc_args[@]}"
        local rc=$?
        if [ "$rc" = 2 ]; then
            tg_pass "$name $id: refused, as trace-cmd ($(cat "$fails"))"
        else
            tg_fail "$name $id" "exit $rc where trace-cmd refuses the option ($(cat "$fails"))"
        fi
        return
    fi
    tg_check "$name $id" "$exp" "$TG" cat --style=trace-cmd "${tc_args[@]}"
}

if [ "${1:-}" = --live ]; then
    shift
    tg_need_cmd trace-cmd
    found=0 fixture_no=0
    for dir in "$@"; do
        for dat in "$dir"/*.dat; do
            [ -f "$dat" ] || continue
            found=1
            fixture_no=$((fixture_no + 1))
            option_no=0
            name=$(basename "$dat" .dat)
            trace-cmd report "$dat" > "$TG_TMP/plain" 2>/dev/null
            pids=$(tc_pids "$TG_TMP/plain")
            while IFS=$'\t' read -r id args; do
                option_no=$((option_no + 1))
                tg_matrix_sampled "$fixture_no" "$option_no" || continue
                tc_argv "$dat" "$args"
                trace-cmd report "${tc_args[@]}" > "$TG_TMP/peer" 2> "$TG_TMP/peer.err"
                rc=$?
                # trace-cmd 3.1.6 now and then prints raw timestamps ("[000]3263408978039:")
                # on the qemu trace: a second run that disagrees calls for a third, whose
                # output one of the two others must equal (that one is compared)
                trace-cmd report "${tc_args[@]}" > "$TG_TMP/peer2" 2> /dev/null
                if ! cmp -s "$TG_TMP/peer" "$TG_TMP/peer2"; then
                    trace-cmd report "${tc_args[@]}" > "$TG_TMP/peer3" 2> /dev/null
                    echo "note $name $id: trace-cmd printed two outputs, the one twice compared"
                    cmp -s "$TG_TMP/peer2" "$TG_TMP/peer3" && cp "$TG_TMP/peer2" "$TG_TMP/peer"
                fi
                if [ "$rc" -gt 128 ] && [ "$rc" -lt 255 ]; then
                    echo "note $name $id: trace-cmd crashes (exit $rc): not compared"
                elif [ "$rc" != 0 ]; then
                    tail -n 1 "$TG_TMP/peer.err" > "$TG_TMP/peer.fails"
                    check_one "$name" "$id" "" "$TG_TMP/peer.fails" "$dat" "$args"
                else
                    check_one "$name" "$id" "$TG_TMP/peer" "" "$dat" "$args"
                fi
            done < <(tc_option_lines "$TG_TESTS/ftrace/report-options.txt" "$pids")
        done
    done
    [ "$found" = 1 ] || tg_skip "no trace.dat files in: $*"
    tg_done
fi

dir=${1:?usage: report-options.sh DIR | --live DIR...}
opts=$dir/report-options
tg_need_dir "$opts"
# Under the sanitizers (TG_SAMPLE > 1) an option runs on one fixture in TG_SAMPLE (77 of the
# 87 options and 54 of the 55 fixtures at 8); the plain suite runs the whole matrix.
fixture_no=0
for dat in "$dir"/*.dat; do
    [ -f "$dat" ] || continue
    base=$(basename "$dat" .dat)  # NAME-VERSION
    name=${base%-v*}
    [ -f "$opts/$name.args" ] || continue
    fixture_no=$((fixture_no + 1))
    option_no=0
    while IFS=$'\t' read -r id args; do
        option_no=$((option_no + 1))
        tg_matrix_sampled "$fixture_no" "$option_no" || continue
        exp=$opts/$base.$id.txt
        [ -e "$exp" ] || exp=$opts/$name.$id.txt
        fails=$opts/$name.$id.fails
        [ -f "$fails" ] || fails=""
        if [ -z "$fails" ] && [ ! -e "$exp" ]; then
            tg_fail "$base $id" "no recorded output (run tests/ftrace/record-report-options.sh)"
            continue
        fi
        check_one "$base" "$id" "$exp" "$fails" "$dat" "$args"
    done < <(grep -v '^#' "$opts/$name.args")
done
tg_done
