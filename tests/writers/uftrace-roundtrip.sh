#!/bin/bash
# uftrace-roundtrip.sh - uftrace data written by traceglot, read by uftrace itself:
# - every uftrace data directory of the corpus, whole and for one thread: `uftrace replay`
#   and `uftrace report` of the output equal uftrace's own on the input (with --tid);
# - XRay logs (with their instrumentation map) and LTTng-UST cyg-profile traces: `uftrace
#   replay` of the output equals `traceglot replay` of the input;
# - traceglot reads back what it wrote from uftrace data: `traceglot cat` prints the same
#   (a pointer to a function, `0xADDR <name>`, is compared by the function it names: the
#   written data places every function in its one module, at its own address).
# Data recorded with arguments and return values (-a) is written with them.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
command -v uftrace > /dev/null || { echo "SKIP: uftrace not installed"; exit 77; }
[ -d "$root" ] || { echo "SKIP: no corpus at $root"; exit 77; }
out=$TG_TMP
fail=0 n=0
check() { # what expected actual
    if cmp -s "$2" "$3"; then
        echo "ok $1"
    else
        echo "FAIL $1"; diff "$2" "$3" | head -6; fail=1
    fi
}
for d in "$root"/gen/uftrace/*.data "$root"/uftrace/*.data "$root"/mixed/app.uftrace.data; do
    [ -d "$d" ] || continue
    name=$(basename "$d" .data)
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name" "$d" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    for cmd in replay report; do
        uftrace $cmd -d "$d" > "$out/in.txt" 2>&1
        uftrace $cmd -d "$out/$name" > "$out/out.txt" 2>&1
        check "$name: uftrace $cmd" "$out/in.txt" "$out/out.txt"
    done
    "$TG" cat "$d" 2>&1 | sed -E 's/=0x[0-9a-f]+ <([^>]*)>/=<\1>/g' > "$out/in.txt"
    "$TG" cat "$out/$name" 2>&1 | sed -E 's/=0x[0-9a-f]+ <([^>]*)>/=<\1>/g' > "$out/out.txt"
    check "$name: traceglot cat OUT = traceglot cat IN" "$out/in.txt" "$out/out.txt"
    tid=$(cd "$d" && ls [0-9]*.dat | sed 's/\.dat$//' | sort -n | tail -1)
    if ! "$TG" convert --to uftrace --tid "$tid" -o "$out/$name-$tid" "$d" 2> "$out/err"; then
        echo "FAIL $name --tid $tid: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    for cmd in replay report; do
        uftrace $cmd --tid "$tid" -d "$d" > "$out/in.txt" 2>&1
        uftrace $cmd -d "$out/$name-$tid" > "$out/out.txt" 2>&1
        check "$name: uftrace $cmd --tid $tid" "$out/in.txt" "$out/out.txt"
    done
done
replay_as_traceglot() { # name input-args...
    local name=$1; shift
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name" "$@" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; return
    fi
    "$TG" replay "$@" > "$out/in.txt" 2>&1
    uftrace replay -d "$out/$name" > "$out/out.txt" 2>&1
    check "$name: uftrace replay = traceglot replay" "$out/in.txt" "$out/out.txt"
}
map="$root/gen/xray/xray-app-visible"
for x in "$root"/gen/xray/*.xray; do
    [ -f "$x" ] && replay_as_traceglot "$(basename "$x")" --instr-map "$map" "$x"
done
for c in "$root"/gen/ctf/ust-cyg-*/; do
    [ -d "$c" ] && replay_as_traceglot "$(basename "$c")" "${c%/}"
done
[ $n -gt 0 ] || { echo "SKIP: no uftrace, XRay or cyg-profile traces in $root"; exit 77; }
exit $fail
