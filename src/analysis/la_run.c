/* la_run.c - tg_analyze: one lttng-analyses command over a kernel trace, as lttng-NAME
 * --skip-validation prints it (or lttng-NAME-mi's LAMI JSON with --format json).
 *
 * The driver follows lttng-analyses' own loop: each event is first seen by the analysis
 * (which stops past --end, and opens its one period at the first event, or at the first event
 * at or after --begin), then by the state (la_state.c), whose changes the analysis hears
 * while its period is open; at the end the analysis prints what the period held, its time
 * range being from the period's first event to the last event the analysis saw. */
#include "analysis/la_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const la_kind *const kinds[] = {
    &la_kind_cputop,        &la_kind_schedstats, &la_kind_schedtop,     &la_kind_schedlog,
    &la_kind_schedfreq,     &la_kind_irqstats,   &la_kind_irqlog,       &la_kind_irqfreq,
    &la_kind_syscallstats,  &la_kind_memtop,     &la_kind_iolatencytop, &la_kind_iolatencystats,
    &la_kind_iolatencyfreq, &la_kind_iousagetop, &la_kind_iolog,        NULL,
};

TG_OPTIONS(analyze) = {
    "analyze",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"format", TG_OPT_CHOICE, "text",
         "text (lttng-NAME's), or json: LAMI 1.0 as lttng-NAME-mi prints it", "FORMAT",
         "text|json"},
        {"begin", TG_OPT_TEXT, NULL, "start time: hh:mm:ss[.nnnnnnnnn], a date or ns", "T"},
        {"end", TG_OPT_TEXT, NULL, "end time: hh:mm:ss[.nnnnnnnnn], a date or ns", "T"},
        {"timerange", TG_OPT_TEXT, NULL, "time range: [begin,end]", "[B,E]"},
        {"gmt", TG_OPT_FLAG, NULL, "times in GMT instead of local time"},
        {"cpu", TG_OPT_TEXT, NULL, "only these CPU ids", "N[,N]"},
        {"tid", TG_OPT_TEXT, NULL, "only these thread ids", "N[,N]"},
        {"procname", TG_OPT_TEXT, NULL, "only these process names", "NAME[,NAME]"},
        {"limit", TG_OPT_INT, "10", "the top N rows", "N", NULL, -1000000000, 1000000000},
        {"min", TG_OPT_TEXT, NULL, "durations shorter than min usec left out", "USEC"},
        {"max", TG_OPT_TEXT, NULL, "durations longer than max usec left out", "USEC"},
        {"minsize", TG_OPT_TEXT, NULL, "io: requests of fewer bytes left out", "BYTES"},
        {"maxsize", TG_OPT_TEXT, NULL, "io: requests of more bytes left out", "BYTES"},
        /* keyed apart from llvm-xray account's integer -top: a key has one type */
        {"top-results", TG_OPT_FLAG, NULL,
         "sched, io: the top ones (--top, as lttng-analyses spells it)", NULL, NULL, 0, 0, 0,
         "top"},
        {"usage", TG_OPT_FLAG, NULL, "io: the I/O usage"},
        {"stats", TG_OPT_FLAG, NULL, "sched, irq: the statistics"},
        {"log", TG_OPT_FLAG, NULL, "sched, irq: every one in time order"},
        {"freq", TG_OPT_FLAG, NULL, "sched, irq: the frequency distribution"},
        {"freq-resolution", TG_OPT_INT, "20", "the distribution's buckets", "N", NULL, 1, 1000000},
        {"freq-uniform", TG_OPT_FLAG, NULL, "one resolution across distributions"},
        {"freq-series", TG_OPT_FLAG, NULL, "the distributions as one histogram"},
        {"total", TG_OPT_FLAG, NULL, "sched: all results together"},
        {"per-tid", TG_OPT_FLAG, NULL, "sched: results per thread (default)"},
        {"per-prio", TG_OPT_FLAG, NULL, "sched: results per priority"},
        {"irq", TG_OPT_TEXT, NULL, "irq: only these IRQs", "N[,N]"},
        {"softirq", TG_OPT_TEXT, NULL, "irq: only these softirqs", "N[,N]"},
        {"skip-validation", TG_OPT_FLAG, NULL, "accepted (no lost-event check is made)"},
        {"no-color", TG_OPT_FLAG, NULL, "accepted (never coloured)"},
        {"no-intersection", TG_OPT_FLAG, NULL,
         "CTF: every event, not only the streams' intersection"},
        {0},
    },
};

