/* perfetto_read_format.c - TG_FORMAT(perfetto): finding Perfetto protobuf traces and reading
 * their packets into records (see perfetto_read_internal.h for the whole story).
 *
 * The outer `Trace` framing (field 1, length-delimited packets) is walked here, by hand and
 * bounds-checked, so a damaged packet is found where it starts: the packets before it are
 * records, the error names the file, offset and packet, and the stream gives it after them.
 * Each packet is decoded by protobuf-c (perfetto_read.proto, Perfetto's field numbers);
 * its sequence's incremental state - interned names, trace_packet_defaults, the thread
 * of a ThreadDescriptor - is kept per trusted_packet_sequence_id and dropped when the
 * packet says SEQ_INCREMENTAL_STATE_CLEARED. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/file_input.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PF_SEQ_INCREMENTAL_STATE_CLEARED = 1 };

/* ---- the wire --------------------------------------------------------------------------- */

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

int pf_wire_next(const uint8_t **p, const uint8_t *end, pf_wire *w)
{
    if (*p >= end)
        return 0;
    uint64_t key;
    if (varint(p, end, &key) < 0 || key >> 3 == 0 || key >> 3 > UINT32_MAX)
        return -1;
    w->field = (uint32_t)(key >> 3);
    w->type = (uint32_t)(key & 7);
    switch (w->type) {
    case 0: return varint(p, end, &w->value) < 0 ? -1 : 1;
    case 1:
    case 5: {
        size_t n = w->type == 1 ? 8 : 4;
        if ((size_t)(end - *p) < n)
            return -1;
        w->value = 0;
        for (size_t i = 0; i < n; i++)
            w->value |= (uint64_t)(*p)[i] << (8 * i);
        *p += n;
        return 1;
    }
    case 2: {
        uint64_t len;
        if (varint(p, end, &len) < 0 || len > (uint64_t)(end - *p))
            return -1;
        w->bytes = *p;
        w->len = (size_t)len;
        *p += len;
        return 1;
    }
    default: return -1;
    }
}

/* ---- probe --------------------------------------------------------------------------------- */

static int pf_probe(const tg_probe_input *in)
{
    if (in->is_dir)
        return 0;
    if (in->head_len == 0)
        return 5; /* an empty file: a trace of no packets (weakest claim) */
    const uint8_t *p = in->head, *end = in->head + in->head_len;
    if (p[0] != 0x0a) /* field 1 (packet), length-delimited */
        return 0;
    p++;
    uint64_t len;
    if (varint(&p, end, &len) < 0)
        return 0;
    if (len == 0)
        return 30;
    if (p >= end)
        return 20;
    /* text (a JSON trace starts with a newline too) is no packet framing */
    size_t printable = 0, look = in->head_len < 64 ? in->head_len : 64;
    for (size_t i = 0; i < look; i++)
        printable += (in->head[i] >= 0x20 && in->head[i] < 0x7f) || in->head[i] == '\n' ||
                     in->head[i] == '\t' || in->head[i] == '\r';
    if (printable == look)
        return 0;
    /* the packet's fields within the head: well formed */
    const uint8_t *q = p, *packet_end = len < (uint64_t)(end - p) ? p + len : end;
    pf_wire w;
    int more, fields = 0;
    while ((more = pf_wire_next(&q, packet_end, &w)) > 0)
        fields++;
    if (more < 0 && packet_end != end)
        return 0; /* malformed inside a packet the head holds whole */
    if (!fields)
        return 10;
    return 60;
}

/* ---- records, names, classes, tasks ---------------------------------------------------------- */

pf_record *pf_add_record(pf_trace *p)
{
    if (tg_grow(&p->recs, &p->cap_recs, p->n_recs + 1, sizeof *p->recs) < 0)
        return NULL;
    pf_record *r = &p->recs[p->n_recs++];
    memset(r, 0, sizeof *r);
    r->order = p->order++;
    r->cpu = r->pid = r->tid = r->track = -1;
    return r;
}

static int name_eq(const void *ctx, uint64_t value)
{
    const void *const *c = ctx;
    const pf_trace *p = c[0];
    return strcmp(p->names[value], c[1]) == 0;
}

