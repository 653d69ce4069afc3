/* callstack_filter.c - uftrace's filters (see callstack_filter.h): options, function name
 * patterns, the first pass of the time and caller filters, and fstack_entry/_exit.
 *
 * The first pass replays, per thread, what uftrace's task reader does with its list of
 * records held back (get_task_ustack): an entry waits; at an exit, the function since its
 * entry is dropped with everything after it when it ran under the time filter (or is no
 * -C function), else every record waiting is kept; a lost record or a user event keeps
 * what waits, and so does the end of the thread.  "Records of the list" are those uftrace
 * reads from a thread's own data: user function entries and exits, and the lost records and
 * events of a thread's stream; perf and kernel records pass by.  The decisions are a bit
 * per list record, numbered per thread in the merged order, which the second pass sees in
 * the same order. */
#include "analysis/callstack_filter.h"
#include "core/cursor.h"
#include "core/error_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { PAT_SIMPLE, PAT_REGEX, PAT_GLOB };

struct uf_pattern {
    char *text;
    uint8_t type;  /* PAT_* */
    uint8_t trig;  /* UF_TRIG_IN, _OUT or _CALLER */
    bool matched;  /* names a function of the trace's symbols */
    bool compiled; /* re holds a compiled regex */
    regex_t re;
};

/* A record waiting in a thread's list (first pass). */
struct uf_wait {
    uint64_t ord;
    int64_t time;
    bool entry;
};

struct uf_keep {
    int tid;
    uint64_t *bits; /* kept records, by ordinal */
    size_t n_words;
    uint64_t n_seen, pos; /* ordinals given out in the first / second pass */
    struct uf_wait *wait;
    size_t n_wait, cap_wait;
};

/* ---- options ----------------------------------------------------------------------------- */

