/* grow.c - geometric growth of heap arrays (see grow.h). */
#include "core/grow.h"
#include "traceglot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int tg_grow_array(void **arr, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return TG_ERR_NOMEM;
        n *= 2;
    }
    if (elem_size && n > SIZE_MAX / elem_size)
        return TG_ERR_NOMEM;
    void *p = realloc(*arr, n * elem_size);
    if (!p)
        return TG_ERR_NOMEM;
    *arr = p;
    *cap = n;
    return 0;
}

int tg_grow_zeroed_array(void **arr, size_t *len, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *len)
        return 0;
    int rc = tg_grow_room(arr, cap, need, elem_size);
    if (rc < 0)
        return rc;
    memset((char *)*arr + *len * elem_size, 0, (need - *len) * elem_size);
    *len = need;
    return 0;
}