uint64_t pf_name_number(tg_trace *t, const char *name)
{
    pf_trace *p = t->priv;
    if (!name)
        name = "";
    uint64_t h = tg_hash_str(name);
    const void *ctx[2] = {p, name};
    uint64_t *slot = tg_hash_find_by(&p->name_by_hash, h, name_eq, ctx);
    if (slot)
        return *slot;
    const char *copy = tg_arena_strdup(&t->arena, name);
    if (!copy || tg_grow(&p->names, &p->cap_names, p->n_names + 1, sizeof *p->names) < 0 ||
        tg_hash_add(&p->name_by_hash, h, &slot) < 0)
        return UINT64_MAX;
    p->names[p->n_names] = copy;
    *slot = p->n_names;
    return p->n_names++;
}

const tg_event_class *pf_class_of(tg_trace *t, const ProtobufCMessageDescriptor *d,
                                  const char *name)
{
    return pf_class_of_system(t, d, name, "ftrace");
}

const tg_event_class *pf_class_of_system(tg_trace *t, const ProtobufCMessageDescriptor *d,
                                         const char *name, const char *system)
{
    pf_trace *p = t->priv;
    uint64_t *slot;
    int added = tg_hash_insert(&p->class_by_desc, (uintptr_t)d, &slot);
    if (added < 0)
        return NULL;
    if (!added)
        return (const tg_event_class *)(uintptr_t)*slot;
    tg_event_class *c = tg_trace_add_class(t, name, t->n_classes, TG_KIND_GENERIC);
    if (!c)
        return NULL;
    c->system = system;
    c->kernel = true;
    c->fmt_data = (void *)(uintptr_t)d;
    *slot = (uintptr_t)c;
    return c;
}

/* A thread or process the trace names; a later, named mention fills what an earlier left
 * unknown. */
int pf_add_task(tg_trace *t, int64_t tid, int64_t pid, const char *name)
{
    for (size_t i = t->n_tasks; i-- > 0;) {
        tg_task_info *k = &t->tasks[i];
        if (k->tid != tid)
            continue;
        if (pid >= 0)
            k->pid = pid;
        if (name && *name)
            k->name = tg_arena_strdup(&t->arena, name);
        return 0;
    }
    /* a process's main thread is made with the process, before the thread that names it
     * (trace_processor numbers threads so) */
    if (pid > 0 && pid != tid) {
        bool has_main = false;
        for (size_t i = 0; i < t->n_tasks && !has_main; i++)
            has_main = t->tasks[i].tid == pid;
        tg_task_info main_thread = {.tid = pid, .pid = pid, .ppid = -1};
        if (!has_main && tg_trace_add_task(t, &main_thread) < 0)
            return TG_ERR_NOMEM;
    }
    tg_task_info k = {.tid = tid, .pid = pid, .ppid = -1, .name = name && *name ? name : NULL};
    return tg_trace_add_task(t, &k);
}

/* ---- sequences and their interned data ------------------------------------------------------ */

static pf_sequence *sequence_of(pf_trace *p, uint32_t id)
{
    uint64_t *slot;
    int added = tg_hash_insert(&p->seq_by_id, id, &slot);
    if (added < 0)
        return NULL;
    if (!added)
        return &p->seqs[*slot];
    if (tg_grow(&p->seqs, &p->cap_seqs, p->n_seqs + 1, sizeof *p->seqs) < 0)
        return NULL;
    p->seqs[p->n_seqs] = (pf_sequence){.id = id, .pid = -1, .tid = -1};
    *slot = p->n_seqs;
    return &p->seqs[p->n_seqs++];
}

static uint64_t interned_key(const pf_sequence *s, uint64_t kind, uint64_t iid)
{
    uint64_t k = s->id * 0x9e3779b97f4a7c15ull ^ s->generation * 0xc2b2ae3d27d4eb4full;
    return (k ^ kind * 0x165667b19e3779f9ull) + iid * 0x27d4eb2f165667c5ull;
}

static int intern_n(tg_trace *t, const pf_sequence *s, uint64_t kind, uint64_t iid,
                    const char *text, size_t len)
{
    pf_trace *p = t->priv;
    uint64_t *slot;
    if (tg_hash_insert(&p->interned_by_key, interned_key(s, kind, iid), &slot) < 0)
        return TG_ERR_NOMEM;
    const char *copy = tg_arena_strndup(&t->arena, text ? text : "", text ? len : 0);
    if (!copy)
        return TG_ERR_NOMEM;
    *slot = (uintptr_t)copy;
    return 0;
}

static int intern(tg_trace *t, const pf_sequence *s, uint64_t kind, uint64_t iid, const char *text)
{
    return intern_n(t, s, kind, iid, text, text ? strlen(text) : 0);
}

