/* uftrace_kernel.c - the kernel half of `uftrace record -k` data: kernel_header,
 * kernel-cpuN.dat and kallsyms.
 *
 * uftrace saves the kernel's function_graph ring buffer of each cpu as it read it from
 * per_cpu/cpuN/trace_pipe_raw (whole pages, one after the other) and, in kernel_header,
 * what is needed to read them: PAGE_SIZE, LONG_SIZE and ENDIAN lines, then
 * "TRACEFS: PATH: LENGTH" sections holding tracefs's events/header_page and the format files
 * of ftrace's funcgraph_entry and funcgraph_exit.  The pages are decoded in place by core's
 * ring-buffer page decoder (the one the ftrace reader uses); each cpu is one stream whose
 * function records become entry/exit events of the task in their common_pid, as uftrace
 * merges them with the tasks' own records.  Records of tasks uftrace did not trace (no
 * TID.dat) and other event types are skipped, as uftrace does; the pages' missed-events
 * flags become a lost event before the next record.  Function names come from the data's
 * copy of /proc/kallsyms, loaded into the trace's symbol table.  Nothing is allocated per
 * record. */
#include "common/linux/ring_page.h"
#include "formats/uftrace/uftrace_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KHDR_MAX (1u << 20)

/* where a funcgraph record keeps what uftrace reads: common_type, common_pid, func, depth */
struct kfmt {
    uint32_t entry_id, exit_id;
    uint32_t type_off, pid_off;
    uint32_t func_off[2], func_size[2], depth_off[2]; /* [0] entry, [1] exit */
    uint32_t min_len[2];
};

struct kshared { /* what every cpu's stream reads (in the trace arena) */
    struct uft_data *d;
    tg_rb_layout layout;
    struct kfmt f;
    tg_event_class *cls_entry, *cls_exit;
};

struct kcpu {
    const struct kshared *k;
    char *path;
    tg_map map;
    int cpu;
    size_t page_off; /* file offset of the page being read */
    tg_rb_page page;
    bool loaded, truncated, stopped;
    int64_t lost;  /* missed events to report before the next record (0: none) */
    tg_event held; /* the record after a lost event, handed out next */
    bool have_held;
};

/* ---- kernel_header ------------------------------------------------------------------------ */

