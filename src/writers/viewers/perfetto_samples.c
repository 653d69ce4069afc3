/* perfetto_samples.c - perf.data samples written as Perfetto's own perf profiler writes
 * them (see perfetto_samples.h).
 *
 * Each sample is a PerfSample packet (cpu, pid, tid, cpu_mode, callstack_iid) on one packet
 * sequence of the samples' own; its call stack is interned on that sequence as Perfetto's
 * profilers intern theirs (profile_common.proto): a Callstack is its frames' ids from the
 * outermost frame (Perfetto's "bottom frame first"), a Frame a function name in a mapping at
 * an address relative to it, a Mapping a mapped file of the process (start, end, its file
 * offset, its path as '/'-separated components, the build id the perf.data file records
 * for that path as a build_ids string of the mapping's own iid) and names are
 * InternedStrings.  An item is
 * written in the interned_data of the first packet that uses it on the sequence, and again
 * after a split starts a new part (the sequence restarts cleared).  The stacks, frames and
 * mappings are those of the SQL tables and the flame graphs (sample_stacks.h: perf's
 * session and the chain walk), so trace_processor's perf_sample and stack_profile_* rows of
 * the file carry what traceglot's own tables of the perf.data file hold.  A frame without a
 * map is in an "[unknown]" mapping of zeros, as sql_perf.c has it; a frame without a symbol
 * has no function name.  Memory: the distinct stacks, frames, mappings and names. */
#include "writers/viewers/perfetto_samples.h"
#include "writers/viewers/frame_names.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

enum { SENT = 1 };

typedef struct pfs_mapping {
    uint64_t start, end, pgoff;
    const char *dso;   /* the session's name, for the key only */
    uint64_t path[16]; /* string iids of the path's components */
    uint32_t n_path;
    uint8_t build_id[20]; /* the file's build id for the path (build_id_size 0: none) */
    uint8_t build_id_size;
} pfs_mapping;

typedef struct pfs_frame {
    uint64_t mapping, rel_pc; /* mapping iid */
    uint64_t name;            /* string iid, 0: none */
} pfs_frame;

typedef struct pfs_callstack {
    uint64_t parent, frame; /* iids; parent 0: the outermost frame */
    uint32_t depth;
} pfs_callstack;

struct tg_pf_samples {
    tg_sample_walker *walker;
    tg_frame_names strings; /* function names and path components: iid = index + 1 */
    uint8_t *string_sent;
    size_t string_sent_cap;
    pfs_mapping *mappings;
    size_t n_mappings, cap_mappings;
    tg_hash mapping_of;
    pfs_frame *frames;
    size_t n_frames, cap_frames;
    tg_hash frame_of;
    pfs_callstack *callstacks;
    size_t n_callstacks, cap_callstacks;
    tg_hash callstack_of;
    uint8_t *mapping_sent, *frame_sent, *callstack_sent;
    size_t mapping_sent_cap, frame_sent_cap, callstack_sent_cap;
    /* the current packet's new items */
    Perfetto__Protos__InternedString *str, **str_p;
    size_t n_str, cap_str, cap_str_p;
    Perfetto__Protos__Mapping *map, **map_p;
    size_t n_map, cap_map, cap_map_p;
    Perfetto__Protos__InternedString *bid, **bid_p; /* build ids: iid = the mapping's */
    size_t n_bid, cap_bid, cap_bid_p;
    Perfetto__Protos__Frame *frm, **frm_p;
    size_t n_frm, cap_frm, cap_frm_p;
    Perfetto__Protos__Callstack *cs, **cs_p;
    size_t n_cs, cap_cs, cap_cs_p;
    uint64_t *frame_ids; /* the current stack's, the outermost first */
    size_t cap_frame_ids;
};

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull + (h >> 29); }

/* Marks item i (an index from 0) sent: 1 when it was not. */
static int first_use(uint8_t **sent, size_t *cap, size_t i)
{
    if (i >= *cap) {
        size_t old = *cap;
        if (tg_grow(sent, cap, i + 1, 1) < 0)
            return TG_ERR_NOMEM;
        memset(*sent + old, 0, *cap - old);
    }
    if ((*sent)[i] & SENT)
        return 0;
    (*sent)[i] |= SENT;
    return 1;
}

static int64_t string_iid(tg_pf_samples *s, const char *text, size_t len)
{
    int64_t i = tg_frame_names_intern(&s->strings, text, len);
    if (i < 0)
        return i;
    int rc = first_use(&s->string_sent, &s->string_sent_cap, (size_t)i);
    if (rc <= 0)
        return rc < 0 ? rc : i + 1;
    if (tg_grow(&s->str, &s->cap_str, s->n_str + 1, sizeof *s->str) < 0)
        return TG_ERR_NOMEM;
    Perfetto__Protos__InternedString *is = &s->str[s->n_str++];
    perfetto__protos__interned_string__init(is);
    is->has_iid = is->has_str = 1;
    is->iid = (uint64_t)i + 1;
    return i + 1; /* its bytes are pointed at when the packet is assembled (the text moves) */
}

