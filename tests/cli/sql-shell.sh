#!/usr/bin/env bash
# sql-shell.sh - `traceglot sql` without -q is the shell sqlite3 users know: dot commands
# (.tables, .schema, .mode, .headers, .timer, .output, .read, .help, .quit) and statements
# over several lines, from a pipe and from a terminal (script(1) gives one: the prompt, the
# continuation prompt, line editing's echo); list and csv rows byte for byte as sqlite3 prints
# them; several -q with --format json make one JSON document.
. "$(dirname "$0")/../lib.sh"

ex=$TG_TESTS/../examples/fib.uftrace.data
[ -d "$ex" ] || tg_skip "no $ex"
export HOME=$TG_TMP # the terminal's history file goes there

# shell NAME INPUT PATTERN - INPUT piped into the shell; exit 0 and PATTERN in its output
shell() {
    printf '%b' "$2" > "$TG_TMP/in"
    tg_run "$TG" sql "$ex" < "$TG_TMP/in"
    local rc=$?
    if [ "$rc" != 0 ]; then
        tg_fail "$1" "exit $rc ($(head -c 300 "$TG_TMP/err"))"
    elif ! grep -qF -- "$3" "$TG_TMP/out"; then
        tg_fail "$1" "output lacks '$3': $(head -c 400 "$TG_TMP/out")"
    else
        tg_pass "$1"
    fi
}

shell ".tables" '.tables\n' "slice"
grep -q "thread" "$TG_TMP/out" && grep -q "sched_slice" "$TG_TMP/out" && tg_pass ".tables lists them all" ||
    tg_fail ".tables lists them all" "$(cat "$TG_TMP/out")"
shell ".tables PATTERN" '.tables sched%%\n' "sched_slice"
grep -q "thread_track" "$TG_TMP/out" && tg_fail ".tables PATTERN filters" "$(cat "$TG_TMP/out")" ||
    tg_pass ".tables PATTERN filters"
shell ".schema TABLE" '.schema thread\n' "CREATE VIRTUAL TABLE thread USING thread(utid INTEGER"
shell ".schema of a view" '.schema sched\n' "CREATE VIEW sched AS SELECT"
shell ".help" '.help\n' ".schema ?TABLE?"
shell "statement over several lines" 'select\n  40 + 2\n  as answer;\n' "42"
shell "last statement without ;" '.mode list\nselect 6 * 7' "42"
shell ".quit stops" '.mode list\nselect 1;\n.quit\nselect 99;\n' "1"
grep -q 99 "$TG_TMP/out" && tg_fail ".quit stops reading" || tg_pass ".quit stops reading"
shell ".timer on" '.timer on\nselect 1;\n' "Run Time: real "
shell ".output FILE" ".output $TG_TMP/rows.txt\n.mode list\nselect 7;\n.output\nselect 8;\n" "8"
[ "$(cat "$TG_TMP/rows.txt" 2>/dev/null)" = 7 ] && tg_pass ".output wrote the file" ||
    tg_fail ".output wrote the file" "$(cat "$TG_TMP/rows.txt" 2>&1)"
grep -q "^7$" "$TG_TMP/out" && tg_fail ".output kept the rows from stdout" || tg_pass ".output kept the rows from stdout"
printf '.mode list\nselect count(*) > 0 from slice;\n' > "$TG_TMP/script.sql"
shell ".read FILE" ".read $TG_TMP/script.sql\n" "1"
shell "SQL on the trace's tables" ".mode list\nselect name from slice where name = 'main';\n" "main"

# an unknown dot command: the nearest ones, the shell goes on, exit 2
printf '.tabels\n.mode list\nselect 5;\n' > "$TG_TMP/in"
tg_run "$TG" sql "$ex" < "$TG_TMP/in"
rc=$?
[ "$rc" = 2 ] && grep -qF 'unknown command or invalid arguments:  "tabels" (did you mean .tables?)' "$TG_TMP/err" &&
    grep -q "^5$" "$TG_TMP/out" && tg_pass "unknown dot command" ||
    tg_fail "unknown dot command" "exit $rc: $(cat "$TG_TMP/err") $(cat "$TG_TMP/out")"
printf '.mode lsit\n' > "$TG_TMP/in"
tg_run "$TG" sql "$ex" < "$TG_TMP/in"
grep -qF "did you mean list?" "$TG_TMP/err" && tg_pass "misspelt mode" || tg_fail "misspelt mode" "$(cat "$TG_TMP/err")"

# list and csv modes, headers on and off: sqlite3's own bytes
if command -v sqlite3 > /dev/null; then
    q="select 1 as a, NULL as b, 2.5 as c, 'x,y' as d, 'say \"hi\"' as e, '' as f union all select -3, 'q', 1e100, 'z', 'w', 'v';"
    for mode in "list" "csv"; do
        for headers in on off; do
            printf '.mode %s\n.headers %s\n%s\n' "$mode" "$headers" "$q" > "$TG_TMP/in"
            sqlite3 < "$TG_TMP/in" > "$TG_TMP/want" 2>&1
            tg_run "$TG" sql "$ex" < "$TG_TMP/in"
            tg_same ".mode $mode, .headers $headers as sqlite3" "$TG_TMP/want" "$TG_TMP/out"
        done
    done
else
    echo "note: sqlite3 absent: the comparison with it skipped"
fi

# several -q, --format json: one document
tg_run "$TG" sql --format json -q 'select 1 as a' -q 'select 2 as b; select 3 as c' "$ex"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d==[[{"a":1}],[{"b":2}],[{"c":3}]], d' \
    "$TG_TMP/out" && tg_pass "several -q: one JSON document" ||
    tg_fail "several -q: one JSON document" "$(cat "$TG_TMP/out")"
tg_run "$TG" sql --format json -q 'select 1 as a' "$ex"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d==[{"a":1}], d' \
    "$TG_TMP/out" && tg_pass "one -q: its array" || tg_fail "one -q: its array" "$(cat "$TG_TMP/out")"

# a terminal: the prompt, a statement over two lines with the continuation prompt
if command -v script > /dev/null; then
    printf '.mode list\nselect 40 +\n2;\n.quit\n' > "$TG_TMP/in"
    tg_run script -qec "'$TG' sql '$ex'" /dev/null < "$TG_TMP/in"
    tr -d '\r' < "$TG_TMP/out" > "$TG_TMP/tty"
    grep -q "traceglot> " "$TG_TMP/tty" && grep -q "\.\.\.> " "$TG_TMP/tty" &&
        grep -q "^42$" "$TG_TMP/tty" && tg_pass "terminal: prompts and the result" ||
        tg_fail "terminal: prompts and the result" "$(cat -v "$TG_TMP/tty")"
    printf '.tables\n.quit\n' > "$TG_TMP/in"
    tg_run script -qec "'$TG' sql '$ex'" /dev/null < "$TG_TMP/in"
    grep -q "sched_slice" "$TG_TMP/out" && tg_pass "terminal: .tables" ||
        tg_fail "terminal: .tables" "$(cat -v "$TG_TMP/out")"
else
    echo "note: script(1) absent: the terminal checks skipped"
fi
tg_done
