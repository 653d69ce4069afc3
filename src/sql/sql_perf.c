/* sql_perf.c - perf.data samples as Perfetto's profiler tables have them: perf_sample (one
 * row per sample, its thread, CPU and call stack), stack_profile_callsite (the stacks as a
 * tree: a callsite is a frame under its parent callsite), stack_profile_frame (a place in a
 * mapping: its address relative to the mapped file and the symbol there) and
 * stack_profile_mapping (a mapped file of a process, or the kernel's).
 *
 * The tables are built together by one pass over the events, on the first query of any of
 * them: each perf.data trace of the set has perf's session (threads and maps from the
 * PERF_RECORD_* events, symbols from the mapped ELF files, under the `symfs` option when
 * given), and each sample's call chain is resolved by the walk the folded writer uses
 * (common/perf/perf_chain_walk.h).  Ids are given in one deterministic order: samples in
 * the merged event order, each sample's chain from the outermost frame to the sampled one,
 * a mapping, frame or callsite numbered when first met.  A frame is a (mapping, rel_pc)
 * pair; its name is the symbol there, NULL without one (perf script's "[unknown]").  A
 * sample's perf_session_id is its file's rank among the set's perf.data files.  cpu_mode is
 * the sample's record's cpumode as Perfetto names it (tg_cpu_mode_name: "kernel", "user",
 * "hypervisor", ...).  A sample
 * without a call chain has callsite_id NULL.
 *
 * A trace that states its stacks resolved (a Perfetto trace's PerfSample packets: core's
 * stack profile, tg_event_callsite) gives its samples' callsites, frames and mappings as
 * it has them, interned into the same rows; its perf sessions are its sample classes (one
 * per packet sequence, as trace_processor numbers them), numbered with the perf.data
 * files' as first met.  A frame named "" (none) is NULL, as a frame without a symbol.
 *
 * perf_session has a row per session, as trace_processor's perf importers fill it: a
 * perf.data file's cmdline is its cmdline feature (perf's arguments joined by spaces), a
 * Perfetto sequence's is NULL.  A perf.data mapping's build_id is the one the file's build-id
 * feature records for its path (perf buildid-list's, as lowercase hex; NULL when none).
 * Memory: one record per sample, mapping, frame, callsite and session; a set without samples
 * makes no pass. */
#include "common/perf/perf_chain_walk.h"
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

enum { PS_ID, PS_TS, PS_UTID, PS_CPU, PS_CPU_MODE, PS_CALLSITE, PS_UNWIND, PS_SESSION, PS_COUNT };
enum { CS_ID, CS_DEPTH, CS_PARENT, CS_FRAME, CS_COUNT };
enum { SE_ID, SE_CMDLINE, SE_COUNT };
enum { FR_ID, FR_NAME, FR_MAPPING, FR_REL_PC, FR_SYMBOL_SET, FR_DEOBF, FR_COUNT };
enum {
    MP_ID,
    MP_BUILD_ID,
    MP_EXACT_OFFSET,
    MP_START_OFFSET,
    MP_START,
    MP_END,
    MP_LOAD_BIAS,
    MP_NAME,
    MP_COUNT
};

struct perf_sample_row {
    int64_t ts, utid, cpu, callsite; /* SQL_ANY: NULL */
    uint32_t session;
    uint8_t mode;
};

/* The keys: integers (a mapping's name is its interned pointer), compared whole. */
struct mapping_row {
    uint64_t session, start, end, pgoff, exact_offset, load_bias;
    const char *name, *build_id; /* build_id NULL: none */
};
struct frame_row {
    uint64_t mapping, rel_pc;
    const char *name;
};
struct callsite_row {
    int64_t parent, frame, depth;
};

/* A perf session of the set: a perf.data trace (cls NULL) with perf's session and its
 * symbols, or the sample class of a trace with resolved stacks. */
struct perf_trace {
    const tg_trace *trace;
    const tg_event_class *cls;
    perf_session s;
    perf_symbols syms;
};

