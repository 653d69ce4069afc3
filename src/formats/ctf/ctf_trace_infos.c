/* ctf_trace_infos.c - `babeltrace2 query src.ctf.fs babeltrace.trace-infos`: the trace's
 * streams as babeltrace2 2.0's source names its ports, with each stream's time range.
 *
 * babeltrace2 answers an array holding one map for the trace, whose "stream-infos" array
 * has one map per stream (its port), printed with the keys in name order:
 * - "port-name": the trace's UUID (else its folder), the stream class id, then the stream
 *   instance id when the packet header declares one and the packets have a beginning time
 *   (the files of one instance form one stream), else the stream's file path;
 * - "range-ns" (only when the packets give both their beginning and end times): the first
 *   packet's beginning and the last packet's end in ns from the clock's origin, after the
 *   fixes babeltrace2 makes to the packet index of the tracers it knows to be wrong there:
 *   LTTng before 2.11 (2.10.10, 2.9.13 for lttng-modules) ends a stream at its last event,
 *   and every LTTng stream whose last packet was not closed (an end time of 0) too.
 * The streams are listed by their first file's path.  Only this reader knows which header
 * fields a stream's packets declare, so the answer is rendered here (tg_trace_render part
 * "babeltrace2-trace-infos"), as metadata-info's is. */
#include "formats/ctf/ctf_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The packet index of one stream as babeltrace2 keeps it: its first and last entries. */
struct stream_range {
    bool any, damaged;
    uint64_t first_begin; /* the first packet's beginning (cycles), when has_first */
    bool has_first;
    uint64_t last_begin; /* the last packet's, when has_last_begin */
    bool has_last_begin;
    uint64_t last_end; /* the last packet's end, when has_last_end */
    bool has_last_end;
    size_t last_file; /* where the last packet is: its file, its offset */
    uint64_t last_off;
    size_t file;  /* the file being walked */
    bool by_time; /* several files: entries ordered by their beginning */
};

static bool index_packet(void *ctx, const ctf_dec *d, const ctf_stream_decl *whole,
                         const ctf_stream_decl *sc, uint64_t off)
{
    struct stream_range *r = ctx;
    (void)sc;
    if (!whole) {
        r->damaged = true;
        return false;
    }
    bool has_begin = d->seen & (1u << CTF_M_TS_BEGIN), has_end = d->seen & (1u << CTF_M_TS_END);
    uint64_t begin = d->ts_begin, end = d->ts_end;
    /* babeltrace2 sorts a stream's merged index by beginning time (a missing one counts as
     * -1); a single file keeps its order */
    bool first = !r->any || (r->by_time && has_begin && (!r->has_first || begin < r->first_begin));
    bool last =
        !r->any || !r->by_time || (has_begin && (!r->has_last_begin || begin > r->last_begin));
    if (first) {
        r->has_first = has_begin;
        r->first_begin = begin;
    }
    if (last) {
        r->has_last_begin = has_begin;
        r->last_begin = begin;
        r->has_last_end = has_end;
        r->last_end = end;
        r->last_file = r->file;
        r->last_off = off;
    }
    r->any = true;
    return true;
}

struct tracer_version {
    const char *name;
    int64_t major, minor, patch;
};

static bool env_int(const ctf_meta *m, const char *key, int64_t *out)
{
    for (size_t i = 0; i < m->n_env; i++)
        if (strcmp(m->env[i].key, key) == 0) {
            if (!m->env[i].is_int)
                return false;
            *out = m->env[i].i;
            return true;
        }
    return false;
}

/* The tracer's name and version from the environment; false without a name and major. */
static bool tracer_version(const ctf_meta *m, struct tracer_version *v)
{
    *v = (struct tracer_version){ctf_env_string(m, "tracer_name"), 0, 0, 0};
    if (!v->name || !env_int(m, "tracer_major", &v->major))
        return false;
    if (env_int(m, "tracer_minor", &v->minor) && !env_int(m, "tracer_patch", &v->patch))
        env_int(m, "tracer_patchlevel", &v->patch);
    return true;
}

/* LTTng's packets that end before their last event (fixed in lttng-ust 2.11, lttng-modules
 * 2.11, 2.10.10 and 2.9.13). */
static bool event_after_packet(const struct tracer_version *v)
{
    bool ust = strcmp(v->name, "lttng-ust") == 0, mod = strcmp(v->name, "lttng-modules") == 0;
    if (!ust && !mod)
        return false;
    if (v->major != 2)
        return v->major < 2;
    if (ust)
        return v->minor < 11;
    return v->minor == 10 ? v->patch < 10 : v->minor == 9 ? v->patch < 13 : v->minor < 9;
}