bool la_filter_proc(const la_conf *c, const la_proc *p)
{
    if (!p)
        return true;
    if (c->n_procs) {
        bool in = false;
        for (size_t i = 0; i < c->n_procs && !in; i++)
            in = strcmp(c->procs[i], p->comm) == 0;
        if (!in)
            return false;
    }
    if (c->n_tids) {
        bool in = false;
        for (size_t i = 0; i < c->n_tids && !in; i++)
            in = c->tids[i] == p->tid;
        if (!in)
            return false;
    }
    return true;
}

bool la_filter_cpu(const la_conf *c, int64_t cpu)
{
    if (!c->n_cpus)
        return true;
    for (size_t i = 0; i < c->n_cpus; i++)
        if (c->cpus[i] == cpu)
            return true;
    return false;
}

/* "a,b,c" into a list of copies */
static int split_list(const char *s, char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!s)
        return 0;
    size_t cap = 0;
    for (const char *p = s;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        TG_TRY(tg_grow(out, &cap, *n + 1, sizeof **out));
        char *item = strndup(p, len);
        if (!item)
            return TG_ERR_NOMEM;
        (*out)[(*n)++] = item;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

static int int_list(const char *opt, const char *s, int64_t **out, size_t *n, tg_error **err)
{
    char **items;
    size_t count;
    TG_TRY(split_list(s, &items, &count));
    *out = count ? calloc(count, sizeof **out) : NULL;
    *n = count;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        char *end;
        (*out)[i] = strtoll(items[i], &end, 10);
        if (end == items[i] || *end)
            rc = tg_err(err, TG_ERR_USAGE, "--%s: invalid literal for int() with base 10: '%s'",
                        opt, items[i]);
    }
    free_list(items, count);
    return rc;
}

/* ---- dates as lttng-analyses' parse_utils reads them ---- */

static bool digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* date (the trace's first day when the text gives only a time of day) -> ns since epoch */
static int parse_date(const char *s, int64_t day_ns, bool gmt, int64_t *out)
{
    int Y = 0, M = 0, D = 0, h, m, sec;
    long nsec = 0;
    size_t len = strlen(s);
    const char *t = s;
    bool full =
        len >= 19 && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 'T' || s[10] == 't');
    if (full) {
        if (!digits(s, 4) || !digits(s + 5, 2) || !digits(s + 8, 2))
            return -1;
        Y = atoi(s);
        M = atoi(s + 5);
        D = atoi(s + 8);
        t = s + 11;
    } else if (digits(s, len) && len) {
        *out = strtoll(s, NULL, 10);
        return 0;
    }
    size_t tl = strlen(t);
    if (!(tl == 8 || (tl == 18 && t[8] == '.' && digits(t + 9, 9))) || t[2] != ':' || t[5] != ':' ||
        !digits(t, 2) || !digits(t + 3, 2) || !digits(t + 6, 2))
        return -1;
    h = atoi(t);
    m = atoi(t + 3);
    sec = atoi(t + 6);
    if (tl == 18)
        nsec = atol(t + 9);
    if (!full) { /* the trace's (local) date */
        time_t d = (time_t)(day_ns / 1000000000);
        struct tm tm;
        localtime_r(&d, &tm);
        Y = tm.tm_year + 1900;
        M = tm.tm_mon + 1;
        D = tm.tm_mday;
    }
    struct tm tm = {.tm_year = Y - 1900,
                    .tm_mon = M - 1,
                    .tm_mday = D,
                    .tm_hour = h,
                    .tm_min = m,
                    .tm_sec = sec,
                    .tm_isdst = -1};
    time_t epoch = gmt ? timegm(&tm) : mktime(&tm);
    *out = (int64_t)epoch * 1000000000 + nsec;
    return 0;
}