const char *pf_interned_text(const pf_trace *p, const pf_sequence *s, uint64_t kind, uint64_t iid)
{
    uint64_t *slot = tg_hash_find(&p->interned_by_key, interned_key(s, kind, iid));
    return slot ? (const char *)(uintptr_t)*slot : NULL;
}

static int read_interned(tg_trace *t, const pf_sequence *s, const PerfettoRead__InternedData *d)
{
    for (size_t i = 0; i < d->n_event_names; i++)
        if (intern(t, s, PF_INTERNED_NAME, d->event_names[i]->iid, d->event_names[i]->name) < 0)
            return TG_ERR_NOMEM;
    for (size_t i = 0; i < d->n_event_categories; i++)
        if (intern(t, s, PF_INTERNED_CATEGORY, d->event_categories[i]->iid,
                   d->event_categories[i]->name) < 0)
            return TG_ERR_NOMEM;
    for (size_t i = 0; i < d->n_debug_annotation_names; i++)
        if (intern(t, s, PF_INTERNED_ANNOTATION_NAME, d->debug_annotation_names[i]->iid,
                   d->debug_annotation_names[i]->name) < 0)
            return TG_ERR_NOMEM;
    for (size_t i = 0; i < d->n_histogram_names; i++)
        if (intern(t, s, PF_INTERNED_HISTOGRAM_NAME, d->histogram_names[i]->iid,
                   d->histogram_names[i]->name) < 0)
            return TG_ERR_NOMEM;
    for (size_t i = 0; i < d->n_debug_annotation_string_values; i++) {
        const PerfettoRead__InternedString *v = d->debug_annotation_string_values[i];
        if (intern_n(t, s, PF_INTERNED_ANNOTATION_STRING, v->iid, (const char *)v->str.data,
                     v->has_str ? v->str.len : 0) < 0)
            return TG_ERR_NOMEM;
    }
    return 0;
}

/* ---- packets ------------------------------------------------------------------------------------ */

/* A process of a process tree: its name is its argv[0] (a kworker's without the workqueue
 * it ran last, "kworker/1:0-events" -> "kworker/1:0"; a lone argument up to its first
 * space, for the processes that rewrite their command line with spaces), its command line
 * the arguments joined by spaces, and its main thread is named by the command line when
 * that is the thread's comm - as trace_processor reads them. */
static int read_tree_process(tg_trace *t, const PerfettoRead__ProcessTree__Process *pr)
{
    size_t len = 0;
    for (size_t i = 0; i < pr->n_cmdline; i++)
        len += strlen(pr->cmdline[i]) + 1;
    char *joined = tg_arena_alloc(&t->arena, len + 1), *argv0 = NULL;
    if (!joined)
        return TG_ERR_NOMEM;
    joined[0] = 0;
    for (size_t i = 0, at = 0; i < pr->n_cmdline; i++) {
        size_t n = strlen(pr->cmdline[i]);
        if (i)
            joined[at++] = ' ';
        memcpy(joined + at, pr->cmdline[i], n + 1);
        at += n;
    }
    if (pr->n_cmdline) {
        size_t n = strlen(pr->cmdline[0]);
        if (pr->has_ppid && pr->ppid == 2 && strncmp(pr->cmdline[0], "kworker/", 8) == 0)
            for (size_t k = 8; k < n; k++)
                if (pr->cmdline[0][k] == '+' || pr->cmdline[0][k] == '-') {
                    n = k;
                    joined[n] = 0;
                    break;
                }
        if (pr->n_cmdline == 1) {
            const char *space = memchr(pr->cmdline[0], ' ', n);
            if (space)
                n = (size_t)(space - pr->cmdline[0]);
        }
        if (!(argv0 = tg_arena_strndup(&t->arena, pr->cmdline[0], n)))
            return TG_ERR_NOMEM;
    }
    const char *name = pr->has_cmdline_is_comm && pr->cmdline_is_comm ? joined : argv0;
    if (pf_add_task(t, pr->pid, pr->pid, name) < 0)
        return TG_ERR_NOMEM;
    tg_task_info *task = &t->tasks[t->n_tasks - 1];
    for (size_t i = t->n_tasks; i-- > 0;)
        if (t->tasks[i].tid == pr->pid) {
            task = &t->tasks[i];
            break;
        }
    task->process_name = argv0;
    task->cmdline = pr->n_cmdline ? joined : NULL;
    if (pr->has_ppid)
        task->ppid = pr->ppid;
    if (pr->has_process_start_from_boot && pr->process_start_from_boot <= INT64_MAX) {
        task->process_started = true;
        task->process_start_ns = (int64_t)pr->process_start_from_boot;
    }
    return 0;
}

