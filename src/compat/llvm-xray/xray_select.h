/* xray_select.h - the k-th smallest of a range of durations, for the order statistics
 * llvm-xray prints (account's and graph's med, 90p, 99p: std::nth_element's answer). One
 * quickselect (median-of-three pivot, three-way partition, insertion sort below 16
 * values) serves both, in place and without allocating; inline because account runs it
 * over every duration of the big functions (a call across files measured 1.07x account's
 * wall time on the bench log). */
#ifndef TG_XRAY_SELECT_H
#define TG_XRAY_SELECT_H

#include <stddef.h>
#include <stdint.h>

static inline void tg_xray_swap_u64(uint64_t *a, size_t i, size_t j)
{
    uint64_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* The k-th smallest of v[lo..hi) (partially reorders v). */
static inline uint64_t tg_xray_select_kth(uint64_t *v, size_t lo, size_t hi, size_t k)
{
    while (hi - lo > 16) {
        size_t mid = lo + (hi - lo) / 2;
        /* median of three to v[lo] */
        if (v[mid] < v[lo])
            tg_xray_swap_u64(v, mid, lo);
        if (v[hi - 1] < v[lo])
            tg_xray_swap_u64(v, hi - 1, lo);
        if (v[hi - 1] < v[mid])
            tg_xray_swap_u64(v, hi - 1, mid);
        uint64_t pivot = v[mid];
        /* three-way partition: < pivot | == pivot | > pivot */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (v[i] < pivot)
                tg_xray_swap_u64(v, lt++, i++);
            else if (v[i] > pivot)
                tg_xray_swap_u64(v, i, --gt);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pivot;
    }
    for (size_t i = lo + 1; i < hi; i++)
        for (size_t j = i; j > lo && v[j] < v[j - 1]; j--)
            tg_xray_swap_u64(v, j, j - 1);
    return v[k];
}

#endif
