#!/bin/bash
# tests/cli/progress.sh - the progress line: on standard error when it is a terminal (under
# a pseudo-terminal made by script(1)) or with --progress, never when stderr is a pipe or a
# file, never with --no-progress, erased at the end, and the output the same bytes with and
# without it.  TRACEGLOT_PROGRESS_EVERY=N makes the CLI draw every N events at once (a
# fixture converts in well under the second after which the line shows by default).
. "$(dirname "$0")/../lib.sh"
tg_need_cmd script "util-linux's script, for a pseudo-terminal"

ex="$TG_TESTS/../examples/fib.uftrace.data"
ft="$TG_TEST_DATA/ftrace/misc-v6.dat"
[ -d "$ex" ] && [ -f "$ft" ] || tg_skip "fixtures missing"
export TRACEGLOT_PROGRESS_EVERY=50
esc=$(printf '\033')

# runs "$@" under a pseudo-terminal, stdout to $TG_TMP/o.$tag, the terminal's bytes (stderr)
# to $TG_TMP/tty.$tag; the command's status in $TG_TMP/rc.$tag
on_tty() { # TAG CMD...
    local tag=$1
    shift
    local q
    q=$(printf '%q ' "$@")
    script -qec "$q >'$TG_TMP/o.$tag'; echo \$? >'$TG_TMP/rc.$tag'" /dev/null \
        >"$TG_TMP/tty.$tag" </dev/null
}

has_line() { # NAME FILE: a progress line drawn and erased at the end
    if grep -q "traceglot: [0-9]*% of .* events, .*/s" "$2" &&
        [ "$(tail -c 4 "$2" | od -An -c | tr -d ' \n')" = "\r033[K" ]; then
        tg_pass "$1"
    else
        tg_fail "$1" "no progress line ending erased in $(od -c "$2" | head -5)"
    fi
}
no_line() { # NAME FILE
    if grep -q "traceglot: .*events" "$2" || grep -q "$esc\[K" "$2"; then
        tg_fail "$1" "a progress line: $(od -c "$2" | head -5)"
    else
        tg_pass "$1"
    fi
}
status0() { # NAME TAG
    [ "$(cat "$TG_TMP/rc.$2" 2>/dev/null)" = 0 ] && tg_pass "$1 exits 0" ||
        tg_fail "$1 exits 0" "status $(cat "$TG_TMP/rc.$2" 2>/dev/null)"
}

# convert on a terminal: the line, erased; the file the same bytes as without a terminal
on_tty conv "$TG" convert --to chrome -o "$TG_TMP/tty.json" "$ex"
status0 "convert on a terminal" conv
has_line "convert on a terminal shows the progress line" "$TG_TMP/tty.conv"
tg_run "$TG" convert --to chrome -o "$TG_TMP/pipe.json" "$ex"
tg_same "convert output with and without progress" "$TG_TMP/pipe.json" "$TG_TMP/tty.json"
no_line "convert with stderr a file: no line" "$TG_TMP/err"
"$TG" convert --to chrome "$ex" 2>&1 >"$TG_TMP/pipe-stdout.json" | cat >"$TG_TMP/pipe-err"
no_line "convert with stderr a pipe: no line" "$TG_TMP/pipe-err"

# convert to standard output (a file) and to a folder, on a terminal
on_tty stdout "$TG" convert --to chrome "$ex"
has_line "convert to stdout on a terminal shows the line" "$TG_TMP/tty.stdout"
tg_same "convert to stdout with and without progress" "$TG_TMP/pipe-stdout.json" \
    "$TG_TMP/o.stdout"
on_tty dir "$TG" convert --to uftrace -o "$TG_TMP/dir-tty" "$ex"
has_line "convert --to uftrace (a folder) on a terminal shows the line" "$TG_TMP/tty.dir"
tg_run "$TG" convert --to uftrace -o "$TG_TMP/dir-plain" "$ex"
if diff -r "$TG_TMP/dir-plain" "$TG_TMP/dir-tty" >/dev/null; then
    tg_pass "convert --to uftrace folder the same with and without progress"
else
    tg_fail "convert --to uftrace folder the same with and without progress" "folders differ"
fi

# stats and cat of a trace.dat on a terminal: the line; stdout the same bytes
for cmd in stats cat; do
    on_tty "$cmd" "$TG" $cmd "$ft"
    status0 "$cmd on a terminal" "$cmd"
    has_line "$cmd on a terminal shows the progress line" "$TG_TMP/tty.$cmd"
    tg_run "$TG" $cmd "$ft"
    tg_same "$cmd output with and without progress" "$TG_TMP/out" "$TG_TMP/o.$cmd"
    no_line "$cmd with stderr a file: no line" "$TG_TMP/err"
done

# --no-progress on a terminal: nothing; stderr a file inside the terminal: nothing
on_tty noprog "$TG" convert --no-progress --to chrome -o "$TG_TMP/np.json" "$ex"
no_line "--no-progress on a terminal: no line" "$TG_TMP/tty.noprog"
on_tty errfile sh -c '"$1" stats "$2" 2>"$3"' sh "$TG" "$ft" "$TG_TMP/errfile"
no_line "stderr a file under a terminal: no line" "$TG_TMP/errfile"
no_line "stderr a file under a terminal: nothing on the terminal" "$TG_TMP/tty.errfile"

# --progress with stderr a file: the line, forced
tg_run "$TG" stats --progress "$ft"
has_line "--progress with stderr a file shows the line" "$TG_TMP/err"

# without the test's every-N-events: nothing within the first second of a short command
on_tty quick env -u TRACEGLOT_PROGRESS_EVERY "$TG" stats "$ft"
no_line "a command shorter than a second: no line" "$TG_TMP/tty.quick"

# the options are the command line's own: documented, and refused with a value
"$TG" convert --help | grep -q -- "--no-progress" && tg_pass "convert --help lists --no-progress" ||
    tg_fail "convert --help lists --no-progress" "missing"
tg_check_status "--progress takes no value" 2 "$TG" stats --progress=1 "$ft"
tg_done
