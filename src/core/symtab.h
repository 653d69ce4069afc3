/* symtab.h - the one symbol-table type: sorted address ranges with names.
 *
 * uftrace .sym files, kallsyms, XRay instrumentation maps and ELF symbol tables all fill
 * the same structure.  Add symbols in any order, call tg_symtab_sort once, then look up by
 * address (binary search).  A symbol without a size extends to the next symbol. */
#ifndef TG_SYMTAB_H
#define TG_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct tg_symbol {
    uint64_t addr;
    uint64_t size;    /* 0: up to the next symbol */
    const char *name; /* owned by whoever filled the table (usually the trace arena) */
    char type;        /* nm-style type letter when known ('T', 't', 'P', ...), else 0 */
} tg_symbol;

typedef struct tg_symtab {
    tg_symbol *syms;
    size_t n, cap;
    int sorted;
} tg_symtab;

void tg_symtab_init(tg_symtab *st);
void tg_symtab_free(tg_symtab *st);
int tg_symtab_add(tg_symtab *st, uint64_t addr, uint64_t size, const char *name, char type);
void tg_symtab_sort(tg_symtab *st);
/* The symbol containing addr, or NULL.  The table must be sorted. */
const tg_symbol *tg_symtab_lookup(const tg_symtab *st, uint64_t addr);
/* The symbol starting exactly at addr, or NULL. */
const tg_symbol *tg_symtab_exact(const tg_symtab *st, uint64_t addr);

#endif