static int add_patterns(uf_filter *f, const char *spec, uint8_t trig, bool glob, tg_error **err)
{
    for (const char *s = spec; s && *s;) {
        size_t n = strcspn(s, ";\n");
        const char *p = s;
        size_t len = n;
        uint8_t tr = trig;
        if (len && *p == '!' && trig != UF_TRIG_CALLER) { /* "!FUNC" is -N FUNC */
            tr = UF_TRIG_OUT;
            p++;
            len--;
        }
        const char *at = memchr(p, '@', len); /* FUNC@module/actions: the function part */
        if (at)
            len = (size_t)(at - p);
        s += n;
        if (*s)
            s++;
        if (!len)
            continue;
        if (tg_grow(&f->pats, &f->cap_pats, f->n_pats + 1, sizeof *f->pats) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        struct uf_pattern *pt = &f->pats[f->n_pats];
        memset(pt, 0, sizeof *pt);
        if (!(pt->text = strndup(p, len)))
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        f->n_pats++;
        pt->trig = tr;
        pt->type = PAT_SIMPLE;
        if (strpbrk(pt->text, ".?*+-^$|()[]{}") && strncmp(pt->text, "operator ", 9) != 0) {
            if (glob) {
                pt->type = PAT_GLOB;
            } else if (regcomp(&pt->re, pt->text, REG_NOSUB | REG_EXTENDED) == 0) {
                pt->type = PAT_REGEX;
                pt->compiled = true;
            }
        }
        f->by_name = true;
        if (tr == UF_TRIG_IN)
            f->mode_in = true;
    }
    return 0;
}

/* uftrace's parse_time(arg, 3): a number (at most 3 digits before the point) with a unit
 * (ns, us, ms, s, m; nsec, usec, msec, sec, min), ns without one. */
static int parse_duration(const char *arg, uint64_t *out)
{
    char *unit;
    errno = 0;
    uint64_t val = strtoull(arg, &unit, 10), decimal = 0;
    int places = 0;
    if (unit == arg)
        return -1;
    if (*unit == '.') {
        const char *d = unit + 1;
        while (*d == '0') {
            places++;
            d++;
        }
        decimal = strtoull(d, &unit, 10);
    }
    if (val >= 1000)
        return -1; /* uftrace: "Limited 3 digits" */
    while (decimal >= 1000)
        decimal /= 10;
    int exp;
    if (!*unit || !strcasecmp(unit, "ns") || !strcasecmp(unit, "nsec"))
        exp = 0;
    else if (!strcasecmp(unit, "us") || !strcasecmp(unit, "usec"))
        exp = 3;
    else if (!strcasecmp(unit, "ms") || !strcasecmp(unit, "msec"))
        exp = 6;
    else if (!strcasecmp(unit, "s") || !strcasecmp(unit, "sec"))
        exp = 9;
    else if (!strcasecmp(unit, "m") || !strcasecmp(unit, "min"))
        exp = -1;
    else
        return -1;
    if (exp == 0) {
        *out = val;
        return 0;
    }
    if (exp < 0) { /* minutes: the decimals are tenths, hundredths, ... of a minute */
        uint64_t ns = val * 60 * 1000000000ull;
        int digits = 0;
        for (uint64_t d = decimal; d; d /= 10)
            digits++;
        places += digits ? digits : 1;
        decimal *= 6;
        static const uint64_t scale[] = {0, 1000000000ull, 100000000ull, 10000000ull, 1000000ull};
        if (decimal && places <= 4)
            ns += decimal * scale[places];
        *out = ns;
        return 0;
    }
    for (int i = 0; i < exp; i++)
        val *= 10;
    if (decimal) {
        int digits = 0;
        for (uint64_t d = decimal; d; d /= 10)
            digits++;
        for (int i = places + digits; i < exp; i++)
            decimal *= 10;
        val += decimal;
    }
    *out = val;
    return 0;
}

/* uftrace's parse_timestamp: SECONDS[.FRACTION] as nanoseconds. */
static uint64_t parse_timestamp(const char *arg)
{
    char *sep;
    uint64_t ts = strtoull(arg, &sep, 10) * 1000000000ull;
    if (*sep == '.') {
        const char *p = sep + 1;
        uint64_t frac = strtoull(p, &sep, 10);
        int len = 0;
        while (isdigit((unsigned char)p[len]))
            len++;
        for (; len < 9; len++)
            frac *= 10;
        for (; len > 9; len--)
            frac /= 10;
        ts += frac;
    }
    return ts;
}

static int parse_range_end(const char *s, size_t n, uint64_t *out, bool *elapsed)
{
    char buf[64];
    *out = 0;
    *elapsed = false;
    if (n == 0)
        return 0;
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (isalpha((unsigned char)buf[n - 1])) {
        *elapsed = true;
        return parse_duration(buf, out);
    }
    if (!isdigit((unsigned char)buf[0]))
        return -1;
    *out = parse_timestamp(buf);
    return 0;
}

int uf_filter_setup(uf_filter *f, const tg_options *opts, tg_error **err)
{
    memset(f, 0, sizeof *f);
    f->depth = INT_MAX;
    const char *match = tg_options_get(opts, "match");
    if (match && strcmp(match, "regex") != 0 && strcmp(match, "glob") != 0)
        return tg_err(err, TG_ERR_USAGE, "invalid match pattern: %s (regex or glob)", match);
    bool glob = match && !strcmp(match, "glob");
    int rc;
    if ((rc = add_patterns(f, tg_options_get(opts, "filter"), UF_TRIG_IN, glob, err)) < 0 ||
        (rc = add_patterns(f, tg_options_get(opts, "notrace"), UF_TRIG_OUT, glob, err)) < 0 ||
        (rc = add_patterns(f, tg_options_get(opts, "caller-filter"), UF_TRIG_CALLER, glob, err)) <
            0)
        return rc;
    for (size_t i = 0; i < f->n_pats; i++)
        f->caller |= f->pats[i].trig == UF_TRIG_CALLER;
    f->no_sched = f->caller; /* "displaying sched event with it is annoying" */
    const char *depth = tg_options_get(opts, "depth");
    if (depth) {
        char *e;
        long d = strtol(depth, &e, 0);
        if (e == depth || *e || d <= 0 || d >= 1024)
            return tg_err(err, TG_ERR_USAGE, "invalid depth given: %s", depth);
        f->depth = (int)d;
    }
    const char *tf = tg_options_get(opts, "time-filter");
    if (tf && parse_duration(tf, &f->time_filter) < 0)
        return tg_err(err, TG_ERR_USAGE,
                      "invalid time given: %s (at most 3 digits before the point, units ns, "
                      "us, ms, s, m)",
                      tf);
    const char *range = tg_options_get(opts, "time-range");
    if (range) {
        const char *tilde = strchr(range, '~');
        if (tf)
            return tg_err(err, TG_ERR_USAGE, "--time-range cannot be used with --time-filter");
        if (!tilde ||
            parse_range_end(range, (size_t)(tilde - range), &f->range.start,
                            &f->range.start_elapsed) < 0 ||
            parse_range_end(tilde + 1, strlen(tilde + 1), &f->range.stop, &f->range.stop_elapsed) <
                0)
            return tg_err(err, TG_ERR_USAGE,
                          "invalid time range: %s (START~STOP, each a timestamp or an elapsed "
                          "time with a unit, either may be left out)",
                          range);
        f->range.set = f->range.start || f->range.stop;
    }
    f->no_libcall = tg_options_flag(opts, "no-libcall");
    f->prepass = f->time_filter > 0 || f->caller;
    f->on = f->by_name || f->depth != INT_MAX || f->prepass || f->range.set || f->no_libcall;
    return 0;
}

/* Drops the filter's function patterns (their room stays for reuse). */
static void drop_patterns(uf_filter *f)
{
    for (size_t i = 0; i < f->n_pats; i++) {
        free(f->pats[i].text);
        if (f->pats[i].compiled)
            regfree(&f->pats[i].re);
    }
    f->n_pats = 0;
}

void uf_filter_free(uf_filter *f)
{
    drop_patterns(f);
    free(f->pats);
    for (size_t i = 0; i < f->n_keep; i++) {
        free(f->keep[i].bits);
        free(f->keep[i].wait);
    }
    free(f->keep);
    tg_hash_free(&f->keep_by_tid);
    memset(f, 0, sizeof *f);
}

/* ---- names ------------------------------------------------------------------------------- */

static bool pattern_matches(const struct uf_pattern *p, const char *name)
{
    switch (p->type) {
    case PAT_REGEX: return regexec(&p->re, name, 0, NULL, 0) == 0;
    case PAT_GLOB: return fnmatch(p->text, name, 0) == 0;
    default: return strcmp(p->text, name) == 0;
    }
}

uint8_t uf_filter_match(uf_filter *f, const char *name)
{
    if (!name || !f->by_name)
        return 0;
    size_t h = ((uintptr_t)name >> 3) & 1023;
    if (f->cache[h].set && f->cache[h].name == name)
        return f->cache[h].flags;
    uint8_t flags = 0;
    for (size_t i = 0; i < f->n_pats; i++) {
        struct uf_pattern *p = &f->pats[i];
        if (!pattern_matches(p, name))
            continue;
        if (p->trig == UF_TRIG_CALLER)
            flags |= UF_TRIG_CALLER;
        else /* the last of -F and -N matching decides */
            flags = (uint8_t)((flags & UF_TRIG_CALLER) | p->trig);
    }
    f->cache[h].name = name;
    f->cache[h].flags = flags;
    f->cache[h].set = true;
    return flags;
}

bool uf_filter_is_libcall(const tg_event *ev)
{
    tg_func_symbol sym;
    return tg_event_func_symbol(ev, &sym) && (sym.flags & TG_FUNC_PLT);
}

int uf_filter_bind(uf_filter *f, tg_set *set, tg_error **err)
{
    if (!f->by_name)
        return 0;
    bool listed = false;
    for (size_t ti = 0; ti < tg_set_trace_count(set); ti++) {
        tg_func_symbol sym;
        for (size_t i = 0; tg_trace_func_symbol(tg_set_trace(set, ti), i, &sym); i++) {
            listed = true;
            for (size_t k = 0; sym.name && k < f->n_pats; k++)
                if (!f->pats[k].matched && pattern_matches(&f->pats[k], sym.name))
                    f->pats[k].matched = true;
        }
    }
    if (!listed) /* names of no table (LTTng-UST's from the ELF files): taken as they come */
        return 0;
    /* as uftrace: a pattern naming no function is left out; the filters (-F, -N) fail
     * together when none names one, and so do the caller filters */
    bool any[2] = {false, false}, given[2] = {false, false};
    for (size_t i = 0; i < f->n_pats; i++) {
        int k = f->pats[i].trig == UF_TRIG_CALLER;
        given[k] = true;
        any[k] |= f->pats[i].matched;
    }
    for (int k = 0; k < 2 && !f->lenient; k++) {
        if (!given[k] || any[k])
            continue;
        tg_buf *b = tg_buf_new();
        if (!b)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < f->n_pats; i++)
            if ((f->pats[i].trig == UF_TRIG_CALLER) == (k == 1))
                tg_buf_printf(b, "%s%s", tg_buf_len(b) ? ";" : "", f->pats[i].text);
        int rc = tg_err(err, TG_ERR_USAGE,
                        "failed to set filter or trigger: %s (no function "
                        "of the trace matches)",
                        tg_buf_data(b));
        tg_buf_free(b);
        return rc;
    }
    size_t n = 0;
    f->mode_in = false;
    for (size_t i = 0; i < f->n_pats; i++) {
        if (!f->pats[i].matched) {
            free(f->pats[i].text);
            if (f->pats[i].compiled)
                regfree(&f->pats[i].re);
            continue;
        }
        f->pats[n] = f->pats[i];
        f->mode_in |= f->pats[n].trig == UF_TRIG_IN;
        n++;
    }
    f->n_pats = n;
    return 0;
}

