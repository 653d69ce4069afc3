#!/bin/bash
# record-handmade.sh - writes the traces of make-handmade.py, make-strings.py,
# make-threads.py and make-byte-order.py and records babeltrace2's text of each beside the project
# (tests/data/ctf/handmade/NAME.babeltrace2.txt, TZ=UTC; NAME.babeltrace2-warnings.txt: the
# metadata warnings it printed).  Run it again when one of them
# changes; handmade-bt.sh compares traceglot with these files.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=$here/../data/ctf/handmade
command -v babeltrace2 >/dev/null || { echo "babeltrace2 is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/make-handmade.py" "$work"
python3 "$here/make-strings.py" "$work"
python3 "$here/make-threads.py" "$work"
python3 "$here/make-byte-order.py" "$work"
mkdir -p "$dest"
export TZ=UTC
for t in "$work"/*/; do
    t=${t%/}
    babeltrace2 "$t" > "$dest/${t##*/}.babeltrace2.txt" 2> "$work/err"
    echo "${t##*/}: $(wc -l < "$dest/${t##*/}.babeltrace2.txt") events"
    # the metadata warnings, as babeltrace2 words them (after its log prefix)
    w=$dest/${t##*/}.babeltrace2-warnings.txt
    sed -n 's/^.* \[[^]]*\] \(At line [0-9]* in metadata stream: .*\)$/\1/p' "$work/err" > "$w"
    [ -s "$w" ] || rm -f "$w"
done
