/* report_filter.c - `uftrace report` under uftrace's filters (-F, -N, -C, -D, -t, -r,
 * --no-libcall; analysis/callstack_filter.h).
 *
 * The records go through the same stack rules as the unfiltered report, then through the
 * checks of uftrace's build_function_tree: an entry passes fstack_entry (the shown
 * functions: display depth, counts of -F and -N functions open, depth left), an exit is
 * accounted when its frame is shown (not a library call with --no-libcall), a sched-in when
 * events are shown, lost records end the shown frames above the user stack.  Filtered
 * functions still take their time out of their callers' self time, as in uftrace, and the
 * frames open at the end are all ended (at the time range's stop when there is one).  With
 * -t or -C a first pass over a twin of the set makes the reader-level decisions. */
#include "compat/uftrace/report_internal.h"
#include "core/cursor.h"
#include "core/error_internal.h"

#include <string.h>

static int feed(struct rep *p, uf_filter *f, const tg_event *ev)
{
    uf_rec r;
    uf_rec_from_event(ev, &r);
    uf_task *t = uf_task_get(&p->st, r.tid, r.pid);
    if (!t)
        return TG_ERR_NOMEM;
    uf_filter_task_init(f, t);
    if (r.type == UF_ENTRY || r.type == UF_EXIT) {
        r.name = uf_rep_name(p, ev);
        if (p->fmt->needs_size && uf_rep_note_size(p, t, ev) < 0)
            return TG_ERR_NOMEM;
    }
    if (uf_consume_fast(&p->st, t, &r)) /* hidden: outside any user function */
        return 0;
    if (f->no_sched && r.type == UF_EVENT && uf_kind_is_sched(r.kind))
        return 0;
    switch (r.type) {
    case UF_ENTRY:
        if (uf_filter_entry(&p->st, f, t, &r))
            uf_update_entry(&p->st, t);
        return 0;
    case UF_EXIT: {
        uf_frame *fr = uf_frame_at(&p->st, t, t->stack_count);
        if (!fr)
            return 0;
        int rc = 0;
        if (!(fr->fflags & UF_FF_NORECORD)) {
            uf_update_exit(t);
            if (!f->no_libcall || !uf_filter_is_libcall(ev))
                rc = uf_rep_account(p, t, r.name, r.addr);
        }
        uf_filter_exit(f, t, fr);
        return rc;
    }
    case UF_EVENT: {
        if (r.kind != TG_KIND_SCHED_IN || !uf_filter_event(f, t))
            return 0;
        const uf_frame *fr = uf_frame_at(&p->st, t, t->stack_count);
        /* a sched-in ending no frame a sched-out opened (a thread's first record, whose
         * frame only its depth made: the other run of --diff reads those) is no call */
        if (!fr || (p->st.event_full && fr->name != uf_schedule_name &&
                    fr->name != uf_schedule_preempted_name))
            return 0;
        return uf_rep_account(p, t,
                              fr->name == uf_schedule_preempted_name ? uf_schedule_preempted_name
                                                                     : uf_schedule_name,
                              0);
    }
    default: { /* LOST: the shown frames above the user stack end (add_lost_fstack) */
        int rc = 0;
        while (t->stack_count >= t->user_stack_count && rc >= 0) {
            uf_frame *fr = uf_frame_at(&p->st, t, t->stack_count);
            if (fr && fr->valid && !(fr->fflags & UF_FF_NORECORD))
                rc = uf_rep_account(p, t, fr->name, fr->addr);
            uf_filter_exit(f, t, fr);
            if (--t->stack_count < 0)
                break;
        }
        if (t->stack_count < 0)
            t->stack_count = 0;
        return rc;
    }
    }
}

/* Where open frames end with a time range: uftrace takes its stop as it was given, so an
 * elapsed stop (a few ms) ends none of them (sic); 0 when there is no stop. */
static int64_t range_stop(const uf_filter *f) { return (int64_t)f->range.stop; }

int uf_report_filtered(tg_set *set, tg_iter *it, const tg_options *opts,
                       const struct uf_report_fmt *fmt, uf_filter *filter, bool other,
                       struct table *tb, tg_error **err)
{
    int rc = uf_filter_bind(filter, set, err);
    if (rc < 0)
        return rc;
    if ((rc = uf_filter_prepass(filter, it, opts, err)) < 0)
        return rc;
    struct rep *p = uf_rep_new(opts, fmt, other);
    if (!p)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    p->st.perf_in_tasks = filter->time_filter > 0;
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0)
        if (uf_filter_keep(filter, ev) && (rc = feed(p, filter, ev)) < 0)
            break;
    if (rc >= 0) {
        p->st.finish_time = range_stop(filter);
        rc = uf_rep_finish(p);
    }
    if (rc == TG_ERR_NOMEM)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc >= 0) { /* the table is the caller's */
        *tb = p->tb;
        memset(&p->tb, 0, sizeof p->tb);
    }
    uf_rep_free(p);
    return rc < 0 ? rc : 0;
}
