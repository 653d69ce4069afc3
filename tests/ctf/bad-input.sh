#!/bin/bash
# bad-input.sh - damaged copies of CTF traces, made here in a temp dir: stream files and
# metadata truncated at several places, bytes flipped across packet headers, contexts and
# payloads, metadata lines mangled, absurd sizes and sequence lengths.  Expected: never a
# crash (signal, sanitizer report) or a hang; truncations fail cleanly with a non-zero exit
# and an error naming the file and offset (or the metadata line); any failure says what.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=${TG_TEST_DATA:-$here/../data}/ctf
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
out=$TG_TMP
traces=()
for t in "$data"/*/ "$root"/ctf/babeltrace/succeed/{sequence,wk-heartbeat-u,2packets,smalltrace,meta-variant-one-underscore}/ \
         "$root"/gen/ctf/ust-types-visible/ust/uid/0/64-bit/; do
    [ -f "$t/metadata" ] && traces+=("${t%/}")
done
[ ${#traces[@]} -gt 0 ] || { echo "SKIP: no CTF traces found (fixtures or corpus)"; exit 77; }
fail=0 runs=0
run() { # name expect(err|any) dir
    local name=$1 expect=$2 dir=$3
    tg_sampled || return 0
    runs=$((runs + 1))
    timeout 20 "$TG" cat --style=babeltrace "$dir" > "$out/stdout" 2> "$out/stderr"
    local rc=$?
    if [ $rc -ge 124 ] || grep -q "Sanitizer\|runtime error" "$out/stderr"; then
        echo "FAIL $name: crashed or hung (exit $rc)"; head -5 "$out/stderr"; fail=1; return
    fi
    if [ $rc -ne 0 ] && ! grep -q "offset 0x\|metadata line\|metadata" "$out/stderr"; then
        echo "FAIL $name: exit $rc without a located error"; head -3 "$out/stderr"; fail=1; return
    fi
    if [ "$expect" = err ] && [ $rc -eq 0 ]; then
        echo "FAIL $name: expected a failure, got exit 0"; fail=1; return
    fi
}
# fresh_copy T: $out/t becomes an intact, writable copy of trace T (done once per trace;
# each case below damages one file and restore puts that file back).
fresh_copy() { rm -rf "$out/t"; cp -r "$1" "$out/t"; chmod -R u+w "$out/t"; }
restore() { cp "$1" "$out/t/$(basename "$1")"; }
n=0
for t in "${traces[@]}"; do
    n=$((n + 1))
    fresh_copy "$t"
    for f in "$t"/*; do
        [ -f "$f" ] || continue
        b=$(basename "$f")
        size=$(stat -c %s "$f")
        [ $size -gt 0 ] || continue
        # truncations
        for cut in 1 17 40 $((size / 3)) $((size / 2 + 1)) $((size - 3)); do
            [ $cut -gt 0 ] && [ $cut -lt $size ] || continue
            head -c $cut "$f" > "$out/t/$b"
            if [ "$b" = metadata ]; then run "$n/$b cut $cut" any "$out/t"
            else run "$n/$b cut $cut" err "$out/t"; fi
        done
        # byte flips
        for k in 0 1 2 3 5 8 13 21 34 55 89; do
            off=$(( (size * k / 97 + k * 7) % size ))
            restore "$f"
            for v in 255 0 127; do
                printf "$(printf '\\%03o' $v)" | dd of="$out/t/$b" bs=1 seek=$off conv=notrunc 2>/dev/null
                run "$n/$b flip @$off=$v" any "$out/t"
            done
        done
        restore "$f"
    done
done
# token-level damage to plain-text metadata: tokens deleted, duplicated, swapped, replaced
for t in "${traces[@]}"; do
    head -c 4 "$t/metadata" | grep -q '/\*\|[a-z]' || continue   # plain text only
    fresh_copy "$t"
    for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        restore "$t/metadata"
        python3 - "$out/t/metadata" $seed <<'P'
import random, sys
path, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
toks = open(path, "rb").read().split(b" ")
for _ in range(rnd.randint(1, 4)):
    i = rnd.randrange(len(toks))
    op = rnd.randint(0, 3)
    if op == 0: del toks[i]
    elif op == 1: toks.insert(i, rnd.choice(toks))
    elif op == 2: toks[i] = rnd.choice([b"{", b"}", b";", b"[", b"]", b"99999999999999999999", b"-1",
                                        b"0", b"struct", b"variant", b"<", b">", b"enum", b":", b"x", b"..."])
    else:
        j = rnd.randrange(len(toks)); toks[i], toks[j] = toks[j], toks[i]
open(path, "wb").write(b" ".join(toks))
P
        run "$(basename "$t")/metadata tokens seed $seed" any "$out/t"
    done
done
echo "$runs damaged runs"
[ $fail -eq 0 ]
