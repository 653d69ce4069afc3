#!/bin/bash
# record-fixtures.sh - records the project's own uftrace fixtures with the real tools.
#
# Builds the small C programs of tests/uftrace/src (threads, fork, recursion, arguments) and
# examples/fib.c, records each with `uftrace record`, and stores the data directory with
# uftrace's own outputs beside it: NAME.replay.txt (uftrace replay), NAME.replay-time.txt
# (uftrace replay -f time,tid,duration), NAME.report.txt (uftrace report) and NAME.info.txt
# (uftrace info).  The fixtures: threads, forks, recursion (also with -finstrument-functions),
# cxx (C++ names as uftrace demangles them), cxxnames (the names uftrace's own demangler words
# otherwise than a full demangler: static constructors, ABI tags, iostreams, templates; also
# NAME.graph.txt = uftrace graph), args (-a, DWARF specs), libcalls (-a on libc
# calls: automatic specs, enum flags), args-spec (-A/-R specs of every format), events (-T read=...
# built-in events), extern (an extern.dat) and lost (LOST records).  Symbol files of shared libraries are dropped before the outputs are made
# (only the program's own .sym/.dbg are kept), so the fixtures stay a few tens of KB; the
# outputs are then printed by uftrace from exactly the files that are committed.
#
# usage: tests/uftrace/record-fixtures.sh [OUTDIR]      (default: tests/data/uftrace)
#        tests/uftrace/record-fixtures.sh --example     (re-record examples/fib.uftrace.data)
#        TG_RECORD_ONLY="NAME..." tests/uftrace/record-fixtures.sh [OUTDIR]
#                                                       (re-record only these fixtures)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in uftrace gcc; do
    command -v "$tool" >/dev/null || { echo "record-fixtures: $tool is not installed" >&2; exit 77; }
done
work=$(mktemp -d /tmp/tg-uftrace-rec.XXXXXX)
trap 'rm -rf "$work"' EXIT