static int map_eq(const void *ctx, uint64_t i)
{
    const tg_pf_samples *s = ((const void *const *)ctx)[0];
    const pfs_mapping *k = ((const void *const *)ctx)[1];
    const pfs_mapping *m = &s->mappings[i];
    return m->start == k->start && m->end == k->end && m->pgoff == k->pgoff && m->dso == k->dso;
}

static int put_mapping(tg_pf_samples *s, size_t i)
{
    pfs_mapping *m = &s->mappings[i];
    int rc = first_use(&s->mapping_sent, &s->mapping_sent_cap, i);
    if (rc <= 0)
        return rc;
    /* the path's components: its interned strings are (re)sent with it */
    const char *dso = m->dso ? m->dso : "[unknown]";
    m->n_path = 0;
    for (const char *p = dso; *p && m->n_path < 16;) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (!len)
            break;
        int64_t id = string_iid(s, p, len);
        if (id < 0)
            return (int)id;
        m->path[m->n_path++] = (uint64_t)id;
        p += len;
    }
    if (tg_grow(&s->map, &s->cap_map, s->n_map + 1, sizeof *s->map) < 0)
        return TG_ERR_NOMEM;
    Perfetto__Protos__Mapping *pm = &s->map[s->n_map++];
    perfetto__protos__mapping__init(pm);
    pm->has_iid = pm->has_start = pm->has_end = 1;
    pm->has_start_offset = pm->has_exact_offset = 1;
    pm->iid = i + 1;
    pm->start = m->start;
    pm->end = m->end;
    pm->start_offset = pm->exact_offset = m->pgoff;
    pm->n_path_string_ids = m->n_path;
    pm->path_string_ids = NULL; /* set when the packet is assembled (mappings may move) */
    if (m->build_id_size) {
        if (tg_grow(&s->bid, &s->cap_bid, s->n_bid + 1, sizeof *s->bid) < 0)
            return TG_ERR_NOMEM;
        Perfetto__Protos__InternedString *is = &s->bid[s->n_bid++];
        perfetto__protos__interned_string__init(is);
        is->has_iid = is->has_str = 1;
        is->iid = i + 1;
        pm->has_build_id = 1;
        pm->build_id = i + 1;
    }
    return 0;
}

static int64_t mapping_iid(tg_pf_samples *s, const tg_trace *t, const perf_chain_frame *f)
{
    pfs_mapping k = {.dso = NULL};
    if (f->map)
        k = (pfs_mapping){
            .start = f->map->start, .end = f->map->end, .pgoff = f->map->pgoff, .dso = f->map->dso};
    uint64_t h = mix(mix(mix(mix((uint64_t)(uintptr_t)k.dso, 1), k.start), k.end), k.pgoff);
    const void *ctx[2] = {s, &k};
    uint64_t *found = tg_hash_find_by(&s->mapping_of, h, map_eq, ctx);
    size_t i;
    if (found) {
        i = (size_t)*found;
    } else {
        uint64_t *slot;
        if (tg_grow(&s->mappings, &s->cap_mappings, s->n_mappings + 1, sizeof *s->mappings) < 0 ||
            tg_hash_add(&s->mapping_of, h, &slot) < 0)
            return TG_ERR_NOMEM;
        i = s->n_mappings++;
        *slot = i;
        const tg_build_id_info *id = k.dso ? tg_trace_build_id_find(t, k.dso) : NULL;
        if (id && id->size) {
            k.build_id_size = id->size < sizeof k.build_id ? id->size : sizeof k.build_id;
            memcpy(k.build_id, id->id, k.build_id_size);
        }
        s->mappings[i] = k;
    }
    int rc = put_mapping(s, i);
    return rc < 0 ? rc : (int64_t)i + 1;
}

static int frame_eq(const void *ctx, uint64_t i)
{
    const tg_pf_samples *s = ((const void *const *)ctx)[0];
    const pfs_frame *k = ((const void *const *)ctx)[1];
    const pfs_frame *f = &s->frames[i];
    return f->mapping == k->mapping && f->rel_pc == k->rel_pc && f->name == k->name;
}

