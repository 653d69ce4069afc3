#!/bin/bash
# fleet-traces.sh TRACEGLOT DATA OUT - the traces of the fleet test and bench: every fixture of
# DATA (tests/data: ftrace trace.dat files, uftrace recordings, CTF and LTTng 0.x traces, XRay
# logs) as it is, and four CTF conversions of each made by `traceglot convert` into OUT: whole,
# ending some microseconds in, beginning some microseconds in, and only the events named
# [a-m]*.  Prints the traces' paths, one per line (the fixtures first, then the conversions
# in name order).  Conversions run two at a time.
#
# ftrace's function and function_graph files are not converted: the CTF writer repeats their
# func and depth members (metadata that babeltrace2 and traceglot refuse; a bug of the writer).
set -u
TG=$1 data=$2 out=$3
mkdir -p "$out"
jobs=$out/jobs
: >"$jobs"
i=0
for s in "$data"/ftrace/*.dat "$data"/uftrace/*.data "$data"/ctf/types "$data"/ctf/rotation \
    "$data"/ctf/cyg "$data"/lttng0/flight "$data"/lttng0/lost-be "$data"/lttng0/smp8 \
    "$data"/xray/*.xray; do
    [ -e "$s" ] || continue
    echo "$s"
    i=$((i + 1))
    case $s in */ftrace/func-* | */ftrace/fgraph-*) continue ;; esac
    printf 'convert %q %q\n' "$out/$i.ctf" "$s" >>"$jobs"
    printf 'convert %q --end %q %q\n' "$out/$i-end.ctf" "+$((i * 7))us" "$s" >>"$jobs"
    printf 'convert %q --begin %q %q\n' "$out/$i-begin.ctf" "+$((i * 5))us" "$s" >>"$jobs"
    printf 'convert %q --events %q %q\n' "$out/$i-am.ctf" "[a-m]*" "$s" >>"$jobs"
done
convert() { # OUT ARGS...: a CTF copy, listed when the conversion worked
    local o=$1
    shift
    "$TG" convert --to ctf -o "$o" "$@" 2>/dev/null && echo "$o"
}
export -f convert
export TG
xargs -d '\n' -P 2 -I{} bash -c '{}' <"$jobs" | sort
rm -f "$jobs"
