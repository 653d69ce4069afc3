#!/bin/bash
# bt-trace-infos.sh - `traceglot query src.ctf.fs babeltrace.trace-infos -p 'inputs=["DIR"]'`
# against babeltrace2's answers recorded by record-trace-infos.sh (tests/data/ctf/
# trace-infos) on every CTF trace of the fixtures and of the corpus (skipped without it):
# the same bytes (port names: the UUID or folder, the stream class, the instance id or the
# file path; the time ranges after the LTTng index fixes), and a refusal where babeltrace2
# refuses (no streams, CTF 2, damaged packets).  Also: a relative path with "." and ".."
# named as babeltrace2 names it, and the spellings traceglot does not answer refused by name.
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/ctf
rec=$data/trace-infos
tg_need_dir "$rec"
corpus_seen=0
for want in "$rec"/*; do
    name=${want##*/}
    name=${name%.*}
    rel=$(echo "${name#*+}" | tr + /)
    case $name in
    data+*) root=$(cd "$data" && pwd) token=@DATA@ ;;
    corpus+*)
        [ -d "$TG_CORPUS" ] || continue
        corpus_seen=1
        root=$(cd "$TG_CORPUS" && pwd) token=@CORPUS@
        ;;
    esac
    dir=$root/$rel
    if [ "${want##*.}" = rc ]; then
        tg_check_status "$name refused as by babeltrace2" "$(cat "$want")" \
            "$TG" query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$dir\"]"
        continue
    fi
    sed "s|$token/|$root/|g" "$want" > "$TG_TMP/want"
    tg_run "$TG" query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$dir\"]"
    tg_same "$name" "$TG_TMP/want" "$TG_TMP/out"
done
[ "$corpus_seen" = 1 ] || echo "note: the corpus is missing: its traces not compared"
# a trace without UUID is named by its folder: a relative path with . and .. and a path
# through a symlink named as babeltrace2 names them (made absolute, symlinks kept)
succeed=$TG_CORPUS/ctf/babeltrace/succeed
if [ -d "$succeed/array-align-elem" ] && [ -f "$rec/corpus+ctf+babeltrace+succeed+array-align-elem.txt" ]; then
    abs=$(cd "$succeed" && pwd)
    sed "s|@CORPUS@/ctf/babeltrace/succeed/|$abs/|g" \
        "$rec/corpus+ctf+babeltrace+succeed+array-align-elem.txt" > "$TG_TMP/want"
    (cd "$succeed/smalltrace" && "$TG" query src.ctf.fs babeltrace.trace-infos \
        -p 'inputs=["./../smalltrace/../array-align-elem/"]' > "$TG_TMP/out" 2> "$TG_TMP/err")
    tg_same "relative input with . and .." "$TG_TMP/want" "$TG_TMP/out"
    ln -s "$abs" "$TG_TMP/link"
    sed "s|@CORPUS@/ctf/babeltrace/succeed/|$TG_TMP/link/|g" \
        "$rec/corpus+ctf+babeltrace+succeed+array-align-elem.txt" > "$TG_TMP/want"
    tg_run "$TG" query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$TG_TMP/link/array-align-elem\"]"
    tg_same "input through a symlink" "$TG_TMP/want" "$TG_TMP/out"
fi
tg_said "two inputs refused" 2 "one input folder, not also" \
    "$TG" query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$data/cyg\", \"$data/types\"]"
tg_said "another parameter refused" 2 "inputs= only, not clock-class-offset-s" \
    "$TG" query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$data/cyg\"],clock-class-offset-s=1"
tg_said "path= instead of inputs= refused" 2 "inputs= only, not path" \
    "$TG" query src.ctf.fs babeltrace.trace-infos -p "path=\"$data/cyg\""
tg_said "babeltrace.support-info refused" 2 "not babeltrace.support-info" \
    "$TG" query src.ctf.fs babeltrace.support-info -p "input=\"$data/cyg\",type=\"directory\""
tg_said "a folder without metadata" 1 "cannot open trace metadata" \
    "$TG" query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$TG_TMP\"]"
tg_done