static bool lttng_tracer(const struct tracer_version *v)
{
    return strcmp(v->name, "lttng-ust") == 0 || strcmp(v->name, "lttng-modules") == 0;
}

static int stream_index(ctf_trace *tr, const ctf_dstream *ds, struct stream_range *r,
                        tg_error **err)
{
    *r = (struct stream_range){.by_time = ds->n_files > 1};
    for (size_t i = 0; i < ds->n_files; i++) {
        r->file = i;
        TG_TRY(ctf_scan_packets(tr, ds->files[i].path, index_packet, r, err));
        if (r->damaged)
            return tg_err_at(err, TG_ERR_FORMAT, ds->files[i].path, TG_NO_OFFSET,
                             "a packet babeltrace2 cannot index");
    }
    return 0;
}

struct stream_info {
    tg_stream *s;
    const ctf_dstream *ds;
    int64_t begin, end;
    bool has_range;
};

static int by_first_path(const void *a, const void *b)
{
    const struct stream_info *x = a, *y = b;
    return strcmp(x->ds->files[0].path, y->ds->files[0].path);
}

/* The stream's range in ns (false: babeltrace2 gives none). */
static int stream_range_ns(ctf_trace *tr, const struct stream_info *si,
                           const struct tracer_version *v, int64_t *begin, int64_t *end,
                           tg_error **err)
{
    struct stream_range r;
    TG_TRY(stream_index(tr, si->ds, &r, err));
    const ctf_clock *ck = si->ds->sc->clock;
    if (!r.any || !ck)
        return 0;
    /* the tracers' fixes of the last entry's end: its last event (its beginning if none) */
    bool crash = v && lttng_tracer(v) && r.has_last_end && r.last_end == 0 && r.has_last_begin &&
                 r.last_begin != 0;
    if (v && (event_after_packet(v) || crash)) {
        uint64_t clock = 0;
        int rc = ctf_packet_last_clock(si->s, r.last_file, r.last_off, &clock, err);
        if (rc < 0)
            return rc;
        r.last_end = rc ? clock : r.last_begin;
        r.has_last_end = rc || r.has_last_begin;
    }
    if (!r.has_first || !r.has_last_end)
        return 0;
    if (!ctf_clock_ns_checked(ck, r.first_begin, begin) ||
        !ctf_clock_ns_checked(ck, r.last_end, end))
        return tg_err_at(err, TG_ERR_FORMAT, si->ds->files[0].path, TG_NO_OFFSET,
                         "cannot convert clock cycles to nanoseconds from origin");
    return 1;
}

int ctf_trace_infos(const tg_trace *t, tg_buf *out, tg_error **err)
{
    ctf_trace *tr = t->priv;
    TG_TRY(ctf_metadata_bt2_check(t, err));
    if (t->n_streams == 0)
        return tg_err(err, TG_ERR_FORMAT, "%s: the trace has no streams", tr->dir);
    struct stream_info *v = calloc(t->n_streams, sizeof *v);
    if (!v)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < t->n_streams; i++)
        v[i] = (struct stream_info){t->streams[i], t->streams[i]->priv};
    qsort(v, t->n_streams, sizeof *v, by_first_path);
    struct tracer_version ver;
    bool known = tracer_version(&tr->meta, &ver);
    char trace_id[40];
    const uint8_t *u = tr->meta.uuid;
    snprintf(trace_id, sizeof trace_id,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
             u[15]);
    int rc = 0;
    for (size_t i = 0; i < t->n_streams && rc >= 0; i++) {
        rc = stream_range_ns(tr, &v[i], known ? &ver : NULL, &v[i].begin, &v[i].end, err);
        v[i].has_range = rc > 0;
    }
    if (rc < 0) { /* babeltrace2 answers nothing then */
        free(v);
        return rc;
    }
    tg_buf_puts(out, "- \n  stream-infos: \n");
    for (size_t i = 0; i < t->n_streams; i++) {
        const ctf_dstream *ds = v[i].ds;
        tg_buf_printf(out, "    - \n      port-name: %s | %llu | ",
                      tr->meta.has_uuid ? trace_id : tr->dir, (unsigned long long)ds->sc->id);
        if (ds->files[0].has_instance)
            tg_buf_printf(out, "%llu\n", (unsigned long long)ds->files[0].instance);
        else
            tg_buf_printf(out, "%s\n", ds->files[0].path);
        if (v[i].has_range)
            tg_buf_printf(out, "      range-ns: \n        begin: %lld\n        end: %lld\n",
                          (long long)v[i].begin, (long long)v[i].end);
    }
    free(v);
    return 1;
}
