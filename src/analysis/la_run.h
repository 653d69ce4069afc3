/* la_run.h - one run of an lttng-analyses command (`traceglot analyze NAME`): its options as
 * lttng-analyses reads them, the period it covers, the state it reads (la_state.h), and what
 * each analysis (la_cputop.c, la_sched.c, la_irq.c, la_syscalls.c) provides to the driver
 * (la_run.c).  The printing helpers every analysis shares are at the end (la_text.c). */
#ifndef TG_LA_RUN_H
#define TG_LA_RUN_H

#include "analysis/la_state.h"

#include <json-c/json.h>

typedef struct la_conf {
    int64_t begin, end; /* LA_NONE: not given */
    int64_t *tids;
    size_t n_tids;
    char **procs; /* --procname */
    size_t n_procs;
    int64_t *cpus;
    size_t n_cpus;
    bool has_min, has_max;
    double min, max; /* ns, as lttng-analyses keeps them (usec * 1000) */
    long limit;
    bool json, gmt, multi_day;
    /* the sched and irq commands' views */
    bool top, log, stats, freq, total, per_tid, per_prio, freq_uniform, freq_series;
    long freq_resolution;
    char **irqs, **softirqs; /* --irq, --softirq as texts (NULL: not given) */
    size_t n_irqs, n_softirqs;
    /* the I/O commands' */
    bool usage, has_minsize, has_maxsize;
    double minsize, maxsize; /* bytes */
} la_conf;

struct la_kind;

typedef struct la_run {
    la_conf conf;
    la_state st;
    const struct la_kind *kind;
    void *ctx;                 /* the analysis' own */
    int64_t first_ts, last_ts; /* of the events the analysis saw */
    int64_t period_begin;      /* LA_NONE: no period yet */
    bool started, ended;
    json_object *results; /* --format json: the result tables */
} la_run;

/* lttng-analyses' stream intersection (la_intersect.c): on CTF traces, only the events
 * between the streams' latest beginning and earliest end. */
typedef struct la_intersect {
    bool on;
    size_t n_streams, n_begun;
    const tg_stream **begun; /* the streams that had their first packet */
    int64_t end;             /* the earliest stream end so far */
} la_intersect;

/* on (when every trace of set is CTF) asks it of it */
void la_intersect_start(la_intersect *x, tg_set *set, tg_iter *it);
/* 1: ev is an event within the intersection; 0: leave it out (outside, or a stream or packet
 * message); 2: the intersection ended before it; < 0: an error (no intersection) */
int la_intersect_event(la_intersect *x, const tg_event *ev, tg_error **err);
void la_intersect_free(la_intersect *x);

/* One lttng-analyses command. */
typedef struct la_kind {
    const char *name;
    const char *const *needs; /* the events it needs, NULL-ended (any one will do) */
    bool threads;             /* it reads each event's thread (the kernel model's ev->tid) */
    /* the command line view it starts with (schedtop: --top, irqlog: --log, ...) */
    void (*preset)(la_conf *c);
    int (*begin)(la_run *r); /* the period begins: make r->ctx, set the state's hooks */
    /* each event the state saw, from the first (NULL: none; it may make r->ctx) */
    int (*event)(la_run *r, const tg_event *ev);
    /* the period ended at r->last_ts: print (or add to r->results) what it found */
    int (*end)(la_run *r, tg_buf *out);
    void (*free)(la_run *r);
} la_kind;

extern const la_kind la_kind_cputop, la_kind_schedstats, la_kind_schedtop, la_kind_schedlog,
    la_kind_schedfreq, la_kind_irqstats, la_kind_irqlog, la_kind_irqfreq, la_kind_syscallstats,
    la_kind_memtop, la_kind_iolatencytop, la_kind_iolatencystats, la_kind_iolatencyfreq,
    la_kind_iousagetop, la_kind_iolog;

/* lttng-analyses' process filter (--procname, --tid); proc NULL passes */
bool la_filter_proc(const la_conf *c, const la_proc *p);
bool la_filter_cpu(const la_conf *c, int64_t cpu);

/* Python's sorted(): idx[0..n) ordered stably by before(a, b, arg) ("a goes first") */
typedef bool (*la_before_fn)(size_t a, size_t b, const void *arg);
int la_sort(size_t *idx, size_t n, la_before_fn before, const void *arg);

/* ---- printing as Python prints (la_text.c) ---- */

