#!/usr/bin/env bash
# inputs.sh - every input a user hands over: "-", /dev/stdin, a pipe and <(...) for each
# format that is one file (trace.dat, XRay, perf.data, Perfetto, Chrome JSON), read through an
# unlinked copy under TMPDIR that nothing leaves behind; a folder holding traces of several
# formats opened and merged as the same paths given one by one (files that are no trace
# passed over, a damaged trace named in the error); the progress total of such a folder only
# the bytes of its traces.
. "$(dirname "$0")/../lib.sh"

dat=$TG_TEST_DATA/ftrace/comm-idle-first-v6.dat
xray=$TG_TEST_DATA/xray/basic.xray
perf=$TG_TEST_DATA/perf/cpu-clock.data
pb=$TG_TEST_DATA/perfetto/ftrace.pb
json=$TG_TEST_DATA/json/uftrace-recursion.json
ufd=$TG_TESTS/../examples/fib.uftrace.data
ctf=$TG_TEST_DATA/ctf/cyg
for f in "$dat" "$xray" "$perf" "$pb" "$json" "$ufd" "$ctf"; do [ -e "$f" ] || tg_skip "no $f"; done
mkdir -p "$TG_TMP/spool"
export TMPDIR=$TG_TMP/spool

# standard input and pipes: the same bytes as the file itself
for f in "$dat" "$xray" "$perf" "$pb" "$json"; do
    n=${f##*/}
    "$TG" stats "$f" > "$TG_TMP/want" 2>&1
    tg_run sh -c '"$1" stats - < "$2"' sh "$TG" "$f" && tg_same "$n: stats - (a redirect)" "$TG_TMP/want" "$TG_TMP/out" ||
        tg_fail "$n: stats -" "$(cat "$TG_TMP/err")"
    tg_run sh -c 'cat "$2" | "$1" stats -' sh "$TG" "$f" && tg_same "$n: cat | stats -" "$TG_TMP/want" "$TG_TMP/out" ||
        tg_fail "$n: cat | stats -" "$(cat "$TG_TMP/err")"
    tg_run sh -c 'cat "$2" | "$1" stats /dev/stdin' sh "$TG" "$f" &&
        tg_same "$n: cat | stats /dev/stdin" "$TG_TMP/want" "$TG_TMP/out" ||
        tg_fail "$n: cat | stats /dev/stdin" "$(cat "$TG_TMP/err")"
    tg_run bash -c '"$1" stats <(cat "$2")' sh "$TG" "$f" && tg_same "$n: stats <(...)" "$TG_TMP/want" "$TG_TMP/out" ||
        tg_fail "$n: stats <(...)" "$(cat "$TG_TMP/err")"
done
"$TG" cat "$dat" > "$TG_TMP/want"
tg_run sh -c 'cat "$2" | "$1" cat -' sh "$TG" "$dat" && tg_same "cat - prints the events" "$TG_TMP/want" "$TG_TMP/out" ||
    tg_fail "cat -" "$(cat "$TG_TMP/err")"
[ -z "$(ls -A "$TMPDIR")" ] && tg_pass "nothing left under TMPDIR" || tg_fail "nothing left under TMPDIR" "$(ls -A "$TMPDIR")"
# a damaged trace on standard input: the error names it as the user gave it
tg_run sh -c 'head -c 3000 "$2" | "$1" stats -' sh "$TG" "$dat"
[ $? = 1 ] && grep -q "^traceglot: error: standard input: offset" "$TG_TMP/err" && ! grep -q /proc/self "$TG_TMP/err" &&
    tg_pass "a damaged trace on stdin: the error says standard input" ||
    tg_fail "a damaged trace on stdin: the error says standard input" "$(cat "$TG_TMP/err")"
tg_run bash -c '"$1" stats <(head -c 3000 "$2")' sh "$TG" "$dat"
[ $? = 1 ] && grep -q "^traceglot: error: /dev/fd/[0-9]*: offset" "$TG_TMP/err" && ! grep -q /proc/self "$TG_TMP/err" &&
    tg_pass "a damaged trace from <(...): the error names /dev/fd/N as given" ||
    tg_fail "a damaged trace from <(...): the error names /dev/fd/N as given" "$(cat "$TG_TMP/err")"
tg_run sh -c 'head -c 84000 "$2" | "$1" cat -' sh "$TG" "$TG_TEST_DATA/ftrace/all-events-v6.dat"
grep -q "standard input" "$TG_TMP/err" && ! grep -q /proc/self "$TG_TMP/err" &&
    tg_pass "a trace cut short on stdin: the error says standard input" ||
    tg_fail "a trace cut short on stdin: the error says standard input" "$(cat "$TG_TMP/err")"
tg_run sh -c 'printf "not a trace" | "$1" stats -' sh "$TG"
[ $? = 1 ] && grep -q "not a trace traceglot can read" "$TG_TMP/err" && tg_pass "junk on stdin: not a trace" ||
    tg_fail "junk on stdin: not a trace" "$(cat "$TG_TMP/err")"

# a folder of traces of several formats, with a file that is no trace beside them
mix=$TG_TMP/mix
mkdir -p "$mix"
ln -s "$dat" "$mix/a-kernel.dat"
ln -s "$ufd" "$mix/b-fib.uftrace.data"
ln -s "$ctf" "$mix/c-cyg"
ln -s "$xray" "$mix/d-basic.xray"
head -c 200000 /dev/zero | tr '\0' 'x' > "$mix/notes.txt"
"$TG" stats "$mix/a-kernel.dat" "$mix/b-fib.uftrace.data" "$mix/c-cyg" "$mix/d-basic.xray" \
    > "$TG_TMP/want" 2> "$TG_TMP/want.err"
tg_run "$TG" stats "$mix" && tg_same "stats FOLDER = stats of its traces as paths" "$TG_TMP/want" "$TG_TMP/out" ||
    tg_fail "stats FOLDER" "$(cat "$TG_TMP/err")"
tg_same "stats FOLDER: the same warnings" "$TG_TMP/want.err" "$TG_TMP/err"
"$TG" info "$mix" > "$TG_TMP/info" 2>&1
for fmt in "ftrace" "uftrace" "ctf" "xray"; do
    grep -q "^format: *$fmt" "$TG_TMP/info" && tg_pass "info FOLDER: the $fmt trace" ||
        tg_fail "info FOLDER: the $fmt trace" "$(grep format: "$TG_TMP/info")"
done
# the progress total: the traces' bytes, not the notes beside them
if command -v script > /dev/null; then
    TRACEGLOT_PROGRESS_EVERY=1 script -qec "'$TG' stats --progress '$mix' > /dev/null" /dev/null > "$TG_TMP/tty" < /dev/null
    total=$(grep -ao "% of [0-9.]* [kMG]*B" "$TG_TMP/tty" | head -1)
    case $total in
    *" kB" | *" B") tg_pass "progress counts the traces only ($total)" ;;
    *) tg_fail "progress counts the traces only" "'$total' in $(tr '\r' '\n' < "$TG_TMP/tty" | head -3)" ;;
    esac
