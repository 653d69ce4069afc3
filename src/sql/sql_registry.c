/* sql_registry.c - what the SQL tables know beyond one pass: the kernel model every pass
 * feeds (threads, processes, tracks: core/kernel_model.h, which numbers them alike in every
 * pass, so the numbers do not depend on which table was read first or how far), the counts
 * of the events (trace_bounds, stats) kept by the pass at the frontier, and what the sched
 * tables read of each event class. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- classes ------------------------------------------------------------------------------- */

/* The class name without its system or provider ("sched_switch" of "sched:sched_switch"). */
static const char *base_name(const char *name)
{
    const char *p = strrchr(name, ':');
    const char *q = strrchr(name, '.');
    if (q && (!p || q > p))
        p = q;
    return p ? p + 1 : name;
}

static enum sql_role role_of_name(const char *name)
{
    const char *b = base_name(name);
    if (strcmp(b, "sched_switch") == 0 || strcmp(b, "sched_schedule") == 0)
        return SQL_ROLE_SWITCH;
    if (strcmp(b, "sched_wakeup") == 0 || strcmp(b, "sched_wakeup_new") == 0 ||
        strcmp(b, "sched_waking") == 0 || strcmp(b, "sched_try_wakeup") == 0 ||
        strcmp(b, "sched_wakeup_new_task") == 0)
        return SQL_ROLE_WAKEUP;
    return SQL_ROLE_NONE;
}

static const struct {
    enum sql_field f;
    const char *a, *b; /* the field's names: ftrace's, LTTng's */
} field_names[] = {
    {SQL_F_PREV_TID, "prev_pid", "prev_tid"},
    {SQL_F_PREV_COMM, "prev_comm", NULL},
    {SQL_F_PREV_PRIO, "prev_prio", NULL},
    {SQL_F_PREV_STATE, "prev_state", NULL},
    {SQL_F_NEXT_TID, "next_pid", "next_tid"},
    {SQL_F_NEXT_COMM, "next_comm", NULL},
    {SQL_F_NEXT_PRIO, "next_prio", NULL},
    {SQL_F_TID, "pid", "tid"},
    {SQL_F_COMM, "comm", NULL},
};

const sql_class *sql_class_of(sql_db *db, const tg_event *ev)
{
    static const sql_class none = {.role = SQL_ROLE_NONE};
    if (!ev->cls)
        return &none;
    size_t n = ev->cls->number;
    if (n >= db->n_classes && tg_grow_zeroed(&db->classes, &db->n_classes, &db->cap_classes, n + 1,
                                             sizeof *db->classes) < 0)
        return &none;
    sql_class *c = &db->classes[n];
    if (c->role != SQL_ROLE_UNKNOWN)
        return c;
    c->role = (uint8_t)role_of_name(ev->cls->name);
    for (size_t k = 0; k < SQL_F_COUNT; k++)
        c->field[k] = -1;
    if (c->role == SQL_ROLE_NONE)
        return c;
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count && i < 127; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !v.name)
            continue;
        for (size_t k = 0; k < sizeof field_names / sizeof *field_names; k++)
            if (strcmp(v.name, field_names[k].a) == 0 ||
                (field_names[k].b && strcmp(v.name, field_names[k].b) == 0))
                c->field[field_names[k].f] = (int8_t)i;
    }
    return c;
}

int sql_registry_init(sql_db *db)
{
    db->model = tg_kmodel_new(db->set);
    return db->model ? 0 : TG_ERR_NOMEM;
}

void sql_registry_free(sql_db *db)
{
    tg_kmodel_free(db->model);
    free(db->classes);
}

int64_t sql_int_field(const tg_event *ev, int index)
{
    tg_value v;
    int64_t x;
    return index >= 0 && tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)index, &v) == 0 &&
                   tg_value_int(&v, &x)
               ? x
               : SQL_ANY;
}

int sql_registry_see(sql_db *db, const tg_event *ev, int64_t ordinal, int64_t ts)
{
    db->seen = ordinal + 1;
    if (db->n_events++ == 0)
        db->first_ns = ts;
    if (ev->cls && ev->cls->kind == TG_KIND_LOST) {
        db->n_lost_events++;
        db->lost_records += (int64_t)ev->lost;
    }
    return 0;
}

int sql_registry_complete(sql_db *db)
{
    if (db->complete)
        return 0;
    sql_scan s;
    int rc = sql_scan_open(db, &s);
    if (rc < 0)
        return rc;
    const tg_event *ev;
    /* behind the frontier there is nothing to do: skip to it */
    while ((rc = sql_scan_next(&s, &ev)) > 0)
        ;
    sql_scan_close(&s);
    return rc;
}
