/* ctf_bininfo.c - what babeltrace2 2.0's debug-info filter knows of one mapped module.
 *
 * The statedump says a module was mapped from a path at an address, with a build id and a
 * debug link; from those the filter finds the module's ELF file (the path, under the target
 * prefix), checks the build id against the file's GNU build-id note (a module whose build id
 * does not match, or whose file is missing, resolves to nothing), and finds its DWARF: in
 * the ELF file itself, else DIR/.build-id/NN/REST.debug (DIR: --debug-info-dir or
 * /usr/lib/debug), else by debug link (beside the file, in its .debug folder, under DIR),
 * where the file's CRC-32 must match.  With DWARF (libdw), a function is the top-level
 * subprogram of a compile unit whose ranges hold the address, printed "name+0xoff" from its
 * low pc; its source line is the call site of an inlined subroutine found under that
 * subprogram, else the line-table row that starts exactly at the address.  Without DWARF,
 * the function is the nearest preceding STT_FUNC symbol of .symtab (libelf) and there is no
 * source line.  The walk copies babeltrace2's, including what it skips (the first child of
 * a nested scope) and where it gives up (a subprogram without children yields no source
 * line), because the point is to print what babeltrace2 prints.  Files are opened on first
 * use and kept open while the module is known. */
#include "formats/ctf/ctf_bininfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define DEFAULT_DEBUG_DIR "/usr/lib/debug"

struct ctf_bin {
    char *elf_path;
    char *debug_dir;
    uint64_t low, high;
    bool is_pic;
    uint8_t *build_id;
    size_t build_id_len;
    bool build_id_matches;
    char *link;
    uint32_t link_crc;
    int elf_fd;
    Elf *elf;
    int dwarf_fd;
    Dwarf *dwarf;
    bool elf_only;
};

static char *dup_str(const char *s) { return s ? strdup(s) : NULL; }

/* "%#" PRIx64 as glib prints it: "0x1f", but "0" for zero. */
static void put_hex(char *out, size_t n, const char *prefix, uint64_t v)
{
    if (v)
        snprintf(out, n, "%s0x%" PRIx64, prefix, v);
    else
        snprintf(out, n, "%s0", prefix);
}

ctf_bin *ctf_bin_new(const char *path, uint64_t low, uint64_t memsz, bool is_pic,
                     const char *debug_dir, const char *target_prefix)
{
    ctf_bin *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->elf_fd = b->dwarf_fd = -1;
    if (target_prefix && *target_prefix) {
        size_t pl = strlen(target_prefix);
        while (pl > 1 && target_prefix[pl - 1] == '/')
            pl--;
        while (*path == '/')
            path++;
        size_t n = pl + 1 + strlen(path) + 1;
        if ((b->elf_path = malloc(n)))
            snprintf(b->elf_path, n, "%.*s/%s", (int)pl, target_prefix, path);
    } else {
        b->elf_path = strdup(path);
    }
    b->debug_dir = dup_str(debug_dir);
    if (!b->elf_path || (debug_dir && !b->debug_dir)) {
        ctf_bin_free(b);
        return NULL;
    }
    b->low = low;
    b->high = low + memsz;
    b->is_pic = is_pic;
    elf_version(EV_CURRENT);
    return b;
}

void ctf_bin_free(ctf_bin *b)
{
    if (!b)
        return;
    if (b->dwarf)
        dwarf_end(b->dwarf);
    if (b->elf)
        elf_end(b->elf);
    if (b->elf_fd >= 0)
        close(b->elf_fd);
    if (b->dwarf_fd >= 0)
        close(b->dwarf_fd);
    free(b->elf_path);
    free(b->debug_dir);
    free(b->build_id);
    free(b->link);
    free(b);
}

bool ctf_bin_has(const ctf_bin *b, uint64_t addr) { return addr >= b->low && addr < b->high; }

const char *ctf_bin_path(const ctf_bin *b) { return b->elf_path; }

static bool open_elf(ctf_bin *b)
{
    if (b->elf)
        return true;
    int fd = open(b->elf_path, O_RDONLY);
    if (fd < 0)
        return false;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        if (e)
            elf_end(e);
        close(fd);
        return false;
    }
    b->elf_fd = fd;
    b->elf = e;
    return true;
}

/* Does the file's build-id note hold the recorded build id?  As babeltrace2: every note
 * section whose first note is GNU's build id is compared (on the recorded length); the
 * first that differs decides no. */
static bool build_id_matches(ctf_bin *b)
{
    if (!b->build_id || !open_elf(b))
        return false;
    bool match = false;
    for (Elf_Scn *scn = elf_nextscn(b->elf, NULL); scn; scn = elf_nextscn(b->elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return false;
        if (sh.sh_type != SHT_NOTE)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d)
            return false;
        GElf_Nhdr nh;
        size_t name_off, desc_off;
        if (!gelf_getnote(d, 0, &nh, &name_off, &desc_off))
            continue;
        if (nh.n_namesz != 4 || nh.n_type != NT_GNU_BUILD_ID ||
            memcmp((const char *)d->d_buf + name_off, "GNU", 4) != 0)
            continue;
        if (desc_off + b->build_id_len > d->d_size)
            return false;
        match = memcmp(b->build_id, (const char *)d->d_buf + desc_off, b->build_id_len) == 0;
        if (!match)
            break;
    }
    return match;
}

