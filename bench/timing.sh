# bench/timing.sh - the one timing helper the bench scripts source (`. "$here/timing.sh"`),
# so every case is timed, and its memory measured, the same way:
#   tg_timed OUTFILE CMD...   run CMD with its output in OUTFILE; prints "WALL MAXRSS_KB CPU":
#                             wall seconds from date +%s.%N around the run (a nanosecond
#                             clock: /usr/bin/time's %e only resolves 10 ms, too coarse for a
#                             run of 0.1 s), peak RSS and user+system seconds from /usr/bin/time
#   tg_secs CMD...            wall seconds of CMD, its output discarded
#   tg_rss CMD...             peak RSS of CMD in kB, its output discarded
#   tg_median VALUE...        the middle value (of an even count, the lower middle)
# Medians of alternating runs are what the scripts report (DESIGN.md, "Performance").

tg_timed() {
    local o=$1 t0 t1 f
    shift
    f=$(mktemp "${TMPDIR:-/tmp}/tg-bench-time.XXXXXX")
    t0=$(date +%s.%N)
    /usr/bin/time -f "%M %U %S" -o "$f" "$@" >"$o" 2>/dev/null
    t1=$(date +%s.%N)
    awk -v t0="$t0" -v t1="$t1" 'END { printf "%.4f %s %.2f\n", t1 - t0, $1, $2 + $3 }' "$f"
    rm -f "$f"
}

tg_secs() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}

tg_rss() {
    local f
    f=$(mktemp "${TMPDIR:-/tmp}/tg-bench-rss.XXXXXX")
    /usr/bin/time -f %M -o "$f" "$@" >/dev/null 2>&1
    tail -n 1 "$f"
    rm -f "$f"
}

tg_median() {
    printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"
}
