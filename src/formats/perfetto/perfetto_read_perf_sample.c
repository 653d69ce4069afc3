/* perfetto_read_perf_sample.c - PerfSample packets (Perfetto's perf profiler, traceglot's
 * `convert --to perfetto` of a perf.data file) and the interned profile data their stacks
 * are named by.
 *
 * A sequence's InternedData carries, beside the names the other packets use, a profiler's
 * items: function_names, build_ids and mapping_paths (strings), mappings (a mapped file:
 * its path as components, its build id, range and offsets), frames (a function name in a
 * mapping at a relative pc) and callstacks (frame ids, the outermost first).  perfetto_read
 * .proto leaves those fields out, so they come as unknown fields and are kept here as their
 * bytes (in the trace's arena), keyed like the other interned items by sequence, its
 * generation (a cleared incremental state starts over), kind and iid.
 *
 * A PerfSample is read as trace_processor's profile module reads it: a report of lost
 * kernel records is counted per CPU (perf_cpu_lost_records), a producer event is no
 * sample, a skipped sample is counted by why (perf_samples_skipped, ..._dataloss) and still
 * a sample; its callstack is resolved through the sequence's interned data into the trace's
 * stack profile (core's tg_trace_profile_add_*: mapping name "/" + each component, a build
 * id as lowercase hex, a frame of function name "" when it has none), an item missing from
 * the interned data counted (stackprofile_invalid_*_id) and the sample left without a
 * stack.  Each sample is a record of its sequence's class (one perf session per sequence,
 * as trace_processor numbers them), its callsite and cpu mode in the record's addr. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>

enum {
    PF_PACKET_PERF_SAMPLE = 66,
    /* InternedData's profile fields */
    PF_KIND_FUNCTION_NAMES = 5,
    PF_KIND_FRAMES = 6,
    PF_KIND_CALLSTACKS = 7,
    PF_KIND_BUILD_IDS = 16,
    PF_KIND_MAPPING_PATHS = 17,
    PF_KIND_MAPPINGS = 19,
    /* the depth of a stack read, at most: a callstack longer is cut (counted) */
    PF_MAX_STACK = 4096,
};

typedef struct pf_blob {
    const uint8_t *bytes;
    size_t len;
} pf_blob;

struct pf_profile {
    pf_blob *items;
    size_t n_items, cap_items;
    tg_hash item_of;       /* interned key -> items' index */
    tg_hash callsite_of;   /* (sequence, generation, callstack iid) -> callsite + 1 */
    tg_hash class_of;      /* sequence id -> its samples' class */
    tg_hash task_seen;     /* tid -> pid + 1 given to pf_add_task */
    int64_t *lost_per_cpu; /* perf_cpu_lost_records by CPU */
    size_t n_lost_cpus, cap_lost_cpus;
};

static struct pf_profile *profile_of(pf_trace *p)
{
    if (!p->profile)
        p->profile = calloc(1, sizeof *p->profile);
    return p->profile;
}

void pf_profile_free(pf_trace *p)
{
    struct pf_profile *pp = p->profile;
    if (!pp)
        return;
    free(pp->items);
    tg_hash_free(&pp->item_of);
    tg_hash_free(&pp->callsite_of);
    tg_hash_free(&pp->class_of);
    tg_hash_free(&pp->task_seen);
    free(pp->lost_per_cpu);
    free(pp);
    p->profile = NULL;
}

static uint64_t item_key(const pf_sequence *s, uint64_t kind, uint64_t iid)
{
    uint64_t k = (s->id + 1) * 0x9e3779b97f4a7c15ull ^ (s->generation + 1) * 0xc2b2ae3d27d4eb4full;
    return (k ^ (kind + 101) * 0x165667b19e3779f9ull) + iid * 0x27d4eb2f165667c5ull;
}

/* The iid of an interned message (its field 1), 0 when it has none. */
static uint64_t iid_of(const uint8_t *data, size_t len)
{
    const uint8_t *q = data, *end = data + len;
    pf_wire w;
    uint64_t iid = 0;
    while (pf_wire_next(&q, end, &w) > 0)
        if (w.field == 1 && w.type == 0)
            iid = w.value;
    return iid;
}

