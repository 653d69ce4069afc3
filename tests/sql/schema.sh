#!/bin/bash
# schema.sh - the trace's tables are in SQLite's own schema, as sqlite3 shows a database's
# tables: PRAGMA table_list and sqlite_schema list every table of `traceglot sql` (each a
# virtual table of the main schema, its CREATE VIRTUAL TABLE with its columns), the shell's
# .schema prints that statement, and the manual page traceglot-sql(1) lists every table and
# each of its columns with its type, one a line, the same as PRAGMA table_info gives.
. "$(dirname "$0")/../lib.sh"
f=$TG_TESTS/../examples/fib.uftrace.data
tg_need_dir "$f"
q() { "$TG" sql --format list -q "$1" "$f"; }

# the tables: traceglot's list (the shell's .tables) against SQLite's schema
printf '.tables\n' | "$TG" sql "$f" | tr -s ' ' '\n' | sed '/^$/d' | sort >"$TG_TMP/shell"
q "SELECT name FROM sqlite_temp_schema WHERE type = 'view'" | sort >"$TG_TMP/views"
comm -23 "$TG_TMP/shell" "$TG_TMP/views" >"$TG_TMP/tables"
[ "$(wc -l <"$TG_TMP/tables")" -gt 20 ] && tg_pass "the shell lists the tables" ||
    tg_fail "the shell lists the tables" "$(cat "$TG_TMP/shell")"
q "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'virtual'" |
    sort >"$TG_TMP/table_list"
tg_same "PRAGMA table_list: every table" "$TG_TMP/tables" "$TG_TMP/table_list"
q "SELECT name FROM sqlite_schema WHERE type = 'table'" | sort >"$TG_TMP/sqlite_schema"
tg_same "sqlite_schema: every table" "$TG_TMP/tables" "$TG_TMP/sqlite_schema"
q "SELECT sql FROM sqlite_schema WHERE name = 'thread'" >"$TG_TMP/ddl"
grep -q '^CREATE VIRTUAL TABLE thread USING thread(.*tid INTEGER' "$TG_TMP/ddl" &&
    tg_pass "sqlite_schema.sql: the CREATE with the columns" ||
    tg_fail "sqlite_schema.sql: the CREATE with the columns" "$(cat "$TG_TMP/ddl")"
printf '.schema thread\n' | "$TG" sql "$f" >"$TG_TMP/dot"
sed 's/$/;/' "$TG_TMP/ddl" >"$TG_TMP/ddl;"
tg_same ".schema thread: the schema's statement" "$TG_TMP/ddl;" "$TG_TMP/dot"
# the tables are still the scans they were: a query reads the trace
n=$(q "SELECT count(*) FROM slice")
[ "${n:-0}" -gt 0 ] && tg_pass "slice reads the calls ($n)" || tg_fail "slice reads the calls" "$n"

# the manual page: one line per column, as PRAGMA table_info has them
q "SELECT m.name || ' ' || p.name || ' ' || p.type FROM sqlite_schema m,
       pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid" >"$TG_TMP/cols"
if ! "$TG" options --man "$TG_TMP" 2>"$TG_TMP/err"; then
    tg_fail "options --man" "$(cat "$TG_TMP/err")"
    tg_done
fi
awk '/^\.SH TABLES/ { on = 1; next } /^\.SH / { on = 0 }
     on && /^\.SS / { t = $2; next } on && /^\.(nf|fi)/ { next }
     on && t != "" { gsub(/\\-/, "-"); print t " " $0 }' "$TG_TMP/traceglot-sql.1" |
    sort -s -k1,1 >"$TG_TMP/man"
sort -s -k1,1 "$TG_TMP/cols" >"$TG_TMP/cols.sorted"
[ "$(wc -l <"$TG_TMP/man")" -gt 100 ] && tg_pass "traceglot-sql(1) has a TABLES section" ||
    tg_fail "traceglot-sql(1) has a TABLES section" "$(wc -l <"$TG_TMP/man") column lines"
tg_same "traceglot-sql(1): every table and column" "$TG_TMP/cols.sorted" "$TG_TMP/man"
tg_done
