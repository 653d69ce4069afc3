#!/usr/bin/env bash
# outputs.sh - what convert leaves behind: a whole output under its name, or nothing.
#   - files, folders and split parts appear only when whole, with the umask's modes;
#   - an existing file is refused (exit 2) unless --force; a folder is never replaced;
#   - SIGINT and SIGTERM during a conversion (file, folder) leave no temporary output and end
#     the command by that signal;
#   - a full file system (a small tmpfs this test mounts, as root) and a read-only folder fail
#     with the system's reason and the path, and leave nothing;
#   - -o /dev/full fails with "No space left on device" and /dev/full stays a device;
#     -o /dev/stdout writes to standard output, even when that is a file;
#   - an unknown --to or --style lists the known ones; a folder or file the user may not read
#     says so (as another user, when the test runs as root) instead of "not a trace".
. "$(dirname "$0")/../lib.sh"
ex="$TG_TESTS/../examples/fib.uftrace.data"
tg_need_dir "$ex"
out=$TG_TMP/out.d
mkdir -p "$out"

# nothing but these names in a folder
only() { # NAME DIR EXPECTED-LISTING
    local got
    got=$(cd "$2" && ls -A | tr '\n' ' ')
    if [ "$got" = "$3" ]; then tg_pass "$1"; else tg_fail "$1" "folder holds '$got', expected '$3'"; fi
}
err_has() { # NAME PATTERN
    if grep -q -- "$2" "$TG_TMP/err"; then tg_pass "$1"; else
        tg_fail "$1" "stderr lacks '$2': $(head -c 300 "$TG_TMP/err")"; fi
}

# whole outputs, modes from the umask
(umask 027 && "$TG" convert --to chrome -o "$out/a.json" "$ex" &&
    "$TG" convert --to ctf -o "$out/a.ctf" "$ex")
only "file and folder written under their names" "$out" "a.ctf a.json "
[ "$(stat -c %a "$out/a.json")" = 640 ] && tg_pass "file mode follows the umask" ||
    tg_fail "file mode follows the umask" "$(stat -c %a "$out/a.json")"
[ "$(stat -c %a "$out/a.ctf")" = 750 ] && [ "$(stat -c %a "$out/a.ctf/metadata")" = 640 ] &&
    tg_pass "folder modes follow the umask" ||
    tg_fail "folder modes follow the umask" "$(stat -c %a "$out/a.ctf" "$out/a.ctf/metadata")"
tg_check_status "an existing file is refused" 2 "$TG" convert --to chrome -o "$out/a.json" "$ex"
err_has "refusal names the file and --force" "a.json: already exists (--force replaces it)"
echo old > "$out/a.json"
tg_check_status "--force replaces the file" 0 "$TG" convert --to chrome --force -o "$out/a.json" "$ex"
grep -q traceEvents "$out/a.json" && tg_pass "the file was replaced" || tg_fail "the file was replaced"
tg_check_status "an existing folder is refused" 2 "$TG" convert --to ctf --force -o "$out/a.ctf" "$ex"
err_has "refusal says a folder is never replaced" "a.ctf: already exists (a folder is never replaced)"
tg_check_status "split parts" 0 "$TG" convert --to perfetto --split-size 1K -o "$out/p.pftrace" "$ex"
ls "$out"/p-0001.pftrace "$out"/p-0002.pftrace >/dev/null 2>&1 && tg_pass "parts beside the path" ||
    tg_fail "parts beside the path" "$(ls "$out")"
tg_check_status "existing parts are refused" 2 \
    "$TG" convert --to perfetto --split-size 1K -o "$out/p.pftrace" "$ex"
only "nothing temporary after it all" "$out" "$(cd "$out" && ls -A | grep -v tmp- | tr '\n' ' ')"
"$TG" convert --to chrome -o /dev/stdout "$ex" > "$TG_TMP/stdout.json" 2>"$TG_TMP/err"
grep -q traceEvents "$TG_TMP/stdout.json" && tg_pass "-o /dev/stdout writes to standard output" ||
    tg_fail "-o /dev/stdout writes to standard output" "$(cat "$TG_TMP/err")"

# /dev/full: the reason, and the device untouched
tg_check_status "-o /dev/full fails" 1 "$TG" convert --to chrome -o /dev/full "$ex"
err_has "-o /dev/full says why" "/dev/full: cannot write the output: No space left on device"
[ -c /dev/full ] && tg_pass "/dev/full is still a device" || tg_fail "/dev/full is still a device"
tg_check_status "cat > /dev/full fails" 1 sh -c '"$1" cat "$2" > /dev/full' sh "$TG" "$ex"
err_has "cat > /dev/full says why" "cannot write the output: No space left on device"

# a signal during a conversion: nothing left, the command ended by the signal (job control
# on, so that the background command does not start with SIGINT ignored, as a script's
# background jobs otherwise do)
long=$TG_TMP/long.data
/usr/bin/python3 "$TG_TESTS/cli/make-long-trace.py" "$ex" "$long" 30000 ||
    tg_skip "cannot make the long trace (Debian's python3 with numpy)"
