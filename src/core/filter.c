/* filter.c - the event filters every subcommand shares: time bounds, event-name globs,
 * thread ids, process ids (applied by the iterator, through the kernel model) and cpus.
 *
 * Parsed once from the command-line strings; matching is a few comparisons per event.
 * Relative time bounds ("+1.5ms") are resolved by the iterator against the first event. */
#include "core/filter_internal.h"
#include "core/format_api.h"
#include "core/grow.h"
#include "core/option_registry.h"

#include <ctype.h>
#include <stdbool.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

tg_filter *tg_filter_new(void) { return calloc(1, sizeof(tg_filter)); }

void tg_filter_free(tg_filter *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_globs; i++)
        free(f->globs[i]);
    free(f->globs);
    free(f->tids);
    free(f->pids);
    free(f->cpus);
    free(f);
}

int tg_time_parse(const char *s, int64_t *ns)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    unsigned long long whole = strtoull(s, &end, 10);
    uint64_t frac_ns = 0, scale = 1000000000ULL;
    if (*end == '.') {
        end++;
        uint64_t div = 100000000ULL;
        while (isdigit((unsigned char)*end)) {
            frac_ns += (uint64_t)(*end - '0') * div;
            div /= 10;
            end++;
        }
    }
    if (*end == 0 || strcmp(end, "s") == 0)
        scale = 1000000000ULL;
    else if (strcmp(end, "ms") == 0)
        scale = 1000000ULL;
    else if (strcmp(end, "us") == 0)
        scale = 1000ULL;
    else if (strcmp(end, "ns") == 0)
        scale = 1ULL;
    else
        return -1;
    if (whole > (uint64_t)INT64_MAX / 1000000000ULL)
        return -1;
    /* frac_ns was computed as a fraction of a second; rescale to the unit */
    *ns = (int64_t)(whole * scale + frac_ns / (1000000000ULL / scale));
    return 0;
}

/* n digits exactly at *p into *v */
static bool digits(const char **p, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (!isdigit((unsigned char)**p))
            return false;
        *v = *v * 10 + (**p - '0');
    }
    return true;
}

/* "hh:mm[:ss[.n{1,9}]]" to the end of s (babeltrace2's time of day) */
static bool parse_hms(const char *s, struct tg_time_bound *b)
{
    b->tm[5] = 0;
    b->tm_ns = 0;
    if (!digits(&s, 2, &b->tm[3]) || *s++ != ':' || !digits(&s, 2, &b->tm[4]))
        return false;
    if (*s == ':') {
        s++;
        if (!digits(&s, 2, &b->tm[5]))
            return false;
        if (*s == '.') {
            s++;
            int n = 0;
            uint32_t v = 0;
            while (isdigit((unsigned char)*s) && n < 9)
                v = v * 10 + (uint32_t)(*s++ - '0'), n++;
            if (!n)
                return false;
            while (n++ < 9)
                v *= 10; /* ".512" is 512 ms */
            b->tm_ns = v;
        }
    }
    return *s == 0;
}

/* babeltrace2's --begin/--end forms "YYYY-MM-DD hh:mm[:ss[.ns]]" and "hh:mm[:ss[.ns]]" (its
 * "[-]s[.ns]" is read by the caller) */
static bool parse_babeltrace_time(const char *s, struct tg_time_bound *b)
{
    const char *p = s;
    if (digits(&p, 4, &b->tm[0]) && *p == '-' && (p++, digits(&p, 2, &b->tm[1])) && *p == '-' &&
        (p++, digits(&p, 2, &b->tm[2])) && *p == ' ' && parse_hms(p + 1, b)) {
        b->kind = TG_BOUND_DATE;
        return true;
    }
    if (parse_hms(s, b)) {
        b->kind = TG_BOUND_TIME;
        return true;
    }
    return false;
}

static int set_bound(struct tg_time_bound *b, const char *spec, const char *what, tg_error **err)
{
    const char *s = spec;
    memset(b, 0, sizeof *b);
    b->relative = *s == '+';
    if (b->relative)
        s++;
    if (!b->relative && parse_babeltrace_time(s, b)) {
        b->set = 1;
        return 0;
    }
    bool neg = !b->relative && *s == '-'; /* babeltrace2's "-s[.ns]": before the origin */
    if (neg)
        s++;
    if (tg_time_parse(s, &b->ns) < 0)
        return tg_err(err, TG_ERR_USAGE,
                      "bad %s time '%s': expected seconds like 1142.318836, a relative time "
                      "like +1.5ms, +20us, +3s, a time of day like 04:02:28.48 or a date and "
                      "time like 2024-03-01 04:02:28",
                      what, spec);
    if (neg)
        b->ns = -b->ns;
    b->set = 1;
    return 0;
}

