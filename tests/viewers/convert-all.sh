#!/bin/bash
# convert-all.sh - every function-trace recording of the corpus (uftrace, XRay, LTTng-UST
# cyg-profile) and the mixed set convert to all four viewer formats; each output is checked
# by a reader that is not traceglot (protoc with Perfetto's own schema, Python's json and
# XML parsers), and the Perfetto slices are counted against the Chrome converter's "B"/"E".
# Exit 77 (skip) without the corpus; the protoc part says SKIP without protoc or the specs.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
corpus=${TG_CORPUS:-}
here=$(cd "$(dirname "$0")" && pwd)
specs=$corpus/../specs
[ -d "$corpus/gen" ] || { echo "SKIP: corpus not found ($corpus)"; exit 77; }
proto=
if ! command -v protoc >/dev/null; then
    echo "SKIP (perfetto decoding): protoc is not installed"
elif [ ! -f "$specs/perfetto_trace.proto" ]; then
    echo "SKIP (perfetto decoding): $specs/perfetto_trace.proto not found"
else
    proto=$specs/perfetto_trace.proto
fi
tmp=$TG_TMP
fail=0 passed=0

ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

convert_one() { # convert_one NAME INPUT...
    local name=$1
    shift
    for to in perfetto folded speedscope svg; do
        if ! "$TG" convert --to $to --force -o "$tmp/out.$to" "$@" 2>"$tmp/err" ||
            grep -q "Sanitizer\|runtime error" "$tmp/err"; then
            bad "$name $to: $(head -c 300 "$tmp/err")"
            continue
        fi
        case $to in
        perfetto)
            [ -n "$proto" ] || continue
            if ! protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
                "$(basename "$proto")" <"$tmp/out.$to" >"$tmp/decoded" 2>"$tmp/err"; then
                bad "$name perfetto: protoc cannot decode it: $(head -c 300 "$tmp/err")"
                continue
            fi
            "$TG" convert --to chrome --force -o "$tmp/out.json" "$@"
            local p c
            p=$(python3 "$here/check_outputs.py" perfetto-counts "$tmp/decoded")
            c=$(python3 "$here/check_outputs.py" chrome-counts "$tmp/out.json")
            if [ "$p" = "$c" ]; then
                ok "$name perfetto: decoded by protoc; slices begin/end $p as chrome's B/E"
            else
                bad "$name perfetto: SLICE_BEGIN/SLICE_END $p, chrome B/E $c"
            fi
            ;;
        *)
            if python3 "$here/check_outputs.py" $to "$tmp/out.$to" >"$tmp/check"; then
                ok "$name $to: $(cat "$tmp/check")"
            else
                bad "$name $to: $(cat "$tmp/check")"
            fi
            ;;
        esac
    done
}

for d in "$corpus"/uftrace/*.data "$corpus"/gen/uftrace/*.data; do
    [ -d "$d" ] && convert_one "$(basename "$d")" "$d"
done
xray=$corpus/gen/xray
for log in "$xray"/*.xray; do
    [ -f "$log" ] && convert_one "$(basename "$log")" --instr-map "$xray/xray-app-visible" "$log"
done
[ -d "$corpus/gen/ctf/ust-cyg-visible" ] && convert_one ust-cyg-visible "$corpus/gen/ctf/ust-cyg-visible"
mixed=$corpus/mixed
[ -d "$mixed" ] && convert_one mixed "$mixed/app.uftrace.data" "$mixed/ust" "$mixed/kernel.dat"
echo "$passed passed, $fail failed"
[ "$fail" = 0 ]
