#!/bin/bash
# llvm-options.sh [KIND] - traceglot against llvm-xray 14 with each option of
# llvm-options.cases on the project's XRay fixtures (recorded by record-options.sh in
# tests/data/xray/options): the same arguments, with LLVM's spellings, print the same bytes
# and exit with the same status, and say the same on stderr (the records -keep-going skips,
# one by one; when llvm-xray stopped, exit 1, its message), past each tool's own prefix of an
# error ("llvm-xray: ", "traceglot: error: ").  Also -output FILE writes the report
# there, and account on the logs of llvm-damaged.cases, which llvm-xray cannot load, says
# what llvm-xray says and prints no report.  The instrumented
# binary is rebuilt (build-app.sh) and must be the recorded one.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
data=$TG_TEST_DATA/xray
tg_need_dir "$data/options"
. "$here/recorded-app.sh"
xray_recorded_app "$TG_TMP/b" || tg_skip "$xray_app_why"
MAP=$TG_TMP/b/xray_app
cd "$data" || exit 1
for k in ${1:-basic fdr}; do
    while read -r name sub args; do
        case $name in '#'* | '') continue ;; esac
        args=${args//\$MAP/$MAP}
        base=options/$k.$name
        exp=$base.out
        [ -f "$base.same" ] && exp=options/$k.$(cat "$base.same").out
        want_rc=0
        [ -f "$base.rc" ] && want_rc=$(cat "$base.rc")
        case $sub in
        account) cmd=(report --style=xray) ;;
        *) cmd=("$sub" --style=xray) ;;
        esac
        # shellcheck disable=SC2086
        tg_run "$TG" "${cmd[@]}" $args "$k.xray"
        rc=$?
        why=""
        [ "$rc" = "$want_rc" ] || why="exit $rc, llvm-xray $want_rc: $(head -c 300 "$TG_TMP/err")"
        [ -z "$why" ] && ! cmp -s "$exp" "$TG_TMP/out" &&
            why="stdout differs: $(diff "$exp" "$TG_TMP/out" | head -5)"
        # stderr: what llvm-xray said there (nothing when there is no .err), each tool's
        # prefix of its error message aside
        err_file=$base.err
        [ -f "$base.err-same" ] && err_file=options/$k.$(cat "$base.err-same").err
        if [ -f "$err_file" ]; then
            sed 's/^llvm-xray: //' "$err_file" > "$TG_TMP/want-err"
        else
            : > "$TG_TMP/want-err"
        fi
        sed 's/^traceglot: error: //' "$TG_TMP/err" > "$TG_TMP/got-err"
        [ -z "$why" ] && ! cmp -s "$TG_TMP/want-err" "$TG_TMP/got-err" &&
            why="stderr differs: $(diff "$TG_TMP/want-err" "$TG_TMP/got-err" | head -5)"
        if [ -z "$why" ]; then tg_pass "$k $name"; else tg_fail "$k $name" "$why"; fi
    done < "$here/llvm-options.cases"
    # logs llvm-xray cannot load (llvm-damaged.cases): its message, no report, exit 1; run
    # where the damaged copy is, as it was recorded (the name as given is in the message)
    bash "$here/damaged-logs.sh" "$data" "$TG_TMP" || exit 1
    while read -r name log _ args; do
        case $name in '#'* | '') continue ;; esac
        [ "$log" = "$k" ] || continue
        args=${args//\$MAP/$MAP}
        base=$data/options/damaged.$name
        want_rc=0
        [ -f "$base.rc" ] && want_rc=$(cat "$base.rc")
        # shellcheck disable=SC2086
        (cd "$TG_TMP" && "$TG" report --style=xray $args "$name.xray" > dout 2> derr)
        rc=$?
        sed 's/^llvm-xray: //' "$base.err" > "$TG_TMP/want-err"
        sed 's/^traceglot: error: //' "$TG_TMP/derr" > "$TG_TMP/got-err"
        why=""
        [ "$rc" = "$want_rc" ] || why="exit $rc, llvm-xray $want_rc: $(head -c 300 "$TG_TMP/derr")"
        if [ -z "$why" ] && [ -f "$base.out" ]; then
            cmp -s "$base.out" "$TG_TMP/dout" || why="stdout differs"
        elif [ -z "$why" ] && [ -s "$TG_TMP/dout" ]; then
            why="a report where llvm-xray prints none: $(head -c 200 "$TG_TMP/dout")"
        fi
        [ -z "$why" ] && ! cmp -s "$TG_TMP/want-err" "$TG_TMP/got-err" &&
            why="stderr differs: $(diff "$TG_TMP/want-err" "$TG_TMP/got-err" | head -5 | cat -v)"
        if [ -z "$why" ]; then tg_pass "damaged $name"; else tg_fail "damaged $name" "$why"; fi
    done < "$here/llvm-damaged.cases"
    # -output FILE: the report in FILE, nothing on stdout
    rm -f "$TG_TMP/report.txt"
    tg_run "$TG" report --style=xray -k -m "$MAP" -output="$TG_TMP/report.txt" "$k.xray"
    if [ $? = 0 ] && [ ! -s "$TG_TMP/out" ] && cmp -s "$TG_TMP/report.txt" "options/$k.account-k.out"; then
        tg_pass "$k -output=FILE"
    else
        tg_fail "$k -output=FILE" "$(head -c 300 "$TG_TMP/err")"
    fi
done
tg_done
