/* record_run.h - handing out, as one stream, the records a reader read whole and sorted.
 *
 * The Perfetto, Chrome JSON and Gecko readers read their file whole, sort the records and
 * give them as one stream; each stops reading at the first damage and keeps it.  Their next()
 * asks tg_record_run_next() which record comes next: after the last it returns the damage,
 * once, so the events before it are delivered and the error follows them, as DESIGN.md asks.
 * tg_record_event() starts the event of such a record: zeroed, no CPU, no call depth. */
#ifndef TG_RECORD_RUN_H
#define TG_RECORD_RUN_H

#include "core/error_internal.h"
#include "core/event_model.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct tg_record_run {
    size_t next;
    bool damage_given;
} tg_record_run;

/* 1 with *at the next record's index; 0 at the end; past the last record, the damage's
 * error (once) when reading stopped at one. */
static inline int tg_record_run_next(tg_record_run *run, size_t n_recs, const tg_error *damage,
                                     size_t *at, tg_error **err)
{
    if (run->next < n_recs) {
        *at = run->next++;
        return 1;
    }
    if (damage && !run->damage_given) {
        run->damage_given = true;
        return tg_err(err, TG_ERR_FORMAT, "%s", tg_error_message(damage));
    }
    return 0;
}

static inline void tg_record_run_rewind(tg_record_run *run)
{
    run->next = 0;
    run->damage_given = false;
}

static inline void tg_record_event(tg_event *ev, tg_stream *s, int64_t ts,
                                   const tg_event_class *cls, int32_t pid, int32_t tid)
{
    memset(ev, 0, sizeof *ev);
    ev->ts = ts;
    ev->cls = cls;
    ev->stream = s;
    ev->cpu = -1;
    ev->pid = pid;
    ev->tid = tid;
    ev->depth = -1;
}

#endif
