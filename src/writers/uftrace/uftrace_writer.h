/* uftrace_writer.h - the uftrace data-directory writer's state, shared by the record writer
 * (uftrace_write.c), the argument writer (uftrace_args.c) and the writer of the directory's
 * text files (uftrace_meta.c). */
#ifndef TG_UFTRACE_WRITER_H
#define TG_UFTRACE_WRITER_H

#include "traceglot.h"

#include <stdbool.h>
#include <stdint.h>

/* The one module every function lives in: mapped at UW_BASE, function i at offset
 * UW_FIRST + i * UW_STEP. */
#define UW_BASE 0x400000ull
#define UW_FIRST 0x1000ull
#define UW_STEP 0x10ull

typedef struct uw_thread {
    int tid, pid;
    int fd;
    tg_buf *out; /* TID.dat, flushed as it fills */
    int open;    /* frames open, for inputs without recorded depths */
    int64_t first_ns;
    uint64_t n_records;
    /* function_graph's call times (uftrace_hold.c): the records held until the entries
     * waiting for their exit (offsets in held) know when they began */
    uint8_t *held;
    size_t n_held, cap_held;
    size_t *waiting;
    size_t n_waiting, cap_waiting;
    size_t n_implied; /* held's first records: the entries the first record implies */
} uw_thread;

#define UW_RECORD 16 /* bytes of a record (before its arguments) */

/* uftrace_hold.c: the thread's next bytes, held while an entry waits, else written; 0 or
 * TG_ERR_NOMEM. */
int uw_hold_put(uw_thread *t, const void *p, size_t n);
/* The next record put is an entry that waits for its exit's calltime. */
int uw_hold_entry(uw_thread *t);
/* An exit (second record word word1) that ended the innermost waiting entry gives it its
 * start call_ns: true; false when it ends none (what was held is written as it is). */
bool uw_hold_exit(uw_thread *t, uint64_t word1, int64_t call_ns);
/* After an exit's record: the held records are written when no entry waits any more. */
void uw_hold_done(uw_thread *t);
/* Writes what is held, the waiting entries at their record times (implied ones that no exit
 * named: not at all). */
void uw_hold_release(uw_thread *t);

/* perf-cpuN.dat: the scheduling and task records of one cpu, as uftrace's perf reader reads
 * them (perf_event records with sample_id_all: pid, tid, time at the end). */
typedef struct uw_perf {
    int cpu;
    int fd;
    tg_buf *out;
} uw_perf;

/* A function of the written module, with the specs of its arguments and return value
 * ("arg1/d32,arg2/s", "retval/d32"; NULL: none written). */
typedef struct uw_func {
    char *name;
    char *args, *ret;
    unsigned no_spec; /* bit 0: arguments, bit 1: return value cannot be written */
} uw_func;

typedef struct uw_writer {
    const char *dir;
    tg_set *set;
    uw_thread *threads;
    size_t n_threads, cap_threads;
    uw_thread *last;
    uw_func *funcs; /* by function index */
    size_t n_funcs, cap_funcs;
    uint64_t *cache_addr; /* input address -> index + 1, direct-mapped */
    size_t *cache_index;
    uw_perf *perf;
    size_t n_perf, cap_perf;
    int any;
    int64_t first_ns, last_ns;
    /* Records of two threads with the same time: uftrace replays the thread listed first in
     * info's task list first, so such pairs order the list (before[i] precedes after[i]). */
    int prev_tid;
    int64_t prev_ns;
    int *before, *after;
    size_t n_ties, cap_before, cap_after;
    tg_buf *payload; /* one record's argument values */
    /* Inputs whose exits carry no address (LTTng-UST cyg_profile_fast): the one call-stack
     * builder, fed their function records, says which function each exit ended. */
    tg_callstack *stacks; /* NULL: no such input */
    uint64_t ended_addr;
    const char *ended_name;
    tg_value *vals;
    size_t cap_vals;
    bool hold;         /* exits hold their call's times (function_graph): uftrace_hold.c */
    char program[256]; /* the procname the first call's contexts give ("\1": none) */
} uw_writer;

/* The order of threads for info's task list (indexes into w->threads): tids, the input's
 * own list ("1,2,3"), first where given; caller frees. */
size_t *uw_thread_order(const uw_writer *w, const char *tids);

/* Appends to out the payload of vals[0..n) (arguments, or the return value) by f's spec,
 * made from these values at the first call: 1 when written, 0 when they cannot be. */
int uw_args_payload(uw_func *f, int is_ret, const tg_value *vals, size_t n, tg_buf *out);
/* Whether any function has argument (is_ret 0) or return value (1) specs. */
int uw_args_any(const uw_writer *w, int is_ret);
/* Appends info's argspec lines. */
void uw_args_info(const uw_writer *w, tg_buf *b);

/* Writes info, task.txt, the session map and the symbol file. */
int uw_write_meta(const uw_writer *w, tg_error **err);

#endif
