#!/bin/bash
# record-many-threads.sh [CORPUS] - run each line of many-threads.cases with the real
# lttng-analyses 0.6.1 commands on the corpus' ctf-kernel/many-threads (linked as a folder
# named `kernel`, from which lttng-analyses reads the tracer's version) and record their
# stdout into tests/data/analyze-many-threads/SLUG.txt or .mi.json (zstd-compressed past
# 64 KiB), SLUG being the line with every run of other characters than letters, digits,
# dots and dashes made one "_".  Too slow for make check (~30 s a run); corpus.sh compares.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:-${TG_CORPUS:-$here/../../../shared/corpus}}
out=$here/../data/analyze-many-threads
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$(cd "$corpus/ctf-kernel/many-threads" && pwd)" "$tmp/kernel"
export LC_ALL=C.UTF-8 TZ=UTC
set -f
mkdir -p "$out"
rm -f "$out"/*
while read -r line; do
    case "$line" in '' | '#'*) continue ;; esac
    slug=$(printf '%s' "$line" | tr -cs 'A-Za-z0-9.-' '_')
    read -r first rest <<< "$line"
    if [ "$first" = mi ]; then
        read -r name args <<< "$rest"
        eval "args=($args)"
        f=$out/$slug.mi.json
        "lttng-$name-mi" --skip-validation "${args[@]}" "$tmp/kernel" > "$f"
    else
        name=$first args=$rest
        eval "args=($args)"
        f=$out/$slug.txt
        "lttng-$name" --no-color --no-progress --skip-validation --gmt "${args[@]}" "$tmp/kernel" > "$f"
    fi
    if [ "$(stat -c %s "$f")" -gt 65536 ]; then zstd -q -19 --rm "$f"; fi
    echo "recorded $slug"
done < "$here/many-threads.cases"
