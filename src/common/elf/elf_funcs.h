/* elf_funcs.h - the functions an ELF file names, read with libelf, for the readers that
 * name addresses from a program's file (perf's symbol-elf.c way; uftrace's while its own
 * symbol tables are not written yet).
 *
 * Each function symbol (STT_FUNC or STT_GNU_IFUNC, defined, non-zero value, named) of
 * .symtab, or of .dynsym when the file has no .symtab, is given to a callback with its value
 * and size.  With TG_ELF_FUNCS_PLT the PLT entries follow, named after the relocations of
 * .rela.plt as uftrace names them: on x86-64 the i-th relocation's entry is .plt.sec + 16i
 * when the file has a .plt.sec (IBT), else .plt + 16(i+1) (the first .plt entry is the
 * resolver's).  A file that cannot be opened or is not ELF gives nothing. */
#ifndef TG_ELF_FUNCS_H
#define TG_ELF_FUNCS_H

#include <stdbool.h>
#include <stdint.h>

#define TG_ELF_FUNCS_PLT 1u

typedef struct tg_elf_func {
    uint64_t addr, size;
    const char *name; /* valid during the callback only */
    bool plt;
} tg_elf_func;

/* A negative return of fn stops the reading and is returned. */
typedef int (*tg_elf_func_fn)(void *ctx, const tg_elf_func *f);

/* 0 when read (or unreadable: nothing given); fn's negative value when it stopped. */
int tg_elf_funcs_read(const char *path, unsigned flags, tg_elf_func_fn fn, void *ctx);

#endif
