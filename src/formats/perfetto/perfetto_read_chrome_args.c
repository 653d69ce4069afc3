/* perfetto_read_chrome_args.c - Chrome's typed TrackEvent messages chrome_histogram_sample
 * and chrome_user_event as the slice args trace_processor makes of them, with the names
 * Chrome's translation tables give their hashes.
 *
 * Each message becomes a struct arg of its fields ("chrome_histogram_sample.name_hash",
 * ".sample", ".name_iid", ".name"; "chrome_user_event.action", ".action_hash").  A sample
 * naming its histogram by name_iid takes the name interned on its sequence (a sample that
 * also has a name, or an iid its sequence did not intern, is a parser error, counted).  A
 * hash a translation table (chrome_histogram, chrome_user_event) knows adds the name
 * (".name", ".action"); the table may come anywhere in the file (trace_processor reads tables
 * before it parses events), so each struct keeps an empty member for it, filled once every
 * packet is read (pf_resolve_chrome_hashes).  The args table skips a member left empty. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

enum { HASH_HISTOGRAM, HASH_USER_ACTION };

struct pf_chrome_hashes {
    tg_hash names[2]; /* by kind: hash -> its name (in the arena) */
    struct pf_hash_arg {
        tg_value *slot; /* the empty member the name goes into */
        uint64_t hash;
        int kind;
    } * pending;
    size_t n_pending, cap_pending;
};

static struct pf_chrome_hashes *hashes_of(pf_trace *p)
{
    if (!p->chrome_hashes)
        p->chrome_hashes = calloc(1, sizeof *p->chrome_hashes);
    return p->chrome_hashes;
}

void pf_chrome_hashes_free(pf_trace *p)
{
    struct pf_chrome_hashes *h = p->chrome_hashes;
    if (!h)
        return;
    tg_hash_free(&h->names[0]);
    tg_hash_free(&h->names[1]);
    free(h->pending);
    free(h);
    p->chrome_hashes = NULL;
}

