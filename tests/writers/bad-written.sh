#!/bin/bash
# bad-written.sh - the damaged-input suite over what traceglot writes: CTF and uftrace
# outputs converted from corpus traces, then truncated and bit-flipped.  Reading them back
# must never crash or hang; a failure exits non-zero with an error that says where.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
[ -d "$root/uftrace/oslab-ringbuf.data" ] || { echo "SKIP: no corpus at $root"; exit 77; }
out=$TG_TMP
"$TG" convert --to ctf -o "$out/ctf" "$root/ctf/babeltrace/succeed/sequence" || exit 1
"$TG" convert --to ctf -o "$out/ctf2" "$root/uftrace/oslab-ringbuf.data" || exit 1
"$TG" convert --to uftrace -o "$out/uft" "$root/uftrace/oslab-ringbuf.data" || exit 1
fail=0 runs=0
run() { # what dir
    tg_sampled || return 0
    runs=$((runs + 1))
    timeout 20 "$TG" cat "$2" > /dev/null 2> "$out/stderr"
    local rc=$?
    if [ $rc -ge 124 ] || grep -q "Sanitizer\|runtime error" "$out/stderr"; then
        echo "FAIL $1: crashed or hung (exit $rc)"; head -5 "$out/stderr"; fail=1
    elif [ $rc -ne 0 ] && ! grep -q "error" "$out/stderr"; then
        echo "FAIL $1: exit $rc without an error"; fail=1
    fi
}
for src in ctf ctf2 uft; do
    for f in "$out/$src"/*; do
        b=$(basename "$f")
        size=$(stat -c %s "$f")
        for cut in 0 1 17 $((size / 2)) $((size - 1)); do
            [ $cut -lt "$size" ] || continue
            rm -rf "$out/d"; cp -r "$out/$src" "$out/d"
            truncate -s $cut "$out/d/$b"
            run "$src/$b truncated at $cut" "$out/d"
        done
        for at in 0 8 13 40 $((size / 3)) $((size * 2 / 3)); do
            [ $at -lt "$size" ] || continue
            rm -rf "$out/d"; cp -r "$out/$src" "$out/d"
            printf '\xa5' | dd of="$out/d/$b" bs=1 seek=$at conv=notrunc status=none
            run "$src/$b byte $at flipped" "$out/d"
        done
    done
done
echo "$runs damaged copies read"
exit $fail
