/* xray_instr_map.c - function ids, addresses and names from an XRay-instrumented binary.
 *
 * The compiler writes one 32-byte sled entry per instrumentation point into the ELF section
 * xray_instr_map (sled address, function address, kind, always-instrument flag, version).
 * Version 2 entries hold addresses relative to the entry itself; in PIE binaries an entry
 * whose field is zero is filled by a relocation (R_*_RELATIVE: the addend; R_*_64: symbol
 * plus addend).  The XRay runtime numbers functions from 1 in sled order, a new id each time
 * the function address changes; this file does the same, as llvm-xray does.
 *
 * Names follow llvm-symbolizer on a binary without debug info: the function or object
 * symbol with the greatest address not above the function address (and covering it when it
 * has a size), demangled; "@(hex)" when none.  The location text is "file:line:column"
 * from the DWARF line table when the binary has one (xray_dwarf_line.c), else for a local
 * symbol the file name of the STT_FILE symbol before it with ":0:0", else "<invalid>:0:0". */
#include "formats/xray/xray_internal.h"
#include "formats/xray/xray_dwarf_line.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XRAY_MAX_SLEDS (1u << 26)

typedef struct reloc_ent {
    uint64_t off, value;
} reloc_ent;

typedef struct sym_ent {
    uint64_t addr, size;
    const char *name; /* in the ELF string table (valid while the Elf is open) */
    const char *file; /* STT_FILE name for local symbols, else NULL */
    size_t order;
} sym_ent;

static int cmp_reloc(const void *a, const void *b)
{
    const reloc_ent *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_sym(const void *a, const void *b)
{
    const sym_ent *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static const reloc_ent *find_reloc(const reloc_ent *r, size_t n, uint64_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && r[lo].off == off ? &r[lo] : NULL;
}

/* The symbol llvm-symbolizer picks for addr: the last one at or below it (ties sorted by
 * size, so the largest), rejected when it has a size that does not reach addr. */
static const sym_ent *find_sym(const sym_ent *s, size_t n, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const sym_ent *e = &s[lo - 1];
    /* Equal address and size: the first in symbol-table order. */
    while (e > s && e[-1].addr == e->addr && e[-1].size == e->size)
        e--;
    if (e->size != 0 && e->addr + e->size <= addr)
        return NULL;
    return e;
}

typedef struct loader {
    const char *bin;
    Elf *elf;
    reloc_ent *relocs;
    size_t n_relocs, cap_relocs;
    sym_ent *syms;
    size_t n_syms, cap_syms;
} loader;

static int push_reloc(loader *L, uint64_t off, uint64_t value)
{
    TG_TRY(tg_grow(&L->relocs, &L->cap_relocs, L->n_relocs + 1, sizeof *L->relocs));
    L->relocs[L->n_relocs].off = off;
    L->relocs[L->n_relocs].value = value;
    L->n_relocs++;
    return 0;
}

/* Relocations that land in [lo, hi): the ones that can fill sled entries. */
static int collect_relocs(loader *L, GElf_Half machine, uint64_t lo, uint64_t hi)
{
    unsigned rel_relative = machine == EM_AARCH64 ? 1027u : 8u; /* R_*_RELATIVE */
    unsigned rel_abs64 = machine == EM_AARCH64 ? 257u : 1u;     /* R_*_ABS64 / R_X86_64_64 */
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(L->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL))
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || sh.sh_entsize == 0)
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        Elf_Data *symd = NULL;
        Elf_Scn *symscn = elf_getscn(L->elf, sh.sh_link);
        if (symscn)
            symd = elf_getdata(symscn, NULL);
        for (size_t i = 0; i < n; i++) {
            uint64_t off, type, symi;
            int64_t addend = 0;
            if (sh.sh_type == SHT_RELA) {
                GElf_Rela r;
                if (!gelf_getrela(d, (int)i, &r))
                    break;
                off = r.r_offset;
                type = GELF_R_TYPE(r.r_info);
                symi = GELF_R_SYM(r.r_info);
                addend = r.r_addend;
            } else {
                GElf_Rel r;
                if (!gelf_getrel(d, (int)i, &r))
                    break;
                off = r.r_offset;
                type = GELF_R_TYPE(r.r_info);
                symi = GELF_R_SYM(r.r_info);
            }
            if (off < lo || off >= hi)
                continue;
            if (type == rel_relative) {
                TG_TRY(push_reloc(L, off, (uint64_t)addend));
            } else if (type == rel_abs64) {
                GElf_Sym s;
                uint64_t sv = 0;
                if (symd && symi && gelf_getsym(symd, (int)symi, &s))
                    sv = s.st_value;
                TG_TRY(push_reloc(L, off, sv + (uint64_t)addend));
            }
        }
    }
    if (L->n_relocs)
        qsort(L->relocs, L->n_relocs, sizeof *L->relocs, cmp_reloc);
    return 0;
}

