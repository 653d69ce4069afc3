/* hash.h - the one hash table: 64-bit keys to 64-bit values, open addressing.
 *
 * Keys are integers or pointers cast to uintptr_t (an address, a thread id, a class id, a
 * class pointer); values are whatever the caller keeps there, usually an index into its own
 * array of records, so the records stay contiguous and sortable and the table stays small.
 * Built for lookups on the per-event path: power-of-two capacity, linear probing over one
 * array of {key, value} slots, load at most one half, the key mixed by a Fibonacci multiply
 * whose high bits pick the slot.  tg_hash_find is inline; inserting grows the table by
 * doubling (tg_grow's rule), so memory follows the number of keys, not of events.
 * tg_hash_remove takes a key out (the run after it is shifted back, so lookups stay one probe
 * run); tg_hash_clear empties the table and keeps its memory.
 *
 * Keys that are not integers (names) are kept by the caller in its own records: the table
 * holds their 64-bit hash (tg_hash_str) and the record's index, and the _by calls confirm a
 * slot whose hash matches with the caller's eq(ctx, value), so equal hashes of different
 * names are told apart.
 *
 *     tg_hash h = {0};
 *     uint64_t *row;
 *     int added = tg_hash_insert(&h, (uintptr_t)cls, &row);   // 1 new, 0 found, <0 NOMEM
 *     if (added > 0) *row = n_rows++;
 *     ...
 *     tg_hash_free(&h);
 */
#ifndef TG_HASH_H
#define TG_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct tg_hash_slot {
    uint64_t key;
    uint64_t value;
} tg_hash_slot;

typedef struct tg_hash {
    tg_hash_slot *slots; /* cap slots; a slot is used when its bit in used[] is set */
    uint64_t *used;      /* cap / 64 words (at least one) */
    size_t cap, n;       /* cap is 0 or a power of two >= 64 */
    unsigned shift;      /* 64 - log2(cap) */
} tg_hash;

static inline size_t tg_hash_slot_of(const tg_hash *h, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> h->shift);
}

static inline int tg_hash_is_used(const tg_hash *h, size_t i)
{
    return (int)((h->used[i >> 6] >> (i & 63)) & 1u);
}

/* The value stored for key, or NULL when key is absent.  Valid until the next insert. */
static inline uint64_t *tg_hash_find(const tg_hash *h, uint64_t key)
{
    if (!h->n)
        return NULL;
    size_t mask = h->cap - 1;
    for (size_t i = tg_hash_slot_of(h, key); tg_hash_is_used(h, i); i = (i + 1) & mask)
        if (h->slots[i].key == key)
            return &h->slots[i].value;
    return NULL;
}

/* FNV-1a of a NUL-terminated text: the hash of a name key. */
static inline uint64_t tg_hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

/* FNV-1a of len bytes: the hash of a name key that is not NUL-terminated. */
static inline uint64_t tg_hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    return h;
}

/* Is the key the caller keeps at row `value` the one looked for (ctx)? */
typedef int (*tg_hash_eq_fn)(const void *ctx, uint64_t value);

/* The value whose slot holds hash and for which eq(ctx, value) holds, or NULL. */
static inline uint64_t *tg_hash_find_by(const tg_hash *h, uint64_t hash, tg_hash_eq_fn eq,
                                        const void *ctx)
{
    if (!h->n)
        return NULL;
    size_t mask = h->cap - 1;
    for (size_t i = tg_hash_slot_of(h, hash); tg_hash_is_used(h, i); i = (i + 1) & mask)
        if (h->slots[i].key == hash && eq(ctx, h->slots[i].value))
            return &h->slots[i].value;
    return NULL;
}

/* Adds a slot for hash without looking for it first (after tg_hash_find_by said it is
 * absent, or for integer keys known new); *value points at its value, 0.  0 or NOMEM. */
int tg_hash_add(tg_hash *h, uint64_t hash, uint64_t **value);

/* Finds key or adds it (with value 0); *value points at its value (valid until the next
 * insert).  Returns 1 when added, 0 when found, TG_ERR_NOMEM (table unchanged) otherwise. */
int tg_hash_insert(tg_hash *h, uint64_t key, uint64_t **value);
/* Dense numbers for keys, for a caller that keeps one record per key in an array (threads
 * seen, sequences, call-tree nodes): the key's number, the table's count of keys when it was
 * added (0 for the first key, 1 for the next, ...), with *added 1 when it is new; or
 * TG_ERR_NOMEM.  Only for tables that nothing is removed from. */
int64_t tg_hash_add_index(tg_hash *h, uint64_t key); /* key known absent */
static inline int64_t tg_hash_index(tg_hash *h, uint64_t key, int *added)
{
    uint64_t *found = tg_hash_find(h, key);
    *added = !found;
    return found ? (int64_t)*found : tg_hash_add_index(h, key);
}

/* Makes room for n keys without growing on the way (optional). */
int tg_hash_reserve(tg_hash *h, size_t n);
/* Takes key out: 1 when it was there, 0 otherwise.  Pointers from find/insert are void. */
int tg_hash_remove(tg_hash *h, uint64_t key);
void tg_hash_clear(tg_hash *h);
void tg_hash_free(tg_hash *h);

#endif