static int keep_item(tg_trace *t, struct pf_profile *pp, const pf_sequence *s, uint64_t kind,
                     const uint8_t *data, size_t len)
{
    uint8_t *copy = tg_arena_alloc(&t->arena, len ? len : 1);
    if (!copy || tg_grow(&pp->items, &pp->cap_items, pp->n_items + 1, sizeof *pp->items) < 0)
        return TG_ERR_NOMEM;
    memcpy(copy, data, len);
    uint64_t *slot;
    if (tg_hash_insert(&pp->item_of, item_key(s, kind, iid_of(data, len)), &slot) < 0)
        return TG_ERR_NOMEM;
    pp->items[pp->n_items] = (pf_blob){copy, len};
    *slot = pp->n_items++;
    return 0;
}

int pf_read_profile_interned(tg_trace *t, const pf_sequence *s, const PerfettoRead__InternedData *d)
{
    struct pf_profile *pp = NULL;
    for (unsigned i = 0; i < d->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &d->base.unknown_fields[i];
        switch (u->tag) {
        case PF_KIND_FUNCTION_NAMES:
        case PF_KIND_FRAMES:
        case PF_KIND_CALLSTACKS:
        case PF_KIND_BUILD_IDS:
        case PF_KIND_MAPPING_PATHS:
        case PF_KIND_MAPPINGS: break;
        default: continue;
        }
        size_t len;
        const uint8_t *data = pf_unknown_bytes(u, &len);
        if (!data)
            continue;
        if (!pp && !(pp = profile_of(t->priv)))
            return TG_ERR_NOMEM;
        TG_TRY(keep_item(t, pp, s, u->tag, data, len));
    }
    return 0;
}

static const pf_blob *item(const struct pf_profile *pp, const pf_sequence *s, uint64_t kind,
                           uint64_t iid)
{
    uint64_t *slot = tg_hash_find(&pp->item_of, item_key(s, kind, iid));
    return slot ? &pp->items[*slot] : NULL;
}

/* An interned string's bytes (field 2 of an InternedString), or NULL when absent. */
static const uint8_t *interned_string(const struct pf_profile *pp, const pf_sequence *s,
                                      uint64_t kind, uint64_t iid, size_t *len)
{
    const pf_blob *b = item(pp, s, kind, iid);
    if (!b)
        return NULL;
    const uint8_t *q = b->bytes, *end = b->bytes + b->len, *str = b->bytes;
    pf_wire w;
    *len = 0;
    while (pf_wire_next(&q, end, &w) > 0)
        if (w.field == 2 && w.type == 2) {
            str = w.bytes;
            *len = w.len;
        }
    return str;
}

static int invalid(tg_trace *t, const char *stat) { return tg_trace_count(t, stat, "error", 1); }

/* The mapping of iid on s in the trace's profile: >= 0, -1 when it cannot be made (counted),
 * or TG_ERR_NOMEM. */
static int64_t mapping_of(tg_trace *t, const struct pf_profile *pp, const pf_sequence *s,
                          uint64_t iid)
{
    const pf_blob *b = item(pp, s, PF_KIND_MAPPINGS, iid);
    if (!b)
        return invalid(t, "stackprofile_invalid_mapping_id") < 0 ? TG_ERR_NOMEM : -1;
    tg_profile_mapping m = {0};
    uint64_t build_id = 0;
    char *name = NULL, *hex = NULL;
    size_t name_len = 0, name_cap = 0;
    bool path_ended = false;
    int64_t rc = 0;
    const uint8_t *q = b->bytes, *end = b->bytes + b->len;
    pf_wire w;
    while (rc == 0 && pf_wire_next(&q, end, &w) > 0) {
        uint64_t v = w.value;
        const uint8_t *packed = w.type == 2 ? w.bytes : NULL,
                      *packed_end = packed ? packed + w.len : NULL;
        switch (w.field) {
        case 2: build_id = v; break;
        case 8: m.exact_offset = v; break;
        case 3: m.start_offset = v; break;
        case 4: m.start = v; break;
        case 5: m.end = v; break;
        case 6: m.load_bias = v; break;
        case 7: /* path_string_ids, one or packed */
            while (!path_ended && (packed ? pf_varint_at(&packed, packed_end, &v) : w.type == 0)) {
                size_t len;
                const uint8_t *str = interned_string(pp, s, PF_KIND_MAPPING_PATHS, v, &len);
                if (!str) {
                    path_ended = true; /* the path stops there, as trace_processor's does */
                    rc = invalid(t, "stackprofile_invalid_string_id");
                    break;
                }
                if (tg_grow(&name, &name_cap, name_len + len + 2, 1) < 0) {
                    rc = TG_ERR_NOMEM;
                    break;
                }
                name[name_len++] = '/';
                memcpy(name + name_len, str, len);
                name_len += len;
                name[name_len] = 0;
                if (!packed)
                    break;
            }
            break;
        default: break;
        }
    }
    if (rc == 0 && build_id) {
        size_t len;
        const uint8_t *raw = interned_string(pp, s, PF_KIND_BUILD_IDS, build_id, &len);
        if (!raw) {
            rc = invalid(t, "stackprofile_invalid_string_id");
            rc = rc < 0 ? rc : -1;
        } else if (!(hex = malloc(2 * len + 1))) {
            rc = TG_ERR_NOMEM;
        } else {
            for (size_t i = 0; i < len; i++) {
                hex[2 * i] = "0123456789abcdef"[raw[i] >> 4];
                hex[2 * i + 1] = "0123456789abcdef"[raw[i] & 15];
            }
            hex[2 * len] = 0;
        }
    }
    if (rc == 0) {
        /* a path given whole as one component gets no second '/' */
        m.name = !name ? "" : name[0] == '/' && name[1] == '/' ? name + 1 : name;
        m.build_id = hex ? hex : "";
        rc = tg_trace_profile_add_mapping(t, &m);
    }
    free(name);
    free(hex);
    return rc;
}

