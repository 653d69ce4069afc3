/* perf_report.c - `report --style=perf`: what `perf report --stdio` prints (perf 6.1).
 *
 * Its default sort (overhead, command, shared object, symbol), one section per event of the
 * file in the file's order: the samples of the event are summed by period into entries
 * keyed by the thread's name, the object the ip lies in and the symbol (or, without one, the
 * address: map-relative in a user-space object, the ip in the kernel's), and printed by
 * overhead, ties by command, object, then address, with columns as wide as their widest
 * value.  The threads and maps are perf's session's (perf_session.c), the symbols those of
 * the objects' ELF files (perf_symbols.c, under --symfs).  perf ends with a tip chosen at
 * random ("# (Tip: ...)"), which this style leaves out.  Files recorded with -g print as
 * perf report --no-children -g none prints them (the leaves' entries, no graph); perf's
 * default Children column and call graphs are not printed yet. */
#include "compat/perf/perf_session.h"
#include "compat/perf/perf_symbols.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pr_entry {
    const char *comm; /* owned copy */
    const char *dso;  /* the object's short name ("libc.so.6", "[kernel.kallsyms]") */
    const char *sym;  /* NULL: the address */
    uint64_t addr;
    bool kernel;
    uint64_t period;
} pr_entry;

typedef struct pr_event {
    const tg_event_class *cls;
    char name[128];
    pr_entry *v;
    size_t n, cap;
    uint64_t samples, total;
} pr_event;

typedef struct pr_state {
    perf_session s;
    perf_symbols syms;
    pr_event *events;
    size_t n_events, cap_events;
    uint64_t lost_samples;
    bool nomem;
} pr_state;

static pr_event *event_of(pr_state *st, const tg_event_class *cls)
{
    for (size_t i = 0; i < st->n_events; i++)
        if (st->events[i].cls == cls)
            return &st->events[i];
    if (tg_grow(&st->events, &st->cap_events, st->n_events + 1, sizeof *st->events) < 0) {
        st->nomem = true;
        return NULL;
    }
    pr_event *e = &st->events[st->n_events++];
    memset(e, 0, sizeof *e);
    e->cls = cls;
    const char *sys = tg_event_class_system(cls);
    snprintf(e->name, sizeof e->name, "%s%s%s", sys ? sys : "", sys ? ":" : "",
             tg_event_class_name(cls));
    return e;
}

static bool get_u64(const tg_event *ev, tg_scope scope, const char *name, uint64_t *v)
{
    tg_value val;
    if (tg_event_field_by_name(ev, scope, name, &val) < 0 ||
        (val.type != TG_VAL_UINT && val.type != TG_VAL_SINT))
        return false;
    *v = val.v.u;
    return true;
}

static const char *short_dso(const char *dso)
{
    if (dso[0] != '/')
        return dso;
    return strrchr(dso, '/') + 1;
}

static void add_sample(pr_state *st, const tg_event *ev)
{
    const tg_event_class *cls = tg_event_class_of(ev);
    tg_scope scope = tg_event_class_system(cls) ? TG_SCOPE_EVENT_CONTEXT : TG_SCOPE_PAYLOAD;
    uint64_t pid = (uint64_t)-1, tid = (uint64_t)-1, ip = 0, period = 1;
    get_u64(ev, scope, "pid", &pid);
    get_u64(ev, scope, "tid", &tid);
    get_u64(ev, scope, "ip", &ip);
    get_u64(ev, scope, "period", &period);
    pr_event *e = event_of(st, cls);
    if (!e)
        return;
    ps_thread *t = perf_session_thread(&st->s, (int32_t)pid, (int32_t)tid);
    const char *comm = t ? t->comm : ":-1";
    bool kernel = ip >> 63; /* the upper half: the kernel's (see perf_script.c) */
    const ps_map *m = perf_session_map(&st->s, (int32_t)pid, kernel, ip);
    uint64_t addr = perf_map_addr(m, ip);
    const ps_sym *sym = m ? perf_symbols_find(&st->syms, m->dso, addr) : NULL;
    const char *dso = m ? short_dso(m->dso) : "[unknown]";
    if (sym)
        addr = sym->start;
    e->samples++;
    e->total += period;
    for (size_t i = 0; i < e->n; i++) {
        pr_entry *x = &e->v[i];
        if (x->addr == addr && x->kernel == kernel && strcmp(x->dso, dso) == 0 &&
            strcmp(x->comm, comm) == 0) {
            x->period += period;
            return;
        }
    }
    char *c = strdup(comm);
    if (!c || tg_grow(&e->v, &e->cap, e->n + 1, sizeof *e->v) < 0) {
        free(c);
        st->nomem = true;
        return;
    }
    e->v[e->n++] = (pr_entry){c, dso, sym ? sym->name : NULL, addr, kernel, period};
}

