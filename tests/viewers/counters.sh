#!/bin/bash
# counters.sh - counter tracks: uftrace's read:* records (`uftrace record -T
# main@read=proc/statm -T is_even@read=page-fault`, the events.data fixture) become Perfetto
# counter tracks and Chrome "C" events holding the values uftrace itself prints for them.
# The expected samples come from uftrace replay (run on a copy of the fixture when uftrace
# is installed, else the replay it printed when the fixture was recorded); counters.py
# turns each output into `TID|TRACK|TIME_NS|VALUE` lines, compared per track in order:
# - Perfetto (decoded by protoc with Perfetto's schema): every counter track is a child of
#   the sampling thread's track (itself a child of its process's), KB values are bytes with
#   unit_multiplier 1024, each value and time is uftrace's; the same in every part of a
#   split output (each part usable alone: check_outputs.py perfetto-alone);
# - Chrome (Python's json module): one "C" event per read:* record, args the values.
# Skips without protoc or Perfetto's schema.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${TG_CORPUS:-$repo/../shared/corpus}
proto=$corpus/../specs/perfetto_trace.proto
fixture=$repo/tests/data/uftrace/events
command -v protoc >/dev/null || { echo "SKIP: protoc is not installed"; exit 77; }
[ -f "$proto" ] || { echo "SKIP: $proto not found"; exit 77; }
[ -d "$fixture.data" ] || { echo "SKIP: $fixture.data not found"; exit 77; }
tmp=$TG_TMP
fail=0 passed=0
decode() { protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
    "$(basename "$proto")" <"$1" >"$1.txt"; }
samples() { python3 "$here/counters.py" "$@"; }
per_track() { sort -s -t'|' -k1,2; } # each track's samples together, in their order

# compare LABEL EXPECTED ACTUAL: the same samples per track
compare() {
    per_track <"$2" >"$2.sorted"
    per_track <"$3" >"$3.sorted"
    if [ ! -s "$2" ]; then
        echo "FAIL $1: no expected samples"; fail=$((fail + 1))
    elif cmp -s "$2.sorted" "$3.sorted"; then
        echo "ok   $1: $(wc -l <"$2") samples on $(cut -d'|' -f1,2 "$2" | sort -u | wc -l) tracks"
        passed=$((passed + 1))
    else
        echo "FAIL $1: samples differ from uftrace's (expected <, written >)"
        diff "$2.sorted" "$3.sorted" | head -8; fail=$((fail + 1))
    fi
}

cp -r "$fixture.data" "$tmp/in.data"
if command -v uftrace >/dev/null; then
    uftrace replay -f duration,tid,time -d "$tmp/in.data" >"$tmp/replay.txt" 2>/dev/null
    echo "     expected: uftrace replay on a copy of the fixture"
else
    cp "$fixture.replay-time.txt" "$tmp/replay.txt"
    echo "     expected: $(basename "$fixture").replay-time.txt (uftrace is not installed)"
fi
samples uftrace-replay "$tmp/replay.txt" >"$tmp/expected" || exit 1

if "$TG" convert --to perfetto -o "$tmp/out.pftrace" "$tmp/in.data" && decode "$tmp/out.pftrace" &&
    samples perfetto "$tmp/out.pftrace.txt" >"$tmp/perfetto"; then
    compare "perfetto" "$tmp/expected" "$tmp/perfetto"
else
    echo "FAIL perfetto: $(cat "$tmp/perfetto" 2>/dev/null)"; fail=$((fail + 1))
fi

# a part of a split output describes the counter tracks it uses again
rm -f "$tmp"/part*
"$TG" convert --to perfetto --split-time 1us -o "$tmp/part.pftrace" "$tmp/in.data" || exit 1
parts=("$tmp"/part-*.pftrace)
for p in "${parts[@]}"; do
    if ! decode "$p" || ! python3 "$here/check_outputs.py" perfetto-alone "$p.txt" >"$tmp/check"; then
        echo "FAIL split $(basename "$p"): $(cat "$tmp/check")"; fail=$((fail + 1))
    fi
done
samples perfetto "${parts[@]/%/.txt}" >"$tmp/parts" || { echo "FAIL split: $(tail -1 "$tmp/parts")"; fail=$((fail + 1)); }
compare "perfetto --split-time 1us (${#parts[@]} parts)" "$tmp/expected" "$tmp/parts"

sed 's/KB$//' "$tmp/expected" >"$tmp/expected-chrome"
if "$TG" convert --to chrome -o "$tmp/out.json" "$tmp/in.data" &&
    samples chrome "$tmp/out.json" >"$tmp/chrome"; then
    compare "chrome" "$tmp/expected-chrome" "$tmp/chrome"
else
    echo "FAIL chrome: $(cat "$tmp/chrome" 2>/dev/null)"; fail=$((fail + 1))
fi

echo "$passed passed, $fail failed"
[ $fail = 0 ]
