/* perf_symbols.c - ELF function symbols of the shared objects a perf.data file maps, read
 * with libelf as perf's symbol-elf.c reads them (see perf_symbols.h). */
#include "common/perf/perf_symbols.h"
#include "common/elf/elf_funcs.h"
#include "common/perf/perf_kallsyms.h"
#include "common/perf/perf_session.h"
#include "core/consumer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sym_cmp(const void *a, const void *b)
{
    const ps_sym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Where the callback appends to: the table and its buffers' capacities. */
struct ps_fill {
    ps_dso_syms *d;
    size_t cap, names_len, names_cap;
};

static int add_func(void *ctx, const tg_elf_func *f)
{
    struct ps_fill *w = ctx;
    ps_dso_syms *d = w->d;
    size_t len = strlen(f->name) + 1;
    TG_TRY(tg_grow(&d->v, &w->cap, d->n + 1, sizeof *d->v));
    TG_TRY(tg_grow(&d->names, &w->names_cap, w->names_len + len, 1));
    memcpy(d->names + w->names_len, f->name, len);
    /* names are offsets until the table is complete (the buffer may move) */
    d->v[d->n++] = (ps_sym){f->addr, f->addr + f->size, (const char *)(uintptr_t)w->names_len};
    w->names_len += len;
    return 0;
}

static int load(ps_dso_syms *d, const char *path)
{
    struct ps_fill w = {d, 0, 0, 0};
    int rc = tg_elf_funcs_read(path, 0, add_func, &w);
    for (size_t i = 0; i < d->n; i++)
        d->v[i].name = d->names + (uintptr_t)d->v[i].name;
    if (d->n) /* a file without functions has no array: qsort takes none */
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

void perf_symbols_configure(perf_symbols *ps, const tg_options *opts)
{
    ps->symfs = opts ? tg_options_get(opts, "symfs") : NULL;
    ps->kallsyms = opts ? tg_options_get(opts, "kallsyms") : NULL;
    ps->buildid_dir = opts ? tg_options_get(opts, "buildid-dir") : NULL;
}

/* dso__find_kallsyms after dso__load_kernel_sym's checks: the file perf reads the kernel's
 * symbols from, into path; false when it reads none. */
static bool kallsyms_path(const perf_symbols *ps, const perf_session *s, char *path, size_t size)
{
    if (ps->kallsyms) {
        snprintf(path, size, "%s", ps->kallsyms);
        return true;
    }
    if (ps->symfs && ps->symfs[0] && strcmp(ps->symfs, "/") != 0)
        return false; /* perf reads no local file when given a symfs */
    uint8_t running[20];
    size_t n = s->kernel_build_id_size;
    if (!n || (perf_running_kernel_build_id(running) == n &&
               memcmp(running, s->kernel_build_id, n) == 0)) {
        snprintf(path, size, "/proc/kallsyms");
        return true;
    }
    char hex[41];
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", s->kernel_build_id[i]);
    const char *dir = ps->buildid_dir ? ps->buildid_dir : getenv("PERF_BUILDID_DIR");
    const char *home = getenv("HOME");
    if (dir)
        snprintf(path, size, "%s/[kernel.kallsyms]/%s/kallsyms", dir, hex);
    else
        snprintf(path, size, "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home ? home : "", hex);
    return access(path, R_OK) == 0;
}

const perf_kallsyms *perf_symbols_kernel(perf_symbols *ps, const perf_session *s)
{
    if (ps->kernel_state == 0) {
        char path[4096];
        ps->kernel_state = -1;
        if (kallsyms_path(ps, s, path, sizeof path)) {
            ps->kernel = calloc(1, sizeof *ps->kernel);
            int rc = ps->kernel ? perf_kallsyms_load(ps->kernel, path,
                                                     s->kernel_reloc[0] ? s->kernel_reloc : NULL,
                                                     s->kernel_reloc_addr)
                                : TG_ERR_NOMEM;
            if (rc == 1)
                ps->kernel_state = 1;
            else if (rc < 0)
                ps->nomem = true;
        }
    }
    return ps->kernel_state == 1 ? ps->kernel : NULL;
}

void perf_symbols_free(perf_symbols *ps)
{
    if (ps->kernel)
        perf_kallsyms_free(ps->kernel);
    free(ps->kernel);
    for (size_t i = 0; i < ps->n_dsos; i++) {
        free(ps->dsos[i].v);
        free(ps->dsos[i].names);
    }
    free(ps->dsos);
    memset(ps, 0, sizeof *ps);
}
