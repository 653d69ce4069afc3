/* arena.c - bump allocation in growing blocks, freed all at once (see arena.h). */
#include "core/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tg_arena_block {
    struct tg_arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

#define TG_ARENA_BLOCK (64 * 1024)

void tg_arena_init(tg_arena *a) { a->head = NULL; }

void tg_arena_free(tg_arena *a)
{
    struct tg_arena_block *b = a->head;
    while (b) {
        struct tg_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

void *tg_arena_alloc(tg_arena *a, size_t n)
{
    const size_t align = sizeof(max_align_t);
    if (n > SIZE_MAX - align)
        return NULL;
    n = (n + align - 1) & ~(align - 1);
    struct tg_arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > TG_ARENA_BLOCK ? n : TG_ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *tg_arena_strndup(tg_arena *a, const char *s, size_t n)
{
    char *p = tg_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

char *tg_arena_strdup(tg_arena *a, const char *s) { return tg_arena_strndup(a, s, strlen(s)); }
