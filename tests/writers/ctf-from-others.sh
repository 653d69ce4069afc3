#!/bin/bash
# ctf-from-others.sh - uftrace, ftrace, XRay and LTTng 0.x corpus traces converted to CTF: babeltrace2
# reads every one and prints one line per event with the names and times `traceglot cat`
# shows (lost records become discarded-event counts, not lines); traceglot reads it back
# with the same events.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
command -v babeltrace2 > /dev/null || { echo "SKIP: babeltrace2 not installed"; exit 77; }
[ -d "$root" ] || { echo "SKIP: no corpus at $root"; exit 77; }
out=$TG_TMP
inputs=()
for d in "$root"/gen/uftrace/*.data "$root"/uftrace/*.data "$root"/mixed/app.uftrace.data \
         "$root"/gen/ftrace/*.dat "$root"/ftrace/*.dat "$root"/ftrace-func/*.dat "$root"/mixed/kernel.dat \
         "$root"/lttng0/*/; do
    [ -e "$d" ] && inputs+=("${d%/}")
done
map="$root/gen/xray/xray-app-visible"
for x in "$root"/gen/xray/*.xray; do
    [ -e "$x" ] && inputs+=("$x --instr-map $map")
done
[ ${#inputs[@]} -gt 0 ] || { echo "SKIP: no uftrace, ftrace or XRay traces in $root"; exit 77; }
fail=0
for spec in "${inputs[@]}"; do
    read -r -a args <<< "$spec"
    name=$(basename "${args[0]}")
    o="$out/$name.ctf"
    if ! "$TG" convert --to ctf -o "$o" "${args[@]}" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    # the times and names only: the trace's fields (host, process) are the env's
    if ! babeltrace2 "$o" -c sink.text.pretty -p 'clock-seconds=yes,field-trace:hostname=no,field-trace:procname=no,field-trace:vpid=no' > "$out/bt.txt" 2> "$out/bterr"; then
        echo "FAIL $name: babeltrace2 rejects the output"; grep -m3 -i error "$out/bterr"; fail=1; continue
    fi
    # (time, name) of every event but lost records, as traceglot cat and babeltrace2 show them
    "$TG" cat "${args[@]}" 2> /dev/null | awk '$0 !~ /^[0-9.-]+ (cpu=[0-9]+ )?(tid=[-0-9]+ )?(uftrace:lost|lost events|lost):/ {
        t = $1; n = ""; i = 2
        while (i <= NF && $i ~ /^(cpu|tid)=/) i++
        for (; i <= NF; i++) { n = n (n == "" ? "" : " ") $i; if ($i ~ /:$/) break }
        print t, n }' | sort > "$out/cat.txt"
    sed -E 's/^\[([0-9.]+)\] \([^)]*\) (.*): \{.*/\1 \2:/' "$out/bt.txt" | sort > "$out/btn.txt"
    if ! cmp -s "$out/cat.txt" "$out/btn.txt"; then
        echo "FAIL $name: babeltrace2's events differ from traceglot cat's (time, name)"
        diff "$out/cat.txt" "$out/btn.txt" | head -6; fail=1
    fi
    "$TG" cat "$o" > /dev/null 2> "$out/err" || { echo "FAIL $name: traceglot cannot read what it wrote: $(head -2 "$out/err")"; fail=1; }
    echo "ok $name: $(wc -l < "$out/bt.txt") events"
done
exit $fail
