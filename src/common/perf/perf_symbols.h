/* perf_symbols.h - the function symbols perf finds for a shared object, from its ELF file.
 *
 * perf resolves an address of a user-space map from the mapped file (under --symfs when
 * given): the functions of its .symtab, or of .dynsym when it has none, each from its value
 * to value + size (a symbol of size 0 to the next one), looked up by the map-relative
 * address (ip - map start + pgoff; a PIE or shared library is not adjusted further, as
 * perf's symbol-elf.c leaves ET_DYN files).  Files are read once, on first use; a file that
 * cannot be read gives no symbols, and every address in it is "[unknown]".  The kernel's
 * symbols come from a kallsyms file (perf_kallsyms.h). */
#ifndef TG_PERF_SYMBOLS_H
#define TG_PERF_SYMBOLS_H

#include "traceglot.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ps_sym {
    uint64_t start, end;
    const char *name;
} ps_sym;

typedef struct ps_dso_syms {
    const char *dso; /* the name the session gave (not owned) */
    ps_sym *v;
    size_t n;
    char *names; /* the symbols' names, one after another */
} ps_dso_syms;

struct perf_kallsyms;
struct perf_session;

typedef struct perf_symbols {
    const char *symfs;       /* NULL: the files themselves */
    const char *kallsyms;    /* perf's --kallsyms FILE; NULL: perf's search (perf_kallsyms.h) */
    const char *buildid_dir; /* perf's --buildid-dir; NULL: $PERF_BUILDID_DIR or ~/.debug */
    int kernel_state;        /* 0: not looked for yet, 1: loaded, -1: none */
    struct perf_kallsyms *kernel;
    ps_dso_syms *dsos;
    size_t n_dsos, cap_dsos;
    bool nomem;
} perf_symbols;

/* Takes the options perf's symbol look-up has: "symfs", "kallsyms", "buildid-dir". */
void perf_symbols_configure(perf_symbols *ps, const tg_options *opts);
/* The kernel's symbols for the session's kernel (loaded on first use), or NULL when perf
 * would find none. */
const struct perf_kallsyms *perf_symbols_kernel(perf_symbols *ps, const struct perf_session *s);
/* The symbol holding addr (map-relative) in dso, or NULL. */
const ps_sym *perf_symbols_find(perf_symbols *ps, const char *dso, uint64_t addr);
void perf_symbols_free(perf_symbols *ps);

#endif
