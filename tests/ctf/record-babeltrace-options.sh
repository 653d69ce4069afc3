#!/bin/bash
# record-babeltrace-options.sh - records what the real babeltrace2 prints with each option
# the babeltrace style takes (babeltrace-options.txt: --names, --fields, --no-delta,
# --clock-cycles, --clock-date, --clock-gmt, --clock-seconds, --begin/--end in babeltrace2's
# time forms) on the project's CTF fixtures, for babeltrace-options.sh.  TZ=UTC, as the
# fixtures' other outputs.
#
# For each trace T of DATADIR (tests/data/ctf: types, cyg, rotation) it writes into
# DATADIR/babeltrace-options/:
#   T.args       the option lines with T's times put in for the placeholders
#   T.ID.txt     babeltrace2's output with option ID (a link to an equal output kept before)
#   T.query-metadata-info.txt  `babeltrace2 query src.ctf.fs metadata-info` of T (bt-query.sh)
#   T.ID.fails   babeltrace2's refusal (an unknown name or field, a range that ends before
#                it begins): traceglot must refuse it too
# A trace with texts that decode empty (types) is recorded with every option too: babeltrace2
# shows a recycled text there, which with --begin/--end depends on how its trimmer pulls the
# messages (formats/ctf/ctf_btcompat.c replays it).
#
# usage: record-babeltrace-options.sh [DATADIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../data}/ctf
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
. "$here/babeltrace-options-lib.sh"
export TZ=UTC
out=$data/babeltrace-options
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in types cyg rotation; do
    trace=$data/$t
    [ -f "$trace/metadata" ] || continue
    rm -f "$out/$t".*
    times=$(bt_times "$trace")
    echo "# $t: $(babeltrace2 --version | head -1)" > "$out/$t.args"
    while IFS=$'\t' read -r id args; do
        eval "set -- $args"
        babeltrace2 "$@" "$trace" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        printf '%s\t%s\n' "$id" "$args" >> "$out/$t.args"
        if [ "$rc" != 0 ]; then
            grep -m1 -v '^$' "$tmp/err" | cut -c1-200 > "$out/$t.$id.fails"
            continue
        fi
        twin=""
        for k in "$out/$t".*.txt; do
            [ -z "$twin" ] && [ -f "$k" ] && [ ! -L "$k" ] && cmp -s "$tmp/out" "$k" && twin=$(basename "$k")
        done
        if [ -n "$twin" ]; then
            ln -s "$twin" "$out/$t.$id.txt"
        else
            cp "$tmp/out" "$out/$t.$id.txt"
        fi
    done < <(bt_option_lines "$here/babeltrace-options.txt" "$times")
    echo "$t: $(ls "$out/$t".*.txt | wc -l) outputs, $(ls "$out/$t".*.fails 2>/dev/null | wc -l) refusals"
done
# babeltrace2 query src.ctf.fs metadata-info of each trace: T.query-metadata-info.txt, for
# bt-query.sh
for t in types cyg rotation; do
    [ -d "$data/$t" ] || continue
    babeltrace2 query src.ctf.fs metadata-info -p "path=\"$data/$t\"" \
        > "$out/$t.query-metadata-info.txt"
done