/* ---- the time range and the first pass --------------------------------------------------- */

/* Whether a record is one of uftrace's task reader's list (see the file comment); under a
 * time filter uftrace also reads a thread's context switches into its list. */
static bool is_list_record(const uf_filter *f, const tg_event *ev)
{
    tg_event_kind k = ev->cls->kind;
    if (k == TG_KIND_FUNC_ENTRY || k == TG_KIND_FUNC_EXIT || k == TG_KIND_FUNC_TAIL_EXIT)
        return ev->cls->kernel || ev->tid >= 0;
    if (ev->tid < 0)
        return false;
    if (f->time_filter && uf_kind_is_sched(k))
        return true;
    if (!ev->stream || tg_stream_tid(ev->stream) < 0)
        return false;
    return !uf_kind_is_perf(k);
}

static bool in_range(const uf_filter *f, const tg_event *ev)
{
    uint64_t ts = (uint64_t)ev->ts;
    if (f->range.start) {
        uint64_t start = f->range.start + (f->range.start_elapsed ? f->range.first : 0);
        if (start > ts)
            return false;
    }
    if (f->range.stop) {
        uint64_t stop = f->range.stop + (f->range.stop_elapsed ? f->range.first : 0);
        if (stop < ts)
            return false;
    }
    return true;
}

