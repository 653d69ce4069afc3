/* llvm_order.h - reproducing the orders LLVM tools produce with their containers.
 *
 * llvm-xray prints records and rows in orders that come from llvm::DenseMap's bucket order
 * and from libstdc++'s (unstable) std::sort.  Readers and analyses that must print the same
 * bytes use these two helpers: they depend only on the documented algorithms, not on LLVM. */
#ifndef TG_LLVM_ORDER_H
#define TG_LLVM_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* DenseMapInfo hashes: of an int/unsigned key, of a 64-bit key, of a pair of them. */
static inline unsigned tg_llvm_hash32(uint32_t v) { return v * 37u; }
static inline unsigned tg_llvm_hash64(uint64_t v) { return (unsigned)(v * 37ull); }
unsigned tg_llvm_hash_combine(unsigned a, unsigned b);

/* Given the hashes of n distinct keys in insertion order, writes into order[] the insertion
 * indices in the map's bucket (iteration) order.  0, or TG_ERR_NOMEM. */
int tg_llvm_densemap_order(const unsigned *hashes, size_t n, size_t *order);

/* libstdc++'s std::sort (introsort) over the n elements of a[], with less(ctx, x, y) on the
 * element values; the same comparisons and moves, so ties end up where std::sort puts them. */
typedef int (*tg_less_fn)(void *ctx, size_t x, size_t y);
void tg_std_sort(size_t *a, size_t n, tg_less_fn less, void *ctx);

#endif