static int collect_syms_of(loader *L, Elf_Scn *scn, const GElf_Shdr *sh)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || sh->sh_entsize == 0)
        return 0;
    size_t n = sh->sh_size / sh->sh_entsize;
    const char *file = NULL;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s))
            break;
        int type = GELF_ST_TYPE(s.st_info);
        const char *name = elf_strptr(L->elf, sh->sh_link, s.st_name);
        if (type == STT_FILE) {
            file = name;
            continue;
        }
        if (type != STT_FUNC && type != STT_OBJECT)
            continue;
        if (!name || s.st_shndx == SHN_UNDEF)
            continue;
        TG_TRY(tg_grow(&L->syms, &L->cap_syms, L->n_syms + 1, sizeof *L->syms));
        sym_ent *e = &L->syms[L->n_syms];
        e->addr = s.st_value;
        e->size = s.st_size;
        e->name = name;
        e->file = GELF_ST_BIND(s.st_info) == STB_LOCAL ? file : NULL;
        e->order = L->n_syms;
        L->n_syms++;
    }
    return 0;
}

static int collect_syms(loader *L)
{
    Elf_Scn *scn = NULL, *dyn = NULL;
    GElf_Shdr dynsh;
    while ((scn = elf_nextscn(L->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB)
            TG_TRY(collect_syms_of(L, scn, &sh));
        else if (sh.sh_type == SHT_DYNSYM && !dyn) {
            dyn = scn;
            dynsh = sh;
        }
    }
    if (L->n_syms == 0 && dyn)
        TG_TRY(collect_syms_of(L, dyn, &dynsh));
    if (L->n_syms)
        qsort(L->syms, L->n_syms, sizeof *L->syms, cmp_sym);
    return 0;
}

static const char *basename_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static Elf_Data *section_data(Elf *elf, const char *want)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return NULL;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && strcmp(name, want) == 0) {
            Elf_Data *d = elf_getdata(scn, NULL);
            return d && d->d_buf && d->d_size == sh.sh_size ? d : NULL;
        }
    }
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Line-table locations of the map's functions (when the binary has .debug_line). */
static int dwarf_locations(loader *L, xray_instr_map *map, tg_arena *arena)
{
    Elf_Data *dl = section_data(L->elf, ".debug_line");
    if (!dl)
        return 0;
    Elf_Data *ds = section_data(L->elf, ".debug_str");
    Elf_Data *dls = section_data(L->elf, ".debug_line_str");
    uint64_t *addrs = malloc(map->n_funcs * sizeof *addrs);
    xray_line *res = calloc(map->n_funcs, sizeof *res);
    size_t na = 0;
    int rc = 0;
    if (!addrs || !res) {
        rc = TG_ERR_NOMEM;
        goto out;
    }
    for (size_t id = 1; id < map->n_funcs; id++)
        if (map->funcs[id].location)
            addrs[na++] = map->funcs[id].addr;
    qsort(addrs, na, sizeof *addrs, cmp_u64);
    xray_dwarf_lines(dl->d_buf, dl->d_size, ds ? ds->d_buf : NULL, ds ? ds->d_size : 0,
                     dls ? dls->d_buf : NULL, dls ? dls->d_size : 0, addrs, na, res);
    for (size_t id = 1; id < map->n_funcs; id++) {
        xray_func *f = &map->funcs[id];
        if (!f->location)
            continue;
        uint64_t *hit = bsearch(&f->addr, addrs, na, sizeof *addrs, cmp_u64);
        const xray_line *ln = hit ? &res[hit - addrs] : NULL;
        if (!ln || !ln->file)
            continue;
        char tmp[48];
        int k = snprintf(tmp, sizeof tmp, ":%u:%u", (unsigned)ln->line, (unsigned)ln->column);
        size_t fl = strlen(ln->file);
        char *loc = tg_arena_alloc(arena, fl + (size_t)k + 1);
        if (!loc) {
            rc = TG_ERR_NOMEM;
            goto out;
        }
        memcpy(loc, ln->file, fl);
        memcpy(loc + fl, tmp, (size_t)k + 1);
        f->dwarf_location = loc;
    }
out:
    free(addrs);
    free(res);
    return rc;
}