for sig in INT TERM PIPE; do
    for to in chrome ctf; do
        dir=$TG_TMP/sig-$sig-$to
        mkdir -p "$dir"
        set -m
        "$TG" convert --to $to -o "$dir/out" "$long" 2>"$TG_TMP/err" &
        pid=$!
        set +m
        seen=0
        for _ in $(seq 1 400); do # until the temporary output is there (at most 20 s)
            if compgen -G "$dir/out.tmp-*" >/dev/null; then seen=1; break; fi
            kill -0 $pid 2>/dev/null || break
            sleep 0.05
        done
        kill -$sig $pid 2>/dev/null
        wait $pid
        rc=$?
        if [ $seen = 0 ]; then
            tg_fail "SIG$sig during convert --to $to" "no temporary output was seen (exit $rc)"
            continue
        fi
        want=$((128 + $(kill -l $sig)))
        [ $rc = $want ] && tg_pass "SIG$sig ends convert --to $to (exit $rc)" ||
            tg_fail "SIG$sig ends convert --to $to" "exit $rc, expected $want"
        only "SIG$sig during convert --to $to leaves nothing" "$dir" ""
    done
done

# full file system and read-only folder: the system's reason, nothing left
if [ "$(id -u)" = 0 ] && mkdir -p "$TG_TMP/full" &&
    mount -t tmpfs -o size=64k tg-full "$TG_TMP/full" 2>/dev/null; then
    tg_at_exit "umount '$TG_TMP/full'"
    for to in chrome ctf uftrace sqlite; do
        tg_check_status "full disk: convert --to $to fails" 1 \
            "$TG" convert --to $to -o "$TG_TMP/full/out" "$long"
        err_has "full disk: --to $to says why" "$([ $to = sqlite ] && echo "database or disk is full" || echo "No space left on device")"
        err_has "full disk: --to $to names the output" "$TG_TMP/full/out"
        only "full disk: --to $to leaves nothing" "$TG_TMP/full" ""
    done
    tg_check_status "full disk: split parts fail" 1 \
        "$TG" convert --to chrome --split-size 16K -o "$TG_TMP/full/p.json" "$long"
    err_has "full disk: split parts say why" "No space left on device"
    only "full disk: no part left" "$TG_TMP/full" ""
else
    echo "note: cannot mount a small tmpfs (not root?): the full-disk cases were not run"
    full_skipped=1
fi
ro=$TG_TMP/ro
mkdir -p "$ro"
if [ "$(id -u)" = 0 ]; then
    if mount -t tmpfs -o ro,size=64k tg-ro "$ro" 2>/dev/null; then
        tg_at_exit "umount '$ro'"
        reason="Read-only file system"
    else ro=""; fi
else
    chmod 555 "$ro"
    reason="Permission denied"
fi
if [ -n "$ro" ]; then
    for to in chrome ctf sqlite; do
        tg_check_status "read-only folder: --to $to fails" 1 "$TG" convert --to $to -o "$ro/out" "$ex"
        err_has "read-only folder: --to $to says why" "$ro/out: cannot create the output .*: $reason"
        only "read-only folder: --to $to leaves nothing" "$ro" ""
    done
fi
# unknown targets and styles, unreadable inputs
tg_check_status "unknown --to" 2 "$TG" convert --to json -o "$out/x.json" "$ex"
err_has "unknown --to lists the targets" "unknown .*target 'json' (known: chrome, ctf, folded, perfetto, speedscope, sqlite, svg, uftrace, xray-trace-event, xray-yaml)"
tg_check_status "unknown --style" 2 "$TG" cat --style foo "$ex"
err_has "unknown --style lists the styles" "unknown style 'foo' (known: babeltrace, babeltrace-details, lttv, native, perf, trace-cmd, trace-cmd-hist, xray-yaml)"
as_other=""
if [ "$(id -u)" = 0 ]; then
    command -v runuser >/dev/null && as_other="runuser -u nobody --"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_other" ]; then
    locked=$TG_TMP/locked
    mkdir -p "$locked" && chmod 755 "$TG_TMP" "$locked"
    cp -r "$ex" "$locked/fib.data" && cp "$ex/info" "$locked/file"
    chmod 700 "$locked/fib.data"
    chmod 600 "$locked/file"
    [ "$(id -u)" = 0 ] || chmod 000 "$locked/fib.data" "$locked/file"
    tg_check_status "an unreadable folder fails" 1 $as_other "$TG" info "$locked/fib.data"
    err_has "an unreadable folder says why" "fib.data: cannot read the folder: Permission denied"
    tg_check_status "an unreadable file fails" 1 $as_other "$TG" info "$locked/file"
    err_has "an unreadable file says why" "file: cannot open for reading: Permission denied"
else
    echo "note: root without runuser: the unreadable-input cases were not run"
fi
[ "${full_skipped:-0}" = 1 ] && [ -z "$ro" ] && tg_skip "cannot mount a tmpfs for the full and read-only cases"
tg_done
