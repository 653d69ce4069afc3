/* uftrace_perf.c - perf-cpuN.dat files: scheduling and task events of the traced threads.
 *
 * uftrace records a dummy perf event per cpu to learn context switches, forks, exits and
 * name changes; each file is the raw perf ring-buffer contents: records with an 8-byte
 * header (type, misc, size) and, with sample_id_all, the pid/tid/time of the sample at their
 * end.  Each file becomes one stream; only threads that have their own TID.dat are reported,
 * as uftrace does.  A context switch becomes linux:sched-out / sched-out (pre-empted) /
 * sched-in, which the replay and report turn into the virtual `linux:schedule` function. */
#include "formats/uftrace/uftrace_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PERF_RECORD_EXIT = 4, PERF_RECORD_COMM = 3, PERF_RECORD_FORK = 7, PERF_RECORD_SWITCH = 14 };
#define PERF_MISC_SWITCH_OUT 0x2000
#define PERF_MISC_SWITCH_OUT_PREEMPT 0x4000

struct uft_perf {
    struct uft_data *d;
    char *path;
    tg_map map;
    size_t pos;
    bool stopped;
};

struct perf_rec {
    uint32_t type;
    uint16_t misc;
    int pid, tid;
    uint64_t time;
    const char *comm;
    size_t comm_len;
};

/* Decodes the record at *pos: 1, 0 at the end, or a negative status. */
static int perf_decode(const struct uft_data *d, const tg_map *m, const char *path, size_t *pos,
                       struct perf_rec *r, tg_error **err)
{
    const uint8_t *b = m->data;
    size_t size = m->size, at = *pos;
    if (at >= size)
        return 0;
    if (size - at < 8)
        return tg_err_at(err, TG_ERR_FORMAT, path, at,
                         "truncated perf record header: %zu bytes left, expected 8", size - at);
    bool be = d->big_endian;
    r->type = be ? tg_be32(b + at) : tg_le32(b + at);
    r->misc = be ? tg_be16(b + at + 4) : tg_le16(b + at + 4);
    uint16_t rsize = be ? tg_be16(b + at + 6) : tg_le16(b + at + 6);
    if (rsize < 8 || rsize > size - at)
        return tg_err_at(err, TG_ERR_FORMAT, path, at + 6,
                         "perf record size %u: expected 8 up to the %zu bytes left", rsize,
                         size - at);
    const uint8_t *p = b + at + 8;
    size_t len = rsize - 8u;
    r->comm = NULL;
    r->comm_len = 0;
    r->pid = r->tid = -1;
    r->time = 0;
#define U32(o) (be ? tg_be32(p + (o)) : tg_le32(p + (o)))
#define U64(o) (be ? tg_be64(p + (o)) : tg_le64(p + (o)))
    switch (r->type) {
    case PERF_RECORD_SWITCH:
        if (len < 16)
            goto short_rec;
        r->pid = (int)U32(0);
        r->tid = (int)U32(4);
        r->time = U64(8);
        break;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
        if (len < 24)
            goto short_rec;
        r->pid = (int)U32(0);
        r->tid = (int)U32(8);
        r->time = U64(16);
        break;
    case PERF_RECORD_COMM:
        if (len < 8 + 16)
            goto short_rec;
        r->pid = (int)U32(0);
        r->tid = (int)U32(4);
        r->comm = (const char *)p + 8;
        r->comm_len = strnlen(r->comm, len - 8 - 16);
        r->time = U64(len - 8);
        break;
    default: break;
    }
#undef U32
#undef U64
    *pos = at + rsize;
    return 1;
short_rec:
    return tg_err_at(err, TG_ERR_FORMAT, path, at,
                     "perf record type %u of %u bytes is too short for its fields", r->type, rsize);
}

static int perf_next(tg_stream *st, tg_event *ev, tg_error **err)
{
    struct uft_perf *s = st->priv;
    struct uft_data *d = s->d;
    for (;;) {
        if (s->stopped)
            return 0;
        struct perf_rec r = {0};
        size_t at = s->pos;
        int rc = perf_decode(d, &s->map, s->path, &s->pos, &r, err);
        if (rc < 0)
            s->stopped = true;
        if (rc <= 0)
            return rc;
        const tg_event_class *cls;
        switch (r.type) {
        case PERF_RECORD_SWITCH:
            cls = !(r.misc & PERF_MISC_SWITCH_OUT)          ? d->cls_sched_in
                  : (r.misc & PERF_MISC_SWITCH_OUT_PREEMPT) ? d->cls_sched_out_preempt
                                                            : d->cls_sched_out;
            break;
        case PERF_RECORD_FORK: cls = d->cls_task_new; break;
        case PERF_RECORD_EXIT: cls = d->cls_task_exit; break;
        case PERF_RECORD_COMM: cls = d->cls_task_name; break;
        default: continue;
        }
        const struct uft_task *tk = uft_task_find(d, r.tid);
        if (!tk || !tk->has_dat)
            continue;
        ev->cls = cls;
        ev->ts = (int64_t)r.time;
        ev->tid = r.tid;
        ev->pid = tk->pid;
        ev->offset = at;
        ev->addr = cls->id;
        ev->data = (const uint8_t *)r.comm;
        ev->size = r.comm_len;
        return 1;
    }
}

