#!/bin/bash
# print-fmt-compiled.sh - the compiled print fmts print what the interpreter prints.
#
# A print fmt renders through its fast plan (literals and plain numbers) or its ops
# (print_fmt_ops.c: %p, %pS, __get_str, __print_flags, __print_symbolic, ?: strings ...);
# TG_PRINT_FMT_INTERPRET=1 renders every item through the interpreter instead.  Both must
# print the same bytes on every event of every trace.dat the project reads (the corpus's
# ftrace folders and the fixtures, with trace-cmd's plugins and without: -N leaves the kmem
# events to their print fmts) and on the tracepoints of every perf.data fixture (perf script
# renders through the same engine).  trace-cmd itself is the judge elsewhere (golden.sh);
# this test covers the events no golden output holds.
. "$(dirname "$0")/../lib.sh"
set -u
dats=()
for d in "$TG_CORPUS/ftrace" "$TG_CORPUS/gen/ftrace" "$TG_CORPUS/ftrace-func" \
    "$TG_TEST_DATA/ftrace"; do
    [ -d "$d" ] && for f in "$d"/*.dat; do [ -f "$f" ] && dats+=("$f"); done
done
perfs=()
for f in "$TG_TEST_DATA"/perf/*.data; do [ -f "$f" ] && perfs+=("$f"); done
[ ${#dats[@]} -gt 0 ] || tg_skip "no trace.dat found (corpus $TG_CORPUS, fixtures $TG_TEST_DATA)"
mkdir -p "$TG_TMP/empty-symfs"

same() { # NAME COMMAND...: compiled and interpreted outputs, and exit statuses, alike
    local name=$1
    shift
    "$@" >"$TG_TMP/compiled" 2>/dev/null
    local s1=$?
    TG_PRINT_FMT_INTERPRET=1 "$@" >"$TG_TMP/interpreted" 2>/dev/null
    local s2=$?
    if [ $s1 -ne $s2 ]; then
        tg_fail "$name" "exit status $s1 compiled, $s2 interpreted"
    elif [ ! -s "$TG_TMP/compiled" ]; then
        tg_fail "$name" "no output"
    else
        tg_same "$name" "$TG_TMP/interpreted" "$TG_TMP/compiled"
    fi
}

for f in "${dats[@]}"; do
    same "$(basename "$f")" "$TG" cat --style=trace-cmd "$f"
    same "$(basename "$f") -N" "$TG" cat --style=trace-cmd --no-plugins "$f"
done
for f in "${perfs[@]}"; do
    same "$(basename "$f") perf script" "$TG" cat --style=perf --symfs "$TG_TMP/empty-symfs" "$f"
done
tg_done
