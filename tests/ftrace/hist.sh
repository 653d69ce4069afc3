#!/bin/bash
# hist.sh - `traceglot hist` (trace-cmd hist's command line) prints what `trace-cmd hist`
# prints, byte for byte: the call chains ending in each function or event, per pid or (-P)
# for all.
#
#   hist.sh DIR            the fixtures, every version of each (v6, v7, v7 zstd): the
#                          outputs record-hist.sh kept from trace-cmd 3.1.6 in DIR/hist/
#   hist.sh --live DIR...  other trace.dat files (the corpus): trace-cmd runs here
. "$(dirname "$0")/../lib.sh"

if [ "${1:-}" = --live ]; then
    shift
    tg_need_cmd trace-cmd
    found=0
    for dir in "$@"; do
        for dat in "$dir"/*.dat; do
            [ -f "$dat" ] || continue
            found=1
            for mode in "" -P; do
                trace-cmd hist $mode -i "$dat" > "$TG_TMP/want" 2> /dev/null
                tg_check "$(basename "$dat") hist $mode" "$TG_TMP/want" "$TG" hist $mode -i "$dat"
            done
        done
    done
    [ "$found" = 1 ] || tg_skip "no trace.dat files in: $*"
    tg_done
fi

dir=${1:?usage: hist.sh DIR | --live DIR...}
tg_need_dir "$dir/hist"
for exp in "$dir"/hist/*.hist.txt; do
    name=$(basename "$exp" .hist.txt)
    for dat in "$dir/$name"-v*.dat; do
        [ -f "$dat" ] || continue
        v=${dat##*-}
        tg_check "$name ${v%.dat} hist" "$exp" "$TG" hist -i "$dat"
        tg_check "$name ${v%.dat} hist -P" "$dir/hist/$name.hist-P.txt" "$TG" hist -P -i "$dat"
    done
done
# trace-cmd's other spellings: the file as the argument, -P before it
tg_check "hist FILE" "$dir/hist/func-le64-1cpu.hist.txt" "$TG" hist "$dir/func-le64-1cpu-v7.dat"
tg_check "hist -P FILE" "$dir/hist/func-le64-1cpu.hist-P.txt" \
    "$TG" hist -P "$dir/func-le64-1cpu-v7.dat"
# what trace-cmd refuses: another option, two inputs
tg_check_status "hist -x: refused" 2 "$TG" hist -x "$dir/func-le64-1cpu-v7.dat"
tg_check_status "hist -i A B: refused" 2 "$TG" hist -i "$dir/func-le64-1cpu-v7.dat" \
    "$dir/func-le64-1cpu-v6.dat"
tg_done