/* A class: whether its events are samples of a perf.data file and where their fields are. */
struct perf_class {
    bool known, sample, resolved; /* resolved: its samples name their trace's callsites */
    tg_scope scope;
    long chain;
};

struct sql_perf {
    struct perf_sample_row *samples;
    size_t n_samples, cap_samples;
    struct mapping_row *mappings;
    size_t n_mappings, cap_mappings;
    struct frame_row *frames;
    size_t n_frames, cap_frames;
    struct callsite_row *callsites;
    size_t n_callsites, cap_callsites;
    tg_hash mapping_of, frame_of, callsite_of;
    const char **session_cmdlines; /* per session, NULL none */
    size_t n_sessions;
};

struct perf_build {
    sql_db *db;
    struct sql_perf *p;
    struct perf_trace *traces;
    size_t n_traces, cap_traces;
    struct perf_class *classes;
    size_t n_classes, cap_classes;
    perf_chain_frame *chain;
    size_t cap_chain;
    size_t *frames; /* a resolved stack's frames (their trace's indexes), innermost first */
    size_t cap_frames;
    tg_hash resolved_of; /* (session, the trace's callsite) -> callsite + 1 */
    tg_hash build_id_of; /* a perf session's dso name -> its build id (interned) + 1, or 1 */
};

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull + (h >> 29); }

static int mapping_eq(const void *ctx, uint64_t i)
{
    const struct sql_perf *p = ((const void *const *)ctx)[0];
    const struct mapping_row *k = ((const void *const *)ctx)[1];
    const struct mapping_row *m = &p->mappings[i];
    return m->session == k->session && m->start == k->start && m->end == k->end &&
           m->pgoff == k->pgoff && m->name == k->name && m->exact_offset == k->exact_offset &&
           m->load_bias == k->load_bias && m->build_id == k->build_id;
}
static int frame_eq(const void *ctx, uint64_t i)
{
    const struct sql_perf *p = ((const void *const *)ctx)[0];
    const struct frame_row *k = ((const void *const *)ctx)[1];
    return p->frames[i].mapping == k->mapping && p->frames[i].rel_pc == k->rel_pc;
}
static int callsite_eq(const void *ctx, uint64_t i)
{
    const struct sql_perf *p = ((const void *const *)ctx)[0];
    const struct callsite_row *k = ((const void *const *)ctx)[1];
    return p->callsites[i].parent == k->parent && p->callsites[i].frame == k->frame;
}

/* The id of the row equal to *key in rows (n of them), added when new: >= 0, or NOMEM. */
static int64_t intern_row(struct sql_perf *p, tg_hash *h, uint64_t hash, tg_hash_eq_fn eq,
                          const void *key, void **rows, size_t *n, size_t *cap, size_t size)
{
    const void *ctx[2] = {p, key};
    uint64_t *found = tg_hash_find_by(h, hash, eq, ctx);
    if (found)
        return (int64_t)*found;
    uint64_t *slot;
    if (tg_grow(rows, cap, *n + 1, size) < 0 || tg_hash_add(h, hash, &slot) < 0)
        return TG_ERR_NOMEM;
    memcpy((char *)*rows + *n * size, key, size);
    *slot = *n;
    return (int64_t)(*n)++;
}

/* The id of mapping *m (its name and build id interned here). */
static int64_t mapping_id(struct perf_build *b, struct mapping_row *m)
{
    struct sql_perf *p = b->p;
    m->name = sql_intern(b->db, m->name, strlen(m->name));
    if (!m->name ||
        (m->build_id && !(m->build_id = sql_intern(b->db, m->build_id, strlen(m->build_id)))))
        return TG_ERR_NOMEM;
    uint64_t h = mix(mix(mix(mix(tg_hash_str(m->name), m->session), m->start), m->end), m->pgoff);
    return intern_row(p, &p->mapping_of, h, mapping_eq, m, (void **)&p->mappings, &p->n_mappings,
                      &p->cap_mappings, sizeof *m);
}

