/* frame_names.h - the names a viewer writer interns: function and event names, field names.
 *
 * Every viewer format names things by index (Perfetto's interned ids, speedscope's frame
 * table, the flame graphs' call-tree nodes), so each writer keeps one table that gives a
 * name a dense index the first time it is seen and the same index after.  Names are copied
 * (a name's pointer need not outlive the event that carried it) and looked up by content. */
#ifndef TG_FRAME_NAMES_H
#define TG_FRAME_NAMES_H

#include "core/hash.h"

#include <stddef.h>
#include <stdint.h>

typedef struct tg_frame_names {
    char *text; /* every name, NUL-terminated, one after the other */
    size_t text_len, text_cap;
    size_t *start; /* name i begins at text + start[i] */
    size_t n, start_cap;
    tg_hash index; /* the name's hash (tg_hash_bytes) -> its index */
} tg_frame_names;

void tg_frame_names_init(tg_frame_names *t);
void tg_frame_names_free(tg_frame_names *t);
/* The index of name (len bytes), added when new; TG_ERR_NOMEM as a negative value. */
int64_t tg_frame_names_intern(tg_frame_names *t, const char *name, size_t len);
/* The index of name (len bytes), or -1 when it was never interned. */
int64_t tg_frame_names_find(const tg_frame_names *t, const char *name, size_t len);
static inline const char *tg_frame_names_get(const tg_frame_names *t, size_t i)
{
    return t->text + t->start[i];
}
static inline size_t tg_frame_names_count(const tg_frame_names *t) { return t->n; }

#endif
