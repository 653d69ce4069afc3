#!/bin/bash
# record-pairs.sh - records the diff fixtures with the real tools and prints uftrace's diffs.
#
# The workload pair.c (build-pair.sh) runs three times under each tracer: build a with input
# 4 (a4), build a with input 8 (a8) and build b with input 4 (b4).  That gives two pairs, each
# PATH against OTHER: "inputs" (a4 against a8: the same program, two inputs) and "builds" (a4
# against b4: a changed function, a function gone and one added).  uftrace records with
# --no-libcall (the program's own functions, as XRay instruments them); its symbol files of
# libraries are dropped; XRay records in basic mode with a thread buffer that holds the whole
# run (no write in the middle of the timed calls).  Kept in tests/data/diff/:
#   a4.data a8.data b4.data            uftrace data directories
#   a4.xray a8.xray b4.xray            XRay basic-mode logs (llvm-xray account reads them)
#   xray.sha256                        the XRay binaries the logs need as --instr-map
#   PAIR.NAME.txt                      `uftrace report --diff OTHER OPTIONS -d PATH` for every
#                                      case of cases.txt, run in tests/data/diff (the paths in
#                                      the header are as given)
#   PAIR.account-{path,other}.txt      llvm-xray account of each XRay log of the pair
#   NAME.report.txt                    uftrace report of each recording
#
# usage: tests/diff/record-pairs.sh [OUTDIR]      (default: tests/data/diff)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../data/diff}
for tool in uftrace gcc clang-14 llvm-xray; do
    command -v "$tool" >/dev/null || { echo "record-pairs: $tool is not installed" >&2; exit 77; }
done
work=$(mktemp -d /tmp/tg-diff-rec.XXXXXX)
trap 'rm -rf "$work"' EXIT
bash "$here/build-pair.sh" "$work"
cd "$work"
# Each run is recorded eight times by each tracer and the quickest recording is kept (the
# least pre-empted on a busy machine: the XRay and uftrace pairs are compared by their times).
ns_of() { # "12.345 ms" -> ns
    awk -v v="$1" -v u="$2" 'BEGIN { m = u == "us" ? 1e3 : u == "ms" ? 1e6 : u == "s" ? 1e9 : 1; printf "%d", v * m }'
}
for run in a4 a8 b4; do
    build=${run:0:1} input=${run:1}
    best_u= best_x=
    for try in 1 2 3 4 5 6 7 8; do
        rm -rf try && mkdir try
        (cd try && uftrace record --no-libcall -d "$run.data" "../pair-$build" "$input" >/dev/null)
        read -r v u < <(uftrace report -d "try/$run.data" | awk '$NF == "main" { print $1, $2 }')
        t=$(ns_of "$v" "$u")
        if [ -z "$best_u" ] || [ "$t" -lt "$best_u" ]; then
            best_u=$t
            rm -rf "$run.data"
            mv "try/$run.data" "$run.data"
        fi
        rm -f "$work"/try-xray-*
        XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic xray_logfile_base=$work/try-" \
            XRAY_BASIC_OPTIONS="func_duration_threshold_us=0 thread_buffer_size=65536" "./xray-$build" "$input" >/dev/null 2>&1
        t=$(llvm-xray account -keep-going -instr_map="./xray-$build" "$work"/try-xray-* 2>/dev/null |
            awk '$NF == "main" { printf "%d", $(NF-2) * 1e9 }')
        if [ -z "$best_x" ] || [ "$t" -lt "$best_x" ]; then
            best_x=$t
            mv "$work"/try-xray-* "$run.xray"
        fi
    done
    for f in "$run.data"/*.sym; do
        [ "$(basename "$f")" = "pair-$build.sym" ] || rm -f "$f"
    done
    uftrace report -d "$run.data" >"$run.report.txt"
done
sha256sum xray-a xray-b >xray.sha256
mkdir -p "$out"
for run in a4 a8 b4; do
    rm -rf "${out:?}/$run.data"
    cp -r "$run.data" "$run.xray" "$run.report.txt" "$out/"
done
cp xray.sha256 "$out/"
# the diffs, printed in the fixtures' folder from the committed files
cd "$out"
pairs="inputs:a4:a8 builds:a4:b4"
for p in $pairs; do
    IFS=: read -r pair path other <<<"$p"
    while read -r name opts; do
        case "$name" in '' | '#'*) continue ;; esac
        # shellcheck disable=SC2086
        uftrace report --diff "$other.data" $opts -d "$path.data" >"$pair.$name.txt"
    done <"$here/cases.txt"
    llvm-xray account -keep-going -instr_map="$work/xray-${path:0:1}" "$path.xray" \
        >"$pair.account-path.txt" 2>/dev/null
    llvm-xray account -keep-going -instr_map="$work/xray-${other:0:1}" "$other.xray" \
        >"$pair.account-other.txt" 2>/dev/null
done
du -sh "$out"
