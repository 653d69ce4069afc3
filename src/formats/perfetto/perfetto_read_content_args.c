/* perfetto_read_content_args.c - the arg sets trace_processor's content analysis makes of a
 * trace's TrackEvents: one set {event.category, event.name} per distinct pair of a category
 * (the event's categories joined by ",") and a name, NULL where the event has none.
 * trace_processor annotates every TrackEvent it imports so (before it looks for the event's
 * track, so an event it then drops counts too) and lists each set in its args table; the
 * reader keeps them as the trace's own arg sets (tg_trace_add_arg_set). */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <string.h>

#define FNV_PRIME 1099511628211ull

/* The i-th category of e ("" when its interned one is unknown). */
static const char *category_piece(const pf_trace *p, const pf_sequence *s,
                                  const PerfettoRead__TrackEvent *e, size_t i)
{
    const char *c = e->n_categories
                        ? e->categories[i]
                        : pf_interned_text(p, s, PF_INTERNED_CATEGORY, e->category_iids[i]);
    return c ? c : "";
}

static size_t category_count(const PerfettoRead__TrackEvent *e)
{
    return e->n_categories ? e->n_categories : e->n_category_iids;
}

static uint64_t hash_text(uint64_t h, const char *s)
{
    while (*s)
        h = (h ^ (uint8_t)*s++) * FNV_PRIME;
    return h;
}

struct content_key {
    const pf_trace *p;
    const pf_sequence *s;
    const PerfettoRead__TrackEvent *e;
    const char *name;
    const tg_arg_set *sets;
};

/* Whether the stored category text equals e's categories joined by ",". */
static bool same_category(const struct content_key *k, const char *stored)
{
    size_t n = category_count(k->e);
    if (!n || !stored)
        return !n && !stored;
    for (size_t i = 0; i < n; i++) {
        if (i && *stored++ != ',')
            return false;
        const char *c = category_piece(k->p, k->s, k->e, i);
        size_t len = strlen(c);
        if (strncmp(stored, c, len) != 0)
            return false;
        stored += len;
    }
    return *stored == 0;
}

static int content_eq(const void *ctx, uint64_t value)
{
    const struct content_key *k = ctx;
    const tg_value *v = k->sets[value].args;
    const char *name = v[1].v.str.ptr;
    return same_category(k, v[0].v.str.ptr) &&
           (name && k->name ? strcmp(name, k->name) == 0 : name == k->name);
}

/* A string value of text copied into the arena (NULL text: a NULL string). */
static bool null_or_text(tg_trace *t, tg_value *v, const char *key, const char *text)
{
    *v = pf_value_string(key, "");
    v->v.str.ptr = NULL;
    v->v.str.len = 0;
    if (!text)
        return true;
    return pf_value_text(t, v, key, text, strlen(text));
}

int pf_content_args(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                    const char *name)
{
    pf_trace *p = t->priv;
    size_t n = category_count(e);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = hash_text(i ? (h ^ ',') * FNV_PRIME : h, category_piece(p, s, e, i));
    h = (h ^ (n ? 0x1f : 0x2f)) * FNV_PRIME;
    h = name ? hash_text(h, name) : (h ^ 0x3f) * FNV_PRIME;
    struct content_key key = {p, s, e, name, t->arg_sets};
    if (tg_hash_find_by(&p->content_sets, h, content_eq, &key))
        return 0;
    tg_value *args = tg_arena_alloc(&t->arena, 2 * sizeof *args);
    const char *category = NULL;
    if (!args || (n && pf_event_category(t, s, e, &category) < 0) ||
        !null_or_text(t, &args[0], "event.category", category) ||
        !null_or_text(t, &args[1], "event.name", name))
        return TG_ERR_NOMEM;
    uint64_t *slot;
    if (tg_hash_add(&p->content_sets, h, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = tg_trace_arg_set_count(t);
    return tg_trace_add_arg_set(t, args, 2);
}
