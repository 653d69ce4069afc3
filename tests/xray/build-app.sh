#!/bin/bash
# build-app.sh OUTDIR - builds the XRay workload (xray_app.cpp) with clang-14 into OUTDIR
# (extra compiler flags from XRAY_APP_CFLAGS, e.g. "-g -O0"; the fixtures use none).
# The committed fixtures were recorded with a binary built by exactly this command; its
# sha256 is kept beside them (tests/data/xray/xray_app.sha256) so a test can tell whether a
# rebuild here produced the same binary.  Exit 77 when clang++-14 is missing.
set -e
out=${1:?usage: build-app.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
command -v clang++-14 >/dev/null || { echo "SKIP: clang++-14 not installed"; exit 77; }
mkdir -p "$out"
# -ffile-prefix-map keeps the build path out of the binary, so rebuilds are identical.
# shellcheck disable=SC2086
clang++-14 -O1 -fxray-instrument -fxray-instruction-threshold=1 -std=c++17 -pthread \
    -ffile-prefix-map="$here"=. ${XRAY_APP_CFLAGS:-} -o "$out/xray_app" "$here/xray_app.cpp"
