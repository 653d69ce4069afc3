#!/bin/bash
# details.sh - `traceglot cat --style=babeltrace-details` (and its babeltrace2 spelling
# `-c sink.text.details`) prints what `babeltrace2 -c sink.text.details` prints, byte for byte:
# trace, stream and event classes, stream and packet beginnings and ends, events with their
# fields, discarded events.
#
#   details.sh --live TRACE...       CTF traces (the project's fixtures, the corpus): babeltrace2
#                                    runs here on each
#   details.sh --made                the CTF traces make-handmade.py, make-strings.py,
#                                    make-threads.py and make-discarded.py (lost events and
#                                    packets) write: babeltrace2 runs here
#   details.sh --recorded TRACE...   corpus traces with babeltrace2's output recorded beside them
#                                    (TRACE.babeltrace2-details.txt, read in place): the stream
#                                    names it shows start with the folder it was recorded from
#                                    (/tmp/tg-corpus/out/ctf/NAME), which is this TRACE here
#   details.sh --symlink TRACE       one CTF trace reached through a symbolic link to its
#                                    folder (absolute and relative paths, "." and "..", a
#                                    working folder entered through the link): babeltrace2 runs
#                                    here on each path and names the stream files by the path
#                                    as given, made absolute, not by where the link points
#   details.sh --params TRACE...     the details sink's parameters (--params with-metadata=no,
#                                    with-data=no, with-time=no, with-trace-name=no,
#                                    with-stream-name=no, with-uuid=no, with-stream-class-name,
#                                    color=never, alone and together): babeltrace2 runs here
#                                    with the same --params; compact=yes and an unknown
#                                    parameter are refused (exit 2)
#   details.sh --converted PATH...   traces of other formats: babeltrace2 runs on the CTF
#                                    `traceglot convert --to ctf` writes of each; traceglot's
#                                    conversion is a temporary folder with UUIDs of its own (the
#                                    converter makes them up), so the folder of the stream names
#                                    and the UUID lines are the only bytes not compared
. "$(dirname "$0")/../lib.sh"

live() { # live NAME TRACE
    if ! timeout 300 babeltrace2 -c sink.text.details "$2" > "$TG_TMP/peer" 2> "$TG_TMP/peer.err"; then
        echo "note $1: babeltrace2 does not read it: not compared"
        return
    fi
    tg_check "$1 (--style)" "$TG_TMP/peer" "$TG" cat --style=babeltrace-details "$2"
    tg_check "$1 (-c)" "$TG_TMP/peer" "$TG" cat -c sink.text.details "$2"
}

case "${1:-}" in
--live)
    shift
    tg_need_cmd babeltrace2
    found=0
    for t in "$@"; do
        [ -d "$t" ] || continue
        found=1
        live "$(basename "$t")" "$t"
    done
    [ "$found" = 1 ] || tg_skip "no CTF traces in: $*"
    ;;