/* Is tid one of the list "N[,N...]" (the tid option)? */
static bool tid_listed(const char *list, int tid)
{
    for (const char *s = list; s && *s;) {
        char *e;
        long v = strtol(s, &e, 10);
        if (e == s)
            return false;
        if (v == tid)
            return true;
        s = e + (*e == ',' || *e == ';' || *e == '\n');
    }
    return false;
}

int uf_first_time(const tg_iter *it, const tg_options *opts, int mode, int64_t *first,
                  tg_error **err)
{
    tg_set *twin = NULL;
    tg_iter *copy = tg_iter_twin(it, &twin, err);
    if (!copy)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    uf_state st;
    int rc = uf_state_init(&st);
    const tg_event *ev;
    /* uftrace's rule as the replay consumes the records (uf_consume), or with -t, whose
     * reader takes in every perf record first, the first record of all */
    while (mode != UF_FIRST_THREAD && rc >= 0 && (rc = tg_iter_next(copy, &ev)) > 0) {
        if (mode == UF_FIRST_ANY) {
            st.first_time = ev->ts;
            break;
        }
        uf_rec r;
        if (!uf_rec_from_event(ev, &r))
            continue;
        uf_task *t = uf_task_get(&st, r.tid, r.pid);
        if (!t) {
            rc = TG_ERR_NOMEM;
            break;
        }
        uf_consume(&st, t, &r);
        if (st.first_time != -1)
            break;
    }
    *first = st.first_time == -1 ? 0 : st.first_time;
    uf_state_free(&st);
    tg_iter_free(copy);
    /* threads left out by --tid still count, by their first record; with a start of the
     * time range, every thread's first record is what counts */
    const char *tids = tg_options_get(opts, "tid");
    for (size_t ti = 0;
         (tids || mode == UF_FIRST_THREAD) && rc >= 0 && ti < tg_set_trace_count(twin); ti++) {
        tg_trace *tr = tg_set_trace(twin, ti);
        for (size_t si = 0; si < tg_trace_stream_count(tr); si++) {
            tg_stream *s = tg_trace_stream(tr, si);
            if (tg_stream_tid(s) < 0 ||
                (mode != UF_FIRST_THREAD && tid_listed(tids, tg_stream_tid(s))))
                continue;
            tg_stream_iter *sit = tg_stream_iter_new(s);
            if (sit && tg_stream_iter_next(sit, &ev, NULL) > 0 &&
                (!*first || (uint64_t)ev->ts < (uint64_t)*first))
                *first = ev->ts;
            tg_stream_iter_free(sit);
            if (mode == UF_FIRST_THREAD && *first) /* the first thread uftrace reads */
                break;
        }
    }
    tg_close(twin);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc < 0 ? rc : 0;
}

