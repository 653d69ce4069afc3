/* ctf_func.c - LTTng-UST cyg-profile function traces as function entry/exit events.
 *
 * lttng_ust_cyg_profile[_fast]:func_entry/func_exit carry the function address (`addr`) and
 * the thread in the `vtid` context; they become TG_KIND_FUNC_ENTRY/EXIT events with ev->addr
 * and ev->tid set, so the shared call-stack builder, reports and converters work on them.
 * Names: the statedump's bin_info (and dlopen) events say where each executable and library
 * was mapped, build_id and debug_link events how to find its separate debug file.  As
 * babeltrace2's debug-info filter does, the ELF file of a module is looked for by build id
 * (DIR/.build-id/NN/REST.debug, DIR the --debug-info-dir or /usr/lib/debug), then by its
 * debug link (beside the binary, in its .debug folder, under DIR), then at its path (and
 * under DIR by its file name); the ELF symbols (libelf) of what is found are loaded into the
 * trace's symbol table at the module's load address, and function addresses resolve
 * through it.  A function's module is the statedump's path of the module whose file gave
 * its symbol: of the modules found, the one loaded highest at or below the symbol. */
#include "formats/ctf/ctf_stream.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One mapped module of the statedump, with how to find its debug information. */
typedef struct func_module {
    uint64_t baddr;
    bool is_pic;
    char *path;
    char *debug_link; /* file name of the separate debug file, or NULL */
    bool found;       /* its ELF file was found and its symbols loaded */
    uint8_t build_id[64];
    size_t build_id_len;
} func_module;

struct ctf_func_info {
    bool symbols_loaded;
    bool any;
    char *debug_dir; /* --debug-info-dir, or NULL */
    func_module *mods;
    size_t n_mods, cap_mods;
};

int ctf_func_setup(tg_trace *t, ctf_trace *tr, const tg_options *opts)
{
    bool any = false;
    for (size_t i = 0; i < t->n_classes; i++)
        if (t->classes[i]->kind == TG_KIND_FUNC_ENTRY || t->classes[i]->kind == TG_KIND_FUNC_EXIT)
            any = true;
    if (!any)
        return 0;
    tr->func = calloc(1, sizeof *tr->func);
    if (!tr->func)
        return TG_ERR_NOMEM;
    tr->func->any = true;
    const char *dir = opts ? tg_options_get(opts, "debug-info-dir") : NULL;
    if (dir && !(tr->func->debug_dir = strdup(dir)))
        return TG_ERR_NOMEM;
    return 0;
}

/* Loads the ELF symbols of path, mapped at base (PIC objects) into st. */
static void load_elf(tg_trace *t, const char *path, uint64_t base, bool is_pic)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e) {
        close(fd);
        return;
    }
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !sh.sh_entsize)
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
                !sym.st_value)
                continue;
            const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            const char *copy = tg_arena_strdup(&t->arena, name);
            if (copy)
                tg_symtab_add(&t->symbols, (is_pic ? base : 0) + sym.st_value, sym.st_size, copy,
                              'T');
        }
    }
    elf_end(e);
    close(fd);
}

static func_module *module_at(ctf_func_info *fi, uint64_t baddr, bool add)
{
    for (size_t i = 0; i < fi->n_mods; i++)
        if (fi->mods[i].baddr == baddr)
            return &fi->mods[i];
    if (!add || tg_grow(&fi->mods, &fi->cap_mods, fi->n_mods + 1, sizeof *fi->mods) < 0)
        return NULL;
    func_module *m = &fi->mods[fi->n_mods++];
    memset(m, 0, sizeof *m);
    m->baddr = baddr;
    m->is_pic = true;
    return m;
}

static char *str_value(const tg_value *v)
{
    if (v->type != TG_VAL_STRING)
        return NULL;
    char *s = malloc(v->v.str.len + 1);
    if (s) {
        memcpy(s, v->v.str.ptr, v->v.str.len);
        s[v->v.str.len] = 0;
    }
    return s;
}

