/* sql_row_order.h - hands out a table's rows in id order when their ids are taken at one
 * moment (a slice's when it begins) and their rows are known at another (when it ends).
 *
 * trace_processor numbers a slice when it begins and returns rows in id order; a scan knows a
 * slice's row only when it ends, innermost first.  An sql_row_order sits between the two: a
 * ring of the ids taken since the oldest one not handed out, each slot holding its row once
 * known (or nothing: a slice the query drops); rows leave in id order, straight from the ring,
 * as soon as every id before theirs is settled.  Memory is bounded by how far the ids run
 * ahead of the oldest open slice, and at most max_bytes: past that the oldest open id is given
 * up (its row comes when it ends, after rows of later ids: counted in `late`), so a call open
 * the whole recording (a uftrace main) costs a window, not the trace.  When the order cannot
 * be seen (count(*), a per-name sum), rows go out as they come. */
#ifndef TG_SQL_ROW_ORDER_H
#define TG_SQL_ROW_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sql_row_order {
    size_t elem;         /* a row's size in bytes */
    size_t max_slots;    /* the ring's cap (a power of two) */
    bool in_order;       /* false: rows go out as they are put */
    int64_t out;         /* the ring's ids: [out, base) settled, to hand out; */
    int64_t base, next;  /* [base, next) the window, some still open */
    unsigned char *rows; /* the ring's rows: id's at (id & (n_slots - 1)) * elem */
    uint8_t *state;      /* the ring's slots: open, row, none */
    size_t n_slots;
    unsigned char *queue;      /* rows out of the ring (late, or no order kept): queue[head..n), */
    size_t head, n, cap_queue; /* handed out before the ring's */
    int64_t late;              /* rows handed out after rows of later ids (the window was full) */
} sql_row_order;

/* Starts o for rows of elem bytes, in id order unless in_order is false; the ring holds at
 * most max_bytes of rows (TG_SQL_SLICE_ORDER_MB in the environment overrides it). */
void sql_row_order_init(sql_row_order *o, size_t elem, bool in_order, size_t max_bytes);
void sql_row_order_free(sql_row_order *o);

int64_t sql_row_order_take_in_order(sql_row_order *o, bool open);
bool sql_row_order_settled(sql_row_order *o);

/* The next id; open: a row (or none) comes for it later by sql_row_order_slot or
 * sql_row_order_drop, else it is no row.  A negative status when out of memory. */
static inline int64_t sql_row_order_take(sql_row_order *o, bool open)
{
    return o->in_order ? sql_row_order_take_in_order(o, open) : o->next++;
}

/* Where the row of id is to be written (elem bytes, before the next call on o); NULL when
 * out of memory. */
void *sql_row_order_slot_slow(sql_row_order *o, int64_t id);
static inline void *sql_row_order_slot(sql_row_order *o, int64_t id)
{
    if (!o->in_order) { /* no order kept: the queue's tail, when it has room */
        if (o->head == o->n)
            o->head = o->n = 0;
        if ((o->n + 1) * o->elem <= o->cap_queue)
            return o->queue + o->elem * o->n++;
    }
    return sql_row_order_slot_slow(o, id);
}

/* id turned out to be no row. */
void sql_row_order_drop(sql_row_order *o, int64_t id);

/* Releases every row held (the ids still open are no rows): the end of the scan. */
void sql_row_order_flush(sql_row_order *o);

/* Whether a row is released and waits for sql_row_order_pop. */
static inline bool sql_row_order_ready(sql_row_order *o)
{
    return o->head < o->n || (o->out < o->base && sql_row_order_settled(o));
}

const void *sql_row_order_pop_ring(sql_row_order *o);

/* The next row to hand out, valid until the next call on o; NULL when none is released. */
static inline const void *sql_row_order_pop(sql_row_order *o)
{
    return o->head < o->n ? o->queue + o->elem * o->head++ : sql_row_order_pop_ring(o);
}

#endif
