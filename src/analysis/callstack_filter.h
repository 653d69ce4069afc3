/* callstack_filter.h - uftrace's filters over the call-stack builder's uftrace rules, for
 * replay, report and graph on every function trace.
 *
 * uftrace filters in two places, and so does this module:
 * - where it reads a thread's records (its task reader): records outside -r/--time-range are
 *   never read; with -t/--time-filter a function shorter than the threshold is dropped with
 *   everything recorded between its entry and exit, and with -C/--caller-filter every
 *   function is dropped that is not one of the FUNCs or a caller of one.  uftrace decides
 *   that by holding a thread's records until the function's exit; here a first pass over the
 *   trace makes the same decisions and keeps them as one bit per record of each thread
 *   (uf_filter_prepass), and the second pass, the printer's, reads them (uf_filter_keep), so
 *   memory stays a bit per record and nothing is held back.
 * - where a record is shown: -F/--filter FUNC (only FUNC and what it calls), -N/--notrace
 *   FUNC (not FUNC nor what it calls), -D/--depth N (N levels from the top or from a -F
 *   function), --no-libcall (no library call through the PLT).  uftrace keeps per thread the
 *   number of -F functions open, of -N functions open and the depth left, and per frame
 *   whether it is shown; uf_filter_entry and uf_filter_exit are its fstack_entry and
 *   fstack_exit, uf_filter_event its check of an event.
 * FUNC names a user function (never a kernel one, as in uftrace), by name, or a POSIX extended regular expression when it holds one of
 * ".?*+-^$|()[]{}" (unanchored, as regexec matches), or a glob with --match glob; several
 * FUNCs are given by repeating the option or separated by ';'; "!FUNC" in -F is -N FUNC.
 * Nothing here runs unless a filter is given: callers keep their unfiltered paths. */
#ifndef TG_CALLSTACK_FILTER_H
#define TG_CALLSTACK_FILTER_H

#include "analysis/callstack_uftrace.h"
#include "core/consumer.h"

#include <stdbool.h>
#include <stdint.h>

/* The filters' options as replay, report and graph declare them (core/option_registry.h):
 * their values are checked by uf_filter_setup, with uftrace's reasons. */
#define UF_FILTER_OPTION_DECLS                                                                     \
    {"filter", TG_OPT_LIST,                                                                        \
     NULL,     "only FUNC and what it calls (a name, or a regex; !FUNC is -N FUNC) (uftrace -F)",  \
     "FUNC",   NULL,                                                                               \
     0,        0,                                                                                  \
     'F'},                                                                                         \
        {"notrace", TG_OPT_LIST, NULL, "not FUNC nor what it calls (uftrace -N)", "FUNC", NULL,    \
         0,         0,           'N'},                                                             \
        {"caller-filter",                                                                          \
         TG_OPT_LIST,                                                                              \
         NULL,                                                                                     \
         "only FUNC and its callers (uftrace -C)",                                                 \
         "FUNC",                                                                                   \
         NULL,                                                                                     \
         0,                                                                                        \
         0,                                                                                        \
         'C'},                                                                                     \
        {"depth", TG_OPT_TEXT,                                                                     \
         NULL,    "N levels of calls, from the top or from a -F function (uftrace -D)",            \
         "N",     NULL,                                                                            \
         0,       0,                                                                               \
         'D'},                                                                                     \
        {"time-filter",                                                                            \
         TG_OPT_TEXT,                                                                              \
         NULL,                                                                                     \
         "no function that ran less than TIME: 100ns, 1.5us, 10ms (uftrace -t)",                   \
         "TIME",                                                                                   \
         NULL,                                                                                     \
         0,                                                                                        \
         0,                                                                                        \
         't'},                                                                                     \
        {"time-range",                                                                             \
         TG_OPT_TEXT,                                                                              \
         NULL,                                                                                     \
         "only records from START to STOP: timestamps, or times since the first record with a "    \
         "unit (uftrace -r)",                                                                      \
         "START~STOP",                                                                             \
         NULL,                                                                                     \
         0,                                                                                        \
         0,                                                                                        \
         'r'},                                                                                     \
        {"no-libcall", TG_OPT_FLAG, NULL,                                                          \
         "no library calls through the PLT (uftrace --no-libcall)"},                               \
    {                                                                                              \
        "match", TG_OPT_TEXT, "regex", "how FUNC matches: regex or glob (uftrace --match)",        \
            "regex|glob"                                                                           \
    }

/* What a function's name matched: a -F, a -N (the last pattern matching decides between
 * them, as uftrace's triggers do), a -C. */
enum { UF_TRIG_IN = 1, UF_TRIG_OUT = 2, UF_TRIG_CALLER = 4 };
/* A frame's flags (uf_frame.fflags), as uftrace's fstack flags. */
enum {
    UF_FF_FILTERED = 1, /* a -F function: counted in filter_in */
    UF_FF_NOTRACE = 2,  /* a -N function: counted in filter_out */
    UF_FF_NORECORD = 4, /* not shown */
    UF_FF_PLT = 8,      /* graph: a library call, skipped with --no-libcall when it ends */
    UF_FF_DEPTH = 0x80, /* orig_depth was set by an entry (kept after the exit, as uftrace) */
};

struct uf_pattern;
struct uf_keep;

