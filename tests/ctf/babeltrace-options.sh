#!/bin/bash
# babeltrace-options.sh - the babeltrace style with each babeltrace2 option it takes
# (babeltrace-options.txt) prints what babeltrace2 prints with it, byte for byte; where
# babeltrace2 refuses the option, traceglot refuses it too (exit 2).  TZ=UTC.
#
#   babeltrace-options.sh DIR              the CTF fixtures: the outputs record-babeltrace-
#                                          options.sh kept in DIR/babeltrace-options/
#   babeltrace-options.sh --live TRACE...  CTF traces (the corpus): babeltrace2 runs here
#   babeltrace-options.sh --made           the CTF traces make-strings.py and make-threads.py
#                                          write: babeltrace2 runs here
#   babeltrace-options.sh --converted PATH...  traces of the other formats: babeltrace2 runs on
#                                          the CTF `traceglot convert --to ctf` writes of
#                                          each, and `traceglot cat --style=babeltrace PATH`
#                                          must print what it prints
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/babeltrace-options-lib.sh"
export TZ=UTC
# The sanitizer suite runs a rotating sample of the (trace, option) cases
# (tg_matrix_sampled); the plain suite runs them all.
fixture_no=0

check_one() { # check_one NAME ID EXPECTED_OUT|"" EXPECTED_FAILS|"" INPUT ARGS
    local name=$1 id=$2 exp=$3 fails=$4 input=$5 args=$6
    eval "set -- $args"
    if [ -n "$fails" ]; then
        tg_run "$TG" cat --style=babeltrace "$@" "$input"
        local rc=$?
        if [ "$rc" = 2 ]; then
            tg_pass "$name $id: refused, as babeltrace2 refuses it"
        else
            tg_fail "$name $id" "exit $rc where babeltrace2 refuses the option ($(head -c 150 "$fails"))"
        fi
        return
    fi
    tg_check "$name $id" "$exp" "$TG" cat --style=babeltrace "$@" "$input"
}

# live NAME CTF INPUT: every option, babeltrace2 on CTF, traceglot on INPUT
live() {
    local name=$1 ctf=$2 input=$3 times id args rc option_no=0
    fixture_no=$((fixture_no + 1))
    times=$(bt_times "$ctf")
    while IFS=$'\t' read -r id args; do
        option_no=$((option_no + 1))
        tg_matrix_sampled "$fixture_no" "$option_no" || continue
        # Known difference: with --stream-intersection babeltrace2 trims each stream before
        # its muxer, which changes the order it decodes in, so the recycled text it shows
        # for a text that decodes empty (make-strings.py's kernel-empty-strings) is not the
        # one the CTF reader replays (it replays the muxer's order and the --begin/--end
        # trimmer's).
        if [ "$name" = kernel-empty-strings ] && [ "${id#stream-intersection}" != "$id" ]; then
            echo "note $name $id: known difference (babeltrace2's recycled empty texts)"
            continue
        fi
        eval "set -- $args"
        timeout 300 babeltrace2 "$@" "$ctf" > "$TG_TMP/peer" 2> "$TG_TMP/peer.err"
        rc=$?
        if [ "$rc" -gt 128 ]; then
            echo "note $name $id: babeltrace2 crashes (exit $rc): not compared"
        elif [ "$rc" != 0 ]; then
            check_one "$name" "$id" "" "$TG_TMP/peer.err" "$input" "$args"
        else
            check_one "$name" "$id" "$TG_TMP/peer" "" "$input" "$args"
        fi
    done < <(bt_option_lines "$TG_TESTS/ctf/babeltrace-options.txt" "$times")
}

case "${1:-}" in
--live)
    shift
    tg_need_cmd babeltrace2
    found=0
    for t in "$@"; do
        [ -d "$t" ] || continue
        found=1
        live "$(basename "$t")" "$t" "$t"
    done
    [ "$found" = 1 ] || tg_skip "no CTF traces in: $*"
    tg_done
    ;;
