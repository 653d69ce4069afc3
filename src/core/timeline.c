/* timeline.c - one timeline for the traces of a set: clock domains and alignment.
 *
 * Each trace says which clock its timestamps count (its origin), the offset its times carry
 * on top of that clock, the host it ran on, and, where it recorded one, a reading of another
 * clock taken together with its own (sync).  From that, every trace gets one shift, added to
 * its event times by tg_event_time_ns and the merge; the events themselves are never
 * rewritten, so the peer-compatible styles still print each tracer's own times.
 *
 * The timeline is the clock of the reference trace: the first one whose clock is known (so
 * one trace alone, or traces already on one clock, keep the times their tracers print).  A
 * trace meets the reference on a clock both can read: its own origin, its sync clock, or the
 * wall clock through another trace of the same clock and host that recorded a realtime
 * reading (LTTng's offset).  A clock that counts since boot (monotonic, boot, cycles) only
 * relates traces of one host; realtime and TAI relate any.  ftrace's `local` clock and
 * unknown clocks relate to nothing unless the user says so with --clock-offset.  Traces of
 * a set are few, so everything here is a small loop over pairs, done once at open. */
#include "core/filter_internal.h"
#include "core/option_registry.h"
#include "core/set_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum host_match { HOST_SAME, HOST_UNKNOWN, HOST_DIFFERENT };

static enum host_match host_match(const tg_trace *a, const tg_trace *b)
{
    const tg_host_info *x = &a->host, *y = &b->host;
    if (x->boot_id && y->boot_id) /* one boot of one machine: the since-boot clocks agree */
        return strcmp(x->boot_id, y->boot_id) == 0 ? HOST_SAME : HOST_DIFFERENT;
    if (x->hostname && y->hostname)
        return strcmp(x->hostname, y->hostname) == 0 ? HOST_SAME : HOST_DIFFERENT;
    return HOST_UNKNOWN;
}

static bool is_global(tg_clock_origin o) { return o == TG_CLOCK_REALTIME || o == TG_CLOCK_TAI; }

/* Can the trace's times be put on another clock by adding a constant at all? */
static bool shiftable(const tg_trace *t)
{
    const tg_clock_info *c = &t->clock;
    if (c->origin == TG_CLOCK_UNKNOWN || c->origin == TG_CLOCK_LOCAL)
        return false;
    return !c->raw_cycles || c->frequency_hz == 1000000000u;
}

/* A time on clock x of trace t is its event time - offset_ns + *delta.  Through another
 * trace of the set (the wall clock of an LTTng trace on the same host and clock) *via is
 * set to it. */
static bool reach(const tg_set *set, const tg_trace *t, tg_clock_origin x, int64_t *delta,
                  const tg_trace **via)
{
    const tg_clock_info *c = &t->clock;
    *via = NULL;
    if (x == TG_CLOCK_UNKNOWN || x == TG_CLOCK_LOCAL || !shiftable(t))
        return false;
    if (c->origin == x) {
        *delta = 0;
        return true;
    }
    if (c->sync_origin == x) {
        *delta = c->sync_offset_ns;
        return true;
    }
    for (size_t i = 0; i < set->n_traces; i++) {
        const tg_trace *u = set->traces[i];
        if (u != t && u->clock.origin == c->origin && u->clock.sync_origin == x &&
            !is_global(c->origin) && shiftable(u) && host_match(t, u) == HOST_SAME) {
            *delta = u->clock.sync_offset_ns;
            *via = u;
            return true;
        }
    }
    return false;
}

static const char *dup_printf(tg_trace *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *dup_printf(tg_trace *t, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tg_arena_strdup(&t->arena, buf);
}

static const char *host_name(const tg_trace *t)
{
    if (t->host.hostname)
        return t->host.hostname;
    return t->host.boot_id ? t->host.boot_id : "?";
}

static const char *domain_of(tg_trace *t)
{
    tg_clock_origin o = t->clock.origin;
    if (o == TG_CLOCK_UNKNOWN || is_global(o))
        return tg_clock_origin_name(o);
    return dup_printf(t, "%s@%s", tg_clock_origin_name(o), host_name(t));
}

/* ---- options --------------------------------------------------------------------------- */

typedef struct user_offset {
    char path[4096];
    int64_t ns;
    bool used;
} user_offset;

static bool path_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 &&
           (path[n] == 0 || path[n] == '/' || (n && dir[n - 1] == '/'));
}

