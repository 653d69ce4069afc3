/* sql_row_order.h - hands out a table's rows in id order when their ids are taken at one
 * moment (a slice's when it begins) and their rows are known at another (when it ends).
 *
 * trace_processor numbers a slice when it begins and returns rows in id order; a scan knows a
 * slice's row only when it ends, innermost first.  An sql_row_order sits between the two: a
 * ring of the ids taken since the oldest one still open, each slot holding its row once known
 * (or nothing: a slice the query drops); rows leave in id order as soon as every id before
 * theirs is settled.  Memory is bounded by how far the ids run ahead of the oldest open slice,
 * and at most max_bytes: past that the oldest open id is given up (its row comes when it
 * ends, after rows of later ids: counted in `late`), so a call open the whole recording (a
 * uftrace main) costs a window, not the trace.  When the order cannot be seen (count(*), a
 * per-name sum), rows go out as they come. */
#ifndef TG_SQL_ROW_ORDER_H
#define TG_SQL_ROW_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sql_row_order {
    size_t elem;         /* a row's size in bytes */
    size_t max_slots;    /* the ring's cap (a power of two) */
    bool in_order;       /* false: rows go out as they are put */
    int64_t base, next;  /* the ids of the ring: [base, next) */
    unsigned char *rows; /* the ring's rows: id's at (id & (n_slots - 1)) * elem */
    uint8_t *state;      /* the ring's slots: open, row, none */
    size_t n_slots;
    unsigned char *out; /* rows released, not yet handed out: out[head..n) */
    size_t head, n, cap_out;
    int64_t late; /* rows handed out after rows of later ids (the window was full) */
} sql_row_order;

/* Starts o for rows of elem bytes, in id order unless in_order is false; the ring holds at
 * most max_bytes of rows (TG_SQL_SLICE_ORDER_MB in the environment overrides it). */
void sql_row_order_init(sql_row_order *o, size_t elem, bool in_order, size_t max_bytes);
void sql_row_order_free(sql_row_order *o);

/* The next id; open: a row (or none) comes for it later by sql_row_order_put, else it is no
 * row.  A negative status when out of memory. */
int64_t sql_row_order_take(sql_row_order *o, bool open);

/* The row of id, copied (NULL: id turned out to be no row).  0 or a negative status. */
int sql_row_order_put(sql_row_order *o, int64_t id, const void *row);

/* Releases every row held (the ids still open are no rows): the end of the scan. */
int sql_row_order_flush(sql_row_order *o);

/* The next row to hand out, valid until the next call on o; NULL when none is released. */
const void *sql_row_order_pop(sql_row_order *o);

#endif
