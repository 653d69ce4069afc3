#!/bin/bash
# record-options.sh - records what the real uftrace prints with each option traceglot takes
# (replay, report and graph, the filters and report's columns and sort keys; dump; info
# --task; report --diff with the filters), on every
# uftrace fixture of the project (tests/data/uftrace, tests/data/uftrace-kernel) and on the
# corpus's uftrace recordings where the corpus is present.
#
# For each data directory NAME it writes tests/data/uftrace-options/NAME/: a `cases` file,
# one line per check (SLUG, the command, uftrace's options, traceglot's options: the same
# but where older spellings are checked against the uftrace option they mean), and uftrace's
# output of each case, SLUG.txt (or SLUG.sha256 with the output's checksum when it is over
# 24 KB: the corpus's longer replays; or SLUG.same naming the peer output beside the recording,
# NAME.CMD.txt in the corpus, when uftrace printed exactly that: the corpus is not copied).  Function names, thread ids and time ranges given to
# the filters are picked from each recording (options_for below), so every fixture gets
# them.  The outputs come from uftrace, never from traceglot; golden-options.sh compares.
#
# usage: tests/uftrace/record-options.sh [OUTDIR]     (default: tests/data/uftrace-options)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${TG_CORPUS:-$root/../shared/corpus}
command -v uftrace >/dev/null || { echo "record-options: uftrace is not installed" >&2; exit 77; }
out=${1:-$root/tests/data/uftrace-options}

# The functions uftrace's report lists for a recording, most called first (sort by calls).
funcs_by_calls() { uftrace report -d "$1" -s call -f none 2>/dev/null | sed 's/^  //'; }

