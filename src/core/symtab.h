/* symtab.h - the one symbol-table type: sorted address ranges with names.
 *
 * uftrace .sym files, kallsyms, XRay instrumentation maps and ELF symbol tables all fill
 * the same structure.  Add symbols in any order, call tg_symtab_sort once, then look up by
 * address (binary search).  A symbol without a size extends to the next symbol.  A symbol
 * may name its module (kallsyms's "[module]" column): the table keeps each module's name
 * once and a symbol its number, inside the padding after its type. */
#ifndef TG_SYMTAB_H
#define TG_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct tg_symbol {
    uint64_t addr;
    uint64_t size;    /* 0: up to the next symbol */
    const char *name; /* owned by whoever filled the table (usually the trace arena) */
    char type;        /* nm-style type letter when known ('T', 't', 'P', ...), else 0 */
    uint32_t module;  /* 0: none; else the table's module number (tg_symtab_module) */
} tg_symbol;

typedef struct tg_symtab {
    tg_symbol *syms;
    size_t n, cap;
    int sorted;
    const char **modules; /* module number i + 1 is modules[i] (not owned) */
    size_t n_modules, cap_modules;
} tg_symtab;

void tg_symtab_init(tg_symtab *st);
void tg_symtab_free(tg_symtab *st);
int tg_symtab_add(tg_symtab *st, uint64_t addr, uint64_t size, const char *name, char type);
void tg_symtab_sort(tg_symtab *st);
/* The number of the module named name (kept, not copied), added when new: 1, 2, ...; or
 * TG_ERR_NOMEM.  A table has few modules: they are found by comparing names. */
int64_t tg_symtab_module_number(tg_symtab *st, const char *name);
/* The name of a symbol's module, or NULL. */
static inline const char *tg_symtab_module(const tg_symtab *st, const tg_symbol *s)
{
    return s->module && s->module <= st->n_modules ? st->modules[s->module - 1] : NULL;
}
/* The symbol containing addr, or NULL.  The table must be sorted. */
const tg_symbol *tg_symtab_lookup(const tg_symtab *st, uint64_t addr);
/* The symbol starting exactly at addr, or NULL. */
const tg_symbol *tg_symtab_exact(const tg_symtab *st, uint64_t addr);

#endif
