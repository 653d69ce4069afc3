/* ftrace_eventfmt.c - parsing the kernel's event format files and the ring-buffer header.
 *
 * Each events/<system>/<event>/format text gives the event's name, numeric id, its fields
 * (type, name, offset, size, signedness; arrays, __data_loc and __rel_loc dynamic fields)
 * and its print fmt.  The fields become an ft_event (flags computed once, as libtraceevent
 * computes them, because the raw printer and the print-fmt engine depend on them) and a
 * tg_event_class; the print fmt is kept as text and compiled on first use by the print-fmt
 * engine (common/linux/print_fmt.h), which renders an event unless a plugin of trace-cmd's
 * prints it.  Events are found by id through a table indexed by it. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"
#include "common/linux/ring_page.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The print-fmt engine's look-ups into the file's kallsyms and printk formats. */
static const char *env_printk(const void *owner, uint64_t addr)
{
    return ft_find_printk(owner, addr);
}

static const tg_symbol *env_func(const void *owner, uint64_t addr)
{
    return ft_find_func(owner, addr);
}

int ft_render(const ft_event *e, const tg_event *ev, const uint8_t *data, size_t size, tg_buf *out)
{
    /* bytes readable past the record: to the end of the pages read with it (aux[1]) */
    size_t avail = ev && ev->data == data && ev->aux[1] > size ? (size_t)ev->aux[1] : size;
    if (e->file->raw) {
        tg_pf_render_raw_buf(&e->pfe, data, size, avail, out);
        return 1;
    }
    if (e->plugin && !e->file->no_plugins) { /* -N: trace-cmd 3.1.6 loads none of them */
        int rc = ft_plugin_render(e, ev, data, size, out);
        if (rc != 1)
            return rc ? rc : 1;
    }
    tg_pf_render(&e->pfe, data, size, avail, out);
    return 1;
}

/* 0, -1 out of memory, -2 an id past the kernel's 16-bit event types. */
static int add_by_id(ft_file *f, ft_event *ev)
{
    if (ev->id > UINT16_MAX)
        return -2;
    if (ev->id < f->n_by_id && f->by_id[ev->id])
        return 0; /* the first format with an id wins */
    if (tg_grow_zeroed(&f->by_id, &f->n_by_id, &f->cap_by_id, (size_t)ev->id + 1,
                       sizeof *f->by_id) != 0 ||
        tg_grow(&f->events, &f->cap_events, f->n_events + 1, sizeof *f->events) != 0)
        return -1;
    f->by_id[ev->id] = ev;
    f->events[f->n_events++] = ev;
    return 0;
}

const ft_field *ft_find_field(const ft_event *e, const char *name)
{
    return tg_pf_find_field(&e->pfe, name);
}

bool ft_field_u64(const ft_event *e, const uint8_t *data, size_t size, const char *name,
                  uint64_t *v)
{
    return ft_field_read_u64(e, ft_find_field(e, name), data, size, v);
}

