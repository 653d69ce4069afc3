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
