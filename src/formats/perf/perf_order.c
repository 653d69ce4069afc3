/* perf_order.c - the events of a perf.data file, in the order perf delivers them.
 *
 * `perf record` writes each CPU's ring buffer as it drains it, so the data section is in
 * time order only round by round: after each pass over the buffers it writes a
 * FINISHED_ROUND record.  perf's readers (perf script, perf report) queue every record that
 * has a time (tools/perf/util/ordered-events.c), and at each FINISHED_ROUND deliver, in time
 * order (records of equal time in file order), those not later than the newest time seen
 * before the previous round ended; the rest at the end of the file.  A record without a
 * time (no sample_id_all) is delivered at once.  This stream does exactly that, with a
 * queue as long as perf's (two rounds of records), so memory is bounded by a round, not by
 * the file.  A queued record is 32 bytes: its time, its arrival and where it lies. */
#include "formats/perf/perf_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct perf_ref {
    uint64_t ts, seq, pos;
    uint32_t seg;
} perf_ref;

typedef struct perf_walker {
    perf_file *pf;
    size_t seg;
    uint64_t pos;
    perf_ref *pending; /* queued, sorted at each round */
    size_t n_pending, cap_pending;
    perf_ref *ready; /* delivered in this order */
    size_t n_ready, cap_ready, ready_pos;
    uint64_t next_flush, max_ts, seq;
    int64_t last_ts;
    bool ended, reported;
} perf_walker;

