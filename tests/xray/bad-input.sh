#!/bin/bash
# bad-input.sh - damaged XRay logs and binaries: truncated and byte-flipped copies of every
# log (made here, in a temp dir), an unknown record kind, buffer extents past the end of the
# file, function ids missing from the map, binaries without an xray_instr_map section.
# Expected: a clear error naming the offset and a non-zero exit for damage, the records
# before the damage still printed, never a crash (signal, sanitizer report) or a hang.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=${TG_TEST_DATA:-$here/../data}/xray
corpus=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}/gen/xray
out=$TG_TMP
logs=()
for f in "$data"/fdr.xray "$data"/basic.xray "$corpus"/fdr-visible.xray "$corpus"/basic-visible.xray; do
    [ -f "$f" ] && logs+=("$f")
done
[ ${#logs[@]} -gt 0 ] || { echo "SKIP: no XRay logs found"; exit 77; }
fail=0
# run NAME EXPECT(ok|err|any) ARGS... : runs traceglot with a time limit
run() {
    local name=$1 expect=$2
    shift 2
    checks=$((${checks:-0} + 1))
    timeout 20 "$TG" "$@" > "$out/stdout" 2> "$out/stderr"
    local rc=$?
    if [ $rc -ge 124 ] || grep -q "Sanitizer\|runtime error" "$out/stderr"; then
        echo "FAIL $name: crashed or hung (exit $rc)"; head -5 "$out/stderr"; fail=1; return
    fi
    # report --style=xray says what llvm-xray account says of a log it cannot load (its
    # message names the log, not the offset: tests/xray/llvm-options.sh checks its bytes)
    local said="offset\|xray_instr_map\|ELF"
    [ "$1 $2" = "report --style=xray" ] && said="offset\|xray_instr_map\|ELF\|^traceglot: error: Failed loading input file '"
    if [ "$expect" = err ] && { [ $rc -eq 0 ] || ! grep -q "$said" "$out/stderr"; }; then
        echo "FAIL $name: expected an error with an offset (exit $rc)"; head -3 "$out/stderr"; fail=1; return
    fi
    if [ "$expect" = ok ] && [ $rc -ne 0 ]; then
        echo "FAIL $name: exit $rc"; head -3 "$out/stderr"; fail=1; return
    fi
}
for log in "${logs[@]}"; do
    b=$(basename "$log")
    size=$(stat -c %s "$log")
    # truncated copies: inside the header, inside records
    for cut in 0 10 31 33 $((size / 2 + 3)) $((size - 5)) $((size - 1)); do
        [ $cut -lt $size ] || continue
        head -c $cut "$log" > "$out/t.xray"
        exp=any
        [ $cut -gt 32 ] && exp=err
        for cmd in "cat --style=xray-yaml" "report --style=xray" "cat" "convert --to chrome" \
            "graph --style=xray -k"; do
            tg_sampled || continue
            run "$b truncated at $cut: $cmd" $exp $cmd "$out/t.xray"
        done
    done
    # byte flips at pseudo-random places (fixed seed: reproducible)
    for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
        cp "$log" "$out/f.xray"
        python3 - "$out/f.xray" $seed <<'PY'
import random, sys
p, seed = sys.argv[1], int(sys.argv[2])
d = bytearray(open(p, 'rb').read())
r = random.Random(seed)
for _ in range(1 + seed % 4):
    i = r.randrange(32, len(d))
    d[i] ^= 1 << r.randrange(8)
open(p, 'wb').write(bytes(d))
PY
        for cmd in "cat --style=xray-yaml" "report --style=xray" "cat" "graph --style=xray -k"; do
            tg_sampled || continue
            run "$b flipped (seed $seed): $cmd" any $cmd "$out/f.xray"
        done
    done
done

fdr=$data/fdr.xray
basic=$data/basic.xray
[ -f "$fdr" ] || fdr=$corpus/fdr-visible.xray
[ -f "$basic" ] || basic=$corpus/basic-visible.xray
# FDR: an unknown metadata record kind (12) where the 10th record of the first buffer starts
python3 - "$fdr" "$out/unknown.xray" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
off, n = 32 + 16, 0          # after the header and the first BufferExtents
while n < 10:
    off += 16 if d[off] & 1 else 8
    n += 1
d[off] = (12 << 1) | 1
open(sys.argv[2], 'wb').write(bytes(d))
PY
run "fdr unknown record kind" err cat --style=xray-yaml "$out/unknown.xray"
grep -q "unknown metadata record kind" "$out/stderr" || { echo "FAIL: unknown kind not named"; fail=1; }
grep -q "kind: function" "$out/stdout" || { echo "FAIL: records before the damage not printed"; fail=1; }
# FDR: buffer extents past the end of the file
python3 - "$fdr" "$out/extents.xray" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
assert d[32] == (7 << 1) | 1
struct.pack_into('<Q', d, 33, 1 << 40)
open(sys.argv[2], 'wb').write(bytes(d))
PY
run "fdr extents past the end" err report --style=xray "$out/extents.xray"
grep -q "run past the end of the file" "$out/stderr" || { echo "FAIL: extents error not named"; fail=1; }
# basic: an unknown record type in the 4th record
python3 - "$basic" "$out/btype.xray" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<H', d, 32 + 3 * 32, 7)
open(sys.argv[2], 'wb').write(bytes(d))
PY
run "basic unknown record type" err cat --style=xray-yaml "$out/btype.xray"
grep -q "unknown record type 7" "$out/stderr" || { echo "FAIL: basic record type not named"; fail=1; }
grep -q "kind: function" "$out/stdout" || { echo "FAIL: basic records before the damage not printed"; fail=1; }
# function ids missing from the map: llvm-xray names them "#ID" and so does traceglot
tbin=$(type -P true)
run "binary without xray_instr_map" err report --style=xray --instr-map "$tbin" "$fdr"
grep -q "no xray_instr_map section" "$out/stderr" || { echo "FAIL: missing section not named"; fail=1; }
echo "not an ELF file" > "$out/notelf"
run "instr-map not ELF" err report --style=xray --instr-map "$out/notelf" "$fdr"
run "instr-map missing" any report --style=xray --instr-map "$out/does-not-exist" "$fdr"
grep -q "does-not-exist" "$out/stderr" || { echo "FAIL: missing binary not named"; fail=1; }
if [ -f "$corpus/xray-app-visible" ]; then
    # the corpus binary has fewer functions than ids in a log of a bigger program
    python3 - "$fdr" "$out/bigid.xray" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = 32 + 16
while d[off] & 1:
    off += 16
w = struct.unpack_from('<I', d, off)[0]
struct.pack_into('<I', d, off, (w & 0xF) | (4000 << 4))
open(sys.argv[2], 'wb').write(bytes(d))
PY
    run "function id missing from the map" ok cat --style=xray-yaml --instr-map "$corpus/xray-app-visible" "$out/bigid.xray"
    grep -q "func-id: 4000, function: '#4000'" "$out/stdout" || { echo "FAIL: missing id not shown as #4000"; fail=1; }
fi
# damaged debug info and instrumentation map in a binary built with -g (needs clang-14)
if XRAY_APP_CFLAGS="-g -O0" bash "$here/build-app.sh" "$out/g" > /dev/null 2>&1; then
    (cd "$out/g" && XRAY_OPTIONS="xray_logfile_base=$out/g/fdr-" ./xray_app fdr 2 2>/dev/null)
    glog=$(ls "$out"/g/fdr-xray_app.* 2>/dev/null | head -1)
    for seed in 1 2 3 4 5 6 7 8; do
        python3 - "$out/g/xray_app" "$out/g/bad" $seed <<'PY'
import random, struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
r = random.Random(int(sys.argv[3]))
shoff, = struct.unpack_from('<Q', d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
def sh(i):
    return struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
stro = sh(shstrndx)[4]
for i in range(shnum):
    name_off, typ, flags, addr, off, size = sh(i)[:6]
    end = d.index(b'\0', stro + name_off)
    name = d[stro + name_off:end].decode()
    if name in ('.debug_line', 'xray_instr_map', '.debug_line_str', '.symtab', '.strtab') and size:
        for _ in range(4):
            j = off + r.randrange(size)
            d[j] = r.randrange(256)
open(sys.argv[2], 'wb').write(bytes(d))
PY
        [ -n "$glog" ] && run "damaged -g binary (seed $seed)" any report --style=xray --instr-map "$out/g/bad" "$glog"
    done
    head -c 5000 "$out/g/xray_app" > "$out/g/short"
    [ -n "$glog" ] && run "truncated binary" err report --style=xray --instr-map "$out/g/short" "$glog"
fi
[ $fail -eq 0 ] && echo "ok   all damaged inputs handled (${checks:-0} runs)"
exit $fail
