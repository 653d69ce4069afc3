#!/bin/bash
# golden.sh - traceglot's trace-cmd style against trace-cmd's own outputs, byte for byte.
#
# usage: golden.sh DIR|DAT...   For every NAME[-VERSION].dat in each DIR (or each DAT given
# itself: the build registers one test per file), the outputs trace-cmd
# 3.1.6 printed beside it are compared: NAME.report.txt (trace-cmd report), .report-raw.txt
# (report -R), .report-t.txt (report -t), .stat.txt (report --stat: the head of the ftrace
# part of `traceglot info`), .report-OOPTS.txt (report with one -O per comma-separated plugin
# option of OPTS, e.g. .report-Ofunction:parent=1,function:offset=1.txt).  Outputs are looked up as NAME-VERSION.* first, then NAME.*
# (one set shared by the v6/v7/v7zstd conversions of a capture).  The expected files were
# written by the real trace-cmd, never by traceglot.  Exit 77 (skip) when no DIR exists.
# In report -R, kernel_stack's caller[] is printed to its declared length, past a short
# record: into the next page while trace-cmd's block of mapped pages holds it, and past the
# block from trace-cmd's own memory, which no file holds.  A record that runs past the block
# (stack-past-page.py finds them in the capture's v6 file, by trace-cmd's rule) is compared up
# to the block's end; every other byte is compared (stack-page-end: stacks at page ends).
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
fail=0 checked=0 found=0
tmp=$TG_TMP
here=$(cd "$(dirname "$0")" && pwd)
expected_for() { # expected_for DAT SUFFIX
    local base=${1%.dat}
    if [ -f "$base.$2" ]; then echo "$base.$2"; return; fi
    local stem=${base%-v*}
    [ -f "$stem.$2" ] && echo "$stem.$2"
}

check() { # check WHAT EXPECTED COMMAND...
    local what=$1 expected=$2
    shift 2
    [ -n "$expected" ] && [ -f "$expected" ] || return 0
    checked=$((checked + 1))
    if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL $what: exit status $? ($(head -c 300 "$tmp/err"))"
        fail=$((fail + 1))
        return 0
    fi
    if cmp -s "$tmp/out" "$expected"; then
        echo "ok   $what"
    else
        echo "FAIL $what: differs from $expected"
        diff "$expected" "$tmp/out" | head -10
        echo "first difference, trace-cmd (<) and traceglot (>):"
        diff "$expected" "$tmp/out" | grep -m1 '^<'
        diff "$expected" "$tmp/out" | grep -m1 '^>'
        if [ -n "${TG_KEEP_FAILED:-}" ]; then
            mkdir -p "$TG_KEEP_FAILED" && cp "${expected%.*}"* "$(dirname "$expected")"/*.dat "$TG_KEEP_FAILED"/ 2>/dev/null
        fi
        fail=$((fail + 1))
    fi
}

raw_masked() { # raw_masked DAT V6DAT: traceglot's report -R, cut where trace-cmd's is
    "$TG" cat --style=trace-cmd --raw "$1" > "$tmp/raw" || return
    /usr/bin/python3 "$here/stack-past-page.py" "$2" "$tmp/raw"
}

stat_part() { # the --stat text: from "cpus=" on, as many lines as trace-cmd printed
    "$TG" info "$1" | sed -n '/^cpus=/,$p' | head -n "$(wc -l < "$2")"
}

for dir in "$@"; do
    [ -e "$dir" ] || continue
    dats=("$dir"/*.dat)
    [ -f "$dir" ] && dats=("$dir")
    for dat in "${dats[@]}"; do
        [ -f "$dat" ] || continue
        found=$((found + 1))
        n=$(basename "$dat")
        check "$n report" "$(expected_for "$dat" report.txt)" "$TG" cat --style=trace-cmd "$dat"
        raw=$(expected_for "$dat" report-raw.txt)
        v6=${dat%-v*.dat}-v6.dat
        [ -f "$v6" ] || v6=$dat
        /usr/bin/python3 "$here/stack-past-page.py" "$v6" > "$tmp/past"
        if [ -n "$raw" ] && [ -s "$tmp/past" ]; then
            /usr/bin/python3 "$here/stack-past-page.py" "$v6" "$raw" > "$tmp/expected-raw"
            check "$n report -R ($(wc -l < "$tmp/past") stacks past trace-cmd's block)" \
                "$tmp/expected-raw" raw_masked "$dat" "$v6"
        else
            check "$n report -R" "$raw" "$TG" cat --style=trace-cmd --raw "$dat"
        fi
        check "$n report -t" "$(expected_for "$dat" report-t.txt)" \
            "$TG" cat --style=trace-cmd --ns "$dat"
        # NAME.report-OOPTIONS.txt: trace-cmd report with -O for each comma-separated option
        for ex in "${dat%.dat}".report-O*.txt "${dat%-v*.dat}".report-O*.txt; do
            [ -f "$ex" ] || continue
            o=${ex##*.report-O}
            o=${o%.txt}
            check "$n report -O $o" "$ex" "$TG" cat --style=trace-cmd --plugin-option "$o" "$dat"
        done
        st=$(expected_for "$dat" stat.txt)
        [ -n "$st" ] && check "$n report --stat" "$st" stat_part "$dat" "$st"
    done
done
if [ "$found" = 0 ]; then
    echo "SKIP: no trace.dat files in: $*"
    exit 77
fi
echo "$checked outputs checked, $fail differ"
[ "$checked" -gt 0 ] || tg_skip "no output of trace-cmd recorded beside: $*"
[ "$fail" = 0 ]
