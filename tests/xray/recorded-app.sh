#!/bin/bash
# recorded-app.sh - sourced by the tests that read the XRay fixtures with their instrumented
# binary: the binary is not committed but rebuilt (build-app.sh), and only a rebuild equal to
# the one the fixtures were recorded with (tests/data/xray/xray_app.sha256) maps their
# function ids to the recorded names.
#
#   xray_recorded_app OUTDIR   builds OUTDIR/xray_app; succeeds when it is the recorded
#                              binary, else fails with the reason in xray_app_why
xray_recorded_app() {
    local out=$1
    if ! bash "$TG_TESTS/xray/build-app.sh" "$out" > "$out.build.log" 2>&1; then
        xray_app_why="cannot build the workload: $(tail -1 "$out.build.log")"
        return 1
    fi
    [ "$(cd "$out" && sha256sum xray_app)" = "$(cat "$TG_TEST_DATA/xray/xray_app.sha256")" ] &&
        return 0
    xray_app_why="the rebuilt xray_app differs from the one the fixtures were recorded with"
    return 1
}