typedef struct uf_filter {
    bool on;                /* any filter: the filtered paths */
    bool by_name;           /* -F, -N or -C patterns */
    bool mode_in;           /* a -F pattern: only what -F functions call is shown */
    bool no_libcall;        /* --no-libcall */
    bool prepass;           /* -t or -C: decisions of a first pass */
    bool caller;            /* -C */
    bool no_sched;          /* sched events are not shown (uftrace's -C implies --no-sched) */
    bool lenient;           /* patterns naming no function are left out without failing */
    int depth;              /* -D; INT_MAX without it */
    const char *depth_func; /* graph FUNC -D N: FUNC's entry sets the depth left to N */
    uint64_t time_filter;
    struct {
        bool set;
        bool start_elapsed, stop_elapsed;
        uint64_t start, stop; /* 0: open */
        uint64_t first;       /* the trace's first record: elapsed times count from it */
    } range;
    struct uf_pattern *pats;
    size_t n_pats, cap_pats;
    struct {
        const char *name;
        uint8_t flags;
        bool set;
    } cache[1024]; /* name pointer -> UF_TRIG_* */
    /* the first pass's decisions per thread (by tid), and the names it could not ask */
    struct uf_keep *keep;
    size_t n_keep, cap_keep;
    tg_hash keep_by_tid;
} uf_filter;

/* Reads -F/--filter, -N/--notrace, -C/--caller-filter, -D/--depth, -t/--time-filter,
 * -r/--time-range, --no-libcall and --match from opts ("filter", "notrace", "caller-filter",
 * "depth", "time-filter", "time-range", "no-libcall", "match").  TG_ERR_USAGE with uftrace's
 * reason for a bad value. */
int uf_filter_setup(uf_filter *f, const tg_options *opts, tg_error **err);
void uf_filter_free(uf_filter *f);
/* The filters as uftrace applies them to the other run of report --diff: its function
 * patterns are set up on the base run's symbols only, so the other run keeps -D, --no-libcall
 * and the mode -F sets (only what -F functions call is shown: none of its functions), not
 * the patterns, -t or -r. */
void uf_filter_for_other_run(uf_filter *f);
/* uftrace's opts_has_filter, which graph's "please check your filter settings" follows: -F
 * and -N patterns, -t, -D (not -C). */
bool uf_filter_has_settings(const uf_filter *f);
/* Matches the patterns against the set's function symbols, as uftrace does before reading:
 * a pattern naming no function is left out, and TG_ERR_USAGE ("failed to set filter or
 * trigger") when every -F/-N pattern, or every -C pattern, names none. */
int uf_filter_bind(uf_filter *f, tg_set *set, tg_error **err);

/* What the filters must know before the printer reads: the first record's time (elapsed
 * time ranges count from it) and, with -t or -C, the first pass's decisions, read from a
 * twin of main's set (tg_iter_twin) so that main reads the events once. */
int uf_filter_prepass(uf_filter *f, const tg_iter *main, const tg_options *opts, tg_error **err);
/* uftrace's first timestamp, which the elapsed column and elapsed time ranges count from,
 * found before the printer reads (from a twin of the set): UF_FIRST_RULE the first record
 * uftrace's rule takes (uf_consume's), UF_FIRST_ANY the first record of all (a time filter
 * reads every perf record first), UF_FIRST_THREAD the first record of the threads' own data
 * (a time range with a start); the first record of each thread --tid leaves out counts too.
 * 0 when none. */
enum { UF_FIRST_RULE, UF_FIRST_ANY, UF_FIRST_THREAD };
int uf_first_time(const tg_iter *it, const tg_options *opts, int mode, int64_t *first,
                  tg_error **err);
/* Whether the printer reads this event at all (the time range and the first pass's
 * decisions).  Called once per event, in the order the first pass saw them. */
bool uf_filter_keep(uf_filter *f, const tg_event *ev);

/* UF_TRIG_* of a function name (NULL: none). */
uint8_t uf_filter_match(uf_filter *f, const char *name);
/* Whether a function record is a library call through the PLT (--no-libcall). */
bool uf_filter_is_libcall(const tg_event *ev);

/* uftrace's fstack_entry, after the record was consumed (its frame is stack_count - 1):
 * also the special functions (exec, setjmp, ...) and the display depth.  true when the
 * entry is shown. */
bool uf_filter_entry(uf_state *st, uf_filter *f, uf_task *t, const uf_rec *r);
/* uftrace's fstack_exit of the frame at stack_count (after the exit was consumed). */
void uf_filter_exit(uf_filter *f, uf_task *t, uf_frame *fr);
/* Whether an event is shown in the filters' current state (fstack_check_filter). */
static inline bool uf_filter_event(const uf_filter *f, const uf_task *t)
{
    return !(t->filter_out > 0 || t->filter_depth <= 0 || (f->mode_in && t->filter_in == 0));
}
/* uftrace's fstack_check_skip for the look-ahead of replay's folding: <0 when the record
 * (not consumed yet) would be filtered out. */
int uf_filter_check_skip(uf_state *st, uf_filter *f, uf_task *t, const uf_rec *r);
/* For a record of a format that records no depth (XRay, LTTng-UST): the depth uftrace would
 * have recorded, from the thread's stack before the record is consumed. */
static inline void uf_rec_depth_from_stack(const uf_task *t, uf_rec *r)
{
    int d = r->type == UF_EXIT ? t->stack_count - 1 : t->stack_count;
    r->depth = d < 0 ? 0 : d;
}
/* Sets the thread's filter state at its first record. */
static inline void uf_filter_task_init(const uf_filter *f, uf_task *t)
{
    if (!t->filter_set) {
        t->filter_depth = f->depth;
        t->filter_set = true;
    }
}

#endif