/* The frame of iid on s: >= 0, -1 when it cannot be made (counted), or TG_ERR_NOMEM. */
static int64_t frame_of(tg_trace *t, const struct pf_profile *pp, const pf_sequence *s,
                        uint64_t iid)
{
    const pf_blob *b = item(pp, s, PF_KIND_FRAMES, iid);
    if (!b)
        return invalid(t, "stackprofile_invalid_frame_id") < 0 ? TG_ERR_NOMEM : -1;
    uint64_t function = 0, mapping = 0, rel_pc = 0;
    const uint8_t *q = b->bytes, *end = b->bytes + b->len;
    pf_wire w;
    while (pf_wire_next(&q, end, &w) > 0) {
        if (w.type != 0)
            continue;
        if (w.field == 2)
            function = w.value;
        else if (w.field == 3)
            mapping = w.value;
        else if (w.field == 4)
            rel_pc = w.value;
    }
    int64_t m = mapping_of(t, pp, s, mapping);
    if (m < 0)
        return m;
    size_t len = 0;
    const uint8_t *name = (const uint8_t *)"";
    if (function && !(name = interned_string(pp, s, PF_KIND_FUNCTION_NAMES, function, &len)))
        return invalid(t, "stackprofile_invalid_string_id") < 0 ? TG_ERR_NOMEM : -1;
    char *text = tg_arena_strndup(&t->arena, (const char *)name, len);
    if (!text)
        return TG_ERR_NOMEM;
    tg_profile_frame f = {text, (size_t)m, rel_pc};
    return tg_trace_profile_add_frame(t, &f);
}

/* The callsite of callstack iid on s, + 1: 0 when it cannot be made (counted), or
 * TG_ERR_NOMEM. */
