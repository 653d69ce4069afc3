/* stack_profile.c - the call stacks a trace states already resolved: mappings, frames and
 * callsites, interned as trace_processor interns its stack_profile_* rows.
 *
 * A Perfetto trace's profilers (traced_perf, heapprofd, traceglot's own writer) send their
 * stacks symbolized and interned per packet sequence; the reader resolves a sample's
 * callstack through its sequence's interned data and keeps the result here, one item per
 * distinct mapping (all its fields), frame (mapping, rel_pc, name) and callsite (parent,
 * frame), so a stack met on several sequences is one callsite.  Consumers read the items
 * by index (traceglot.h: tg_trace_profile_callsite) and a sample event names its callsite
 * (tg_event_callsite).  Memory: the distinct items, bounded by the file's interned data. */
#include "core/format_api.h"

#include "core/grow.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

struct tg_stack_profile {
    tg_profile_mapping *mappings;
    size_t n_mappings, cap_mappings;
    tg_profile_frame *frames;
    size_t n_frames, cap_frames;
    tg_profile_callsite *callsites;
    size_t n_callsites, cap_callsites;
    tg_hash mapping_of, frame_of, callsite_of;
};

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull + (h >> 29); }

static struct tg_stack_profile *profile_of(tg_trace *t)
{
    if (!t->profile)
        t->profile = calloc(1, sizeof *t->profile);
    return t->profile;
}

struct eq_ctx {
    const struct tg_stack_profile *sp;
    const void *key;
};

static int mapping_eq(const void *ctx, uint64_t i)
{
    const struct eq_ctx *c = ctx;
    const tg_profile_mapping *a = &c->sp->mappings[i], *b = c->key;
    return a->exact_offset == b->exact_offset && a->start_offset == b->start_offset &&
           a->start == b->start && a->end == b->end && a->load_bias == b->load_bias &&
           strcmp(a->name, b->name) == 0 && strcmp(a->build_id, b->build_id) == 0;
}

static int frame_eq(const void *ctx, uint64_t i)
{
    const struct eq_ctx *c = ctx;
    const tg_profile_frame *a = &c->sp->frames[i], *b = c->key;
    return a->mapping == b->mapping && a->rel_pc == b->rel_pc && strcmp(a->name, b->name) == 0;
}

static int callsite_eq(const void *ctx, uint64_t i)
{
    const struct eq_ctx *c = ctx;
    const tg_profile_callsite *a = &c->sp->callsites[i], *b = c->key;
    return a->parent == b->parent && a->frame == b->frame;
}

int64_t tg_trace_profile_add_mapping(tg_trace *t, const tg_profile_mapping *m)
{
    struct tg_stack_profile *sp = profile_of(t);
    if (!sp)
        return TG_ERR_NOMEM;
    tg_profile_mapping k = *m;
    k.name = k.name ? k.name : "";
    k.build_id = k.build_id ? k.build_id : "";
    uint64_t h =
        mix(mix(mix(mix(mix(mix(tg_hash_str(k.name), tg_hash_str(k.build_id)), k.exact_offset),
                        k.start_offset),
                    k.start),
                k.end),
            k.load_bias);
    struct eq_ctx ctx = {sp, &k};
    uint64_t *found = tg_hash_find_by(&sp->mapping_of, h, mapping_eq, &ctx);
    if (found)
        return (int64_t)*found;
    uint64_t *slot;
    if (!(k.name = tg_arena_strdup(&t->arena, k.name)) ||
        !(k.build_id = tg_arena_strdup(&t->arena, k.build_id)) ||
        tg_grow(&sp->mappings, &sp->cap_mappings, sp->n_mappings + 1, sizeof k) < 0 ||
        tg_hash_add(&sp->mapping_of, h, &slot) < 0)
        return TG_ERR_NOMEM;
    sp->mappings[sp->n_mappings] = k;
    *slot = sp->n_mappings;
    return (int64_t)sp->n_mappings++;
}

int64_t tg_trace_profile_add_frame(tg_trace *t, const tg_profile_frame *f)
{
    struct tg_stack_profile *sp = profile_of(t);
    if (!sp)
        return TG_ERR_NOMEM;
    tg_profile_frame k = *f;
    k.name = k.name ? k.name : "";
    uint64_t h = mix(mix(tg_hash_str(k.name), k.mapping), k.rel_pc);
    struct eq_ctx ctx = {sp, &k};
    uint64_t *found = tg_hash_find_by(&sp->frame_of, h, frame_eq, &ctx);
    if (found)
        return (int64_t)*found;
    uint64_t *slot;
    if (!(k.name = tg_arena_strdup(&t->arena, k.name)) ||
        tg_grow(&sp->frames, &sp->cap_frames, sp->n_frames + 1, sizeof k) < 0 ||
        tg_hash_add(&sp->frame_of, h, &slot) < 0)
        return TG_ERR_NOMEM;
    sp->frames[sp->n_frames] = k;
    *slot = sp->n_frames;
    return (int64_t)sp->n_frames++;
}

int64_t tg_trace_profile_add_callsite(tg_trace *t, int64_t parent, size_t frame)
{
    struct tg_stack_profile *sp = profile_of(t);
    if (!sp)
        return TG_ERR_NOMEM;
    tg_profile_callsite k = {parent < 0 ? -1 : parent, frame, 0};
    if (k.parent >= 0 && (size_t)k.parent < sp->n_callsites)
        k.depth = sp->callsites[k.parent].depth + 1;
    uint64_t h = mix((uint64_t)k.parent, k.frame);
    struct eq_ctx ctx = {sp, &k};
    uint64_t *found = tg_hash_find_by(&sp->callsite_of, h, callsite_eq, &ctx);
    if (found)
        return (int64_t)*found;
    uint64_t *slot;
    if (tg_grow(&sp->callsites, &sp->cap_callsites, sp->n_callsites + 1, sizeof k) < 0 ||
        tg_hash_add(&sp->callsite_of, h, &slot) < 0)
        return TG_ERR_NOMEM;
    sp->callsites[sp->n_callsites] = k;
    *slot = sp->n_callsites;
    return (int64_t)sp->n_callsites++;
}

void tg_trace_profile_free(tg_trace *t)
{
    struct tg_stack_profile *sp = t->profile;
    if (!sp)
        return;
    free(sp->mappings);
    free(sp->frames);
    free(sp->callsites);
    tg_hash_free(&sp->mapping_of);
    tg_hash_free(&sp->frame_of);
    tg_hash_free(&sp->callsite_of);
    free(sp);
    t->profile = NULL;
}

size_t tg_trace_profile_callsite_count(const tg_trace *t)
{
    return t->profile ? t->profile->n_callsites : 0;
}

const tg_profile_callsite *tg_trace_profile_callsite(const tg_trace *t, size_t i)
{
    return t->profile && i < t->profile->n_callsites ? &t->profile->callsites[i] : NULL;
}

const tg_profile_frame *tg_trace_profile_frame(const tg_trace *t, size_t i)
{
    return t->profile && i < t->profile->n_frames ? &t->profile->frames[i] : NULL;
}

const tg_profile_mapping *tg_trace_profile_mapping(const tg_trace *t, size_t i)
{
    return t->profile && i < t->profile->n_mappings ? &t->profile->mappings[i] : NULL;
}

int64_t tg_event_callsite(const tg_event *ev)
{
    return ev->cls && ev->cls->profile_sample && ev->addr ? (int64_t)ev->addr - 1 : -1;
}
