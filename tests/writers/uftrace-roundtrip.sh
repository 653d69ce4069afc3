#!/bin/bash
# uftrace-roundtrip.sh - uftrace data written by traceglot, read by uftrace itself:
# - every uftrace data directory of the corpus, whole and for one thread: `uftrace replay`
#   and `uftrace report` of the output equal uftrace's own on the input (with --tid);
# - XRay logs (with their instrumentation map) and LTTng-UST cyg-profile traces: `uftrace
#   replay` of the output equals `traceglot replay` of the input;
# - traceglot reads back what it wrote from uftrace data: `traceglot cat` prints the same
#   (a pointer to a function, `0xADDR <name>`, is compared by the function it names: the
#   written data places every function in its one module, at its own address).
# - the session is kept: `uftrace info` of the output equals uftrace's on the input (the
#   program, its command line, the machine, the task list in its order, the date) and so
#   does task.txt (session id, SESS, TASK and FORK lines with their times, in order), also
#   for the project's own recordings (threads, forks, context switches);
# - from XRay, CTF and trace.dat, `uftrace info` names the program the trace names (the
#   instrumented binary or the log's xray-log.PROGRAM name, LTTng's procname context of its
#   calls, trace.dat's first task's comm, each other process by its comm) and the date it was
#   taken (CTF: its first call's wall-clock time as babeltrace2 prints it; XRay and trace.dat,
#   whose clocks are not wall clocks: the file's time), not 1970.
# Data recorded with arguments and return values (-a) is written with them.
. "$(dirname "$0")/../lib.sh"
root=${TG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
command -v uftrace > /dev/null || { echo "SKIP: uftrace not installed"; exit 77; }
[ -d "$root" ] || { echo "SKIP: no corpus at $root"; exit 77; }
out=$TG_TMP
fail=0 n=0
check() { # what expected actual
    if cmp -s "$2" "$3"; then
        echo "ok $1"
    else
        echo "FAIL $1"; diff "$2" "$3" | head -6; fail=1
    fi
}
for d in "$root"/gen/uftrace/*.data "$root"/uftrace/*.data "$root"/mixed/app.uftrace.data; do
    [ -d "$d" ] || continue
    name=$(basename "$d" .data)
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name" "$d" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    for cmd in replay report info; do
        # the argument specs are the writer's own (the layout of the values it wrote): a
        # recording of -a shows them where uftrace's says "auto-args"
        uftrace $cmd -d "$d" 2>&1 | grep -v '^# \(auto-args\|arguments\|return values\) ' > "$out/in.txt"
        uftrace $cmd -d "$out/$name" 2>&1 |
            grep -v '^# \(auto-args\|arguments\|return values\) ' > "$out/out.txt"
        check "$name: uftrace $cmd" "$out/in.txt" "$out/out.txt"
    done
    check "$name: task.txt" "$d/task.txt" "$out/$name/task.txt"
    "$TG" cat "$d" 2>&1 | sed -E 's/=0x[0-9a-f]+ <([^>]*)>/=<\1>/g' > "$out/in.txt"
    "$TG" cat "$out/$name" 2>&1 | sed -E 's/=0x[0-9a-f]+ <([^>]*)>/=<\1>/g' > "$out/out.txt"
    check "$name: traceglot cat OUT = traceglot cat IN" "$out/in.txt" "$out/out.txt"
    tid=$(cd "$d" && ls [0-9]*.dat | sed 's/\.dat$//' | sort -n | tail -1)
    if ! "$TG" convert --to uftrace --tid "$tid" -o "$out/$name-$tid" "$d" 2> "$out/err"; then
        echo "FAIL $name --tid $tid: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    for cmd in replay report; do
        uftrace $cmd --tid "$tid" -d "$d" > "$out/in.txt" 2>&1
        uftrace $cmd -d "$out/$name-$tid" > "$out/out.txt" 2>&1
        check "$name: uftrace $cmd --tid $tid" "$out/in.txt" "$out/out.txt"
    done
done
# the project's own recordings: threads, forks, context switches, a thread without data
here=$(cd "$(dirname "$0")/.." && pwd)
for d in "$here"/data/uftrace/threads.data "$here"/data/uftrace/forks.data \
    "$here"/data/uftrace-sched/s2.data "$here"/data/uftrace-sched/asleep2.data; do
    [ -d "$d" ] || continue
    name=own-$(basename "$d" .data)
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name" "$d" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; continue
    fi
    for cmd in info replay report; do
        uftrace $cmd -d "$d" > "$out/in.txt" 2>&1
        uftrace $cmd -d "$out/$name" > "$out/out.txt" 2>&1
        check "$name: uftrace $cmd" "$out/in.txt" "$out/out.txt"
    done
    check "$name: task.txt" "$d/task.txt" "$out/$name/task.txt"
done
# other formats: the program the trace names, a real date
program_named() { # name program input-args...
    local name=$1 want=$2; shift 2
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name-info" "$@" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; return
    fi
    uftrace info -d "$out/$name-info" > "$out/info.txt" 2>&1
    local exe date
    exe=$(sed -n 's/^# exe image *: //p' "$out/info.txt")
    date=$(sed -n 's/^# recorded on *: //p' "$out/info.txt")
    if [ "$exe" = "$want" ] && [ -n "$date" ] && [ "${date%1970}" = "$date" ]; then
        echo "ok $name: exe image $exe, recorded on $date"
    else
        echo "FAIL $name: exe image '$exe' (expected '$want'), recorded on '$date'"; fail=1
    fi
}
for x in "$root"/gen/xray/*.xray; do
    [ -f "$x" ] && program_named "$(basename "$x")" "$root/gen/xray/xray-app-visible" \
        --instr-map "$root/gen/xray/xray-app-visible" "$x"
done
for c in "$root"/gen/ctf/ust-cyg-*/; do
    [ -d "$c" ] || continue
    procname=$(babeltrace2 "${c%/}" 2>/dev/null | grep func_entry | grep -o 'procname = "[^"]*"' | head -1 |
        sed 's/procname = "\(.*\)"/\1/')
    [ -n "$procname" ] && program_named "$(basename "$c")" "$procname" "${c%/}"
done
# the project's own fixtures of those formats: the program and the date exactly as the
# peers show the trace (the date is info's ctime, local time, to the second)
ctime_of() { LC_ALL=C date -d "$1" '+%a %b %e %H:%M:%S %Y'; }
session_as() { # name program date tasks input-args... (tasks: uftrace info's task list)
    local name=$1 want=$2 date=$3 tasks=$4; shift 4
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name-own" "$@" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; return
    fi
    uftrace info -d "$out/$name-own" > "$out/info.txt" 2>&1
    local got
    got="$(sed -n 's/^# exe image *: //p' "$out/info.txt")|$(sed -n 's/^# recorded on *: //p' "$out/info.txt")|$(sed -n 's/^# task list *: //p' "$out/info.txt")"
    if [ "$got" = "$want|$date|$tasks" ]; then
        echo "ok $name: uftrace info: exe image $want, recorded on $date, task list $tasks"
    else
        echo "FAIL $name: uftrace info: '$got', expected '$want|$date|$tasks'"; fail=1
    fi
}
ctf_own() { # name dir: procname, first call's date, threads (pid's procname) from babeltrace2
    local text
    text=$(TZ=${TZ:-} babeltrace2 --clock-date "$2" 2>/dev/null | grep 'cyg_profile[a-z_]*:func_')
    [ -n "$text" ] || return 0
    local proc tasks
    proc=$(grep -o 'procname = "[^"]*"' <<<"$text" | head -1 | sed 's/procname = "\(.*\)"/\1/')
    tasks=$(grep -o 'vtid = [0-9]*' <<<"$text" | awk -v p="$proc" '!seen[$3]++ { printf "%s%s(%s)", n++ ? ", " : "", $3, p }')
    session_as "$1" "$proc" "$(ctime_of "$(sed -n '1s/^\[\([^]]*\)\].*/\1/p' <<<"$text")")" "$tasks" "$2"
}
if command -v babeltrace2 >/dev/null; then
    ctf_own own-ctf-cyg "$here/data/ctf/cyg"
    ctf_own own-ctf-cyg-fast "$here/data/ctf/cyg-fast"
fi
# trace.dat (function_graph): the program is the first task trace-cmd names, each process a
# session named by its comm; the date the file's
for dat in "$here"/data/ftrace/fgraph-lag-le64-2cpu-v7.dat "$here"/data/ftrace/fgraph-le64-4cpu-v7.dat; do
    [ -f "$dat" ] && command -v trace-cmd >/dev/null || continue
    trace-cmd report "$dat" 2>/dev/null | grep -o '^ *[^ ]*-[0-9]* *\[' | sed 's/^ *//; s/ *\[$//' |
        awk '!seen[$0]++' > "$out/comms"
    # uftrace names a task by its session's exename's last path component: kworker/0:1 is 0:1
    tasks=$(sed 's/^\(.*\)-\([0-9]*\)$/\2(\1)/; s/([^()]*\/\([^/()]*\))$/(\1)/' "$out/comms" |
        paste -sd, | sed 's/,/, /g')
    session_as "own-$(basename "$dat" .dat)" "$(sed -n '1s/-[0-9]*$//p' "$out/comms")" \
        "$(LC_ALL=C date -r "$dat" '+%a %b %e %H:%M:%S %Y')" "$tasks" "$dat"
done
# XRay: the program compiler-rt's runtime names the log by (xray-log.PROGRAM.XXXXXX)
if [ -f "$here/data/xray/basic.xray" ]; then
    cp "$here/data/xray/basic.xray" "$out/xray-log.xray_app.k3Jd9w"
    tasks=$(llvm-xray-14 convert -f yaml "$out/xray-log.xray_app.k3Jd9w" 2>/dev/null |
        sed -n 's/.* thread: *\([0-9]*\),.*/\1/p' | awk '!seen[$1]++ { printf "%s%s(xray_app)", n++ ? ", " : "", $1 }')
    [ -n "$tasks" ] && session_as own-xray-basic xray_app \
        "$(LC_ALL=C date -r "$out/xray-log.xray_app.k3Jd9w" '+%a %b %e %H:%M:%S %Y')" \
        "$tasks" "$out/xray-log.xray_app.k3Jd9w"
fi
replay_as_traceglot() { # name input-args...
    local name=$1; shift
    n=$((n + 1))
    if ! "$TG" convert --to uftrace -o "$out/$name" "$@" 2> "$out/err"; then
        echo "FAIL $name: convert: $(head -3 "$out/err")"; fail=1; return
    fi
    "$TG" replay "$@" > "$out/in.txt" 2>&1
    uftrace replay -d "$out/$name" > "$out/out.txt" 2>&1
    check "$name: uftrace replay = traceglot replay" "$out/in.txt" "$out/out.txt"
}
map="$root/gen/xray/xray-app-visible"
for x in "$root"/gen/xray/*.xray; do
    [ -f "$x" ] && replay_as_traceglot "$(basename "$x")" --instr-map "$map" "$x"
done
for c in "$root"/gen/ctf/ust-cyg-*/; do
    [ -d "$c" ] && replay_as_traceglot "$(basename "$c")" "${c%/}"
done
[ -d "$here/data/ctf/cyg" ] && replay_as_traceglot own-ctf-cyg "$here/data/ctf/cyg"
[ $n -gt 0 ] || { echo "SKIP: no uftrace, XRay or cyg-profile traces in $root"; exit 77; }
exit $fail
