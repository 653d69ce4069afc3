/* fuzz_tracedat.c - see fuzz_tracedat.h. */
#include "fuzz_tracedat.h"
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cut {
    const tg_fuzz_dat *d;
    size_t pos;
    bool ok;
} cut;

static uint64_t get(const cut *c, size_t at, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        int b = c->d->big_endian ? i : n - 1 - i;
        v = v << 8 | c->d->file[at + (size_t)b];
    }
    return v;
}

/* The next n-byte number; 0 (and !ok) past the end. */
static uint64_t num(cut *c, int n)
{
    if (!c->ok || c->d->size - c->pos < (size_t)n) {
        c->ok = false;
        return 0;
    }
    uint64_t v = get(c, c->pos, n);
    c->pos += (size_t)n;
    return v;
}

static void skip(cut *c, uint64_t n)
{
    if (!c->ok || c->d->size - c->pos < n)
        c->ok = false;
    else
        c->pos += (size_t)n;
}

static void expect(cut *c, const char *tag, size_t n)
{
    if (!c->ok || c->d->size - c->pos < n || memcmp(c->d->file + c->pos, tag, n) != 0)
        c->ok = false;
    else
        c->pos += n;
}

static void cstr(cut *c)
{
    const void *z = c->ok ? memchr(c->d->file + c->pos, 0, c->d->size - c->pos) : NULL;
    if (!z)
        c->ok = false;
    else
        c->pos = (size_t)((const uint8_t *)z - c->d->file) + 1;
}

static void format(cut *c, tg_fuzz_dat *d)
{
    uint64_t n = num(c, 8);
    if (c->ok && d->n_fmts < TG_FUZZ_DAT_MAX_FORMATS) {
        d->fmt_at[d->n_fmts] = c->pos;
        d->fmt_len[d->n_fmts++] = (size_t)n;
    }
    skip(c, n);
}

int tg_fuzz_dat_parse(tg_fuzz_dat *d, const uint8_t *file, size_t size)
{
    memset(d, 0, sizeof *d);
    d->file = file;
    d->size = size;
    if (size < 18 || memcmp(file, "\x17\x08\x44tracing6", 11) != 0)
        return -1;
    d->big_endian = file[12] == 1;
    cut c = {d, 14, true};
    d->page_size = (uint32_t)num(&c, 4);
    expect(&c, "header_page", 12);
    skip(&c, num(&c, 8));
    expect(&c, "header_event", 13);
    skip(&c, num(&c, 8));
    d->header_end = c.pos;
    for (uint64_t i = 0, n = num(&c, 4); c.ok && i < n; i++)
        format(&c, d);
    d->ftrace_end = c.pos;
    for (uint64_t s = 0, ns = num(&c, 4); c.ok && s < ns; s++) {
        cstr(&c);
        for (uint64_t i = 0, n = num(&c, 4); c.ok && i < n; i++)
            format(&c, d);
    }
    d->events_end = c.pos;
    skip(&c, num(&c, 4));
    d->kallsyms_end = c.pos;
    skip(&c, num(&c, 4));
    d->printk_end = c.pos;
    skip(&c, num(&c, 8));
    d->cmdlines_end = c.pos;
    d->cpus = (uint32_t)num(&c, 4);
    while (c.ok && c.d->size - c.pos >= 10 && memcmp(file + c.pos, "options  ", 10) == 0) {
        c.pos += 10;
        for (uint64_t id = num(&c, 2); c.ok && id != 0; id = num(&c, 2))
            skip(&c, num(&c, 4));
    }
    d->options_end = c.pos;
    expect(&c, "flyrecord", 10);
    if (!c.ok || d->cpus == 0 || d->cpus > 64 || !d->page_size ||
        size - c.pos < (size_t)d->cpus * 16)
        return -1;
    d->data_start = size;
    for (uint32_t i = 0; i < d->cpus; i++) {
        uint64_t off = get(&c, c.pos + 16 * i, 8);
        if (off < d->data_start && off >= c.pos + 16 * d->cpus)
            d->data_start = (size_t)off;
    }
    return 0;
}

