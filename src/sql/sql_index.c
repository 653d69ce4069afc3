/* sql_index.c - lookups by a join column (id, parent_id, utid, upid, track_id, arg_set_id,
 * any column named *_id) for every table: an index built on first use.
 *
 * A table's rows come from a pass over the events, so a join that looks rows up by an id
 * would read the trace again for every outer row.  The first lookup on a column instead reads
 * the table once, keeps the columns the query uses (SQLite's colUsed) for every row, in the
 * table's scan order (a row's number there is its rowid, as in a scan), and sorts the row
 * numbers by the key: a counting sort when the keys are dense (ids, utids, tracks), else a
 * merge sort; a lookup is then a bucket or a binary search, and the rows of one key come in
 * scan order, as the plain plan gives them.  Memory is bounded: past TG_SQL_INDEX_MB (256 MB
 * when unset) the rows move to a private temporary SQLite database (SQLite's temp store:
 * pages beyond its cache go to a file deleted on close) with an index on the key, and a lookup
 * is a query there.  An index lives as long as the database: a table's rows never change.
 * Its rows are every row of the table in scan order, so a scan of every row running while it
 * is built (the outer loop of a join) has its columns kept too and reads on from the index
 * instead of finishing its own pass (sql_vtab.c): a self-join costs one pass, not two.
 * Keys that are no integer (never met in the tables, but a table may hold one) are kept
 * apart and offered to every lookup: SQLite checks every constraint again (omit is never set).
 * The lookups themselves are in sql_lookup.c. */
#include "sql/sql_index_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQL_INDEX_DEFAULT_MB 256
#define SQL_ADOPT_COLS 6 /* an index keeps a running scan's columns when it has at most this many */

/* ---- building ----------------------------------------------------------------------------- */

struct text_key {
    const struct sql_index *ix;
    const char *s;
};

static int text_eq(const void *ctx, uint64_t value)
{
    const struct text_key *k = ctx;
    return strcmp(k->ix->text + value, k->s) == 0;
}

/* The offset of s among the index's texts (kept once each); -1 when out of memory. */
static int64_t keep_new_text(struct sql_index *ix, const char *s, int len)
{
    size_t n = len < 0 ? strlen(s) : (size_t)len;
    if (len >= 0 && memchr(s, 0, n))
        n = strlen(s); /* SQLite would stop at the NUL too */
    uint64_t h = tg_hash_bytes(s, n);
    char *copy = NULL;
    if (len >= 0 && s[n] != 0) { /* not NUL-terminated: compare a terminated copy */
        if (!(copy = malloc(n + 1)))
            return -1;
        memcpy(copy, s, n);
        copy[n] = 0;
        s = copy;
    }
    const struct text_key key = {ix, s};
    const uint64_t *found = tg_hash_find_by(&ix->text_index, h, text_eq, &key);
    int64_t at = found ? (int64_t)*found : (int64_t)ix->n_text;
    uint64_t *value;
    if (!found) {
        size_t old = ix->cap_text;
        if (tg_grow(&ix->text, &ix->cap_text, ix->n_text + n + 1, 1) < 0 ||
            tg_hash_add(&ix->text_index, h, &value) < 0) {
            free(copy);
            return -1;
        }
        ix->bytes += ix->cap_text - old + 16;
        memcpy(ix->text + ix->n_text, s, n + 1);
        *value = ix->n_text;
        ix->n_text += n + 1;
    }
    free(copy);
    return at;
}

static int64_t keep_text(struct sql_index *ix, const char *s, int len)
{
    /* the tables hand over interned texts: the same pointer again is mostly the same text
     * (checked, as the memory may hold another text by now) */
    struct text_seen *seen = &ix->seen[((uintptr_t)s >> 4) % SQL_TEXTS_SEEN];
    if (len < 0 && seen->s == s && strcmp(ix->text + seen->at, s) == 0)
        return seen->at;
    int64_t at = keep_new_text(ix, s, len);
    if (len < 0 && at >= 0)
        *seen = (struct text_seen){s, at};
    return at;
}

