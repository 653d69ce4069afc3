#!/bin/bash
# binding.sh FORMAT TRACE [PEER...] - the Python binding (import traceglot) on one trace of a
# format: its events, fields and SQL results equal the CLI's (traceglot sql, cat, stats, ...),
# its printers equal the peer tools' recorded outputs given as CALL[:OPT~V,...]=FILE, CTF's
# fields equal python3-bt2's (FORMAT ctf; ctf2 is CTF 2, which babeltrace2 2.0.4 does not
# read), and damage gives what was read before it, then the CLI's errors.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/py.sh"
tg_need_py numpy pandas
[ "$1" = ctf ] && tg_need_py bt2
[ -e "$2" ] || tg_skip "no trace $2"
tg_py_checks "$(dirname "$0")/binding_check.py" "$TG" "$@"
tg_done
