#!/bin/bash
# bench/xray.sh - traceglot vs llvm-xray account on a large FDR log (~1.1 million records).
#
# Builds tests/xray/xray_app.cpp with clang-14 -fxray-instrument and records it once in FDR
# mode, single-threaded, with buffers big enough to keep every record (cached in
# $TG_BENCH_OUT/xray), then times `traceglot report --style=xray` against `llvm-xray account
# -keep-going` on the same log and binary in alternating pairs (timing.sh's tg_pairs),
# checking that the two outputs are identical; then the same for `traceglot cat
# --style=xray-yaml` against `llvm-xray convert -output-format=yaml -symbolize` (160 MB of
# text).  Goal for the account: >= 1000x (issue 24).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}/xray
for tool in clang++-14 llvm-xray /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "xray: SKIP ($tool is not installed)"; exit 0; }
done
mkdir -p "$out"
log=$out/fdr-bench.xray
bin=$out/xray_app
if [ ! -f "$log" ] || [ ! -x "$bin" ]; then
    bash "$root/tests/xray/build-app.sh" "$out" >/dev/null || { echo "xray: SKIP (build failed)"; exit 0; }
    rm -f "$out"/fdr-xray_app.*
    (cd "$out" && XRAY_APP_FDR_OPTIONS="buffer_size=1048576 buffer_max=32" \
        XRAY_OPTIONS="xray_logfile_base=$out/fdr-" ./xray_app fdr 40000 single 2>/dev/null) ||
        { echo "xray: SKIP (recording failed)"; exit 0; }
    mv "$out"/fdr-xray_app.* "$log"
fi
records=$(python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
off, n = 32, 0
while off < len(d):
    if d[off] & 1:
        k = d[off] >> 1
        off += 16 + (int.from_bytes(d[off+1:off+5], "little", signed=True) if k in (5, 8) else 0)
    else:
        n += 1; off += 8
print(n)' "$log" 2>/dev/null || echo "?")

. "$here/timing.sh"

echo "xray: $records function records in $log"
tg_pairs "llvm-xray account" --goal 1000 :: \
    traceglot "$TG" report --style=xray --instr-map "$bin" "$log" :: \
    llvm-xray llvm-xray account -keep-going -instr_map="$bin" "$log"
tg_pairs "llvm-xray yaml" :: traceglot "$TG" cat --style=xray-yaml --instr-map "$bin" "$log" :: \
    llvm-xray llvm-xray convert -output-format=yaml -symbolize -instr_map="$bin" "$log"