static int perf_render(const tg_event *ev, tg_buf *out)
{
    tg_buf_puts(out, ev->cls->name);
    if (ev->cls->id == UFT_EV_TASK_NAME && ev->data) {
        tg_buf_puts(out, " (name=");
        tg_buf_put(out, ev->data, ev->size);
        tg_buf_putc(out, ')');
    }
    return 1;
}

static size_t perf_field_count(const tg_event *ev, tg_scope scope)
{
    return scope == TG_SCOPE_PAYLOAD && ev->cls->id == UFT_EV_TASK_NAME ? 1 : 0;
}

static int perf_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    if (i >= perf_field_count(ev, scope))
        return TG_ERR_USAGE;
    memset(out, 0, sizeof *out);
    out->type = TG_VAL_STRING;
    out->name = "comm";
    out->v.str.ptr = (const char *)ev->data;
    out->v.str.len = ev->size;
    return 0;
}

static void perf_destroy(tg_stream *st)
{
    struct uft_perf *s = st->priv;
    if (!s)
        return;
    tg_map_close(&s->map);
    free(s->path);
    free(s);
    st->priv = NULL;
}

static int perf_rewind(tg_stream *st, tg_error **err)
{
    (void)err;
    struct uft_perf *s = st->priv;
    s->pos = 0;
    s->stopped = false;
    return 0;
}

static const struct tg_stream_ops uft_perf_ops = {
    .rewind = perf_rewind,
    .next = perf_next,
    .field_count = perf_field_count,
    .field = perf_field,
    .render = perf_render,
    .destroy = perf_destroy,
    .reads_alone = true, /* its file; the task list is fixed at open */
};

/* Task names: the last COMM record of each thread, as `uftrace info` shows them; and the
 * time of the first COMM or FORK record telling of each (`uftrace info --task`). */
static void scan_comms(struct uft_data *d, const struct uft_perf *s)
{
    size_t pos = 0;
    struct perf_rec r = {0};
    while (perf_decode(d, &s->map, s->path, &pos, &r, NULL) > 0) {
        if (r.type != PERF_RECORD_COMM && r.type != PERF_RECORD_FORK)
            continue;
        struct uft_task *tk = uft_task_find(d, r.tid);
        if (!tk)
            continue;
        if (r.time && (!tk->perf_ts || (int64_t)r.time < tk->perf_ts))
            tk->perf_ts = (int64_t)r.time;
        if (r.type != PERF_RECORD_COMM)
            continue;
        size_t n = r.comm_len < 16 ? r.comm_len : 16;
        memcpy(tk->comm, r.comm, n);
        tk->comm[n] = 0;
    }
}

/* The cpu number of the file name PREFIX-cpuN.dat (N written as snprintf's %d writes it), or
 * -1 for any other name. */
static int cpu_of_name(const char *file, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(file, prefix, n) != 0 || strncmp(file + n, "-cpu", 4) != 0)
        return -1;
    const char *p = file + n + 4;
    if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
        return -1;
    long v = 0;
    while (*p >= '0' && *p <= '9' && v < 1000000)
        v = v * 10 + (*p++ - '0');
    return strcmp(p, ".dat") == 0 && v < 1000000 ? (int)v : -1;
}

/* One listing of the directory per call (it was one per cpu number probed: 64 listings of
 * the directory for the end of a two-cpu recording, the most of a fuzz run's time). */
int uft_cpu_file_next(const struct uft_data *d, const char *prefix, int cpu, char *name,
                      size_t name_size)
{
    int limit = cpu + 1 > 64 ? cpu + 1 : 64, best = -1;
    DIR *dir = opendir(d->dir);
    if (!dir)
        return -1;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        int n = cpu_of_name(e->d_name, prefix);
        if (n > cpu && n <= limit && (best < 0 || n < best))
            best = n;
    }
    closedir(dir);
    if (best >= 0)
        snprintf(name, name_size, "%s-cpu%d.dat", prefix, best);
    return best;
}

int uft_map_data_file(const struct uft_data *d, const char *name, char **path, tg_map *map,
                      tg_error **err)
{
    *path = tg_path_join(d->dir, name);
    int rc = *path ? tg_map_open(map, *path, err) : tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc < 0) {
        free(*path);
        *path = NULL;
    }
    return rc;
}

int uft_perf_streams_add(tg_trace *t, struct uft_data *d, tg_error **err)
{
    char name[32];
    for (int cpu = -1; (cpu = uft_cpu_file_next(d, "perf", cpu, name, sizeof name)) >= 0;) {
        struct uft_perf *s = calloc(1, sizeof *s);
        if (!s)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        s->d = d;
        int rc = uft_map_data_file(d, name, &s->path, &s->map, err);
        if (rc < 0) {
            free(s);
            return rc;
        }
        scan_comms(d, s);
        if (!tg_trace_add_stream(t, &uft_perf_ops, name, cpu, -1, s)) {
            perf_destroy(&(tg_stream){.priv = s});
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
