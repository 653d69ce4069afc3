#!/bin/bash
# corpus.sh - `traceglot analyze NAME` on the corpus' LTTng kernel trace many-threads against
# what lttng-analyses 0.6.1 printed on it (ctf-kernel/many-threads.NAME.txt: lttng-NAME
# --no-color --no-progress --skip-validation --gmt; .mi.json: lttng-NAME-mi, compared as JSON
# values; .zst: compressed), then with the option runs of many-threads.cases that
# record-many-threads.sh recorded into tests/data/analyze-many-threads.  SKIP when the corpus
# is absent.
. "$(dirname "$0")/../lib.sh"
dir=$TG_CORPUS/ctf-kernel
tg_need_dir "$dir/many-threads"
export LC_ALL=C.UTF-8 TZ=UTC
names=${TG_ANALYSES:-cputop schedstats schedtop schedlog irqstats irqlog syscallstats memtop iolatencytop
    iousagetop}
# the recorded text or JSON of analysis $1 with suffix $2 into $3 (1: none recorded)
recorded() {
    if [ -f "$dir/many-threads.$1.$2" ]; then cp "$dir/many-threads.$1.$2" "$3"
    elif [ -f "$dir/many-threads.$1.$2.zst" ]; then zstd -qdc "$dir/many-threads.$1.$2.zst" > "$3"
    else return 1; fi
}
for n in $names; do
    if recorded "$n" txt "$TG_TMP/$n.txt"; then
        tg_check "$n text" "$TG_TMP/$n.txt" "$TG" analyze "$n" --gmt --no-color --no-progress \
            --skip-validation "$dir/many-threads"
    fi
    if recorded "$n" mi.json "$TG_TMP/$n.json"; then
        if tg_run "$TG" analyze "$n" --format json "$dir/many-threads" &&
            /usr/bin/python3 "$TG_TESTS/analyze/same-json.py" "$TG_TMP/$n.json" "$TG_TMP/out"; then
            tg_pass "$n json"
        else
            tg_fail "$n json" "not the same JSON values as lttng-$n-mi"
        fi
    fi
done
# the option runs (many-threads.cases)
rec=$TG_TEST_DATA/analyze-many-threads
set -f
while read -r line; do
    case "$line" in '' | '#'*) continue ;; esac
    slug=$(printf '%s' "$line" | tr -cs 'A-Za-z0-9.-' '_')
    read -r first rest <<< "$line"
    kind=txt
    [ "$first" = mi ] && kind=mi.json && line=$rest
    read -r name args <<< "$line"
    eval "args=($args)"
    if [ -f "$rec/$slug.$kind" ]; then cp "$rec/$slug.$kind" "$TG_TMP/exp"
    elif [ -f "$rec/$slug.$kind.zst" ]; then zstd -qdc "$rec/$slug.$kind.zst" > "$TG_TMP/exp"
    else tg_fail "$first $line" "not recorded: run tests/analyze/record-many-threads.sh"; continue; fi
    if [ $kind = txt ]; then
        tg_check "$line" "$TG_TMP/exp" "$TG" analyze "$name" --gmt "${args[@]}" "$dir/many-threads"
    elif tg_run "$TG" analyze "$name" --format json "${args[@]}" "$dir/many-threads" &&
        /usr/bin/python3 "$TG_TESTS/analyze/same-json.py" "$TG_TMP/exp" "$TG_TMP/out"; then
        tg_pass "mi $line"
    else
        tg_fail "mi $line" "not the same JSON values as lttng-$name-mi"
    fi
done < "$TG_TESTS/analyze/many-threads.cases"
tg_done
