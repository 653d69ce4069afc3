#!/bin/bash
# bench/lttng0.sh - events per second of traceglot on a large LTTng 0.x trace.
#
# No tool reads LTTng 0.x traces any more (LTTV is gone), so there is no peer to time
# against: this case reports traceglot's own rates.  The input is made once (cached in
# $TG_BENCH_OUT/lttng0): 2 cpus x 64 blocks of 1 MB of compact-header kernel events
# (sched_schedule "prev_pid %d next_pid %d prev_state #2d%ld", 16 bytes each, ~8.4 million
# events), written by Python: one block is built, then copied with each copy's cycle counts
# moved on.  Times `traceglot stats` (goal >= 20 M events/s), `traceglot cat` (native) and
# `traceglot cat --style=lttv` to /dev/null: wall time median of 3, peak RSS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}/lttng0
command -v python3 >/dev/null || { echo "lttng0: SKIP (python3 is not installed)"; exit 0; }
command -v /usr/bin/time >/dev/null || { echo "lttng0: SKIP (/usr/bin/time is not installed)"; exit 0; }
trace=$out/big
if [ ! -f "$trace/kernel_1" ]; then
    mkdir -p "$trace"
    python3 - "$trace" <<'PY' || { echo "lttng0: SKIP (generation failed)"; exit 0; }
import struct, sys, os
d = sys.argv[1]
MAGIC, FREQ, SB = 0x00D6B7ED, 2000000000, 1 << 20
def header(begin, end, data_size, sb=SB):
    return struct.pack('<QQIBBBBQQQIIIII', begin, end, MAGIC, 2, 5, 4, 0, 1262715366, 0,
                       FREQ, 1, data_size, sb, 0, 0)
def event(eid, tsc, payload):
    return struct.pack('<I', (eid << 27) | (tsc & ((1 << 27) - 1))) + payload
# metadata: the marker of kernel.sched_schedule (id 0)
meta = bytearray()
fmt = b'prev_pid %d next_pid %d prev_state #2d%ld'
meta += event(0, 100, b'kernel\0sched_schedule\0' + struct.pack('<H', 0) + bytes([4, 4, 4, 4, 0]))
meta += event(1, 200, b'kernel\0sched_schedule\0' + fmt + b'\0')
with open(os.path.join(d, 'metadata_0'), 'wb') as f:
    f.write(header(0, 300, 68 + len(meta), 4096) + meta + b'\0' * (4096 - 68 - len(meta)))
n = (SB - 68) // 14
step = 997
body = bytearray()
for i in range(n):
    body += event(0, 1000 + i * step, struct.pack('<iih', 100 + i % 7, 200 + i % 5, i & 1))
span = n * step + 1000
for cpu in range(2):
    with open(os.path.join(d, 'kernel_%d' % cpu), 'wb') as f:
        for b in range(64):
            # each block starts span cycles later; the events' 27 low bits are unchanged
            # when span is a multiple of 2^27, so round it up to one
            base = b * ((span >> 27) + 1 << 27) + cpu * 13
            f.write(header(base, base + span, 68 + len(body)) + body +
                    b'\0' * (SB - 68 - len(body)))
PY
fi
events=$("$TG" stats "$trace" 2>/dev/null | tail -1 | awk '{print $2}')
. "$here/timing.sh"
run_case() {
    local name=$1
    shift
    local t=() m a
    for i in 1 2 3; do t+=("$(tg_secs "$TG" "$@")"); done
    m=$(tg_rss "$TG" "$@")
    a=$(tg_median "${t[@]}")
    awk -v n="$name" -v a="$a" -v e="$events" -v m="$m" 'BEGIN {
        printf "%s: traceglot %.3f s for %d events, %.1f M events/s (median of 3), peak RSS %.1f MB\n",
               n, a, e, (a > 0 ? e / a / 1e6 : 0), m / 1024 }'
}
echo "lttng0: $events events in $trace"
run_case "lttng0 stats" stats "$trace"
run_case "lttng0 cat" cat "$trace"
run_case "lttng0 cat lttv" cat --style=lttv "$trace"