void tg_fuzz_dat_put64(const tg_fuzz_dat *d, uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[d->big_endian ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

int tg_fuzz_dat_write_edits(const tg_fuzz_dat *d, const tg_fuzz_dat_edit *e, size_t n_edits,
                            const char *path)
{
    size_t head = d->options_end, prev = 0; /* up to the flyrecord tag */
    for (size_t i = 0; i < n_edits; i++) {
        if (e[i].from < prev || e[i].from > e[i].to || e[i].to > d->options_end)
            return -1;
        head = head - (e[i].to - e[i].from) + e[i].n;
        prev = e[i].to;
    }
    size_t table = head + 10, after = table + 16 * (size_t)d->cpus;
    size_t data = (after + d->page_size - 1) / d->page_size * d->page_size;
    size_t total = data + (d->size - d->data_start);
    uint8_t *out = calloc(1, total ? total : 1);
    if (!out)
        return -1;
    size_t at = 0, from = 0;
    for (size_t i = 0; i < n_edits; i++) {
        memcpy(out + at, d->file + from, e[i].from - from);
        at += e[i].from - from;
        if (e[i].n)
            memcpy(out + at, e[i].p, e[i].n);
        at += e[i].n;
        from = e[i].to;
    }
    memcpy(out + at, d->file + from, d->options_end - from);
    memcpy(out + head, "flyrecord", 10);
    size_t old = d->options_end + 10;
    cut c = {d, 0, true};
    for (uint32_t i = 0; i < d->cpus; i++) {
        uint64_t off = get(&c, old + 16 * i, 8), sz = get(&c, old + 16 * i + 8, 8);
        if (off >= d->data_start && off <= d->size)
            off = off - d->data_start + data;
        tg_fuzz_dat_put64(d, out + table + 16 * i, off);
        tg_fuzz_dat_put64(d, out + table + 16 * i + 8, sz);
    }
    memcpy(out + data, d->file + d->data_start, d->size - d->data_start);
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(out, 1, total, f) == total ? 0 : -1;
    if (f)
        fclose(f);
    free(out);
    return rc;
}

int tg_fuzz_dat_write(const tg_fuzz_dat *d, size_t from, size_t to, const void *p, size_t n,
                      const char *path)
{
    tg_fuzz_dat_edit e = {from, to, p, n};
    return tg_fuzz_dat_write_edits(d, &e, 1, path);
}

tg_fuzz_dat_edit tg_fuzz_dat_no_symbols(const tg_fuzz_dat *d)
{
    static const uint8_t zeros[16]; /* u32 kallsyms size, u32 printk size, u64 cmdlines size */
    tg_fuzz_dat_edit e = {d->events_end, d->cmdlines_end, zeros, sizeof zeros};
    return e;
}

int tg_fuzz_dat_format_by_id(const tg_fuzz_dat *d, long id)
{
    for (size_t i = 0; i < d->n_fmts; i++) {
        const char *t = (const char *)d->file + d->fmt_at[i];
        size_t n = d->fmt_len[i];
        for (size_t j = 0; j + 4 <= n; j++) {
            if (memcmp(t + j, "ID: ", 4) == 0) {
                if (atol(t + j + 4) == id) /* the text continues with a newline */
                    return (int)i;
                break;
            }
        }
    }
    return -1;
}

void tg_fuzz_dat_load(const char *name, tg_fuzz_dat *d, uint8_t **file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ftrace/%s", TG_FUZZ_DATA, name);
    size_t n = 0;
    *file = tg_fuzz_slurp(path, &n);
    if (!*file || tg_fuzz_dat_parse(d, *file, n) != 0) {
        fprintf(stderr, "fuzz: template %s missing or not a v6 flyrecord file\n", path);
        abort();
    }
}

void tg_fuzz_dat_run_edits(const tg_fuzz_dat *d, const tg_fuzz_dat_edit *e, size_t n_edits)
{
    char path[256];
    if (tg_fuzz_scratch("trace.dat", path, sizeof path) == 0 &&
        tg_fuzz_dat_write_edits(d, e, n_edits, path) == 0)
        tg_exercise_path(path, NULL);
}

void tg_fuzz_dat_run(const tg_fuzz_dat *d, size_t from, size_t to, const void *p, size_t n)
{
    tg_fuzz_dat_edit e = {from, to, p, n};
    tg_fuzz_dat_run_edits(d, &e, 1);
}