/* The id of the frame at rel_pc in mapping, named name (NULL none). */
static int64_t frame_row_id(struct perf_build *b, int64_t mapping, uint64_t rel_pc,
                            const char *name)
{
    struct sql_perf *p = b->p;
    if (mapping < 0)
        return mapping;
    struct frame_row fr = {(uint64_t)mapping, rel_pc, NULL};
    if (name && !(fr.name = sql_intern(b->db, name, strlen(name))))
        return TG_ERR_NOMEM;
    return intern_row(p, &p->frame_of, mix(fr.mapping, fr.rel_pc), frame_eq, &fr,
                      (void **)&p->frames, &p->n_frames, &p->cap_frames, sizeof fr);
}

/* The build id the perf.data file t records for the object at path, as lowercase hex
 * interned (NULL: none), looked up once per name. */
static int build_id_of(struct perf_build *b, const tg_trace *t, const char *path, const char **out)
{
    uint64_t *slot;
    int added = tg_hash_insert(&b->build_id_of, (uintptr_t)path, &slot);
    if (added < 0)
        return TG_ERR_NOMEM;
    if (!added) {
        *out = *slot > 1 ? (const char *)(uintptr_t)(*slot - 1) : NULL;
        return 0;
    }
    *slot = 1;
    *out = NULL;
    const tg_build_id_info *id = tg_trace_build_id_find(t, path);
    if (!id || !id->size)
        return 0;
    char hex[2 * sizeof id->id + 1];
    size_t n = id->size < sizeof id->id ? id->size : sizeof id->id;
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = "0123456789abcdef"[id->id[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[id->id[i] & 15];
    }
    if (!(*out = sql_intern(b->db, hex, 2 * n)))
        return TG_ERR_NOMEM;
    *slot = (uintptr_t)*out + 1;
    return 0;
}

static int64_t frame_id(struct perf_build *b, uint32_t session, const perf_chain_frame *f)
{
    struct mapping_row m = {.session = session, .name = "[unknown]"};
    if (f->map) {
        m = (struct mapping_row){.session = session,
                                 .start = f->map->start,
                                 .end = f->map->end,
                                 .pgoff = f->map->pgoff,
                                 .exact_offset = f->map->pgoff,
                                 .name = f->map->dso};
        int rc = build_id_of(b, b->traces[session].trace, f->map->dso, &m.build_id);
        if (rc < 0)
            return rc;
    }
    return frame_row_id(b, mapping_id(b, &m), perf_map_addr(f->map, f->ip),
                        f->sym ? f->sym->name : NULL);
}

static int64_t intern_callsite(struct perf_build *b, int64_t parent, int64_t frame, int64_t depth)
{
    struct sql_perf *p = b->p;
    struct callsite_row c = {parent == SQL_ANY ? -1 : parent, frame, depth};
    return intern_row(p, &p->callsite_of, mix((uint64_t)c.parent, (uint64_t)frame), callsite_eq, &c,
                      (void **)&p->callsites, &p->n_callsites, &p->cap_callsites, sizeof c);
}

/* The callsite of the n frames in b->chain (the sampled one first), SQL_ANY for none. */
static int64_t callsite_id(struct perf_build *b, uint32_t session, long n)
{
    int64_t parent = SQL_ANY;
    for (long depth = 0; n-- > 0; depth++) {
        int64_t frame = frame_id(b, session, &b->chain[n]);
        if (frame < 0)
            return frame;
        if ((parent = intern_callsite(b, parent, frame, depth)) < 0)
            return parent;
    }
    return parent;
}

/* The frame of a trace's resolved stack (its index in the trace's profile). */
static int64_t resolved_frame_id(struct perf_build *b, uint32_t session, const tg_trace *t,
                                 size_t frame)
{
    const tg_profile_frame *f = tg_trace_profile_frame(t, frame);
    const tg_profile_mapping *pm = f ? tg_trace_profile_mapping(t, f->mapping) : NULL;
    if (!pm)
        return TG_ERR_FORMAT;
    struct mapping_row m = {.session = session,
                            .start = pm->start,
                            .end = pm->end,
                            .pgoff = pm->start_offset,
                            .exact_offset = pm->exact_offset,
                            .load_bias = pm->load_bias,
                            .name = pm->name,
                            .build_id = *pm->build_id ? pm->build_id : NULL};
    return frame_row_id(b, mapping_id(b, &m), f->rel_pc, *f->name ? f->name : NULL);
}

/* The callsite of a trace's resolved callsite cs, SQL_ANY for none. */
static int64_t resolved_callsite_id(struct perf_build *b, uint32_t session, const tg_trace *t,
                                    int64_t cs)
{
    if (cs < 0)
        return SQL_ANY;
    uint64_t key = (uint64_t)session << 40 ^ (uint64_t)cs, *slot;
    const uint64_t *known = tg_hash_find(&b->resolved_of, key);
    if (known)
        return (int64_t)*known;
    /* its frames, innermost first: a parent is interned before its children, so the walk
     * ends within the callsites' count */
    size_t n = 0;
    for (const tg_profile_callsite *c = tg_trace_profile_callsite(t, (size_t)cs); c;
         c = c->parent >= 0 ? tg_trace_profile_callsite(t, (size_t)c->parent) : NULL) {
        if (tg_grow(&b->frames, &b->cap_frames, n + 1, sizeof *b->frames) < 0)
            return TG_ERR_NOMEM;
        b->frames[n++] = c->frame;
        if (n > tg_trace_profile_callsite_count(t))
            return TG_ERR_FORMAT;
    }
    int64_t parent = SQL_ANY;
    for (int64_t depth = 0; n-- > 0; depth++) {
        int64_t frame = resolved_frame_id(b, session, t, b->frames[n]);
        if (frame < 0)
            return frame;
        if ((parent = intern_callsite(b, parent, frame, depth)) < 0)
            return parent;
    }
    if (tg_hash_insert(&b->resolved_of, key, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = (uint64_t)parent;
    return parent;
}

/* The session of trace t (cls: a resolved-stack trace's sample class, NULL a perf.data
 * file's). */
static struct perf_trace *trace_of(struct perf_build *b, const tg_trace *t,
                                   const tg_event_class *cls, uint32_t *rank)
{
    for (size_t i = 0; i < b->n_traces; i++)
        if (b->traces[i].trace == t && b->traces[i].cls == cls) {
            *rank = (uint32_t)i;
            return &b->traces[i];
        }
    if (tg_grow(&b->traces, &b->cap_traces, b->n_traces + 1, sizeof *b->traces) < 0)
        return NULL;
    struct perf_trace *pt = &b->traces[b->n_traces];
    memset(pt, 0, sizeof *pt);
    pt->trace = t;
    pt->cls = cls;
    perf_symbols_configure(&pt->syms, b->db->opts);
    *rank = (uint32_t)b->n_traces++;
    return pt;
}

static const struct perf_class *class_of(struct perf_build *b, const tg_event *ev)
{
    size_t n = ev->cls ? ev->cls->number : 0;
    if (n >= b->n_classes &&
        tg_grow_zeroed(&b->classes, &b->n_classes, &b->cap_classes, n + 1, sizeof *b->classes) < 0)
        return NULL;
    struct perf_class *k = &b->classes[n];
    if (k->known)
        return k;
    k->known = true;
    if (ev->cls && ev->cls->profile_sample) {
        k->sample = k->resolved = true;
        k->chain = -1;
        return k;
    }
    const char *format = tg_trace_format(tg_stream_trace(ev->stream));
    k->sample = format && strcmp(format, "perf") == 0 &&
                strncmp(tg_event_name(ev), "PERF_RECORD_", 12) != 0;
    k->scope =
        tg_event_class_system(tg_event_class_of(ev)) ? TG_SCOPE_EVENT_CONTEXT : TG_SCOPE_PAYLOAD;
    k->chain = perf_chain_field(ev, k->scope);
    return k;
}

static int add_sample(struct perf_build *b, const tg_event *ev, const struct perf_class *k,
                      int64_t ts)
{
    uint32_t session;
    const tg_trace *t = tg_stream_trace(ev->stream);
    struct perf_trace *pt = trace_of(b, t, k->resolved ? ev->cls : NULL, &session);
    if (!pt)
        return TG_ERR_NOMEM;
    struct perf_sample_row r = {ts,
                                ev->utid >= 0 ? ev->utid : SQL_ANY,
                                ev->cpu >= 0 ? ev->cpu : SQL_ANY,
                                SQL_ANY,
                                session,
                                TG_CPU_MODE_UNKNOWN};
    r.mode = (uint8_t)tg_event_cpu_mode(ev);
    if (k->chain >= 0) {
        long n =
            perf_chain_walk(&pt->s, &pt->syms, ev, k->scope, k->chain, &b->chain, &b->cap_chain);
        r.callsite = n < 0 ? TG_ERR_NOMEM : callsite_id(b, session, n);
        if (r.callsite < 0 && r.callsite != SQL_ANY)
            return (int)r.callsite;
    } else if (k->resolved) {
        r.callsite = resolved_callsite_id(b, session, t, tg_event_callsite(ev));
        if (r.callsite < 0 && r.callsite != SQL_ANY)
            return (int)r.callsite;
    }
    struct sql_perf *p = b->p;
    TG_TRY(tg_grow(&p->samples, &p->cap_samples, p->n_samples + 1, sizeof *p->samples));
    p->samples[p->n_samples++] = r;
    return 0;
}

void sql_perf_free(sql_db *db)
{
    struct sql_perf *p = db->perf;
    if (!p)
        return;
    free(p->samples);
    free(p->mappings);
    free(p->frames);
    free(p->callsites);
    free(p->session_cmdlines);
    tg_hash_free(&p->mapping_of);
    tg_hash_free(&p->frame_of);
    tg_hash_free(&p->callsite_of);
    free(p);
    db->perf = NULL;
}

/* Whether the set holds a perf.data file or a trace with resolved stacks (else the tables
 * are empty, and no pass is made). */
static bool has_perf(const sql_db *db)
{
    for (size_t i = 0, n = tg_set_trace_count(db->set); i < n; i++) {
        const tg_trace *t = tg_set_trace(db->set, i);
        const char *format = tg_trace_format(t);
        if ((format && strcmp(format, "perf") == 0) || tg_trace_profile_callsite_count(t))
            return true;
        for (size_t c = 0, nc = tg_trace_class_count(t); c < nc; c++)
            if (tg_trace_class(t, c)->profile_sample)
                return true;
    }
    return false;
}

/* Builds the tables by one pass over the events, once.  0 or a negative status. */
static int perf_build(sql_db *db)
{
    if (db->perf)
        return 0;
    struct perf_build b = {.db = db, .p = calloc(1, sizeof *b.p)};
    if (!b.p)
        return sql_fail(db, TG_ERR_NOMEM, NULL);
    if (!has_perf(db)) {
        db->perf = b.p;
        return 0;
    }
    sql_scan scan;
    int rc = sql_scan_open(db, &scan);
    const tg_event *ev;
    while (rc >= 0 && (rc = sql_scan_next(&scan, &ev)) > 0) {
        const struct perf_class *k = class_of(&b, ev);
        rc = k ? 0 : TG_ERR_NOMEM;
        if (!k)
            continue;
        const char *format = tg_trace_format(tg_stream_trace(ev->stream));
        if (k->sample) {
            rc = add_sample(&b, ev, k, scan.last_ns);
        } else if (format && strcmp(format, "perf") == 0) {
            uint32_t rank;
            struct perf_trace *pt = trace_of(&b, tg_stream_trace(ev->stream), NULL, &rank);
            if (!pt)
                rc = TG_ERR_NOMEM;
            else
                perf_session_update(&pt->s, ev);
        }
    }
    if (rc >= 0 && b.n_traces &&
        !(b.p->session_cmdlines = calloc(b.n_traces, sizeof *b.p->session_cmdlines)))
        rc = TG_ERR_NOMEM;
    for (size_t i = 0; rc >= 0 && i < b.n_traces; i++) {
        const tg_env_entry *e =
            b.traces[i].cls ? NULL : tg_trace_env_find(b.traces[i].trace, "cmdline");
        if (e && e->value &&
            !(b.p->session_cmdlines[i] = sql_intern(db, e->value, strlen(e->value))))
            rc = TG_ERR_NOMEM;
    }
    if (rc >= 0)
        b.p->n_sessions = b.n_traces;
    for (size_t i = 0; i < b.n_traces; i++) {
        if (rc >= 0 && (b.traces[i].s.nomem || b.traces[i].syms.nomem))
            rc = TG_ERR_NOMEM;
        perf_session_free(&b.traces[i].s);
        perf_symbols_free(&b.traces[i].syms);
    }
    free(b.traces);
    free(b.classes);
    free(b.chain);
    free(b.frames);
    tg_hash_free(&b.resolved_of);
    tg_hash_free(&b.build_id_of);
    sql_scan_close(&scan);
    db->perf = b.p;
    if (rc < 0) {
        sql_perf_free(db);
        return sql_fail(db, rc, NULL);
    }
    return 0;
}

/* ---- the tables ---------------------------------------------------------------------------- */

static int build_and_walk(sql_cursor *c, size_t (*count)(const struct sql_perf *))
{
    int rc = perf_build(c->db);
    return rc < 0 ? rc : sql_reg_filter(c, count(c->db->perf), c->q.id);
}

static size_t n_samples(const struct sql_perf *p) { return p->n_samples; }
static size_t n_callsites(const struct sql_perf *p) { return p->n_callsites; }
static size_t n_frames(const struct sql_perf *p) { return p->n_frames; }
static size_t n_mappings(const struct sql_perf *p) { return p->n_mappings; }
static size_t n_sessions(const struct sql_perf *p) { return p->n_sessions; }

static int sample_filter(sql_cursor *c) { return build_and_walk(c, n_samples); }
static int callsite_filter(sql_cursor *c) { return build_and_walk(c, n_callsites); }
static int frame_filter(sql_cursor *c) { return build_and_walk(c, n_frames); }
static int mapping_filter(sql_cursor *c) { return build_and_walk(c, n_mappings); }
static int session_filter(sql_cursor *c) { return build_and_walk(c, n_sessions); }

static int session_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const char *cmdline = c->db->perf->session_cmdlines[i];
    sql_int(&c->row[SE_ID], (int64_t)i);
    if (cmdline)
        sql_text(&c->row[SE_CMDLINE], cmdline);
    else
        sql_null(&c->row[SE_CMDLINE]);
    return 0;
}

static int sample_next(sql_cursor *c)
{
    size_t i;
    const struct perf_sample_row *r;
    do {
        if ((i = sql_reg_next(c)) == SIZE_MAX)
            return 0;
        r = &c->db->perf->samples[i];
    } while (!sql_ts_in(&c->q, r->ts) || (c->q.cpu != SQL_ANY && r->cpu != c->q.cpu) ||
             (c->q.utid != SQL_ANY && r->utid != c->q.utid));
    sql_val *v = c->row;
    sql_int(&v[PS_ID], (int64_t)i);
    sql_int(&v[PS_TS], r->ts);
    sql_int_or_null(&v[PS_UTID], r->utid);
    sql_int_or_null(&v[PS_CPU], r->cpu);
    sql_text(&v[PS_CPU_MODE], tg_cpu_mode_name((tg_cpu_mode)r->mode));
    sql_int_or_null(&v[PS_CALLSITE], r->callsite);
    sql_null(&v[PS_UNWIND]);
    sql_int(&v[PS_SESSION], r->session);
    return 0;
}

static int callsite_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const struct callsite_row *r = &c->db->perf->callsites[i];
    sql_val *v = c->row;
    sql_int(&v[CS_ID], (int64_t)i);
    sql_int(&v[CS_DEPTH], r->depth);
    sql_int_or_null(&v[CS_PARENT], r->parent >= 0 ? r->parent : SQL_ANY);
    sql_int(&v[CS_FRAME], r->frame);
    return 0;
}

static int frame_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const struct frame_row *r = &c->db->perf->frames[i];
    sql_val *v = c->row;
    sql_int(&v[FR_ID], (int64_t)i);
    sql_text(&v[FR_NAME], r->name);
    sql_int(&v[FR_MAPPING], (int64_t)r->mapping);
    sql_int(&v[FR_REL_PC], (int64_t)r->rel_pc);
    sql_null(&v[FR_SYMBOL_SET]);
    sql_null(&v[FR_DEOBF]);
    return 0;
}