static struct uf_keep *keep_of(uf_filter *f, int tid)
{
    uint64_t *slot;
    int added = tg_hash_insert(&f->keep_by_tid, (uint32_t)tid, &slot);
    if (added < 0)
        return NULL;
    if (added) {
        if (tg_grow(&f->keep, &f->cap_keep, f->n_keep + 1, sizeof *f->keep) < 0) {
            tg_hash_remove(&f->keep_by_tid, (uint32_t)tid);
            return NULL;
        }
        memset(&f->keep[f->n_keep], 0, sizeof *f->keep);
        f->keep[f->n_keep].tid = tid;
        *slot = f->n_keep++;
    }
    return &f->keep[*slot];
}

static int set_kept(struct uf_keep *k, uint64_t ord)
{
    size_t w = (size_t)(ord / 64);
    if (w >= k->n_words) {
        size_t old = k->n_words;
        if (tg_grow(&k->bits, &k->n_words, w + 1, sizeof *k->bits) < 0)
            return TG_ERR_NOMEM;
        memset(k->bits + old, 0, (k->n_words - old) * sizeof *k->bits);
    }
    k->bits[w] |= 1ull << (ord % 64);
    return 0;
}

static int keep_waiting(struct uf_keep *k)
{
    for (size_t i = 0; i < k->n_wait; i++)
        if (set_kept(k, k->wait[i].ord) < 0)
            return TG_ERR_NOMEM;
    k->n_wait = 0;
    return 0;
}