static int64_t callsite_of(tg_trace *t, struct pf_profile *pp, const pf_sequence *s, uint64_t iid)
{
    uint64_t key = item_key(s, PF_KIND_CALLSTACKS + 1000, iid);
    uint64_t *cached = tg_hash_find(&pp->callsite_of, key);
    if (cached)
        return (int64_t)*cached;
    const pf_blob *b = item(pp, s, PF_KIND_CALLSTACKS, iid);
    if (!b)
        return invalid(t, "stackprofile_invalid_callstack_id");
    int64_t parent = -1;
    size_t depth = 0;
    const uint8_t *q = b->bytes, *end = b->bytes + b->len;
    pf_wire w;
    while (pf_wire_next(&q, end, &w) > 0) {
        if (w.field != 2)
            continue;
        const uint8_t *packed = w.type == 2 ? w.bytes : NULL,
                      *packed_end = packed ? packed + w.len : NULL;
        uint64_t v = w.value;
        while (packed ? pf_varint_at(&packed, packed_end, &v) : w.type == 0) {
            if (depth++ >= PF_MAX_STACK)
                return invalid(t, "stackprofile_parser_error");
            int64_t f = frame_of(t, pp, s, v);
            if (f < 0)
                return f == -1 ? 0 : f;
            parent = tg_trace_profile_add_callsite(t, parent, (size_t)f);
            if (parent < 0)
                return parent;
            if (!packed)
                break;
        }
    }
    if (parent < 0)
        return invalid(t, "stackprofile_empty_callstack");
    uint64_t *slot;
    if (tg_hash_insert(&pp->callsite_of, key, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = (uint64_t)parent + 1;
    return parent + 1;
}

/* The class of s's samples: one per sequence, its perf session. */
static const tg_event_class *sample_class(tg_trace *t, struct pf_profile *pp, const pf_sequence *s)
{
    uint64_t *slot;
    int added = tg_hash_insert(&pp->class_of, s->id, &slot);
    if (added < 0)
        return NULL;
    if (!added)
        return (const tg_event_class *)(uintptr_t)*slot;
    tg_event_class *c = tg_trace_add_class(t, "perf_sample", t->n_classes, TG_KIND_GENERIC);
    if (!c)
        return NULL;
    c->system = "perf";
    c->profile_sample = true;
    *slot = (uintptr_t)c;
    return c;
}

static int count_lost(tg_trace *t, struct pf_profile *pp, uint64_t cpu, uint64_t lost)
{
    if (cpu > 4096)
        return 0;
    if (cpu >= pp->n_lost_cpus) {
        if (tg_grow_zeroed(&pp->lost_per_cpu, &pp->n_lost_cpus, &pp->cap_lost_cpus, cpu + 1,
                           sizeof *pp->lost_per_cpu) < 0)
            return TG_ERR_NOMEM;
    }
    pp->lost_per_cpu[cpu] += (int64_t)(lost > INT32_MAX ? INT32_MAX : lost);
    return tg_trace_set_stat(t, "perf_cpu_lost_records", "data_loss", (int64_t)cpu,
                             pp->lost_per_cpu[cpu]);
}

int pf_read_perf_sample(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s,
                        int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    for (unsigned i = 0; i < pk->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &pk->base.unknown_fields[i];
        size_t len;
        const uint8_t *data = u->tag == PF_PACKET_PERF_SAMPLE ? pf_unknown_bytes(u, &len) : NULL;
        if (!data)
            continue;
        struct pf_profile *pp = profile_of(p);
        if (!pp)
            return TG_ERR_NOMEM;
        uint64_t cpu = 0, pid = 0, tid = 0, mode = 0, callstack = 0, lost = 0, skipped = 0;
        bool has_cpu = false, has_callstack = false, has_skipped = false, producer = false;
        const uint8_t *q = data, *end = data + len;
        pf_wire w;
        while (pf_wire_next(&q, end, &w) > 0) {
            switch (w.type == 0 ? w.field : w.field == 19 ? 19 : 0) {
            case 1: cpu = w.value, has_cpu = true; break;
            case 2: pid = w.value; break;
            case 3: tid = w.value; break;
            case 4: callstack = w.value, has_callstack = true; break;
            case 5: mode = w.value; break;
            case 17: lost = w.value; break;
            case 18: skipped = w.value, has_skipped = true; break;
            case 19: producer = true; break;
            default: break;
            }
        }
        if (lost > 0) {
            TG_TRY(count_lost(t, pp, cpu, lost));
            continue;
        }
        if (producer)
            continue;
        if (has_skipped && (skipped == 1 || skipped == 2))
            TG_TRY(tg_trace_count(t, "perf_samples_skipped", "info", 1));
        else if (has_skipped && skipped == 3)
            TG_TRY(tg_trace_count(t, "perf_samples_skipped_dataloss", "data_loss", 1));
        int64_t callsite = has_callstack ? callsite_of(t, pp, s, callstack) : 0;
        if (callsite < 0)
            return (int)callsite;
        const tg_event_class *cls = sample_class(t, pp, s);
        uint64_t *seen;
        int added = tg_hash_insert(&pp->task_seen, (uint32_t)tid, &seen);
        if (!cls || added < 0)
            return TG_ERR_NOMEM;
        if (added || *seen != (uint32_t)pid + 1ull) {
            *seen = (uint32_t)pid + 1ull;
            TG_TRY(pf_add_task(t, (uint32_t)tid, (uint32_t)pid, NULL));
        }
        pf_record *r = pf_add_record(p);
        if (!r)
            return TG_ERR_NOMEM;
        r->ts = ts;
        r->cls = cls;
        r->cpu = has_cpu && cpu <= INT32_MAX ? (int32_t)cpu : -1;
        r->pid = (int32_t)(uint32_t)pid;
        r->tid = (int32_t)(uint32_t)tid;
        r->track = -1;
        r->addr = (uint64_t)callsite | (mode > 7 ? 0 : mode) << PF_SAMPLE_MODE_SHIFT;
        r->offset = offset;
    }
    return 0;
}
