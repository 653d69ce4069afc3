#!/bin/bash
# no-intersection.sh - a CTF kernel trace whose streams do not overlap (make-kernel-trace.py's
# "disjoint": an empty stream whose packet ends before the others begin) against the real
# lttng-analyses commands (Debian's python3-lttnganalyses 0.6.1): each of the 15 commands
# refuses it as they do (exit 1, their "Trace has no intersection" message on stderr, nothing
# on stdout), some with --format json as lttng-NAME-mi does (its LAMI error object on
# stdout, exit 1), and with --no-intersection they print their bytes.
# SKIP when lttng-analyses or babeltrace (1) is not installed.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd lttng-cputop "lttng-analyses (python3-lttnganalyses)"
tg_need_cmd babeltrace "babeltrace 1 (lttng-analyses reads through it)"
export LC_ALL=C.UTF-8 TZ=UTC
here=$TG_TESTS/analyze
t=$TG_TMP/disjoint/kernel
/usr/bin/python3 "$here/make-kernel-trace.py" "$t" 5 2.8.0 io disjoint ||
    { tg_fail "make-kernel-trace.py disjoint" "cannot write the trace"; tg_done; }
msg="Trace has no intersection. Use --no-intersection to override"
for name in cputop memtop syscallstats schedstats schedtop schedlog schedfreq irqstats irqlog \
    irqfreq iolatencytop iolatencystats iolatencyfreq iousagetop iolog; do
    # text: stdout (nothing), stderr's message and the exit status
    "lttng-$name" --no-color --no-progress --skip-validation --gmt "$t" > "$TG_TMP/exp.txt" \
        2> "$TG_TMP/exp.err"
    rc=$?
    if [ $rc != 1 ] || ! grep -qxF "Error: $msg" "$TG_TMP/exp.err"; then
        tg_fail "$name" "lttng-$name did not refuse the trace (exit $rc: $(head -2 "$TG_TMP/exp.err"))"
        continue
    fi
    tg_run "$TG" analyze "$name" --gmt "$t"
    rc=$?
    if [ $rc = 1 ] && grep -qxF "traceglot: error: $msg" "$TG_TMP/err" &&
        cmp -s "$TG_TMP/exp.txt" "$TG_TMP/out"; then
        tg_pass "$name: no intersection"
    else
        tg_fail "$name: no intersection" "exit $rc, $(head -2 "$TG_TMP/err"), stdout $(head -c 200 "$TG_TMP/out")"
    fi
    # LAMI: lttng-NAME-mi's error object on stdout, exit 1 (one command of each family: the
    # check is lttng-analyses' common code)
    case $name in cputop | memtop | syscallstats | schedlog | irqfreq | iolatencytop) ;; *) continue ;; esac
    "lttng-$name-mi" --skip-validation "$t" > "$TG_TMP/exp.json" 2> "$TG_TMP/exp.err"
    rc=$?
    tg_run "$TG" analyze "$name" --format json "$t"
    got=$?
    if [ $rc = 1 ] && [ $got = 1 ] &&
        /usr/bin/python3 "$here/same-json.py" "$TG_TMP/exp.json" "$TG_TMP/out"; then
        tg_pass "mi $name: no intersection"
    else
        tg_fail "mi $name: no intersection" "exit $got (lttng-$name-mi: $rc), $(head -c 200 "$TG_TMP/out")"
    fi
done
# --no-intersection: every event, with the commands' bytes
for name in cputop schedlog irqstats iolatencystats; do
    "lttng-$name" --no-color --no-progress --skip-validation --gmt --no-intersection "$t" \
        > "$TG_TMP/exp.txt" 2> "$TG_TMP/exp.err" ||
        { tg_fail "$name --no-intersection" "lttng-$name failed: $(head -2 "$TG_TMP/exp.err")"; continue; }
    tg_check "$name --no-intersection" "$TG_TMP/exp.txt" "$TG" analyze "$name" --gmt \
        --no-intersection "$t"
done
tg_done
