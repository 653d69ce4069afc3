/* xray_order.c - the order in which llvm-xray 14 visits the blocks of an FDR log.
 *
 * llvm-xray groups FDR blocks (thread buffers) by (pid, tid) in an llvm::DenseMap, visits
 * the groups in that hash table's bucket order, and sorts each group's blocks with
 * std::sort under the comparison "seconds < seconds && nanos < nanos" of their wall-clock
 * records.  `llvm-xray account` reads the records in exactly this order, and `llvm-xray
 * convert` stable-sorts them by TSC from it, so equal timestamps and the account's
 * first-record rule depend on it.  The container behaviour itself is in common/llvm/llvm_order. */
#include "formats/xray/xray_internal.h"

#include "common/llvm/llvm_order.h"

#include <stdlib.h>

static int wall_less(void *ctx, size_t x, size_t y)
{
    const xray_block *b = ctx;
    const xray_block *l = &b[x], *r = &b[y];
    uint64_t ls = l->has_wall ? l->wall_sec : 0, rs = r->has_wall ? r->wall_sec : 0;
    uint32_t ln = l->has_wall ? l->wall_nsec : 0, rn = r->has_wall ? r->wall_nsec : 0;
    return ls < rs && ln < rn;
}

int xray_llvm_block_order(const xray_block *blocks, size_t n, size_t *order)
{
    if (n == 0)
        return 0;
    size_t n_threads = 0;
    for (size_t i = 0; i < n; i++)
        if (blocks[i].thread + 1 > n_threads)
            n_threads = blocks[i].thread + 1;
    size_t *first = malloc(n_threads * sizeof *first);
    size_t *count = calloc(n_threads + 1, sizeof *count);
    size_t *fill = malloc(n_threads * sizeof *fill);
    size_t *torder = malloc(n_threads * sizeof *torder);
    unsigned *hashes = malloc(n_threads * sizeof *hashes);
    size_t *byth = malloc(n * sizeof *byth);
    int rc = 0;
    if (!first || !count || !fill || !torder || !hashes || !byth) {
        rc = TG_ERR_NOMEM;
        goto out;
    }
    /* threads are numbered in first-appearance order, which is the map's insertion order */
    for (size_t i = n; i-- > 0;)
        first[blocks[i].thread] = i;
    for (size_t i = 0; i < n; i++)
        count[blocks[i].thread + 1]++;
    for (size_t t = 0; t < n_threads; t++) {
        count[t + 1] += count[t];
        fill[t] = count[t];
        const xray_block *k = &blocks[first[t]];
        hashes[t] = tg_llvm_hash_combine(tg_llvm_hash64(k->pid), tg_llvm_hash32((uint32_t)k->tid));
    }
    for (size_t i = 0; i < n; i++)
        byth[fill[blocks[i].thread]++] = i;
    rc = tg_llvm_densemap_order(hashes, n_threads, torder);
    if (rc < 0)
        goto out;
    size_t k = 0;
    for (size_t ti = 0; ti < n_threads; ti++) {
        size_t t = torder[ti];
        size_t *grp = byth + count[t];
        size_t gn = count[t + 1] - count[t];
        tg_std_sort(grp, gn, wall_less, (void *)blocks);
        for (size_t j = 0; j < gn; j++)
            order[k++] = grp[j];
    }
out:
    free(first);
    free(count);
    free(fill);
    free(torder);
    free(hashes);
    free(byth);
    return rc;
}