/* "KEY: NUMBER\n" at *p: the number, the position after the line */
static bool header_num(const char **p, const char *end, const char *key, long *v)
{
    size_t kl = strlen(key);
    if ((size_t)(end - *p) <= kl || memcmp(*p, key, kl) != 0)
        return false;
    char *e;
    *v = strtol(*p + kl, &e, 10);
    if (e == *p + kl || e >= end || *e != '\n')
        return false;
    *p = e + 1;
    return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static int field_of(const char *text, size_t len, const char *name, uint32_t *off, uint32_t *size,
                    uint32_t want_min, uint32_t want_max)
{
    if (tg_rb_format_field(text, len, name, off, size) < 0)
        return -1;
    return *size >= want_min && *size <= want_max ? 0 : -1;
}

/* One funcgraph event format: its id and the offsets of the fields uftrace reads. */
static int read_event_fmt(struct kfmt *f, int which, const char *text, size_t len, const char *path,
                          size_t at, tg_error **err)
{
    uint32_t id, off, size;
    if (tg_rb_format_id(text, len, &id) < 0)
        return tg_err_at(err, TG_ERR_FORMAT, path, at, "event format without an \"ID:\" line");
    const char *bad = NULL;
    if (field_of(text, len, "common_type", &f->type_off, &size, 2, 2) < 0)
        bad = "common_type (2 bytes)";
    else if (field_of(text, len, "common_pid", &f->pid_off, &size, 4, 4) < 0)
        bad = "common_pid (4 bytes)";
    else if (field_of(text, len, "func", &f->func_off[which], &f->func_size[which], 4, 8) < 0)
        bad = "func (4 or 8 bytes)";
    else if (field_of(text, len, "depth", &f->depth_off[which], &size, 4, 4) < 0)
        bad = "depth (4 bytes)";
    if (bad)
        return tg_err_at(err, TG_ERR_FORMAT, path, at, "%s format: no field %s",
                         which ? "funcgraph_exit" : "funcgraph_entry", bad);
    off = f->func_off[which] + f->func_size[which];
    if (off < f->depth_off[which] + 4)
        off = f->depth_off[which] + 4;
    if (off < f->pid_off + 4)
        off = f->pid_off + 4;
    f->min_len[which] = off;
    if (which)
        f->exit_id = id;
    else
        f->entry_id = id;
    return 0;
}

static int read_header(struct uft_data *d, struct kshared *k, tg_error **err)
{
    char *path = tg_path_join(d->dir, "kernel_header");
    char *text = NULL;
    size_t len = 0;
    int rc = path ? tg_read_text_file(path, KHDR_MAX, &text, &len, err)
                  : tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc < 0) {
        free(path);
        return rc;
    }
    const char *p = text, *end = text + len;
    long page_size, long_size;
    bool be = false;
    if (!header_num(&p, end, "PAGE_SIZE: ", &page_size) ||
        !header_num(&p, end, "LONG_SIZE: ", &long_size)) {
        rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(p - text),
                       "expected \"PAGE_SIZE: N\" and \"LONG_SIZE: N\" lines");
        goto out;
    }
    if ((size_t)(end - p) >= 11 && memcmp(p, "ENDIAN: ", 8) == 0 && p[10] == '\n' &&
        (memcmp(p + 8, "LE", 2) == 0 || memcmp(p + 8, "BE", 2) == 0)) {
        be = p[8] == 'B';
        p += 11;
    } else {
        rc = tg_err_at(err, TG_ERR_FORMAT, path, (uint64_t)(p - text),
                       "expected \"ENDIAN: LE\" or \"ENDIAN: BE\"");
        goto out;
    }
    if (page_size < 64 || page_size > (1L << 24) || (long_size != 4 && long_size != 8)) {
        rc = tg_err_at(err, TG_ERR_FORMAT, path, 0,
                       "PAGE_SIZE %ld or LONG_SIZE %ld out of range (64..16M, 4 or 8)", page_size,
                       long_size);
        goto out;
    }
    k->layout.page_size = (uint32_t)page_size;
    k->layout.long_size = (int)long_size;
    k->layout.big_endian = be;
    int seen = 0;
    while (p < end && rc >= 0) {
        size_t at = (size_t)(p - text);
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *colon = nl ? memchr(p, ':', (size_t)(nl - p)) : NULL;
        const char *c2 =
            colon && colon + 1 < nl ? memchr(colon + 1, ':', (size_t)(nl - colon - 1)) : NULL;
        if (!c2 || (size_t)(colon - p) != 7 || memcmp(p, "TRACEFS", 7) != 0) {
            rc = tg_err_at(err, TG_ERR_FORMAT, path, at, "expected \"TRACEFS: PATH: LENGTH\"");
            break;
        }
        char *e;
        unsigned long n = strtoul(c2 + 1, &e, 10);
        if (e != nl || n > (size_t)(end - nl - 1)) {
            rc = tg_err_at(err, TG_ERR_FORMAT, path, at,
                           "section length runs past the end of the file (%zu bytes left)",
                           (size_t)(end - nl - 1));
            break;
        }
        const char *name = colon + 2, *body = nl + 1;
        size_t nlen = (size_t)(c2 - name);
        if (ends_with(name, nlen, "events/header_page")) {
            if (tg_rb_layout_parse(&k->layout, body, n) < 0 ||
                k->layout.data_off >= k->layout.page_size)
                rc = tg_err_at(err, TG_ERR_FORMAT, path, at,
                               "events/header_page does not describe a page header");
            seen |= 1;
        } else if (ends_with(name, nlen, "/funcgraph_entry/format")) {
            rc = read_event_fmt(&k->f, 0, body, n, path, at, err);
            seen |= 2;
        } else if (ends_with(name, nlen, "/funcgraph_exit/format")) {
            rc = read_event_fmt(&k->f, 1, body, n, path, at, err);
            seen |= 4;
        }
        p = body + n;
    }
    if (rc >= 0 && seen != 7)
        rc = tg_err_at(err, TG_ERR_FORMAT, path, TG_NO_OFFSET, "missing %s",
                       !(seen & 1)   ? "events/header_page"
                       : !(seen & 2) ? "the funcgraph_entry format"
                                     : "the funcgraph_exit format");
    if (rc >= 0 && k->f.entry_id == k->f.exit_id)
        rc = tg_err_at(err, TG_ERR_FORMAT, path, TG_NO_OFFSET,
                       "funcgraph_entry and funcgraph_exit have the same ID %u", k->f.entry_id);