static int64_t frame_iid(tg_pf_samples *s, const tg_trace *t, const perf_chain_frame *f)
{
    int64_t mapping = mapping_iid(s, t, f);
    if (mapping < 0)
        return mapping;
    pfs_frame k = {(uint64_t)mapping, perf_map_addr(f->map, f->ip), 0};
    if (f->sym) {
        int64_t name = string_iid(s, f->sym->name, strlen(f->sym->name));
        if (name < 0)
            return name;
        k.name = (uint64_t)name;
    }
    uint64_t h = mix(mix(k.mapping, k.rel_pc), k.name);
    const void *ctx[2] = {s, &k};
    uint64_t *found = tg_hash_find_by(&s->frame_of, h, frame_eq, ctx);
    size_t i;
    if (found) {
        i = (size_t)*found;
    } else {
        uint64_t *slot;
        if (tg_grow(&s->frames, &s->cap_frames, s->n_frames + 1, sizeof *s->frames) < 0 ||
            tg_hash_add(&s->frame_of, h, &slot) < 0)
            return TG_ERR_NOMEM;
        i = s->n_frames++;
        *slot = i;
        s->frames[i] = k;
    }
    int rc = first_use(&s->frame_sent, &s->frame_sent_cap, i);
    if (rc <= 0)
        return rc < 0 ? rc : (int64_t)i + 1;
    if (tg_grow(&s->frm, &s->cap_frm, s->n_frm + 1, sizeof *s->frm) < 0)
        return TG_ERR_NOMEM;
    Perfetto__Protos__Frame *pf = &s->frm[s->n_frm++];
    perfetto__protos__frame__init(pf);
    pf->has_iid = pf->has_mapping_id = pf->has_rel_pc = 1;
    pf->iid = i + 1;
    pf->mapping_id = k.mapping;
    pf->rel_pc = k.rel_pc;
    pf->has_function_name_id = k.name != 0;
    pf->function_name_id = k.name;
    return (int64_t)i + 1;
}

/* The callstack of the stack's frames (outermost first), 0 for a stack without frames. */
static int64_t callstack_iid(tg_pf_samples *s, const tg_sample_stack *st)
{
    if (tg_grow(&s->frame_ids, &s->cap_frame_ids, st->depth + 1, sizeof *s->frame_ids) < 0)
        return TG_ERR_NOMEM;
    uint64_t at = 0;
    for (size_t i = 0; i < st->depth; i++) {
        int64_t f = frame_iid(s, tg_event_trace(st->ev), &st->chain[st->depth - 1 - i]);
        if (f < 0)
            return f;
        s->frame_ids[i] = (uint64_t)f;
        int added;
        int64_t c = tg_hash_index(&s->callstack_of, at << 32 | (uint32_t)f, &added);
        if (c < 0)
            return c;
        if (added) {
            if (tg_grow(&s->callstacks, &s->cap_callstacks, s->n_callstacks + 1,
                        sizeof *s->callstacks) < 0)
                return TG_ERR_NOMEM;
            s->callstacks[s->n_callstacks++] = (pfs_callstack){at, (uint64_t)f, (uint32_t)i + 1};
        }
        at = (uint64_t)c + 1;
    }
    if (!at)
        return 0;
    int rc = first_use(&s->callstack_sent, &s->callstack_sent_cap, at - 1);
    if (rc <= 0)
        return rc < 0 ? rc : (int64_t)at;
    if (tg_grow(&s->cs, &s->cap_cs, s->n_cs + 1, sizeof *s->cs) < 0)
        return TG_ERR_NOMEM;
    Perfetto__Protos__Callstack *pc = &s->cs[s->n_cs++];
    perfetto__protos__callstack__init(pc);
    pc->has_iid = 1;
    pc->iid = at;
    pc->n_frame_ids = st->depth;
    pc->frame_ids = s->frame_ids; /* one new callstack a packet at most: the sample's */
    return (int64_t)at;
}

/* Pointer arrays over the packet's new items (built once the items stop moving). */
#define POINT(s, items, ptrs, n, cap)                                                              \
    (tg_grow(&(s)->ptrs, &(s)->cap, (s)->n + 1, sizeof *(s)->ptrs) < 0                             \
         ? TG_ERR_NOMEM                                                                            \
         : (fill_ptrs((void **)(s)->ptrs, (s)->items, sizeof *(s)->items, (s)->n), 0))

static void fill_ptrs(void **ptrs, void *items, size_t size, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ptrs[i] = (char *)items + i * size;
}

/* Marks every item of a sent-flags array unsent (none yet: the array is not allocated). */
static void forget_sent(void *sent, size_t cap)
{
    if (cap)
        memset(sent, 0, cap);
}

