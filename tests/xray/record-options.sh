#!/bin/bash
# record-options.sh - records llvm-xray's outputs for each case of llvm-options.cases on the
# committed XRay fixtures (tests/data/xray/basic.xray and fdr.xray), into
# tests/data/xray/options/KIND.NAME.out (stdout), .rc (the exit status when not 0) and .err
# (stderr when llvm-xray printed anything there: the message of an account that stopped, or
# each record -keep-going skipped; .err-same names the case with the same stderr), and
# options/damaged.NAME.* for the logs of llvm-damaged.cases, which llvm-xray cannot load, and
# options/extract.NAME.out, llvm-xray extract's YAML of the binary (llvm-extract.cases),
# options/KIND.NAME.* for llvm-xray convert and fdr-dump (llvm-convert.cases) and
# options/fdr-dump.NAME.* for fdr-dump of the logs of fdr-dump-damaged.cases.  The
# instrumented binary is rebuilt by build-app.sh and must be the one the logs were recorded
# with (xray_app.sha256).  Run from record-fixtures.sh, or alone to add cases.
set -e
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data/xray
command -v llvm-xray >/dev/null || { echo "SKIP: llvm-xray not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$here/build-app.sh" "$tmp"
[ "$(cd "$tmp" && sha256sum xray_app)" = "$(cat "$data/xray_app.sha256")" ] ||
    { echo "the rebuilt xray_app differs from the one the fixtures were recorded with"; exit 1; }
MAP=$tmp/xray_app
mkdir -p "$data/options"
rm -f "$data/options"/*
cd "$data"
for k in basic fdr; do
    while read -r name sub args; do
        case $name in '#'* | '') continue ;; esac
        args=${args//\$MAP/$MAP}
        base=options/$k.$name
        set +e
        # shellcheck disable=SC2086
        llvm-xray "$sub" $args "$k.xray" > "$base.out" 2> "$base.err"
        rc=$?
        set -e
        [ -s "$base.err" ] || rm -f "$base.err" # what llvm-xray said on stderr, if anything
        # the same stderr as another case of this log (the records -keep-going skips do not
        # depend on the report's options): NAME.err-same names that case
        for o in options/"$k".*.err; do
            if [ -f "$base.err" ] && [ "$o" != "$base.err" ] && cmp -s "$o" "$base.err"; then
                o=${o#options/"$k".}
                echo "${o%.err}" > "$base.err-same"
                rm "$base.err"
                break
            fi
        done
        if [ $rc = 0 ]; then
            # an output another case of this log already has: NAME.same names that case
            for o in options/"$k".*.out; do
                if [ "$o" != "$base.out" ] && [ ! -f "${o%.out}.rc" ] && cmp -s "$o" "$base.out"; then
                    o=${o#options/"$k".}
                    echo "${o%.out}" > "$base.same"
                    rm "$base.out"
                    break
                fi
            done
        else
            echo $rc > "$base.rc"
        fi
    done < "$here/llvm-options.cases"
done
# llvm-xray convert and fdr-dump (llvm-convert.cases): stdout (or NAME.same: the case with
# the same stdout), and stderr and the exit status when there are any
record() {
    local base=$1
    shift
    set +e
    "$@" > "$base.out" 2> "$base.err"
    local rc=$?
    set -e
    [ $rc = 0 ] || echo $rc > "$base.rc"
    [ -s "$base.err" ] || rm "$base.err"
    # the same output as an earlier case of this log: NAME.same names that case
    [ $rc = 0 ] || return 0
    local o
    for o in "${base%.*}".*.out; do
        if [ "$o" != "$base.out" ] && [ ! -f "${o%.out}.rc" ] && cmp -s "$o" "$base.out"; then
            o=${o##*/}
            o=${o#*.}
            echo "${o%.out}" > "$base.same"
            rm "$base.out"
            return 0
        fi
    done
}
for k in basic fdr; do
    while read -r name sub args; do
        case $name in '#'* | '') continue ;; esac
        args=${args//\$MAP/$MAP}
        # shellcheck disable=SC2086
        record "options/$k.$name" llvm-xray "$sub" $args "$k.xray"
    done < "$here/llvm-convert.cases"
done
bash "$here/damaged-logs.sh" "$data" "$tmp" "$here/fdr-dump-damaged.cases"
while read -r name _; do
    case $name in '#'* | '') continue ;; esac
    record "options/fdr-dump.$name" llvm-xray fdr-dump "$tmp/$name.xray"
done < "$here/fdr-dump-damaged.cases"
# llvm-xray extract: the binary's instrumentation map (llvm-extract.cases), stdout
while read -r name args; do
    case $name in '#'* | '') continue ;; esac
    # shellcheck disable=SC2086
    llvm-xray extract $args "$MAP" > "options/extract.$name.out"
done < "$here/llvm-extract.cases"
# logs llvm-xray cannot load (llvm-damaged.cases, made by damaged-logs.sh): account's stdout,
# stderr and exit status, run where the log is (its name as given is in the message)
bash "$here/damaged-logs.sh" "$data" "$tmp"
while read -r name _ _ args; do
    case $name in '#'* | '') continue ;; esac
    args=${args//\$MAP/$MAP}
    base=$data/options/damaged.$name
    set +e
    # shellcheck disable=SC2086
    (cd "$tmp" && llvm-xray account $args "$name.xray") > "$base.out" 2> "$base.err"
    rc=$?
    set -e
    [ $rc = 0 ] || echo $rc > "$base.rc"
    [ -s "$base.out" ] || rm "$base.out" # no report printed
done < "$here/llvm-damaged.cases"
ls "$data/options" | wc -l
