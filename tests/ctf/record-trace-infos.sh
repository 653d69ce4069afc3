#!/bin/bash
# record-trace-infos.sh - records `babeltrace2 query src.ctf.fs babeltrace.trace-infos -p
# 'inputs=["DIR"]'` on every CTF trace of the project's fixtures (tests/data/ctf) and of
# the corpus (../shared/corpus), for bt-trace-infos.sh.
#
# The answer names files by their absolute path, so the fixtures' folder is written
# @DATA@ and the corpus's @CORPUS@ (bt-trace-infos.sh puts its own back).  For each trace
# it writes into DATADIR/ctf/trace-infos/NAME.txt (NAME: the trace's path below its root,
# '/' as '+', prefixed data+ or corpus+) babeltrace2's answer, or NAME.rc its exit status
# when it refuses the trace (a refusal traceglot must make too).
#
# usage: record-trace-infos.sh [DATADIR [CORPUS]]
set -u
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "${1:-$here/../data}" && pwd)
corpus=${2:-$here/../../../shared/corpus}
command -v babeltrace2 > /dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
out=$data/ctf/trace-infos
rm -rf "$out"
mkdir -p "$out"
record() { # ROOT TOKEN PREFIX
    local root=$1 token=$2 prefix=$3 m d name
    while read -r m; do
        d=${m%/metadata}
        name=$prefix+$(echo "${d#"$root"/}" | tr / +)
        if babeltrace2 query src.ctf.fs babeltrace.trace-infos -p "inputs=[\"$d\"]" \
            > "$out/$name.tmp" 2> /dev/null; then
            sed "s|$root/|$token/|g" "$out/$name.tmp" > "$out/$name.txt"
        else
            echo $? > "$out/$name.rc"
        fi
        rm -f "$out/$name.tmp"
    done < <(find "$root" -name metadata -type f | sort)
}
record "$data/ctf" @DATA@ data
if [ -d "$corpus" ]; then
    corpus=$(cd "$corpus" && pwd)
    record "$corpus" @CORPUS@ corpus
else
    echo "note: no corpus at $corpus: only the fixtures recorded"
fi
echo "$(ls "$out"/*.txt | wc -l) answers, $(ls "$out"/*.rc 2> /dev/null | wc -l) refusals ($(babeltrace2 --version | head -1))"