/* Does the trace come from user path p (the path itself or a trace found under it)? */
static bool trace_from(const tg_trace *t, const char *p)
{
    if (path_under(t->path, p))
        return true;
    char a[PATH_MAX], b[PATH_MAX];
    return realpath(t->path, a) && realpath(p, b) && path_under(a, b);
}

/* Parses "PATH=+DURATION" lines into offs (at most cap). */
static int parse_offsets(const char *spec, user_offset *offs, size_t cap, size_t *n, tg_error **err)
{
    *n = 0;
    for (const char *line = spec; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *eq = NULL;
        for (size_t i = len; i-- > 0;)
            if (line[i] == '=') {
                eq = line + i;
                break;
            }
        char dur[64];
        size_t plen = eq ? (size_t)(eq - line) : 0, dlen = eq ? len - plen - 1 : 0;
        if (!eq || !plen || plen >= sizeof offs->path || dlen < 2 || dlen >= sizeof dur ||
            (eq[1] != '+' && eq[1] != '-'))
            return tg_err(err, TG_ERR_USAGE,
                          "bad clock offset '%.*s': expected PATH=+DURATION or PATH=-DURATION "
                          "(DURATION like 1.5ms, 20us, 3s, 250ns)",
                          (int)len, line);
        memcpy(dur, eq + 2, dlen - 1);
        dur[dlen - 1] = 0;
        int64_t ns;
        if (tg_time_parse(dur, &ns) < 0)
            return tg_err(err, TG_ERR_USAGE,
                          "bad clock offset duration '%.*s' in '%.*s': expected 1.5ms, 20us, "
                          "3s, 250ns ...",
                          (int)dlen, eq + 1, (int)len, line);
        if (*n == cap)
            return tg_err(err, TG_ERR_USAGE, "more than %zu clock offsets", cap);
        user_offset *o = &offs[(*n)++];
        memcpy(o->path, line, plen);
        o->path[plen] = 0;
        while (plen > 1 && o->path[plen - 1] == '/')
            o->path[--plen] = 0;
        o->ns = eq[1] == '-' ? -ns : ns;
        o->used = false;
        line = nl ? nl + 1 : NULL;
    }
    return 0;
}

/* ---- alignment ------------------------------------------------------------------------- */

enum mode { MODE_AUTO, MODE_NONE, MODE_REALTIME };

