#!/bin/bash
# threads.sh - the thread table lists each task uftrace recorded, with the name `uftrace info`
# gives it in its task list (a forked child has its parent's command), on every uftrace
# recording of the fixtures and the corpus; process lists each task's process.
. "$(dirname "$0")/../lib.sh"
tg_need_cmd uftrace
n=0
for d in "$TG_TEST_DATA"/uftrace/*.data "$TG_TEST_DATA"/uftrace-kernel/kernel.data \
         "$TG_CORPUS"/uftrace/*.data "$TG_CORPUS"/gen/uftrace/*.data "$TG_CORPUS"/mixed/*.uftrace.data; do
    [ -f "$d/task.txt" ] || continue
    name=${d#"$TG_CORPUS"/}
    name=${name#"$TG_TEST_DATA"/}
    uftrace info -d "$d" 2>/dev/null | sed -n 's/^# task list *: //p' | tr ',' '\n' |
        sed -n 's/^ *\([0-9]*\)(\(.*\))$/\1,\2/p' | sort >"$TG_TMP/tasks.csv"
    [ -s "$TG_TMP/tasks.csv" ] || continue
    if ! tg_run "$TG" sql --format csv "$d" -q "SELECT tid, name FROM thread WHERE tid != 0" \
                                             -q "SELECT pid FROM process WHERE pid != 0"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        continue
    fi
    grep -v '^tid,name$\|^pid$' "$TG_TMP/out" | grep , | sort >"$TG_TMP/threads.csv"
    tg_same "$name: threads = uftrace info's task list" "$TG_TMP/tasks.csv" "$TG_TMP/threads.csv"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || tg_skip "no uftrace recordings"
tg_done