/* The list a record waits in: its thread's, or for kernel functions its cpu's (uftrace's
 * kernel reader holds them per cpu). */
static int list_key(const tg_event *ev)
{
    return ev->cls->kernel ? -2 - (ev->cpu < 0 ? 0 : ev->cpu) : ev->tid;
}

static int decide(uf_filter *f, const tg_event *ev)
{
    struct uf_keep *k = keep_of(f, list_key(ev));
    if (!k)
        return TG_ERR_NOMEM;
    uint64_t ord = k->n_seen++;
    tg_event_kind kind = ev->cls->kind;
    /* a context switch is the virtual function linux:schedule: sched-out its entry */
    if (kind == TG_KIND_FUNC_EXIT || kind == TG_KIND_FUNC_TAIL_EXIT || kind == TG_KIND_SCHED_IN) {
        size_t i = k->n_wait;
        while (i > 0 && !k->wait[i - 1].entry)
            i--;
        if (i == 0) /* its entry was already decided: shown */
            return keep_waiting(k) < 0 || set_kept(k, ord) < 0 ? TG_ERR_NOMEM : 0;
        uint64_t delta = (uint64_t)ev->ts - (uint64_t)k->wait[i - 1].time;
        bool dropped = delta < f->time_filter;
        if (f->caller)
            dropped |=
                ev->cls->kernel || !(uf_filter_match(f, tg_event_func_name(ev)) & UF_TRIG_CALLER);
        if (dropped) { /* the function and everything after its entry */
            k->n_wait = i - 1;
            return 0;
        }
        return keep_waiting(k) < 0 || set_kept(k, ord) < 0 ? TG_ERR_NOMEM : 0;
    }
    if (tg_grow(&k->wait, &k->cap_wait, k->n_wait + 1, sizeof *k->wait) < 0)
        return TG_ERR_NOMEM;
    bool entry = kind == TG_KIND_FUNC_ENTRY || kind == TG_KIND_SCHED_OUT ||
                 kind == TG_KIND_SCHED_OUT_PREEMPTED;
    k->wait[k->n_wait++] = (struct uf_wait){ord, ev->ts, entry};
    /* lost records and user events (uftrace's ids from 1000000) are not held back */
    if (kind == TG_KIND_LOST || (kind == TG_KIND_GENERIC && ev->cls->id >= 1000000))
        return keep_waiting(k);
    return 0;
}

int uf_filter_prepass(uf_filter *f, const tg_iter *main, const tg_options *opts, tg_error **err)
{
    int rc;
    if (f->range.set && (f->range.start_elapsed || f->range.stop_elapsed)) {
        int64_t first;
        if ((rc = uf_first_time(main, opts, f->range.start ? UF_FIRST_THREAD : UF_FIRST_RULE,
                                &first, err)) < 0)
            return rc;
        f->range.first = (uint64_t)first;
    }
    if (!f->prepass)
        return 0;
    tg_set *twin = NULL;
    tg_iter *it = tg_iter_twin(main, &twin, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if (f->range.set && !in_range(f, ev))
            continue;
        if (is_list_record(f, ev) && (rc = decide(f, ev)) < 0)
            break;
    }
    tg_iter_free(it);
    tg_close(twin);
    for (size_t i = 0; rc >= 0 && i < f->n_keep; i++)
        if (keep_waiting(&f->keep[i]) < 0)
            rc = TG_ERR_NOMEM;
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc < 0 ? rc : 0;
}

bool uf_filter_keep(uf_filter *f, const tg_event *ev)
{
    if (f->range.set && !in_range(f, ev))
        return false;
    if (!f->prepass || !is_list_record(f, ev))
        return true;
    const uint64_t *slot = tg_hash_find(&f->keep_by_tid, (uint32_t)list_key(ev));
    if (!slot)
        return true;
    struct uf_keep *k = &f->keep[*slot];
    uint64_t ord = k->pos++;
    size_t w = (size_t)(ord / 64);
    return w < k->n_words && (k->bits[w] >> (ord % 64) & 1);
}

