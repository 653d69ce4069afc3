/* ctf_func.c - LTTng-UST cyg-profile function traces as function entry/exit events.
 *
 * lttng_ust_cyg_profile[_fast]:func_entry/func_exit carry the function address (`addr`) and
 * the thread in the `vtid` context; they become TG_KIND_FUNC_ENTRY/EXIT events with ev->addr
 * and ev->tid set, so the shared call-stack builder, reports and converters work on them.
 * Names: the statedump's bin_info events say where each executable and library was mapped;
 * when those files exist, their ELF symbols (libelf) are loaded into the trace's symbol
 * table at their load address, and function addresses resolve through it. */
#include "formats/ctf/ctf_stream.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ctf_func_info {
    bool symbols_loaded;
    bool any;
};

int ctf_func_setup(tg_trace *t, ctf_trace *tr)
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
    return 0;
}

static bool get_uint(const tg_event *ev, tg_scope scope, const char *name, uint64_t *out)
{
    size_t n = ctf_field_count(ev, scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (ctf_field_get(ev, scope, i, &v) < 0)
            return false;
        if (v.name && !strcmp(v.name, name) && (v.type == TG_VAL_UINT || v.type == TG_VAL_SINT)) {
            *out = v.v.u;
            return true;
        }
    }
    return false;
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
            if (strcmp(ev.cls->name, "lttng_ust_statedump:bin_info") &&
                strcmp(ev.cls->name, "lttng_ust_dl:dlopen"))
                continue;
            uint64_t baddr = 0, is_pic = 1;
            tg_value v;
            const char *path = NULL;
            size_t n = ctf_field_count(&ev, TG_SCOPE_PAYLOAD);
            char buf[4096];
            for (size_t i = 0; i < n; i++) {
                if (ctf_field_get(&ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !v.name)
                    continue;
                if (!strcmp(v.name, "baddr"))
                    baddr = v.v.u;
                else if (!strcmp(v.name, "is_pic"))
                    is_pic = v.v.u;
                else if (!strcmp(v.name, "path") && v.type == TG_VAL_STRING &&
                         v.v.str.len < sizeof buf) {
                    memcpy(buf, v.v.str.ptr, v.v.str.len);
                    buf[v.v.str.len] = 0;
                    path = buf;
                }
            }
            if (path)
                load_elf(t, path, baddr, is_pic != 0);
        }
        ctf_dstream_free(ds);
    }
    tg_symtab_sort(&t->symbols);
}

void ctf_func_event(ctf_dstream *ds, const ctf_event_decl *e, tg_event *ev)
{
    (void)e;
    uint64_t v;
    /* the payload (addr, call_site) is not the function's arguments */
    ev->size = 0;
    if (get_uint(ev, TG_SCOPE_PAYLOAD, "addr", &v))
        ev->addr = v;
    if (get_uint(ev, TG_SCOPE_STREAM_CONTEXT, "vtid", &v) ||
        get_uint(ev, TG_SCOPE_EVENT_CONTEXT, "vtid", &v))
        ev->tid = (int32_t)v;
    if (get_uint(ev, TG_SCOPE_STREAM_CONTEXT, "vpid", &v) ||
        get_uint(ev, TG_SCOPE_EVENT_CONTEXT, "vpid", &v))
        ev->pid = (int32_t)v;
    (void)ds;
}

const char *ctf_func_name(const tg_event *ev)
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
    const tg_symbol *sym = tg_symtab_lookup(&t->symbols, ev->addr);
    return sym ? sym->name : NULL;
}

void ctf_func_free(ctf_trace *tr)
{
    free(tr->func);
    tr->func = NULL;
}
