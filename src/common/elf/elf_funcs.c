/* elf_funcs.c - the function symbols and PLT entries of an ELF file, read with libelf (see
 * elf_funcs.h): shared by the perf.data reader's consumers and the uftrace reader. */
#include "common/elf/elf_funcs.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#define ELF_PLT_ENTRY 16u

static int read_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, tg_elf_func_fn fn, void *ctx)
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
        tg_elf_func f = {s.st_value, s.st_size, name, false};
        int rc = fn(ctx, &f);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The PLT entries, by the relocations of .rela.plt and the names of their symbols. */
static int read_plt(Elf *elf, Elf_Scn *rela, const GElf_Shdr *rsh, uint64_t first,
                    tg_elf_func_fn fn, void *ctx)
{
    Elf_Scn *dynsym = elf_getscn(elf, rsh->sh_link);
    GElf_Shdr dsh;
    Elf_Data *rd = elf_getdata(rela, NULL);
    Elf_Data *dd = dynsym ? elf_getdata(dynsym, NULL) : NULL;
    if (!rd || !dd || !gelf_getshdr(dynsym, &dsh) || !rsh->sh_entsize)
        return 0;
    size_t n = rsh->sh_size / rsh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Rela r;
        GElf_Sym s;
        if (!gelf_getrela(rd, (int)i, &r) || !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s))
            break;
        const char *name = elf_strptr(elf, dsh.sh_link, s.st_name);
        tg_elf_func f = {first + i * ELF_PLT_ENTRY, ELF_PLT_ENTRY, name ? name : "", true};
        int rc = fn(ctx, &f);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int read_elf(Elf *elf, unsigned flags, tg_elf_func_fn fn, void *ctx)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0;
    Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *rela_plt = NULL;
    GElf_Shdr sh, sym_sh = {0}, dyn_sh = {0}, rela_sh = {0};
    uint64_t plt = 0, plt_sec = 0;
    bool has_plt = false, has_plt_sec = false;
    while ((scn = elf_nextscn(elf, scn))) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (sh.sh_type == SHT_SYMTAB && !symtab) {
            symtab = scn;
            sym_sh = sh;
        } else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
            dynsym = scn;
            dyn_sh = sh;
        } else if (name && sh.sh_type == SHT_RELA && !strcmp(name, ".rela.plt")) {
            rela_plt = scn;
            rela_sh = sh;
        } else if (name && !strcmp(name, ".plt")) {
            plt = sh.sh_addr;
            has_plt = true;
        } else if (name && !strcmp(name, ".plt.sec")) {
            plt_sec = sh.sh_addr;
            has_plt_sec = true;
        }
    }
    int rc = 0;
    if (symtab)
        rc = read_table(elf, symtab, &sym_sh, fn, ctx);
    else if (dynsym)
        rc = read_table(elf, dynsym, &dyn_sh, fn, ctx);
    if (rc >= 0 && (flags & TG_ELF_FUNCS_PLT) && rela_plt && (has_plt || has_plt_sec))
        rc =
            read_plt(elf, rela_plt, &rela_sh, has_plt_sec ? plt_sec : plt + ELF_PLT_ENTRY, fn, ctx);
    return rc;
}

int tg_elf_funcs_read(const char *path, unsigned flags, tg_elf_func_fn fn, void *ctx)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    int rc = 0;
    if (elf && elf_kind(elf) == ELF_K_ELF)
        rc = read_elf(elf, flags, fn, ctx);
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}