/* Names every function of the map (arena copies, so they outlive the Elf). */
static int name_functions(loader *L, xray_instr_map *map, tg_arena *arena)
{
    char tmp[64];
    TG_TRY(dwarf_locations(L, map, arena));
    for (size_t id = 1; id < map->n_funcs; id++) {
        xray_func *f = &map->funcs[id];
        if (!f->name && f->addr == 0 && !f->location)
            continue; /* not in the map */
        const sym_ent *s = find_sym(L->syms, L->n_syms, f->addr);
        if (!s) {
            snprintf(tmp, sizeof tmp, "@(%" PRIx64 ")", f->addr);
            f->name = tg_arena_strdup(arena, tmp);
            f->location = "<invalid>:0:0";
        } else {
            char *dm = s->name[0] == '_' && s->name[1] == 'Z' ? xray_demangle(s->name) : NULL;
            f->name = tg_arena_strdup(arena, dm ? dm : s->name);
            f->symbol = dm ? tg_arena_strdup(arena, s->name) : f->name;
            free(dm);
            if (s->file && *s->file) {
                const char *b = basename_of(s->file);
                size_t n = strlen(b);
                char *loc = tg_arena_alloc(arena, n + 5);
                if (loc) {
                    memcpy(loc, b, n);
                    memcpy(loc + n, ":0:0", 5);
                }
                f->location = loc;
            } else {
                f->location = "<invalid>:0:0";
            }
        }
        if (f->dwarf_location)
            f->location = f->dwarf_location;
        if (!f->name || !f->location)
            return TG_ERR_NOMEM;
    }
    return 0;
}

