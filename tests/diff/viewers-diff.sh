#!/bin/bash
# viewers-diff.sh - convert --to folded --diff, convert --to svg --diff and stats --diff.
#   folded: on both pairs of the diff fixtures, the OTHER_NS and PATH_NS columns, each added
#     up per function, are the Self time column of `uftrace report` of OTHER and of PATH
#     (folded_self.py, with the reports uftrace printed of each recording); every path once.
#   svg: every frame's title gives PATH's and OTHER's self time and the change as its data-b
#     and data-a say, and those are the folded --diff line of the frame's call path.
#   stats: per event class, the two counts and the change are what `trace-cmd report` prints
#     of each of two ftrace fixtures (its lines counted by event name).
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/diff
tg_need_dir "$data"
for p in inputs:a4:a8 builds:a4:b4; do
    IFS=: read -r pair path other <<<"$p"
    if ! tg_run "$TG" convert --to folded --diff "$data/$other.data" "$data/$path.data"; then
        tg_fail "$pair: folded --diff" "exit status $?: $(head -3 "$TG_TMP/err")"
        continue
    fi
    cp "$TG_TMP/out" "$TG_TMP/$pair.folded"
    awk '$2 > 0 { print $1, $2 }' "$TG_TMP/$pair.folded" >"$TG_TMP/other.folded"
    awk '$3 > 0 { print $1, $3 }' "$TG_TMP/$pair.folded" >"$TG_TMP/path.folded"
    for side in other path; do
        run=$path
        [ $side = other ] && run=$other
        if /usr/bin/python3 "$TG_TESTS/viewers/folded_self.py" "$TG_TMP/$side.folded" \
            "$data/$run.report.txt" >"$TG_TMP/why"; then
            tg_pass "$pair: folded --diff, $side's column against uftrace report of $run"
        else
            tg_fail "$pair: folded --diff, $side's column" "$(cat "$TG_TMP/why")"
        fi
    done
    if [ "$(awk 'NF != 3' "$TG_TMP/$pair.folded" | wc -l)" = 0 ] &&
        [ "$(cut -d' ' -f1 "$TG_TMP/$pair.folded" | sort | uniq -d | wc -l)" = 0 ]; then
        tg_pass "$pair: folded --diff: path OTHER_NS PATH_NS, each path once"
    else
        tg_fail "$pair: folded --diff lines" "$(head -5 "$TG_TMP/$pair.folded")"
    fi
    if tg_run "$TG" convert --to svg --diff "$data/$other.data" "$data/$path.data" &&
        /usr/bin/python3 "$TG_TESTS/diff/check_svg_diff.py" "$TG_TMP/out" "$TG_TMP/$pair.folded" \
            >"$TG_TMP/why"; then
        tg_pass "$pair: svg --diff titles and times against folded --diff ($(tail -1 "$TG_TMP/why"))"
    else
        tg_fail "$pair: svg --diff" "$(cat "$TG_TMP/why" "$TG_TMP/err")"
    fi
done
# stats --diff: counts by event name against trace-cmd's own report of each file
ft=$TG_TEST_DATA/ftrace
for p in comm-idle-first-v6:comm-task-first-v7zstd all-events-v6:comm-task-first-v6; do
    IFS=: read -r other path <<<"$p"
    if tg_run "$TG" stats --diff "$ft/$other.dat" "$ft/$path.dat" &&
        /usr/bin/python3 "$TG_TESTS/diff/check_stats_diff.py" "$TG_TMP/out" \
            "$ft/${other%-v*}.report.txt" "$ft/${path%-v*}.report.txt" >"$TG_TMP/why"; then
        tg_pass "stats --diff $other $path against trace-cmd report of each"
    else
        tg_fail "stats --diff $other $path" "$(cat "$TG_TMP/why" "$TG_TMP/err")"
    fi
done
tg_done
