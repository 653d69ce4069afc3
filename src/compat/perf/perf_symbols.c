/* perf_symbols.c - ELF function symbols of the shared objects a perf.data file maps, read
 * with libelf as perf's symbol-elf.c reads them (see perf_symbols.h). */
#include "compat/perf/perf_symbols.h"
#include "core/consumer.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sym_cmp(const void *a, const void *b)
{
    const ps_sym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The function symbols of the section scn (a symbol table) appended to d. */
static int read_table(ps_dso_syms *d, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, size_t *cap,
                      size_t *names_len, size_t *names_cap)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || !sh->sh_entsize)
        return 0;
    size_t n = sh->sh_size / sh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(data, (int)i, &s))
            break;
        int type = GELF_ST_TYPE(s.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || !s.st_value)
            continue;
        const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
        if (!name || !*name)
            continue;
        size_t len = strlen(name) + 1;
        TG_TRY(tg_grow(&d->v, cap, d->n + 1, sizeof *d->v));
        TG_TRY(tg_grow(&d->names, names_cap, *names_len + len, 1));
        memcpy(d->names + *names_len, name, len);
        /* names are offsets until the table is complete (the buffer may move) */
        d->v[d->n++] =
            (ps_sym){s.st_value, s.st_value + s.st_size, (const char *)(uintptr_t)*names_len};
        *names_len += len;
    }
    return 0;
}

static int load(ps_dso_syms *d, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    int rc = 0;
    size_t cap = 0, names_len = 0, names_cap = 0;
    if (elf && elf_kind(elf) == ELF_K_ELF) {
        Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
        GElf_Shdr sh, sym_sh, dyn_sh;
        while ((scn = elf_nextscn(elf, scn))) {
            if (!gelf_getshdr(scn, &sh))
                continue;
            if (sh.sh_type == SHT_SYMTAB && !symtab) {
                symtab = scn;
                sym_sh = sh;
            } else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
                dynsym = scn;
                dyn_sh = sh;
            }
        }
        if (symtab)
            rc = read_table(d, elf, symtab, &sym_sh, &cap, &names_len, &names_cap);
        else if (dynsym)
            rc = read_table(d, elf, dynsym, &dyn_sh, &cap, &names_len, &names_cap);
    }
    if (elf)
        elf_end(elf);
    close(fd);
    for (size_t i = 0; i < d->n; i++)
        d->v[i].name = d->names + (uintptr_t)d->v[i].name;
    qsort(d->v, d->n, sizeof *d->v, sym_cmp);
    /* a symbol of size 0 ends where the next begins (perf's symbols__fixup_end) */
    for (size_t i = 0; i + 1 < d->n; i++)
        if (d->v[i].end == d->v[i].start)
            d->v[i].end = d->v[i + 1].start;
    return rc;
}

static ps_dso_syms *dso_of(perf_symbols *ps, const char *dso)
{
    for (size_t i = 0; i < ps->n_dsos; i++)
        if (ps->dsos[i].dso == dso)
            return &ps->dsos[i];
    if (tg_grow(&ps->dsos, &ps->cap_dsos, ps->n_dsos + 1, sizeof *ps->dsos) < 0) {
        ps->nomem = true;
        return NULL;
    }
    ps_dso_syms *d = &ps->dsos[ps->n_dsos++];
    memset(d, 0, sizeof *d);
    d->dso = dso;
    if (dso[0] == '/') {
        char path[4096];
        snprintf(path, sizeof path, "%s%s", ps->symfs ? ps->symfs : "", dso);
        if (load(d, path) < 0)
            ps->nomem = true;
    }
    return d;
}

const ps_sym *perf_symbols_find(perf_symbols *ps, const char *dso, uint64_t addr)
{
    ps_dso_syms *d = dso ? dso_of(ps, dso) : NULL;
    if (!d || !d->n)
        return NULL;
    size_t lo = 0, hi = d->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->v[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const ps_sym *s = &d->v[lo - 1];
    return addr < s->end ? s : NULL;
}

void perf_symbols_free(perf_symbols *ps)
{
    for (size_t i = 0; i < ps->n_dsos; i++) {
        free(ps->dsos[i].v);
        free(ps->dsos[i].names);
    }
    free(ps->dsos);
    memset(ps, 0, sizeof *ps);
}
