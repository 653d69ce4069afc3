#!/bin/bash
# cpu-tid.sh - CTF events carry their cpu (the packet context's cpu_id) and thread (the
# contexts' vtid, else tid) in the model, as babeltrace2 shows them:
# - `--cpu N` / `--tid N` with --style=babeltrace print the lines of babeltrace2's text whose
#   cpu_id / vtid (tid) is N (babeltrace2's deltas left out: they follow the lines printed);
# - the native style's cpu= and tid= columns count the same events (its lost-events lines,
#   babeltrace2's warnings, carry their packet's cpu and no thread);
# - Chrome JSON and Perfetto put each event on its thread's track;
# - a trace.dat converted to CTF keeps every event's cpu and tid (traceglot's native text
#   of both equal in those columns; lost records become packets' discarded counts, which
#   CTF cannot say before a stream's first packet, so they are left out).
# On LTTng-UST traces recorded by record-fixtures.sh (vtid), on make-threads.py's
# LTTng-modules-like kernel trace (tid) and on make-byte-order.py's big-endian trace with a
# little-endian stream class (vtid), with the babeltrace2 texts recorded beside them.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd python3
py=/usr/bin/python3
[ -x $py ] || py=python3
check_outputs=$TG_TESTS/viewers/check_outputs.py
data=$TG_TEST_DATA/ctf
export TZ=UTC
python3 "$TG_TESTS/ctf/make-threads.py" "$TG_TMP/t" || exit 1
python3 "$TG_TESTS/ctf/make-byte-order.py" "$TG_TMP/t" || exit 1

nodelta() { sed 's/ (+[^)]*)//'; }
# the thread babeltrace2 shows: the vtid (else tid) of the context after the cpu_id
thread_of() { sed -n 's/^[^{]*{ cpu_id = [0-9]* }, { \([^}]*, \)*v\{0,1\}tid = \([0-9]*\)[,} ].*/\2/p'; }

check_trace() { # NAME TRACE EXPECTED
    local name=$1 t=$2 exp=$3 n got want
    nodelta <"$exp" >"$TG_TMP/exp"
    for n in $(sed -n 's/^[^{]*{ cpu_id = \([0-9]*\) }.*/\1/p' "$exp" | sort -un); do
        grep "^[^{]*{ cpu_id = $n }" "$TG_TMP/exp" >"$TG_TMP/want"
        "$TG" cat --style=babeltrace --cpu "$n" "$t" | nodelta >"$TG_TMP/got"
        tg_same "$name --cpu $n ($(wc -l <"$TG_TMP/want") events)" "$TG_TMP/want" "$TG_TMP/got"
        want=$(wc -l <"$TG_TMP/want")
        got=$("$TG" cat "$t" | grep -v " lost events: " | grep -c "^[0-9.]* cpu=$n ")
        [ "$got" = "$want" ] && tg_pass "$name native cpu=$n" ||
            tg_fail "$name native cpu=$n" "$got events, babeltrace2 shows $want"
    done
    thread_of <"$exp" | sort -n | uniq -c | awk '{ print $2, $1 }' >"$TG_TMP/threads"
    [ -s "$TG_TMP/threads" ] || { tg_fail "$name" "no thread in babeltrace2's text"; return; }
    while read -r n want; do
        awk -v n="$n" '{ l = $0; sub(/^[^{]*\{ cpu_id = [0-9]* \}, \{ ([^}]*, )*v?tid = /, "", l) }
                       l != $0 && l ~ ("^" n "[,} ]")' "$TG_TMP/exp" >"$TG_TMP/want"
        "$TG" cat --style=babeltrace --tid "$n" "$t" | nodelta >"$TG_TMP/got"
        tg_same "$name --tid $n ($want events)" "$TG_TMP/want" "$TG_TMP/got"
        got=$("$TG" cat "$t" | grep -c "^[0-9.]* cpu=[0-9]* tid=$n ")
        [ "$got" = "$want" ] && tg_pass "$name native tid=$n" ||
            tg_fail "$name native tid=$n" "$got events, babeltrace2 shows $want"
    done <"$TG_TMP/threads"
}

# the instants of each thread in the viewers' outputs (function traces: calls, not instants)
check_viewers() { # NAME TRACE EXPECTED
    local name=$1 t=$2 exp=$3
    thread_of <"$exp" | sort | uniq -c | awk '{ print $2, $1 }' | sort >"$TG_TMP/want"
    "$TG" convert --to chrome --force -o "$TG_TMP/v.json" "$t" &&
        $py "$check_outputs" chrome-threads "$TG_TMP/v.json" |
        awk 'NR == FNR { want[$1] = 1; next } want[$1]' "$TG_TMP/want" - | sort >"$TG_TMP/got"
    tg_same "$name chrome: events per thread" "$TG_TMP/want" "$TG_TMP/got"
    if command -v protoc >/dev/null && [ -f "$TG_CORPUS/../specs/perfetto_trace.proto" ]; then
        "$TG" convert --to perfetto --force -o "$TG_TMP/v.pftrace" "$t" &&
            protoc --proto_path="$TG_CORPUS/../specs" --decode=perfetto.protos.Trace \
                perfetto_trace.proto <"$TG_TMP/v.pftrace" >"$TG_TMP/v.txt" &&
            $py "$check_outputs" perfetto-threads "$TG_TMP/v.txt" |
            awk 'NR == FNR { want[$1] = 1; next } want[$1]' "$TG_TMP/want" - | sort >"$TG_TMP/got"
        tg_same "$name perfetto: events per thread" "$TG_TMP/want" "$TG_TMP/got"
    fi
}

check_trace kernel-threads "$TG_TMP/t/kernel-threads" "$data/handmade/kernel-threads.babeltrace2.txt"
check_viewers kernel-threads "$TG_TMP/t/kernel-threads" "$data/handmade/kernel-threads.babeltrace2.txt"
# a big-endian kernel stream class and a little-endian one: cpu_id and vtid in both orders
check_trace byte-order "$TG_TMP/t/byte-order" "$data/handmade/byte-order.babeltrace2.txt"
for n in types cyg rotation; do
    [ -d "$data/$n" ] || continue
    check_trace "$n" "$data/$n" "$data/$n.babeltrace2.txt"
done
check_viewers types "$data/types" "$data/types.babeltrace2.txt"

# trace.dat -> CTF -> the same cpu and tid on every event
for dat in "$TG_TEST_DATA"/ftrace/all-events-v7.dat; do
    [ -f "$dat" ] || continue
    "$TG" convert --to ctf -o "$TG_TMP/rt.ctf" "$dat" || { tg_fail "convert $dat" "failed"; continue; }
    "$TG" cat "$dat" | awk '$4 != "lost:" { print $1, $2, $3 }' >"$TG_TMP/want"
    "$TG" cat "$TG_TMP/rt.ctf" | awk '$3 != "lost" { print $1, $2, $3 }' >"$TG_TMP/got"
    tg_same "$(basename "$dat") -> ctf: cpu and tid kept" "$TG_TMP/want" "$TG_TMP/got"
    rm -rf "$TG_TMP/rt.ctf"
done
tg_done
