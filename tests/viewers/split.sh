#!/bin/bash
# split.sh - `convert --to perfetto|chrome --split-size/--split-time` writes parts that are
# each usable alone and together hold every slice of the unsplit conversion.  Perfetto:
# check_outputs.py perfetto-alone on protoc's decoding of each part (state cleared per
# sequence, names interned before use, tracks described, slices closed at the cut and begun
# again in the next part).  Chrome: each part is read by Python's json module and its B/E
# nest per thread with none left open, but for the last part, which leaves open what the
# whole conversion leaves open.  folded, svg, speedscope, ctf, uftrace and sqlite refuse the
# options (exit 2), writing nothing.  Skips without the corpus, protoc or Perfetto's schema.
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
corpus=${TG_CORPUS:-}
here=$(cd "$(dirname "$0")" && pwd)
proto=$corpus/../specs/perfetto_trace.proto
input=$corpus/gen/uftrace/calls-visible-plain.data
[ -d "$input" ] || { echo "SKIP: $input not found"; exit 77; }
command -v protoc >/dev/null || { echo "SKIP: protoc is not installed"; exit 77; }
[ -f "$proto" ] || { echo "SKIP: $proto not found"; exit 77; }
tmp=$TG_TMP
fail=0 passed=0
decode() { protoc --proto_path="$(dirname "$proto")" --decode=perfetto.protos.Trace \
    "$(basename "$proto")" <"$1" >"$1.txt"; }

"$TG" convert --to perfetto -o "$tmp/whole.pftrace" "$input" && decode "$tmp/whole.pftrace" || exit 1
whole_begins=$(grep -c "type: TYPE_SLICE_BEGIN" "$tmp/whole.pftrace.txt")
for split in "--split-size 16K" "--split-time 1ms"; do
    rm -f "$tmp"/part*
    # shellcheck disable=SC2086
    if ! "$TG" convert --to perfetto $split -o "$tmp/part.pftrace" "$input"; then
        echo "FAIL $split: convert failed"; fail=$((fail + 1)); continue
    fi
    [ ! -e "$tmp/part.pftrace" ] || { echo "FAIL $split: wrote the unsplit name too"; fail=$((fail + 1)); }
    parts=("$tmp"/part-*.pftrace)
    if [ ${#parts[@]} -lt 2 ]; then
        echo "FAIL $split: ${#parts[@]} part(s)"; fail=$((fail + 1)); continue
    fi
    begins=0 reopened=0
    for p in "${parts[@]}"; do
        if ! decode "$p" || ! python3 "$here/check_outputs.py" perfetto-alone "$p.txt" >"$tmp/check"; then
            echo "FAIL $split $(basename "$p"): $(cat "$tmp/check" 2>/dev/null)"; fail=$((fail + 1))
        else
            echo "ok   $split $(basename "$p"): $(cat "$tmp/check")"; passed=$((passed + 1))
        fi
        begins=$((begins + $(grep -c "type: TYPE_SLICE_BEGIN" "$p.txt")))
    done
    # every slice of the whole trace is begun in some part (the reopened ones are extra)
    if [ "$begins" -ge "$whole_begins" ]; then
        echo "ok   $split: ${#parts[@]} parts, $begins slice begins (whole: $whole_begins)"
        passed=$((passed + 1))
    else
        echo "FAIL $split: $begins slice begins in the parts, the whole has $whole_begins"
        fail=$((fail + 1))
    fi
done
"$TG" convert --to chrome -o "$tmp/whole.json" "$input" || exit 1
read -r whole_b whole_e whole_open < <(python3 "$here/check_outputs.py" chrome-part "$tmp/whole.json")
for split in "--split-size 16K" "--split-time 1ms"; do
    rm -f "$tmp"/part*
    # shellcheck disable=SC2086
    if ! "$TG" convert --to chrome $split -o "$tmp/part.json" "$input"; then
        echo "FAIL chrome $split: convert failed"; fail=$((fail + 1)); continue
    fi
    parts=("$tmp"/part-*.json)
    if [ -e "$tmp/part.json" ] || [ ${#parts[@]} -lt 2 ]; then
        echo "FAIL chrome $split: ${#parts[@]} part(s), unsplit name $([ -e "$tmp/part.json" ] && echo written)"
        fail=$((fail + 1)); continue
    fi
    begins=0 n=0
    for p in "${parts[@]}"; do
        n=$((n + 1))
        want_open=0
        [ $n = ${#parts[@]} ] && want_open=$whole_open
        if python3 "$here/check_outputs.py" chrome-part "$p" >"$tmp/check" &&
            read -r b e open <"$tmp/check" && [ "$open" = "$want_open" ]; then
            echo "ok   chrome $split $(basename "$p"): B $b, E $e, $open left open"; passed=$((passed + 1))
            begins=$((begins + b))
        else
            echo "FAIL chrome $split $(basename "$p"): $(cat "$tmp/check") (open must be $want_open)"
            fail=$((fail + 1))
        fi
    done
    if [ "$begins" -ge "$whole_b" ]; then
        echo "ok   chrome $split: ${#parts[@]} parts, $begins B (whole: $whole_b)"; passed=$((passed + 1))
    else
        echo "FAIL chrome $split: $begins B in the parts, the whole has $whole_b"; fail=$((fail + 1))
    fi
done
"$TG" convert --to perfetto --split-size 10X -o "$tmp/bad.pftrace" "$input" 2>"$tmp/err"
if [ $? != 0 ] && grep -q "split-size" "$tmp/err"; then
    echo "ok   a bad --split-size is refused: $(cat "$tmp/err")"; passed=$((passed + 1))
else
    echo "FAIL a bad --split-size was not refused"; fail=$((fail + 1))
fi
# outputs that cannot be split refuse the options as a usage error (exit 2), writing nothing
for to in folded svg speedscope ctf uftrace sqlite; do
    for split in "--split-size 1M" "--split-time 1s"; do
        # shellcheck disable=SC2086
        "$TG" convert --to $to $split -o "$tmp/unsplit.$to" "$input" 2>"$tmp/err"
        rc=$?
        if [ $rc = 2 ] && grep -q "does not take --split" "$tmp/err" && ! ls "$tmp"/unsplit* >/dev/null 2>&1; then
            echo "ok   $to $split: usage error, nothing written"; passed=$((passed + 1))
        else
            echo "FAIL $to $split: exit $rc, $(head -c 200 "$tmp/err")"; fail=$((fail + 1))
        fi
    done
done
echo "$passed passed, $fail failed"
[ "$fail" = 0 ]
