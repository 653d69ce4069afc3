#!/bin/bash
# fleet.sh - `traceglot fleet` on a real dask-scheduler with two dask-worker processes on
# 127.0.0.1, over 200+ traces (the fixtures of every format, and CTF conversions of them with
# varied filters made here by traceglot convert): its rows are, trace by trace, what a loop of
# `traceglot sql` prints; the same with a damaged trace and a file that is no trace among
# them (their errors reported as traceglot sql reports them, the others complete); the same
# with one worker killed in the middle (SIGKILL while it holds tasks: Dask runs them again,
# nothing is lost, nothing counted twice).  Ports are chosen free; every process this script
# starts is killed at its exit.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/py.sh"
tg_need_py distributed dask
for c in dask-scheduler dask-worker; do tg_need_cmd $c; done
tg_need_dir "$TG_TEST_DATA/ftrace"
py_env=(env)
[ -n "$tg_py_preload" ] && py_env=(env "LD_PRELOAD=$tg_py_preload" ASAN_OPTIONS=detect_leaks=0)
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ---- the traces ----------------------------------------------------------------------------
t0=$(now)
bash "$(dirname "$0")/fleet-traces.sh" "$TG" "$TG_TEST_DATA" "$TG_TMP/traces" >"$TG_TMP/list"
n=$(wc -l <"$TG_TMP/list")
echo "$n traces, $(grep -c '\.ctf$' "$TG_TMP/list") of them converted ($(secs "$t0" "$(now)") s)"
[ "$n" -ge 200 ] && tg_pass "$n traces" || tg_fail "traces" "only $n"

# ---- what a loop over the CLI prints -------------------------------------------------------
Q="SELECT 'event' AS what, name, count(*) AS n, min(ts) AS first, max(ts) AS last, sum(cpu) AS cpus
   FROM ftrace_event GROUP BY name
   UNION ALL SELECT 'call', name, count(*), min(ts), max(ts), sum(dur) FROM slice GROUP BY name
   ORDER BY 1, 2"
t0=$(now)
header=""
: >"$TG_TMP/want.rows"
while IFS= read -r t; do
    "$TG" sql --format csv -q "$Q" "$t" >"$TG_TMP/one" 2>"$TG_TMP/one.err" ||
        { tg_fail "traceglot sql $t" "$(head -3 "$TG_TMP/one.err")"; continue; }
    [ -n "$header" ] || header=$(head -1 "$TG_TMP/one")
    tail -n +2 "$TG_TMP/one" | sed "s|^|$t,|" >>"$TG_TMP/want.rows"
done <"$TG_TMP/list"
loop=$(secs "$t0" "$(now)")
{ echo "trace,$header"; cat "$TG_TMP/want.rows"; } >"$TG_TMP/want"
printf '%s' "$Q" >"$TG_TMP/query"
echo "the serial CLI loop: $loop s, $(wc -l <"$TG_TMP/want.rows") rows"