--made)
    tg_need_cmd babeltrace2
    py=/usr/bin/python3
    [ -x "$py" ] || py=python3
    for gen in make-handmade.py make-strings.py make-threads.py make-discarded.py; do
        "$py" "$TG_TESTS/ctf/$gen" "$TG_TMP/made" > /dev/null || tg_fail "$gen" "did not run"
    done
    for t in "$TG_TMP"/made/*; do
        [ -d "$t" ] && live "$(basename "$t")" "$t"
    done
    ;;
--recorded)
    shift
    found=0
    for t in "$@"; do
        exp=$t.babeltrace2-details.txt
        [ -d "$t" ] && [ -f "$exp" ] || continue
        found=1
        name=$(basename "$t")
        dir=$(cd "$t" && pwd) # as given, not resolved: babeltrace2 does not resolve links
        sed "s|^  Name: /tmp/tg-corpus/out/ctf/$name/|  Name: $dir/|" "$exp" > "$TG_TMP/exp"
        tg_check "$name" "$TG_TMP/exp" "$TG" cat -c sink.text.details "$t"
    done
    [ "$found" = 1 ] || tg_skip "no recorded details outputs beside: $*"
    ;;
--symlink)
    tg_need_cmd babeltrace2
    t=${2:?}
    [ -d "$t" ] || tg_skip "no CTF trace $t"
    t=$(cd "$t" && pwd)
    mkdir -p "$TG_TMP/real/sub"
    ln -s "$t" "$TG_TMP/real/sub/trace"
    ln -s real/sub "$TG_TMP/link"
    live "absolute through the link" "$TG_TMP/link/trace"
    live "through . and .." "$TG_TMP/real/../link/./trace/"
    cd "$TG_TMP"
    live "relative through the link" link/trace
    cd "$TG_TMP/link"
    live "working folder entered through the link" trace
    # where $PWD does not name the working folder: the folder's own path (getcwd's)
    PWD=/ babeltrace2 -c sink.text.details trace >"$TG_TMP/peer" 2>"$TG_TMP/peer.err"
    PWD=/ tg_run "$TG" cat -c sink.text.details trace
    tg_same "a stale \$PWD" "$TG_TMP/peer" "$TG_TMP/out"
    cd "$TG_TMP/.."
    ;;
--params)
    shift
    tg_need_cmd babeltrace2
    found=0
    for t in "$@"; do
        [ -d "$t" ] || continue
        found=1
        for p in with-metadata=no with-data=no with-time=no with-trace-name=no \
            with-stream-name=no with-uuid=no with-stream-class-name=no color=never \
            with-metadata=no,with-time=no,with-uuid=no with-data=false,with-uuid=no \
            with-time=yes,with-metadata=true with-metadata=no,with-data=no; do
            babeltrace2 -c sink.text.details --params "$p" "$t" > "$TG_TMP/peer" 2> /dev/null ||
                { tg_fail "$(basename "$t") --params $p" "babeltrace2 failed"; continue; }
            tg_check "$(basename "$t") --params $p" "$TG_TMP/peer" \
                "$TG" cat -c sink.text.details --params "$p" "$t"
        done
        tg_check_status "$(basename "$t") --params compact=yes refused" 2 \
            "$TG" cat -c sink.text.details --params compact=yes "$t"
        tg_check_status "$(basename "$t") --params with-nothing=no refused" 2 \
            "$TG" cat -c sink.text.details --params with-nothing=no "$t"
    done
    [ "$found" = 1 ] || tg_skip "no CTF traces in: $*"
    ;;
--converted)
    shift
    tg_need_cmd babeltrace2
    found=0
    # the stream names' folder, the trace's UUID (4 spaces in, under "Trace `...`:") and a
    # clock's (6 spaces in) where the converter makes one up
    norm() { sed -E 's|^  Name: .*/([^/]*)$|  Name: DIR/\1|; s|^(    \|      )UUID: .*$|\1UUID: X|' "$1"; }
    for p in "$@"; do
        [ -e "$p" ] || continue
        found=1
        name=$(basename "$p")
        rm -rf "$TG_TMP/ctf"
        if ! "$TG" convert --to ctf -o "$TG_TMP/ctf" "$p" > /dev/null 2> "$TG_TMP/conv.err"; then
            tg_fail "$name convert" "$(head -c 200 "$TG_TMP/conv.err")"
            continue
        fi
        if ! timeout 300 babeltrace2 -c sink.text.details "$TG_TMP/ctf" > "$TG_TMP/peer" \
            2> "$TG_TMP/peer.err"; then
            tg_fail "$name" "babeltrace2 does not read the CTF traceglot writes of it"
            continue
        fi
        tg_run "$TG" cat --style=babeltrace-details "$p"
        rc=$?
        if [ "$rc" != 0 ]; then
            tg_fail "$name" "exit $rc: $(head -c 200 "$TG_TMP/err")"
            continue
        fi
        norm "$TG_TMP/peer" > "$TG_TMP/peer.n"
        norm "$TG_TMP/out" > "$TG_TMP/out.n"
        tg_same "$name" "$TG_TMP/peer.n" "$TG_TMP/out.n"
    done
    [ "$found" = 1 ] || tg_skip "no traces in: $*"
    ;;
*)
    echo "usage: details.sh --live TRACE... | --made | --recorded TRACE... | --params TRACE..." \
        "| --converted PATH..."
    exit 2
    ;;
esac
# babeltrace2's other sink components are not styles traceglot has: refused, naming what it takes
t=$TG_TEST_DATA/ctf/types
if [ -d "$t" ]; then
    tg_check_status "-c sink.utils.counter refused" 2 "$TG" cat -c sink.utils.counter "$t"
    grep -q "sink.text.details" "$TG_TMP/err" && tg_pass "the refusal names the components taken" ||
        tg_fail "-c refusal" "does not name sink.text.details: $(head -c 200 "$TG_TMP/err")"
fi
tg_done
