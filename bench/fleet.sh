#!/bin/bash
# bench/fleet.sh - `traceglot fleet` over the fleet test's traces (tests/python/fleet-traces.sh:
# every fixture of tests/data and four CTF conversions of most, about 240 traces) on a real
# dask-scheduler with one, then two single-threaded dask-worker processes on 127.0.0.1, against
# the serial loop of `traceglot sql` over the same traces (wall time, median of 3 each; the
# rows checked equal).  The workers are started once and warm; the client's start is counted.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/timing.sh"
TG=${TG:?}
py=/usr/bin/python3
for c in dask-scheduler dask-worker; do
    command -v $c >/dev/null || { echo "fleet: SKIP ($c is not installed: python3-distributed)"; exit 0; }
done
build=$(cd "$(dirname "$TG")" && pwd)
ls "$build"/python/traceglot/_traceglot*.so >/dev/null 2>&1 ||
    { echo "fleet: SKIP (the binding is not built: python3-dev)"; exit 0; }
export PYTHONPATH="$build/python"  # the workers import traceglot from the build
work=$(mktemp -d /tmp/tg-fleet-bench.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"' EXIT
bash "$root/tests/python/fleet-traces.sh" "$TG" "$root/tests/data" "$work/traces" >"$work/list"
n=$(wc -l <"$work/list")
Q="SELECT name, count(*) AS n, min(ts) AS first, max(ts) AS last FROM ftrace_event GROUP BY name
   UNION ALL SELECT name, count(*), min(ts), sum(dur) FROM slice GROUP BY name ORDER BY 1"
printf '%s' "$Q" >"$work/query"
cat >"$work/loop.sh" <<'LOOP'
while IFS= read -r t; do
    "$TG" sql --format csv -q "@$1/query" "$t" | tail -n +2 | sed "s|^|$t,|"
done <"$1/list"
LOOP
export TG
bash "$work/loop.sh" "$work" >"$work/want.rows"
t=()
for i in 1 2 3; do t+=("$(tg_secs bash "$work/loop.sh" "$work")"); done
serial=$(tg_median "${t[@]}")
port=$($py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
addr=tcp://127.0.0.1:$port
dask-scheduler --host 127.0.0.1 --port "$port" --no-dashboard >"$work/sched.log" 2>&1 &
pids+=($!)
worker() {
    dask-worker "$addr" --name "w$1" --nthreads 1 --no-nanny --no-dashboard \
        --local-directory "$work/w$1" >"$work/w$1.log" 2>&1 &
    pids+=($!)
    $py -c "from distributed import Client; c = Client('$addr', timeout=60); c.wait_for_workers($1, timeout=120)" ||
        { echo "fleet: SKIP (the workers did not start)"; exit 0; }
}
fleet() { "$TG" fleet --scheduler "$addr" --format csv -q "@$work/query" @"$work/list"; }
for w in 1 2; do
    worker $w
    fleet | tail -n +2 >"$work/got.rows"
    cmp -s "$work/want.rows" "$work/got.rows" || echo "fleet: the rows on $w worker(s) differ from the loop's"
    t=()
    for i in 1 2 3; do t+=("$(tg_secs "$TG" fleet --scheduler "$addr" --format csv -q "@$work/query" @"$work/list")"); done
    eval "on$w=$(tg_median "${t[@]}")"
done
echo "fleet: $n traces: serial traceglot sql loop $serial s; fleet on 1 worker $on1 s, on 2 workers $on2 s (median of 3)"
