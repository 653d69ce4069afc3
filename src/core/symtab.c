/* symtab.c - sorted address ranges with names (see symtab.h). */
#include "core/symtab.h"
#include "core/grow.h"

#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

void tg_symtab_init(tg_symtab *st) { *st = (tg_symtab){.sorted = 1}; }

void tg_symtab_free(tg_symtab *st)
{
    free(st->syms);
    free(st->modules);
    tg_symtab_init(st);
}

int64_t tg_symtab_module_number(tg_symtab *st, const char *name)
{
    for (size_t i = st->n_modules; i-- > 0;) /* the last one added is asked again most */
        if (strcmp(st->modules[i], name) == 0)
            return (int64_t)i + 1;
    if (st->n_modules >= UINT32_MAX ||
        tg_grow(&st->modules, &st->cap_modules, st->n_modules + 1, sizeof *st->modules) < 0)
        return TG_ERR_NOMEM;
    st->modules[st->n_modules++] = name;
    return (int64_t)st->n_modules;
}

int tg_symtab_add(tg_symtab *st, uint64_t addr, uint64_t size, const char *name, char type)
{
    int rc = tg_grow(&st->syms, &st->cap, st->n + 1, sizeof *st->syms);
    if (rc < 0)
        return rc;
    if (st->n && st->syms[st->n - 1].addr > addr)
        st->sorted = 0;
    st->syms[st->n++] = (tg_symbol){addr, size, name, type, 0};
    return 0;
}

static int cmp_sym(const void *a, const void *b)
{
    const tg_symbol *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void tg_symtab_sort(tg_symtab *st)
{
    if (!st->sorted && st->n > 1)
        qsort(st->syms, st->n, sizeof *st->syms, cmp_sym);
    st->sorted = 1;
}

/* Index of the last symbol with addr <= a, or -1. */
static ptrdiff_t last_at_or_below(const tg_symtab *st, uint64_t a)
{
    size_t lo = 0, hi = st->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->syms[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

const tg_symbol *tg_symtab_lookup(const tg_symtab *st, uint64_t addr)
{
    ptrdiff_t i = last_at_or_below(st, addr);
    if (i < 0)
        return NULL;
    const tg_symbol *s = &st->syms[i];
    if (s->size && addr - s->addr >= s->size)
        return NULL;
    return s;
}

const tg_symbol *tg_symtab_exact(const tg_symtab *st, uint64_t addr)
{
    ptrdiff_t i = last_at_or_below(st, addr);
    if (i < 0 || st->syms[i].addr != addr)
        return NULL;
    while (i > 0 && st->syms[i - 1].addr == addr)
        i--;
    return &st->syms[i];
}
