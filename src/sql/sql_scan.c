/* sql_scan.c - one pass over the merged events for the SQL tables.
 *
 * A pass takes a set from the database's pool (a stream has one read position, so two
 * passes at once need two sets) and reads it through the one cursor, with the database's
 * filter, its cursor feeding the database's kernel model (which gives each event its
 * thread and writes its tables only at the frontier: the first pass to get that far).  It
 * counts the events it hands out, so an event's ordinal is the same in every pass, and
 * tells the registry about each event at the frontier.  When a pass ends or stops, the damage its cursor met joins
 * the database's errors, each message once. */
#include "sql/sql_internal.h"

#include <stdlib.h>

int sql_scan_open(sql_db *db, sql_scan *s)
{
    *s = (sql_scan){.db = db, .ordinal = -1};
    tg_error *err = NULL;
    s->set = sql_pool_take(db, &err);
    if (!s->set)
        return sql_fail(db, err ? tg_error_status(err) : TG_ERR_NOMEM, err);
    s->it = tg_iter_new(s->set, db->filter, &err);
    if (s->it && tg_iter_use_kernel_model(s->it, db->model) < 0) {
        tg_iter_free(s->it);
        s->it = NULL;
    }
    if (!s->it) {
        sql_pool_give(db, s->set);
        s->set = NULL;
        return sql_fail(db, err ? tg_error_status(err) : TG_ERR_NOMEM, err);
    }
    return 0;
}

int sql_scan_next(sql_scan *s, const tg_event **ev)
{
    if (s->ended)
        return 0;
    int rc = tg_iter_next(s->it, ev);
    if (rc <= 0) {
        s->ended = true;
        sql_db *db = s->db;
        if (!db->complete && s->ordinal + 1 == db->seen) {
            db->complete = true;
            db->last_ns = s->last_ns;
        }
        return rc;
    }
    s->ordinal++;
    s->last_ns = tg_event_time_ns(*ev);
    if (s->ordinal == s->db->seen &&
        (rc = sql_registry_see(s->db, *ev, s->ordinal, s->last_ns)) < 0)
        return sql_fail(s->db, rc, NULL);
    return 1;
}

void sql_scan_close(sql_scan *s)
{
    if (s->it) {
        sql_keep_errors(s->db, tg_iter_errors(s->it));
        tg_iter_free(s->it);
    }
    if (s->set)
        sql_pool_give(s->db, s->set);
    s->it = NULL;
    s->set = NULL;
}
