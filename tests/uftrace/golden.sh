#!/bin/bash
# golden.sh - traceglot's uftrace-compatible outputs against uftrace's own, byte for byte.
#
# usage: golden.sh DIR...   Every NAME.data directory in each DIR is checked against the
# outputs uftrace printed beside it: NAME.replay.txt (replay), NAME.replay-time.txt
# (replay -f time,tid,duration), NAME.report.txt (report), NAME.info.txt (info: compared with
# the uftrace part of `traceglot info`, from "# system information" on).  The expected files
# were written by the real uftrace, never by traceglot.  Exit 77 (skip) when no DIR exists.
set -u
TG=${TG:?TG must name the traceglot CLI}
fail=0 checked=0 found=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # check NAME EXPECTED COMMAND...
    local what=$1 expected=$2
    shift 2
    [ -f "$expected" ] || return 0
    checked=$((checked + 1))
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" != 0 ] || grep -q "Sanitizer\|runtime error" "$tmp/err"; then
        echo "FAIL $what: exit status $rc ($(head -c 300 "$tmp/err"))"
        fail=$((fail + 1))
        return 0
    fi
    if cmp -s "$tmp/out" "$expected"; then
        echo "ok   $what"
    else
        echo "FAIL $what: differs from $expected"
        diff "$expected" "$tmp/out" | head -20
        fail=$((fail + 1))
    fi
}

info_part() { "$TG" info "$1" | sed -n '/^# system information/,$p'; }

for dir in "$@"; do
    [ -d "$dir" ] || continue
    for data in "$dir"/*.data; do
        [ -d "$data" ] || continue
        found=$((found + 1))
        base=${data%.data}
        name=$(basename "$base")
        check "$name replay" "$base.replay.txt" "$TG" replay "$data"
        check "$name replay -f time,tid,duration" "$base.replay-time.txt" \
            "$TG" replay -f time,tid,duration "$data"
        check "$name report" "$base.report.txt" "$TG" report "$data"
        check "$name info" "$base.info.txt" info_part "$data"
    done
done
if [ "$found" = 0 ]; then
    echo "SKIP: no uftrace data directory in: $*"
    exit 77
fi
echo "$checked outputs checked, $fail failed"
[ "$fail" = 0 ]
