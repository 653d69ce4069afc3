#!/bin/bash
# live.sh - a fresh capture through tracefs, printed by trace-cmd and by traceglot.
#
# Records new captures with record-fixtures.sh into a temporary directory (kernel events via
# tracefs + `trace-cmd extract`, converted to file versions 6 and 7/zstd) and compares
# traceglot's trace-cmd style with trace-cmd's report, report -R and report -t on them.
# Skips (77) with the reason when trace-cmd is missing or tracefs is not writable (not root,
# no tracefs in the kernel, or a container without it).
. "$(dirname "$0")/../lib.sh"
set -u
TG=${TG:?TG must name the traceglot CLI}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$TG_TMP
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: not root: tracefs cannot be written"
    exit 77
fi
bash "$here/record-fixtures.sh" "$tmp" > "$tmp/record.log" 2>&1
rc=$?
if [ $rc = 77 ]; then
    cat "$tmp/record.log"
    exit 77
fi
if [ $rc != 0 ]; then
    echo "FAIL: recording failed:"
    cat "$tmp/record.log"
    exit 1
fi
cat "$tmp/record.log"
bash "$here/golden.sh" "$tmp"