/* ---- fstack_entry, fstack_exit, fstack_check_skip ---------------------------------------- */

bool uf_filter_entry(uf_state *st, uf_filter *f, uf_task *t, const uf_rec *r)
{
    uf_filter_task_init(f, t);
    uf_frame *fr = uf_frame_at(st, t, t->stack_count - 1);
    if (!fr) {
        t->entry_flags = 0;
        return false;
    }
    fr->orig_depth = t->filter_depth;
    fr->fflags = UF_FF_DEPTH;
    if (t->filter_out > 0) {
        fr->fflags |= UF_FF_NORECORD;
        t->entry_flags = 0;
        return false;
    }
    uf_entry_special(st, t, r);
    uint8_t trig = r->cls->kernel ? 0 : uf_filter_match(f, r->name);
    if (trig & (UF_TRIG_IN | UF_TRIG_OUT)) {
        if (trig & UF_TRIG_IN) {
            t->filter_in++;
            fr->fflags |= UF_FF_FILTERED;
        } else {
            t->filter_out++;
            fr->fflags |= UF_FF_NOTRACE | UF_FF_NORECORD;
            return false;
        }
        t->filter_depth = f->depth;
    } else if (f->mode_in && t->filter_in == 0) {
        fr->fflags |= UF_FF_NORECORD;
        return false;
    }
    if (f->depth_func && r->name && !r->cls->kernel && !strcmp(r->name, f->depth_func))
        t->filter_depth = f->depth; /* the depth trigger uftrace graph gives FUNC */
    if (t->filter_depth <= 0) {
        fr->fflags |= UF_FF_NORECORD;
        return false;
    }
    t->filter_depth--;
    uf_entry_display_depth(t);
    return true;
}

void uf_filter_exit(uf_filter *f, uf_task *t, uf_frame *fr)
{
    uf_filter_task_init(f, t);
    if (!fr)
        return;
    if (fr->fflags & UF_FF_FILTERED)
        t->filter_in--;
    else if (fr->fflags & UF_FF_NOTRACE)
        t->filter_out--;
    t->filter_depth = (fr->fflags & UF_FF_DEPTH) ? fr->orig_depth : f->depth;
    fr->fflags &= UF_FF_DEPTH;
}

int uf_filter_check_skip(uf_state *st, uf_filter *f, uf_task *t, const uf_rec *r)
{
    uf_filter_task_init(f, t);
    if (t->filter_out > 0)
        return -1;
    if (r->type == UF_EXIT) {
        if (t->stack_count < 1)
            return 0;
        const uf_frame *fr = uf_frame_at(st, t, t->stack_count - 1);
        return !fr || (fr->fflags & UF_FF_NORECORD) ? -1 : 0;
    }
    int depth = t->filter_depth;
    uint8_t trig = r->type == UF_ENTRY && !r->cls->kernel ? uf_filter_match(f, r->name) : 0;
    if (trig & (UF_TRIG_IN | UF_TRIG_OUT)) {
        if (trig & UF_TRIG_OUT)
            return -1;
        depth = f->depth;
    } else if (f->mode_in && t->filter_in == 0) {
        return -1;
    }
    return depth <= 0 ? -1 : 0;
}

bool uf_filter_has_settings(const uf_filter *f)
{
    for (size_t i = 0; i < f->n_pats; i++)
        if (f->pats[i].trig != UF_TRIG_CALLER)
            return true;
    return f->time_filter > 0 || f->depth != INT_MAX;
}

void uf_filter_for_other_run(uf_filter *f)
{
    drop_patterns(f);
    f->by_name = f->caller = f->prepass = f->no_sched = false;
    f->time_filter = 0;
    f->range.set = false;
    f->range.start = f->range.stop = 0;
    f->on = f->mode_in || f->no_libcall || f->depth != INT_MAX;
}
