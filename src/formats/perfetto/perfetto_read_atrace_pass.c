/* perfetto_read_atrace_pass.c - atrace's slices from the ftrace events that write them (print,
 * tracing_mark_write, sde_tracing_mark_write), made once every packet is read, in time order.
 *
 * The events of a trace's CPUs come in bundles, one CPU's at a time, so file order is not
 * time order: a slice begun on one CPU may end on another, in a bundle written before.  As
 * trace_processor does, the begins and ends pair in time order, so the records are sorted
 * first (by time, then file order) and the slices are made from them then; each slice record
 * takes the place right after the event that made it.
 *
 * Where Perfetto's ftrace data starts: each CPU's first bundle says from when that CPU's
 * stream is whole (previous_bundle_end_timestamp; last_read_event_timestamp before Perfetto
 * v47), and before the latest of those times some CPU's events may be missing, as after a
 * ring buffer wrapped.  trace_processor keeps the events before it in ftrace_event (raw) but
 * draws nothing from them; here no atrace slice begins or ends before it (the scheduler's
 * events before it still reach the kernel model). */
#include "formats/perfetto/perfetto_read_internal.h"

#include <stdlib.h>

enum { PF_PRINT_BUF = 2 };

static int compare_records(const void *a, const void *b)
{
    const pf_record *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

int pf_ftrace_bundle_start(pf_trace *p, uint32_t cpu, uint64_t valid_from)
{
    uint64_t *slot;
    int added = tg_hash_insert(&p->first_bundle_cpus, cpu, &slot);
    if (added < 0)
        return TG_ERR_NOMEM;
    if (added && valid_from && valid_from <= INT64_MAX &&
        (int64_t)valid_from > p->ftrace_data_start)
        p->ftrace_data_start = (int64_t)valid_from;
    return 0;
}

/* The slice record r makes (0 when none), appended to the records. */
static int slices_of(tg_trace *t, const pf_record *r)
{
    const ProtobufCMessageDescriptor *d = r->cls ? r->cls->fmt_data : NULL;
    if (d == &perfetto_read__print_ftrace_event__descriptor) {
        const uint8_t *q = r->data, *end = r->data + r->size;
        pf_wire w;
        while (pf_wire_next(&q, end, &w) > 0)
            if (w.field == PF_PRINT_BUF && w.type == 2)
                return pf_atrace(t, r->ts, r->tid, (const char *)w.bytes, w.len, r->offset);
        return 0;
    }
    if (d == &perfetto_read__sde_tracing_mark_write_ftrace_event__descriptor ||
        d == &perfetto_read__tracing_mark_write_ftrace_event__descriptor)
        return pf_atrace_mark(t, d, r->data, r->size, r->ts, r->tid, r->offset);
    return 0;
}

int pf_atrace_pass(tg_trace *t)
{
    pf_trace *p = t->priv;
    if (!p->n_atrace_events)
        return 0;
    if (p->n_recs > 1)
        qsort(p->recs, p->n_recs, sizeof *p->recs, compare_records);
    /* room between the records' places for the slices they make */
    size_t n = p->n_recs;
    for (size_t i = 0; i < n; i++)
        p->recs[i].order = (uint64_t)i * 2;
    for (size_t i = 0; i < n; i++) {
        pf_record r = p->recs[i]; /* the array may move as slices are added */
        if (r.ts < p->ftrace_data_start)
            continue;
        size_t before = p->n_recs;
        int rc = slices_of(t, &r);
        if (rc < 0)
            return rc;
        for (size_t k = before; k < p->n_recs; k++)
            p->recs[k].order = r.order + 1;
    }
    p->order = (uint64_t)n * 2;
    return 0;
}
