/* tej_async.c - Chrome JSON's async slices (ph b, e, n) on their own tracks.
 *
 * trace_processor keeps an async event on a track of its own, apart from the thread that
 * wrote it: the track of (name, cat, id), where the id is "id", or "id2" {"global": ...} -
 * a global track (type legacy_async_global_slice) - or "id2" {"local": ...} - a track of the
 * event's process (legacy_async_process_slice).  The track is named after the events.  A b
 * begins a slice on it, an e ends the latest one begun there, an n is a slice of no
 * duration.  Each track is declared to core (tg_track_decl) when its first event comes. */
#include "formats/json/tej_internal.h"

#include "core/grow.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The id text of an event's "id" / "id2" member (a number or a string); *local when the id
 * is the process's.  NULL when it has none. */
static const char *async_id(struct json_object *ev, bool *local)
{
    struct json_object *v = NULL, *id2 = NULL;
    *local = false;
    if (json_object_object_get_ex(ev, "id", &v) && v)
        return json_object_get_string(v);
    if (!json_object_object_get_ex(ev, "id2", &id2) || !id2)
        return NULL;
    if (json_object_object_get_ex(id2, "global", &v) && v)
        return json_object_get_string(v);
    if (json_object_object_get_ex(id2, "local", &v) && v) {
        *local = true;
        return json_object_get_string(v);
    }
    return NULL;
}

static int key_eq(const void *ctx, uint64_t value)
{
    const void *const *c = ctx;
    const tej_trace *j = c[0];
    return strcmp(j->async[value].key, c[1]) == 0;
}

/* The async track of the event (made at its first event), or NULL: *nomem when out of
 * memory, else the event names no id. */
tej_async_track *tej_async_track_of(tg_trace *t, struct json_object *ev, const char *name,
                                    int32_t pid, bool *nomem)
{
    tej_trace *j = t->priv;
    bool local;
    const char *id = async_id(ev, &local);
    *nomem = false;
    if (!id)
        return NULL;
    struct json_object *cat_member = NULL;
    json_object_object_get_ex(ev, "cat", &cat_member);
    const char *cat = cat_member ? json_object_get_string(cat_member) : "";
    char pid_text[24] = "";
    if (local)
        snprintf(pid_text, sizeof pid_text, "%" PRId32, pid);
    size_t n = strlen(name) + strlen(cat) + strlen(id) + strlen(pid_text) + 8;
    char *key = malloc(n);
    if (!key) {
        *nomem = true;
        return NULL;
    }
    snprintf(key, n, "%s%c%s%c%s%c%c%s", name, 0x1f, cat, 0x1f, id, 0x1f, local ? 'l' : 'g',
             pid_text);
    uint64_t h = tg_hash_str(key);
    const void *ctx[2] = {j, key};
    uint64_t *slot = tg_hash_find_by(&j->async_by_key, h, key_eq, ctx);
    if (slot) {
        free(key);
        return &j->async[*slot];
    }
    const char *kept = tg_arena_strdup(&t->arena, key);
    free(key);
    if (!kept) {
        *nomem = true;
        return NULL;
    }
    tg_track_decl d = {.name = name,
                       .type = local ? "legacy_async_process_slice" : "legacy_async_global_slice",
                       .pid = local ? pid : -1,
                       .tid = -1,
                       .parent = -1};
    int64_t decl = tg_trace_add_track(t, &d);
    if (decl < 0 || tg_grow(&j->async, &j->cap_async, j->n_async + 1, sizeof *j->async) < 0 ||
        tg_hash_add(&j->async_by_key, h, &slot) < 0) {
        *nomem = true;
        return NULL;
    }
    j->async[j->n_async] = (tej_async_track){.key = kept, .decl = (int32_t)decl};
    *slot = j->n_async;
    return &j->async[j->n_async++];
}

int tej_async_push(tej_async_track *k, uint64_t name)
{
    if (tg_grow(&k->stack, &k->cap, k->open + 1, sizeof *k->stack) < 0)
        return TG_ERR_NOMEM;
    k->stack[k->open++] = name;
    return 0;
}

void tej_async_free(tej_trace *j)
{
    for (size_t i = 0; i < j->n_async; i++)
        free(j->async[i].stack);
    free(j->async);
    tg_hash_free(&j->async_by_key);
}