void ctf_bin_set_build_id(ctf_bin *b, const uint8_t *id, size_t len)
{
    free(b->build_id);
    b->build_id = malloc(len ? len : 1);
    if (!b->build_id)
        return;
    memcpy(b->build_id, id, len);
    b->build_id_len = len;
    b->build_id_matches = build_id_matches(b);
    if (b->build_id_matches)
        b->elf_only = false;
}

void ctf_bin_set_debug_link(ctf_bin *b, const char *filename, uint32_t crc)
{
    char *s = dup_str(filename);
    if (!s)
        return;
    free(b->link);
    b->link = s;
    b->link_crc = crc;
    b->elf_only = false;
}

/* DWARF from path when it has at least one compile unit. */
static bool dwarf_from(ctf_bin *b, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    Dwarf_Off next;
    size_t hsize;
    if (!dw || dwarf_nextcu(dw, 0, &next, &hsize, NULL, NULL, NULL) != 0) {
        if (dw)
            dwarf_end(dw);
        close(fd);
        return false;
    }
    b->dwarf = dw;
    b->dwarf_fd = fd;
    return true;
}

static bool crc_matches(const char *path, uint32_t want)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    uLong crc = crc32(0L, Z_NULL, 0);
    unsigned char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        crc = crc32(crc, buf, (uInt)n);
    close(fd);
    return n == 0 && (uint32_t)crc == want;
}

static bool set_dwarf(ctf_bin *b)
{
    if (dwarf_from(b, b->elf_path))
        return true;
    const char *dir = b->debug_dir ? b->debug_dir : DEFAULT_DEBUG_DIR;
    char p[4096];
    if (b->build_id && b->build_id_len) {
        int o = snprintf(p, sizeof p, "%s/.build-id/%02x/", dir, b->build_id[0]);
        for (size_t k = 1; k < b->build_id_len && o > 0 && (size_t)o < sizeof p; k++)
            o += snprintf(p + o, sizeof p - (size_t)o, "%02x", b->build_id[k]);
        if (o > 0 && (size_t)o + 7 < sizeof p) {
            memcpy(p + o, ".debug", 7);
            if (dwarf_from(b, p))
                return true;
        }
    }
    if (!b->link)
        return false;
    const char *slash = strrchr(b->elf_path, '/');
    char bin_dir[4096];
    if (!slash)
        snprintf(bin_dir, sizeof bin_dir, "./");
    else if (slash == b->elf_path)
        snprintf(bin_dir, sizeof bin_dir, "/");
    else
        snprintf(bin_dir, sizeof bin_dir, "%.*s/", (int)(slash - b->elf_path), b->elf_path);
    for (int k = 0; k < 3; k++) {
        int n = k == 0   ? snprintf(p, sizeof p, "%s%s", bin_dir, b->link)
                : k == 1 ? snprintf(p, sizeof p, "%s.debug/%s", bin_dir, b->link)
                         : snprintf(p, sizeof p, "%s%s%s", dir, bin_dir, b->link);
        if (n > 0 && (size_t)n < sizeof p && crc_matches(p, b->link_crc))
            return dwarf_from(b, p);
    }
    return false;
}

/* ---- DWARF walks (babeltrace2's: top-level DIEs of each compile unit) ---------------------- */

static char *name_plus(const char *name, uint64_t off)
{
    char hex[24];
    put_hex(hex, sizeof hex, "+", off);
    size_t n = strlen(name) + strlen(hex) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", name, hex);
    return s;
}

/* The subprogram of the compile unit at cu_die holding addr: 1 found (*die set), 0 not, -1
 * an error that ends the lookup. */
static int cu_subprogram(Dwarf_Die *cu_die, uint64_t addr, Dwarf_Die *die)
{
    if (dwarf_child(cu_die, die) != 0)
        return 0;
    for (;;) {
        int tag = dwarf_tag(die);
        if (tag == DW_TAG_invalid)
            return -1;
        if (tag == DW_TAG_subprogram) {
            int r = dwarf_haspc(die, addr);
            if (r < 0)
                return -1;
            if (r == 1)
                return 1;
        }
        Dwarf_Die next;
        if (dwarf_siblingof(die, &next) != 0)
            return 0;
        *die = next;
    }
}

static char *dwarf_function(Dwarf *dw, uint64_t addr)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu_die, die;
        if (!dwarf_offdie(dw, off + hsize, &cu_die))
            return NULL;
        int r = cu_subprogram(&cu_die, addr, &die);
        if (r < 0)
            return NULL;
        if (r == 1) {
            const char *name = dwarf_diename(&die);
            Dwarf_Addr low;
            if (!name || dwarf_lowpc(&die, &low) != 0)
                return NULL;
            return name_plus(name, addr - low);
        }
        off = next;
    }
    return NULL;
}

