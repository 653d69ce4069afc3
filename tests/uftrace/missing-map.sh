#!/bin/bash
# missing-map.sh - a uftrace recording whose session map (sid-*.map) is missing: `info`
# prints what `uftrace info` prints (it reads no map) and exits 0, with a warning; replay,
# report, report --task, report --diff and graph refuse it as uftrace does ("cannot open
# maps file: PATH: No such file or directory", exit 1).  On copies of the project's
# fixtures whose records carry no arguments (an argument record cannot be read without
# knowing its function); uftrace info's output of each is the committed NAME.info.txt
# (uftrace info does not read the map: the installed uftrace is asked too when present).
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/uftrace
tg_need_dir "$data"
for name in threads forks recursion events lost; do
    [ -d "$data/$name.data" ] || continue
    rm -rf "$TG_TMP/$name.data"
    cp -r "$data/$name.data" "$TG_TMP/"
    d=$TG_TMP/$name.data
    rm -f "$d"/sid-*.map
    if "$TG" info "$d" >"$TG_TMP/info" 2>"$TG_TMP/info-err"; then
        sed -n '/^# system information/,$p' "$TG_TMP/info" >"$TG_TMP/info-uftrace"
        tg_same "$name info" "$data/$name.info.txt" "$TG_TMP/info-uftrace"
        if command -v uftrace >/dev/null && uftrace info -d "$d" >"$TG_TMP/live" 2>/dev/null; then
            tg_same "$name info (uftrace live)" "$TG_TMP/live" "$TG_TMP/info-uftrace"
        fi
    else
        tg_fail "$name info" "exit status $? ($(head -c 300 "$TG_TMP/info-err"))"
    fi
    for cmd in replay report "report --task" graph "report --diff $data/$name.data"; do
        # shellcheck disable=SC2086
        "$TG" $cmd "$d" >"$TG_TMP/out" 2>"$TG_TMP/err"
        rc=$?
        if [ "$rc" = 1 ] && [ ! -s "$TG_TMP/out" ] &&
            grep -q "error: cannot open maps file: $d/sid-.*\.map: No such file or directory" "$TG_TMP/err"; then
            tg_pass "$name ${cmd%% /*} refused"
        else
            tg_fail "$name ${cmd%% /*}" "exit $rc, $(wc -l <"$TG_TMP/out") lines, $(head -c 300 "$TG_TMP/err")"
        fi
    done
done
tg_done
