#!/bin/bash
# symfiles.sh - uftrace symbol files as they are found in the wild (symfile-forms.py makes
# them from the project's recordings): uftrace 0.14's size column, PLT entries with an empty
# name, and damaged lines.  The sized forms must print what uftrace printed of the recording
# they were made from (NAME.replay.txt, NAME.report.txt: uftrace 0.13 reads no size column,
# later versions cannot run here); the others what the installed uftrace prints of the copy
# itself (it skips a damaged line); a damaged line is a warning, never an error.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd python3
D=$TG_TEST_DATA/uftrace
forms=$TG_TESTS/uftrace/symfile-forms.py
for name in libcalls args threads; do
    src=$D/$name.data
    [ -d "$src" ] || continue
    for form in sized sized-noname; do
        rm -rf "$TG_TMP/f.data"
        python3 "$forms" "$form" "$src" "$TG_TMP/f.data" || exit 1
        tg_check "$name $form: replay" "$D/$name.replay.txt" "$TG" replay "$TG_TMP/f.data"
        tg_check "$name $form: report" "$D/$name.report.txt" "$TG" report "$TG_TMP/f.data"
    done
    command -v uftrace >/dev/null || { echo "skip: uftrace is not installed"; continue; }
    for form in noname damaged; do
        rm -rf "$TG_TMP/f.data"
        python3 "$forms" "$form" "$src" "$TG_TMP/f.data" || exit 1
        uftrace replay -d "$TG_TMP/f.data" >"$TG_TMP/want" 2>/dev/null
        tg_check "$name $form: replay as uftrace's" "$TG_TMP/want" "$TG" replay "$TG_TMP/f.data"
        if [ "$form" = damaged ]; then
            grep -q "^traceglot: warning: .*\.sym: line [0-9]*: expected \"ADDRESS \[SIZE\] TYPE NAME\": [0-9]* damaged lines\{0,1\} skipped" "$TG_TMP/err" &&
                tg_pass "$name damaged: a warning" || tg_fail "$name damaged: a warning" "$(cat "$TG_TMP/err")"
        fi
    done
done
tg_done