static int entry_cmp(const void *a, const void *b)
{
    const pr_entry *x = a, *y = b;
    if (x->period != y->period)
        return x->period > y->period ? -1 : 1;
    int c = strcmp(x->comm, y->comm);
    if (c)
        return c;
    c = strcmp(x->dso, y->dso);
    if (c)
        return c;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void put_dots(tg_buf *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tg_buf_putc(out, '.');
}

static void print_event(tg_buf *out, pr_event *e)
{
    qsort(e->v, e->n, sizeof *e->v, entry_cmp);
    size_t wc = strlen("Command"), wd = strlen("Shared Object"), ws = strlen("[.] ") + 18;
    for (size_t i = 0; i < e->n; i++) {
        size_t c = strlen(e->v[i].comm), d = strlen(e->v[i].dso);
        size_t s = e->v[i].sym ? strlen("[.] ") + strlen(e->v[i].sym) : ws;
        wc = c > wc ? c : wc;
        wd = d > wd ? d : wd;
        ws = s > ws ? s : ws;
        /* an entry without a symbol widens the object column to an address's 16 digits
         * (perf's hists__set_unres_dso_col_len) */
        if (!e->v[i].sym && wd < 16)
            wd = 16;
    }
    tg_buf_printf(out, "# Samples: %" PRIu64 "  of event '%s'\n", e->samples, e->name);
    tg_buf_printf(out, "# Event count (approx.): %" PRIu64 "\n#\n", e->total);
    tg_buf_printf(out, "# Overhead  %-*s  %-*s  %-*s\n", (int)wc, "Command", (int)wd,
                  "Shared Object", (int)ws, "Symbol");
    tg_buf_puts(out, "# ........  ");
    put_dots(out, wc);
    tg_buf_puts(out, "  ");
    put_dots(out, wd);
    tg_buf_puts(out, "  ");
    put_dots(out, ws);
    tg_buf_puts(out, "\n#\n");
    for (size_t i = 0; i < e->n; i++) {
        const pr_entry *x = &e->v[i];
        double pct = e->total ? 100.0 * (double)x->period / (double)e->total : 0.0;
        tg_buf_printf(out, "  %7.2f%%  %-*s  %-*s  [%c] ", pct, (int)wc, x->comm, (int)wd, x->dso,
                      x->kernel ? 'k' : '.');
        if (x->sym)
            tg_buf_puts(out, x->sym);
        else
            tg_buf_printf(out, "0x%016" PRIx64, x->addr);
        tg_buf_putc(out, '\n');
    }
    tg_buf_puts(out, "\n\n");
}

static int report_perf(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                       tg_error **err)
{
    pr_state st = {0};
    st.syms.symfs = opts ? tg_options_get(opts, "symfs") : NULL;
    /* the sections in the file's order of events, also those without samples first seen */
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_class_count(t); k++) {
            const tg_event_class *c = tg_trace_class(t, k);
            if (strncmp(tg_event_class_name(c), "PERF_RECORD_", 12) != 0)
                event_of(&st, c);
        }
    }
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        perf_session_update(&st.s, ev);
        const char *name = tg_event_name(ev);
        if (strcmp(name, "PERF_RECORD_LOST_SAMPLES") == 0)
            st.lost_samples += tg_event_lost_count(ev);
        else if (strncmp(name, "PERF_RECORD_", 12) != 0)
            add_sample(&st, ev);
    }
    if (rc >= 0) {
        tg_buf_puts(out, "# To display the perf.data header info, please use "
                         "--header/--header-only options.\n#\n#\n");
        tg_buf_printf(out, "# Total Lost Samples: %" PRIu64 "\n#\n", st.lost_samples);
        for (size_t i = 0; i < st.n_events; i++)
            if (st.events[i].samples)
                print_event(out, &st.events[i]);
    }
    if ((st.nomem || st.s.nomem || st.syms.nomem) && rc >= 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < st.n_events; i++) {
        for (size_t k = 0; k < st.events[i].n; k++)
            free((char *)st.events[i].v[k].comm);
        free(st.events[i].v);
    }
    free(st.events);
    perf_session_free(&st.s);
    perf_symbols_free(&st.syms);
    return rc;
}

static const tg_option_decl perf_report_options[] = {
    {"symfs", TG_OPT_TEXT, NULL, "perf's --symfs: look for the mapped files under DIR", "DIR"},
    {"no-children", TG_OPT_FLAG, NULL,
     "perf's --no-children: each entry's own samples only (what this style prints)"},
    {"call-graph", TG_OPT_CHOICE, "none",
     "perf's -g: how call chains show under the entries (none: not at all)", "MODE", "none", 0, 0,
     'g'},
    {0},
};

TG_REPORT_STYLE(perf) = {"perf", report_perf, perf_report_options, NULL, false};
