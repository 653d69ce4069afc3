#!/bin/bash
# options-cross.sh - uftrace's options on the other function traces: XRay logs (with their
# instrumentation map) and LTTng-UST cyg-profile traces give, through the same call-stack
# rules, what uftrace itself prints for the same calls.  Each trace is converted to a uftrace
# data directory (traceglot convert --to uftrace, which uftrace reads), then `uftrace replay`
# and `uftrace report` with each option on that directory must print what `traceglot replay`
# and `traceglot report` print with it on the original trace, and `uftrace graph` what
# `traceglot graph` prints (the program's name apart).  The size column is left out (the
# converted functions are the writer's 16-byte symbols) and so is --task's task name
# (the converted data names its task after the writer), and so are elapsed time ranges (they
# count from the first record of the first thread uftrace lists, which the writer orders).
#
# Live: needs uftrace; the XRay fixtures need the rebuilt instrumented binary to match
# (tests/xray/build-app.sh), the corpus's traces the corpus.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd uftrace

# The cases: the filters with functions picked from the converted data, and report's
# columns and keys.
cases() { # UFTRACE-DATA
    local d=$1 f1 f2
    # names without a regular expression's characters (C++ names have parentheses)
    f1=$(uftrace report -d "$d" -s call -f none 2>/dev/null | sed 's/^  //' |
        { grep -v -x main || true; } | { grep -v '[]().?*+^$|{}<[-]' || true; } | head -1)
    f2=$(uftrace report -d "$d" -f none 2>/dev/null | sed 's/^  //' |
        { grep -v '[]().?*+^$|{}<[-]' || true; } | head -1)
    local o list=("" "-D 1" "-D 2" "-t 100ns" "-t 1us")
    [ -n "$f1" ] && list+=("-F $f1" "-N $f1" "-C $f1" "-N $f1 -t 1us" "--match glob -F ${f1:0:2}*")
    [ -n "$f2" ] && list+=("-F $f2" "-N $f2" "-F $f2 -D 2")
    for o in "${list[@]}"; do
        echo "replay $o"
        echo "report $o"
        # graph -D without FUNC: on data without a _start symbol (the converted data) uftrace
        # first prints "Usage: failed to set filter or trigger: _start@kernel,depth=N", which
        # traceglot does not (yet)
        case "$o" in -D*) ;; *) echo "graph $o" ;; esac
    done
    for o in "-s self" "-s call,func" "--avg-total" "--avg-self -s max,func" \
        "-f total,total-avg,total-min,total-max,self,self-avg,self-min,self-max,call" \
        "--task -s func"; do
        echo "report $o"
    done
}

task_rows() { cut -c1-44; } # --task rows without the task name
# graph without the program's name (the title's and the root's: the converted data's names
# its task after the writer)
graph_body() { sed '1s/ for .*/ for/; 4s/ : (1) .*/ : (1)/'; }

check_trace() { # NAME TRACEGLOT-ARGS...
    local name=$1
    shift
    local d=$TG_TMP/$name.uftrace
    if ! "$TG" convert --to uftrace -o "$d" "$@" 2>"$TG_TMP/err"; then
        tg_fail "$name: convert" "$(head -3 "$TG_TMP/err")"
        return
    fi
    local cmd o strip
    while read -r cmd o; do
        strip=cat
        case "$o" in --task*) strip=task_rows ;; esac
        [ "$cmd" = graph ] && strip=graph_body
        # shellcheck disable=SC2086 # the options are words
        uftrace $cmd $o -d "$d" 2>/dev/null | $strip >"$TG_TMP/want"
        # shellcheck disable=SC2086
        if ! tg_run "$TG" $cmd $o "$@"; then
            tg_fail "$name: $cmd $o" "exit status $? ($(head -c 200 "$TG_TMP/err"))"
            continue
        fi
        $strip <"$TG_TMP/out" >"$TG_TMP/got"
        tg_same "$name: $cmd $o" "$TG_TMP/want" "$TG_TMP/got"
    done < <(cases "$d")
}

found=0
# the project's XRay fixtures, when the instrumented binary rebuilds the same
xdata=$TG_TEST_DATA/xray
. "$TG_TESTS/xray/recorded-app.sh"
if [ -f "$xdata/fdr.xray" ] && xray_recorded_app "$TG_TMP/xb"; then
    for k in fdr basic; do
        found=1
        check_trace "xray-$k" --instr-map "$TG_TMP/xb/xray_app" "$xdata/$k.xray"
    done
fi
if [ -d "$TG_TEST_DATA/ctf/cyg" ]; then
    found=1
    check_trace cyg "$TG_TEST_DATA/ctf/cyg"
fi
map=$TG_CORPUS/gen/xray/xray-app-visible
for x in "$TG_CORPUS"/gen/xray/*.xray; do
    [ -f "$x" ] && [ -f "$map" ] || continue
    found=1
    check_trace "corpus-$(basename "$x" .xray)" --instr-map "$map" "$x"
done
for c in "$TG_CORPUS"/gen/ctf/ust-cyg-*/; do
    [ -d "$c" ] || continue
    found=1
    check_trace "corpus-$(basename "$c")" "${c%/}"
done
[ "$found" = 1 ] || tg_skip "no XRay or cyg-profile trace here"
tg_done
