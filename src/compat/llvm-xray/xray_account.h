/* xray_account.h - what the "xray" report style's account (xray_account.c) shares with its
 * --diff (xray_account_diff.c): one run's account, its rows and the way they are printed. */
#ifndef TG_XRAY_ACCOUNT_H
#define TG_XRAY_ACCOUNT_H

#include "analysis/callstack.h"
#include "core/consumer.h"
#include "core/hash.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct func_lat {
    int32_t id;
    uint64_t *v;
    size_t n, cap;
    char *name, *location;
} func_lat;

typedef struct acct {
    tg_callstack *cs; /* the builder, under llvm-xray's rules, stepped in line */
    tg_hash by_id;    /* function id -> index into funcs */
    func_lat *funcs;
    size_t n_funcs, cap_funcs;
    func_lat *lastf;   /* the function of the previous latency (NULL: none) */
    uint32_t *hist;    /* percentile histogram (allocated for big functions only) */
    bool keep_going;   /* -keep-going: a record llvm-xray cannot account is skipped */
    tg_buf *notes;     /* where a skipped record is said (llvm-xray's stderr; NULL: not) */
    bool deduce;       /* -deduce-sibling-calls */
    bool stopped;      /* without -keep-going: stopped at such a record (nothing printed) */
    tg_trace *damaged; /* the first basic-mode log found damaged (llvm cannot load it) */
    bool recursive;    /* -recursive-calls-only: latencies only of recursive calls (below) */
    tg_hash recursion; /* (thread, function id) -> its frames on the stack, and bit 32: it
                        * called itself since its outermost frame began */
} acct;

typedef struct row {
    int32_t id;
    uint64_t count;
    double min, med, p90, p99, max, sum;
    const char *name, *location;
} row;

enum sort_key { K_FUNCID, K_COUNT, K_MIN, K_MED, K_90P, K_99P, K_MAX, K_SUM, K_FUNC };

/* One run's account: the stacks and latencies, then the rows in llvm's order. */
typedef struct account {
    acct a;
    uint64_t freq;
    row *rows;
    size_t *idx; /* rows in the printed order */
    size_t n;
} account;

int xray_account_parse_sort(const tg_options *opts, enum sort_key *key, int *asc);
int xray_account_bad_sort(tg_error **err);
/* Reads a set as llvm-xray account does and makes its rows, sorted by key (xray_account.c). */
int xray_account_run_set(account *ac, tg_set *set, tg_iter *it, enum sort_key key, int asc,
                         const tg_options *opts, tg_buf *notes, tg_error **err);
/* A record llvm-xray account cannot account (xray_account_skip.c): with -keep-going said in
 * the notes and skipped (0), else the account stops with llvm-xray's message as the error. */
int xray_account_skip(acct *a, const tg_event *ev, uint64_t tsc, tg_error **err);
void xray_account_free(account *ac);
/* llvm-xray's failure to load the basic-mode log tr (xray_load_error.c): its message as the
 * error; the negative status. */
int xray_load_failure(tg_trace *tr, tg_error **err);
/* tr is a basic-mode log; a basic-mode log of no record, which llvm-xray cannot load. */
bool xray_log_is_basic(tg_trace *tr);
bool xray_basic_has_no_record(tg_trace *tr);
void xray_account_put_header(tg_buf *out);
void xray_account_put_row(tg_buf *out, const row *r);
size_t xray_account_top_of(const tg_options *opts, size_t n);
/* --format json (xray_account_json.c): the account's rows as one document into out. */
int xray_account_put_json(tg_buf *out, const account *ac, const tg_options *opts, tg_error **err);
/* --diff --format json: a document to add rows to, then written with tg_json_doc_put; a
 * function of PATH (path) and of OTHER (other), either NULL where that run lacks it. */
struct json_object *xray_diff_json_new(void);
void xray_diff_json_add(struct json_object *doc, const row *path, const row *other);
/* report --diff of the xray style (xray_account_diff.c) */
int xray_account_diff(tg_set *set, tg_iter *it, tg_set *other, tg_iter *other_it,
                      const tg_options *opts, tg_buf *out, tg_error **err);

#endif
