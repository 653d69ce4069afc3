#!/bin/bash
# fuzz-seeds.sh DIR - seeds for fuzz_lttng0 from the hand-made fixtures: each is
# <u16 le: size of metadata_0><metadata_0><kernel_0> (see tests/fuzz/fuzz_lttng0.c).
set -eu
out=${1:?usage: fuzz-seeds.sh DIR}
D=$(dirname "$0")/../data/lttng0
mkdir -p "$out"
for t in smp8 lost-be flight; do
    m=$D/$t/metadata_0
    n=$(stat -c %s "$m")
    python3 -c "import sys; sys.stdout.buffer.write(int(sys.argv[1]).to_bytes(2, 'little'))" "$n" >"$out/$t"
    cat "$m" "$D/$t/kernel_0" >>"$out/$t"
done
