#!/bin/bash
# bench/python.sh - the Python binding's rates on bench/ctf.sh's LTTng-UST trace (about a
# million events; run bench/ctf.sh first to record it): events/s of `for ev in ts.events()`
# (the name; the name and the fields), of ts.columns(), and of python3-bt2's iterator on the
# same trace (goal: >= 20x), beside the CLI's `traceglot stats` on it (median of 3).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/timing.sh"
TG=${TG:?}
trace=${TG_BENCH_OUT:-$here/out}/ctf/trace
build=$(cd "$(dirname "$TG")" && pwd)
[ -f "$trace/metadata" ] || { echo "python: SKIP (no $trace: run bench/ctf.sh first)"; exit 0; }
ls "$build"/python/traceglot/_traceglot*.so >/dev/null 2>&1 ||
    { echo "python: SKIP (the binding is not built: python3-dev)"; exit 0; }
t=()
for i in 1 2 3; do t+=("$(tg_secs "$TG" stats "$trace")"); done
n=$("$TG" stats "$trace" | tail -1 | awk '{ print $2 }')
awk -v n="$n" -v s="$(tg_median "${t[@]}")" \
    'BEGIN { printf "%-36s %9d events %7.3f s %12.0f events/s (median of 3)\n", "traceglot stats (CLI)", n, s, n / s }'
PYTHONPATH="$build/python" /usr/bin/python3 "$here/python_rates.py" "$trace" 3
