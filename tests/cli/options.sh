#!/usr/bin/env bash
# options.sh - options are declared where they are taken: a misspelt option is refused with
# exit 2 and the nearest option's name, a bad value of a typed option is refused, and an
# option the chosen style or converter does not take is refused naming that style (never
# silently ignored).  The options each command takes are those `traceglot options` lists.
. "$(dirname "$0")/../lib.sh"
ex="$TG_TESTS/../examples/fib.uftrace.data"
tg_need_dir "$ex"

# refused: exit 2, and the message says why
refused() { # NAME PATTERN CMD...
    local name=$1 pattern=$2
    shift 2
    tg_check_status "$name" 2 "$@"
    if grep -q -- "$pattern" "$TG_TMP/err"; then tg_pass "$name: message"; else
        tg_fail "$name: message" "stderr lacks '$pattern': $(head -c 300 "$TG_TMP/err")"; fi
}
refused "misspelt option" "unknown option '--instr-mpa' (did you mean --instr-map?" \
    "$TG" report --instr-mpa ./app "$ex"
refused "misspelt style option" "did you mean --plugin-option?" \
    "$TG" cat --style=trace-cmd --plugin-options ftrace:parent=1 "$ex"
refused "option of another style" "the native style does not take --raw (the trace-cmd style does" \
    "$TG" cat --raw "$ex"
refused "short option of another style" "the babeltrace style does not take --ns" \
    "$TG" cat --style=babeltrace -t "$ex"
refused "option of another report style" "the uftrace style does not take --sortorder" \
    "$TG" report --sortorder dsc "$ex"
refused "option of another converter" "the svg converter does not take --split-size" \
    "$TG" convert --to svg --split-size 1M -o "$TG_TMP/x.svg" "$ex"
refused "option of another command" "unknown option '--output-fields'" \
    "$TG" stats --output-fields time "$ex"
refused "bad sort key" "--sort takes funcid, count, min" \
    "$TG" report --style=xray --sort bogus "$ex"
refused "bad integer" "'three' is not an integer" "$TG" report --style=xray --top three "$ex"
refused "bad choice" "bad sortorder 'up': expected asc or dsc" "$TG" report --style=xray --sortorder up "$ex"
refused "bad flag value" "is a flag" "$TG" cat --style=babeltrace --clock-seconds=maybe "$ex"
refused "bad clock alignment" "bad clock-align 'sideways': expected auto, none or realtime" \
    "$TG" cat --clock-align sideways "$ex"

# taken: the style's own options, and the options of opening with any style
tg_check_status "trace-cmd takes -R" 0 "$TG" cat --style=trace-cmd -R "$ex"
tg_check_status "options of opening with any style" 0 "$TG" cat --clock-align=none "$ex"
tg_check_status "a flag spelt true" 0 "$TG" replay --kernel-full=true "$ex"

# the lists: every command's table, and --help from the same declarations
for c in info cat stats convert replay report; do
    tg_check_status "options $c" 0 "$TG" options $c
    if grep -q '^| option |' "$TG_TMP/out"; then tg_pass "options $c: a table"; else
        tg_fail "options $c: a table"; fi
done
tg_run "$TG" options cat
if grep -q '^| `--raw`, `-R` |  | trace-cmd | raw fields' "$TG_TMP/out"; then
    tg_pass "options cat lists --raw for trace-cmd"
else tg_fail "options cat lists --raw for trace-cmd" "$(cat "$TG_TMP/out")"; fi
tg_run "$TG" cat --help
if grep -q -- '-R, --raw .*trace-cmd style: raw fields' "$TG_TMP/out"; then
    tg_pass "cat --help labels --raw"
else tg_fail "cat --help labels --raw" "$(cat "$TG_TMP/out")"; fi
tg_check_status "options of an unknown command" 2 "$TG" options frobnicate
tg_done
