#!/bin/bash
# damaged.sh - damaged trace.dat files: a clear error with the offset, the events before the
# damage still printed, a non-zero exit, and never a crash or a hang (also under ASan/UBSan).
#
# Copies of the project's fixtures are damaged at test time in a temporary directory (nothing
# damaged is committed): a truncated file, a section offset past the end, a compressed chunk
# that does not decompress, a page whose commit runs past the page, an unknown option id,
# byte-flipped copies, and function/function_graph pages with flipped records.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
data=${TG_TEST_DATA:?}/ftrace
v6=$data/sched-irq-timer-v6.dat
v7=$data/sched-irq-timer-v7.dat
zs=$data/sched-irq-timer-v7zstd.dat
for f in "$v6" "$v7" "$zs"; do
    [ -f "$f" ] || { echo "SKIP: fixture $f is missing"; exit 77; }
done
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to damage copies"; exit 77; }
tmp=$TG_TMP
fail=0

run() { # run NAME FILE [ARGS]: sets rc, out, err
    timeout 60 "$TG" cat --style=trace-cmd "${@:2}" > "$tmp/out" 2> "$tmp/err"
    rc=$?
}

crashed() {
    [ "$rc" -ge 124 ] || grep -q -e "Sanitizer" -e "runtime error" "$tmp/err"
}

# expect NAME FILE PATTERN MIN_EVENTS: non-zero exit, PATTERN in the error, >= MIN events
expect() {
    local name=$1 file=$2 pat=$3 min=$4
    run "$name" "$file"
    local events=$(grep -c '\[[0-9][0-9][0-9]\]' "$tmp/out")
    if crashed; then
        echo "FAIL $name: crashed or hung (exit $rc): $(head -c 400 "$tmp/err")"
        fail=$((fail + 1))
    elif [ "$rc" = 0 ]; then
        echo "FAIL $name: exit status 0"
        fail=$((fail + 1))
    elif ! grep -q -e "$pat" "$tmp/err"; then
        echo "FAIL $name: error does not say '$pat': $(head -c 400 "$tmp/err")"
        fail=$((fail + 1))
    elif [ "$events" -lt "$min" ]; then
        echo "FAIL $name: only $events events printed before the error (expected >= $min)"
        fail=$((fail + 1))
    else
        echo "ok   $name (exit $rc, $events events before: $(head -1 "$tmp/err" | cut -c1-150))"
    fi
}

patch() { # patch IN OUT PYTHON-EXPR-ON-bytearray-d
    python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
exec(sys.argv[3])
open(sys.argv[2], 'wb').write(d)
PY
}

# truncated in the CPU data: the pages before the cut are printed
size=$(stat -c %s "$v6")
head -c $((size - 5000)) "$v6" > "$tmp/trunc-data.dat"
expect "truncated in the cpu data" "$tmp/trunc-data.dat" "offset" 1
# truncated in the metadata
head -c 3000 "$v6" > "$tmp/trunc-meta.dat"
expect "truncated in the metadata" "$tmp/trunc-meta.dat" "offset" 0

# v7: the first options section offset points past the end of the file
patch "$v7" "$tmp/opt-past-end.dat" "
p = d.index(b'\0', 10) + 1 + 6
p = d.index(b'\0', p) + 1
p = d.index(b'\0', p) + 1
struct.pack_into('<Q', d, p, len(d) + 12345)"
expect "section offset past the end" "$tmp/opt-past-end.dat" "past the end" 0

# v7 zstd: the first chunk of the last cpu's data loses its zstd frame magic
patch "$zs" "$tmp/bad-chunk.dat" "
p = d.index(b'\0', 10) + 1 + 6
p = d.index(b'\0', p) + 1
p = d.index(b'\0', p) + 1
sec = struct.unpack_from('<Q', d, p)[0]
cpu_offs = []
while sec:
    size = struct.unpack_from('<Q', d, sec + 8)[0]
    q, end, nxt = sec + 16, sec + 16 + size, 0
    while q < end:
        oid, osz = struct.unpack_from('<HI', d, q)
        body = q + 6
        if oid == 0:
            nxt = struct.unpack_from('<Q', d, body)[0]
        elif oid == 3:
            b = body + 8
            b = d.index(b'\0', b) + 1
            b = d.index(b'\0', b) + 1
            ncpu = struct.unpack_from('<I', d, b + 4)[0]
            b += 8
            for _ in range(ncpu):
                cpu, off, sz = struct.unpack_from('<IQQ', d, b)
                cpu_offs.append(off)
                b += 20
        q = body + osz
    sec = nxt
