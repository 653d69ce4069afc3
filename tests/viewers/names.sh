#!/bin/bash
# names.sh - the Perfetto output names processes and threads as their tracers do: uftrace
# recordings as `uftrace info` lists its tasks (the .info.txt beside each recording, written
# by uftrace), LTTng-UST as babeltrace2 shows each thread's procname context.  A name that
# differs fails, and so does a thread left unnamed (a forked child without a task-name
# record is named by the tasks the trace lists, as uftrace info names it).  Skips without
# the corpus, protoc or Perfetto's schema.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
corpus=${TG_CORPUS:-}
here=$(cd "$(dirname "$0")" && pwd)
proto=$corpus/../specs/perfetto_trace.proto
[ -d "$corpus/gen" ] || { echo "SKIP: corpus not found ($corpus)"; exit 77; }
command -v protoc >/dev/null || { echo "SKIP: protoc is not installed"; exit 77; }
[ -f "$proto" ] || { echo "SKIP: $proto not found"; exit 77; }
tmp=$TG_TMP
fail=0 passed=0

# names INPUT... -> $tmp/names: `process PID NAME` / `thread TID NAME` of the Perfetto output
names() {
    "$TG" convert --to perfetto --force -o "$tmp/out.pftrace" "$@" &&
        protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
            "$(basename "$proto")" <"$tmp/out.pftrace" >"$tmp/decoded" &&
        python3 "$here/check_outputs.py" perfetto-names "$tmp/decoded" >"$tmp/names"
}

# compare LABEL EXPECTED-FILE: EXPECTED holds `KIND ID NAME` lines
compare() {
    local label=$1 kind id name got named=0
    while read -r kind id name; do
        got=$(awk -v k="$kind" -v i="$id" '$1 == k && $2 == i { sub(/^[^ ]+ [^ ]+ /, ""); print }' "$tmp/names")
        if [ "$got" = "$name" ]; then
            named=$((named + 1))
        else
            echo "FAIL $label: $kind $id named '$got', expected '$name'"; fail=$((fail + 1)); return
        fi
    done <"$2"
    echo "ok   $label: $named names as expected"; passed=$((passed + 1))
}

for info in "$corpus"/gen/uftrace/*.info.txt "$here"/../data/uftrace/*.info.txt; do
    data=${info%.info.txt}.data
    [ -d "$data" ] || continue
    # "# task list : 5044(calls), 5046(calls)" -> thread lines, the first the main thread
    sed -n 's/^# task list *: //p' "$info" | tr ',' '\n' |
        sed -n 's/^ *\([0-9]*\)(\(.*\))$/thread \1 \2/p' >"$tmp/expected"
    # the first task is the process uftrace recorded: its name is the process's
    sed -n '1s/^thread/process/p' "$tmp/expected" >>"$tmp/expected"
    names "$data" || { echo "FAIL $(basename "$data"): convert failed"; fail=$((fail + 1)); continue; }
    compare "$(basename "$data")" "$tmp/expected"
done

ust=$corpus/gen/ctf/ust-cyg-visible
if [ -d "$ust" ] && command -v babeltrace2 >/dev/null; then
    # the procname context of each thread's first event, and of each process's main thread
    babeltrace2 "$ust" | sed -n 's/.*{ vpid = \([0-9]*\), vtid = \([0-9]*\), procname = "\([^"]*\)" }.*/\1 \2 \3/p' |
        awk '$1 == $2 && !p[$1]++ { print "process", $1, $3 } !t[$2]++ { print "thread", $2, $3 }' |
        sort -k1,1r -s >"$tmp/expected"
    # the statedump events come from lttng-ust's listener thread: named by its own procname
    names "$ust" && compare ust-cyg-visible "$tmp/expected" ||
        { echo "FAIL ust-cyg-visible: convert failed"; fail=$((fail + 1)); }
else
    echo "SKIP (LTTng-UST): $ust or babeltrace2 missing"
fi
echo "$passed passed, $fail failed"
[ "$fail" = 0 ]