/* The filter's settings as options: the CLI keeps them in the options too, so that a report
 * can see that its input is filtered (compat/uftrace/report_uftrace.c's fast path). */
TG_OPTIONS(filter) = {
    "filter",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"begin", TG_OPT_TEXT, NULL, "start at time T (seconds, or +1.5ms from the first event)",
         "T"},
        {"end", TG_OPT_TEXT, NULL, "stop after time T (seconds, or +20us from the first event)",
         "T"},
        {"events", TG_OPT_TEXT, NULL, "only events whose name matches a glob (a,b*,sys:c)", "GLOBS",
         NULL, 0, 0, 'e'},
        {"tid", TG_OPT_TEXT, NULL, "only these thread ids", "N[,N]"},
        {"pid", TG_OPT_LIST, NULL,
         "only the threads of these processes, as the kernel model knows them; repeatable",
         "N[,N]"},
        {"cpu", TG_OPT_TEXT, NULL, "only these cpus (ranges: 0-3)", "N[,N-M]"},
        {0},
    },
};
/* Seconds since the epoch of a broken-down local (or GMT) time, as babeltrace2's trimmer
 * makes them (mktime guessing the DST, timegm). */
static int64_t epoch_of(const int tmv[6], int gmt)
{
    struct tm tm = {.tm_sec = tmv[5],
                    .tm_min = tmv[4],
                    .tm_hour = tmv[3],
                    .tm_mday = tmv[2],
                    .tm_mon = tmv[1] - 1,
                    .tm_year = tmv[0] - 1900,
                    .tm_isdst = -1};
    return (int64_t)(gmt ? timegm(&tm) : mktime(&tm));
}

int64_t tg_time_bound_ns(const struct tg_time_bound *b, int64_t first, int gmt)
{
    int tmv[6];
    switch (b->kind) {
    case TG_BOUND_DATE: return epoch_of(b->tm, gmt) * 1000000000 + b->tm_ns;
    case TG_BOUND_TIME: {
        /* the first event's date */
        time_t t = (time_t)(first / 1000000000);
        struct tm tm;
        if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
            return first;
        memcpy(tmv, b->tm, sizeof tmv);
        tmv[0] = tm.tm_year + 1900;
        tmv[1] = tm.tm_mon + 1;
        tmv[2] = tm.tm_mday;
        return epoch_of(tmv, gmt) * 1000000000 + b->tm_ns;
    }
    default: return b->relative ? first + b->ns : b->ns;
    }
}

int tg_filter_set_gmt(tg_filter *f, bool gmt)
{
    f->gmt = gmt;
    return 0;
}

/* Orders two bounds of the same kind: <0, 0, >0. */
static int bound_cmp(const struct tg_time_bound *a, const struct tg_time_bound *b)
{
    if (a->kind != TG_BOUND_NS) {
        for (int i = a->kind == TG_BOUND_TIME ? 3 : 0; i < 6; i++)
            if (a->tm[i] != b->tm[i])
                return a->tm[i] < b->tm[i] ? -1 : 1;
        return a->tm_ns < b->tm_ns ? -1 : a->tm_ns > b->tm_ns;
    }
    return a->ns < b->ns ? -1 : a->ns > b->ns;
}

/* babeltrace2 refuses a range whose beginning comes after its end (before reading a
 * message); bounds of the same kind are compared here, at once. */
static int check_range(const tg_filter *f, const char *spec, tg_error **err)
{
    if (f->begin.set && f->end.set && f->begin.relative == f->end.relative &&
        f->begin.kind == f->end.kind && bound_cmp(&f->begin, &f->end) > 0)
        return tg_err(err, TG_ERR_USAGE,
                      "the time range's beginning is after its end ('%s'): --begin must not "
                      "come after --end",
                      spec);
    return 0;
}

