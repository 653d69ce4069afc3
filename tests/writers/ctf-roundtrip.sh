#!/bin/bash
# ctf-roundtrip.sh - every CTF trace of the corpus converted to CTF by traceglot, whole and
# trimmed to 10%-90% of its time range: `babeltrace2 OUT` must print exactly what
# `babeltrace2 IN` prints (trimmed: `babeltrace2 --begin=B --end=E IN`); the clock classes
# and the trace environment babeltrace2 sees (`-c sink.text.details`) must be the input's;
# and traceglot must read back what it wrote (`traceglot cat OUT` = `traceglot cat IN`).
# CTF 2 traces: babeltrace2 2.0 reads no CTF 2, so the output of a CTF 2 trace that has a
# CTF 1.8 twin (the same data streams) is compared with babeltrace2 on the twin.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
command -v babeltrace2 > /dev/null || { echo "SKIP: babeltrace2 not installed"; exit 77; }
traces=()
for t in "$root"/ctf/babeltrace/succeed/*/ "$root"/gen/ctf/*/ "$root"/mixed/ust/ "$root"/ctf/ctf2/*/; do
    [ -d "$t" ] && traces+=("${t%/}")
done
[ ${#traces[@]} -gt 0 ] || { echo "SKIP: no CTF traces in $root"; exit 77; }
out=$TG_TMP
fail=0 n=0
check() { # what expected actual
    if ! cmp -s "$2" "$3"; then
        echo "FAIL $1"; diff "$2" "$3" | head -6; fail=1
    fi
}
# the clock classes and environments babeltrace2 reads from a trace
meaning() {
    babeltrace2 -c sink.text.details "$1" 2> /dev/null | awk '
        /^ *Default clock class:/ { c = 1; ind = match($0, /[^ ]/); print; next }
        c && match($0, /[^ ]/) > ind { print; next }
        { c = 0 }
        /^ *Environment \(/ { e = 1; ind = match($0, /[^ ]/); print; next }
        e && match($0, /[^ ]/) > ind { print; next }
        { e = 0 }' | sort -u
}
for t in "${traces[@]}"; do
    name=$(basename "$t")
    bt=$t # what babeltrace2 reads for the input
    case "$t" in
    */ctf2/*)
        bt="$root/ctf/babeltrace/succeed/${name#CTF2-7.0-}"
        [ "$bt" != "$root/ctf/babeltrace/succeed/$name" ] && [ -d "$bt" ] || bt= ;;
    esac
    n=$((n + 1))
    if ! "$TG" convert --to ctf -o "$out/$name" "$t" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    babeltrace2 "$out/$name" > "$out/out.txt" 2> "$out/bterr" || { echo "FAIL $name: babeltrace2 rejects the output"; head -5 "$out/bterr"; fail=1; continue; }
    if [ -n "$bt" ]; then
        babeltrace2 "$bt" > "$out/in.txt" 2> /dev/null
        check "$name: babeltrace2 OUT != babeltrace2 IN" "$out/in.txt" "$out/out.txt"
        meaning "$bt" > "$out/in.txt"
        meaning "$out/$name" > "$out/out.txt"
        check "$name: clock classes or environment differ (babeltrace2 -c sink.text.details)" "$out/in.txt" "$out/out.txt"
    fi
    "$TG" cat "$t" > "$out/cat-in.txt" 2> /dev/null
    "$TG" cat "$out/$name" > "$out/cat-out.txt" 2> /dev/null
    check "$name: traceglot cat OUT != traceglot cat IN" "$out/cat-in.txt" "$out/cat-out.txt"
    # trimmed: 10% .. 90% of the time range, for traces that have times
    range=$("$TG" info "$t" 2> /dev/null | sed -n 's/^time range: *\([0-9.]*\) \.\. \([0-9.]*\) .*/\1 \2/p' | head -1)
    [ -n "$range" ] || continue
    read -r first last <<< "$range"
    read -r b e <<< "$(python3 -c "
f, l = (int(x.replace('.', '')) for x in '$first $last'.split())
d = l - f
print('%d.%09d %d.%09d' % (divmod(f + d // 10, 10**9) + divmod(f + d * 9 // 10, 10**9)))")"
    [ "$b" != "$e" ] && [ -n "$bt" ] || continue
    if ! "$TG" convert --to ctf --begin "$b" --end "$e" -o "$out/$name-trim" "$t" 2> "$out/err"; then
        echo "FAIL $name trimmed: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    babeltrace2 --begin="$b" --end="$e" "$bt" > "$out/in.txt" 2> /dev/null
    babeltrace2 "$out/$name-trim" > "$out/out.txt" 2> /dev/null
    check "$name trimmed to $b .. $e" "$out/in.txt" "$out/out.txt"
done
echo "$n traces converted"
exit $fail