/* bin_info / dlopen (path, load address, PIC), build_id and debug_link statedump events. */
static void module_event(ctf_trace *tr, const tg_event *ev)
{
    const char *name = ev->cls->name;
    bool bin =
        !strcmp(name, "lttng_ust_statedump:bin_info") || !strcmp(name, "lttng_ust_dl:dlopen");
    bool bid =
        !strcmp(name, "lttng_ust_statedump:build_id") || !strcmp(name, "lttng_ust_dl:build_id");
    bool link =
        !strcmp(name, "lttng_ust_statedump:debug_link") || !strcmp(name, "lttng_ust_dl:debug_link");
    if (!bin && !bid && !link)
        return;
    uint64_t baddr = 0;
    if (!ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "baddr", &baddr))
        return;
    func_module *m = module_at(tr->func, baddr, true);
    if (!m)
        return;
    size_t n = ctf_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (ctf_field_get(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !v.name)
            continue;
        if (bin && !strcmp(v.name, "is_pic")) {
            m->is_pic = v.v.u != 0;
        } else if (bin && !strcmp(v.name, "path") && !m->path) {
            m->path = str_value(&v);
        } else if (link && !strcmp(v.name, "filename") && !m->debug_link) {
            m->debug_link = str_value(&v);
        } else if (bid && !strcmp(v.name, "build_id") &&
                   (v.type == TG_VAL_ARRAY || v.type == TG_VAL_SEQUENCE)) {
            size_t k = 0;
            for (; k < v.count && k < sizeof m->build_id; k++) {
                tg_value e;
                if (tg_value_child(&v, k, &e) < 0)
                    break;
                m->build_id[k] = (uint8_t)e.v.u;
            }
            m->build_id_len = k;
        }
    }
}

static bool is_regular(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The ELF file to read a module's symbols from (malloc'ed), or NULL. */
static char *find_module_file(const ctf_func_info *fi, const func_module *m)
{
    const char *dirs[2] = {fi->debug_dir, "/usr/lib/debug"};
    char p[4096];
    for (int d = 0; d < 2 && m->build_id_len >= 2; d++) {
        if (!dirs[d])
            continue;
        int o = snprintf(p, sizeof p, "%s/.build-id/%02x/", dirs[d], m->build_id[0]);
        for (size_t k = 1; k < m->build_id_len && o > 0 && (size_t)o < sizeof p - 8; k++)
            o += snprintf(p + o, sizeof p - (size_t)o, "%02x", m->build_id[k]);
        if (o > 0 && (size_t)o < sizeof p - 8) {
            memcpy(p + o, ".debug", 7);
            if (is_regular(p))
                return strdup(p);
        }
    }
    const char *slash = m->path ? strrchr(m->path, '/') : NULL;
    int dl = slash ? (int)(slash - m->path) : 0;
    if (m->debug_link && m->path) {
        const char *fmt[4] = {"%.*s/%s", "%.*s/.debug/%s", NULL, NULL};
        for (int k = 0; k < 2; k++)
            if (snprintf(p, sizeof p, fmt[k], dl, m->path, m->debug_link) < (int)sizeof p &&
                is_regular(p))
                return strdup(p);
        for (int d = 0; d < 2; d++)
            if (dirs[d] &&
                snprintf(p, sizeof p, "%s%.*s/%s", dirs[d], dl, m->path, m->debug_link) <
                    (int)sizeof p &&
                is_regular(p))
                return strdup(p);
    }
    if (m->path && is_regular(m->path))
        return strdup(m->path);
    if (m->path && fi->debug_dir &&
        snprintf(p, sizeof p, "%s/%s", fi->debug_dir, slash ? slash + 1 : m->path) <
            (int)sizeof p &&
        is_regular(p))
        return strdup(p);
    return NULL;
}