int tg_pf_samples_event(tg_pf_samples *s, tg_pf_packets *pk, const tg_event *ev)
{
    tg_sample_stack st;
    int rc = tg_sample_walker_feed(s->walker, ev, &st);
    if (rc <= 0)
        return rc;
    int64_t ns = tg_event_time_ns(ev);
    /* the samples' own sequence: keyed by this writer, which no stream is */
    tg_pf_seq *seq = tg_pf_seq_of(pk, (tg_stream *)s);
    if (!seq)
        return TG_ERR_NOMEM;
    if (!seq->started) { /* new, or a new part: everything is sent again */
        forget_sent(s->string_sent, s->string_sent_cap);
        forget_sent(s->mapping_sent, s->mapping_sent_cap);
        forget_sent(s->frame_sent, s->frame_sent_cap);
        forget_sent(s->callstack_sent, s->callstack_sent_cap);
        if ((rc = tg_pf_seq_start(pk, seq, ns, 0)) < 0)
            return rc;
    }
    s->n_str = s->n_map = s->n_frm = s->n_cs = s->n_bid = 0;
    int64_t callstack = callstack_iid(s, &st);
    if (callstack < 0)
        return (int)callstack;
    for (size_t i = 0; i < s->n_map; i++) /* the mappings and strings stay put now */
        s->map[i].path_string_ids = s->mappings[s->map[i].iid - 1].path;
    for (size_t i = 0; i < s->n_bid; i++) {
        const pfs_mapping *m = &s->mappings[s->bid[i].iid - 1];
        s->bid[i].str.data = (uint8_t *)m->build_id;
        s->bid[i].str.len = m->build_id_size;
    }
    for (size_t i = 0; i < s->n_str; i++) {
        const char *text = tg_frame_names_get(&s->strings, s->str[i].iid - 1);
        s->str[i].str.data = (uint8_t *)text;
        s->str[i].str.len = strlen(text);
    }
    if (POINT(s, str, str_p, n_str, cap_str_p) < 0 || POINT(s, map, map_p, n_map, cap_map_p) < 0 ||
        POINT(s, frm, frm_p, n_frm, cap_frm_p) < 0 || POINT(s, cs, cs_p, n_cs, cap_cs_p) < 0 ||
        POINT(s, bid, bid_p, n_bid, cap_bid_p) < 0)
        return TG_ERR_NOMEM;
    Perfetto__Protos__InternedData data = PERFETTO__PROTOS__INTERNED_DATA__INIT;
    data.n_function_names = data.n_mapping_paths = 0;
    /* function names and path components share one iid space; Perfetto looks names up in
     * function_names and paths in mapping_paths, so each string goes in both */
    data.function_names = data.mapping_paths = s->str_p;
    data.n_function_names = data.n_mapping_paths = s->n_str;
    data.build_ids = s->bid_p;
    data.n_build_ids = s->n_bid;
    data.mappings = s->map_p;
    data.n_mappings = s->n_map;
    data.frames = s->frm_p;
    data.n_frames = s->n_frm;
    data.callstacks = s->cs_p;
    data.n_callstacks = s->n_cs;
    Perfetto__Protos__PerfSample sample = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
    sample.has_pid = sample.has_tid = sample.has_cpu_mode = 1;
    sample.has_cpu = ev->cpu >= 0; /* a sample without PERF_SAMPLE_CPU has none */
    sample.cpu = (uint32_t)ev->cpu;
    sample.pid = (uint32_t)st.pid;
    sample.tid = (uint32_t)st.tid;
    sample.cpu_mode = (uint32_t)tg_event_cpu_mode(ev);
    sample.has_callstack_iid = callstack != 0;
    sample.callstack_iid = (uint64_t)callstack;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    tg_pf_seq_stamp(&pkt, seq, ns);
    pkt.perf_sample = &sample;
    pkt.has_sequence_flags = 1;
    pkt.sequence_flags = TG_PF_SEQ_NEEDS_STATE;
    if (s->n_str || s->n_map || s->n_frm || s->n_cs || s->n_bid)
        pkt.interned_data = &data;
    rc = tg_pf_packet_put(pk, &pkt);
    return rc < 0 ? rc : 1;
}

int tg_pf_samples_open(tg_pf_samples **out, tg_set *set, const tg_options *opts)
{
    *out = NULL;
    if (!tg_set_has_samples(set))
        return 0;
    tg_pf_samples *s = calloc(1, sizeof *s);
    if (!s || !(s->walker = tg_sample_walker_new(opts))) {
        free(s);
        return TG_ERR_NOMEM;
    }
    *out = s;
    return 0;
}

void tg_pf_samples_free(tg_pf_samples *s)
{
    if (!s)
        return;
    tg_sample_walker_free(s->walker);
    tg_frame_names_free(&s->strings);
    free(s->string_sent);
    free(s->mappings);
    free(s->frames);
    free(s->callstacks);
    free(s->mapping_sent);
    free(s->frame_sent);
    free(s->callstack_sent);
    tg_hash_free(&s->mapping_of);
    tg_hash_free(&s->frame_of);
    tg_hash_free(&s->callstack_of);
    free(s->str);
    free(s->str_p);
    free(s->map);
    free(s->map_p);
    free(s->bid);
    free(s->bid_p);
    free(s->frm);
    free(s->frm_p);
    free(s->cs);
    free(s->cs_p);
    free(s->frame_ids);
    free(s);
}
