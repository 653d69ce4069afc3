/* perf_kallsyms.h - the kernel's function symbols as perf loads them from a kallsyms file.
 *
 * perf names a kernel address from a kallsyms file ("ADDRESS TYPE NAME[\t[MODULE]]" lines,
 * /proc/kallsyms's format): the one given with --kallsyms, else (no --symfs given) the
 * running kernel's /proc/kallsyms when its build id (/sys/kernel/notes) is the one the
 * perf.data file recorded for [kernel.kallsyms], or when the file recorded none, else the
 * copy in the build-id cache (BUILDID_DIR/[kernel.kallsyms]/ID/kallsyms).  Loading follows
 * perf 6.1's dso__load_kallsyms: the function and data symbols (types T, W, D, B in either
 * case, u, l), each ending where the next begins (the last one of the kernel's or of a
 * module's run, and the last of all, at the end of its page plus one), one symbol kept of
 * those at one address (perf's choose_best_symbol), all moved by the difference between the
 * file's address of the reference symbol the kernel's map names ("_text") and the address
 * the recording saw it at.  Module symbols are dropped (perf keeps them only for module maps
 * of the recording).  The kernel's map then spans its first symbol to the end of its last:
 * an address outside has no map at all (perf's map__fixup_start and map__fixup_end). */
#ifndef TG_PERF_KALLSYMS_H
#define TG_PERF_KALLSYMS_H

#include "common/perf/perf_symbols.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct perf_kallsyms {
    ps_sym *v; /* by address */
    size_t n;
    char *names;
    uint64_t start, end; /* the kernel map's range once loaded */
} perf_kallsyms;

/* Loads path, the recording having seen reloc_name at reloc_addr (reloc_name NULL: no
 * move).  1 when loaded with symbols, 0 when the file cannot be read or lacks the reference
 * symbol (every kernel address is then without a symbol), TG_ERR_NOMEM. */
int perf_kallsyms_load(perf_kallsyms *k, const char *path, const char *reloc_name,
                       uint64_t reloc_addr);
/* The symbol holding addr, or NULL. */
const ps_sym *perf_kallsyms_find(const perf_kallsyms *k, uint64_t addr);
void perf_kallsyms_free(perf_kallsyms *k);

/* The build id of the running kernel (/sys/kernel/notes): its size, 0 when unreadable. */
size_t perf_running_kernel_build_id(uint8_t id[20]);

#endif
