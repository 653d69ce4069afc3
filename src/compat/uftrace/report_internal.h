/* report_internal.h - what the files of uftrace's report share: the accumulator of one
 * report (rows, stack rules, the caches in front of the reader's symbols) and the steps on
 * it.  report_uftrace.c runs it unfiltered (its inline paths and the per-thread workers),
 * report_filter.c under uftrace's filters. */
#ifndef TG_REPORT_INTERNAL_H
#define TG_REPORT_INTERNAL_H

#include "analysis/callstack.h"
#include "compat/uftrace/report_rows.h"
#include "core/consumer.h"

/* A small cache from symbol pointer to row: names repeat millions of times. */
struct rep {
    uf_state st;
    struct table tb;
    const struct uf_report_fmt *fmt;
    struct {
        const char *name;
        uint64_t addr;
        struct row *row;
    } cache[1024];
    struct { /* function address -> its name, per trace */
        uint64_t addr;
        const void *trace;
        const char *name;
        struct row *row; /* the row of exits at this address (NULL: not yet) */
        bool set;
        uint8_t fixup; /* uf_fixup_kind of the name */
    } names[4096];
    size_t last_h; /* slot of the previous record's address */
    /* the size column: each function's symbol size by address, and per thread (its
     * uf_task order) the size of the function its last entry or exit named, which uftrace
     * gives linux:schedule */
    tg_hash sizes;
    uint64_t *task_size;
    size_t task_size_cap;
};

/* other: the run report --diff compares with (read whole, as uftrace reads it there). */
struct rep *uf_rep_new(const tg_options *opts, const struct uf_report_fmt *fmt, bool other);
void uf_rep_free(struct rep *p);
/* The symbol of a function entry/exit, asked of the reader once per address. */
const char *uf_rep_name(struct rep *p, const tg_event *ev);
/* The frame just ended (t->frames[t->stack_count]) added to its row. */
int uf_rep_account(struct rep *p, uf_task *t, const char *name, uint64_t addr);
/* The size column: the record's symbol size, by address and as its thread's last. */
int uf_rep_note_size(struct rep *p, uf_task *t, const tg_event *ev);
/* Frames still open at the end: closed at their thread's last record. */
int uf_rep_finish(struct rep *p);

/* The report's rows under uftrace's filters (report_filter.c), into tb as
 * uf_report_table fills it; other: the other run of report --diff (read as uftrace reads
 * it there, events outside functions too). */
int uf_report_filtered(tg_set *set, tg_iter *it, const tg_options *opts,
                       const struct uf_report_fmt *fmt, uf_filter *filter, bool other,
                       struct table *tb, tg_error **err);

#endif
