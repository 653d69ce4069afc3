#!/bin/bash
# fuzz-seeds.sh - seeds for tests/fuzz/fuzz_ftrace_pages: the first cpu's ring-buffer pages
# of each hand-built function / function_graph fixture, behind the byte that picks that
# fixture as the template (the order of the target's templates[] table).
#
# usage: tests/ftrace/fuzz-seeds.sh OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fuzz-seeds.sh OUTDIR}
mkdir -p "$out"
python3 - "$here/../data/ftrace" "$out" <<'PY'
import struct, sys
data, out = sys.argv[1], sys.argv[2]
names = ['func-le64-1cpu', 'fgraph-le64-1cpu', 'fgraph-le32-2cpu', 'func-be32-4cpu', 'fgraph-be64-4cpu']
for i, n in enumerate(names):
    b = open('%s/%s-v6.dat' % (data, n), 'rb').read()
    e = '>' if b[12] == 1 else '<'
    t = b.index(b'flyrecord\0') + 10
    off, size = struct.unpack(e + 'QQ', b[t:t + 16])
    open('%s/seed-%s' % (out, n), 'wb').write(bytes([i]) + b[off:off + size])
PY
ls "$out" | wc -l