static int load_elf(loader *L, xray_instr_map *map, tg_arena *arena, tg_error **err)
{
    const char *bin = L->bin;
    GElf_Ehdr eh;
    if (elf_kind(L->elf) != ELF_K_ELF || !gelf_getehdr(L->elf, &eh))
        return tg_err_at(err, TG_ERR_FORMAT, bin, 0, "not an ELF file");
    if (gelf_getclass(L->elf) != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return tg_err_at(err, TG_ERR_UNSUPPORTED, bin, 0,
                         "only 64-bit little-endian ELF instrumentation maps are read");
    size_t shstrndx;
    if (elf_getshdrstrndx(L->elf, &shstrndx) != 0)
        return tg_err_at(err, TG_ERR_FORMAT, bin, 0, "no section name table");
    Elf_Scn *scn = NULL, *map_scn = NULL;
    GElf_Shdr map_sh;
    while ((scn = elf_nextscn(L->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *name = elf_strptr(L->elf, shstrndx, sh.sh_name);
        if (name && strcmp(name, "xray_instr_map") == 0) {
            map_scn = scn;
            map_sh = sh;
            break;
        }
    }
    if (!map_scn)
        return tg_err_at(err, TG_ERR_FORMAT, bin, TG_NO_OFFSET,
                         "no xray_instr_map section (not built with -fxray-instrument?)");
    if (map_sh.sh_type == SHT_NOBITS || map_sh.sh_size % 32 != 0)
        return tg_err_at(err, TG_ERR_FORMAT, bin, map_sh.sh_offset,
                         "xray_instr_map size %" PRIu64 " is not a multiple of 32-byte entries",
                         (uint64_t)map_sh.sh_size);
    Elf_Data *d = elf_getdata(map_scn, NULL);
    if (!d || d->d_size != map_sh.sh_size || !d->d_buf)
        return tg_err_at(err, TG_ERR_FORMAT, bin, map_sh.sh_offset,
                         "cannot read the xray_instr_map section");
    size_t n = map_sh.sh_size / 32;
    if (n > XRAY_MAX_SLEDS)
        return tg_err_at(err, TG_ERR_LIMIT, bin, map_sh.sh_offset,
                         "xray_instr_map holds %zu sleds, more than the limit %u", n,
                         XRAY_MAX_SLEDS);
    TG_TRY(collect_relocs(L, eh.e_machine, map_sh.sh_addr, map_sh.sh_addr + map_sh.sh_size));
    TG_TRY(collect_syms(L));

    /* At most one function per sled: ids 1..n. */
    map->funcs = calloc(n + 2, sizeof *map->funcs);
    map->sleds = calloc(n + 1, sizeof *map->sleds);
    if (!map->funcs || !map->sleds)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    const uint8_t *c = d->d_buf;
    int32_t id = 1;
    uint64_t cur = 0;
    size_t max_id = 0;
    for (size_t i = 0; i < n; i++, c += 32) {
        uint64_t pos = map_sh.sh_addr + i * 32;
        uint64_t a = 0, f = 0;
        memcpy(&a, c, 8);
        memcpy(&f, c + 8, 8);
        if (!a) {
            const reloc_ent *r = find_reloc(L->relocs, L->n_relocs, pos);
            if (r)
                a = r->value;
        }
        if (!f) {
            const reloc_ent *r = find_reloc(L->relocs, L->n_relocs, pos + 8);
            if (r)
                f = r->value;
        }
        uint8_t kind = c[16], version = c[18];
        if (kind > 4)
            return tg_err_at(err, TG_ERR_FORMAT, bin, map_sh.sh_offset + i * 32,
                             "sled %zu has unknown kind %u", i, kind);
        if (version >= 2) {
            a += pos;
            f += pos + 8;
        }
        if (cur == 0) {
            cur = f;
            map->funcs[id].addr = f;
            map->funcs[id].location = "";
            max_id = (size_t)id;
        }
        if (f != cur) {
            ++id;
            cur = f;
            map->funcs[id].addr = f;
            map->funcs[id].location = "";
            max_id = (size_t)id;
        }
        map->sleds[map->n_sleds++] = (xray_sled){.address = a,
                                                 .function = f,
                                                 .id = id,
                                                 .kind = kind,
                                                 .version = version,
                                                 .always = (c[17] & 1) != 0};
    }
    map->n_funcs = max_id + 1;
    return name_functions(L, map, arena);
}

int xray_instr_map_load(xray_instr_map *map, const char *bin, tg_arena *arena, tg_error **err)
{
    memset(map, 0, sizeof *map);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return tg_err(err, TG_ERR_UNSUPPORTED, "libelf: %s", elf_errmsg(-1));
    int fd = open(bin, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tg_err_at(err, TG_ERR_IO, bin, TG_NO_OFFSET,
                         "cannot open the instrumentation map binary");
    loader L = {.bin = bin};
    L.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    int rc;
    if (!L.elf)
        rc = tg_err_at(err, TG_ERR_FORMAT, bin, 0, "not an ELF file (%s)", elf_errmsg(-1));
    else
        rc = load_elf(&L, map, arena, err);
    if (rc < 0) {
        xray_instr_map_free(map);
        tg_err_wrap(err, "cannot load the instrumentation map '%s'", bin);
    }
    free(L.relocs);
    free(L.syms);
    if (L.elf)
        elf_end(L.elf);
    close(fd);
    return rc;
}

const char *xray_func_location(const xray_instr_map *map, int64_t id)
{
    if (!map || id <= 0 || (uint64_t)id >= map->n_funcs || !map->funcs[id].name)
        return "(unknown)";
    return map->funcs[id].location;
}

void xray_instr_map_free(xray_instr_map *map)
{
    free(map->funcs);
    free(map->sleds);
    memset(map, 0, sizeof *map);
}
