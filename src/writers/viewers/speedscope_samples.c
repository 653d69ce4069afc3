/* speedscope_samples.c - a perf.data file's samples as speedscope "sampled" profiles
 * (`convert --to speedscope` of a perf.data file).
 *
 * The stacks are the ones `--to folded` counts (sample_stacks.h), so the totals speedscope
 * shows per frame are the folded counts.  One profile per thread and name (a thread that
 * execs gets a second one, as stackcollapse counts it under its new name), named
 * "COMM TID"; its samples in delivery order, each the frame indexes of its stack from the
 * outermost frame, each of weight 1 (unit "none": samples are counted, as perf report
 * does).  A frame is a name in a module (its `file`), so that the "[unknown]" frames of
 * two libraries stay apart.
 * While reading, each sample keeps only its callsite: a node of one interned tree of
 * (parent callsite, frame), so memory is a number per sample plus the distinct stacks. */
#include "writers/viewers/sample_stacks.h"
#include "writers/viewers/frame_names.h"

#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SS_ROOT UINT32_MAX

typedef struct ssp_callsite {
    uint32_t parent, frame, depth;
} ssp_callsite;

typedef struct ssp_profile {
    int32_t tid;
    uint32_t comm;       /* index in names */
    uint32_t *callsites; /* per sample; SS_ROOT: a sample without frames */
    size_t n, cap;
} ssp_profile;

typedef struct ssp_frame {
    uint32_t name, module; /* module: index + 1, 0 none */
} ssp_frame;

typedef struct ssp_state {
    tg_frame_names names, modules, comms;
    ssp_frame *frames;
    size_t n_frames, cap_frames;
    tg_hash frame_of; /* (name, module + 1) -> frame */
    ssp_callsite *callsites;
    size_t n_callsites, cap_callsites;
    tg_hash callsite_of; /* (parent, frame) -> callsite */
    ssp_profile *profiles;
    size_t n_profiles, cap_profiles;
    tg_hash profile_of; /* (tid, comm) -> profile */
} ssp_state;

static int64_t intern(tg_frame_names *t, const char *s)
{
    return tg_frame_names_intern(t, s, strlen(s));
}

/* The frame of a name in a module (NULL: none): frames of one name in two modules are two. */
static int64_t frame_of(ssp_state *st, const char *name, const char *module)
{
    int64_t n = intern(&st->names, name);
    int64_t m = module ? intern(&st->modules, module) : -1;
    if (n < 0 || (module && m < 0))
        return TG_ERR_NOMEM;
    int added;
    int64_t f = tg_hash_index(&st->frame_of, (uint64_t)n << 32 | (uint32_t)(m + 1), &added);
    if (f < 0 || !added)
        return f;
    if (tg_grow(&st->frames, &st->cap_frames, st->n_frames + 1, sizeof *st->frames) < 0)
        return TG_ERR_NOMEM;
    st->frames[st->n_frames++] = (ssp_frame){(uint32_t)n, (uint32_t)(m + 1)};
    return f;
}

static int64_t callsite_of(ssp_state *st, uint32_t parent, uint32_t frame)
{
    int added;
    int64_t i = tg_hash_index(&st->callsite_of, (uint64_t)parent << 32 | frame, &added);
    if (i < 0 || !added)
        return i;
    if (tg_grow(&st->callsites, &st->cap_callsites, st->n_callsites + 1, sizeof *st->callsites) < 0)
        return TG_ERR_NOMEM;
    uint32_t depth = parent == SS_ROOT ? 1 : st->callsites[parent].depth + 1;
    st->callsites[st->n_callsites++] = (ssp_callsite){parent, frame, depth};
    return i;
}

static ssp_profile *profile_of(ssp_state *st, const tg_sample_stack *stack)
{
    int64_t comm = intern(&st->comms, stack->comm);
    if (comm < 0)
        return NULL;
    int added;
    int64_t i = tg_hash_index(&st->profile_of,
                              (uint64_t)(uint32_t)stack->tid << 32 | (uint64_t)comm, &added);
    if (i < 0)
        return NULL;
    if (added) {
        if (tg_grow(&st->profiles, &st->cap_profiles, st->n_profiles + 1, sizeof *st->profiles) < 0)
            return NULL;
        st->profiles[st->n_profiles++] = (ssp_profile){.tid = stack->tid, .comm = (uint32_t)comm};
    }
    return &st->profiles[i];
}

