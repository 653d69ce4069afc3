/* test_core_hash.c - core's hash table: insert, find, growth across many keys (pointer-like,
 * sequential and zero keys), clear and reuse. */
#include "core/hash.h"
#include "tg_test.h"

#include <stdint.h>

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
        if (tg_hash_insert(&h, k, &v) != 1) ok = 0; else *v = k * 3;
        if (tg_hash_insert(&h, 0x7f0000000000ull + 16 * k, &v) != 1) ok = 0; else *v = k;
    }
    CHECK(&tc, ok);
    CHECK(&tc, h.n == 100001);
    CHECK(&tc, 2 * h.n <= h.cap);
    ok = 1;
    for (uint64_t k = 1; k <= 50000; k++) {
        uint64_t *a = tg_hash_find(&h, k), *b = tg_hash_find(&h, 0x7f0000000000ull + 16 * k);
        if (!a || *a != k * 3 || !b || *b != k) ok = 0;
    }
    CHECK(&tc, ok);
    CHECK(&tc, tg_hash_find(&h, 50001) == NULL);
    CHECK(&tc, *tg_hash_find(&h, 0) == 77);
    tg_hash_clear(&h);
    CHECK(&tc, h.n == 0 && tg_hash_find(&h, 5) == NULL);
    CHECK(&tc, tg_hash_insert(&h, 5, &v) == 1 && *v == 0);
    tg_hash_free(&h);
    CHECK(&tc, h.cap == 0 && tg_hash_find(&h, 5) == NULL);
    return tg_test_done(&tc);
}