out:
    free(text);
    free(path);
    return rc;
}

/* ---- the per-cpu streams ----------------------------------------------------------------- */

static uint64_t rd(const tg_rb_layout *l, const uint8_t *p, uint32_t size)
{
    switch (size) {
    case 2: return l->big_endian ? tg_be16(p) : tg_le16(p);
    case 4: return l->big_endian ? tg_be32(p) : tg_le32(p);
    default: return l->big_endian ? tg_be64(p) : tg_le64(p);
    }
}

/* Starts the page at s->page_off: 1, 0 at the end of the file, or an error. */
static int load_page(struct kcpu *s, tg_error **err)
{
    const tg_rb_layout *l = &s->k->layout;
    size_t left = s->map.size - s->page_off;
    if (s->page_off >= s->map.size)
        return 0;
    tg_rb_layout part = *l;
    s->truncated = left < l->page_size;
    if (s->truncated) { /* the file ends inside this page: read what is there */
        if (left <= part.data_off) {
            s->stopped = true;
            return tg_err_at(err, TG_ERR_FORMAT, s->path, s->page_off,
                             "the file ends inside a page header (%zu of %u bytes)", left,
                             l->page_size);
        }
        part.page_size = (uint32_t)left;
    }
    size_t commit;
    if (tg_rb_page_load(&s->page, &part, s->map.data + s->page_off, &commit) < 0) {
        if (!s->truncated) {
            s->page_off += l->page_size;
            return tg_err_at(err, TG_ERR_FORMAT, s->path, s->page_off - l->page_size,
                             "page commit %zu runs past the page's %u data bytes", commit,
                             l->page_size - l->data_off);
        }
        s->page.commit = left - part.data_off; /* decode up to the end of the file */
    }
    s->page.l = l;
    if (s->page.lost)
        s->lost = s->page.lost;
    s->loaded = true;
    return 1;
}

/* The next record of the traced tasks' function calls: 1, 0 at the end, or an error. */
static int next_record(struct kcpu *s, tg_event *ev, tg_error **err)
{
    const struct kshared *k = s->k;
    const tg_rb_layout *l = &k->layout;
    for (;;) {
        if (s->stopped)
            return 0;
        if (!s->loaded) {
            int rc = load_page(s, err);
            if (rc <= 0)
                return rc;
        }
        tg_rb_record r;
        int rc = tg_rb_page_next(&s->page, &r);
        size_t at = s->page_off + l->data_off + r.pos;
        if (rc == TG_RB_END) {
            s->loaded = false;
            if (s->truncated) {
                s->stopped = true;
                return tg_err_at(err, TG_ERR_FORMAT, s->path, s->page_off,
                                 "the file ends inside a page (%zu of %u bytes)",
                                 s->map.size - s->page_off, l->page_size);
            }
            s->page_off += l->page_size;
            continue;
        }
        if (rc < 0 && s->truncated) {
            s->stopped = true;
            return tg_err_at(err, TG_ERR_FORMAT, s->path, at,
                             "the file ends inside this record (its page at 0x%zx has %zu of "
                             "%u bytes)",
                             s->page_off, s->map.size - s->page_off, l->page_size);
        }
        if (rc == TG_RB_BAD_LENGTH)
            return tg_err_at(err, TG_ERR_FORMAT, s->path, at,
                             "record of %zu bytes runs past the page's data", r.len);
        if (rc < 0)
            return tg_err_at(err, TG_ERR_FORMAT, s->path, at,
                             "record header runs past the page's data");
        if (r.len < k->f.type_off + 2)
            continue;
        uint32_t type = (uint32_t)rd(l, r.data + k->f.type_off, 2);
        int which = type == k->f.entry_id ? 0 : type == k->f.exit_id ? 1 : -1;
        if (which < 0)
            continue; /* another event: uftrace does not show it as a function */
        if (r.len < k->f.min_len[which])
            return tg_err_at(
                err, TG_ERR_FORMAT, s->path, at, "%s record of %zu bytes: its fields need %u",
                which ? "funcgraph_exit" : "funcgraph_entry", r.len, k->f.min_len[which]);
        int tid = (int32_t)rd(l, r.data + k->f.pid_off, 4);
        const struct uft_task *tk = uft_task_find(k->d, tid);
        if ((!tk || !tk->has_dat) && !k->d->dump_every_task)
            continue; /* a task uftrace did not trace */
        uint32_t depth = (uint32_t)rd(l, r.data + k->f.depth_off[which], 4);
        ev->cls = which ? k->cls_exit : k->cls_entry;
        ev->ts = (int64_t)r.ts;
        ev->tid = tid;
        ev->pid = tk ? tk->pid : tid;
        ev->cpu = s->cpu;
        ev->depth = depth > INT32_MAX ? INT32_MAX : (int32_t)depth;
        ev->addr = rd(l, r.data + k->f.func_off[which], k->f.func_size[which]);
        ev->offset = at;
        ev->data = r.data;
        ev->size = r.len;
        return 1;
    }
}

