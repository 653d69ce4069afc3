#!/bin/bash
# golden-corpus.sh - LTTV's text dump of the corpus trace, and the event counts.
#
# The reference (trace-15316events-2.5.lttv-textdump.txt) is LTTV's text dump after the
# trace's recording path was normalised: every "/tmp/trace1" reads
# "traceset/trace_15316events_nolost_newformat" (the same as its path column) and every
# ".txt" was removed: 23 payload strings of the trace (file_descriptor file names) read so in
# it and not in the trace's bytes.  The same two substitutions are applied to traceglot's
# output, and the test checks that they change exactly those 23 lines and nothing else.
# Then all 15,316 lines must be identical: name, time, tracefile, payload and the process
# columns of LTTV's state model.  Counted separately: payload lines and process columns.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
C=${TG_CORPUS:?}/lttng0
ref=$C/trace-15316events-2.5.lttv-textdump.txt
[ -f "$ref" ] || { echo "SKIP: no LTTng 0.x corpus in $C"; exit 77; }
tmp=$TG_TMP
fail=0
P=traceset/trace_15316events_nolost_newformat

"$TG" cat --style=lttv --path-prefix "$P" "$C/trace-15316events-2.5" >"$tmp/out" || { echo "FAIL: cat exited $?"; exit 1; }
sed -e "s#/tmp/trace1#$P#g" -e 's/\.txt//g' "$tmp/out" >"$tmp/norm"
changed=$(diff "$tmp/out" "$tmp/norm" | grep -c '^<')
if [ "$changed" != 23 ] || diff "$tmp/out" "$tmp/norm" | grep '^<' | grep -qv 'fd_state.file_descriptor'; then
    echo "FAIL: the reference's normalisation changed $changed lines (expected the 23 file_descriptor lines)"
    fail=1
fi
# payload lines: name, time, tracefile and { ... }; process columns: the 7 after the tracefile
strip() { sed -E 's/^([^ ]+ [^ ]+ \([^)]*\)), [^{]*[^ {]( \{.*)?$/\1\2/' "$1"; }
cols() { sed -E 's/^[^ ]+ [^ ]+ \([^)]*\), ([^{]*[^ {])( \{.*)?$/\1/' "$1"; }
events=$(grep -c ' (traceset/' "$ref")
same_payload=$(paste -d '\n' <(strip "$tmp/norm" | grep ' (traceset/') <(strip "$ref" | grep ' (traceset/') | paste - - -d '\t' | awk -F'\t' '$1 == $2' | wc -l)
same_cols=$(paste -d '\t' <(grep ' (traceset/' "$tmp/norm" | cols /dev/stdin) <(grep ' (traceset/' "$ref" | cols /dev/stdin) | awk -F'\t' '$1 == $2' | wc -l)
echo "payload lines identical: $same_payload / $events; process columns identical: $same_cols / $events"
[ "$same_payload" = 15316 ] && [ "$events" = 15316 ] || { echo "FAIL: payload lines differ"; fail=1; }
if ! cmp -s "$tmp/norm" "$ref"; then
    echo "FAIL: the whole dump differs from LTTV's:"; diff "$tmp/norm" "$ref" | head -10; fail=1
fi

for t in "trace-15316events-2.5 15316" "trace-1021events-2.3 1021"; do
    set -- $t
    last=$("$TG" stats "$C/$1" | tail -1)
    if [ "$last" != "total: $2 events, 0 lost" ]; then
        echo "FAIL: stats $1: '$last' (expected total: $2 events, 0 lost)"; fail=1
    else
        echo "ok   stats $1: $last"
    fi
done
exit $fail