# ---- a scheduler and two workers -------------------------------------------------------------
free_port() {
    /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
addr=tcp://127.0.0.1:$port
"${py_env[@]}" "$TG_PYTHON" /usr/bin/dask-scheduler --host 127.0.0.1 --port "$port" \
    --no-dashboard >"$TG_TMP/scheduler.log" 2>&1 &
sched=$!
tg_at_exit "kill $sched 2>/dev/null"
for w in 1 2; do
    "${py_env[@]}" "$TG_PYTHON" /usr/bin/dask-worker "$addr" --name "w$w" --nthreads 1 \
        --no-nanny --no-dashboard --local-directory "$TG_TMP/w$w" >"$TG_TMP/w$w.log" 2>&1 &
    eval "worker$w=$!"
    # SIGKILL: a worker told to stop (SIGTERM) after its scheduler is gone may keep trying
    # to reach it and outlive the test (one was found 30 min after a make check)
    tg_at_exit "kill -KILL $! 2>/dev/null"
done
if ! tg_py -c "
from distributed import Client
c = Client('$addr', timeout=120)
c.wait_for_workers(2, timeout=300)
c.close()" 2>"$TG_TMP/wait.err"; then
    tail -5 "$TG_TMP/wait.err" "$TG_TMP/scheduler.log" "$TG_TMP/w1.log"
    tg_fail "a scheduler and two workers" "did not start"
    tg_done
fi
tg_pass "dask-scheduler at $addr with workers w1 and w2"

fleet() { # OUT LIST: traceglot fleet on the scheduler, its exit status
    "${py_env[@]}" "$TG" fleet --scheduler "$addr" --format csv -q "$Q" @"$2" >"$1" 2>"$1.err"
}

# ---- 1: the rows, trace by trace, are the CLI loop's -------------------------------------------
t0=$(now)
fleet "$TG_TMP/run1" "$TG_TMP/list"
rc=$?
echo "fleet on 2 workers: $(secs "$t0" "$(now)") s (the serial CLI loop: $loop s)"
[ $rc = 0 ] && tg_pass "fleet: exit 0" || tg_fail "fleet: exit $rc" "$(head -5 "$TG_TMP/run1.err")"
tg_same "fleet over $n traces = a loop of traceglot sql, trace by trace" "$TG_TMP/want" "$TG_TMP/run1"

# the Python API on the same scheduler
tg_py_checks "$(dirname "$0")/fleet_api.py" "$addr" "$TG_TMP/list" "$TG_TMP/want" "$TG_TMP/traces"

# ---- 2: a damaged trace and a file that is no trace among them -------------------------------
cp -r "$TG_TEST_DATA/uftrace/threads.data" "$TG_TMP/damaged.data"
f=$(ls -S "$TG_TMP"/damaged.data/*.dat | head -1)
truncate -s $(($(stat -c %s "$f") / 2 + 5)) "$f"
echo "not a trace" >"$TG_TMP/junk.txt"
{ head -100 "$TG_TMP/list"; echo "$TG_TMP/damaged.data"; tail -n +101 "$TG_TMP/list"
  echo "$TG_TMP/junk.txt"; } >"$TG_TMP/list2"
: >"$TG_TMP/want2.err"
for bad in "$TG_TMP/damaged.data" "$TG_TMP/junk.txt"; do
    "$TG" sql --format csv -q "$Q" "$bad" 2>&1 >/dev/null | grep '^traceglot: error:' >>"$TG_TMP/want2.err"
done
fleet "$TG_TMP/run2" "$TG_TMP/list2"
rc=$?
[ $rc = 1 ] && tg_pass "damaged: exit 1" || tg_fail "damaged: exit $rc"
tg_same "damaged: the other traces complete" "$TG_TMP/want" "$TG_TMP/run2"
grep '^traceglot: error:' "$TG_TMP/run2.err" >"$TG_TMP/run2.errors"
tg_same "damaged: the errors traceglot sql reports, one per trace" "$TG_TMP/want2.err" \
    "$TG_TMP/run2.errors"

# ---- 3: one worker killed in the middle ---------------------------------------------------------
t0=$(now)
fleet "$TG_TMP/run3" "$TG_TMP/list" &
run=$!
tg_at_exit "kill $run 2>/dev/null"
tg_py "$(dirname "$0")/fleet_kill.py" "$addr" w2 "$worker2" "$n" >"$TG_TMP/kill.out" 2>&1
krc=$?
wait $run
rc=$?
cat "$TG_TMP/kill.out" | tail -3
echo "fleet with a worker killed: $(secs "$t0" "$(now)") s"
[ $krc = 0 ] && tg_pass "a worker killed in the middle" || tg_fail "kill" "$(tail -1 "$TG_TMP/kill.out")"
[ $rc = 0 ] && tg_pass "killed: exit 0" || tg_fail "killed: exit $rc" "$(head -5 "$TG_TMP/run3.err")"
tg_same "killed: nothing lost, nothing counted twice" "$TG_TMP/want" "$TG_TMP/run3"
tg_done