static int add_sample(void *ctx, const tg_sample_stack *stack)
{
    ssp_state *st = ctx;
    uint32_t at = SS_ROOT;
    for (size_t i = 0; i < stack->depth; i++) {
        int64_t f = frame_of(st, stack->names[i], stack->modules[i]);
        int64_t c = f < 0 ? f : callsite_of(st, at, (uint32_t)f);
        if (c < 0)
            return TG_ERR_NOMEM;
        at = (uint32_t)c;
    }
    ssp_profile *p = profile_of(st, stack);
    if (!p || tg_grow(&p->callsites, &p->cap, p->n + 1, sizeof *p->callsites) < 0)
        return TG_ERR_NOMEM;
    p->callsites[p->n++] = at;
    return 0;
}

static void put_json_string(tg_buf *out, const char *s)
{
    tg_buf_putc(out, '"');
    tg_text_json_escaped(out, s, strlen(s));
    tg_buf_putc(out, '"');
}

/* A stack's frame indexes from the outermost: the callsite's ancestors, written backwards
 * into path (room for its depth). */
static void put_stack(const ssp_state *st, uint32_t callsite, uint32_t *path, tg_buf *out)
{
    tg_buf_putc(out, '[');
    size_t depth = callsite == SS_ROOT ? 0 : st->callsites[callsite].depth;
    for (size_t i = depth; i-- > 0; callsite = st->callsites[callsite].parent)
        path[i] = st->callsites[callsite].frame;
    for (size_t i = 0; i < depth; i++) {
        if (i)
            tg_buf_putc(out, ',');
        tg_buf_u64(out, path[i]);
    }
    tg_buf_putc(out, ']');
}

static void put_profile(const ssp_state *st, const ssp_profile *p, uint32_t *path, tg_buf *out)
{
    char tid[16];
    snprintf(tid, sizeof tid, " %d", (int)p->tid);
    tg_buf_puts(out, "{\"type\":\"sampled\",\"name\":\"");
    const char *comm = tg_frame_names_get(&st->comms, p->comm);
    tg_text_json_escaped(out, comm, strlen(comm));
    tg_buf_puts(out, tid);
    tg_buf_puts(out, "\",\"unit\":\"none\",\"startValue\":0,\"endValue\":");
    tg_buf_u64(out, p->n);
    tg_buf_puts(out, ",\"samples\":[");
    for (size_t i = 0; i < p->n; i++) {
        tg_buf_puts(out, i ? ",\n" : "\n");
        put_stack(st, p->callsites[i], path, out);
    }
    tg_buf_puts(out, "],\"weights\":[");
    for (size_t i = 0; i < p->n; i++)
        tg_buf_puts(out, i ? ",1" : "1");
    tg_buf_puts(out, "]}");
}

static int put_file(const ssp_state *st, tg_set *set, tg_buf *out)
{
    uint32_t max_depth = 0;
    for (size_t i = 0; i < st->n_callsites; i++)
        if (st->callsites[i].depth > max_depth)
            max_depth = st->callsites[i].depth;
    uint32_t *path = malloc(((size_t)max_depth + 1) * sizeof *path);
    if (!path)
        return TG_ERR_NOMEM;
    tg_buf_puts(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                     "\"exporter\":\"traceglot " TG_VERSION_STRING "\",\"name\":");
    put_json_string(out, tg_set_trace_count(set) ? tg_trace_path(tg_set_trace(set, 0)) : "");
    tg_buf_puts(out, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
    for (size_t i = 0; i < st->n_frames; i++) {
        tg_buf_puts(out, i ? ",\n{\"name\":" : "\n{\"name\":");
        put_json_string(out, tg_frame_names_get(&st->names, st->frames[i].name));
        if (st->frames[i].module) {
            tg_buf_puts(out, ",\"file\":");
            put_json_string(out, tg_frame_names_get(&st->modules, st->frames[i].module - 1));
        }
        tg_buf_putc(out, '}');
    }
    tg_buf_puts(out, "\n]},\"profiles\":[\n");
    for (size_t i = 0; i < st->n_profiles; i++) {
        if (i)
            tg_buf_puts(out, ",\n");
        put_profile(st, &st->profiles[i], path, out);
    }
    tg_buf_puts(out, "\n]}\n");
    free(path);
    return 0;
}

int tg_speedscope_samples(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    ssp_state st = {0};
    int rc = tg_sample_stacks_walk(it, opts, add_sample, &st, err);
    if (rc == 0)
        rc = put_file(&st, set, out);
    for (size_t i = 0; i < st.n_profiles; i++)
        free(st.profiles[i].callsites);
    free(st.profiles);
    free(st.callsites);
    free(st.frames);
    tg_hash_free(&st.frame_of);
    tg_hash_free(&st.callsite_of);
    tg_hash_free(&st.profile_of);
    tg_frame_names_free(&st.names);
    tg_frame_names_free(&st.modules);
    tg_frame_names_free(&st.comms);
    return rc;
}
