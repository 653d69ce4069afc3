#!/bin/bash
# golden-options.sh - traceglot's replay, report and graph with uftrace's options against
# what the real uftrace printed with them (recorded by record-options.sh into
# tests/data/uftrace-options/NAME/: the cases, and SLUG.txt, SLUG.sha256 or SLUG.same - the
# name of the peer output beside the recording that uftrace's equals - per case).
#
# usage: golden-options.sh [NAME-GLOB]   A NAME is a fixture of tests/data/uftrace or
# tests/data/uftrace-kernel, or corpus-NAME for a recording of the corpus (checked only when
# the corpus is present).  Skipped when no recorded case has its data here.  The sanitizer
# suite runs a rotating sample of the cases (tg_matrix_sampled); the plain suite runs all.
. "$(dirname "$0")/../lib.sh"
opts_dir=$TG_TEST_DATA/uftrace-options
tg_need_dir "$opts_dir"

data_of() { # NAME -> the data directory, or nothing
    local n=$1
    case "$n" in
    corpus-*)
        n=${n#corpus-}
        for d in "$TG_CORPUS/gen/uftrace/$n.data" "$TG_CORPUS/uftrace/$n.data"; do
            [ -d "$d" ] && echo "$d"
        done
        ;;
    *)
        for d in "$TG_TEST_DATA/uftrace/$n.data" "$TG_TEST_DATA/uftrace-kernel/$n.data"; do
            [ -d "$d" ] && echo "$d"
        done
        ;;
    esac
    return 0
}

found=0
for dir in "$opts_dir"/${1:-*}/; do
    name=$(basename "$dir")
    data=$(data_of "$name")
    [ -n "$data" ] || continue
    found=$((found + 1))
    case_no=0
    while IFS=$'\t' read -r slug cmd uopts topts args; do
        case_no=$((case_no + 1))
        tg_matrix_sampled "$found" "$case_no" || continue
        [ "$topts" = - ] && topts=
        [ "$uopts" = - ] && uopts=
        [ "${args:--}" = - ] && args=
        run_dir=. at=$data
        if [[ "$topts" == --diff\ * ]]; then # report --diff OTHER: both named in the folder
            run_dir=$(dirname "$data")
            at=$(basename "$data")
        fi
        pushd "$run_dir" >/dev/null || tg_fail "$name $cmd $topts" "cannot enter $run_dir"
        # shellcheck disable=SC2086 # the options are words
        if [ -f "$dir/$slug.txt" ]; then
            tg_check "$name $cmd $topts $args" "$dir/$slug.txt" "$TG" $cmd $topts "$at" $args
        elif [ -f "$dir/$slug.same" ]; then
            tg_check "$name $cmd $topts $args" "$(dirname "$data")/$(cat "$dir/$slug.same")" \
                "$TG" $cmd $topts "$at" $args
        elif tg_run "$TG" $cmd $topts "$at" $args &&
            [ "$(sha256sum <"$TG_TMP/out" | cut -d' ' -f1)" = "$(cat "$dir/$slug.sha256")" ]; then
            tg_pass "$name $cmd $topts $args"
        else
            tg_fail "$name $cmd $topts $args" "output differs from uftrace's (checksum; run" \
                "uftrace $cmd $uopts -d $data $args to see it)"
        fi
        popd >/dev/null || true
    done <"$dir/cases"
done
[ "$found" = 0 ] && tg_skip "no recorded uftrace options with their data here"
tg_done
