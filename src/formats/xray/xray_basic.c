/* xray_basic.c - basic ("naive") mode XRay logs, versions 1-3.
 *
 * After the file header come fixed 32-byte records, written by each thread's buffer as it
 * fills, so a thread's records form runs in file order.  A function record is
 *   u16 record type (0) | u8 cpu | u8 type (0 enter, 1 exit, 2 tail exit, 3 enter with
 *   arguments) | i32 function id | u64 tsc | u32 tid | u32 pid (v3; padding before) | pad
 * and an argument record (record type 1) following its function record is
 *   u16 1 | 2 pad | i32 function id | u32 tid | u32 pid | u64 argument | pad.
 * Open indexes the runs of every (pid, tid) in one pass; each thread is one stream that walks
 * its runs, decoding in place.  Streams are created in the order their first record appears,
 * so the first event of stream 0 is the first record of the file, as llvm-xray loads it. */
#include "formats/xray/xray_internal.h"

#include "io/byte_reader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct basic_thread {
    uint32_t tid, pid;
    xray_run *runs;
    size_t n_runs, cap_runs;
    /* iteration */
    size_t run;
    uint64_t pos;
    xray_file *xf;
} basic_thread;

typedef struct thread_table {
    basic_thread **v;
    size_t n, cap;
    tg_hash by_id; /* (pid << 32 | tid) -> index into v */
} thread_table;

static basic_thread *table_get(thread_table *tt, uint32_t tid, uint32_t pid, xray_file *xf)
{
    uint64_t key = (uint64_t)pid << 32 | tid;
    uint64_t *index = tg_hash_find(&tt->by_id, key);
    if (index)
        return tt->v[*index];
    if (tg_grow(&tt->v, &tt->cap, tt->n + 1, sizeof *tt->v) < 0)
        return NULL;
    basic_thread *t = calloc(1, sizeof *t);
    if (!t || tg_hash_add(&tt->by_id, key, &index) < 0) {
        free(t);
        return NULL;
    }
    t->tid = tid;
    t->pid = pid;
    t->xf = xf;
    *index = tt->n;
    tt->v[tt->n++] = t;
    return t;
}

static int add_run(basic_thread *t, uint64_t start, uint64_t end)
{
    if (t->n_runs && t->runs[t->n_runs - 1].end == start) {
        t->runs[t->n_runs - 1].end = end;
        return 0;
    }
    if (t->n_runs == t->cap_runs)
        TG_TRY(tg_grow(&t->runs, &t->cap_runs, t->n_runs + 1, sizeof *t->runs));
    t->runs[t->n_runs].start = start;
    t->runs[t->n_runs].end = end;
    t->n_runs++;
    return 0;
}

static void basic_destroy(tg_stream *s)
{
    basic_thread *t = s->priv;
    if (t) {
        free(t->runs);
        free(t);
    }
    s->priv = NULL;
}

static int basic_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    basic_thread *t = s->priv;
    xray_file *xf = t->xf;
    const uint8_t *base = xf->map.data;
    const char *path = s->trace->path;
    for (;;) {
        if (t->run >= t->n_runs)
            return 0;
        if (t->pos < t->runs[t->run].start)
            t->pos = t->runs[t->run].start;
        if (t->pos >= t->runs[t->run].end) {
            t->run++;
            continue;
        }
        break;
    }
    uint64_t off = t->pos;
    uint64_t run_end = t->runs[t->run].end;
    const uint8_t *r = base + off;
    t->pos += XRAY_BASIC_RECORD;
    uint16_t rtype = tg_le16(r);
    if (rtype == 1)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "argument record (function id %" PRId32 ") does not follow a matching "
                         "function record of its thread",
                         (int32_t)tg_le32(r + 4));
    if (rtype != 0)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "unknown record type %u (0 function, 1 argument)", rtype);
    uint8_t kind = r[3];
    if (kind > 3)
        return tg_err_at(err, TG_ERR_FORMAT, path, off + 3,
                         "unknown function record type %u (0-3 are known)", kind);
    int32_t func = (int32_t)tg_le32(r + 4);
    uint64_t tsc = tg_le64(r + 8);
    uint32_t tid = tg_le32(r + 16), pid = tg_le32(r + 20);
    /* Argument records right after it, for the same function and thread. */
    uint64_t nargs = 0;
    while (t->pos + XRAY_BASIC_RECORD <= run_end) {
        const uint8_t *a = base + t->pos;
        if (tg_le16(a) != 1 || (int32_t)tg_le32(a + 4) != func || tg_le32(a + 8) != tid ||
            (xf->hdr.version >= 3 && tg_le32(a + 12) != pid))
            break;
        nargs++;
        t->pos += XRAY_BASIC_RECORD;
    }
    ev->ts = xray_tsc_to_ns(xf, tsc);
    ev->cls = xf->cls[kind];
    ev->cpu = r[2];
    ev->tid = (int32_t)tid;
    ev->pid = (int32_t)pid;
    ev->addr = (uint64_t)(int64_t)func;
    ev->offset = off;
    ev->data = nargs ? r + XRAY_BASIC_RECORD : NULL;
    ev->size = (size_t)nargs * XRAY_BASIC_RECORD;
    ev->aux[XRAY_AUX_TSC] = tsc;
    ev->aux[XRAY_AUX_KIND] = kind;
    ev->aux[XRAY_AUX_TYPE] = rtype;
    ev->aux[XRAY_AUX_NARGS] = nargs;
    return 1;
}

