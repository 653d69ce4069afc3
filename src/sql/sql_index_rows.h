/* sql_index_rows.h - the rows an index of sql_index.c keeps, shared with the lookups of
 * sql_lookup.c: one index is built in one file and read in the other. */
#ifndef TG_SQL_INDEX_ROWS_H
#define TG_SQL_INDEX_ROWS_H

#include "sql/sql_internal.h"

#define SQL_WALK_GROUPS 16 /* a GROUP BY of at most this many keys walks the rows per group */

/* A kept column: each row's value as bits (an integer, a real's bits, a text's offset), in
 * 32 bits while the values allow it, else 64; its type apart only once the column holds two
 * types.  In 32 bits a row holds its bits less its block's base (the block's first value less
 * 2^31, so times and durations near each other fit); a row too far from it (a long call's
 * start among short ones) holds SQL_FAR and its bits are among the exceptions, by row.  A
 * real, or too many exceptions, widens the column to 64 bits. */
#define SQL_BLOCK_ROWS 4096
#define SQL_FAR UINT32_MAX

struct far_bits {
    size_t row;
    uint64_t bits;
};

struct kept_col {
    void *val; /* uint32_t[] or (wide) uint64_t[] */
    bool wide;
    uint8_t uniform; /* the type of every value while types is NULL (0: no value yet) */
    uint8_t *types;
    uint64_t *base;       /* narrow: each block's base */
    struct far_bits *far; /* narrow: the rows holding SQL_FAR, in row order */
    size_t n_far, cap_far;
};

/* The bits of a row that holds SQL_FAR (sql_index.c). */
uint64_t sql_col_far(const struct kept_col *k, size_t r);

static inline uint64_t col_bits(const struct kept_col *k, size_t r)
{
    if (k->wide)
        return ((const uint64_t *)k->val)[r];
    uint32_t v = ((const uint32_t *)k->val)[r];
    if (__builtin_expect(v == SQL_FAR, 0))
        return sql_col_far(k, r);
    return k->base[r / SQL_BLOCK_ROWS] + v;
}

static inline int col_type(const struct kept_col *k, size_t r)
{
    return k->types ? k->types[r] : k->uniform;
}

#define SQL_TEXTS_SEEN 64 /* texts remembered by their pointer while an index is built */

struct text_seen {
    const char *s;
    int64_t at; /* its offset among the index's texts */
};

struct sql_index {
    const sql_table *table;
    int key;                   /* the column looked up, or grouped by */
    uint64_t cols;             /* the columns kept (bit i: column i) */
    int8_t kept[SQL_MAX_COLS]; /* their numbers */
    int n_kept;
    bool grouped;  /* every row in order[], for a GROUP BY (else the integer keys, for lookups) */
    size_t n, cap; /* rows */
    size_t bytes, limit;
    /* in memory: per kept column, each row's value */
    struct kept_col col[SQL_MAX_COLS];
    char *text; /* the texts, NUL-terminated, each once */
    size_t n_text, cap_text;
    tg_hash text_index;
    struct text_seen seen[SQL_TEXTS_SEEN];
    uint32_t *order; /* the rows with an integer key, by key then row */
    size_t n_order;
    uint32_t *bucket; /* dense keys: order[bucket[k - lo] .. bucket[k - lo + 1]) hold key k */
    bool direct;      /* dense keys met once each (ids): order[k - lo] is key k's row or ~0 */
    int64_t lo, hi;
    bool walking; /* a GROUP BY of few keys: no order[], each group a walk of the rows */
    int64_t walk[SQL_WALK_GROUPS]; /* its keys in SQLite's order, after the NULLs when walk_null */
    size_t n_walk;
    bool walk_null;
    uint8_t *walk_group; /* each row's group: its key's place in walk[] (+ walk_null), 0 for a
                          * NULL key when walk_null, UINT8_MAX for a row in no group */
    uint32_t *others;    /* rows whose key is no integer and not NULL, in row order */
    size_t n_others, cap_others;
    /* spilled: the rows in a temporary database */
    sqlite3 *spill;
    sqlite3_stmt *insert;
};

/* The value of kept column col at row r, as the table gave it. */
sql_val sql_index_stored(const struct sql_index *ix, int col, size_t r);

/* How a row's key sorts: its class first (the order a GROUP BY's groups come in), then its
 * value (an integer, a real's bits, a text's offset: texts are kept once, so equal texts
 * have one offset).  A real that is an integer is that integer, as SQLite compares them. */
enum { KEY_NULL, KEY_INT, KEY_REAL, KEY_TEXT };
int sql_index_key_class(const struct sql_index *ix, size_t r, int64_t *k);

#endif