static int add_name(tg_trace *t, int kind, uint64_t hash, const char *name)
{
    struct pf_chrome_hashes *h = hashes_of(t->priv);
    const char *copy = name ? tg_arena_strdup(&t->arena, name) : NULL;
    uint64_t *slot;
    if (!h || (name && !copy) || tg_hash_insert(&h->names[kind], hash, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = (uint64_t)(uintptr_t)copy; /* the last entry for a hash wins */
    return 0;
}

int pf_read_chrome_hash_table(tg_trace *t, const PerfettoRead__TranslationTable *tt)
{
    if (tt->table_case == PERFETTO_READ__TRANSLATION_TABLE__TABLE_CHROME_HISTOGRAM)
        for (size_t i = 0; i < tt->chrome_histogram->n_hash_to_name; i++) {
            const PerfettoRead__ChromeHistorgramTranslationTable__HashToNameEntry *e =
                tt->chrome_histogram->hash_to_name[i];
            if (e->value && add_name(t, HASH_HISTOGRAM, e->key, e->value) < 0)
                return TG_ERR_NOMEM;
        }
    if (tt->table_case == PERFETTO_READ__TRANSLATION_TABLE__TABLE_CHROME_USER_EVENT)
        for (size_t i = 0; i < tt->chrome_user_event->n_action_hash_to_name; i++) {
            const PerfettoRead__ChromeUserEventTranslationTable__ActionHashToNameEntry *e =
                tt->chrome_user_event->action_hash_to_name[i];
            if (e->value && add_name(t, HASH_USER_ACTION, e->key, e->value) < 0)
                return TG_ERR_NOMEM;
        }
    return 0;
}

void pf_resolve_chrome_hashes(pf_trace *p)
{
    struct pf_chrome_hashes *h = p->chrome_hashes;
    for (size_t i = 0; h && i < h->n_pending; i++) {
        const struct pf_hash_arg *a = &h->pending[i];
        const uint64_t *name = tg_hash_find(&h->names[a->kind], a->hash);
        if (name && *name) {
            const char *key = a->slot->name;
            *a->slot = pf_value_string(key, (const char *)(uintptr_t)*name);
        }
    }
}

size_t pf_chrome_typed_arg_count(const PerfettoRead__TrackEvent *e)
{
    return (e->chrome_histogram_sample != NULL) + (e->chrome_user_event != NULL);
}

/* An empty member named key whose name a translation table may give hash later. */
static int pending_name(tg_trace *t, tg_value *slot, const char *key, int kind, uint64_t hash)
{
    struct pf_chrome_hashes *h = hashes_of(t->priv);
    if (!h || tg_grow(&h->pending, &h->cap_pending, h->n_pending + 1, sizeof *h->pending) < 0)
        return TG_ERR_NOMEM;
    memset(slot, 0, sizeof *slot);
    slot->type = TG_VAL_NONE;
    slot->name = key;
    h->pending[h->n_pending++] = (struct pf_hash_arg){.slot = slot, .hash = hash, .kind = kind};
    return 0;
}

static int histogram_sample(tg_trace *t, const pf_sequence *s,
                            const PerfettoRead__ChromeHistogramSample *m, tg_value *v)
{
    tg_value *f = tg_arena_alloc(&t->arena, 6 * sizeof *f);
    if (!f)
        return TG_ERR_NOMEM;
    size_t n = 0;
    if (m->has_name_iid) {
        const char *interned =
            pf_interned_text(t->priv, s, PF_INTERNED_HISTOGRAM_NAME, m->name_iid);
        if (m->name || !interned) {
            int rc = tg_trace_count(t, "track_event_parser_errors", "error", 1);
            if (rc < 0)
                return rc;
        } else
            f[n++] = pf_value_string("name", interned);
    }
    if (m->has_name_hash) {
        f[n++] = pf_value_uint("name_hash", m->name_hash);
        if (pending_name(t, &f[n++], "name", HASH_HISTOGRAM, m->name_hash) < 0)
            return TG_ERR_NOMEM;
    }
    if (m->name && !pf_value_text(t, &f[n++], "name", m->name, strlen(m->name)))
        return TG_ERR_NOMEM;
    if (m->has_sample)
        f[n++] = pf_value_int("sample", m->sample);
    if (m->has_name_iid)
        f[n++] = pf_value_uint("name_iid", m->name_iid);
    memset(v, 0, sizeof *v);
    pf_arg_tree_value(v, TG_VAL_STRUCT, f, n);
    v->name = "chrome_histogram_sample";
    return 0;
}

static int user_event(tg_trace *t, const PerfettoRead__ChromeUserEvent *m, tg_value *v)
{
    tg_value *f = tg_arena_alloc(&t->arena, 3 * sizeof *f);
    if (!f)
        return TG_ERR_NOMEM;
    size_t n = 0;
    if (m->action && !pf_value_text(t, &f[n++], "action", m->action, strlen(m->action)))
        return TG_ERR_NOMEM;
    if (m->has_action_hash) {
        f[n++] = pf_value_uint("action_hash", m->action_hash);
        if (pending_name(t, &f[n++], "action", HASH_USER_ACTION, m->action_hash) < 0)
            return TG_ERR_NOMEM;
    }
    memset(v, 0, sizeof *v);
    pf_arg_tree_value(v, TG_VAL_STRUCT, f, n);
    v->name = "chrome_user_event";
    return 0;
}

int pf_chrome_typed_args(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                         tg_value *args, size_t *n)
{
    if (e->chrome_user_event) {
        int rc = user_event(t, e->chrome_user_event, &args[*n]);
        if (rc < 0)
            return rc;
        ++*n;
    }
    if (e->chrome_histogram_sample) {
        int rc = histogram_sample(t, s, e->chrome_histogram_sample, &args[*n]);
        if (rc < 0)
            return rc;
        ++*n;
    }
    return 0;
}