static void free_col(struct kept_col *k)
{
    free(k->val);
    free(k->types);
    free(k->base);
    free(k->far);
    *k = (struct kept_col){0};
}

static void bind_val(sqlite3_stmt *st, int i, const sql_val *v)
{
    switch (v->type) {
    case SQLITE_INTEGER: sqlite3_bind_int64(st, i, v->u.i); break;
    case SQLITE_FLOAT: sqlite3_bind_double(st, i, v->u.d); break;
    case SQLITE_TEXT: sqlite3_bind_text(st, i, v->u.s, v->len, SQLITE_TRANSIENT); break;
    default: sqlite3_bind_null(st, i); break;
    }
}

sql_val sql_index_stored(const struct sql_index *ix, int col, size_t r)
{
    sql_val v = {.type = (uint8_t)col_type(&ix->col[col], r)};
    uint64_t bits = col_bits(&ix->col[col], r);
    switch (v.type) {
    case SQLITE_INTEGER: v.u.i = (int64_t)bits; break;
    case SQLITE_FLOAT: memcpy(&v.u.d, &bits, sizeof v.u.d); break;
    case SQLITE_TEXT:
        v.u.s = ix->text + bits;
        v.len = -1;
        break;
    default: break;
    }
    return v;
}

static int spill_insert(struct sql_index *ix, int64_t row, const sql_val *vals)
{
    sqlite3_stmt *st = ix->insert;
    sqlite3_bind_int64(st, 1, row + 1);
    bind_val(st, 2, &vals[ix->key]);
    int p = 3;
    for (int col = 0; col < ix->table->n_cols; col++)
        if (ix->cols >> col & 1)
            bind_val(st, p++, &vals[col]);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : rc;
}