static int ref_cmp(const void *a, const void *b)
{
    const perf_ref *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int push(perf_ref **v, size_t *n, size_t *cap, const perf_ref *r)
{
    TG_TRY(tg_grow(v, cap, *n + 1, sizeof **v));
    (*v)[(*n)++] = *r;
    return 0;
}

/* Moves the queued records not later than limit to the ready list, in time order. */
static int flush(perf_walker *w, uint64_t limit)
{
    if (!w->n_pending)
        return 0;
    qsort(w->pending, w->n_pending, sizeof *w->pending, ref_cmp);
    size_t k = 0;
    while (k < w->n_pending && w->pending[k].ts <= limit)
        k++;
    TG_TRY(tg_grow(&w->ready, &w->cap_ready, w->n_ready + k, sizeof *w->ready));
    memcpy(w->ready + w->n_ready, w->pending, k * sizeof *w->pending);
    w->n_ready += k;
    memmove(w->pending, w->pending + k, (w->n_pending - k) * sizeof *w->pending);
    w->n_pending -= k;
    return 0;
}

/* The span of the record at p: its size, and a HEADER_TRACING_DATA record's data after it. */
static uint64_t record_span(const perf_file *pf, const uint8_t *p, uint32_t type, size_t size)
{
    if (type == PERF_REC_HEADER_TRACING_DATA && size >= 12)
        return size + ((perf_u32(pf, p + 8) + 7ull) & ~7ull);
    return size;
}

/* The time of an event record (UINT64_MAX: none). */
static uint64_t record_time(const perf_file *pf, const uint8_t *p, uint32_t type, size_t size)
{
    uint64_t t, id;
    int32_t cpu, pid, tid;
    if (type == PERF_REC_SAMPLE) {
        const perf_attr *a = perf_sample_attr(pf, p, size);
        perf_sample s;
        if (!a || !(a->sample_type & PERF_ST_TIME) ||
            perf_sample_parse(pf, a, p + 8, size - 8, &s) < 0)
            return UINT64_MAX;
        return s.time;
    }
    perf_sample_id(pf, p, size, &t, &id, &cpu, &pid, &tid);
    return t;
}

/* Reads records until one is ready (1), or the data ends (0). */
static int fill(perf_walker *w)
{
    perf_file *pf = w->pf;
    while (w->ready_pos >= w->n_ready) {
        w->ready_pos = w->n_ready = 0;
        if (w->ended) {
            if (!w->n_pending)
                return 0;
            TG_TRY(flush(w, UINT64_MAX));
            continue;
        }
        if (w->seg >= pf->n_segs) {
            w->ended = true;
            continue;
        }
        const perf_segment *sg = &pf->segs[w->seg];
        if (w->pos < sg->start)
            w->pos = sg->start;
        if (w->pos >= sg->end) {
            w->seg++;
            w->pos = 0;
            continue;
        }
        const uint8_t *p = perf_segment_base(pf, sg) + w->pos;
        uint32_t type = perf_u32(pf, p);
        size_t size = perf_u16(pf, p + 6);
        perf_ref r = {0, w->seq++, w->pos, (uint32_t)w->seg};
        w->pos += record_span(pf, p, type, size);
        if (type == PERF_REC_FINISHED_ROUND) {
            TG_TRY(flush(w, w->next_flush));
            w->next_flush = w->max_ts;
            continue;
        }
        if (type == 0 || type >= PERF_REC_KERNEL_MAX)
            continue; /* perf's own records: read at open */
        r.ts = record_time(pf, p, type, size);
        if (r.ts == UINT64_MAX) {
            TG_TRY(push(&w->ready, &w->n_ready, &w->cap_ready, &r));
            continue;
        }
        if (r.ts > w->max_ts)
            w->max_ts = r.ts;
        TG_TRY(push(&w->pending, &w->n_pending, &w->cap_pending, &r));
    }
    return 1;
}

static int walker_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    perf_walker *w = s->priv;
    perf_file *pf = w->pf;
    int rc = fill(w);
    if (rc < 0)
        return tg_err(err, rc, "out of memory");
    if (rc == 0) {
        if (pf->open_errors && !w->reported) {
            /* the damage found at open, after the events before it (once) */
            w->reported = true;
            int status = tg_error_status(pf->open_errors);
            if (err) {
                *err = pf->open_errors;
                pf->open_errors = NULL;
            }
            return status;
        }
        return 0;
    }
    const perf_ref *r = &w->ready[w->ready_pos++];
    const perf_segment *sg = &pf->segs[r->seg];
    const uint8_t *p = perf_segment_base(pf, sg) + r->pos;
    uint32_t type = perf_u32(pf, p);
    size_t size = perf_u16(pf, p + 6);
    ev->data = p;
    ev->size = size;
    ev->offset = sg->inflated ? sg->file_offset : r->pos;
    ev->aux[PERF_AUX_TYPE] = type;
    ev->aux[PERF_AUX_MISC] = perf_u16(pf, p + 4);
    ev->cpu_mode = (uint8_t)(ev->aux[PERF_AUX_MISC] & PERF_MISC_CPUMODE_MASK);
    ev->cpu = ev->pid = ev->tid = -1;
    ev->depth = -1;
    ev->lost = 0;
    if (r->ts != UINT64_MAX)
        w->last_ts = (int64_t)r->ts;
    ev->ts = w->last_ts;
    if (type == PERF_REC_SAMPLE) {
        const perf_attr *a = perf_sample_attr(pf, p, size);
        ev->aux[PERF_AUX_ATTR] = (uint64_t)(a - pf->attrs);
        ev->cls = a->cls;
        perf_sample smp;
        if (perf_sample_parse(pf, a, p + 8, size - 8, &smp) == 0) {
            if (a->sample_type & PERF_ST_TID) {
                ev->pid = (int32_t)smp.pid;
                ev->tid = (int32_t)smp.tid;
            }
            if (a->sample_type & PERF_ST_CPU)
                ev->cpu = (int32_t)smp.cpu;
            ev->addr = smp.ip;
        }
        return 1;
    }
    ev->cls = pf->rec_cls[type];
    uint64_t t, id;
    perf_sample_id(pf, p, size, &t, &id, &ev->cpu, &ev->pid, &ev->tid);
    switch (type) {
    case PERF_REC_MMAP:
    case PERF_REC_MMAP2:
    case PERF_REC_COMM:
    case PERF_REC_ITRACE_START:
        if (size >= 16) {
            ev->pid = (int32_t)perf_u32(pf, p + 8);
            ev->tid = (int32_t)perf_u32(pf, p + 12);
        }
        break;
    case PERF_REC_FORK:
    case PERF_REC_EXIT:
        if (size >= 20) {
            ev->pid = (int32_t)perf_u32(pf, p + 8);
            ev->tid = (int32_t)perf_u32(pf, p + 16);
        }
        break;
    case PERF_REC_LOST:
        if (size >= 24)
            ev->lost = perf_u64(pf, p + 16);
        break;
    case PERF_REC_LOST_SAMPLES:
        if (size >= 16)
            ev->lost = perf_u64(pf, p + 8);
        break;
    default: break;
    }
    return 1;
}

static int walker_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    perf_walker *w = s->priv;
    w->seg = 0;
    w->pos = 0;
    w->n_pending = w->n_ready = w->ready_pos = 0;
    w->next_flush = w->max_ts = w->seq = 0;
    w->last_ts = 0;
    w->ended = w->reported = false;
    return 0;
}

static void walker_destroy(tg_stream *s)
{
    perf_walker *w = s->priv;
    if (w) {
        free(w->pending);
        free(w->ready);
        free(w);
    }
    s->priv = NULL;
}

static const struct tg_stream_ops walker_ops = {
    .next = walker_next,
    .field_count = perf_field_count,
    .field = perf_field,
    .render = perf_render,
    .destroy = walker_destroy,
    .rewind = walker_rewind,
    .events_independent = true, /* records stay in the map or the inflated buffer */
};

int perf_add_stream(perf_file *pf, tg_error **err)
{
    perf_walker *w = calloc(1, sizeof *w);
    if (!w)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    w->pf = pf;
    if (!tg_trace_add_stream(pf->trace, &walker_ops, "perf.data", -1, -1, w)) {
        free(w);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    return 0;
}
