#!/bin/bash
# build-pair.sh OUTDIR - builds the diff workload (pair.c) four ways into OUTDIR: pair-a and
# pair-b with gcc -pg for uftrace, xray-a and xray-b with clang-14 -fxray-instrument (b:
# -DVARIANT_B).  The XRay binaries are what the committed XRay logs were recorded with; their
# sha256 is kept beside the fixtures (tests/data/diff/xray.sha256), so a test can tell whether
# a rebuild here gives the same binaries (their xray_instr_map names the functions) and skip
# when it does not.  Exit 77 when a compiler is missing.
set -e
out=${1:?usage: build-pair.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cp "$here/pair.c" "$out/pair.c"
cd "$out"
if [ "${BUILD_PAIR_XRAY_ONLY:-}" != 1 ]; then
    command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
    gcc -O1 -pg -o pair-a pair.c
    gcc -O1 -pg -DVARIANT_B -o pair-b pair.c
fi
command -v clang-14 >/dev/null || { echo "SKIP: clang-14 not installed"; exit 77; }
# built from the copy in OUTDIR, by relative name: no build path in the binary
clang-14 -O1 -fxray-instrument -fxray-instruction-threshold=1 -o xray-a pair.c
clang-14 -O1 -fxray-instrument -fxray-instruction-threshold=1 -DVARIANT_B -o xray-b pair.c