--made)
    # The traces tests/ctf's scripts write, babeltrace2 run here: make-strings.py's texts that
    # decode empty (babeltrace2 shows an earlier event's text, which depends on how its graph
    # reads: a time of day for --begin/--end makes its trimmer read a first batch and seek
    # back) and make-threads.py's per-cpu kernel streams.
    tg_need_cmd babeltrace2
    py=/usr/bin/python3
    [ -x "$py" ] || py=python3
    for gen in make-strings.py make-threads.py; do
        "$py" "$TG_TESTS/ctf/$gen" "$TG_TMP/made" > /dev/null || tg_fail "$gen" "did not run"
    done
    for t in "$TG_TMP"/made/*; do
        [ -d "$t" ] && live "$(basename "$t")" "$t" "$t"
    done
    tg_done
    ;;
--converted)
    # A time range selects what the converter writes (`traceglot convert --begin/--end`),
    # the other options go to babeltrace2 on what it wrote.
    shift
    tg_need_cmd babeltrace2
    found=0
    for p in "$@"; do
        [ -e "$p" ] || continue
        found=1
        name=$(basename "$p")
        rm -rf "$TG_TMP/ctf"
        if ! "$TG" convert --to ctf -o "$TG_TMP/ctf" "$p" > /dev/null 2> "$TG_TMP/conv.err"; then
            tg_fail "$name convert" "$(head -c 200 "$TG_TMP/conv.err")"
            continue
        fi
        times=$(bt_times "$TG_TMP/ctf")
        fixture_no=$((fixture_no + 1))
        option_no=0
        while IFS=$'\t' read -r id args; do
            option_no=$((option_no + 1))
            tg_matrix_sampled "$fixture_no" "$option_no" || continue
            eval "set -- $args"
            range=() rest=()
            for a in "$@"; do
                case "$a" in --begin=* | --end=*) range+=("$a") ;; *) rest+=("$a") ;; esac
            done
            ctf=$TG_TMP/ctf
            if [ ${#range[@]} -gt 0 ]; then
                ctf=$TG_TMP/ctf-range
                rm -rf "$ctf"
                if ! "$TG" convert --to ctf "${range[@]}" -o "$ctf" "$p" > /dev/null \
                    2> "$TG_TMP/peer.err"; then
                    check_one "$name" "$id" "" "$TG_TMP/peer.err" "$p" "$args"
                    continue
                fi
            fi
            timeout 300 babeltrace2 "${rest[@]}" "$ctf" > "$TG_TMP/peer" 2> "$TG_TMP/peer.err"
            rc=$?
            if [ "$rc" -gt 128 ]; then
                echo "note $name $id: babeltrace2 crashes (exit $rc): not compared"
            elif [ "$rc" != 0 ]; then
                check_one "$name" "$id" "" "$TG_TMP/peer.err" "$p" "$args"
            else
                check_one "$name" "$id" "$TG_TMP/peer" "" "$p" "$args"
            fi
        done < <(bt_option_lines "$TG_TESTS/ctf/babeltrace-options.txt" "$times")
    done
    [ "$found" = 1 ] || tg_skip "no traces in: $*"
    tg_done
    ;;
esac

dir=${1:?usage: babeltrace-options.sh DIR | --live TRACE... | --converted PATH...}
opts=$dir/babeltrace-options
tg_need_dir "$opts"
for args_file in "$opts"/*.args; do
    [ -f "$args_file" ] || continue
    t=$(basename "$args_file" .args)
    fixture_no=$((fixture_no + 1))
    option_no=0
    while IFS=$'\t' read -r id args; do
        option_no=$((option_no + 1))
        tg_matrix_sampled "$fixture_no" "$option_no" || continue
        fails=$opts/$t.$id.fails
        [ -f "$fails" ] || fails=""
        if [ -z "$fails" ] && [ ! -e "$opts/$t.$id.txt" ]; then
            tg_fail "$t $id" "no recorded output (run tests/ctf/record-babeltrace-options.sh)"
            continue
        fi
        check_one "$t" "$id" "$opts/$t.$id.txt" "$fails" "$dir/$t" "$args"
    done < <(grep -v '^#' "$args_file")
done
tg_done
