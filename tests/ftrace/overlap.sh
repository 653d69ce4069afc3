#!/bin/bash
# overlap.sh - cpu data that overlaps another cpu's (a damaged flyrecord table) is reported
# and not read, instead of decoding the same pages once per cpu (the fuzzer's finding: 512
# cpus pointing at the same pages made a small file cost as much as 512 copies of it).
# The fixture's cpu 1 is pointed at cpu 0's pages: the events of cpu 0 are printed as they
# are in the undamaged file, the overlap is reported with its offset, the exit status is 1;
# and a 512-cpu table whose every entry points at cpu 0's pages gives cpu 0's events once.
. "$(dirname "$0")/../lib.sh"
src=$TG_TEST_DATA/ftrace/fgraph-le32-2cpu-v6.dat
[ -f "$src" ] || tg_skip "fixture $src missing"
tg_need_cmd /usr/bin/python3
/usr/bin/python3 - "$src" "$TG_TMP" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
t = b.index(b'flyrecord\0') + 10
o0, s0, o1, s1 = struct.unpack('<QQQQ', b[t:t + 32])
b[t + 16:t + 24] = struct.pack('<Q', o0)          # cpu 1 -> cpu 0's pages
open(sys.argv[2] + '/two.dat', 'wb').write(b)
# 512 cpus, all at cpu 0's pages: the count, then the table in place of the old one
c = b.rindex(struct.pack('<I', 2), 0, t)          # the cpu count before the options
many = b[:c] + struct.pack('<I', 512) + b[c + 4:t] + struct.pack('<QQ', o0, s0) * 512
pad = (-len(many)) % 4096
data = b[o0:o0 + s0]
many += b'\0' * pad
off = len(many)
many = many[:t] + struct.pack('<QQ', off, s0) * 512 + many[t + 512 * 16:] + data
open(sys.argv[2] + '/many.dat', 'wb').write(many)
PY
"$TG" cat --cpu 0 "$src" > "$TG_TMP/cpu0.txt"
tg_check_status two-cpus 1 "$TG" cat "$TG_TMP/two.dat"
tg_same two-cpus-events "$TG_TMP/cpu0.txt" "$TG_TMP/out"
if grep -q "offset 0x1000: cpu 1: its 4096 bytes of data overlap cpu 0's at 0x1000: not read" \
    "$TG_TMP/err"; then tg_pass two-cpus-error; else tg_fail two-cpus-error "$(cat "$TG_TMP/err")"; fi
# the pages are read once: cpu 0's events, no more (the CLI shows the first 100 errors)
tg_check_status many-cpus 1 "$TG" cat "$TG_TMP/many.dat"
tg_same many-cpus-events "$TG_TMP/cpu0.txt" "$TG_TMP/out"
n=$(grep -c "overlap cpu 0's" "$TG_TMP/err")
[ "$n" -ge 100 ] && tg_pass many-cpus-errors || tg_fail many-cpus-errors "$n overlap errors"
tg_done