/* Moves the rows kept so far to a private temporary database; the next rows go there too. */
static int spill(struct sql_index *ix)
{
    int rc = sqlite3_open_v2("", &ix->spill, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    tg_buf *ddl = tg_buf_new(), *ins = tg_buf_new();
    if (!ddl || !ins)
        rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK) {
        tg_buf_puts(ddl, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                         "PRAGMA cache_size = -16384; CREATE TABLE r(k INTEGER");
        tg_buf_puts(ins, "INSERT INTO r(rowid, k");
        for (int col = 0; col < ix->table->n_cols; col++)
            if (ix->cols >> col & 1) {
                tg_buf_printf(ddl, ", c%d", col);
                tg_buf_printf(ins, ", c%d", col);
            }
        tg_buf_puts(ddl, "); BEGIN");
        tg_buf_puts(ins, ") VALUES (?, ?");
        for (int col = 0; col < ix->table->n_cols; col++)
            if (ix->cols >> col & 1)
                tg_buf_puts(ins, ", ?");
        tg_buf_puts(ins, ")");
        rc = sqlite3_exec(ix->spill, tg_buf_data(ddl), NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(ix->spill, tg_buf_data(ins), -1, &ix->insert, NULL);
    tg_buf_free(ddl);
    tg_buf_free(ins);
    sql_val vals[SQL_MAX_COLS] = {0};
    for (size_t r = 0; rc == SQLITE_OK && r < ix->n; r++) {
        for (int col = 0; col < ix->table->n_cols; col++)
            if (ix->cols >> col & 1)
                vals[col] = sql_index_stored(ix, col, r);
        rc = spill_insert(ix, (int64_t)r, vals);
    }
    for (int col = 0; col < SQL_MAX_COLS; col++)
        free_col(&ix->col[col]);
    free(ix->text);
    ix->text = NULL;
    ix->n_text = ix->cap_text = 0;
    tg_hash_free(&ix->text_index);
    return rc == SQLITE_OK ? 0 : TG_ERR_IO;
}

uint64_t sql_col_far(const struct kept_col *k, size_t r)
{
    size_t a = 0, b = k->n_far;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (k->far[m].row < r)
            a = m + 1;
        else
            b = m;
    }
    return a < k->n_far && k->far[a].row == r ? k->far[a].bits : 0;
}

/* Makes room for cap rows (a multiple of SQL_BLOCK_ROWS) in every kept column. */
static int grow_rows(struct sql_index *ix, size_t cap)
{
    for (int col = 0; col < ix->table->n_cols; col++) {
        struct kept_col *k = &ix->col[col];
        if (!(ix->cols >> col & 1))
            continue;
        size_t width = k->wide ? 8 : 4;
        void *v = realloc(k->val, cap * width);
        if (!v)
            return TG_ERR_NOMEM;
        k->val = v;
        ix->bytes += (cap - ix->cap) * width;
        if (!k->wide) {
            uint64_t *base = realloc(k->base, cap / SQL_BLOCK_ROWS * sizeof *base);
            if (!base)
                return TG_ERR_NOMEM;
            k->base = base;
        }
        if (k->types) {
            uint8_t *t = realloc(k->types, cap);
            if (!t)
                return TG_ERR_NOMEM;
            k->types = t;
            ix->bytes += cap - ix->cap;
        }
    }
    ix->cap = cap;
    return 0;
}

/* Column k's values in 64 bits from now on: the array grows in place (realloc) and the
 * values move from the last one down, so the column never exists twice in memory. */
static int widen(struct sql_index *ix, struct kept_col *k)
{
    uint64_t *v = realloc(k->val, (ix->cap ? ix->cap : 1) * sizeof *v);
    if (!v)
        return TG_ERR_NOMEM;
    k->val = v;
    char *bytes = (char *)v;
    for (size_t r = ix->n; r-- > 0;) {
        /* the 8 bytes of row r hold narrow rows 2r and 2r + 1: moved already (or, row 0,
         * read just before) */
        uint64_t wide = col_bits(k, r);
        memcpy(bytes + 8 * r, &wide, sizeof wide);
    }
    k->wide = true;
    size_t far_bytes = k->cap_far * sizeof *k->far;
    ix->bytes = ix->bytes + ix->cap * 4 - (far_bytes < ix->bytes ? far_bytes : 0);
    free(k->base);
    free(k->far);
    k->base = NULL;
    k->far = NULL;
    k->n_far = k->cap_far = 0;
    return 0;
}

/* Stores bits as row r of narrow column k (r past the rows kept so far); widens it when the
 * rows far from their base grow many. */
static int put_narrow(struct sql_index *ix, struct kept_col *k, size_t r, uint64_t bits)
{
    size_t block = r / SQL_BLOCK_ROWS;
    if (r % SQL_BLOCK_ROWS == 0)
        k->base[block] = bits - (1ull << 31);
    uint64_t d = bits - k->base[block];
    if (d < SQL_FAR) {
        ((uint32_t *)k->val)[r] = (uint32_t)d;
        return 0;
    }
    if (k->n_far > ix->n / 16 + 1024) {
        TG_TRY(widen(ix, k));
        ((uint64_t *)k->val)[r] = bits;
        return 0;
    }
    size_t old = k->cap_far;
    if (tg_grow(&k->far, &k->cap_far, k->n_far + 1, sizeof *k->far) < 0)
        return TG_ERR_NOMEM;
    ix->bytes += (k->cap_far - old) * sizeof *k->far;
    k->far[k->n_far++] = (struct far_bits){r, bits};
    ((uint32_t *)k->val)[r] = SQL_FAR;
    return 0;
}

/* Keeps row number n of the table (its values in vals). */
static int keep_row(struct sql_index *ix, const sql_val *vals)
{
    if (ix->spill)
        return spill_insert(ix, (int64_t)ix->n++, vals) ? TG_ERR_IO : 0;
    if (ix->n == ix->cap)
        TG_TRY(grow_rows(ix, ix->cap ? ix->cap * 2 : SQL_BLOCK_ROWS));
    size_t r = ix->n;
    for (int i = 0; i < ix->n_kept; i++) {
        int col = ix->kept[i];
        struct kept_col *k = &ix->col[col];
        const sql_val *v = &vals[col];
        uint64_t bits = 0;
        if (v->type == SQLITE_INTEGER)
            bits = (uint64_t)v->u.i;
        else if (v->type == SQLITE_FLOAT)
            memcpy(&bits, &v->u.d, sizeof bits);
        else if (v->type == SQLITE_TEXT) {
            int64_t at = keep_text(ix, v->u.s, v->len);
            if (at < 0)
                return TG_ERR_NOMEM;
            bits = (uint64_t)at;
        }
        if (!k->uniform)
            k->uniform = v->type;
        if (v->type != k->uniform && !k->types) {
            if (!(k->types = malloc(ix->cap)))
                return TG_ERR_NOMEM;
            memset(k->types, k->uniform, r);
            ix->bytes += ix->cap;
        }
        if (!k->wide && v->type == SQLITE_FLOAT)
            TG_TRY(widen(ix, k));
        if (k->wide)
            ((uint64_t *)k->val)[r] = bits;
        else
            TG_TRY(put_narrow(ix, k, r, bits));
        if (k->types)
            k->types[r] = v->type;
    }
    ix->n++;
    return ix->bytes > ix->limit ? spill(ix) : 0;
}

int sql_index_key_class(const struct sql_index *ix, size_t r, int64_t *k)
{
    int type = col_type(&ix->col[ix->key], r);
    uint64_t bits = col_bits(&ix->col[ix->key], r);
    *k = (int64_t)bits;
    if (type == SQLITE_INTEGER)
        return KEY_INT;
    if (type == SQLITE_TEXT)
        return KEY_TEXT;
    if (type != SQLITE_FLOAT)
        return KEY_NULL;
    double d;
    memcpy(&d, &bits, sizeof d);
    if (d == floor(d) && fabs(d) < 9e18) {
        *k = (int64_t)d;
        return KEY_INT;
    }
    return KEY_REAL;
}

struct key_row {
    int64_t key;
    double num; /* an integer's or a real's value */
    const char *text;
    uint32_t row;
    uint8_t rank; /* 0 null, 1 number, 2 text: the order SQLite sorts them in */
};

static int key_row_cmp(const void *a, const void *b)
{
    const struct key_row *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    int c = 0;
    if (x->rank == 2)
        c = strcmp(x->text, y->text);
    else if (x->num != y->num)
        c = x->num < y->num ? -1 : 1;
    else if (x->key != y->key)
        c = x->key < y->key ? -1 : 1;
    if (c)
        return c;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Whether a row whose key is of class cls is among the sorted rows: every row with a key
 * for a GROUP BY (NULLs apart), the integer keys for lookups (the others are offered to every
 * lookup). */
static bool sorted_class(const struct sql_index *ix, int cls)
{
    return cls != KEY_NULL && (ix->grouped || cls == KEY_INT);
}

static int text_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Where each key's rows start in order[] (fill[k - lo]), the keys taken in SQLite's order:
 * integers by value, texts by their bytes.  count[i + 1] holds key lo + i's rows. */
static int key_starts(const struct sql_index *ix, bool text, const uint32_t *count, uint64_t range,
                      size_t first, uint32_t *fill)
{
    size_t at = first;
    if (!text) {
        for (uint64_t i = 0; i <= range; i++) {
            fill[i] = (uint32_t)at;
            at += count[i + 1];
        }
        return 0;
    }
    size_t n = 0;
    for (uint64_t i = 0; i <= range; i++)
        n += count[i + 1] != 0;
    const char **keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys)
        return TG_ERR_NOMEM;
    n = 0;
    for (uint64_t i = 0; i <= range; i++)
        if (count[i + 1])
            keys[n++] = ix->text + ix->lo + (int64_t)i;
    qsort(keys, n, sizeof *keys, text_cmp);
    for (size_t j = 0; j < n; j++) {
        uint64_t i = (uint64_t)(keys[j] - ix->text - ix->lo);
        fill[i] = (uint32_t)at;
        at += count[i + 1];
    }
    free(keys);
    return 0;
}

/* A GROUP BY of few keys of one class (integers or texts, NULLs aside): the keys in SQLite's
 * order, and each group a walk of every row, which costs less than an order[] of every row.
 * true when it is so. */
static int walk_groups(struct sql_index *ix, int cls, size_t n_null, bool *done)
{
    *done = false;
    uint64_t range = (uint64_t)ix->hi - (uint64_t)ix->lo;
    if (range > 1u << 20)
        return 0;
    uint32_t *count = calloc(range + 2, sizeof *count);
    if (!count)
        return TG_ERR_NOMEM;
    for (size_t r = 0; r < ix->n; r++) {
        int64_t k;
        if (sql_index_key_class(ix, r, &k) == cls)
            count[(uint64_t)k - (uint64_t)ix->lo + 1]++;
    }
    size_t n = 0;
    for (uint64_t i = 0; i <= range && n <= SQL_WALK_GROUPS; i++)
        n += count[i + 1] != 0;
    if (n <= SQL_WALK_GROUPS) {
        const char *texts[SQL_WALK_GROUPS];
        n = 0;
        for (uint64_t i = 0; i <= range; i++)
            if (count[i + 1]) {
                ix->walk[n] = ix->lo + (int64_t)i;
                texts[n] = cls == KEY_TEXT ? ix->text + ix->walk[n] : NULL;
                n++;
            }
        if (cls == KEY_TEXT) {
            qsort(texts, n, sizeof *texts, text_cmp);
            for (size_t j = 0; j < n; j++)
                ix->walk[j] = texts[j] - ix->text;
        }
        ix->n_walk = n;
        ix->walk_null = n_null > 0;
        /* each row's group number, so that a group's walk is a memchr over bytes */
        for (size_t j = 0; j < n; j++)
            count[(uint64_t)ix->walk[j] - (uint64_t)ix->lo + 1] = (uint32_t)(j + ix->walk_null);
        if (!(ix->walk_group = malloc(ix->n ? ix->n : 1))) {
            free(count);
            return TG_ERR_NOMEM;
        }
        ix->bytes += ix->n;
        for (size_t r = 0; r < ix->n; r++) {
            int64_t k;
            int c = sql_index_key_class(ix, r, &k);
            ix->walk_group[r] = c == cls ? (uint8_t)count[(uint64_t)k - (uint64_t)ix->lo + 1]
                                : c == KEY_NULL && ix->walk_null ? 0
                                                                 : UINT8_MAX;
        }
        ix->walking = *done = true;
    }
    free(count);
    return 0;
}

/* Sorts the rows by key (then row) into order[]: for a GROUP BY every row, NULL keys first,
 * the keys in SQLite's order (so the groups come as SQLite's sort gives them); for lookups
 * the integer keys, with bucket[] when they are dense. */
static int sort_rows(struct sql_index *ix)
{
    size_t n_sorted = 0, n_null = 0;
    int first_cls = -1;
    bool one_cls = true;
    ix->lo = INT64_MAX;
    ix->hi = INT64_MIN;
    for (size_t r = 0; r < ix->n; r++) {
        int64_t k;
        int cls = sql_index_key_class(ix, r, &k);
        if (sorted_class(ix, cls)) {
            n_sorted++;
            one_cls &= first_cls < 0 || cls == first_cls;
            first_cls = cls;
            ix->lo = k < ix->lo ? k : ix->lo;
            ix->hi = k > ix->hi ? k : ix->hi;
        } else if (cls == KEY_NULL) {
            n_null += ix->grouped;
        } else {
            if (tg_grow(&ix->others, &ix->cap_others, ix->n_others + 1, sizeof *ix->others) < 0)
                return TG_ERR_NOMEM;
            ix->others[ix->n_others++] = (uint32_t)r;
        }
    }
    size_t total = n_null + n_sorted;
    if (!total)
        return 0;
    if (ix->grouped && n_sorted && one_cls && first_cls != KEY_REAL) {
        bool done;
        TG_TRY(walk_groups(ix, first_cls, n_null, &done));
        if (done)
            return 0;
    }
    if (!(ix->order = malloc(total * sizeof *ix->order)))
        return TG_ERR_NOMEM;
    ix->n_order = total;
    ix->bytes += total * sizeof *ix->order;
    size_t at = 0;
    for (size_t r = 0; r < ix->n && n_null; r++) { /* a GROUP BY's NULL group comes first */
        int64_t k;
        if (sql_index_key_class(ix, r, &k) == KEY_NULL)
            ix->order[at++] = (uint32_t)r;
    }
    if (!n_sorted)
        return 0;
    uint64_t range = (uint64_t)ix->hi - (uint64_t)ix->lo;
    if (one_cls && first_cls != KEY_REAL &&
        range < 2 * (uint64_t)n_sorted + 1024) { /* dense: a counting sort, stable */
        uint32_t *count = calloc(range + 2, sizeof *count);
        uint32_t *fill = malloc((range + 1) * sizeof *fill);
        int rc = count && fill ? 0 : TG_ERR_NOMEM;
        bool unique = true;
        for (size_t r = 0; r < ix->n && rc == 0; r++) {
            int64_t k;
            if (sorted_class(ix, sql_index_key_class(ix, r, &k)))
                unique &= ++count[(uint64_t)k - (uint64_t)ix->lo + 1] == 1;
        }
        if (rc == 0 && unique && !ix->grouped) { /* ids: order[k - lo] is key k's row */
            free(count);
            free(fill);
            uint32_t *direct = realloc(ix->order, (range + 1) * sizeof *direct);
            if (!direct)
                return TG_ERR_NOMEM;
            ix->order = direct;
            ix->bytes += (range + 1 - total) * sizeof *direct;
            ix->n_order = range + 1;
            ix->direct = true;
            memset(direct, 0xff, (range + 1) * sizeof *direct);
            for (size_t r = 0; r < ix->n; r++) {
                int64_t k;
                if (sorted_class(ix, sql_index_key_class(ix, r, &k)))
                    direct[(uint64_t)k - (uint64_t)ix->lo] = (uint32_t)r;
            }
            return 0;
        }
        if (rc == 0)
            rc = key_starts(ix, first_cls == KEY_TEXT, count, range, at, fill);
        if (rc == 0 && !ix->grouped) { /* lookups: bucket[i] .. bucket[i + 1] */
            ix->bucket = count;
            count = NULL;
            for (uint64_t i = 0; i <= range; i++)
                ix->bucket[i] = fill[i];
            ix->bucket[range + 1] = (uint32_t)total;
        }
        for (size_t r = 0; r < ix->n && rc == 0; r++) {
            int64_t k;
            if (sorted_class(ix, sql_index_key_class(ix, r, &k)))
                ix->order[fill[(uint64_t)k - (uint64_t)ix->lo]++] = (uint32_t)r;
        }
        free(count);
        free(fill);
        return rc;
    }
    struct key_row *kr = malloc(n_sorted * sizeof *kr);
    if (!kr)
        return TG_ERR_NOMEM;
    size_t i = 0;
    for (size_t r = 0; r < ix->n; r++) {
        int64_t k;
        int cls = sql_index_key_class(ix, r, &k);
        if (!sorted_class(ix, cls))
            continue;
        struct key_row *e = &kr[i++];
        *e = (struct key_row){.key = k, .row = (uint32_t)r, .rank = cls == KEY_TEXT ? 2 : 1};
        if (cls == KEY_TEXT)
            e->text = ix->text + k;
        else if (cls == KEY_REAL)
            memcpy(&e->num, &k, sizeof e->num);
        else
            e->num = (double)k;
    }
    qsort(kr, n_sorted, sizeof *kr, key_row_cmp);
    for (i = 0; i < n_sorted; i++)
        ix->order[at + i] = kr[i].row;
    free(kr);
    return 0;
}

static void index_free(struct sql_index *ix)
{
    if (!ix)
        return;
    for (int col = 0; col < SQL_MAX_COLS; col++)
        free_col(&ix->col[col]);
    free(ix->text);
    tg_hash_free(&ix->text_index);
    free(ix->order);
    free(ix->walk_group);
    free(ix->bucket);
    free(ix->others);
    sqlite3_finalize(ix->insert);
    sqlite3_close(ix->spill);
    free(ix);
}

static size_t memory_limit(void)
{
    const char *env = getenv("TG_SQL_INDEX_MB");
    char *end;
    unsigned long long mb = env ? strtoull(env, &end, 10) : SQL_INDEX_DEFAULT_MB;
    if (env && (end == env || *end))
        mb = SQL_INDEX_DEFAULT_MB;
    return mb > SIZE_MAX >> 20 ? SIZE_MAX : (size_t)mb << 20;
}

/* Reads every row of t once through its own scan and keeps the columns cols. */
static int build(sql_db *db, struct sql_index *ix)
{
    sql_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return TG_ERR_NOMEM;
    c->db = db;
    c->table = ix->table;
    c->cols = ix->cols; /* the scan computes only the columns kept */
    sql_query_all(&c->q);
    int rc = ix->table->filter(c);
    if (rc >= 0 && !c->eof)
        rc = ix->table->next(c);
    while (rc >= 0 && !c->eof) {
        if (ix->n >= UINT32_MAX) {
            rc = sql_fail(db, TG_ERR_LIMIT, NULL);
            break;
        }
        if ((rc = keep_row(ix, c->row)) < 0) {
            rc = sql_fail(db, rc, NULL);
            break;
        }
        rc = ix->table->next(c);
    }
    if (ix->table->close)
        ix->table->close(c);
    free(c->q.name);
    free(c);
    if (rc < 0)
        return rc;
    if (ix->spill) {
        char *msg = NULL;
        if (sqlite3_exec(ix->spill, "CREATE INDEX rk ON r(k); COMMIT", NULL, NULL, &msg) !=
            SQLITE_OK) {
            rc = sql_fail(db, TG_ERR_IO, NULL);
            sqlite3_free(msg);
        }
        return rc;
    }
    rc = sort_rows(ix);
    return rc < 0 ? sql_fail(db, rc, NULL) : 0;
}

int sql_index_get(sql_db *db, const sql_table *t, int key, uint64_t cols, bool grouped,
                  sql_index **out)
{
    cols |= 1ull << key;
    for (size_t i = 0; i < db->n_indexes; i++) {
        sql_index *ix = db->indexes[i];
        if (ix->table == t && ix->key == key && ix->grouped == grouped &&
            (ix->cols & cols) == cols) {
            *out = ix;
            return 0;
        }
    }
    if (tg_grow(&db->indexes, &db->cap_indexes, db->n_indexes + 1, sizeof *db->indexes) < 0)
        return sql_fail(db, TG_ERR_NOMEM, NULL);
    /* the scans of every row of t running now read on from this index: it keeps their
     * columns too (a few: the memory is the index's), and its pass is then theirs */
    uint64_t all = t->n_cols < 64 ? (1ull << t->n_cols) - 1 : ~0ull;
    for (const sql_cursor *c = db->scans; c; c = c->next_scan)
        if (c->table == t && __builtin_popcountll(cols | (c->cols & all)) <= SQL_ADOPT_COLS)
            cols |= c->cols & all;
    sql_index *ix = calloc(1, sizeof *ix);
    if (!ix)
        return sql_fail(db, TG_ERR_NOMEM, NULL);
    *ix = (sql_index){
        .table = t, .key = key, .cols = cols, .grouped = grouped, .limit = memory_limit()};
    for (int col = 0; col < t->n_cols && col < SQL_MAX_COLS; col++)
        if (cols >> col & 1)
            ix->kept[ix->n_kept++] = (int8_t)col;
    int rc = build(db, ix);
    if (rc < 0) {
        index_free(ix);
        return rc;
    }
    db->indexes[db->n_indexes++] = ix;
    for (sql_cursor *c = db->scans; c; c = c->next_scan)
        if (c->table == t && !ix->spill && (ix->cols & c->cols & all) == (c->cols & all))
            c->adopt = ix;
    *out = ix;
    return 0;
}

void sql_index_free_all(sql_db *db)
{
    for (size_t i = 0; i < db->n_indexes; i++)
        index_free(db->indexes[i]);
    free(db->indexes);
    db->indexes = NULL;
    db->n_indexes = db->cap_indexes = 0;
}
