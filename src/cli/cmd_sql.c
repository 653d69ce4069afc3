/* cmd_sql.c - `traceglot sql`: SQL over the traces' tables (tg_sql_open, tg_sql_run).
 *
 * Each -q is run in order (-q @FILE reads the SQL from FILE), as one run: with --format json
 * the rows of several statements make one JSON document.  Without -q, standard input is
 * read by the shell (cli_sql_shell.c: sqlite3's dot commands, statements over several
 * lines), from a terminal or a pipe.  Rows go to standard output in --format table, csv,
 * json, list or perfetto (trace_processor_shell's).  Bad SQL is a usage error (exit 2,
 * SQLite's message); damage met in the traces is printed after the rows it let through
 * (exit 1). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole of f, NUL-terminated, or NULL. */
static char *slurp(FILE *f)
{
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    if (s)
        s[n] = 0;
    return s;
}

/* The texts of the -q options, @FILE read from FILE (held in owned[]), in texts[]; their
 * count, or -1 after saying which file could not be read. */
static long query_texts(char *all, const char **texts, char **owned)
{
    long n = 0;
    for (char *q = all, *next; q; q = next) {
        next = strchr(q, CLI_APART);
        if (next)
            *next++ = 0;
        owned[n] = NULL;
        if (q[0] == '@') {
            FILE *f = fopen(q + 1, "r");
            if (!f || !(owned[n] = slurp(f))) {
                fprintf(stderr, "traceglot sql: cannot read %s\n", q + 1);
                if (f)
                    fclose(f);
                return -1;
            }
            fclose(f);
            q = owned[n];
        }
        texts[n++] = q;
    }
    return n;
}

/* Every -q as one run: the first failure's exit code, printed. */
static int run_queries(struct sqlite3 *db, const char *queries, const char *format)
{
    size_t max = 1;
    for (const char *p = queries; (p = strchr(p, CLI_APART)) != NULL; p++)
        max++;
    char *all = strdup(queries);
    const char **texts = calloc(max, sizeof *texts);
    char **owned = calloc(max, sizeof *owned);
    tg_buf *out = tg_buf_new_fd(STDOUT_FILENO);
    int status = 1;
    if (!all || !texts || !owned || !out) {
        fprintf(stderr, "traceglot: error: out of memory\n");
    } else {
        long n = query_texts(all, texts, owned);
        status = 2;
        if (n >= 0) {
            tg_error *err = NULL;
            int rc = tg_sql_run_texts(db, texts, (size_t)n, format, out, &err);
            if (tg_buf_flush(out) < 0 && rc >= 0)
                rc = TG_ERR_IO;
            status = rc < 0 ? cli_finish(rc, err) : 0;
        }
        for (size_t i = 0; i < max; i++)
            free(owned ? owned[i] : NULL);
    }
    tg_buf_free(out);
    free(owned);
    free(texts);
    free(all);
    return status;
}

int cli_run_sql(struct cli_args *a)
{
    const char *format = tg_options_get(a->opts, "format");
    if (format && strcmp(format, "table") != 0 && strcmp(format, "csv") != 0 &&
        strcmp(format, "json") != 0 && strcmp(format, "perfetto") != 0 &&
        strcmp(format, "list") != 0) {
        fprintf(stderr, "traceglot sql: unknown format '%s' (table, csv, json, list, perfetto)\n",
                format);
        return 2;
    }
    tg_set *set = cli_open(a);
    if (!set)
        return a->open_exit ? a->open_exit : 1;
    struct sqlite3 *db = NULL;
    tg_error *err = NULL;
    if (tg_sql_open(set, a->filter, a->opts, &db, &err) < 0) {
        tg_close(set);
        return cli_finish(TG_ERR_NOMEM, err);
    }
    const char *queries = tg_options_get(a->opts, "query");
    int status = queries ? run_queries(db, queries, format)
                         : cli_sql_shell(db, format, isatty(STDIN_FILENO));
    /* the rows before the damage are out; now the damage */
    const tg_error *damage = tg_sql_errors(db);
    for (const tg_error *e = damage; e; e = tg_error_next(e))
        fprintf(stderr, "traceglot: error: %s\n", tg_error_message(e));
    if (damage && status == 0)
        status = 1;
    tg_sql_close(db);
    cli_print_run_warnings(set);
    tg_close(set);
    return status;
}
