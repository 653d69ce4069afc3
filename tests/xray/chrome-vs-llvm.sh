#!/bin/bash
# chrome-vs-llvm.sh - `traceglot convert --to chrome` on the corpus XRay logs against
# `llvm-xray convert -output-format=trace_event` (the corpus .trace_event.json): the same
# duration events per thread, in the same order, with the same names, phases and times
# (llvm-xray prints microseconds with 4 decimals; traceglot nanosecond-exact, so times must
# agree to within a microsecond).  SKIP when the corpus is absent.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
dir=$root/gen/xray
[ -d "$dir" ] || { echo "SKIP: corpus gen/xray not found ($dir)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
out=$TG_TMP
fail=0 pass=0
for exp in "$dir"/*.trace_event.json; do
    log=${exp%.trace_event.json}.xray
    [ -f "$log" ] || continue
    if "$TG" convert --to chrome --force -o "$out/got.json" --instr-map "$dir/xray-app-visible" "$log" &&
        python3 - "$exp" "$out/got.json" <<'PY'
import json, sys
from collections import defaultdict
def durations(path):
    d = json.load(open(path))
    events = d["traceEvents"] if isinstance(d, dict) else d
    per_tid = defaultdict(list)
    for e in events:
        if e["ph"] in ("B", "E"):
            per_tid[int(e["tid"])].append((e["ph"], e["name"], float(e["ts"])))
    return per_tid
want, got = durations(sys.argv[1]), durations(sys.argv[2])
assert sorted(want) == sorted(got), ("threads", sorted(want), sorted(got))
for tid in want:
    w, g = want[tid], got[tid]
    assert len(w) == len(g), ("tid", tid, len(w), len(g))
    for a, b in zip(w, g):
        assert a[0] == b[0] and a[1] == b[1] and abs(a[2] - b[2]) < 1.0, (tid, a, b)
PY
    then echo "ok   ${log##*/}"; pass=$((pass + 1))
    else echo "FAIL ${log##*/}"; fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