static int read_process_tree(tg_trace *t, const PerfettoRead__ProcessTree *tree)
{
    for (size_t i = 0; i < tree->n_processes; i++)
        if (read_tree_process(t, tree->processes[i]) < 0)
            return TG_ERR_NOMEM;
    for (size_t i = 0; i < tree->n_threads; i++) {
        const PerfettoRead__ProcessTree__Thread *th = tree->threads[i];
        const char *name = th->name;
        /* a kworker's main thread keeps the worker's name its process got, without the
         * workqueue it ran last */
        const tg_task_info *proc =
            th->has_tgid && th->tgid == th->tid && name && strncmp(name, "kworker/", 8) == 0
                ? tg_trace_task_find(t, th->tid)
                : NULL;
        if (proc && proc->ppid == 2 && proc->name &&
            strncmp(proc->name, name, strlen(proc->name)) == 0)
            name = proc->name;
        if (pf_add_task(t, th->tid, th->has_tgid ? th->tgid : -1, name) < 0)
            return TG_ERR_NOMEM;
    }
    return 0;
}

const uint8_t *pf_sub_bytes(const uint8_t *data, size_t size, uint32_t field, size_t *len)
{
    const uint8_t *p = data, *end = data + size, *found = NULL;
    pf_wire w;
    while (pf_wire_next(&p, end, &w) > 0)
        if (w.field == field && w.type == 2) {
            found = w.bytes;
            *len = w.len;
        }
    return found;
}

