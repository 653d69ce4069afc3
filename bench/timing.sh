# bench/timing.sh - the one timing helper the bench scripts source (`. "$here/timing.sh"`),
# so every case is timed, and its memory measured, the same way: by bench/pairs.py, which
# spawns the command and reads the kernel's figures for it (wall time from a nanosecond
# clock around spawn and wait, user and system time, minor faults and peak RSS from wait4).
#   tg_pairs NAME [--goal G] :: A CMD... :: B CMD...
#                             A and B (labels: traceglot and the peer, or old and new) in
#                             alternating whole runs after a warm-up, $TG_BENCH_PAIRS pairs
#                             (default 7); prints a summary line, and appends the record to
#                             $TG_BENCH_RESULTS when set (bench/run and bench/compare print
#                             their tables from it)
#   tg_timed OUTFILE CMD...   run CMD with its output in OUTFILE; prints "WALL MAXRSS_KB CPU"
#                             (CPU: user + system seconds)
#   tg_secs CMD...            wall seconds of CMD, its output discarded
#   tg_rss CMD...             peak RSS of CMD in kB, its output discarded
#   tg_median VALUE...        the middle value (of an even count, the lower middle)
# Ratios and medians of alternating runs are what the scripts report (DESIGN.md,
# "Performance"); instruction counts (bench/compare-ir) are the second view.

tg_pairs_py=${PYTHON:-/usr/bin/python3}
[ -x "$tg_pairs_py" ] || tg_pairs_py=python3
tg_pairs_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

tg_pairs() {
    local name=$1
    shift
    local -a json=()
    [ -n "${TG_BENCH_RESULTS:-}" ] && json=(--json "$TG_BENCH_RESULTS")
    "$tg_pairs_py" "$tg_pairs_here/pairs.py" run "$name" --pairs "${TG_BENCH_PAIRS:-7}" \
        --warmup "${TG_BENCH_WARMUP:-1}" "${json[@]}" "$@" 2>&1 >/dev/null
}

tg_timed() {
    local o=$1
    shift
    "$tg_pairs_py" "$tg_pairs_here/pairs.py" once -o "$o" "$@"
}

tg_secs() {
    "$tg_pairs_py" "$tg_pairs_here/pairs.py" once "$@" | cut -d' ' -f1
}

tg_rss() {
    "$tg_pairs_py" "$tg_pairs_here/pairs.py" once "$@" | cut -d' ' -f2
}

tg_median() {
    printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"
}
