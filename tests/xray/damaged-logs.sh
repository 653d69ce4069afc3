#!/bin/bash
# damaged-logs.sh DATA OUT [CASES] - writes OUT/NAME.xray for each case of CASES (default
# llvm-damaged.cases; fdr-dump-damaged.cases is another): the
# fixture DATA/LOG.xray cut or poked as the case says (the same bytes every time: the logs
# are made here by record-options.sh and by llvm-options.sh, not committed).
set -e
here=$(cd "$(dirname "$0")" && pwd)
data=$1 out=$2 cases=${3:-$here/llvm-damaged.cases}
while read -r name log edit _; do
    case $name in '#'* | '') continue ;; esac
    src=$data/$log.xray dst=$out/$name.xray
    case $edit in
    cut=-*) head -c "$(($(stat -c %s "$src") + ${edit#cut=}))" "$src" > "$dst" ;;
    cut=*) head -c "${edit#cut=}" "$src" > "$dst" ;;
    poke=*)
        cp "$src" "$dst"
        at=${edit#poke=}
        printf "\\$(printf %o "${at#*,}")" |
            dd of="$dst" bs=1 seek="${at%,*}" conv=notrunc status=none ;;
    *) echo "damaged-logs.sh: unknown edit '$edit' of $name" >&2; exit 1 ;;
    esac
done < "$cases"
