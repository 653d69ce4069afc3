/* grow.h - growing a heap array geometrically: the one way every module makes room.
 *
 * tg_grow(&arr, &cap, need, sizeof *arr) makes arr hold at least `need` elements, doubling
 * (from 16) so appends cost amortised O(1); on failure arr and cap are unchanged and it
 * returns TG_ERR_NOMEM (also when the byte size would overflow).
 *
 * tg_grow_zeroed(&arr, &len, &cap, need, sizeof *arr) is for arrays indexed by a dense
 * number (a class number, an event id, a name index): when need is past len it grows arr
 * and sets elements len..need-1 to zero bytes, then len = need. */
#ifndef TG_GROW_H
#define TG_GROW_H

#include <stddef.h>

int tg_grow_array(void **arr, size_t *cap, size_t need, size_t elem_size);

/* The common case, room already there, without a call. */
static inline int tg_grow_room(void **arr, size_t *cap, size_t need, size_t elem_size)
{
    return need <= *cap ? 0 : tg_grow_array(arr, cap, need, elem_size);
}

#define tg_grow(arrp, capp, need, elem_size)                                                       \
    tg_grow_room((void **)(arrp), (capp), (need), (elem_size))

int tg_grow_zeroed_array(void **arr, size_t *len, size_t *cap, size_t need, size_t elem_size);
#define tg_grow_zeroed(arrp, lenp, capp, need, elem_size)                                          \
    tg_grow_zeroed_array((void **)(arrp), (lenp), (capp), (need), (elem_size))

#endif
