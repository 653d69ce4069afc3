/* ftrace_report.c - what `trace-cmd report` prints about a trace.dat file rather than its
 * events: --stat (the buffer statistics the recorder saved and where each cpu's data lies),
 * -E (the event formats the file stores, "system:name" sorted by system, then name, then
 * id, as libtraceevent's tep_list_events sorts them) and -P (the printk formats, by
 * address, "%016llx fmt").  And the symbol search libtraceevent's filters use, so that
 * tg_trace_symbol finds what trace-cmd finds.
 *
 * They are parts of the file the reader keeps anyway (ft_file), printed here so that the
 * trace-cmd style asks for them by name (tg_trace_render) and `traceglot info` shows the
 * --stat part from the same code. */
#include "formats/ftrace/ftrace_internal.h"

#include <stdlib.h>
#include <string.h>

/* `report --stat`: the statistics text per cpu as recorded, then where each cpu's data
 * lies; trace-cmd shows the top instance's only (all_buffers: every instance's, for info). */
void ft_report_stat(const ft_file *f, tg_buf *out, bool all_buffers)
{
    tg_buf_printf(out, "cpus=%d\n", f->cpus);
    tg_buf_puts(out, "\nKernel buffer statistics:\n"
                     "  Note: \"entries\" are the entries left in the kernel ring buffer "
                     "and are not\n"
                     "        recorded in the trace data. They should all be zero.\n\n");
    for (size_t i = 0; i < f->n_cpustat; i++) {
        tg_buf_puts(out, f->cpustat[i]);
        tg_buf_putc(out, '\n');
    }
    tg_buf_puts(out, f->n_cpustat ? "\n" : " No stats in this file\n");
    for (size_t i = 0; i < f->n_buffers; i++) {
        const ft_buffer *b = &f->buffers[i];
        if (b->latency || (b->name[0] && !all_buffers))
            continue;
        if (b->name[0])
            tg_buf_printf(out, "\nBuffer: %s\n\n", b->name);
        uint64_t voff = b->page_size;
        for (size_t c = 0; c < b->n_cpus; c++) {
            const ft_cpu_data *cd = &b->cpus[c];
            uint64_t off = b->compressed ? voff : cd->offset;
            tg_buf_printf(out, "CPU%d data recorded at offset=0x%llx\n", cd->cpu,
                          (unsigned long long)off);
            tg_buf_printf(out, "    %llu bytes in size\n", (unsigned long long)cd->usize);
            voff += cd->usize;
        }
    }
}

static int by_system(const void *a, const void *b)
{
    const ft_event *x = *(const ft_event *const *)a, *y = *(const ft_event *const *)b;
    int c = strcmp(x->system, y->system);
    if (!c)
        c = strcmp(x->name, y->name);
    if (!c)
        c = x->id < y->id ? -1 : x->id > y->id;
    return c;
}

static int print_events(const ft_file *f, tg_buf *out, tg_error **err)
{
    const ft_event **ev = malloc((f->n_events ? f->n_events : 1) * sizeof *ev);
    if (!ev)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    memcpy(ev, f->events, f->n_events * sizeof *ev);
    qsort(ev, f->n_events, sizeof *ev, by_system);
    for (size_t i = 0; i < f->n_events; i++) {
        tg_buf_puts(out, ev[i]->system);
        tg_buf_putc(out, ':');
        tg_buf_puts(out, ev[i]->name);
        tg_buf_putc(out, '\n');
    }
    free(ev);
    return 1;
}

int ft_report_part(const tg_trace *t, const char *part, tg_buf *out, tg_error **err)
{
    const ft_file *f = t->priv;
    if (strcmp(part, "stat") == 0) {
        ft_report_stat(f, out, false);
        return 1;
    }
    if (strcmp(part, "events") == 0)
        return print_events(f, out, err);
    if (strcmp(part, "printk") == 0) {
        for (size_t i = 0; i < f->n_printk; i++)
            tg_buf_printf(out, "%016llx %s\n", (unsigned long long)f->printk[i].addr,
                          f->printk[i].fmt);
        return 1;
    }
    return 0;
}

const char *ft_report_symbol(const tg_trace *t, uint64_t addr)
{
    const tg_symbol *s = ft_find_func(t->priv, addr);
    return s ? s->name : NULL;
}

/* The format's own fields by index, as the ring reader numbers them (common_comm, which the
 * reader adds after the common fields, is not a format field). */
const char *ft_report_field_name(const tg_event_class *c, tg_scope scope, size_t i)
{
    const ft_event *e = c->fmt_data;
    if (!e)
        return NULL;
    if (scope == TG_SCOPE_COMMON)
        return i < e->n_common ? e->common[i].name : NULL;
    if (scope == TG_SCOPE_PAYLOAD)
        return i < e->n_fields ? e->fields[i].name : NULL;
    return NULL;
}
