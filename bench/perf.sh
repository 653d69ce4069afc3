#!/bin/bash
# bench/perf.sh - traceglot vs perf script and perf report on a large perf.data (>= 100 MB).
#
# Builds bench/perf_bench.c (deep, many-branched call chains) and records it once with
# `perf record -g -F 25000 -e cpu-clock` for 16 seconds of its own CPU time (about 400,000
# samples with call chains, ~105 MB; cached in $TG_BENCH_OUT/perf with the binary under a
# symfs folder), then times `traceglot cat --style=perf` against `perf script` and `traceglot
# report --style=perf` against `perf report --stdio` in alternating pairs (timing.sh's
# tg_pairs), checking that the outputs are identical byte for byte (perf report's closing
# tip, which perf picks at random, cut off as tests/perf/report.sh cuts it).  Both tools get the same
# --symfs (the workload binary alone: its symbols resolved, the kernel's and libc's frames
# "[unknown]" as perf prints them without kallsyms), so the figures do not depend on the
# machine's kernel.  Goal: >= 10x for both (issue 38).  Skips where perf is missing or
# perf_event_open is refused (run as root).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TG=${TG:?}
out=${TG_BENCH_OUT:-$here/out}/perf
for tool in perf gcc /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "perf: SKIP ($tool is not installed)"; exit 0; }
done
data=$out/bench.data
symfs=$out/symfs
if [ ! -f "$data" ]; then
    mkdir -p "$out/bin" "$symfs"
    gcc -O1 -g -fno-omit-frame-pointer -o "$out/bin/perf_bench" "$here/perf_bench.c" ||
        { echo "perf: SKIP (build failed)"; exit 0; }
    mkdir -p "$symfs$out/bin" && cp "$out/bin/perf_bench" "$symfs$out/bin/"
    perf record -q -g -F 25000 -e cpu-clock -o "$data.tmp" -- "$out/bin/perf_bench" 16 \
        >/dev/null 2>&1 || { rm -f "$data.tmp"; echo "perf: SKIP (perf record failed: run as root)"; exit 0; }
    mv "$data.tmp" "$data"
fi

. "$here/timing.sh"

echo "perf: $(du -m "$data" | cut -f1) MB in $data"
tg_pairs "perf script" --goal 10 :: traceglot "$TG" cat --style=perf --symfs "$symfs" "$data" :: \
    perf perf script -i "$data" --symfs="$symfs"
tg_pairs "perf report" --goal 10 :: traceglot "$TG" report --style=perf --symfs "$symfs" "$data" :: \
    perf sh -c 'perf report -i "$0" --stdio --symfs="$1" 2>/dev/null | head -n -3' "$data" "$symfs"
