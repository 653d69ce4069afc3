#!/bin/bash
# bt-query.sh - `traceglot query src.ctf.fs metadata-info -p 'path="DIR"'` against
# babeltrace2's answer: recorded on the fixtures types, cyg and rotation
# (record-babeltrace-options.sh: T.query-metadata-info.txt), and on every CTF trace of the
# corpus against babeltrace2 itself when it is installed (the same bytes and exit status:
# packetized and plain-text metadata, CTF 2 refused as babeltrace2 2.0 refuses it, a
# metadata syntax error).  Known difference: babeltrace2 answers for the corpus's fail1 (a
# trace `major` of 0), whose metadata traceglot refuses.  Another query (babeltrace.support-info),
# a spelling without path= and a folder without metadata are refused (babeltrace.trace-infos
# is bt-trace-infos.sh's).
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/ctf
opts=$data/babeltrace-options
tg_need_dir "$opts"
for t in types cyg rotation; do
    [ -f "$opts/$t.query-metadata-info.txt" ] || continue
    tg_check "$t metadata-info" "$opts/$t.query-metadata-info.txt" \
        "$TG" query src.ctf.fs metadata-info -p "path=\"$data/$t\""
done
tg_check "cyg metadata-info, --params= before the names" "$opts/cyg.query-metadata-info.txt" \
    "$TG" query "--params=path=\"$data/cyg\"" source.ctf.fs metadata-info
if command -v babeltrace2 > /dev/null && [ -d "$TG_CORPUS/ctf" ]; then
    while read -r m; do
        d=${m%/metadata}
        [ "${d##*/}" = fail1 ] && continue # the known difference above
        babeltrace2 query src.ctf.fs metadata-info -p "path=\"$d\"" > "$TG_TMP/want" 2> /dev/null
        want=$?
        tg_run "$TG" query src.ctf.fs metadata-info -p "path=\"$d\""
        got=$?
        name="corpus ${d#"$TG_CORPUS"/ctf/}"
        if [ "$want" != "$got" ]; then
            tg_fail "$name" "exit $got, babeltrace2 $want: $(head -c 200 "$TG_TMP/err")"
        elif [ "$want" = 0 ]; then
            tg_same "$name" "$TG_TMP/want" "$TG_TMP/out"
        else
            tg_pass "$name (refused by both)"
        fi
    done < <(find "$TG_CORPUS/ctf" -name metadata -type f | sort)
else
    echo "note: babeltrace2 or the corpus's ctf is missing: the corpus not compared"
fi
tg_said "query babeltrace.support-info refused" 2 "babeltrace.trace-infos only, not babeltrace.support-info" \
    "$TG" query src.ctf.fs babeltrace.support-info -p "input=\"$data/cyg\",type=\"directory\""
tg_said "query of another component class refused" 2 "src.ctf.fs only, not sink.text.pretty" \
    "$TG" query sink.text.pretty metadata-info -p "path=\"$data/cyg\""
tg_said "query without path= refused" 2 "takes -p 'path=\"DIR\"'" \
    "$TG" query src.ctf.fs metadata-info -p "inputs=[\"$data/cyg\"]"
tg_said "query of a folder without metadata" 1 "cannot open trace metadata" \
    "$TG" query src.ctf.fs metadata-info -p "path=\"$TG_TMP\""
tg_done