static int mapping_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const struct mapping_row *r = &c->db->perf->mappings[i];
    sql_val *v = c->row;
    sql_int(&v[MP_ID], (int64_t)i);
    if (r->build_id)
        sql_text(&v[MP_BUILD_ID], r->build_id);
    else
        sql_null(&v[MP_BUILD_ID]);
    sql_int(&v[MP_EXACT_OFFSET], (int64_t)r->exact_offset);
    sql_int(&v[MP_START_OFFSET], (int64_t)r->pgoff);
    sql_int(&v[MP_START], (int64_t)r->start);
    sql_int(&v[MP_END], (int64_t)r->end);
    sql_int(&v[MP_LOAD_BIAS], (int64_t)r->load_bias);
    sql_text(&v[MP_NAME], r->name);
    return 0;
}

const sql_table sql_table_perf_sample = {
    .name = "perf_sample",
    .columns = "id INTEGER, ts INTEGER, utid INTEGER, cpu INTEGER, cpu_mode TEXT, "
               "callsite_id INTEGER, unwind_error TEXT, perf_session_id INTEGER",
    .n_cols = PS_COUNT,
    .col_ts = PS_TS,
    .col_name = -1,
    .col_cpu = PS_CPU,
    .col_utid = PS_UTID,
    .col_id = PS_ID,
    .col_track = -1,
    .col_argset = -1,
    .ts_ordered = true,
    .filter = sample_filter,
    .next = sample_next,
    .close = sql_reg_close,
};

