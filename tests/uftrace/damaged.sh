#!/bin/bash
# damaged.sh - damaged uftrace directories: clear errors, events before the damage, no crash.
#
# Damaged copies of the project's fixtures are made in a temp dir at test time: a missing
# info / task.txt / map / TID.dat, a truncated TID.dat, a record with a wrong magic, a .sym
# line that does not parse (a warning, the trace read), truncated metadata, and byte flips all over every file.  Each case
# must exit with status 1 and name the damaged file on stderr (the flips: any status but a
# crash or a hang).  Run under ASan/UBSan too (the suite does).
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
data=${TG_TEST_DATA:?}/uftrace
[ -d "$data/threads.data" ] || { echo "SKIP: fixtures missing in $data"; exit 77; }
tmp=$TG_TMP
fail=0

fresh() { # fresh FIXTURE -> path of a new copy
    rm -rf "$tmp/d"
    mkdir -p "$tmp/d"
    cp -r "$data/$1.data" "$tmp/d/"
    echo "$tmp/d/$1.data"
}

# expect NAME PATTERN_IN_STDERR [MIN_STDOUT_LINES] -- CMD...: status 1, message, no crash
expect() {
    local name=$1 pattern=$2 min=$3
    shift 4
    timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local lines=$(wc -l <"$tmp/out")
    if grep -q "Sanitizer\|runtime error" "$tmp/err"; then
        echo "FAIL $name: sanitizer report:"; head -20 "$tmp/err"; fail=$((fail + 1))
    elif [ "$rc" != 1 ]; then
        echo "FAIL $name: exit status $rc (expected 1)"; head -5 "$tmp/err"; fail=$((fail + 1))
    elif ! grep -q -- "$pattern" "$tmp/err"; then
        echo "FAIL $name: no '$pattern' in the error:"; head -5 "$tmp/err"; fail=$((fail + 1))
    elif [ "$lines" -lt "$min" ]; then
        echo "FAIL $name: only $lines lines printed before the damage (expected >= $min)"
        fail=$((fail + 1))
    else
        echo "ok   $name: $(head -1 "$tmp/err")"
    fi
}

