/* sql_lookup.c - which columns of a table are join columns, and a cursor's lookup of the
 * rows of one key through the index sql_index.c built (in memory or spilled). */
#include "sql/sql_index_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- which columns are join columns --------------------------------------------------------- */

static bool join_column_name(const char *s, size_t n)
{
    return (n == 2 && memcmp(s, "id", 2) == 0) || (n == 4 && memcmp(s, "utid", 4) == 0) ||
           (n == 4 && memcmp(s, "upid", 4) == 0) || (n > 3 && memcmp(s + n - 3, "_id", 3) == 0);
}

/* The name of column col of t (its length in *n), or NULL. */
const char *sql_column_name(const sql_table *t, int col, size_t *n)
{
    const char *p = t->columns;
    for (int i = 0; *p; i++) {
        while (*p == ' ')
            p++;
        if (i == col) {
            *n = strcspn(p, " ,");
            return p;
        }
        p += strcspn(p, ",");
        if (*p == ',')
            p++;
    }
    return NULL;
}

uint64_t sql_join_columns(const sql_table *t)
{
    uint64_t mask = 0;
    for (int col = 0; col < t->n_cols && col < SQL_MAX_COLS; col++) {
        size_t n;
        const char *name = sql_column_name(t, col, &n);
        if (name && join_column_name(name, n))
            mask |= 1ull << col;
    }
    return mask;
}

/* ---- looking up ------------------------------------------------------------------------------ */

void sql_lookup_end(sql_cursor *c)
{
    sqlite3_finalize(c->look.stmt);
    c->look = (struct sql_lookup){0};
}

int sql_lookup_start(sql_cursor *c, sql_index *ix, sqlite3_value *v)
{
    struct sql_lookup *l = &c->look;
    if (l->stmt && l->ix == ix && v) { /* the same query again, for another key */
        sqlite3_reset(l->stmt);
        sqlite3_bind_value(l->stmt, 1, v);
        return 0;
    }
    if (l->ix != ix || l->stmt) { /* the cursor's first lookup here: the other columns NULL */
        sql_lookup_end(c);
        l->ix = ix;
        for (int col = 0; col < ix->table->n_cols; col++)
            sql_null(&c->row[col]);
    }
    if (ix->spill) {
        tg_buf *sel = tg_buf_new();
        if (!sel)
            return sql_fail(c->db, TG_ERR_NOMEM, NULL);
        tg_buf_puts(sel, "SELECT rowid - 1");
        for (int col = 0; col < ix->table->n_cols; col++)
            if (ix->cols >> col & 1)
                tg_buf_printf(sel, ", c%d", col);
        tg_buf_puts(sel, v ? " FROM r WHERE k = ?1 ORDER BY rowid" : " FROM r ORDER BY k, rowid");
        int rc = sqlite3_prepare_v2(ix->spill, tg_buf_data(sel), -1, &l->stmt, NULL);
        tg_buf_free(sel);
        if (rc != SQLITE_OK)
            return sql_fail(c->db, rc == SQLITE_NOMEM ? TG_ERR_NOMEM : TG_ERR_IO, NULL);
        if (v)
            sqlite3_bind_value(l->stmt, 1, v);
        return 0;
    }
    if (!v) { /* every row, by key */
        l->group = 0;
        l->pos = 0;
        l->end = ix->n_order;
        l->other = ix->n_others;
        return 0;
    }
    /* the rows of integer key k (none when the value is no integer SQLite would equal) */
    l->pos = l->end = 0;
    int type = sqlite3_value_numeric_type(v);
    bool integer = type == SQLITE_INTEGER;
    int64_t k = integer ? sqlite3_value_int64(v) : 0;
    if (type == SQLITE_FLOAT) {
        double d = sqlite3_value_double(v);
        integer = d == floor(d) && fabs(d) < 9e18;
        k = integer ? (int64_t)d : 0;
    }
    if (integer && ix->n_order && k >= ix->lo && k <= ix->hi) {
        if (ix->direct) {
            uint64_t i = (uint64_t)k - (uint64_t)ix->lo;
            l->pos = i;
            l->end = ix->order[i] == UINT32_MAX ? i : i + 1;
        } else if (ix->bucket) {
            uint64_t i = (uint64_t)k - (uint64_t)ix->lo;
            l->pos = ix->bucket[i];
            l->end = ix->bucket[i + 1];
        } else {
            size_t a = 0, b = ix->n_order;
            int64_t mk;
            while (a < b) { /* the first row with a key >= k */
                size_t m = a + (b - a) / 2;
                sql_index_key_class(ix, ix->order[m], &mk);
                if (mk < k)
                    a = m + 1;
                else
                    b = m;
            }
            l->pos = a;
            for (l->end = a; l->end < ix->n_order; l->end++) {
                sql_index_key_class(ix, ix->order[l->end], &mk);
                if (mk != k)
                    break;
            }
        }
    }
    l->other = type == SQLITE_NULL ? ix->n_others : 0;
    return 0;
}

