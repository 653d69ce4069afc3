#!/bin/bash
# fleet-local.sh - `traceglot fleet` with no scheduler: a LocalCluster of worker processes on
# this machine.  Over globs of fixtures of several formats its CSV is, trace by trace, what
# `traceglot sql --format csv` prints; its JSON is the same rows; bad SQL is a usage error
# (exit 2, SQLite's message, once); a misspelt option is refused before any worker starts; a
# folder of several traces is one trace or, with --folders each, each its own.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/py.sh"
tg_need_py distributed dask
tg_need_dir "$TG_TEST_DATA/ftrace"
py_env=(env)
[ -n "$tg_py_preload" ] && py_env=(env "LD_PRELOAD=$tg_py_preload" ASAN_OPTIONS=detect_leaks=0)
Q="SELECT name, count(*) AS n, sum(ts % 1000) AS t FROM ftrace_event GROUP BY name ORDER BY name"
globs=("$TG_TEST_DATA/ftrace/*-v6.dat" "$TG_TEST_DATA/uftrace/*.data")
echo "trace,name,n,t" >"$TG_TMP/want"
for t in $TG_TEST_DATA/ftrace/*-v6.dat $TG_TEST_DATA/uftrace/*.data; do
    "$TG" sql --format csv -q "$Q" "$t" | tail -n +2 | sed "s|^|$t,|" >>"$TG_TMP/want"
done
tg_check "a LocalCluster over globs: csv = traceglot sql's, trace by trace" "$TG_TMP/want" \
    "${py_env[@]}" "$TG" fleet --workers 2 --format csv -q "$Q" "${globs[@]}"

tg_run "${py_env[@]}" "$TG" fleet --workers 1 --format json -q "$Q" "$TG_TEST_DATA/uftrace/args.data"
cp "$TG_TMP/out" "$TG_TMP/fleet.json"
tg_run "$TG" sql --format json -q "$Q" "$TG_TEST_DATA/uftrace/args.data"
if tg_py -c '
import json, sys
fleet, sql = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [dict(r, trace=sys.argv[3]) for r in sql] == fleet, (fleet[:2], sql[:2])
' "$TG_TMP/fleet.json" "$TG_TMP/out" "$TG_TEST_DATA/uftrace/args.data"; then
    tg_pass "json: traceglot sql's objects with the trace"
else
    tg_fail "json"
fi

tg_check_status "bad SQL: exit 2" 2 "${py_env[@]}" "$TG" fleet --workers 1 -q "SELEC name FROM slice" \
    "$TG_TEST_DATA/uftrace/args.data" "$TG_TEST_DATA/uftrace/threads.data"
[ "$(grep -c 'near "SELEC": syntax error' "$TG_TMP/err")" = 1 ] && tg_pass "bad SQL: SQLite's message, once" ||
    tg_fail "bad SQL: SQLite's message, once" "$(cat "$TG_TMP/err")"
tg_check_status "misspelt option: exit 2" 2 "$TG" fleet --instr-mpa x -q "SELECT 1" "$TG_TEST_DATA/uftrace/args.data"
grep -q "did you mean --instr-map" "$TG_TMP/err" && tg_pass "misspelt option: the nearest named" ||
    tg_fail "misspelt option" "$(cat "$TG_TMP/err")"
tg_check_status "no query: exit 2" 2 "$TG" fleet "$TG_TEST_DATA/uftrace/args.data"
# a folder of traces of two formats: one trace by default, as `traceglot sql` opens it (said
# on stderr), or each trace its own task with --folders each
mix=$TG_TMP/mix
mkdir -p "$mix"
cp "$TG_TEST_DATA/ftrace/sched-irq-timer-v6.dat" "$mix/"
cp -r "$TG_TEST_DATA/uftrace/args.data" "$mix/"
echo "trace,name,n,t" >"$TG_TMP/want"
"$TG" sql --format csv -q "$Q" "$mix" | tail -n +2 | sed "s|^|$mix,|" >>"$TG_TMP/want"
tg_check "a folder of two traces: one trace, traceglot sql's rows" "$TG_TMP/want" \
    "${py_env[@]}" "$TG" fleet --workers 1 --format csv -q "$Q" "$mix"
grep -q "^traceglot fleet: $mix holds 2 traces: taken as one trace" "$TG_TMP/err" &&
    tg_pass "a folder of two traces: taken as one, said" || tg_fail "said as one" "$(cat "$TG_TMP/err")"
echo "trace,name,n,t" >"$TG_TMP/want"
for t in "$mix/args.data" "$mix/sched-irq-timer-v6.dat"; do
    "$TG" sql --format csv -q "$Q" "$t" | tail -n +2 | sed "s|^|$t,|" >>"$TG_TMP/want"
done
tg_check "--folders each: each trace's rows, in the folder's order" "$TG_TMP/want" \
    "${py_env[@]}" "$TG" fleet --workers 1 --folders each --format csv -q "$Q" "$mix"
grep -q "^traceglot fleet: $mix holds 2 traces: one task each" "$TG_TMP/err" &&
    tg_pass "--folders each: said" || tg_fail "--folders each: said" "$(cat "$TG_TMP/err")"
tg_check_status "--folders misspelt: exit 2" 2 "$TG" fleet --folders eahc -q "SELECT 1" "$mix"
tg_done
