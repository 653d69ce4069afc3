#!/bin/bash
# synthetic.sh - hand-built logs of every XRay layout version (gen_synthetic.py: FDR 1-5,
# basic 1-3) compared with llvm-xray 14 on the same bytes: YAML and accounting.  SKIP when
# llvm-xray or python3 is missing.  Also llvm-xray's -deduce-sibling-calls and stack, with
# what each says on stderr (-keep-going's skipped records, the refusal of a record it cannot
# account) and its exit status.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
command -v llvm-xray >/dev/null || { echo "SKIP: llvm-xray not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
out=$TG_TMP
python3 "$here/gen_synthetic.py" "$out" || exit 1
fail=0
for log in "$out"/*.xray; do
    b=$(basename "$log")
    llvm-xray convert -output-format=yaml -symbolize "$log" > "$out/exp" 2>/dev/null
    "$TG" cat --style=xray-yaml "$log" > "$out/got" 2>"$out/err"
    if cmp -s "$out/exp" "$out/got"; then echo "ok   yaml $b"; else
        echo "FAIL yaml $b"; diff "$out/exp" "$out/got" | head -6; head -2 "$out/err"; fail=1; fi
    for key in funcid count sum; do
        llvm-xray account -keep-going -sort=$key "$log" > "$out/exp" 2>/dev/null
        "$TG" report --style=xray -k --sort=$key "$log" > "$out/got" 2>"$out/err"
        cmp -s "$out/exp" "$out/got" || {
            echo "FAIL account $key $b"; diff "$out/exp" "$out/got" | head -6; fail=1; }
    done
    # llvm-xray's options, same arguments: -deduce-sibling-calls, and stack's outputs (the
    # exit status too: without -keep-going both stop at the same record)
    for args in "account -keep-going -deduce-sibling-calls" "account -deduce-sibling-calls" \
        "account -k" \
        "account" "stack -k" "stack" "stack -k -aggregate-threads" \
        "stack -k -all-stacks -stack-format=flame" \
        "stack -k -all -stack-format=flame -aggregation-type=count -aggregate-threads"; do
        sub=${args%% *} rest=${args#"$sub"}
        # known difference: llvm-xray reads a basic-mode log in file order, where these logs
        # interleave their threads' records; traceglot reads each thread's records together,
        # which changes which call ends a stack (its human output), not the flame lines
        [[ $b == basic-* && $sub == stack && $rest != *flame* ]] && continue
        # shellcheck disable=SC2086
        (cd "$out" && llvm-xray $sub $rest "$b") > "$out/exp" 2>"$out/exp-err"
        e=$?
        [ "$sub" = account ] && tg=(report --style=xray) || tg=(stack --style=xray)
        # shellcheck disable=SC2086
        (cd "$out" && "$TG" "${tg[@]}" $rest "$b") > "$out/got" 2>"$out/err"
        g=$?
        # stderr too: the records -keep-going skips, or the message it stopped with (each
        # tool's prefix of an error aside)
        sed -i 's/^llvm-xray: //' "$out/exp-err"
        sed 's/^traceglot: error: //' "$out/err" > "$out/got-err"
        if cmp -s "$out/exp" "$out/got" && [ $e = $g ] && cmp -s "$out/exp-err" "$out/got-err"; then
            echo "ok   $args $b"; else
            echo "FAIL $args $b (exit $g, llvm-xray $e)"; diff "$out/exp" "$out/got" | head -6
            diff "$out/exp-err" "$out/got-err" | head -6; fail=1; fi
    done
done
exit $fail
