/* sql_functions.c - Perfetto's scalar functions that SQLite lacks: STR_SPLIT, REGEXP and HASH.
 *
 * STR_SPLIT(str, delimiter, index) is the index-th (from 0) part of str cut at each
 * delimiter, NULL past the last part or when str is NULL (trace_processor's definition);
 * `x REGEXP pattern` (SQLite calls regexp(pattern, x)) is whether the POSIX extended
 * regular expression matches somewhere in x.  The last pattern compiled is kept with the
 * statement (sqlite3_set_auxdata), so a scan compiles it once.  HASH(a, b, ...) is
 * trace_processor's: one 64-bit FNV-1a over its arguments in turn, an integer as its eight
 * bytes (little-endian, as trace_processor hashes them on the machines it runs on), a string
 * as its bytes up to its first NUL; any other value (NULL, a real, a blob) is an error, and
 * HASH() is the FNV offset basis.  The digest is returned as a signed 64-bit integer. */
#include "sql/sql_internal.h"

#include <regex.h>
#include <stdio.h>
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

#define FNV1A_OFFSET_BASIS 0xcbf29ce484222325ull
#define FNV1A_PRIME 0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV1A_PRIME;
    return h;
}

static void hash_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    uint64_t h = FNV1A_OFFSET_BASIS;
    for (int i = 0; i < argc; i++) {
        switch (sqlite3_value_type(argv[i])) {
        case SQLITE_INTEGER: {
            uint64_t x = (uint64_t)sqlite3_value_int64(argv[i]);
            unsigned char le[8];
            for (int b = 0; b < 8; b++)
                le[b] = (unsigned char)(x >> (8 * b));
            h = fnv1a(h, le, sizeof le);
            break;
        }
        case SQLITE_TEXT: {
            const unsigned char *s = sqlite3_value_text(argv[i]);
            if (!s) {
                sqlite3_result_error_nomem(ctx);
                return;
            }
            h = fnv1a(h, s, strlen((const char *)s));
            break;
        }
        default: {
            char msg[64];
            snprintf(msg, sizeof msg, "HASH: arg %d has unknown type", i);
            sqlite3_result_error(ctx, msg, -1);
            return;
        }
        }
    }
    sqlite3_result_int64(ctx, (sqlite3_int64)h);
}

int sql_functions_register(sql_db *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc =
        sqlite3_create_function(db->sqlite, "STR_SPLIT", 3, flags, NULL, str_split_fn, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db->sqlite, "REGEXP", 2, flags, NULL, regexp_fn, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db->sqlite, "HASH", -1, flags, NULL, hash_fn, NULL, NULL);
    return rc;
}