int ft_parse_format(ft_file *f, const char *system, const char *text, size_t len, uint64_t file_off,
                    tg_error **err)
{
    tg_arena *a = &f->trace->arena;
    tg_evf fmt;
    int rc = tg_evf_parse(a, f->long_size, text, len, &fmt);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc == TG_ERR_LIMIT)
        return tg_err_at(err, TG_ERR_LIMIT, f->path, file_off,
                         "event format with more than %d fields", TG_EVF_MAX_FIELDS);
    if (rc < 0)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, file_off,
                         "event format without a name or an ID");
    ft_event *ev = tg_arena_alloc(a, sizeof *ev);
    if (!ev)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    ev->file = f;
    ev->id = (uint32_t)fmt.id;
    ev->system = system;
    ev->name = tg_arena_strndup(a, fmt.name, fmt.name_len);
    ev->common = fmt.common;
    ev->fields = fmt.fields;
    ev->n_common = fmt.n_common;
    ev->n_fields = fmt.n_fields;
    if (!ev->name)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (fmt.print_fmt) {
        ev->print_fmt = tg_arena_strndup(a, fmt.print_fmt, fmt.print_fmt_len);
        if (!ev->print_fmt)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    ev->plugin = ft_plugin_for(system, ev->name);
    f->pf_env = (tg_pf_env){f->big_endian, f->long_size, f, env_printk, env_func};
    ev->pfe = (tg_pf_event){
        .common = ev->common,
        .fields = ev->fields,
        .n_common = ev->n_common,
        .n_fields = ev->n_fields,
        .print_fmt = ev->print_fmt,
        .is_bprint = strcmp(system, "ftrace") == 0 && strcmp(ev->name, "bprint") == 0,
        .env = &f->pf_env,
    };
    static const char *const kf_names[FT_KF_COUNT] = {
        [FT_KF_PID] = "common_pid",      [FT_KF_FUNC] = "func",          [FT_KF_DEPTH] = "depth",
        [FT_KF_CALLTIME] = "calltime",   [FT_KF_RETTIME] = "rettime",    [FT_KF_IP] = "ip",
        [FT_KF_PARENT_IP] = "parent_ip", [FT_KF_CALL_SITE] = "call_site"};
    for (int k = 0; k < FT_KF_COUNT; k++)
        ev->kf[k] = ft_find_field(ev, kf_names[k]);
    if (!f->have_type) {
        for (size_t i = 0; i < ev->n_common; i++) {
            if (strcmp(ev->common[i].name, "common_type") == 0) {
                f->type_off = ev->common[i].offset;
                f->type_size = ev->common[i].size;
                f->have_type = true;
            } else if (strcmp(ev->common[i].name, "common_pid") == 0) {
                f->pid_off = ev->common[i].offset;
                f->pid_size = ev->common[i].size;
            }
        }
    }
    /* function_graph records are function entries and exits for the call-stack builder
     * (the stream fills addr from func, and depth).  Not `kernel`: that tells uftrace's
     * kernel records from the traced program's, and here there is no program's. */
    tg_event_kind kind = TG_KIND_GENERIC;
    if (strcmp(system, "ftrace") == 0 && ev->kf[FT_KF_FUNC] && ev->kf[FT_KF_DEPTH]) {
        if (strcmp(ev->name, "funcgraph_entry") == 0)
            kind = TG_KIND_FUNC_ENTRY;
        else if (strcmp(ev->name, "funcgraph_exit") == 0)
            kind = TG_KIND_FUNC_EXIT;
    }
    ev->cls = tg_trace_add_class(f->trace, ev->name, ev->id, kind);
    if (!ev->cls)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    ev->is_func = kind != TG_KIND_GENERIC;
    /* the kernel's own times of the call (trace_clock_local at entry and at return, before
     * the records are written): the call's duration, as trace-cmd prints it */
    ev->cls->exit_has_call_ns =
        kind == TG_KIND_FUNC_EXIT && ev->kf[FT_KF_CALLTIME] && ev->kf[FT_KF_RETTIME];
    ev->cls->depth_is_stack = kind != TG_KIND_GENERIC; /* the kernel's depth of the call */
    ev->cls->system = system;
    ev->cls->fmt_data = ev;
    int added = add_by_id(f, ev);
    if (added == -2)
        rc =
            tg_err(err, TG_ERR_FORMAT, "event format %s: ID %u is past ftrace's 16-bit event types",
                   ev->name, (unsigned)ev->id);
    else if (added < 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc;
}

int ft_parse_header_page(ft_file *f, const char *text, size_t len)
{
    tg_rb_layout l;
    memset(&l, 0, sizeof l);
    l.long_size = f->long_size;
    if (tg_rb_layout_parse(&l, text, len) < 0)
        return -1;
    f->hp_ts_off = l.ts_off;
    f->hp_commit_off = l.commit_off;
    f->hp_commit_size = l.commit_size;
    f->hp_data_off = l.data_off;
    return 0;
}
