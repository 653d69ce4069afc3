/* hash.c - inserting into and growing the one hash table (see hash.h). */
#include "core/hash.h"
#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

static int rehash(tg_hash *h, size_t cap)
{
    if (cap > SIZE_MAX / sizeof(tg_hash_slot))
        return TG_ERR_NOMEM;
    tg_hash_slot *slots = malloc(cap * sizeof *slots);
    uint64_t *used = calloc(cap / 64, sizeof *used);
    if (!slots || !used) {
        free(slots);
        free(used);
        return TG_ERR_NOMEM;
    }
    unsigned bits = 0;
    while (((size_t)1 << bits) < cap)
        bits++;
    tg_hash nh = {slots, used, cap, 0, 64u - bits};
    for (size_t i = 0; i < h->cap; i++) {
        if (!tg_hash_is_used(h, i))
            continue;
        size_t j = tg_hash_slot_of(&nh, h->slots[i].key);
        while (tg_hash_is_used(&nh, j))
            j = (j + 1) & (cap - 1);
        nh.slots[j] = h->slots[i];
        nh.used[j >> 6] |= 1ull << (j & 63);
        nh.n++;
    }
    free(h->slots);
    free(h->used);
    *h = nh;
    return 0;
}

int tg_hash_reserve(tg_hash *h, size_t n)
{
    if (n > SIZE_MAX / 4)
        return TG_ERR_NOMEM;
    size_t cap = h->cap ? h->cap : 64;
    while (cap < 2 * n)
        cap *= 2;
    return cap == h->cap ? 0 : rehash(h, cap);
}

int tg_hash_add(tg_hash *h, uint64_t key, uint64_t **value)
{
    if (2 * (h->n + 1) > h->cap) {
        int rc = tg_hash_reserve(h, h->n + 1);
        if (rc < 0)
            return rc;
    }
    size_t i = tg_hash_slot_of(h, key);
    while (tg_hash_is_used(h, i))
        i = (i + 1) & (h->cap - 1);
    h->slots[i] = (tg_hash_slot){key, 0};
    h->used[i >> 6] |= 1ull << (i & 63);
    h->n++;
    *value = &h->slots[i].value;
    return 0;
}

int64_t tg_hash_add_index(tg_hash *h, uint64_t key)
{
    uint64_t *value;
    int rc = tg_hash_add(h, key, &value);
    if (rc < 0)
        return rc;
    *value = h->n - 1;
    return (int64_t)*value;
}

int tg_hash_insert(tg_hash *h, uint64_t key, uint64_t **value)
{
    uint64_t *found = tg_hash_find(h, key);
    if (found) {
        *value = found;
        return 0;
    }
    int rc = tg_hash_add(h, key, value);
    return rc < 0 ? rc : 1;
}

int tg_hash_remove(tg_hash *h, uint64_t key)
{
    if (!h->n)
        return 0;
    size_t mask = h->cap - 1;
    size_t hole = tg_hash_slot_of(h, key);
    for (;; hole = (hole + 1) & mask) {
        if (!tg_hash_is_used(h, hole))
            return 0;
        if (h->slots[hole].key == key)
            break;
    }
    /* shift back each later slot of the run whose home is not between the hole and it */
    for (size_t j = (hole + 1) & mask; tg_hash_is_used(h, j); j = (j + 1) & mask) {
        size_t home = tg_hash_slot_of(h, h->slots[j].key);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            h->slots[hole] = h->slots[j];
            hole = j;
        }
    }
    h->used[hole >> 6] &= ~(1ull << (hole & 63));
    h->n--;
    return 1;
}

void tg_hash_clear(tg_hash *h)
{
    if (h->used)
        memset(h->used, 0, h->cap / 64 * sizeof *h->used);
    h->n = 0;
}

void tg_hash_free(tg_hash *h)
{
    free(h->slots);
    free(h->used);
    memset(h, 0, sizeof *h);
}