static int read_conf(la_conf *c, const tg_options *opts, int64_t first_ns, tg_error **err)
{
    const char *v;
    c->begin = c->end = LA_NONE;
    c->gmt = tg_options_flag(opts, "gmt");
    v = tg_options_get(opts, "format");
    c->json = v && strcmp(v, "json") == 0;
    c->limit = (v = tg_options_get(opts, "limit")) ? atol(v) : 10;
    c->freq_resolution = (v = tg_options_get(opts, "freq-resolution")) ? atol(v) : 20;
    c->stats |= tg_options_flag(opts, "stats");
    c->log |= tg_options_flag(opts, "log");
    c->freq |= tg_options_flag(opts, "freq");
    c->top |= tg_options_flag(opts, "top-results");
    c->usage |= tg_options_flag(opts, "usage");
    c->total = tg_options_flag(opts, "total");
    c->per_tid = tg_options_flag(opts, "per-tid");
    c->per_prio = tg_options_flag(opts, "per-prio");
    c->freq_series = tg_options_flag(opts, "freq-series");
    c->freq_uniform = tg_options_flag(opts, "freq-uniform") || c->freq_series;
    if (!(c->total || c->per_prio))
        c->per_tid = true;
    for (int k = 0; k < 2; k++) { /* --minsize, --maxsize: bytes */
        const char *name = k ? "maxsize" : "minsize";
        if (!(v = tg_options_get(opts, name)))
            continue;
        char *end;
        double x = strtod(v, &end);
        if (end == v || *end)
            return tg_err(err, TG_ERR_USAGE, "argument --%s: invalid float value: '%s'", name, v);
        *(k ? &c->has_maxsize : &c->has_minsize) = true;
        *(k ? &c->maxsize : &c->minsize) = x;
    }
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "max" : "min";
        if (!(v = tg_options_get(opts, name)))
            continue;
        char *end;
        double x = strtod(v, &end);
        if (end == v || *end)
            return tg_err(err, TG_ERR_USAGE, "argument --%s: invalid float value: '%s'", name, v);
        if (k) {
            c->has_max = true;
            c->max = x * 1000;
        } else {
            c->has_min = true;
            c->min = x * 1000;
        }
    }
    TG_TRY(int_list("cpu", tg_options_get(opts, "cpu"), &c->cpus, &c->n_cpus, err));
    TG_TRY(int_list("tid", tg_options_get(opts, "tid"), &c->tids, &c->n_tids, err));
    TG_TRY(split_list(tg_options_get(opts, "procname"), &c->procs, &c->n_procs));
    TG_TRY(split_list(tg_options_get(opts, "irq"), &c->irqs, &c->n_irqs));
    TG_TRY(split_list(tg_options_get(opts, "softirq"), &c->softirqs, &c->n_softirqs));
    const char *range = tg_options_get(opts, "timerange");
    if (range) {
        size_t n = strlen(range);
        const char *comma = strchr(range, ',');
        if (n < 3 || range[0] != '[' || range[n - 1] != ']' || !comma)
            return tg_err(err, TG_ERR_USAGE, "Invalid time range format: %s", range);
        char b[64] = "", e[64] = "";
        snprintf(b, sizeof b, "%.*s", (int)(comma - range - 1), range + 1);
        snprintf(e, sizeof e, "%.*s", (int)(range + n - 1 - comma - 1), comma + 1);
        char *bs = b, *es = e;
        while (*bs == ' ')
            bs++;
        while (*es == ' ')
            es++;
        for (size_t k = strlen(bs); k && bs[k - 1] == ' ';)
            bs[--k] = 0;
        for (size_t k = strlen(es); k && es[k - 1] == ' ';)
            es[--k] = 0;
        if (parse_date(bs, first_ns, c->gmt, &c->begin) < 0)
            return tg_err(err, TG_ERR_USAGE, "Unrecognised date format: %s", bs);
        if (parse_date(es, first_ns, c->gmt, &c->end) < 0)
            return tg_err(err, TG_ERR_USAGE, "Unrecognised date format: %s", es);
        return 0;
    }
    if ((v = tg_options_get(opts, "begin")) && parse_date(v, first_ns, c->gmt, &c->begin) < 0)
        return tg_err(err, TG_ERR_USAGE, "Unrecognised date format: %s", v);
    if ((v = tg_options_get(opts, "end"))) {
        if (parse_date(v, first_ns, c->gmt, &c->end) < 0)
            return tg_err(err, TG_ERR_USAGE, "Unrecognised date format: %s", v);
        if (first_ns != LA_NONE && c->end < first_ns)
            return tg_err(err, TG_ERR_USAGE, "--end timestamp before beginning of trace");
    }
    return 0;
}