static int read_packet(tg_trace *t, const uint8_t *data, size_t size, uint64_t offset,
                       tg_error **err)
{
    pf_trace *p = t->priv;
    PerfettoRead__TracePacket *pk = perfetto_read__trace_packet__unpack(NULL, size, data);
    if (!pk)
        return tg_err(err, TG_ERR_FORMAT,
                      "%s: offset 0x%llx: a packet of %zu bytes does not "
                      "decode as a TracePacket",
                      t->path, (unsigned long long)offset, size);
    uint32_t seq_id =
        pk->optional_trusted_packet_sequence_id_case ? pk->trusted_packet_sequence_id : 0;
    pf_sequence *s = sequence_of(p, seq_id);
    int rc = s ? 0 : TG_ERR_NOMEM;
    bool cleared =
        (pk->has_sequence_flags && (pk->sequence_flags & PF_SEQ_INCREMENTAL_STATE_CLEARED)) ||
        (pk->has_incremental_state_cleared && pk->incremental_state_cleared);
    if (s && cleared) {
        s->generation++;
        s->has_default_track = false;
    }
    if (s && pk->trace_packet_defaults && pk->trace_packet_defaults->has_timestamp_clock_id)
        s->default_clock = pk->trace_packet_defaults->timestamp_clock_id;
    if (s && pk->trace_packet_defaults && pk->trace_packet_defaults->track_event_defaults &&
        pk->trace_packet_defaults->track_event_defaults->has_track_uuid) {
        s->default_track = pk->trace_packet_defaults->track_event_defaults->track_uuid;
        s->has_default_track = true;
    }
    if (rc == 0 && pk->interned_data)
        rc = read_interned(t, s, pk->interned_data);
    if (rc == 0 && pk->interned_data && pk->interned_data->base.n_unknown_fields)
        rc = pf_read_profile_interned(t, s, pk->interned_data);
    if (rc == 0 && pk->data_case == PERFETTO_READ__TRACE_PACKET__DATA_CLOCK_SNAPSHOT)
        rc = pf_read_clock_snapshot(p, pk->clock_snapshot, seq_id);
    uint32_t clock = pk->has_timestamp_clock_id ? pk->timestamp_clock_id
                     : s && s->default_clock    ? s->default_clock
                                                : 6;
    int64_t ts = pk->has_timestamp ? pf_boot_time(p, clock, seq_id, pk->timestamp) : 0;
    if (rc == 0 && pk->data_case == PERFETTO_READ__TRACE_PACKET__DATA_TRACE_STATS)
        rc = pf_read_trace_stats(t, pk->trace_stats);
    if (rc == 0)
        rc = pf_packet_machine(p, pk);
    bool usable = s && pf_sequence_bookkeeping(t, s, pk, cleared);
    switch (rc == 0 && usable ? pk->data_case : 0) {
    case PERFETTO_READ__TRACE_PACKET__DATA_TRACK_EVENT:
        if (pf_track_event_time(p, s, pk->track_event, ts, &ts))
            rc = pf_read_track_event(t, pk, s, ts, offset);
        else
            rc = tg_trace_count(t, "track_event_invalid_timestamp", "error", 1);
        break;
    case PERFETTO_READ__TRACE_PACKET__DATA_TRANSLATION_TABLE:
        rc = pf_read_translation_table(t, pk->translation_table);
        if (rc == 0)
            rc = pf_read_chrome_study_table(t, pk->translation_table);
        if (rc == 0)
            rc = pf_read_chrome_hash_table(t, pk->translation_table);
        break;
    case PERFETTO_READ__TRACE_PACKET__DATA_TRACK_DESCRIPTOR: {
        const PerfettoRead__ThreadDescriptor *th = pk->track_descriptor->thread;
        rc = pf_read_track_descriptor(t, pk->track_descriptor);
        /* a thread's descriptor is also its sequence's thread, as a ThreadDescriptor packet */
        if (th && th->has_pid && th->has_tid) {
            s->pid = th->pid;
            s->tid = th->tid;
        }
        break;
    }
    case PERFETTO_READ__TRACE_PACKET__DATA_PROCESS_TREE:
        rc = read_process_tree(t, pk->process_tree);
        break;
    case PERFETTO_READ__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_STATE_EVENT:
    case PERFETTO_READ__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_RENAME_EVENT:
        rc = pf_read_generic_event(t, pk, data, size, ts, offset);
        break;
    case PERFETTO_READ__TRACE_PACKET__DATA_GENERIC_KERNEL_PROCESS_TREE:
        rc = pf_read_generic_process_tree(t, pk->generic_kernel_process_tree);
        break;
    case PERFETTO_READ__TRACE_PACKET__DATA_PROCESS_DESCRIPTOR: {
        const PerfettoRead__ProcessDescriptor *d = pk->process_descriptor;
        if (d->has_pid)
            rc = pf_add_task(t, d->pid, d->pid,
                             d->process_name ? d->process_name
                             : d->n_cmdline  ? d->cmdline[0]
                                             : NULL);
        break;
    }
    case PERFETTO_READ__TRACE_PACKET__DATA_THREAD_DESCRIPTOR: {
        const PerfettoRead__ThreadDescriptor *d = pk->thread_descriptor;
        s->pid = d->has_pid ? d->pid : -1;
        s->tid = d->has_tid ? d->tid : -1;
        if (d->has_reference_timestamp_us) {
            __int128 ns = (__int128)d->reference_timestamp_us * 1000;
            s->event_time = ns > INT64_MAX ? INT64_MAX : ns < INT64_MIN ? INT64_MIN : (int64_t)ns;
        }
        if (d->has_tid)
            rc = pf_add_task(t, d->tid, s->pid, d->thread_name);
        break;
    }
    case PERFETTO_READ__TRACE_PACKET__DATA_FTRACE_EVENTS: {
        size_t len = 0;
        const uint8_t *bundle = pf_sub_bytes(data, size, 1, &len);
        if (bundle)
            rc = pf_read_ftrace_bundle(t, bundle, len, offset, err);
        break;
    }
    case PERFETTO_READ__TRACE_PACKET__DATA_TRACE_STATS: break;
    default: {
        size_t len = 0;
        const uint8_t *stats = pf_sub_bytes(data, size, 34, &len); /* ftrace_stats */
        if (stats)
            rc = pf_read_ftrace_stats(t, stats, len);
        if (rc == 0 && s && pk->base.n_unknown_fields)
            rc = pf_read_streaming_profile(t, pk, s);
        if (rc == 0 && usable && pk->base.n_unknown_fields)
            rc = pf_read_perf_sample(t, pk, s, ts, offset);
        if (rc == 0 && pk->base.n_unknown_fields)
            rc = pf_read_kernel_packet(t, pk, ts, offset);
        if (rc == 0 && !stats)
            rc = pf_read_other_packet(t, pk, s, ts, offset);
        break;
    }
    }
    perfetto_read__trace_packet__free_unpacked(pk, NULL);
    if (rc == TG_ERR_NOMEM && !(err && *err))
        tg_err(err, rc, "out of memory");
    return rc;
}