/* Finds how trace t meets the reference r; false when they share no clock (*why says why). */
static bool meet(tg_set *set, tg_trace *t, const tg_trace *r, enum mode mode, int64_t *shift,
                 tg_alignment *kind, const char **note)
{
    const tg_clock_info *tc = &t->clock, *rc = &r->clock;
    enum host_match hm = host_match(t, r);
    const char *assumed = hm == HOST_UNKNOWN ? " (a host is not recorded: taken as the same)" : "";
    if (mode == MODE_AUTO) {
        /* a clock both count, or one reads, relating only traces of one host (unless global) */
        tg_clock_origin cand[4] = {rc->origin, tc->origin, rc->sync_origin, tc->sync_origin};
        for (int k = 0; k < 4; k++) {
            tg_clock_origin x = cand[k];
            int64_t dt, dr;
            const tg_trace *vt, *vr;
            bool both_count_it = tc->origin == x && rc->origin == x;
            if ((x == TG_CLOCK_REALTIME && !both_count_it) ||
                (!is_global(x) && hm == HOST_DIFFERENT))
                continue; /* the wall clock through a reading is the last resort, below */
            if (!reach(set, t, x, &dt, &vt) || !reach(set, r, x, &dr, &vr) || vt || vr)
                continue;
            *shift = rc->offset_ns - tc->offset_ns + dt - dr;
            bool same = both_count_it;
            if (is_global(x))
                assumed = "";
            *kind = same ? TG_ALIGN_EXACT : TG_ALIGN_MARKER;
            *note = same ? dup_printf(t, "same %s clock as %s%s", tg_clock_origin_name(x), r->path,
                                      assumed)
                         : dup_printf(t, "through a recorded reading of the %s clock, to %s%s",
                                      tg_clock_origin_name(x), r->path, assumed);
            return true;
        }
    }
    int64_t dt, dr;
    const tg_trace *vt, *vr;
    if (reach(set, t, TG_CLOCK_REALTIME, &dt, &vt) &&
        (mode == MODE_REALTIME || reach(set, r, TG_CLOCK_REALTIME, &dr, &vr))) {
        if (mode == MODE_REALTIME) { /* the timeline is the wall clock itself */
            *shift = dt - tc->offset_ns;
            *kind = tc->origin == TG_CLOCK_REALTIME ? TG_ALIGN_EXACT : TG_ALIGN_WALL;
            *note = vt ? dup_printf(t, "by wall time, through the realtime reading of %s", vt->path)
                       : dup_printf(t, "by wall time");
            return true;
        }
        *shift = rc->offset_ns - tc->offset_ns + dt - dr;
        *kind = TG_ALIGN_WALL;
        *note = dup_printf(t, "by wall time, to %s%s%s", r->path,
                           vt ? ", through the realtime reading of " : "", vt ? vt->path : "");
        return true;
    }
    /* why not */
    if (tc->origin == TG_CLOCK_LOCAL)
        *note = dup_printf(t,
                           "its clock '%s' is the kernel's per-CPU scheduler clock, not "
                           "CLOCK_MONOTONIC nor related to any other: own times kept (record "
                           "with trace-cmd -C mono, or align it with --clock-offset %s=+0)",
                           tg_trace_clock_name(t), t->path);
    else if (!shiftable(t) && tc->origin != TG_CLOCK_UNKNOWN)
        *note = dup_printf(t, "its times are raw counts at %llu Hz: own times kept",
                           (unsigned long long)tc->frequency_hz);
    else if (tc->origin == TG_CLOCK_UNKNOWN)
        *note = dup_printf(t,
                           "its clock '%s' is not one traceglot knows: own times kept "
                           "(give --clock-offset %s=+DURATION to place it)",
                           tg_trace_clock_name(t), t->path);
    else if (mode == MODE_REALTIME)
        *note = dup_printf(t,
                           "no wall-clock reading relates its %s clock to real time: own "
                           "times kept",
                           tg_clock_origin_name(tc->origin));
    else if (hm == HOST_DIFFERENT)
        *note = dup_printf(t,
                           "recorded on host %s, the timeline (%s) on %s: clocks since boot "
                           "of different hosts are unrelated and no wall-clock reading "
                           "relates them: own times kept",
                           host_name(t), r->path, host_name(r));
    else
        *note =
            dup_printf(t, "its %s clock shares no clock with %s (%s): own times kept",
                       tg_clock_origin_name(tc->origin), r->path, tg_clock_origin_name(rc->origin));
    return false;
}

static int warn(tg_set *set, const tg_trace *t)
{
    tg_error *w = NULL;
    tg_err(&w, TG_ERR_UNSUPPORTED, "%s: not on the shared timeline: %s", t->path,
           t->alignment_note ? t->alignment_note : "");
    tg_err_append(&set->warnings, w);
    return 0;
}

TG_OPTIONS(open) = {
    "open",
    TG_OWNER_OPEN,
    (const tg_option_decl[]){
        {"clock-align", TG_OPT_CHOICE, "auto",
         "several traces on one timeline: auto, none (own times), realtime (wall clock)", "MODE",
         "auto|none|realtime"},
        {"clock-offset", TG_OPT_LIST, NULL,
         "add T (+1.5ms, -20us, +3s) to the times of the traces from PATH on the timeline; "
         "repeatable",
         "PATH=+T"},
        {0},
    },
};

