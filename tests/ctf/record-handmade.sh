#!/bin/bash
# record-handmade.sh - writes the traces of make-handmade.py, make-strings.py and
# make-threads.py and records babeltrace2's text of each beside the project
# (tests/data/ctf/handmade/NAME.babeltrace2.txt, TZ=UTC).  Run it again when one of them
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
mkdir -p "$dest"
export TZ=UTC
for t in "$work"/*/; do
    t=${t%/}
    babeltrace2 "$t" > "$dest/${t##*/}.babeltrace2.txt"
    echo "${t##*/}: $(wc -l < "$dest/${t##*/}.babeltrace2.txt") events"
done
