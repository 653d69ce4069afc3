/* sql_names.c - the names of the trace's tables, for those who list them (the shell's
 * .tables and .schema) and for a statement SQLite refuses to prepare because it names a
 * table that does not exist, said with the nearest names ("no such table: slcie (did you
 * mean slice?)"): the tables are eponymous virtual tables and views that a user spells from
 * memory of Perfetto's names. */
#include "sql/sql_internal.h"

#include <stdio.h>
#include <string.h>

#define VIEW_NAMES_MAX 64

int sql_prepare_failed(struct sqlite3 *sqlite, tg_error **err)
{
    const char *msg = sqlite3_errmsg(sqlite);
    static const char no_table[] = "no such table: ";
    if (strncmp(msg, no_table, sizeof no_table - 1) != 0)
        return tg_err(err, TG_ERR_USAGE, "%s", msg);
    char word[128], near[400];
    const char *missing = msg + sizeof no_table - 1;
    const char *dot = strchr(missing, '.'); /* main.slcie: the table's own name */
    snprintf(word, sizeof word, "%s", dot ? dot + 1 : missing);
    tg_nearest n;
    tg_nearest_init(&n, word);
    for (size_t i = 0; sql_tables[i]; i++)
        tg_nearest_offer(&n, sql_tables[i]->name);
    for (size_t i = 0; sql_analysis_tables[i]; i++)
        tg_nearest_offer(&n, sql_analysis_tables[i]->name);
    /* the views and tables of the connection (raw, sched, counters, a user's own) */
    char views[VIEW_NAMES_MAX][64];
    size_t n_views = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(sqlite,
                           "SELECT name FROM sqlite_temp_schema WHERE type IN ('view','table') "
                           "UNION SELECT name FROM sqlite_schema WHERE type IN ('view','table')",
                           -1, &st, NULL) == SQLITE_OK)
        while (n_views < VIEW_NAMES_MAX && sqlite3_step(st) == SQLITE_ROW) {
            const unsigned char *name = sqlite3_column_text(st, 0);
            if (name)
                snprintf(views[n_views++], sizeof views[0], "%s", (const char *)name);
        }
    sqlite3_finalize(st);
    for (size_t i = 0; i < n_views; i++)
        tg_nearest_offer(&n, views[i]);
    if (!tg_nearest_say(&n, "", near, sizeof near))
        return tg_err(err, TG_ERR_USAGE, "no such table: %s", missing);
    return tg_err(err, TG_ERR_USAGE, "no such table: %s (did you mean %s?)", missing, near);
}

static const sql_table *table_at(size_t i)
{
    size_t n = 0;
    while (sql_tables[n])
        n++;
    if (i < n)
        return sql_tables[i];
    for (size_t k = 0; sql_analysis_tables[k]; k++)
        if (k == i - n)
            return sql_analysis_tables[k];
    return NULL;
}

const char *tg_sql_table_name(size_t i)
{
    const sql_table *t = table_at(i);
    return t ? t->name : NULL;
}

const char *tg_sql_table_columns(size_t i)
{
    const sql_table *t = table_at(i);
    return t ? t->columns : NULL;
}

int tg_sql_complete(const char *sql) { return sqlite3_complete(sql); }