int tg_timeline_align(tg_set *set, const tg_options *opts, tg_error **err)
{
    const char *m = opts ? tg_options_get(opts, "clock-align") : NULL;
    enum mode mode = MODE_AUTO;
    if (m && strcmp(m, "none") == 0)
        mode = MODE_NONE;
    else if (m && strcmp(m, "realtime") == 0)
        mode = MODE_REALTIME;
    else if (m && strcmp(m, "auto") != 0)
        return tg_err(err, TG_ERR_USAGE,
                      "bad clock alignment '%s': expected auto, none or realtime", m);
    user_offset offs[16];
    size_t n_offs = 0;
    const char *spec = opts ? tg_options_get(opts, "clock-offset") : NULL;
    if (spec)
        TG_TRY(parse_offsets(spec, offs, sizeof offs / sizeof offs[0], &n_offs, err));

    tg_trace *ref = NULL;
    for (size_t i = 0; i < set->n_traces && !ref; i++)
        if (shiftable(set->traces[i]))
            ref = set->traces[i];
    if (!ref && set->n_traces)
        ref = set->traces[0];
    for (size_t i = 0; i < set->n_traces; i++) {
        tg_trace *t = set->traces[i];
        t->domain = domain_of(t);
        bool user = false;
        int64_t user_ns = 0;
        for (size_t k = 0; k < n_offs; k++)
            if (trace_from(t, offs[k].path)) {
                user = offs[k].used = true;
                user_ns += offs[k].ns;
            }
        int64_t shift = 0;
        tg_alignment kind = TG_ALIGN_OWN;
        const char *note = NULL;
        if (mode == MODE_NONE || (t == ref && mode == MODE_AUTO)) {
            note = mode == MODE_NONE   ? "alignment off (--clock-align=none): own times"
                   : set->n_traces > 1 ? "the timeline's clock: own times"
                                       : "own times";
        } else if (!meet(set, t, ref, mode, &shift, &kind, &note)) {
            kind = TG_ALIGN_NONE;
            if (user && mode == MODE_AUTO) { /* the user says it counts the timeline's clock */
                kind = TG_ALIGN_USER;
                shift = ref->clock.offset_ns - t->clock.offset_ns;
                note = dup_printf(t,
                                  "as the user said (--clock-offset): taken to count the "
                                  "clock of %s; %s",
                                  ref->path, note);
            } else if (user) {
                kind = TG_ALIGN_USER;
                note = dup_printf(t, "only by the user's offset; %s", note);
            }
        }
        if (user) {
            shift += user_ns;
            if (kind != TG_ALIGN_USER)
                note =
                    dup_printf(t, "%s, plus the user's offset %+lld ns", note, (long long)user_ns);
        }
        t->shift_ns = shift;
        t->alignment = kind;
        t->alignment_note = note;
        if (!t->domain || !note)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        for (size_t s = 0; s < t->n_streams; s++)
            t->streams[s]->shift_ns = shift;
        if (kind == TG_ALIGN_NONE)
            warn(set, t);
    }
    for (size_t k = 0; k < n_offs; k++)
        if (!offs[k].used)
            return tg_err(err, TG_ERR_USAGE, "clock offset for '%s': no trace was opened from it",
                          offs[k].path);
    return 0;
}

/* ---- public views ---------------------------------------------------------------------- */

const char *tg_alignment_name(tg_alignment a)
{
    switch (a) {
    case TG_ALIGN_OWN: return "own";
    case TG_ALIGN_EXACT: return "exact";
    case TG_ALIGN_MARKER: return "marker";
    case TG_ALIGN_WALL: return "wall";
    case TG_ALIGN_USER: return "user";
    case TG_ALIGN_NONE: return "none";
    }
    return "?";
}

tg_alignment tg_trace_alignment(const tg_trace *t) { return t->alignment; }
int64_t tg_trace_shift_ns(const tg_trace *t) { return t->shift_ns; }
const char *tg_trace_clock_domain(const tg_trace *t) { return t->domain ? t->domain : "unknown"; }
const char *tg_trace_alignment_note(const tg_trace *t)
{
    return t->alignment_note ? t->alignment_note : "";
}
const tg_error *tg_set_warnings(const tg_set *set) { return set->warnings; }