static void free_conf(la_conf *c)
{
    free(c->cpus);
    free(c->tids);
    free_list(c->procs, c->n_procs);
    free_list(c->irqs, c->n_irqs);
    free_list(c->softirqs, c->n_softirqs);
}

static int open_period(la_run *r, int64_t ts)
{
    r->period_begin = ts;
    TG_TRY(r->kind->begin(r));
    r->st.hooked = true;
    return 0;
}

/* LTTng 0.x's sys_call_table statedump names the calls recorded by number, also those before
 * it (as late as 90 ms into a trace): read first, alone, so that every analysis (the I/O
 * ones class a call by its name when it begins) knows each call by name from the start. */
static int read_call_tables(la_state *st, tg_set *set, tg_error **err)
{
    bool has = false;
    for (size_t i = 0; i < tg_set_trace_count(set) && !has; i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_class_count(t) && !has; k++)
            has = strcmp(tg_trace_class(t, k)->name, "sys_call_table") == 0;
    }
    if (!has)
        return 0;
    tg_filter *f = tg_filter_new();
    if (!f)
        return TG_ERR_NOMEM;
    int rc = tg_filter_set_events(f, "sys_call_table", err);
    tg_iter *it = rc == 0 ? tg_iter_new(set, f, err) : NULL;
    const tg_event *ev;
    if (rc == 0 && !it)
        rc = err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    while (rc == 0 && (rc = tg_iter_next(it, &ev)) > 0)
        rc = la_state_event(st, ev);
    tg_iter_free(it);
    tg_filter_free(f);
    return rc < 0 ? rc : 0;
}

/* The options are read at the first event, whose day a time of day given alone means. */
static int run_events(la_run *r, tg_set *set, const tg_options *opts, tg_error **err)
{
    TG_TRY(read_call_tables(&r->st, set, err));
    tg_iter *it = tg_iter_new(set, NULL, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    la_intersect x;
    if (tg_options_flag(opts, "no-intersection"))
        x = (la_intersect){.on = false};
    else
        la_intersect_start(&x, set, it);
    /* each event's thread, from the kernel model: fed here with the intersection's events
     * only (lttng-analyses' state knows nothing of the others), else by the iterator */
    tg_kmodel *model = NULL;
    tg_kcursor *cursor = NULL;
    if (r->kind->threads &&
        (x.on ? !(model = tg_kmodel_new(set)) || !(cursor = tg_kcursor_new(model))
              : !tg_iter_kernel_model(it))) {
        tg_kmodel_free(model);
        tg_iter_free(it);
        la_intersect_free(&x);
        return TG_ERR_NOMEM;
    }
    const tg_event *ev;
    bool first = true;
    int rc = 0, got;
    while ((got = tg_iter_next(it, &ev)) > 0) {
        /* perf's side-band records (its task list at time 0, mmaps) are no kernel events */
        if (ev->cls && strncmp(ev->cls->name, "PERF_RECORD_", 12) == 0)
            continue;
        if (__builtin_expect(x.on, 0)) {
            int in = la_intersect_event(&x, ev, err);
            if (in == 0)
                continue;
            if (in != 1) { /* past its end, or none */
                rc = in < 0 ? in : 0;
                break;
            }
            /* the iterator's own read-ahead copy, which the model completes in place */
            if (cursor && (rc = tg_kcursor_feed(cursor, (tg_event *)ev, ev->ts, NULL)) < 0)
                break;
        }
        if (first && (rc = read_conf(&r->conf, opts, ev->ts, err)) < 0)
            break;
        if (first && r->conf.begin == LA_NONE && (rc = open_period(r, ev->ts)) < 0)
            break;
        first = false;
        if (r->conf.end != LA_NONE && ev->ts > r->conf.end) {
            r->ended = true;
            break;
        }
        if (r->first_ts == LA_NONE)
            r->first_ts = ev->ts;
        r->last_ts = ev->ts;
        if (!r->started && r->conf.begin != LA_NONE && ev->ts >= r->conf.begin &&
            (rc = open_period(r, ev->ts)) < 0)
            break;
        r->started = r->period_begin != LA_NONE;
        if ((rc = la_state_event(&r->st, ev)) < 0)
            break;
        if (r->kind->event && (rc = r->kind->event(r, ev)) < 0)
            break;
    }
    if (got < 0 && rc == 0)
        rc = got;
    if (first && rc == 0)
        rc = read_conf(&r->conf, opts, LA_NONE, err);
    la_intersect_free(&x);
    tg_kcursor_free(cursor);
    tg_kmodel_free(model);
    tg_iter_free(it);
    return rc;
}

/* A trace lttng-analyses cannot read (trace.dat, perf.data, LTTng 0.x) without the events the
 * analysis needs, under any tracer's name: lttng-analyses' message for a missing event, and
 * no result.  (On LTTng's CTF, lttng-analyses prints its empty tables: so does this.) */
static int check_needs(tg_set *set, const la_run *r, tg_error **err)
{
    bool ctf = true;
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const char *format = tg_trace_format(tg_set_trace(set, i));
        ctf = ctf && format && strcmp(format, "ctf") == 0;
    }
    const char *const *needs = r->kind->needs;
    if (ctf || !needs || !needs[0])
        return 0;
    for (size_t i = 0; needs[i]; i++)
        if (la_state_saw(&r->st, needs[i]))
            return 0;
    return tg_err(err, TG_ERR_UNSUPPORTED, "Event %s not found in the trace", needs[0]);
}