/* s (UTF-8) padded with spaces to width characters: align '<' left, '>' right */
void la_pad(tg_buf *out, const char *s, int width, char align);
/* "hh:mm:ss.nnnnnnnnn", with "YYYY-MM-DD " before it when multi-day (format_timestamp) */
void la_timestamp(char *buf, size_t size, int64_t ns, bool date, bool gmt);
/* "Timerange: [begin, end]\n" with dates */
void la_print_timerange(const la_run *r, tg_buf *out, int64_t begin, int64_t end);
/* Python's repr of a float ("1.5", "0.0", "1e-05") */
void la_float_repr(char *buf, size_t size, double x);
/* Python's round(x, 3) */
double la_round3(double x);
/* statistics.stdev of n integers, correctly rounded as Python computes it; NaN when n < 2 */
double la_stdev(const int64_t *xs, size_t n);
/* The prio list text ("[20]", "[-6, 20 (2 times)]") of n (timestamp, prio) changes */
void la_prio_list(char *buf, size_t size, const int64_t *prios, size_t n);

/* A horizontal bar graph as termgraph.BarGraph prints it: title, label header (NULL: none),
 * then per datum the bar, the value's text ("%.2f" + " " + unit) and the label. */
typedef struct la_bar {
    double value;
    const char *label;
} la_bar;
void la_bar_graph(tg_buf *out, const char *title, const char *label_header, const char *unit,
                  const la_bar *data, size_t n);
/* the same with integer values (printed as integers, not "%.2f") */
void la_bar_graph_int(tg_buf *out, const char *title, const char *label_header, const char *unit,
                      const la_bar *data, size_t n);
/* the same with each value's text given (lttng-analyses' get_value_str) */
void la_bar_graph_str(tg_buf *out, const char *title, const char *label_header,
                      const double *values, const char *const *value_texts,
                      const char *const *labels, size_t n);
/* A frequency graph as termgraph.FreqGraph prints it */
void la_freq_graph(tg_buf *out, const char *title, const char *unit, const double *lower,
                   const int64_t *counts, size_t n);

/* ---- what the latency commands print alike (la_stats.c) ---- */

/* "%0.03f" of ns in microseconds */
void la_us3(char *buf, size_t size, double ns);
/* a stats row's min, avg, max, stdev as la_us3 texts; stdev NaN: "?" */
void la_stats_texts(char txt[4][48], int64_t min, double avg, int64_t max, double stdev);
/* --freq's res buckets of the n durations ns over [min_us, max_us]: lower and upper bounds in
 * ns, counts; the number of rows, 0 when the step is 0 */
size_t la_freq_buckets(const int64_t *ns, size_t n, double min_us, double max_us, long res,
                       double *lower, double *upper, int64_t *counts);
/* a log line's "[begin, end] " */
void la_log_range(tg_buf *out, const la_conf *c, int64_t begin, int64_t end);
/* {"class": "duration", "value": v}, or unknown when v is NaN */
json_object *la_lami_duration_or_unknown(double v);
/* the views a command starts with (la_kind.preset) */
void la_preset_stats(la_conf *c);
void la_preset_top(la_conf *c);
void la_preset_log(la_conf *c);
void la_preset_freq(la_conf *c);

/* ---- LAMI 1.0 (la_lami.c) ---- */

json_object *la_lami_table(la_run *r, const char *cls, int64_t begin, int64_t end);
/* a table whose class is given inline (a subtitle): {"inherit": cls, "title": title} */
json_object *la_lami_table_sub(la_run *r, const char *cls, const char *title, int64_t begin,
                               int64_t end);
json_object *la_lami_row(json_object *table);
void la_lami_add(la_run *r, json_object *table); /* a table with rows joins the results */
/* --freq-series (lttng-analyses' _get_*_freq_series_table): the freq tables (each a table of
 * lower, upper, count rows, its subtitle in subtitles) as one table titled title: the first
 * table's bounds, then each table's count (unit) per row; takes both arrays */
void la_lami_add_series(la_run *r, const char *title, const char *unit, json_object *tables,
                        json_object *subtitles);
json_object *la_lami_number(double v);
json_object *la_lami_int(const char *cls, int64_t v); /* {"class": cls, "value": v} */
json_object *la_lami_value(const char *cls, double v);
json_object *la_lami_string(const char *s);
json_object *la_lami_unknown(void);
json_object *la_lami_process(const char *name, int64_t pid, int64_t tid); /* LA_NONE: absent */
json_object *la_lami_cpu(int64_t id);
json_object *la_lami_timerange(int64_t begin, int64_t end);

#endif
