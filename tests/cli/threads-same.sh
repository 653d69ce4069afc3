#!/bin/bash
# threads-same.sh - what traceglot prints does not depend on how many threads read the trace.
#
# `stats` and `info` count each stream on its own thread when there are several cores and
# put the counts together in the merge's order; `cat` of a CTF trace renders each stream's
# lines on its own thread; uftrace's `report` reads threads at once;
# the v7 trace.dat inflater runs ahead on a second thread.  Each command runs on every trace
# of the corpus and the fixtures (intact, and damaged copies: a truncated trace.dat, a CTF
# stream with bytes flipped, a uftrace thread cut short) with TG_THREADS=1 (everything on
# the calling thread, as `taskset -c 0`), 2 and 5: stdout, stderr and the exit status must
# be the same bytes.  The sanitizer suite (TSan: -DTG_SANITIZE=thread) runs the same script.
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA
C=$TG_CORPUS

traces=()
add() { [ -e "$1" ] && traces+=("$1"); }
for d in "$C"/ftrace/*.dat "$C"/ftrace-func/*.dat "$C"/mixed/kernel.dat "$C"/mixed/app.uftrace.data \
    "$C"/lttng0/trace-* "$C"/ctf-kernel/many-threads "$C"/ctf-classes/* "$C"/uftrace/*.data \
    "$D"/ftrace/*.dat "$D"/uftrace/*.data "$D"/uftrace-sched/*.data "$D"/lttng0/*/ \
    "$D"/analyze-many-threads/*/; do
    case $d in *.txt | *.json | *.zst) continue ;; esac
    add "${d%/}"
done
while IFS= read -r m; do add "$(dirname "$m")"; done < <(find "$D/ctf" "$C/ctf" -name metadata 2>/dev/null | sort | head -40)
[ ${#traces[@]} -gt 0 ] || tg_skip "no traces found (corpus at $C, fixtures at $D)"

# damaged copies: the fallback to the merged pass must report the same errors in the same order
dmg=$TG_TMP/damaged
mkdir -p "$dmg"
first_dat=$(ls "$D"/ftrace/*.dat 2>/dev/null | head -1)
if [ -n "$first_dat" ]; then
    size=$(stat -c %s "$first_dat")
    head -c $((size * 3 / 4)) "$first_dat" > "$dmg/cut.dat" && traces+=("$dmg/cut.dat")
    cp "$first_dat" "$dmg/flipped.dat"
    printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$dmg/flipped.dat" bs=1 seek=$((size - 5000)) conv=notrunc 2>/dev/null
    traces+=("$dmg/flipped.dat")
fi
ctf=$(find "$C/ctf-kernel/many-threads" -name metadata 2>/dev/null | head -1)
if [ -n "$ctf" ]; then
    cp -r "$(dirname "$ctf")" "$dmg/ctf"
    for f in "$dmg"/ctf/*; do
        [ "$(basename "$f")" = metadata ] && continue
        s=$(stat -c %s "$f")
        [ "$s" -gt 9000 ] || continue
        printf '\x00\x00\x00\x00\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((s / 2)) conv=notrunc 2>/dev/null
    done
    traces+=("$dmg/ctf")
fi
uf=$(ls -d "$D"/uftrace/*.data 2>/dev/null | head -1)
if [ -n "$uf" ]; then
    cp -r "$uf" "$dmg/uf.data"
    big=$(ls -S "$dmg"/uf.data/[0-9]*.dat 2>/dev/null | head -1)
    [ -n "$big" ] && truncate -s $(($(stat -c %s "$big") - 13)) "$big"
    traces+=("$dmg/uf.data")
fi

run_all() { # THREADS CMD... -> the bytes of stdout, stderr and status
    local th=$1
    shift
    tg_run env TG_THREADS="$th" "$TG" "$@"
    local st=$?
    [ $st = 125 ] && return 125
    { cat "$TG_TMP/out"; echo "--- stderr"; cat "$TG_TMP/err"; echo "--- status $st"; } > "$TG_TMP/got.$th"
}

n=0
for t in "${traces[@]}"; do
    for cmd in stats "stats --format=json" info; do
        n=$((n + 1))
        tg_sampled || continue
        # shellcheck disable=SC2086
        run_all 1 $cmd "$t" || { tg_fail "$cmd $t" "crashed with one thread"; continue; }
        for th in 2 5; do
            # shellcheck disable=SC2086
            if ! run_all $th $cmd "$t"; then
                tg_fail "$cmd $t ($th threads)" "crashed"
                continue
            fi
            tg_same "$cmd $t: $th threads as one" "$TG_TMP/got.1" "$TG_TMP/got.$th"
        done
    done
done
# cat of a CTF trace: babeltrace2's text rendered per stream on worker threads
# (lines_ahead.c), the merge writing each line's time and delta; damage and warnings as one
# thread gives them
ctfs=()
for t in "${traces[@]}"; do
    [ -n "$(find "$t" -name metadata -print -quit 2>/dev/null)" ] && ctfs+=("$t")
done
while IFS= read -r m; do ctfs+=("$(dirname "$m")"); done < <(find "$C/gen" "$C/mixed" -name metadata 2>/dev/null | sort)
# and a CTF trace of several streams with one of them cut in the middle of a packet
for t in "${ctfs[@]}"; do
    case $t in "$dmg"/*) continue ;; esac
    streams=$(find "$t" -maxdepth 1 -type f ! -name metadata ! -name '*.idx' -size +8k | wc -l)
    [ "$streams" -ge 2 ] || continue
    cp -r "$t" "$dmg/ctf-cut"
    big=$(find "$dmg/ctf-cut" -maxdepth 1 -type f ! -name metadata -size +8k | sort | head -1)
    truncate -s $(($(stat -c %s "$big") / 2 + 7)) "$big"
    ctfs+=("$dmg/ctf-cut")
    break
done
for t in "${ctfs[@]}"; do
    n=$((n + 1))
    tg_sampled || continue
    run_all 1 cat --style=babeltrace "$t" || { tg_fail "cat $t" "crashed with one thread"; continue; }
    for th in 2 5; do
        run_all $th cat --style=babeltrace "$t" || { tg_fail "cat $t ($th threads)" "crashed"; continue; }
        tg_same "cat $t: $th threads as one" "$TG_TMP/got.1" "$TG_TMP/got.$th"
    done
done
if [ ${#ctfs[@]} -ge 2 ]; then
    run_all 1 cat --style=babeltrace "${ctfs[0]}" "${ctfs[1]}" && run_all 2 cat --style=babeltrace "${ctfs[0]}" "${ctfs[1]}" &&
        tg_same "cat of two CTF traces: 2 threads as one" "$TG_TMP/got.1" "$TG_TMP/got.2"
fi
# two traces in one set (the merge numbers the streams across the set), and uftrace report
pair=()
for t in "${traces[@]}"; do case $t in *.dat) pair+=("$t") ;; esac; done
if [ ${#pair[@]} -ge 2 ]; then
    run_all 1 stats "${pair[0]}" "${pair[1]}" && run_all 2 stats "${pair[0]}" "${pair[1]}" &&
        tg_same "stats of two trace.dat files: 2 threads as one" "$TG_TMP/got.1" "$TG_TMP/got.2"
fi
for t in "${traces[@]}"; do
    case $t in *.data) ;; *) continue ;; esac
    run_all 1 report "$t" && run_all 2 report "$t" &&
        tg_same "report $t: 2 threads as one" "$TG_TMP/got.1" "$TG_TMP/got.2"
done
tg_done
