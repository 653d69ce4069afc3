#!/bin/bash
# record-report-options.sh - records what the real `trace-cmd report` prints with each option
# the trace-cmd style takes (report-options.txt: -F filters, -v, --pid, --cpu, -w, --stat,
# -E, -P, --ts-diff, -q, -l, -N, -G, -i FILE --ts-offset) on the project's trace.dat
# fixtures, for report-options.sh.
#
# For each capture NAME (NAME-v6.dat, -v7.dat, -v7zstd.dat in DATADIR) it writes into
# DATADIR/report-options/:
#   NAME.args          the option lines with the capture's tasks put in for @PID@, @PID2@
#   NAME.ID.txt        trace-cmd's output with option ID (the same for the three versions;
#                      or a link, see below), or
#                      NAME-VERSION.ID.txt when the versions print differently (--stat)
#   NAME.ID.fails      trace-cmd's last message when it refuses the option (exit 255: an
#                      event no format has, a filter it cannot parse): traceglot must fail too
# An option trace-cmd crashes on (exit 128 and over) is left out, with a comment in
# NAME.args saying so.  An output equal to one kept already (the plain report's, another
# option's) is a symbolic link to it.
#
# usage: record-report-options.sh [DATADIR]   (default: tests/data/ftrace)
set -u
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../data/ftrace}
command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd is not installed"; exit 77; }
. "$here/report-options-lib.sh"
out=$data/report-options
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for v6 in "$data"/*-v6.dat; do
    [ -f "$v6" ] || continue
    name=$(basename "$v6" -v6.dat)
    versions=()
    for v in v6 v7 v7zstd; do [ -f "$data/$name-$v.dat" ] && versions+=("$v"); done
    pids=$(tc_pids "$data/$name.report.txt")
    rm -f "$out/$name".* "$out/$name"-v*.*
    echo "# $name: trace-cmd $(trace-cmd --version 2>&1 | grep -o 'version [^ ]*' | head -1)" \
        > "$out/$name.args"
    kept=0
    while IFS=$'\t' read -r id args; do
        rcs=""
        for v in "${versions[@]}"; do
            tc_argv "$data/$name-$v.dat" "$args"
            trace-cmd report "${tc_args[@]}" > "$tmp/$v.out" 2> "$tmp/$v.err"
            rcs="$rcs $?"
        done
        set -- $rcs
        rc=$1
        for r in "$@"; do
            [ "$r" = "$rc" ] || { echo "$name $id: the versions exit differently ($rcs)"; exit 1; }
        done
        if [ "$rc" -gt 128 ] && [ "$rc" -lt 255 ]; then
            echo "# $id: left out, trace-cmd crashes (exit $rc)" >> "$out/$name.args"
            continue
        fi
        # trace-cmd 3.1.6 numbers the cpus of a file's second instance after the first's
        # (--cpu 2 is the tgi instance's cpu 0); traceglot selects the cpu itself
        if [ "$name" = instances ] && [[ "$id" == cpu* ]]; then
            echo "# $id: left out, trace-cmd numbers the cpus of the second instance after the first's" \
                >> "$out/$name.args"
            continue
        fi
        printf '%s\t%s\n' "$id" "$args" >> "$out/$name.args"
        if [ "$rc" != 0 ]; then
            tail -n 1 "$tmp/v6.err" | sed 's/^ *//' > "$out/$name.$id.fails"
            continue
        fi
        same=1
        for v in "${versions[@]}"; do cmp -s "$tmp/v6.out" "$tmp/$v.out" || same=0; done
        if [ "$same" = 1 ]; then
            # an output printed already (the plain report, another option's) is a link to it
            twin=""
            cmp -s "$tmp/v6.out" "$data/$name.report.txt" && twin="../$name.report.txt"
            for t in "$out/$name".*.txt; do
                [ -z "$twin" ] && [ -f "$t" ] && [ ! -L "$t" ] && cmp -s "$tmp/v6.out" "$t" &&
                    twin=$(basename "$t")
            done
            if [ -n "$twin" ]; then
                ln -s "$twin" "$out/$name.$id.txt"
            else
                cp "$tmp/v6.out" "$out/$name.$id.txt"
            fi
        else
            for v in "${versions[@]}"; do cp "$tmp/$v.out" "$out/$name-$v.$id.txt"; done
        fi
        kept=$((kept + 1))
    done < <(tc_option_lines "$here/report-options.txt" "$pids")
    echo "$name: $kept outputs, $(find "$out" -name "$name.*.fails" | wc -l) refusals, $(du -ck "$out/$name".*.txt "$out/$name"-v*.txt 2>/dev/null | tail -1 | cut -f1) KB"
done
