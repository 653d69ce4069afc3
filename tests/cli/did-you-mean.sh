#!/usr/bin/env bash
# did-you-mean.sh - every misspelt name the command line takes gets the nearest names: a
# command (conver, stat), an option (--stlye, --srot, --too: a swap of two letters, a
# letter too many), a style or target (--style=uftarce, --to chrme), a choice value
# (--format jsno) and a table in sql; a name near nothing gets no guess.
. "$(dirname "$0")/../lib.sh"

ex=$TG_TESTS/../examples/fib.uftrace.data
[ -d "$ex" ] || tg_skip "no $ex"

tg_said "command conver" 2 "unknown command 'conver' (did you mean convert?" "$TG" conver "$ex"
tg_said "command stat" 2 "unknown command 'stat' (did you mean stats?" "$TG" stat "$ex"
tg_said "help repot" 2 "unknown command 'repot' (did you mean report?" "$TG" help repot
tg_said "command far from all" 2 "unknown command 'frobnicate' (see traceglot --help)" \
    "$TG" frobnicate "$ex"
tg_said "--stlye" 2 "unknown option '--stlye=uftrace' (did you mean --style?" "$TG" cat --stlye=uftrace "$ex"
tg_said "--srot" 2 "unknown option '--srot=call' (did you mean --sort?" "$TG" report --srot=call "$ex"
tg_said "--too" 2 "unknown option '--too' (did you mean --to?" "$TG" convert --too chrome "$ex"
tg_said "--sortt" 2 "unknown option '--sortt' (did you mean --sort?" "$TG" report --sortt call "$ex"
tg_said "--bogus" 2 "unknown option '--bogus' (see traceglot cat --help)" "$TG" cat --bogus "$ex"
tg_said "--style=uftarce" 2 "unknown style 'uftarce' (did you mean uftrace? known:" \
    "$TG" report --style=uftarce "$ex"
tg_said "--to chrme" 2 "unknown target 'chrme' (did you mean chrome? known:" \
    "$TG" convert --to chrme "$ex"
tg_said "--to nothing-near" 2 "unknown target 'json' (known:" "$TG" convert --to json "$ex"
tg_said "sql --format jsno" 2 "(did you mean json?)" "$TG" sql --format jsno -q 'select 1' "$ex"
tg_said "sql misspelt table" 2 "no such table: slcie (did you mean slice?)" \
    "$TG" sql -q 'select count(*) from slcie' "$ex"
tg_said "sql misspelt view" 2 "no such table: sched_slcie (did you mean sched_slice?)" \
    "$TG" sql -q 'select * from sched_slcie' "$ex"
tg_said "sql table far from all" 2 "no such table: zzzzzzzz" \
    "$TG" sql -q 'select * from zzzzzzzz' "$ex"
tg_run "$TG" sql -q 'select * from zzzzzzzz' "$ex"
grep -q "did you mean" "$TG_TMP/err" && tg_fail "no guess for a name near nothing" ||
    tg_pass "no guess for a name near nothing"
tg_done