frame = cpu_offs[-1] + 4 + 8
assert d[frame:frame + 4] == b'\x28\xb5\x2f\xfd', 'no zstd frame at the cpu data'
d[frame:frame + 4] = b'XXXX'"
expect "chunk that does not decompress" "$tmp/bad-chunk.dat" "does not decompress" 1

# v6: the commit of a page of cpu data runs past the page (first non-empty cpu, 2nd page)
off=$("$TG" info "$v6" | awk '/data recorded at offset=/{split($5,a,"="); o=a[2]} /bytes in size/{ if ($1 > 8192 && !done) {print o; done=1} }')
patch "$v6" "$tmp/bad-commit.dat" "
off = int('$off', 16) + 4096
struct.pack_into('<Q', d, off + 8, 0x7ff0)"
expect "page commit past the page" "$tmp/bad-commit.dat" "runs past the page" 1

# unknown option id (v6 options block and v7 options section)
patch "$v6" "$tmp/bad-option6.dat" "
p = d.index(b'options  \0') + 10
struct.pack_into('<H', d, p, 0x7777)"
expect "unknown option id (v6)" "$tmp/bad-option6.dat" "unknown option id" 0
patch "$v7" "$tmp/bad-option7.dat" "
p = d.index(b'\0', 10) + 1 + 6
p = d.index(b'\0', p) + 1
p = d.index(b'\0', p) + 1
first = struct.unpack_from('<Q', d, p)[0]
struct.pack_into('<H', d, first + 16, 0x7777)"
expect "unknown option id (v7)" "$tmp/bad-option7.dat" "unknown option id" 0

# flipped_runs FILE SEED OPTIONS...: $tmp/flip.dat printed with each option string; any exit
# status, but no crash and no hang
flipped_runs() {
    local f=$1 seed=$2 opt
    shift 2
    for opt in "$@"; do
        tg_sampled || continue
        run flip "$tmp/flip.dat" $opt
        if crashed; then
            echo "FAIL flipped $(basename "$f") seed $seed $opt: crashed or hung (exit $rc)"
            head -c 600 "$tmp/err"
            fail=$((fail + 1))
        fi
    done
}

# byte-flipped copies: any exit status, but no crash and no hang
for f in "$v6" "$v7" "$zs"; do
    for seed in 1 2 3 4 5 6 7 8; do
        patch "$f" "$tmp/flip.dat" "
import random
r = random.Random($seed)
for _ in range(40):
    i = r.randrange(len(d))
    d[i] ^= 1 << r.randrange(8)"
        flipped_runs "$f" $seed "" --raw
        timeout 60 "$TG" info "$tmp/flip.dat" > /dev/null 2> "$tmp/err"
        rc=$?
        if crashed; then
            echo "FAIL info on flipped $(basename "$f") seed $seed: crashed or hung (exit $rc)"
            fail=$((fail + 1))
        fi
    done
    echo "ok   byte-flipped copies of $(basename "$f")"
done

# function and function_graph records with nonsense in them (depths, durations, addresses,
# record types: flips in the ring-buffer pages at the end of the file), with the plugins'
# options: any exit status, but no crash and no hang
for f in "$data/fgraph-le64-4cpu-v6.dat" "$data/func-le32-2cpu-v6.dat" "$data/fgraph-le64-4cpu-v7zstd.dat"; do
    [ -f "$f" ] || continue
    for seed in 1 2 3 4 5 6; do
        patch "$f" "$tmp/flip.dat" "
import random
r = random.Random($seed)
for _ in range(60):
    i = len(d) - 1 - r.randrange(len(d) // 3)
    d[i] ^= 1 << r.randrange(8)"
        flipped_runs "$f" $seed "" --raw "-O fgraph:tailprint -O fgraph:depth=1 -O ftrace:parent=1 -O offset=1"
    done
    echo "ok   nonsense function records in $(basename "$f")"
done
[ "$fail" = 0 ]