/* Reads the statedump's bin_info events of the trace's streams (one pass over them). */
static void load_symbols(tg_trace *t)
{
    for (size_t si = 0; si < t->n_streams; si++) {
        tg_stream *s = t->streams[si];
        ctf_dstream *probe = s->priv;
        /* a private reader over the same files, so the stream itself is not disturbed */
        ctf_dstream *ds = calloc(1, sizeof *ds);
        if (!ds)
            return;
        ds->tr = probe->tr;
        ds->sc = probe->sc;
        ds->n_files = probe->n_files;
        ds->files = calloc(ds->n_files, sizeof *ds->files);
        ds->d.regs = calloc(probe->tr->meta.n_regs ? probe->tr->meta.n_regs : 1, sizeof(uint64_t));
        if (!ds->files || !ds->d.regs) {
            ctf_dstream_free(ds);
            return;
        }
        for (size_t i = 0; i < ds->n_files; i++) {
            ds->files[i] = probe->files[i];
            ds->files[i].path = strdup(probe->files[i].path);
        }
        tg_stream tmp = *s;
        tmp.priv = ds;
        tg_event ev;
        uint64_t limit = 0;
        for (;;) {
            memset(&ev, 0, sizeof ev);
            ev.stream = &tmp;
            tg_error *err = NULL;
            int rc = ctf_stream_ops.next(&tmp, &ev, &err);
            tg_error_free(err);
            if (rc <= 0 || ++limit > 100000)
                break;
            if (!ev.cls || !ev.cls->name)
                continue;
            module_event(t->priv, &ev);
        }
        ctf_dstream_free(ds);
    }
    ctf_func_info *fi = ((ctf_trace *)t->priv)->func;
    for (size_t i = 0; i < fi->n_mods; i++) {
        func_module *m = &fi->mods[i];
        char *file = find_module_file(fi, m);
        if (file)
            load_elf(t, file, m->baddr, m->is_pic);
        m->found = file != NULL;
        free(file);
    }
    tg_symtab_sort(&t->symbols);
}

void ctf_func_event(ctf_dstream *ds, const ctf_event_decl *e, tg_event *ev)
{
    (void)e;
    uint64_t v;
    /* the payload (addr, call_site) is not the function's arguments */
    ev->size = 0;
    ev->addr = 0; /* an exit of cyg_profile_fast has none (its class says exit_ends_top) */
    if (ctf_field_uint(ev, TG_SCOPE_PAYLOAD, "addr", &v))
        ev->addr = v;
    /* the thread (vtid, vpid) was set from the contexts as they were skipped */
    (void)ds;
}

/* The symbol of ev's function address (the modules' symbols loaded at the first ask). */
static const tg_symbol *func_symbol(const tg_event *ev)
{
    tg_trace *t = ev->stream ? ev->stream->trace : NULL;
    if (!t)
        return NULL;
    ctf_trace *tr = t->priv;
    if (!tr || !tr->func)
        return NULL;
    if (!tr->func->symbols_loaded) {
        tr->func->symbols_loaded = true;
        load_symbols(t);
    }
    return tg_symtab_lookup(&t->symbols, ev->addr);
}

const char *ctf_func_name(const tg_event *ev)
{
    const tg_symbol *sym = func_symbol(ev);
    return sym ? sym->name : NULL;
}

const char *ctf_func_module(const tg_event *ev)
{
    const tg_symbol *sym = func_symbol(ev);
    if (!sym)
        return NULL;
    const ctf_func_info *fi = ((ctf_trace *)ev->stream->trace->priv)->func;
    const func_module *best = NULL;
    for (size_t i = 0; i < fi->n_mods; i++) {
        const func_module *m = &fi->mods[i];
        if (m->found && m->baddr <= sym->addr && (!best || m->baddr > best->baddr))
            best = m;
    }
    return best ? best->path : NULL;
}

void ctf_func_free(ctf_trace *tr)
{
    if (tr->func) {
        for (size_t i = 0; i < tr->func->n_mods; i++) {
            free(tr->func->mods[i].path);
            free(tr->func->mods[i].debug_link);
        }
        free(tr->func->mods);
        free(tr->func->debug_dir);
    }
    free(tr->func);
    tr->func = NULL;
}