# record NAME SOURCE "CFLAGS" "UFTRACE OPTIONS" [PROGRAM ARGS...]
record() {
    local name=$1 src=$2 cflags=$3 uopts=$4
    shift 4
    wanted "$name" || return 0
    case "$src" in
    *.cc) g++ $cflags -o "$work/$name" "$src" ;;
    *) gcc $cflags -o "$work/$name" "$src" -lpthread ;;
    esac
    (cd "$work" && uftrace record $uopts -d "$name.data" "./$name" "$@" >/dev/null) || true
    [ -f "$work/$name.data/info" ] || { echo "record-fixtures: recording $name failed" >&2; exit 1; }
    local d="$work/$name.data"
    for f in "$d"/*.sym "$d"/*.dbg; do
        [ -e "$f" ] || continue
        case "$(basename "$f")" in "$name.sym" | "$name.dbg") ;; *) rm -f "$f" ;; esac
    done
    outputs "$name"
}

wanted() { # wanted NAME: whether TG_RECORD_ONLY (all when empty) names it
    [ -z "${TG_RECORD_ONLY:-}" ] || [[ " $TG_RECORD_ONLY " == *" $1 "* ]]
}

graphed="cxxnames" # the fixtures whose `uftrace graph` is kept too (NAME.graph.txt)

outputs() { # outputs NAME: uftrace's own outputs beside $work/NAME.data
    local name=$1 d="$work/$1.data"
    uftrace replay -d "$d" >"$work/$name.replay.txt"
    uftrace replay -f time,tid,duration -d "$d" >"$work/$name.replay-time.txt"
    uftrace report -d "$d" >"$work/$name.report.txt"
    uftrace info -d "$d" >"$work/$name.info.txt"
    [[ " $graphed " != *" $name "* ]] || uftrace graph -d "$d" >"$work/$name.graph.txt"
}

# extern: the recursion recording plus an extern.dat of messages at times taken from it
# (one before any function, the others inside functions; comments and blank lines too)
make_extern() {
    rm -rf "$work/extern.data"
    cp -r "$work/recursion.data" "$work/extern.data"
    local times
    times=$(uftrace replay -f time -d "$work/extern.data" | awk 'NR==2||NR==12||NR==30{print $1}')
    set -- $times
    printf '# messages added by record-fixtures.sh\n1.000000001 before everything\n%s first message\n\n%s\tsecond message\n%s third\n' \
        "$1" "$2" "$3" >"$work/extern.data/extern.dat"
    outputs extern
}

store() { # store NAME OUTDIR
    local name=$1 out=$2
    mkdir -p "$out"
    rm -rf "${out:?}/$name.data"
    cp -r "$work/$name.data" "$out/"
    for s in replay replay-time report info graph; do
        [ ! -f "$work/$name.$s.txt" ] || cp "$work/$name.$s.txt" "$out/"
    done
}

if [ "${1:-}" = "--example" ]; then
    # the example `make demo` shows: fib in two threads, plain recording
    record fib "$root/examples/fib.c" "-O1 -pg" ""
    rm -rf "$root/examples/fib.uftrace.data"
    cp -r "$work/fib.data" "$root/examples/fib.uftrace.data"
    du -sh "$root/examples/fib.uftrace.data"
    exit 0
fi

out=${1:-$root/tests/data/uftrace}
src=$here/src
record threads "$src/threads.c" "-O1 -pg" ""
record forks "$src/forks.c" "-O1 -pg" ""
record recursion "$src/recursion.c" "-O1 -pg" ""
record recursion-cyg "$src/recursion.c" "-O1 -finstrument-functions" ""
record args "$src/args.c" "-O0 -g -pg" "-a"
if command -v g++ >/dev/null; then
    record cxx "$src/cxx.cc" "-O0 -pg" ""
    record cxxnames "$src/cxxnames.cc" "-O0 -pg" ""
fi
record libcalls "$src/libcalls.c" "-O0 -g -pg" "-a"
record events "$src/recursion.c" "-O1 -pg" "-T main@read=proc/statm -T is_even@read=page-fault"
record args-spec "$src/args.c" "-O0 -pg" "-A add@arg1,arg2 -R add@retval -A neg@arg1/d32 -R neg@retval/d32 -A name_len@arg1/s -R name_len@retval/u -A upper@arg1/c -R upper@retval/c -A pick@arg1/p,arg2/p,arg3/x -R pick@retval/p -A scale@fparg1 -R scale@retval/f64"
# lost: the recursion recording with 6 records replaced by a LOST record (uftrace writes one
# when its buffers overflow; this makes one happen deterministically), at two places
make_lost() {
    rm -rf "$work/lost.data"
    cp -r "$work/recursion.data" "$work/lost.data"
    local dat
    dat=$(ls "$work/lost.data"/[0-9]*.dat | head -1)
    python3 - "$dat" <<'PY'
import struct, sys
path = sys.argv[1]
data = open(path, 'rb').read()
recs = [data[i:i + 16] for i in range(0, len(data), 16)]
for k in (len(recs) // 2, len(recs) // 5):
    t, _ = struct.unpack('<QQ', recs[k])
    _, w2 = struct.unpack('<QQ', recs[k + 1])
    depth = (w2 >> 6) & 0x3ff
    lost = struct.pack('<QQ', t + 1, 2 | (5 << 3) | (depth << 6) | (6 << 16))
    recs = recs[:k + 1] + [lost] + recs[k + 7:]
open(path, 'wb').write(b''.join(recs))
PY
    outputs lost
}

wanted extern && make_extern
fixtures="threads forks recursion recursion-cyg args args-spec libcalls events extern cxx cxxnames"
if command -v python3 >/dev/null && wanted lost; then
    make_lost
    fixtures="$fixtures lost"
fi
for n in $fixtures; do [ ! -d "$work/$n.data" ] || store "$n" "$out"; done
du -sh "$out"
