#!/bin/bash
# tests/perfetto/make-fixtures.sh [SCHEMA] - encodes the Perfetto fixtures of tests/data/perfetto
# (each NAME.textproto, written by hand in the shapes Perfetto's SDK and traced_probes
# write) into NAME.pb with protoc and Perfetto's own schema (../shared/specs/perfetto_trace.proto
# by default), the way Perfetto's diff tests encode theirs.  The .pb files are committed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
schema=${1:-$here/../../../shared/specs/perfetto_trace.proto}
data=$here/../data/perfetto
for t in "$data"/*.textproto; do
    grep -v '^#' "$t" | protoc --proto_path="$(dirname "$schema")" \
        --encode=perfetto.protos.Trace "$(basename "$schema")" > "${t%.textproto}.pb"
    echo "wrote ${t%.textproto}.pb ($(stat -c %s "${t%.textproto}.pb") bytes)"
done
# The JSON fixture: what uftrace dump --chrome writes for the recursion recording (the fuzz
# target's seed and the damaged-fixture sweep's input).
json=$here/../data/json
mkdir -p "$json"
uftrace dump --chrome -d "$here/../data/uftrace/recursion.data" > "$json/uftrace-recursion.json"
echo "wrote $json/uftrace-recursion.json ($(stat -c %s "$json/uftrace-recursion.json") bytes)"