void sql_lookup_rows_from(sql_cursor *c, sql_index *ix, size_t first)
{
    sql_lookup_end(c);
    c->look.ix = ix;
    c->look.in_order = true;
    c->look.pos = first;
    for (int col = 0; col < ix->table->n_cols; col++)
        sql_null(&c->row[col]);
}

/* The cursor's row = row R of the index, from the columns the index keeps. */
static int lookup_emit_stored(sql_cursor *c, size_t r)
{
    const sql_index *ix = c->look.ix;
    c->rowid = (int64_t)r;
    for (int i = 0; i < ix->n_kept; i++)
        c->row[ix->kept[i]] = sql_index_stored(ix, ix->kept[i], r);
    return 0;
}

int sql_lookup_next(sql_cursor *c)
{
    struct sql_lookup *l = &c->look;
    const sql_index *ix = l->ix;
    const sql_table *t = ix->table;
    sql_val *row = c->row;
    if (l->in_order) { /* a scan of every row, read from the index */
        if (l->pos >= ix->n) {
            c->eof = true;
            return 0;
        }
        return lookup_emit_stored(c, l->pos++);
    }
    if (l->stmt) {
        int rc = sqlite3_step(l->stmt);
        if (rc != SQLITE_ROW) {
            c->eof = true;
            return rc == SQLITE_DONE ? 0 : sql_fail(c->db, TG_ERR_IO, NULL);
        }
        c->rowid = sqlite3_column_int64(l->stmt, 0);
        int p = 1;
        for (int col = 0; col < t->n_cols; col++) {
            sql_val *v = &row[col];
            if (!(ix->cols >> col & 1)) {
                sql_null(v);
                continue;
            }
            v->type = (uint8_t)sqlite3_column_type(l->stmt, p);
            if (v->type == SQLITE_INTEGER)
                v->u.i = sqlite3_column_int64(l->stmt, p);
            else if (v->type == SQLITE_FLOAT)
                v->u.d = sqlite3_column_double(l->stmt, p);
            else if (v->type == SQLITE_TEXT) {
                v->u.s = (const char *)sqlite3_column_text(l->stmt, p);
                v->len = sqlite3_column_bytes(l->stmt, p);
                v->copy = true;
            } else
                v->type = SQLITE_NULL;
            p++;
        }
        return 0;
    }
    if (ix->walking) { /* the next row of the group, or of the next group */
        size_t groups = ix->n_walk + ix->walk_null;
        for (; l->group < groups; l->group++, l->pos = 0) {
            const uint8_t *at = l->pos < ix->n
                                    ? memchr(ix->walk_group + l->pos, (int)l->group, ix->n - l->pos)
                                    : NULL;
            if (at) {
                l->pos = (size_t)(at - ix->walk_group);
                break;
            }
        }
        if (l->group >= groups) {
            c->eof = true;
            return 0;
        }
        return lookup_emit_stored(c, l->pos++);
    }
    /* the key's rows and the others, merged in row order */
    bool from_key = l->pos < l->end;
    bool from_other = l->other < ix->n_others;
    if (!from_key && !from_other) {
        c->eof = true;
        return 0;
    }
    if (from_key && from_other)
        from_key = ix->order[l->pos] < ix->others[l->other];
    size_t r = from_key ? ix->order[l->pos++] : ix->others[l->other++];
    c->rowid = (int64_t)r;
    for (int i = 0; i < ix->n_kept; i++)
        row[ix->kept[i]] = sql_index_stored(ix, ix->kept[i], r);
    return 0;
}

/* ---- scans of every row read from an index --------------------------------------------------- */

sql_index *sql_index_covering(sql_db *db, const sql_table *t, uint64_t cols)
{
    for (size_t i = 0; i < db->n_indexes; i++) {
        sql_index *ix = db->indexes[i];
        if (ix->table == t && !ix->spill && (ix->cols & cols) == cols)
            return ix;
    }
    return NULL;
}

void sql_scan_list(sql_cursor *c)
{
    sql_scan_unlist(c);
    c->next_scan = c->db->scans;
    c->db->scans = c;
}

void sql_scan_unlist(sql_cursor *c)
{
    for (sql_cursor **p = &c->db->scans; *p; p = &(*p)->next_scan)
        if (*p == c) {
            *p = c->next_scan;
            break;
        }
    c->next_scan = NULL;
    c->adopt = NULL;
}
