#!/bin/bash
# damaged.sh - damaged perf.data files: the events before the damage printed, then an error
# naming the file, the offset and what was wrong, exit status 1, never a crash or a hang.
# Cases: a file truncated inside its data section (file mode and pipe mode), a record whose
# size is 0 (perf's "failed to process type"), and compressed records that are not zstd.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
tg_need_cmd /usr/bin/python3 "to damage the copies"
# record_offset FILE N: the offset of the N-th record of the data section (file mode)
record_offset() {
    /usr/bin/python3 -c "import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)
n = int(sys.argv[2])
while n:
    off += struct.unpack_from('<H', b, off + 6)[0]
    n -= 1
print(off)" "$@"
}
poke() { /usr/bin/python3 -c "import sys
f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2], 0)); f.write(bytes.fromhex(sys.argv[3]))" "$@"; }
# expect NAME PATTERN MIN_LINES FILE: cat prints at least MIN_LINES events, then the error
expect() {
    local name=$1 pattern=$2 min=$3 file=$4
    tg_run "$TG" cat "$file"
    local rc=$? lines
    lines=$(wc -l <"$TG_TMP/out")
    if [ "$rc" != 1 ]; then
        tg_fail "$name" "exit status $rc (expected 1): $(head -3 "$TG_TMP/err")"
    elif ! grep -q -- "$pattern" "$TG_TMP/err"; then
        tg_fail "$name" "no '$pattern' in the error: $(head -3 "$TG_TMP/err")"
    elif [ "$lines" -lt "$min" ]; then
        tg_fail "$name" "only $lines events before the damage (expected >= $min)"
    else
        tg_pass "$name: $(head -1 "$TG_TMP/err")"
    fi
}

cp "$D/cpu-clock.data" "$TG_TMP/trunc.data"
truncate -s 3000 "$TG_TMP/trunc.data"
expect "truncated in the data" "trunc.data: offset 0xb98: record of type 9 and size 40 runs past the data end (32 bytes left)" 50 "$TG_TMP/trunc.data"

cp "$D/pipe.data" "$TG_TMP/pipe.data"
truncate -s 4000 "$TG_TMP/pipe.data"
expect "pipe mode, truncated" "pipe.data: offset 0xf84: record of type 9 and size 48 runs past the data end" 10 "$TG_TMP/pipe.data"

cp "$D/cpu-clock.data" "$TG_TMP/size0.data"
at=$(record_offset "$TG_TMP/size0.data" 40)
poke "$TG_TMP/size0.data" $((at + 6)) 0000
expect "a record of size 0" "size0.data: offset $(printf '0x%x' "$at"): record of type 9 has size 0 (a record is at least 8 bytes)" 30 "$TG_TMP/size0.data"

cp "$D/zstd.data" "$TG_TMP/zstd.data"
at=$(/usr/bin/python3 -c "import struct
b = open('$TG_TMP/zstd.data', 'rb').read()
off = struct.unpack_from('<Q', b, 40)[0]
while struct.unpack_from('<I', b, off)[0] != 81:
    off += struct.unpack_from('<H', b, off + 6)[0]
print(off)")
poke "$TG_TMP/zstd.data" $((at + 8)) 00000000
expect "compressed records that are not zstd" "zstd.data: offset $(printf '0x%x' "$at"): compressed records do not decompress" 2 "$TG_TMP/zstd.data"
tg_done