/* Reports damage found at open: once, from the first stream, after its events. */
static int basic_next_first(tg_stream *s, tg_event *ev, tg_error **err);

static int basic_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    basic_thread *t = s->priv;
    t->run = 0;
    t->pos = 0;
    return 0;
}

static const struct tg_stream_ops basic_ops = {
    .next = basic_next,
    .field_count = xray_field_count,
    .field = xray_field,
    .func_name = xray_event_func_name,
    .func_module = xray_event_func_module,
    .destroy = basic_destroy,
    .rewind = basic_rewind,
    .events_independent = true, /* records decoded from the mapped file alone */
};

static const struct tg_stream_ops basic_ops_first = {
    .next = basic_next_first,
    .field_count = xray_field_count,
    .field = xray_field,
    .func_name = xray_event_func_name,
    .func_module = xray_event_func_module,
    .destroy = basic_destroy,
    .rewind = basic_rewind,
    .events_independent = true, /* records decoded from the mapped file alone */
};

static int basic_next_first(tg_stream *s, tg_event *ev, tg_error **err)
{
    basic_thread *t = s->priv;
    int rc = basic_next(s, ev, err);
    if (rc == 0 && t->xf->open_errors) {
        /* the damage at the end of the file: reported after this stream's events */
        if (err) {
            *err = t->xf->open_errors;
            t->xf->open_errors = NULL;
            return tg_error_status(*err);
        }
        tg_error_free(t->xf->open_errors);
        t->xf->open_errors = NULL;
    }
    return rc;
}

int xray_basic_open(tg_trace *t, xray_file *xf, tg_error **err)
{
    uint64_t size = xf->map.size;
    uint64_t body = size - XRAY_HEADER_SIZE;
    uint64_t end = XRAY_HEADER_SIZE + body / XRAY_BASIC_RECORD * XRAY_BASIC_RECORD;
    xf->data_end = end;
    if (end != size)
        tg_err_at(&xf->open_errors, TG_ERR_FORMAT, t->path, end,
                  "truncated record: %" PRIu64 " bytes left, a basic-mode record is 32",
                  size - end);
    thread_table tt = {0};
    const uint8_t *base = xf->map.data;
    basic_thread *cur = NULL;
    uint64_t run_start = 0;
    int rc = 0;
    for (uint64_t off = XRAY_HEADER_SIZE; off < end; off += XRAY_BASIC_RECORD) {
        const uint8_t *r = base + off;
        if (tg_le16(r) == 1 && cur)
            continue; /* an argument record stays with the record before it */
        uint32_t tid = tg_le32(r + 16), pid = tg_le32(r + 20);
        if (cur && cur->tid == tid && cur->pid == pid)
            continue;
        if (cur && (rc = add_run(cur, run_start, off)) < 0)
            break;
        cur = table_get(&tt, tid, pid, xf);
        if (!cur) {
            rc = TG_ERR_NOMEM;
            break;
        }
        run_start = off;
    }
    if (rc == 0 && cur)
        rc = add_run(cur, run_start, end);
    for (size_t i = 0; i < tt.n; i++) {
        basic_thread *bt = tt.v[i];
        if (rc < 0) {
            free(bt->runs);
            free(bt);
            continue;
        }
        char name[48];
        snprintf(name, sizeof name, "tid %" PRIu32, bt->tid);
        tg_stream *s = tg_trace_add_stream(t, i == 0 ? &basic_ops_first : &basic_ops, name, -1,
                                           (int)bt->tid, bt);
        if (!s) {
            free(bt->runs);
            free(bt);
            rc = TG_ERR_NOMEM;
        }
    }
    free(tt.v);
    tg_hash_free(&tt.by_id);
    if (rc < 0)
        return tg_err(err, rc, "out of memory");
    if (tt.n == 0 && xf->open_errors) {
        /* nothing readable at all */
        if (err) {
            *err = xf->open_errors;
            xf->open_errors = NULL;
        }
        return TG_ERR_FORMAT;
    }
    return 0;
}
