#!/bin/bash
# uftrace-chrome.sh - Chrome JSON and Perfetto from uftrace data carry what
# `uftrace dump --chrome` writes: per thread, each "B"/"E" event's name, timestamp and args
# (args.arguments and args.retval of `uftrace record -a`) and the process and thread names,
# compared as JSON values (chrome_vs_uftrace.py); the Perfetto slices' debug annotations
# hold the same arguments and return values (perfetto_args.py on protoc's decoding with
# Perfetto's schema).  uftrace runs live on the project's fixtures and the corpus's
# recordings; the corpus's recorded .chrome.json is compared too.  Not compared: forks.data
# (uftrace writes the child's first "E" of fork without a "B"; traceglot begins the frame
# the record implies) and lost.data (uftrace's JSON has a bare ",": json cannot read it).
. "$(dirname "$0")/../lib.sh"
tg_need_cmd uftrace
tg_need_cmd protoc
proto=$TG_CORPUS/../specs/perfetto_trace.proto
[ -f "$proto" ] || tg_skip "$proto not found"
here=$TG_TESTS/viewers

check() { # check NAME DATA UFTRACE_JSON
    if tg_run "$TG" convert --to chrome --force -o "$TG_TMP/ours.json" "$2" &&
        tg_run /usr/bin/python3 "$here/chrome_vs_uftrace.py" "$TG_TMP/ours.json" "$3"; then
        tg_pass "$1 chrome: $(cat "$TG_TMP/out")"
    else
        tg_fail "$1 chrome" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -c 600)"
    fi
    if tg_run "$TG" convert --to perfetto --force -o "$TG_TMP/ours.pftrace" "$2" &&
        protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
            "$(basename "$proto")" <"$TG_TMP/ours.pftrace" >"$TG_TMP/ours.txt" &&
        tg_run /usr/bin/python3 "$here/perfetto_args.py" "$TG_TMP/ours.txt" "$3"; then
        tg_pass "$1 perfetto: $(cat "$TG_TMP/out")"
    else
        tg_fail "$1 perfetto" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -c 600)"
    fi
}

for d in "$TG_TEST_DATA"/uftrace/*.data "$TG_CORPUS"/uftrace/*.data "$TG_CORPUS"/gen/uftrace/*.data; do
    [ -d "$d" ] || continue
    name=$(basename "$d" .data)
    case $name in forks | lost) continue ;; esac
    uftrace dump --chrome -d "$d" >"$TG_TMP/uftrace.json" 2>/dev/null ||
        { tg_fail "$name" "uftrace dump --chrome failed"; continue; }
    check "$name (uftrace live)" "$d" "$TG_TMP/uftrace.json"
    [ -f "${d%.data}.chrome.json" ] && check "$name (recorded)" "$d" "${d%.data}.chrome.json"
done
tg_done