fi
# a folder with no trace; a folder with a damaged trace: the error names it
mkdir -p "$TG_TMP/none" && echo hello > "$TG_TMP/none/readme.txt"
tg_run "$TG" stats "$TG_TMP/none"
[ $? = 1 ] && grep -q "not a trace traceglot can read" "$TG_TMP/err" && tg_pass "a folder of no trace" ||
    tg_fail "a folder of no trace" "$(cat "$TG_TMP/err")"
mkdir -p "$TG_TMP/bad"
ln -s "$ufd" "$TG_TMP/bad/fib.uftrace.data"
head -c 3000 "$dat" > "$TG_TMP/bad/cut.dat"
tg_run "$TG" stats "$TG_TMP/bad"
[ $? = 1 ] && grep -q "cut.dat" "$TG_TMP/err" && tg_pass "a damaged trace of the folder is named" ||
    tg_fail "a damaged trace of the folder is named" "$(cat "$TG_TMP/err")"
# a folder that is one trace opens as before
"$TG" stats "$ctf" > "$TG_TMP/want"
tg_run "$TG" stats "$TG_TMP/../$(basename "$TG_TMP")/mix/c-cyg" && tg_same "a CTF folder as before" "$TG_TMP/want" "$TG_TMP/out" ||
    tg_fail "a CTF folder as before" "$(cat "$TG_TMP/err")"
tg_done
