/* id_index.c - open-addressing map from 64-bit keys to dense indexes (see id_index.h).
 * Keys are mixed with a 64-bit multiplicative hash; the table doubles at half full. */
#include "writers/id_index.h"

#include "traceglot.h"

#include <stdlib.h>

void tg_id_index_free(tg_id_index *t)
{
    free(t->keys);
    free(t->values);
    *t = (tg_id_index){0};
}

static size_t slot_of(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

static int rehash(tg_id_index *t)
{
    size_t n_slots = t->n_slots ? t->n_slots * 2 : 64;
    uint64_t *keys = malloc(n_slots * sizeof *keys);
    uint32_t *values = calloc(n_slots, sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return TG_ERR_NOMEM;
    }
    for (size_t i = 0; i < t->n_slots; i++) {
        if (!t->values[i])
            continue;
        size_t j = slot_of(t->keys[i], n_slots - 1);
        while (values[j])
            j = (j + 1) & (n_slots - 1);
        keys[j] = t->keys[i];
        values[j] = t->values[i];
    }
    free(t->keys);
    free(t->values);
    t->keys = keys;
    t->values = values;
    t->n_slots = n_slots;
    return 0;
}

int64_t tg_id_index_get(tg_id_index *t, uint64_t key, int *added)
{
    *added = 0;
    if ((t->n + 1) * 2 > t->n_slots && rehash(t) < 0)
        return TG_ERR_NOMEM;
    size_t mask = t->n_slots - 1, i = slot_of(key, mask);
    for (; t->values[i]; i = (i + 1) & mask)
        if (t->keys[i] == key)
            return t->values[i] - 1;
    if (t->n >= UINT32_MAX - 1)
        return TG_ERR_LIMIT;
    t->keys[i] = key;
    t->values[i] = (uint32_t)++t->n;
    *added = 1;
    return (int64_t)t->n - 1;
}