int tg_filter_set_begin(tg_filter *f, const char *spec, tg_error **err)
{
    TG_TRY(set_bound(&f->begin, spec, "begin", err));
    return check_range(f, spec, err);
}

int tg_filter_set_end(tg_filter *f, const char *spec, tg_error **err)
{
    if (!spec) {
        memset(&f->end, 0, sizeof f->end);
        return 0;
    }
    TG_TRY(set_bound(&f->end, spec, "end", err));
    return check_range(f, spec, err);
}

int tg_filter_set_events(tg_filter *f, const char *globs, tg_error **err)
{
    const char *p = globs;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n) {
            if (tg_grow(&f->globs, &f->cap_globs, f->n_globs + 1, sizeof *f->globs) < 0)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            if (!(f->globs[f->n_globs] = strndup(p, n)))
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            f->n_globs++;
        }
        p += n + (comma ? 1 : 0);
    }
    return 0;
}

/* "12,34" (ranges: "0-3,6", as trace-cmd's --cpu takes them) */
static int parse_int_list(const char *list, const char *what, bool ranges, int **out, size_t *n,
                          size_t *cap, tg_error **err)
{
    const char *p = list;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10), last = v;
        if (ranges && end != p && *end == '-' && isdigit((unsigned char)end[1]))
            last = strtol(end + 1, &end, 10);
        if (end == p || (*end && *end != ',') || v < 0 || last > 0x7fffffff)
            return tg_err(err, TG_ERR_USAGE, "bad %s list '%s': expected numbers like 12,34%s",
                          what, list, ranges ? " or ranges like 0-3" : "");
        if (last < v)
            return tg_err(err, TG_ERR_USAGE, "bad %s list '%s': the range %ld-%ld goes down", what,
                          list, v, last);
        if (last - v > 65535)
            return tg_err(err, TG_ERR_USAGE, "bad %s list '%s': the range %ld-%ld is too long",
                          what, list, v, last);
        for (long k = v; k <= last; k++) {
            if (tg_grow(out, cap, *n + 1, sizeof **out) < 0)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            (*out)[(*n)++] = (int)k;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

int tg_filter_set_tids(tg_filter *f, const char *list, tg_error **err)
{
    return parse_int_list(list, "tid", false, &f->tids, &f->n_tids, &f->cap_tids, err);
}

int tg_filter_set_pids(tg_filter *f, const char *list, tg_error **err)
{
    return parse_int_list(list, "pid", false, &f->pids, &f->n_pids, &f->cap_pids, err);
}

bool tg_filter_pid_listed(const tg_filter *f, int64_t pid)
{
    for (size_t i = 0; i < f->n_pids; i++)
        if (f->pids[i] == pid)
            return true;
    return false;
}

int tg_filter_set_cpus(tg_filter *f, const char *list, tg_error **err)
{
    return parse_int_list(list, "cpu", true, &f->cpus, &f->n_cpus, &f->cap_cpus, err);
}

static int in_list(const int *a, size_t n, int v)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] == v)
            return 1;
    return 0;
}

static int name_matches(const tg_filter *f, const tg_event *ev)
{
    const tg_event_class *c = ev->cls;
    const char *name = c ? c->name : "";
    for (size_t i = 0; i < f->n_globs; i++) {
        if (fnmatch(f->globs[i], name, 0) == 0)
            return 1;
        if (c && c->system) { /* "system:event" globs */
            char full[512];
            size_t ls = strlen(c->system), ln = strlen(name);
            if (ls + ln + 2 <= sizeof full) {
                memcpy(full, c->system, ls);
                full[ls] = ':';
                memcpy(full + ls + 1, name, ln + 1);
                if (fnmatch(f->globs[i], full, 0) == 0)
                    return 1;
            }
        }
    }
    return 0;
}

int tg_filter_match(const tg_filter *f, const tg_event *ev)
{
    if (!f)
        return 1;
    if (f->n_globs && !name_matches(f, ev))
        return 0;
    /* data of no thread (uftrace's extern.dat) is not left out by a thread filter: uftrace
     * shows it in the thread read last */
    if (f->n_tids && !in_list(f->tids, f->n_tids, ev->tid) && ev->cls->kind != TG_KIND_EXTERN)
        return 0;
    if (f->n_cpus && !in_list(f->cpus, f->n_cpus, ev->cpu))
        return 0;
    return 1;
}
