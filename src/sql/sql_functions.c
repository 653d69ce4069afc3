/* sql_functions.c - Perfetto's scalar functions that SQLite lacks: STR_SPLIT and REGEXP.
 *
 * STR_SPLIT(str, delimiter, index) is the index-th (from 0) part of str cut at each
 * delimiter, NULL past the last part or when str is NULL (trace_processor's definition);
 * `x REGEXP pattern` (SQLite calls regexp(pattern, x)) is whether the POSIX extended
 * regular expression matches somewhere in x.  The last pattern compiled is kept with the
 * statement (sqlite3_set_auxdata), so a scan compiles it once. */
#include "sql/sql_internal.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

static void str_split_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    const char *delim = (const char *)sqlite3_value_text(argv[1]);
    if (!s || !delim || !*delim) {
        if (s && delim)
            sqlite3_result_error(ctx, "STR_SPLIT: the delimiter is empty", -1);
        else
            sqlite3_result_null(ctx);
        return;
    }
    sqlite3_int64 index = sqlite3_value_int64(argv[2]);
    if (index < 0) {
        sqlite3_result_error(ctx, "STR_SPLIT: the index is negative", -1);
        return;
    }
    size_t dl = strlen(delim);
    for (; index > 0; index--) {
        const char *next = strstr(s, delim);
        if (!next) {
            sqlite3_result_null(ctx);
            return;
        }
        s = next + dl;
    }
    const char *end = strstr(s, delim);
    sqlite3_result_text(ctx, s, end ? (int)(end - s) : -1, SQLITE_TRANSIENT);
}

static void free_regex(void *p)
{
    regfree(p);
    free(p);
}

static void regexp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *pattern = (const char *)sqlite3_value_text(argv[0]);
    const char *text = (const char *)sqlite3_value_text(argv[1]);
    if (!pattern || !text) {
        sqlite3_result_null(ctx);
        return;
    }
    regex_t *re = sqlite3_get_auxdata(ctx, 0);
    if (!re) {
        re = malloc(sizeof *re);
        if (!re) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        if (regcomp(re, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
            free(re);
            sqlite3_result_error(ctx, "REGEXP: not a regular expression", -1);
            return;
        }
        sqlite3_set_auxdata(ctx, 0, re, free_regex);
        re = sqlite3_get_auxdata(ctx, 0);
        if (!re) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
    }
    sqlite3_result_int(ctx, regexec(re, text, 0, NULL, 0) == 0);
}

int sql_functions_register(sql_db *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc =
        sqlite3_create_function(db->sqlite, "STR_SPLIT", 3, flags, NULL, str_split_fn, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db->sqlite, "REGEXP", 2, flags, NULL, regexp_fn, NULL, NULL);
    return rc;
}
