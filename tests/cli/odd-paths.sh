#!/usr/bin/env bash
# odd-paths.sh - a trace named the way users name it: relative (./x, ../dir/x), through a
# symbolic link, with spaces in the folder and the file name. Each peer's command and
# traceglot's spelling of it print the same bytes for every such path (uftrace -d DIR and
# uftrace's positional spellings, trace-cmd report -i, babeltrace2's text), and traceglot's
# own commands name the path as the user typed it.
. "$(dirname "$0")/../lib.sh"

uf=$TG_TEST_DATA/uftrace/cxx.data
dat=$TG_TEST_DATA/ftrace/comm-idle-first-v6.dat
ctf=$TG_TEST_DATA/ctf/cyg
for f in "$uf" "$dat" "$ctf"; do [ -e "$f" ] || tg_skip "no $f"; done

# the same trace under three odd names each, all relative to $TG_TMP
mkdir -p "$TG_TMP/a dir"
ln -s "$uf" "$TG_TMP/a dir/my data"
ln -s "$dat" "$TG_TMP/a dir/my trace.dat"
ln -s "$ctf" "$TG_TMP/a dir/my ctf"
cp -r "$uf" "$TG_TMP/copy.data"
cp "$dat" "$TG_TMP/copy.dat"
cp -r "$ctf" "$TG_TMP/copy ctf"
up="../$(basename "$TG_TMP")"

# same_in_tmp NAME PEER-CMD... -- TRACEGLOT-ARGS...: run both from $TG_TMP, same bytes
same_in_tmp() {
    local name=$1 peer=()
    shift
    while [ "$1" != "--" ]; do peer+=("$1"); shift; done
    shift
    (cd "$TG_TMP" && "${peer[@]}" > want.paths 2> /dev/null) ||
        { tg_fail "$name" "the peer failed: ${peer[*]}"; return; }
    (cd "$TG_TMP" && "$TG" "$@" > out.paths 2> err.paths) ||
        { tg_fail "$name" "exit $?: $(head -c 300 "$TG_TMP/err.paths")"; return; }
    tg_same "$name" "$TG_TMP/want.paths" "$TG_TMP/out.paths"
}

if command -v uftrace > /dev/null; then
    for p in "a dir/my data" "./copy.data" "$up/a dir/my data"; do
        for c in replay report graph; do
            same_in_tmp "uftrace $c -d '$p'" uftrace $c -d "$p" -- $c -d "$p"
        done
        same_in_tmp "uftrace graph main with '$p' after it" uftrace graph -d "$p" main -- graph main "$p"
    done
else
    echo "note: uftrace is not installed: its paths not compared"
fi

if command -v trace-cmd > /dev/null; then
    for p in "a dir/my trace.dat" "./copy.dat" "$up/a dir/my trace.dat"; do
        same_in_tmp "trace-cmd report --cpus '$p'" trace-cmd report --cpus "$p" -- cat --style=trace-cmd --cpus "$p"
        same_in_tmp "trace-cmd report -i '$p'" trace-cmd report -i "$p" -- cat --style=trace-cmd -i "$p"
    done
else
    echo "note: trace-cmd is not installed: its paths not compared"
fi

if command -v babeltrace2 > /dev/null; then
    for p in "a dir/my ctf" "copy ctf" "$up/a dir/my ctf"; do
        same_in_tmp "babeltrace2 '$p'" babeltrace2 "$p" -- cat --style=babeltrace "$p"
    done
else
    echo "note: babeltrace2 is not installed: its paths not compared"
fi

# traceglot's own words name the path as typed, not resolved
for p in "a dir/my trace.dat" "$up/a dir/my data"; do
    (cd "$TG_TMP" && "$TG" info "$p" > out.paths 2> err.paths)
    grep -qxF "trace:        $p" "$TG_TMP/out.paths" && tg_pass "info names '$p' as typed" ||
        tg_fail "info names '$p' as typed" "$(head -3 "$TG_TMP/out.paths")"
done
(cd "$TG_TMP" && "$TG" stats "a dir/none.dat" > out.paths 2> err.paths)
rc=$?
[ $rc -ne 0 ] && grep -qF "a dir/none.dat: cannot open" "$TG_TMP/err.paths" &&
    tg_pass "a missing path with spaces is named in the error" ||
    tg_fail "a missing path with spaces is named in the error" "exit $rc: $(cat "$TG_TMP/err.paths")"
tg_done
