#!/usr/bin/env bash
# cli_usage.sh - the command line's contract: --help everywhere, exit 2 for usage errors,
# exit 1 with "traceglot: error: <file>: ..." for unreadable input, native/stats/chrome
# output on the example recording.
. "$(dirname "$0")/../lib.sh"
set -u
fails=0 passes=0
tmp=$TG_TMP
expect() { # expect RC DESCRIPTION -- command...
    local want=$1 what=$2; shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ "$rc" = "$want" ]; then passes=$((passes+1)); else
        fails=$((fails+1)); echo "FAIL: $what: exit $rc, want $want"; cat "$tmp/err"; fi
}
grep_err() { # grep_err PATTERN DESCRIPTION
    if grep -q -- "$1" "$tmp/err"; then passes=$((passes+1)); else
        fails=$((fails+1)); echo "FAIL: $2: stderr lacks '$1':"; cat "$tmp/err"; fi
}

expect 2 "no arguments" -- "$TG"
expect 0 "--help" -- "$TG" --help
expect 0 "--version" -- "$TG" --version
expect 2 "unknown command" -- "$TG" frobnicate x
"$TG" --version > "$tmp/version"
expect 0 "-V" -- "$TG" -V
cmp -s "$tmp/out" "$tmp/version" && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: -V differs from --version"; }
expect 0 "help" -- "$TG" help
grep -q "^  convert " "$tmp/out" && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: help lists the commands"; }
for c in info cat stats convert replay report sql; do
    "$TG" $c --help > "$tmp/cmd-help"
    expect 0 "help $c" -- "$TG" help $c
    cmp -s "$tmp/out" "$tmp/cmd-help" && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: help $c differs from $c --help"; }
done
expect 2 "help of an unknown command" -- "$TG" help frobnicate
grep_err "unknown command 'frobnicate'" "help of an unknown command says so"
# an unknown --to or --style is refused before any path is opened, listing the known ones
expect 2 "unknown --to" -- "$TG" convert --to json -o "$tmp/x" "$tmp/nonexistent"
grep_err "unknown target 'json' (known: chrome, ctf, folded, perfetto, speedscope, sqlite, svg, uftrace, xray-trace-event, xray-yaml)" "unknown --to lists the targets"
expect 2 "unknown report style" -- "$TG" report --style=nope "$tmp/nonexistent"
grep_err "unknown style 'nope' (known: perf, uftrace, xray)" "unknown report style lists the styles"
for c in info cat stats convert replay report; do
    expect 0 "$c --help" -- "$TG" $c --help
    grep -q "usage: traceglot $c" "$tmp/out" && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: $c --help text"; }
    expect 2 "$c unknown option" -- "$TG" $c --bogus x
    grep_err "unknown option '--bogus'" "$c unknown option message"
    expect 2 "$c without a path" -- "$TG" $c
done
expect 2 "bad begin" -- "$TG" cat --begin abc x
grep_err "bad begin time 'abc'" "bad begin message"
expect 2 "bad tid list" -- "$TG" stats --tid 1,x x
expect 2 "begin after end" -- "$TG" cat --begin 10 --end 5 x
grep_err "beginning is after its end" "begin after end message"
expect 2 "relative begin after end" -- "$TG" cat --end +1ms --begin +2ms x
expect 2 "cpu range going down" -- "$TG" cat --cpu 3-1 x
expect 2 "tid ranges are not taken" -- "$TG" cat --tid 1-3 x
dat=$TG_TEST_DATA/ftrace/misc-v6.dat
if [ -f "$dat" ]; then
    expect 2 "-v twice (trace-cmd: only one -v)" -- "$TG" cat --style=trace-cmd -v -F sys_enter -v "$dat"
    grep_err "only one -v" "-v twice message"
fi
expect 2 "option without value" -- "$TG" cat --events
expect 1 "missing path" -- "$TG" cat "$tmp/nonexistent"
grep_err "traceglot: error: $tmp/nonexistent: cannot open" "missing path message"
printf 'hello, not a trace\n' > "$tmp/junk"
expect 1 "not a trace" -- "$TG" info "$tmp/junk"
grep_err "not a trace traceglot can read" "unknown format message"
# convert without --to is babeltrace2's convert (tests/ctf/bt-spellings.sh): of a file that is
# no trace, an error in the input
expect 1 "convert without --to: babeltrace2's convert, not a trace" -- "$TG" convert "$tmp/junk"

ex="$TG_TESTS/../examples/fib.uftrace.data"
if [ -d "$ex" ]; then
    expect 0 "native cat" -- "$TG" cat "$ex"
    [ -s "$tmp/out" ] && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: cat printed nothing"; }
    expect 2 "unknown style" -- "$TG" cat --style=nope "$ex"
    grep_err "unknown style 'nope'" "unknown style message"
    expect 0 "stats" -- "$TG" stats "$ex"
    tail -n 1 "$tmp/out" | grep -Eq '^total: [0-9]+ events, [0-9]+ lost$' && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: stats last line"; tail -n1 "$tmp/out"; }
    expect 0 "convert to chrome" -- "$TG" convert --to chrome -o "$tmp/c.json" "$ex"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(e["ph"]=="B" for e in d["traceEvents"])' "$tmp/c.json" \
        && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: chrome json does not load or has no durations"; }
    "$TG" cat --cpu 0,1,2,3 "$ex" > "$tmp/cpus-list"; "$TG" cat --cpu 0-3 "$ex" > "$tmp/cpus-range"
    cmp -s "$tmp/cpus-list" "$tmp/cpus-range" && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: --cpu 0-3 differs from --cpu 0,1,2,3"; }
    n=$("$TG" cat "$ex" | wc -l)
    m=$("$TG" cat --end +0us "$ex" | wc -l)
    [ "$m" -ge 1 ] && [ "$m" -lt "$n" ] && passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: --end +0us kept $m of $n"; }
    # a binary stream is not written to a terminal (as zstd and protoc refuse); text is, and
    # binary is where standard output is a pipe or a file (script(1) gives the terminal)
    if command -v script >/dev/null; then
        expect 2 "convert --to perfetto to a terminal" -- \
            script -qec "'$TG' convert --to perfetto '$ex'" /dev/null
        grep -q "writes binary data; not writing it to a terminal: give -o FILE" "$tmp/out" &&
            passes=$((passes+1)) || { fails=$((fails+1)); echo "FAIL: the refusal says to use -o"; }
        expect 0 "convert --to chrome to a terminal" -- \
            script -qec "'$TG' convert --to chrome '$ex'" /dev/null
        grep -q '"traceEvents"' "$tmp/out" && passes=$((passes+1)) ||
            { fails=$((fails+1)); echo "FAIL: chrome text written to a terminal"; }
        expect 0 "convert --to perfetto to a pipe" -- "$TG" convert --to perfetto "$ex"
        [ -s "$tmp/out" ] && passes=$((passes+1)) ||
            { fails=$((fails+1)); echo "FAIL: perfetto written to a file"; }
    else
        echo "note: script(1) absent: the terminal checks skipped"
    fi
else
    echo "note: $ex absent: example-based checks skipped"
fi
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
