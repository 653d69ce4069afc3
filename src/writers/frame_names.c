/* frame_names.c - interning of names for the viewer writers (see frame_names.h).
 *
 * One open-addressing table of indexes into a single growable text block: a lookup hashes
 * the name (FNV-1a) and compares bytes only on a hash-slot hit, so interning the same
 * function name once per event costs a hash and one memcmp, never an allocation. */
#include "writers/frame_names.h"

#include "core/grow.h"
#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

void tg_frame_names_init(tg_frame_names *t) { memset(t, 0, sizeof *t); }

void tg_frame_names_free(tg_frame_names *t)
{
    free(t->text);
    free(t->start);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Names are stored one after the other, each with its NUL: name i's length is where the
 * next one starts (or the text ends) less one.  Comparing lengths first keeps memcmp inside
 * the stored name. */
static int same(const tg_frame_names *t, size_t i, const char *name, size_t len)
{
    size_t end = i + 1 < t->n ? t->start[i + 1] : t->text_len;
    return end - t->start[i] == len + 1 && memcmp(t->text + t->start[i], name, len) == 0;
}

static void place(tg_frame_names *t, size_t index)
{
    const char *s = t->text + t->start[index];
    size_t mask = t->n_slots - 1;
    for (size_t i = hash_bytes(s, strlen(s)) & mask;; i = (i + 1) & mask)
        if (!t->slots[i]) {
            t->slots[i] = (uint32_t)index + 1;
            return;
        }
}

static int rehash(tg_frame_names *t)
{
    size_t n_slots = t->n_slots ? t->n_slots * 2 : 256;
    uint32_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots)
        return TG_ERR_NOMEM;
    free(t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    for (size_t i = 0; i < t->n; i++)
        place(t, i);
    return 0;
}

int64_t tg_frame_names_intern(tg_frame_names *t, const char *name, size_t len)
{
    if (t->n_slots) {
        size_t mask = t->n_slots - 1;
        for (size_t i = hash_bytes(name, len) & mask; t->slots[i]; i = (i + 1) & mask)
            if (same(t, t->slots[i] - 1, name, len))
                return t->slots[i] - 1;
    }
    if (t->n >= UINT32_MAX - 1 || tg_grow(&t->text, &t->text_cap, t->text_len + len + 1, 1) < 0 ||
        tg_grow(&t->start, &t->start_cap, t->n + 1, sizeof *t->start) < 0)
        return TG_ERR_NOMEM;
    memcpy(t->text + t->text_len, name, len);
    t->text[t->text_len + len] = '\0';
    t->start[t->n] = t->text_len;
    t->text_len += len + 1;
    size_t index = t->n++;
    if (t->n * 2 > t->n_slots) {
        if (rehash(t) < 0) {
            t->n--;
            return TG_ERR_NOMEM;
        }
    } else {
        place(t, index);
    }
    return (int64_t)index;
}