static int analyze(tg_set *set, const la_kind *kind, const tg_options *opts, tg_buf *out,
                   tg_error **err)
{
    la_run r = {.kind = kind, .first_ts = LA_NONE, .last_ts = LA_NONE, .period_begin = LA_NONE};
    if (kind->preset)
        kind->preset(&r.conf);
    int rc = la_state_init(&r.st, set);
    const char *format = tg_options_get(opts, "format");
    r.conf.json = format && strcmp(format, "json") == 0;
    if (rc == 0 && r.conf.json && !(r.results = json_object_new_array()))
        rc = TG_ERR_NOMEM;
    if (rc == 0)
        rc = run_events(&r, set, opts, err);
    if (rc == 0)
        rc = check_needs(set, &r, err);
    if (rc == 0 && r.period_begin != LA_NONE) {
        time_t a = (time_t)(r.first_ts / 1000000000), b = (time_t)(r.last_ts / 1000000000);
        struct tm ta, tb;
        localtime_r(&a, &ta);
        localtime_r(&b, &tb);
        r.conf.multi_day = ta.tm_year != tb.tm_year || ta.tm_yday != tb.tm_yday;
        rc = kind->end(&r, out);
    }
    if (rc == 0 && r.conf.json) {
        json_object *doc = json_object_new_object();
        json_object_object_add(doc, "results", json_object_get(r.results));
        const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_SPACED);
        tg_buf_puts(out, text);
        tg_buf_putc(out, '\n');
        json_object_put(doc);
    }
    if (rc == TG_ERR_UNSUPPORTED && r.conf.json && err && *err) {
        /* a trace the analysis cannot run on (no stream intersection, missing events): LAMI's
         * error object, as lttng-NAME-mi prints it on stdout */
        json_object *doc = json_object_new_object();
        char text[512];
        snprintf(text, sizeof text, "Error: %s", tg_error_message(*err));
        json_object_object_add(doc, "error-message", json_object_new_string(text));
        tg_buf_puts(out, json_object_to_json_string_ext(doc, JSON_C_TO_STRING_SPACED));
        tg_buf_putc(out, '\n');
        json_object_put(doc);
    }
    if (r.ctx && kind->free)
        kind->free(&r);
    json_object_put(r.results);
    la_state_free(&r.st);
    free_conf(&r.conf);
    if (rc == TG_ERR_NOMEM && err && !*err)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc;
}

int tg_analyze(tg_set *set, const char *name, const tg_options *opts, tg_buf *out, tg_error **err)
{
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "analyze", NULL, NULL, err));
    for (size_t i = 0; kinds[i]; i++)
        if (name && strcmp(kinds[i]->name, name) == 0)
            return analyze(set, kinds[i], opts, out, err);
    char known[256] = "";
    size_t n = 0;
    for (size_t i = 0; kinds[i] && n < sizeof known; i++)
        n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "", kinds[i]->name);
    return tg_err(err, TG_ERR_USAGE, "unknown analysis '%s' (known: %s)", name ? name : "", known);
}

const char *tg_analysis_name(size_t i)
{
    for (size_t k = 0; kinds[k]; k++)
        if (k == i)
            return kinds[k]->name;
    return NULL;
}