const sql_table sql_table_stack_profile_callsite = {
    .name = "stack_profile_callsite",
    .columns = "id INTEGER, depth INTEGER, parent_id INTEGER, frame_id INTEGER",
    .n_cols = CS_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = CS_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = callsite_filter,
    .next = callsite_next,
    .close = sql_reg_close,
};

const sql_table sql_table_stack_profile_frame = {
    .name = "stack_profile_frame",
    .columns = "id INTEGER, name TEXT, mapping INTEGER, rel_pc INTEGER, symbol_set_id INTEGER, "
               "deobfuscated_name TEXT",
    .n_cols = FR_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = FR_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = frame_filter,
    .next = frame_next,
    .close = sql_reg_close,
};

const sql_table sql_table_stack_profile_mapping = {
    .name = "stack_profile_mapping",
    .columns = "id INTEGER, build_id TEXT, exact_offset INTEGER, start_offset INTEGER, "
               "start INTEGER, end INTEGER, load_bias INTEGER, name TEXT",
    .n_cols = MP_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = MP_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = mapping_filter,
    .next = mapping_next,
    .close = sql_reg_close,
};

const sql_table sql_table_perf_session = {
    .name = "perf_session",
    .columns = "id INTEGER, cmdline TEXT",
    .n_cols = SE_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = SE_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = session_filter,
    .next = session_next,
    .close = sql_reg_close,
};
