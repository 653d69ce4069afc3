/* frame_names.c - interning of names for the viewer writers (see frame_names.h).
 *
 * The names sit one after the other in a single growable text block; core's hash table
 * maps a name's hash to its index, and a slot whose hash matches is confirmed by comparing
 * bytes.  Interning the same function name once per event costs a hash and one memcmp,
 * never an allocation. */
#include "writers/viewers/frame_names.h"

#include "core/grow.h"
#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

void tg_frame_names_init(tg_frame_names *t) { memset(t, 0, sizeof *t); }

void tg_frame_names_free(tg_frame_names *t)
{
    free(t->text);
    free(t->start);
    tg_hash_free(&t->index);
    memset(t, 0, sizeof *t);
}

typedef struct wanted {
    const tg_frame_names *t;
    const char *name;
    size_t len;
} wanted;

/* Names are stored one after the other, each with its NUL: name i's length is where the
 * next one starts (or the text ends) less one.  Comparing lengths first keeps memcmp inside
 * the stored name. */
static int same(const void *ctx, uint64_t i)
{
    const wanted *w = ctx;
    const tg_frame_names *t = w->t;
    size_t end = i + 1 < t->n ? t->start[i + 1] : t->text_len;
    return end - t->start[i] == w->len + 1 && memcmp(t->text + t->start[i], w->name, w->len) == 0;
}

int64_t tg_frame_names_find(const tg_frame_names *t, const char *name, size_t len)
{
    const uint64_t *found =
        tg_hash_find_by(&t->index, tg_hash_bytes(name, len), same, &(wanted){t, name, len});
    return found ? (int64_t)*found : -1;
}

int64_t tg_frame_names_intern(tg_frame_names *t, const char *name, size_t len)
{
    uint64_t hash = tg_hash_bytes(name, len), *slot;
    const uint64_t *found = tg_hash_find_by(&t->index, hash, same, &(wanted){t, name, len});
    if (found)
        return (int64_t)*found;
    if (t->n >= UINT32_MAX - 1 || tg_grow(&t->text, &t->text_cap, t->text_len + len + 1, 1) < 0 ||
        tg_grow(&t->start, &t->start_cap, t->n + 1, sizeof *t->start) < 0 ||
        tg_hash_add(&t->index, hash, &slot) < 0)
        return TG_ERR_NOMEM;
    memcpy(t->text + t->text_len, name, len);
    t->text[t->text_len + len] = '\0';
    t->start[t->n] = t->text_len;
    t->text_len += len + 1;
    *slot = t->n;
    return (int64_t)t->n++;
}
