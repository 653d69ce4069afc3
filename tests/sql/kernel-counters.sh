#!/bin/bash
# kernel-counters.sh - the kernel model's cpufreq and cpuidle counters on trace.dat against
# `trace-cmd report -t`: every power:cpu_frequency and cpu_idle line the report prints is one
# counter row (its time, the CPU its cpu_id names, Perfetto's track name `cpufreq` or
# `cpuidle`, its state as the value: 4294967295 when a CPU leaves idle), count for count,
# through `traceglot sql` (every file version), the database `convert --to sqlite` writes
# (sqlite3), the Python module's sql(), and `convert --to perfetto` decoded by protoc (each
# event's typed cpu_frequency / cpu_idle message keeps its state and cpu_id).
# The fixture is built by tests/ftrace/build-power-fixtures.py (no trace of the corpus holds
# these events and a machine without cpufreq/cpuidle drivers cannot record them).
. "$(dirname "$0")/../lib.sh"
tg_need_cmd trace-cmd
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
rows="SELECT k.ts, c.cpu, c.name, CAST(k.value AS INTEGER) FROM counter k
      JOIN cpu_counter_track c ON k.track_id = c.id ORDER BY 1, 2, 3"
count="SELECT count(*) FROM counter"
# the binding the build made (not under the sanitizers: tests/python loads their runtimes)
py_path=${TG_BUILD_DIR:-$TG_TESTS/../build}/python
ls "$py_path"/traceglot/_traceglot*.so >/dev/null 2>&1 &&
    ! grep -q '^TG_SANITIZE:BOOL=ON' "$py_path/../CMakeCache.txt" 2>/dev/null || py_path=""
proto=$TG_CORPUS/../specs/perfetto_trace.proto
v6=$TG_TEST_DATA/ftrace/power-counters-v6.dat
[ -f "$v6" ] || tg_skip "no $v6"

# the report's lines as "ts,cpu,name,value" (-t: nanoseconds)
trace-cmd report -t "$v6" 2>/dev/null |
    sed -nE 's/.*\] +([0-9]+)\.([0-9]{9}): (cpu_frequency|cpu_idle): +state=([0-9]+) cpu_id=([0-9]+)$/\1\2,\5,\3,\4/p' |
    sed -E 's/^0*([0-9])/\1/; s/,cpu_frequency,/,cpufreq,/; s/,cpu_idle,/,cpuidle,/' |
    sort -t, -k1,1n -k2,2n -k3,3 >"$TG_TMP/want"
lines=$(wc -l <"$TG_TMP/want")
[ "$lines" -gt 0 ] || tg_fail "trace-cmd report" "no cpu_frequency/cpu_idle line in $v6"
grep -q ',cpuidle,4294967295$' "$TG_TMP/want" || tg_fail "fixture" "no CPU leaves idle in $v6"

for f in "$v6" "${v6%-v6.dat}-v7.dat" "${v6%-v6.dat}-v7zstd.dat"; do
    name=${f#"$TG_TEST_DATA"/}
    [ -f "$f" ] || continue
    if tg_run "$TG" sql --format csv "$f" -q "$rows" -q "$count"; then
        sed -n '2,$p' "$TG_TMP/out" | sed '$d' | sed '$d' >"$TG_TMP/got"
        tg_same "$name: counter rows = trace-cmd report's $lines cpu_frequency/cpu_idle lines" \
            "$TG_TMP/want" "$TG_TMP/got"
        [ "$(tail -1 "$TG_TMP/out")" = "$lines" ] &&
            tg_pass "$name: counter holds $lines rows, nothing else" ||
            tg_fail "$name: counter rows" "$(tail -1 "$TG_TMP/out"), want $lines"
    else
        tg_fail "$name: traceglot sql" "$(head -3 "$TG_TMP/err")"
    fi
done

name=ftrace/power-counters-v6.dat
if command -v sqlite3 >/dev/null; then
    rm -f "$TG_TMP/k.sqlite"
    tg_run "$TG" convert --to sqlite -o "$TG_TMP/k.sqlite" "$v6" &&
        sqlite3 -csv "$TG_TMP/k.sqlite" "$rows" >"$TG_TMP/db" &&
        tg_same "$name: convert --to sqlite, counter rows" "$TG_TMP/want" "$TG_TMP/db" ||
        tg_fail "$name: convert --to sqlite" "$(head -3 "$TG_TMP/err")"
else
    echo "skip: no sqlite3 (the exported database is not checked)"
fi
if [ -n "$py_path" ]; then
    tg_run env PYTHONPATH="$py_path" /usr/bin/python3 -c '
import sys, traceglot
with traceglot.open(sys.argv[1]) as t:
    for row in t.sql(sys.argv[2]):
        print(",".join(str(v) for v in row))' "$v6" "$rows" &&
        tg_same "$name: Python sql(), counter rows" "$TG_TMP/want" "$TG_TMP/out" ||
        tg_fail "$name: Python sql()" "$(head -3 "$TG_TMP/err")"
else
    echo "skip: no Python binding in this build (or a sanitizer build)"
fi
# the Perfetto output: each event's typed message with its state and cpu_id, at its time
rm -f "$TG_TMP/k.pftrace"
if command -v protoc >/dev/null && [ -f "$proto" ]; then
    if tg_run "$TG" convert --to perfetto -o "$TG_TMP/k.pftrace" "$v6"; then
        protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace "$proto" \
            <"$TG_TMP/k.pftrace" 2>/dev/null |
            awk '/^ *timestamp:/ { ts = $2 }
                 /^ *(cpu_frequency|cpu_idle) \{/ { k = ($1 == "cpu_frequency") ? "cpufreq" : "cpuidle"
                                                    s = ""; c = ""; next }
                 k != "" && /^ *state:/ { s = $2 }
                 k != "" && /^ *cpu_id:/ { c = $2 }
                 k != "" && /}/ { print ts "," c "," k "," s; k = "" }' |
            sort -t, -k1,1n -k2,2n -k3,3 >"$TG_TMP/pf"
        tg_same "$name: convert --to perfetto, cpu_frequency/cpu_idle messages (protoc)" \
            "$TG_TMP/want" "$TG_TMP/pf"
    else
        tg_fail "$name: convert --to perfetto" "$(head -3 "$TG_TMP/err")"
    fi
else
    echo "skip: no protoc or no $proto (the Perfetto output is not decoded)"
fi
tg_done
