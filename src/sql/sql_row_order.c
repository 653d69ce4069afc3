/* sql_row_order.c - a window of ids that releases their rows in id order (see the header).
 *
 * The ring grows by doubling from a few slots to max_slots, so a trace whose slices nest
 * shallowly keeps a small one; a slot is settled once its row (or its absence) is known, and
 * the settled slots at the window's start are handed out from where they are: the caller
 * writes a row into its slot, and nothing copies it again.  Rows that cannot wait in the ring (a given-up id's, or every
 * row when no order is kept) go to a queue handed out first; the ring's released rows move to
 * the queue before one of them is added, so rows leave in the order they were released. */
#include "sql/sql_row_order.h"

#include "core/grow.h"
#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

enum { SLOT_OPEN, SLOT_ROW, SLOT_NONE };

#define ORDER_MIN_SLOTS 64

void sql_row_order_init(sql_row_order *o, size_t elem, bool in_order, size_t max_bytes)
{
    *o = (sql_row_order){.elem = elem, .in_order = in_order};
    const char *env = getenv("TG_SQL_SLICE_ORDER_MB");
    if (env && *env) {
        char *end;
        unsigned long mb = strtoul(env, &end, 10);
        if (!*end)
            max_bytes = (size_t)mb << 20;
    }
    size_t slots = ORDER_MIN_SLOTS;
    while (slots * 2 * elem <= max_bytes)
        slots *= 2;
    o->max_slots = slots;
}

void sql_row_order_free(sql_row_order *o)
{
    free(o->rows);
    free(o->state);
    free(o->queue);
    *o = (sql_row_order){0};
}

/* A new row at the queue's tail; NULL when out of memory. */
static void *queue_slot(sql_row_order *o)
{
    if (o->head == o->n)
        o->head = o->n = 0;
    if (tg_grow(&o->queue, &o->cap_queue, (o->n + 1) * o->elem, 1) < 0)
        return NULL;
    return o->queue + o->elem * o->n++;
}

/* Moves the ring's released rows to the queue (before a row that must follow them). */
static int queue_released(sql_row_order *o)
{
    size_t mask = o->n_slots - 1;
    for (; o->out < o->base; o->out++) {
        size_t at = (size_t)o->out & mask;
        void *to = o->state[at] == SLOT_ROW ? queue_slot(o) : NULL;
        if (to)
            memcpy(to, o->rows + at * o->elem, o->elem);
        else if (o->state[at] == SLOT_ROW)
            return TG_ERR_NOMEM;
    }
    return 0;
}

/* Releases the settled slots at the window's start, up to the first open one (force: that
 * one too, given up: its row will come late). */
static void release(sql_row_order *o, bool force)
{
    size_t mask = o->n_slots - 1;
    while (o->base < o->next) {
        if (o->state[(size_t)o->base & mask] == SLOT_OPEN) {
            if (!force)
                break;
            o->late++;
        }
        o->base++;
        force = false;
    }
}

/* Doubles the ring, each id not handed out moving to its slot in the larger one. */
static int widen(sql_row_order *o)
{
    size_t n = o->n_slots ? o->n_slots * 2 : ORDER_MIN_SLOTS;
    unsigned char *rows = malloc(n * o->elem);
    uint8_t *state = malloc(n);
    if (!rows || !state) {
        free(rows);
        free(state);
        return TG_ERR_NOMEM;
    }
    for (int64_t id = o->out; id < o->next; id++) {
        size_t from = (size_t)id & (o->n_slots - 1), to = (size_t)id & (n - 1);
        state[to] = o->state[from];
        if (o->state[from] == SLOT_ROW)
            memcpy(rows + to * o->elem, o->rows + from * o->elem, o->elem);
    }
    free(o->rows);
    free(o->state);
    o->rows = rows;
    o->state = state;
    o->n_slots = n;
    return 0;
}

int64_t sql_row_order_take_in_order(sql_row_order *o, bool open)
{
    if (!open && o->out == o->next) {
        o->out = o->base = ++o->next; /* nothing held: no slot needed */
        return o->next - 1;
    }
    if ((size_t)(o->next - o->out) == o->n_slots) {
        if (o->n_slots < o->max_slots) {
            if (widen(o) < 0)
                return TG_ERR_NOMEM;
        } else {
            if (o->out == o->base)
                release(o, true);     /* the oldest open id given up: pop skips its slot */
            sql_row_order_settled(o); /* out past the slots that hold no row */
            if ((size_t)(o->next - o->out) == o->n_slots && queue_released(o) < 0)
                return TG_ERR_NOMEM; /* released rows not handed out leave the ring */
        }
    }
    o->state[(size_t)o->next & (o->n_slots - 1)] = open ? SLOT_OPEN : SLOT_NONE;
    return o->next++;
}

void *sql_row_order_slot_slow(sql_row_order *o, int64_t id)
{
    if (!o->in_order || id < o->base) { /* out of the window: given up, or no order kept */
        if (o->in_order && queue_released(o) < 0)
            return NULL;
        return queue_slot(o);
    }
    size_t at = (size_t)id & (o->n_slots - 1);
    o->state[at] = SLOT_ROW;
    if (id == o->base)
        release(o, false);
    return o->rows + at * o->elem;
}

void sql_row_order_drop(sql_row_order *o, int64_t id)
{
    if (!o->in_order || id < o->base)
        return;
    o->state[(size_t)id & (o->n_slots - 1)] = SLOT_NONE;
    if (id == o->base)
        release(o, false);
}

void sql_row_order_flush(sql_row_order *o)
{
    if (o->in_order)
        o->base = o->next; /* the ids still open are no rows: pop skips them */
}

/* Moves out past the released slots that hold no row; whether a row is then at out. */
bool sql_row_order_settled(sql_row_order *o)
{
    size_t mask = o->n_slots - 1;
    while (o->out < o->base && o->state[(size_t)o->out & mask] != SLOT_ROW)
        o->out++;
    return o->out < o->base;
}

const void *sql_row_order_pop_ring(sql_row_order *o)
{
    if (!sql_row_order_ready(o))
        return NULL;
    return o->rows + ((size_t)o->out++ & (o->n_slots - 1)) * o->elem;
}