static char *elf_function(ctf_bin *b, uint64_t addr)
{
    if (!open_elf(b))
        return NULL;
    for (Elf_Scn *scn = elf_nextscn(b->elf, NULL); scn; scn = elf_nextscn(b->elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return NULL;
        if (sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d)
            return NULL;
        size_t n = sh.sh_size / sh.sh_entsize;
        GElf_Sym best = {0};
        bool found = false;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s))
                return NULL;
            if (GELF_ST_TYPE(s.st_info) != STT_FUNC)
                continue;
            if (s.st_value <= addr && (!found || s.st_value > best.st_value)) {
                best = s;
                found = true;
            }
        }
        if (found) {
            const char *name = elf_strptr(b->elf, sh.sh_link, best.st_name);
            return name ? name_plus(name, addr - best.st_value) : NULL;
        }
    }
    return NULL;
}

/* The call site of an inlined subroutine under subprogram sp (babeltrace2's walk: into the
 * children of whatever holds addr, the first child of each nested scope skipped): 1 found
 * (*site set), 0 not, -1 error. */
static int inlined_site(Dwarf_Die *sp, uint64_t addr, Dwarf_Die *site)
{
    if (dwarf_child(sp, site) != 0)
        return -1;
    bool contains = false;
    do {
        int r = dwarf_haspc(site, addr);
        if (r < 0)
            return -1;
        contains = r == 1;
        if (contains) {
            int tag = dwarf_tag(site);
            if (tag == DW_TAG_invalid)
                return -1;
            if (tag == DW_TAG_inlined_subroutine)
                return 1;
            if (dwarf_haschildren(site) > 0) {
                Dwarf_Die kid;
                if (dwarf_child(site, &kid) != 0)
                    return -1;
                *site = kid;
            }
        }
        Dwarf_Die next;
        if (dwarf_siblingof(site, &next) != 0)
            break;
        *site = next;
    } while (true);
    return contains ? 1 : 0;
}

static char *call_file(Dwarf_Die *cu_die, Dwarf_Die *die)
{
    Dwarf_Attribute at;
    Dwarf_Sword file_no;
    Dwarf_Files *files;
    if (!dwarf_attr(die, DW_AT_call_file, &at) || dwarf_formsdata(&at, &file_no) != 0 ||
        dwarf_getsrcfiles(cu_die, &files, NULL) != 0)
        return NULL;
    const char *f = dwarf_filesrc(files, (size_t)file_no, NULL, NULL);
    return dup_str(f);
}

/* Source location in one compile unit: 1 found, 0 not here, -1 error (the lookup ends). */
static int cu_source(Dwarf_Die *cu_die, uint64_t addr, char **file, uint64_t *line)
{
    Dwarf_Die sp, site;
    int r = cu_subprogram(cu_die, addr, &sp);
    if (r < 0)
        return -1;
    if (r == 1) {
        r = inlined_site(&sp, addr, &site);
        if (r < 0)
            return -1;
        if (r == 1) {
            Dwarf_Attribute at;
            Dwarf_Word l;
            char *f = call_file(cu_die, &site);
            if (!f)
                return -1;
            if (!dwarf_attr(&site, DW_AT_call_line, &at) || dwarf_formudata(&at, &l) != 0) {
                free(f);
                return -1;
            }
            *file = f;
            *line = l;
            return 1;
        }
    }
    Dwarf_Line *ln = dwarf_getsrc_die(cu_die, addr);
    if (!ln)
        return 0;
    Dwarf_Addr la;
    if (dwarf_lineaddr(ln, &la) != 0)
        return -1;
    const char *f = dwarf_linesrc(ln, NULL, NULL);
    if (!f)
        return -1;
    if (la != addr)
        return 0;
    int l;
    if (dwarf_lineno(ln, &l) != 0)
        return -1;
    if (!(*file = strdup(f)))
        return -1;
    *line = (uint64_t)(int64_t)l;
    return 1;
}

static void dwarf_source(Dwarf *dw, uint64_t addr, char **file, uint64_t *line)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu_die;
        if (!dwarf_offdie(dw, off + hsize, &cu_die))
            return;
        if (cu_source(&cu_die, addr, file, line) != 0)
            return;
        off = next;
    }
}

bool ctf_bin_lookup(ctf_bin *b, uint64_t addr, ctf_bin_source *out)
{
    memset(out, 0, sizeof *out);
    if ((b->build_id && !b->build_id_matches) || !ctf_bin_has(b, addr))
        return false;
    if (!b->dwarf && !b->elf_only && !set_dwarf(b))
        b->elf_only = true;
    uint64_t rel = b->is_pic ? addr - b->low : addr;
    out->func = b->elf_only ? elf_function(b, rel) : dwarf_function(b->dwarf, rel);
    if (!b->elf_only || !out->func) {
        if (!b->dwarf && !b->elf_only && !set_dwarf(b))
            b->elf_only = true;
        if (!b->elf_only)
            dwarf_source(b->dwarf, rel, &out->src_path, &out->line);
    }
    char loc[32];
    put_hex(loc, sizeof loc, b->is_pic ? "+" : "@", rel);
    if (!(out->bin_loc = strdup(loc))) {
        free(out->func);
        free(out->src_path);
        return false;
    }
    return true;
}
