/* test_core_hash.c - core's hash table: insert, find, growth across many keys (pointer-like,
 * sequential and zero keys), removal inside probe runs, name keys with equal hashes told
 * apart by the caller's eq, clear and reuse. */
#include "core/hash.h"
#include "tg_test.h"

#include <stdint.h>
#include <string.h>

static const char *const names[] = {"main", "work", "leaf", "main"};

static int same_name(const void *ctx, uint64_t value) { return strcmp(names[value], ctx) == 0; }

int main(void)
{
    struct tg_test_counts tc = {0};
    tg_hash h = {0};
    CHECK(&tc, tg_hash_find(&h, 0) == NULL);
    uint64_t *v;
    CHECK(&tc, tg_hash_insert(&h, 0, &v) == 1 && *v == 0);
    *v = 77;
    CHECK(&tc, tg_hash_insert(&h, 0, &v) == 0 && *v == 77);
    /* 100000 keys: small integers and 16-byte-aligned addresses, through several doublings */
    int ok = 1;
    for (uint64_t k = 1; k <= 50000; k++) {
        if (tg_hash_insert(&h, k, &v) != 1)
            ok = 0;
        else
            *v = k * 3;
        if (tg_hash_insert(&h, 0x7f0000000000ull + 16 * k, &v) != 1)
            ok = 0;
        else
            *v = k;
    }
    CHECK(&tc, ok);
    CHECK(&tc, h.n == 100001);
    CHECK(&tc, 2 * h.n <= h.cap);
    ok = 1;
    for (uint64_t k = 1; k <= 50000; k++) {
        uint64_t *a = tg_hash_find(&h, k), *b = tg_hash_find(&h, 0x7f0000000000ull + 16 * k);
        if (!a || *a != k * 3 || !b || *b != k)
            ok = 0;
    }
    CHECK(&tc, ok);
    CHECK(&tc, tg_hash_find(&h, 50001) == NULL);
    CHECK(&tc, *tg_hash_find(&h, 0) == 77);
    /* removal: every other small key out, the rest (and the runs they sat in) still found */
    ok = 1;
    for (uint64_t k = 2; k <= 50000; k += 2)
        if (tg_hash_remove(&h, k) != 1)
            ok = 0;
    CHECK(&tc, ok && tg_hash_remove(&h, 2) == 0 && h.n == 75001);
    ok = 1;
    for (uint64_t k = 1; k <= 50000; k++) {
        uint64_t *a = tg_hash_find(&h, k), *b = tg_hash_find(&h, 0x7f0000000000ull + 16 * k);
        if ((k % 2 == 0) != !a || (a && *a != k * 3) || !b || *b != k)
            ok = 0;
    }
    CHECK(&tc, ok);
    tg_hash_clear(&h);
    /* name keys: one hash for all (the worst case), eq tells the names apart */
    for (uint64_t i = 0; i < 3; i++) {
        CHECK(&tc, tg_hash_find_by(&h, 42, same_name, names[i]) == NULL);
        CHECK(&tc, tg_hash_add(&h, 42, &v) == 0);
        *v = i;
    }
    CHECK(&tc, *tg_hash_find_by(&h, 42, same_name, "leaf") == 2);
    CHECK(&tc, *tg_hash_find_by(&h, 42, same_name, names[3]) == 0);
    CHECK(&tc, tg_hash_find_by(&h, 42, same_name, "none") == NULL);
    CHECK(&tc, tg_hash_str("a") != tg_hash_str("b"));
    CHECK(&tc, tg_hash_bytes("main", 4) == tg_hash_str("main"));
    CHECK(&tc, tg_hash_bytes("mainx", 4) == tg_hash_str("main"));
    tg_hash_clear(&h);
    CHECK(&tc, h.n == 0 && tg_hash_find(&h, 5) == NULL);
    CHECK(&tc, tg_hash_insert(&h, 5, &v) == 1 && *v == 0);
    tg_hash_free(&h);
    CHECK(&tc, h.cap == 0 && tg_hash_find(&h, 5) == NULL);
    /* dense numbers: 0, 1, 2, ... in first-seen order, the same number when seen again */
    int added, dense_ok = 1;
    for (uint64_t k = 0; k < 1000; k++) {
        int64_t n = tg_hash_index(&h, 0x7f0000000000ull + 64 * k, &added);
        dense_ok &= n == (int64_t)k && added;
    }
    for (uint64_t k = 0; k < 1000; k += 7) {
        int64_t n = tg_hash_index(&h, 0x7f0000000000ull + 64 * k, &added);
        dense_ok &= n == (int64_t)k && !added;
    }
    CHECK(&tc, dense_ok && h.n == 1000);
    tg_hash_free(&h);
    return tg_test_done(&tc);
}