static int kcpu_next(tg_stream *st, tg_event *ev, tg_error **err)
{
    struct kcpu *s = st->priv;
    if (s->have_held) {
        *ev = s->held;
        s->have_held = false;
        return 1;
    }
    int rc = next_record(s, ev, err);
    if (rc <= 0 || !s->lost)
        return rc;
    /* missed events before this page: uftrace shows them before its first record */
    s->held = *ev;
    s->have_held = true;
    ev->cls = s->k->d->cls_lost;
    ev->lost = s->lost > 0 ? (uint64_t)s->lost : 0;
    ev->data = NULL;
    ev->size = 0;
    s->lost = 0;
    return 1;
}

static int kcpu_rewind(tg_stream *st, tg_error **err)
{
    (void)err;
    struct kcpu *s = st->priv;
    s->page_off = 0;
    s->loaded = s->truncated = s->stopped = s->have_held = false;
    s->lost = 0;
    return 0;
}

static void kcpu_destroy(tg_stream *st)
{
    struct kcpu *s = st->priv;
    if (!s)
        return;
    tg_map_close(&s->map);
    free(s->path);
    free(s);
    st->priv = NULL;
}

/* A kernel function's module: the kernel's own image (perf's name for it); kallsyms's
 * loadable-module column is not kept, so a module's function is named the kernel's too. */
static const char *kcpu_func_module(const tg_event *ev)
{
    tg_trace *t = tg_event_trace(ev);
    return t && tg_symtab_lookup(&t->symbols, ev->addr) ? "[kernel.kallsyms]" : NULL;
}

static const struct tg_stream_ops uft_kernel_ops = {
    .next = kcpu_next,
    .rewind = kcpu_rewind,
    .func_module = kcpu_func_module,
    .destroy = kcpu_destroy,
};

int uft_kernel_streams_add(tg_trace *t, struct uft_data *d, tg_error **err)
{
    if (!(d->feat_mask & UFT_FEAT_KERNEL) || !tg_probe_dir_has(d->dir, "kernel_header"))
        return 0;
    struct kshared *k = tg_arena_alloc(&t->arena, sizeof *k);
    if (!k)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    memset(k, 0, sizeof *k);
    k->d = d;
    TG_TRY(read_header(d, k, err));
    k->cls_entry =
        tg_trace_add_class(t, "ftrace:funcgraph_entry", k->f.entry_id, TG_KIND_FUNC_ENTRY);
    k->cls_exit = tg_trace_add_class(t, "ftrace:funcgraph_exit", k->f.exit_id, TG_KIND_FUNC_EXIT);
    if (!k->cls_entry || !k->cls_exit)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    k->cls_entry->kernel = k->cls_exit->kernel = true;
    if (tg_probe_dir_has(d->dir, "kallsyms")) {
        char *path = tg_path_join(d->dir, "kallsyms");
        int rc = path ? uft_symfile_load(t, &t->symbols, path, err)
                      : tg_err(err, TG_ERR_NOMEM, "out of memory");
        free(path);
        if (rc < 0)
            return rc;
    }
    char name[32];
    for (int cpu = -1; (cpu = uft_cpu_file_next(d, "kernel", cpu, name, sizeof name)) >= 0;) {
        struct kcpu *s = calloc(1, sizeof *s);
        if (!s)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        s->k = k;
        s->cpu = cpu;
        int rc = uft_map_data_file(d, name, &s->path, &s->map, err);
        if (rc < 0) {
            free(s);
            return rc;
        }
        if (!tg_trace_add_stream(t, &uft_kernel_ops, name, cpu, -1, s)) {
            kcpu_destroy(&(tg_stream){.priv = s});
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