static int compare_records(const void *a, const void *b)
{
    const pf_record *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int pf_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    (void)opts;
    pf_trace *p = calloc(1, sizeof *p);
    if (!p)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = p;
    if (tg_map_open(&p->map, path, err) < 0)
        return TG_ERR_IO;
    tg_trace_set_version(t, "protobuf");
    p->trace_clock = PF_CLOCK_BOOTTIME;
    /* what trace_processor counts that this reader counts too (none met: 0) */
    if (tg_trace_count(t, "track_event_invalid_timestamp", "error", 0) < 0 ||
        tg_trace_count(t, "streaming_profile_invalid_timestamp", "error", 0) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_trace_set_tracer(t, "perfetto", NULL);
    t->classes_grow = true;
    if (tg_trace_add_slice_classes(t, &p->slice_begin, &p->slice_end) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    /* a Linux system trace's tid 0 is the idle task, which trace_processor names so */
    tg_task_info swapper = {.tid = 0, .pid = 0, .ppid = -1, .name = "swapper"};
    if (tg_trace_add_task(t, &swapper) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    const uint8_t *base = p->map.data, *cur = base, *end = base + p->map.size;
    tg_error *damage = NULL;
    size_t n_packets = 0;
    pf_wire w;
    int more;
    const uint8_t *at_packet = cur;
    while ((more = pf_wire_next(&cur, end, &w)) > 0) {
        at_packet = cur;
        if (w.field != 1 || w.type != 2)
            continue; /* not a packet: trace_processor skips such fields too */
        uint64_t at = (uint64_t)(w.bytes - base);
        int rc = read_packet(t, w.bytes, w.len, at, &damage);
        if (rc == TG_ERR_NOMEM) {
            if (err)
                *err = damage;
            else
                tg_error_free(damage);
            return rc;
        }
        if (rc < 0)
            break;
        n_packets++;
    }
    if (more < 0 && !damage)
        tg_err(&damage, TG_ERR_FORMAT,
               "%s: offset 0x%llx: packet %zu: its field header or length runs past the end of "
               "the file (%zu bytes)",
               path, (unsigned long long)(at_packet - base), n_packets + 1, p->map.size);
    int rc = pf_atrace_pass(t);
    pf_apply_renames(p);
    pf_resolve_chrome_triggers(p);
    pf_resolve_chrome_hashes(p);
    if (rc == 0)
        rc = pf_etw_finish(t);
    if (rc == 0)
        rc = pf_declare_tracks(t);
    struct timespec ended;
    clock_gettime(CLOCK_MONOTONIC, &ended);
    /* how long reading took, as trace_processor reports its parse */
    if (rc == 0)
        rc = tg_trace_set_stat(t, "parse_trace_duration_ns", "info", -1,
                               (int64_t)(ended.tv_sec - began.tv_sec) * 1000000000 +
                                   (ended.tv_nsec - began.tv_nsec));
    const char *clock = pf_clock_name(p->trace_clock);
    if (clock)
        tg_trace_set_clock(t, clock, 0);
    if (p->n_recs > 1)
        qsort(p->recs, p->n_recs, sizeof *p->recs, compare_records);
    if (rc == 0)
        rc = pf_check_task_states(t);
    if (rc == 0)
        rc = pf_add_stream(t);
    if (rc < 0) {
        tg_error_free(damage);
        return tg_err(err, rc, "out of memory");
    }
    p->damage = damage;
    return 0;
}

static void pf_close(tg_trace *t)
{
    pf_trace *p = t->priv;
    if (!p)
        return;
    for (size_t i = 0; i < p->n_tracks; i++) {
        free(p->tracks[i].stack);
        free(p->tracks[i].open_recs);
    }
    free(p->tracks);
    free(p->claims);
    pf_etw_free(p);
    pf_chrome_hashes_free(p);
    pf_profile_free(p);
    free(p->recs);
    free(p->seqs);
    free(p->names);
    free(p->cpu_current);
    free(p->cpu_comm);
    free(p->clocks);
    free(p->renames);
    free(p->study_names);
    tg_hash_free(&p->study_by_hash);
    tg_hash_free(&p->content_sets);
    tg_hash_free(&p->track_by_uuid);
    tg_hash_free(&p->counter_by_key);
    pf_probe_state_free(p);
    free(p->machines);
    tg_hash_free(&p->seq_by_id);
    tg_hash_free(&p->interned_by_key);
    tg_hash_free(&p->name_by_hash);
    tg_hash_free(&p->class_by_desc);
    tg_hash_free(&p->first_bundle_cpus);
    tg_error_free(p->damage);
    tg_map_close(&p->map);
    free(p);
    t->priv = NULL;
}

TG_FORMAT(perfetto) = {
    .name = "perfetto",
    .probe = pf_probe,
    .open = pf_open,
    .close = pf_close,
};