# What each filter is given, picked from the recording itself: F1 the most called function
# (not main), F2 main (or the first function of the report), a regex and a glob from F1's
# first letters, TID the last thread, E1~E2 elapsed times and T1~T2 timestamps of lines a
# third and two thirds into the replay.
pick() { # DATA
    local d=$1
    # user functions only: uftrace's filters do not name kernel functions
    F1=$(funcs_by_calls "$d" | { grep -v -x -e main -e 'linux:schedule.*' || true; } |
        { grep -x -F -f <(cat "$d"/*.sym 2>/dev/null | awk '{print $3}') || true; } | head -1)
    F2=$(funcs_by_calls "$d" | { grep -x main || true; } | head -1)
    [ -n "$F2" ] || F2=$(uftrace report -d "$d" -f none 2>/dev/null | sed 's/^  //' | head -1)
    TID=$(uftrace report --task -d "$d" -s tid -f tid 2>/dev/null | tail -1 | awk '{print $1}')
    local n a b
    n=$(uftrace replay -d "$d" 2>/dev/null | wc -l)
    a=$(( n / 3 + 1 )) b=$(( 2 * n / 3 + 1 ))
    E1=$(uftrace replay -f elapsed -d "$d" 2>/dev/null | sed -n "${a}p" | awk '{print $1 $2}')
    E2=$(uftrace replay -f elapsed -d "$d" 2>/dev/null | sed -n "${b}p" | awk '{print $1 $2}')
    T1=$(uftrace replay -f time -d "$d" 2>/dev/null | sed -n "${a}p" | awk '{print $1}')
    T2=$(uftrace replay -f time -d "$d" 2>/dev/null | sed -n "${b}p" | awk '{print $1}')
}

# One case per line: SLUG<TAB>COMMAND<TAB>UFTRACE OPTIONS<TAB>TRACEGLOT OPTIONS<TAB>ARGS
# (ARGS after the data: graph's FUNC); an empty field is written "-"
options_for() { # DATA
    local d=$1
    local o c
    pick "$d"
    for o in "-s self" "-s call,func" "-s func" "-s total-avg" "-s self_max,call" "-s size,func" \
        "-f all" "-f call,total" "-f +size" "-f none" "-f self-min,self-max" \
        "--avg-total" "--avg-total -s min" "--avg-self" "--avg-self -s max,func" \
        "--avg-total -f call" "--task" "--task -s func" "--task -s tid" "--task -s name,self" \
        "--task -f tid,func" "--task -f none"; do
        printf '%s\treport\t%s\t%s\t-\n' "report$(slug "$o")" "$o" "$o"
    done
    # older uftrace called --task --threads (uftrace 0.13 warns and ignores it)
    printf '%s\treport\t%s\t%s\t-\n' "report-threads" "--task" "--threads"
    # the filters, on replay, report (and graph)
    local filters=("-D 1" "-D 2" "-D 3" "-t 100ns" "-t 1us" "-t 10us" "--no-libcall"
        "-F $F1" "-F $F2" "-N $F1" "-N $F2" "-C $F1" "-C $F2" "-F $F2 -D 2" "-F $F2 -N $F1"
        "-N $F1 -t 1us" "-C $F1 -D 3" "--match glob -F ${F1:0:2}*" "-F ^${F1:0:2}"
        "-N ${F1:0:3}.*" "--tid $TID" "--tid $TID -D 2")
    [ -n "$E1" ] && [ -n "$E2" ] && filters+=("-r $E1~$E2" "-r ~$E2" "-r $E1~")
    # not with kernel data: uftrace prints garbage durations (10.008 h) for the user frames
    # a timestamp range starts inside (traceglot prints the time since the range's start)
    ls "$d"/kernel-cpu*.dat >/dev/null 2>&1 || [ -z "$T1" ] || filters+=("-r $T1~$T2")
    for o in "${filters[@]}"; do
        for c in replay report; do
            printf '%s\t%s\t%s\t%s\t-\n' "$c$(slug "$o")" "$c" "$o" "$o"
        done
    done
    for o in "-f +addr -r $E1~$E2" "-f elapsed --tid $TID" "-f time,delta -t 1us"; do
        [ -n "$E1" ] || continue
        printf '%s\treplay\t%s\t%s\t-\n' "replay$(slug "$o")" "$o" "$o"
    done
    for o in "-s call -t 1us" "--avg-self -N $F1" "-f all -D 2"; do
        printf '%s\treport\t%s\t%s\t-\n' "report$(slug "$o")" "$o" "$o"
    done
    # graph: the whole graph and FUNC's, with the fields and the filters
    local fn
    for fn in "" "$F1" "$F2"; do
        for o in "" "-f total,self,addr" "-f none" "-f +self" "-D 2"; do
            printf '%s\tgraph\t%s\t%s\t%s\n' "graph$(slug "$o")$(slug "$fn")" "${o:--}" "${o:--}" \
                "${fn:--}"
        done
    done
    for o in "${filters[@]}"; do
        printf '%s\tgraph\t%s\t%s\t-\n' "graph$(slug "$o")" "$o" "$o"
        printf '%s\tgraph\t%s\t%s\t%s\n' "graph$(slug "$o")$(slug "$F2")" "$o" "$o" "$F2"
    done
    # dump: the records file by file, as they lie
    printf 'dump\tdump\t-\t-\t-\n'
    # info --task: the tasks, their flags and data sizes
    printf 'info-task\tinfo\t--task\t--task\t-\n'
    # report --diff OTHER with the filters, where the recording has a twin beside it (a run
    # of the same program): run in the recordings' folder, as uftrace names both in its header
    local other
    other=$(diff_twin "$d")
    [ -n "$other" ] || return 0
    for o in "-F $F2" "-N $F1" "-C $F1" "-D 1" "-D 2" "-t 1us" "--no-libcall" "-F $F2 -D 2" \
        "--diff-policy full -D 2"; do
        printf '%s\treport\t%s\t%s\t-\n' "report-diff$(slug "$o")" "--diff $other $o" \
            "--diff $other $o"
    done
    [ -n "$E1" ] && printf '%s\treport\t%s\t%s\t-\n' "report-diff$(slug "-r $E1~")" \
        "--diff $other -r $E1~" "--diff $other -r $E1~"
    return 0
}

# The run report --diff compares a recording with: another recording of the same program
# beside it (the folder's name for it, DIR/NAME.data), or nothing.
diff_twin() { # DATA
    local n
    n=$(basename "$1" .data)
    case "$n" in
    recursion) echo lost.data ;;
    lost) echo recursion.data ;;
    cxx) echo cxxnames.data ;;
    args) echo args-spec.data ;;
    args-spec) echo args.data ;;
    calls-visible-args) echo calls-visible-plain.data ;;
    calls-visible-plain) echo calls-visible-args.data ;;
    esac
}

slug() { # options -> a file name part
    local s=${1// /_}
    s=${s//,/+}
    s=${s//\//%}
    s=${s//\~/TO}
    s=${s//;/SC}
    s=${s//\*/STAR}
    s=${s//\^/CARET}
    s=${s//\$/DOLLAR}
    s=${s//\\/BS}
    s=${s//[^A-Za-z0-9_+%.=@-]/X}
    printf '%s' "${s:+-$s}"
}

record() { # NAME DATA
    local name=$1 d=$2 dir=$out/$1
    rm -rf "$dir"
    mkdir -p "$dir"
    options_for "$d" >"$dir/cases"
    local slug cmd uopts topts args rc same
    while IFS=$'\t' read -r slug cmd uopts topts args; do
        [ "$uopts" = - ] && uopts=
        [ "${args:--}" = - ] && args=
        # shellcheck disable=SC2086 # the options are words
        rc=0
        if [[ "$uopts" == --diff\ * ]]; then # in the folder: OTHER's name is relative
            (cd "$(dirname "$d")" && uftrace $cmd $uopts -d "$(basename "$d")" $args) \
                >"$dir/$slug.out" 2>/dev/null || rc=$?
        else
            uftrace $cmd $uopts -d "$d" $args >"$dir/$slug.out" 2>/dev/null || rc=$?
        fi
        if [ "$rc" -ge 128 ]; then
            # uftrace 0.13 crashes on some (graph -r): no answer to compare with
            echo "record-options: $1: uftrace $cmd $uopts $args crashed (status $rc): left out" >&2
            rm -f "$dir/$slug.out"
            sed -i "/^$slug\t/d" "$dir/cases"
            continue
        fi
        same=${d%.data}.$cmd.txt # a peer output kept beside the recording (the corpus's)
        if [ -f "$same" ] && cmp -s "$same" "$dir/$slug.out"; then
            basename "$same" >"$dir/$slug.same" # no copy: golden-options.sh reads it in place
            rm -f "$dir/$slug.out"
        elif [ "$(stat -c %s "$dir/$slug.out")" -gt 24576 ]; then
            sha256sum <"$dir/$slug.out" | cut -d' ' -f1 >"$dir/$slug.sha256"
            rm -f "$dir/$slug.out"
        else
            mv "$dir/$slug.out" "$dir/$slug.txt"
        fi
    done <"$dir/cases"
}

for d in "$root"/tests/data/uftrace/*.data "$root"/tests/data/uftrace-kernel/*.data; do
    record "$(basename "$d" .data)" "$d"
done
for d in "$corpus"/gen/uftrace/*.data "$corpus"/uftrace/*.data; do
    [ -d "$d" ] && record "corpus-$(basename "$d" .data)" "$d"
done
du -sh "$out"
