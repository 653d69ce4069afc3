#!/bin/bash
# record-fixtures.sh - records the project's own XRay fixtures with the real tools.
#
# Builds tests/xray/xray_app.cpp with clang-14 -fxray-instrument, runs it once in FDR mode
# (the program selects xray-fdr through the XRay log interface and flushes the log) and once
# in basic mode (XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic"), and keeps in
# tests/data/xray/: the two small logs, llvm-xray 14's outputs for them, and the sha256 of
# the binary (the binary itself is 300 KB: tests rebuild it with build-app.sh and compare
# the hash; a different compiler gives a different binary and the fixture test then skips).
set -e
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data/xray
command -v llvm-xray >/dev/null || { echo "SKIP: llvm-xray not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$here/build-app.sh" "$tmp"
mkdir -p "$data"
# llvm-xray graph: each case of graph-cases.txt on each log, as $k.graph-SLUG.dot (cases named
# nomap* without the instrumentation map).  `record-fixtures.sh graph` records only these,
# from the logs already committed (the binary must be the one they were recorded with).
record_graph() {
    for k in fdr basic; do
        grep -v '^#' "$here/graph-cases.txt" | while IFS=$'\t' read -r slug opts; do
            map=-instr_map="$tmp/xray_app"
            case $slug in nomap*) map= ;; esac
            # shellcheck disable=SC2086
            llvm-xray graph $map $opts "$data/$k.xray" > "$data/$k.graph-$slug.dot"
        done
    done
}
if [ "${1:-}" = graph ]; then
    [ "$(cd "$tmp" && sha256sum xray_app)" = "$(cat "$data/xray_app.sha256")" ] ||
        { echo "the rebuilt xray_app differs from the recorded one: record everything"; exit 1; }
    record_graph
    ls -la "$data"/*.graph-*.dot
    exit 0
fi
(cd "$tmp" && XRAY_OPTIONS="xray_logfile_base=$tmp/fdr-" ./xray_app fdr 4 2>/dev/null)
(cd "$tmp" && XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic xray_logfile_base=$tmp/basic-" \
    XRAY_BASIC_OPTIONS=func_duration_threshold_us=0 ./xray_app basic 4 2>/dev/null)
cp "$tmp"/fdr-xray_app.* "$data/fdr.xray"
cp "$tmp"/basic-xray_app.* "$data/basic.xray"
(cd "$tmp" && sha256sum xray_app) > "$data/xray_app.sha256"
for k in fdr basic; do
    log=$data/$k.xray
    llvm-xray convert -output-format=yaml -symbolize -instr_map="$tmp/xray_app" "$log" > "$data/$k.yaml"
    llvm-xray account -keep-going -instr_map="$tmp/xray_app" "$log" > "$data/$k.account.txt" 2>/dev/null
    llvm-xray account -keep-going -instr_map="$tmp/xray_app" -sort=count -sortorder=dsc "$log" \
        > "$data/$k.account-count-dsc.txt" 2>/dev/null
    llvm-xray account -keep-going -instr_map="$tmp/xray_app" -sort=sum -sortorder=asc "$log" \
        > "$data/$k.account-sum-asc.txt" 2>/dev/null
    llvm-xray account -keep-going "$log" > "$data/$k.account-nomap.txt" 2>/dev/null
    llvm-xray convert -output-format=yaml -symbolize "$log" > "$data/$k.nomap.yaml"
done
record_graph
# llvm-xray's options on these logs (llvm-options.cases): tests/data/xray/options
bash "$here/record-options.sh"
ls -la "$data"