first_dat() { ls "$1"/*.dat | grep -v perf- | head -1; }
biggest_dat() { ls -S "$1"/*.dat | grep -v perf- | head -1; }

d=$(fresh threads); rm "$d/info"
expect "missing info" "threads.data" 0 -- "$TG" replay "$d"
d=$(fresh threads); rm "$d/task.txt"
expect "missing task.txt" "task.txt" 0 -- "$TG" replay "$d"
d=$(fresh threads); rm "$d"/sid-*.map
expect "missing session map" "sid-.*\.map" 0 -- "$TG" report "$d"
# a TID.dat missing is what a thread asleep at the program's exit leaves (it never flushed
# its records): uftrace reads the others, and so do we, with a warning naming the file
d=$(fresh threads); f=$(first_dat "$d"); rm "$f"
timeout 60 "$TG" replay "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" != 0 ] || ! grep -q "$(basename "$f"): task .* has no data file" "$tmp/err" ||
    [ "$(wc -l <"$tmp/out")" -lt 5 ]; then
    echo "FAIL missing TID.dat: exit status $rc (expected 0, a warning, the other threads):"
    head -5 "$tmp/err"; fail=$((fail + 1))
elif command -v uftrace >/dev/null && uftrace replay -d "$d" >"$tmp/want" 2>/dev/null &&
    ! cmp -s "$tmp/want" "$tmp/out"; then
    echo "FAIL missing TID.dat: replay differs from uftrace's"; fail=$((fail + 1))
else
    echo "ok   missing TID.dat: $(head -1 "$tmp/err")"
fi

d=$(fresh threads); f=$(biggest_dat "$d"); size=$(stat -c %s "$f")
truncate -s $((size / 2 + 5)) "$f"
expect "truncated TID.dat" "$(basename "$f"): offset 0x.*truncated record" 5 -- "$TG" replay "$d"
expect "truncated TID.dat (graph)" "$(basename "$f"): offset 0x.*truncated record" 4 -- "$TG" graph "$d"
d=$(fresh args); f=$(biggest_dat "$d"); size=$(stat -c %s "$f")
truncate -s $((size - 4)) "$f"
expect "truncated TID.dat (arguments)" "$(basename "$f"): offset 0x" 5 -- "$TG" replay "$d"
d=$(fresh threads); f=$(biggest_dat "$d")
printf '\000' | dd of="$f" bs=1 seek=$((16 * 10 + 8)) conv=notrunc status=none
expect "wrong record magic" "$(basename "$f"): offset 0xa8: bad record magic" 5 -- "$TG" replay "$d"
d=$(fresh threads); f=$(biggest_dat "$d")
printf '\000' | dd of="$f" bs=1 seek=$((16 * 10 + 8)) conv=notrunc status=none
expect "wrong record magic (report)" "bad record magic" 1 -- "$TG" report "$d"
# a .sym line that does not parse costs that symbol, with a warning, as uftrace skips it
d=$(fresh threads); echo "this is not a symbol line" >>"$d/threads.sym"
if "$TG" replay "$d" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$data/threads.replay.txt" &&
    grep -q 'threads.sym: line [0-9]*: expected "ADDRESS \[SIZE\] TYPE NAME"' "$tmp/err"; then
    echo "ok   .sym line that does not parse: $(head -1 "$tmp/err")"
else
    echo "FAIL .sym line that does not parse: the trace must be read, with a warning"; head -3 "$tmp/err"
    fail=$((fail + 1))
fi
d=$(fresh threads); printf 'Ftrace!\000\004\000' >"$d/info"
expect "truncated info" "info: offset 0x0" 0 -- "$TG" info "$d"
d=$(fresh threads); printf 'Ftrace!\000\007\000\000\000\050\000\001\002' | dd of="$d/info" conv=notrunc status=none
expect "unsupported info version" "info: offset 0x8: file version 7" 0 -- "$TG" replay "$d"
d=$(fresh threads); echo "SESS timestamp=1.0 pid=1" >"$d/task.txt"
expect "SESS line without sid" "task.txt: offset 0x0" 0 -- "$TG" replay "$d"
d=$(fresh threads); f=$(ls "$d"/perf-cpu*.dat | head -1)
if [ -n "$f" ] && [ -s "$f" ]; then
    printf '\377\377' | dd of="$f" bs=1 seek=6 conv=notrunc status=none
    expect "perf record size" "$(basename "$f"): offset 0x6: perf record size" 1 -- "$TG" replay "$d"
fi

# byte flips everywhere: no crash, no hang, exit 0 or 1
for fx in threads args forks; do
    for seed in 1 2 3 4 5 6 7 8; do
        tg_sampled || continue
        d=$(fresh $fx)
        for f in "$d"/*; do
            size=$(stat -c %s "$f")
            [ "$size" -gt 0 ] || continue
            for k in 1 2 3; do
                off=$(( (seed * 7919 + k * 104729 + size * k) % size ))
                printf "\\$(printf %03o $(( (seed * 37 + k * 101) % 256 )))" |
                    dd of="$f" bs=1 seek=$off conv=notrunc status=none
            done
        done
        for cmd in replay report info; do
            timeout 60 "$TG" $cmd "$d" >/dev/null 2>"$tmp/err"
            rc=$?
            if grep -q "Sanitizer\|runtime error" "$tmp/err" ||
                { [ "$rc" != 0 ] && [ "$rc" != 1 ]; }; then
                echo "FAIL flips $fx seed $seed $cmd: exit status $rc"; head -3 "$tmp/err"
                fail=$((fail + 1))
            fi
        done
    done
done
echo "flips: done"

# random damage (truncations and byte changes in 1-3 files of a fixture), fixed seeds;
# the damaged copies are all made by one python3 run
if command -v python3 >/dev/null; then
    mkdir -p "$tmp/rnd"
    python3 - "$data" "$tmp/rnd" <<'PY'
import os, random, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
for fx in ("threads", "args", "args-spec", "libcalls", "cxx", "events", "extern", "lost",
           "forks"):
    if not os.path.isdir(os.path.join(src, fx + ".data")):
        continue
    for seed in range(1, 13):
        d = os.path.join(dst, "%s-%d" % (fx, seed))
        shutil.copytree(os.path.join(src, fx + ".data"), d)
        r = random.Random(seed * 7919 + sum(map(ord, fx)))
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        for f in r.sample(files, min(len(files), r.randint(1, 3))):
            b = bytearray(open(f, "rb").read())
            if not b:
                continue
            if r.random() < 0.3:
                b = b[:r.randint(0, len(b))]
            else:
                for _ in range(r.randint(1, 8)):
                    b[r.randrange(len(b))] = r.randrange(256)
            open(f, "wb").write(bytes(b))
PY
    runs=0
    for d in "$tmp/rnd"/*; do
        for cmd in replay report info stats "replay -f duration,tid,addr,time,delta,elapsed"; do
            timeout 60 "$TG" $cmd "$d" >/dev/null 2>"$tmp/err"
            rc=$?
            runs=$((runs + 1))
            if grep -q "Sanitizer\|runtime error" "$tmp/err" || { [ "$rc" != 0 ] && [ "$rc" != 1 ]; }; then
                echo "FAIL random damage $(basename "$d") $cmd: exit status $rc"; head -3 "$tmp/err"
                fail=$((fail + 1))
            fi
        done
    done
    echo "random damage: $runs runs"
fi
[ "$fail" = 0 ]
