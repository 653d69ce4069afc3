/* arena.h - a bump allocator for objects that live exactly as long as their trace.
 *
 * Event class names, field schemas, symbol names and other small things read from a trace's
 * metadata are allocated here and freed all at once when the trace closes, so readers need
 * no per-object bookkeeping.  Never used per event. */
#ifndef TG_ARENA_H
#define TG_ARENA_H

#include <stddef.h>

struct tg_arena_block;

typedef struct tg_arena {
    struct tg_arena_block *head;
} tg_arena;

void tg_arena_init(tg_arena *a);
void tg_arena_free(tg_arena *a);
/* Zeroed memory aligned for any type; NULL when out of memory. */
void *tg_arena_alloc(tg_arena *a, size_t n);
char *tg_arena_strdup(tg_arena *a, const char *s);
char *tg_arena_strndup(tg_arena *a, const char *s, size_t n);

#endif
