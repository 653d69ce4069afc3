#!/bin/bash
# live.sh [CASES] - `traceglot analyze NAME` against the real lttng-analyses commands (Debian's
# python3-lttnganalyses 0.6.1), run here on small kernel traces tests/analyze/
# make-kernel-trace.py writes (in a folder named `kernel`, from which lttng-analyses reads the
# tracer's version), for each case of CASES (live.cases; live-io.cases for the I/O
# analyses): text byte for byte, LAMI as JSON values.
# SKIP when lttng-analyses or babeltrace (1) is not installed.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd lttng-cputop "lttng-analyses (python3-lttnganalyses)"
tg_need_cmd babeltrace "babeltrace 1 (lttng-analyses reads through it)"
export LC_ALL=C.UTF-8 TZ=UTC
set -f # the cases' [begin,end] are no file patterns
here=$TG_TESTS/analyze
cases=${1:-$here/live.cases}
# seeds 1, 2, 7 (lttng-modules 2.6.0); 3, 4 and 5 with I/O events, 4 across midnight, 5 with
# streams that begin late and end early (their intersection, lttng-analyses' default, is
# narrower than the trace)
for seed in 1 2 7 3 4 5; do
    version=2.8.0 extra=
    [ "$seed" = 7 ] && version=2.6.0
    [ "$seed" = 3 ] && extra=io
    [ "$seed" = 4 ] && extra="io midnight"
    [ "$seed" = 5 ] && extra="io late"
    # shellcheck disable=SC2086
    /usr/bin/python3 "$here/make-kernel-trace.py" "$TG_TMP/s$seed/kernel" "$seed" "$version" \
        $extra || { tg_fail "make-kernel-trace.py $seed" "cannot write the trace"; tg_done; }
done
while read -r first rest; do
    case "$first" in ''|'#'*) continue ;; esac
    if [ "$first" = mi ]; then
        read -r seed name args <<< "$rest"
        eval "args=($args)" # quoted words stay one argument
        t=$TG_TMP/s$seed/kernel
        # shellcheck disable=SC2086
        "lttng-$name-mi" --skip-validation "${args[@]}" "$t" > "$TG_TMP/exp.json" 2> "$TG_TMP/exp.err" ||
            { tg_fail "mi $seed $name ${args[*]}" "lttng-$name-mi failed: $(head -2 "$TG_TMP/exp.err")"; continue; }
        # shellcheck disable=SC2086
        if tg_run "$TG" analyze "$name" --format json "${args[@]}" "$t" &&
            /usr/bin/python3 "$here/same-json.py" "$TG_TMP/exp.json" "$TG_TMP/out"; then
            tg_pass "mi $seed $name ${args[*]}"
        else
            tg_fail "mi $seed $name ${args[*]}" "not the same JSON values as lttng-$name-mi"
        fi
        continue
    fi
    seed=$first
    read -r name args <<< "$rest"
    eval "args=($args)"
    t=$TG_TMP/s$seed/kernel
    # shellcheck disable=SC2086
    "lttng-$name" --no-color --no-progress --skip-validation --gmt "${args[@]}" "$t" \
        > "$TG_TMP/exp.txt" 2> "$TG_TMP/exp.err" ||
        { tg_fail "$seed $name ${args[*]}" "lttng-$name failed: $(head -2 "$TG_TMP/exp.err")"; continue; }
    # shellcheck disable=SC2086
    tg_check "$seed $name ${args[*]}" "$TG_TMP/exp.txt" "$TG" analyze "$name" --gmt "${args[@]}" "$t"
done < "$cases"
tg_done
