/* llvm_order.c - llvm::DenseMap bucket order and libstdc++ std::sort (see llvm_order.h).
 *
 * DenseMap: open addressing over a power-of-two bucket array, quadratic probing (bucket +=
 * 1, 2, 3, ...), 64 buckets at the first insertion, doubled when an insertion would reach
 * 3/4 load; growing re-inserts the old buckets in bucket order.  std::sort: introsort with
 * a median-of-three pivot moved to the front, an unguarded partition, heap sort past
 * 2*floor(log2 n) levels, and a final insertion sort (threshold 16). */
#include "common/llvm/llvm_order.h"
#include "traceglot.h"

#include <stdlib.h>

unsigned tg_llvm_hash_combine(unsigned a, unsigned b)
{
    uint64_t key = (uint64_t)a << 32 | (uint64_t)b;
    key += ~(key << 32);
    key ^= (key >> 22);
    key += ~(key << 13);
    key ^= (key >> 8);
    key += (key << 3);
    key ^= (key >> 15);
    key += ~(key << 27);
    key ^= (key >> 31);
    return (unsigned)key;
}

static size_t dm_slot(const size_t *bucket, size_t nb, unsigned hash)
{
    size_t mask = nb - 1, b = hash & mask, step = 1;
    while (bucket[b])
        b = (b + step++) & mask;
    return b;
}

int tg_llvm_densemap_order(const unsigned *hashes, size_t n, size_t *order)
{
    size_t *bucket = NULL, nb = 0;
    for (size_t i = 0; i < n; i++) {
        if ((i + 1) * 4 >= nb * 3) {
            size_t nn = nb ? nb * 2 : 64;
            size_t *g = calloc(nn, sizeof *g);
            if (!g) {
                free(bucket);
                return TG_ERR_NOMEM;
            }
            for (size_t b = 0; b < nb; b++)
                if (bucket[b])
                    g[dm_slot(g, nn, hashes[bucket[b] - 1])] = bucket[b];
            free(bucket);
            bucket = g;
            nb = nn;
        }
        bucket[dm_slot(bucket, nb, hashes[i])] = i + 1;
    }
    size_t k = 0;
    for (size_t b = 0; b < nb; b++)
        if (bucket[b])
            order[k++] = bucket[b] - 1;
    free(bucket);
    return 0;
}

/* ---- libstdc++ std::sort ----------------------------------------------- */

typedef struct sorter {
    tg_less_fn fn;
    void *ctx;
} sorter;

static int less(const sorter *s, size_t x, size_t y) { return s->fn(s->ctx, x, y); }

static void swap_at(size_t *a, size_t i, size_t j)
{
    size_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

static void push_heap(const sorter *s, size_t *a, size_t hole, size_t top, size_t value)
{
    size_t parent = (hole - 1) / 2;
    while (hole > top && less(s, a[parent], value)) {
        a[hole] = a[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    a[hole] = value;
}

static void adjust_heap(const sorter *s, size_t *a, size_t hole, size_t len, size_t value)
{
    size_t top = hole, child = hole;
    while (len >= 2 && child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (less(s, a[child], a[child - 1]))
            child--;
        a[hole] = a[child];
        hole = child;
    }
    if ((len & 1) == 0 && len >= 2 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        a[hole] = a[child - 1];
        hole = child - 1;
    }
    push_heap(s, a, hole, top, value);
}

static void heap_sort(const sorter *s, size_t *a, size_t len)
{
    if (len >= 2) {
        size_t parent = (len - 2) / 2;
        for (;;) {
            adjust_heap(s, a, parent, len, a[parent]);
            if (parent == 0)
                break;
            parent--;
        }
    }
    while (len > 1) {
        len--;
        size_t value = a[len];
        a[len] = a[0];
        adjust_heap(s, a, 0, len, value);
    }
}

static void median_to_first(const sorter *s, size_t *a, size_t result, size_t x, size_t y, size_t z)
{
    if (less(s, a[x], a[y])) {
        if (less(s, a[y], a[z]))
            swap_at(a, result, y);
        else if (less(s, a[x], a[z]))
            swap_at(a, result, z);
        else
            swap_at(a, result, x);
    } else if (less(s, a[x], a[z]))
        swap_at(a, result, x);
    else if (less(s, a[y], a[z]))
        swap_at(a, result, z);
    else
        swap_at(a, result, y);
}

static size_t partition_pivot(const sorter *s, size_t *a, size_t first, size_t last)
{
    size_t mid = first + (last - first) / 2;
    median_to_first(s, a, first, first + 1, mid, last - 1);
    size_t lo = first + 1, hi = last, pivot = first;
    for (;;) {
        while (less(s, a[lo], a[pivot]))
            lo++;
        hi--;
        while (less(s, a[pivot], a[hi]))
            hi--;
        if (!(lo < hi))
            return lo;
        swap_at(a, lo, hi);
        lo++;
    }
}

static void introsort_loop(const sorter *s, size_t *a, size_t first, size_t last, size_t depth)
{
    while (last - first > 16) {
        if (depth == 0) {
            heap_sort(s, a + first, last - first);
            return;
        }
        depth--;
        size_t cut = partition_pivot(s, a, first, last);
        introsort_loop(s, a, cut, last, depth);
        last = cut;
    }
}

static void linear_insert(const sorter *s, size_t *a, size_t i)
{
    size_t v = a[i];
    while (less(s, v, a[i - 1])) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = v;
}

static void insertion_sort(const sorter *s, size_t *a, size_t first, size_t last)
{
    if (first == last)
        return;
    for (size_t i = first + 1; i < last; i++) {
        if (less(s, a[i], a[first])) {
            size_t v = a[i];
            for (size_t j = i; j > first; j--)
                a[j] = a[j - 1];
            a[first] = v;
        } else {
            linear_insert(s, a, i);
        }
    }
}

void tg_std_sort(size_t *a, size_t n, tg_less_fn fn, void *ctx)
{
    sorter st = {fn, ctx};
    const sorter *s = &st;
    if (n < 2)
        return;
    size_t lg = 0;
    for (size_t v = n; v > 1; v >>= 1)
        lg++;
    introsort_loop(s, a, 0, n, 2 * lg);
    if (n > 16) {
        insertion_sort(s, a, 0, 16);
        for (size_t i = 16; i < n; i++)
            linear_insert(s, a, i);
    } else {
        insertion_sort(s, a, 0, n);
    }
}
