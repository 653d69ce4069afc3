/* la_syscalls.c - `traceglot analyze syscallstats`: lttng-syscallstats' per-thread system
 * call statistics (count, min, average, max and standard deviation of the durations, the
 * return values counted by errno name), text and LAMI.
 *
 * Its definitions: a call is from its syscall_entry_NAME (sys_NAME) to the next
 * syscall_exit_NAME (exit_syscall) on the CPU while the same thread runs there; the thread is
 * the one lttng-analyses saw switched in on that CPU (calls before a CPU's first switch are
 * not counted).  Its quirks are kept: each return value is counted once more than it
 * occurred, the deviation is printed from three calls on, durations are printed as Python's
 * repr of round(us, 3), threads by their call count then first seen. */
#include "analysis/la_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python's errno.errorcode on Linux (the names lttng-analyses prints) */
static const char *const errno_names[] = {
    [1] = "EPERM",
    [2] = "ENOENT",
    [3] = "ESRCH",
    [4] = "EINTR",
    [5] = "EIO",
    [6] = "ENXIO",
    [7] = "E2BIG",
    [8] = "ENOEXEC",
    [9] = "EBADF",
    [10] = "ECHILD",
    [11] = "EAGAIN",
    [12] = "ENOMEM",
    [13] = "EACCES",
    [14] = "EFAULT",
    [15] = "ENOTBLK",
    [16] = "EBUSY",
    [17] = "EEXIST",
    [18] = "EXDEV",
    [19] = "ENODEV",
    [20] = "ENOTDIR",
    [21] = "EISDIR",
    [22] = "EINVAL",
    [23] = "ENFILE",
    [24] = "EMFILE",
    [25] = "ENOTTY",
    [26] = "ETXTBSY",
    [27] = "EFBIG",
    [28] = "ENOSPC",
    [29] = "ESPIPE",
    [30] = "EROFS",
    [31] = "EMLINK",
    [32] = "EPIPE",
    [33] = "EDOM",
    [34] = "ERANGE",
    [35] = "EDEADLOCK",
    [36] = "ENAMETOOLONG",
    [37] = "ENOLCK",
    [38] = "ENOSYS",
    [39] = "ENOTEMPTY",
    [40] = "ELOOP",
    [42] = "ENOMSG",
    [43] = "EIDRM",
    [44] = "ECHRNG",
    [45] = "EL2NSYNC",
    [46] = "EL3HLT",
    [47] = "EL3RST",
    [48] = "ELNRNG",
    [49] = "EUNATCH",
    [50] = "ENOCSI",
    [51] = "EL2HLT",
    [52] = "EBADE",
    [53] = "EBADR",
    [54] = "EXFULL",
    [55] = "ENOANO",
    [56] = "EBADRQC",
    [57] = "EBADSLT",
    [59] = "EBFONT",
    [60] = "ENOSTR",
    [61] = "ENODATA",
    [62] = "ETIME",
    [63] = "ENOSR",
    [64] = "ENONET",
    [65] = "ENOPKG",
    [66] = "EREMOTE",
    [67] = "ENOLINK",
    [68] = "EADV",
    [69] = "ESRMNT",
    [70] = "ECOMM",
    [71] = "EPROTO",
    [72] = "EMULTIHOP",
    [73] = "EDOTDOT",
    [74] = "EBADMSG",
    [75] = "EOVERFLOW",
    [76] = "ENOTUNIQ",
    [77] = "EBADFD",
    [78] = "EREMCHG",
    [79] = "ELIBACC",
    [80] = "ELIBBAD",
    [81] = "ELIBSCN",
    [82] = "ELIBMAX",
    [83] = "ELIBEXEC",
    [84] = "EILSEQ",
    [85] = "ERESTART",
    [86] = "ESTRPIPE",
    [87] = "EUSERS",
    [88] = "ENOTSOCK",
    [89] = "EDESTADDRREQ",
    [90] = "EMSGSIZE",
    [91] = "EPROTOTYPE",
    [92] = "ENOPROTOOPT",
    [93] = "EPROTONOSUPPORT",
    [94] = "ESOCKTNOSUPPORT",
    [95] = "ENOTSUP",
    [96] = "EPFNOSUPPORT",
    [97] = "EAFNOSUPPORT",
    [98] = "EADDRINUSE",
    [99] = "EADDRNOTAVAIL",
    [100] = "ENETDOWN",
    [101] = "ENETUNREACH",
    [102] = "ENETRESET",
    [103] = "ECONNABORTED",
    [104] = "ECONNRESET",
    [105] = "ENOBUFS",
    [106] = "EISCONN",
    [107] = "ENOTCONN",
    [108] = "ESHUTDOWN",
    [109] = "ETOOMANYREFS",
    [110] = "ETIMEDOUT",
    [111] = "ECONNREFUSED",
    [112] = "EHOSTDOWN",
    [113] = "EHOSTUNREACH",
    [114] = "EALREADY",
    [115] = "EINPROGRESS",
    [116] = "ESTALE",
    [117] = "EUCLEAN",
    [118] = "ENOTNAM",
    [119] = "ENAVAIL",
    [120] = "EISNAM",
    [121] = "EREMOTEIO",
    [122] = "EDQUOT",
    [123] = "ENOMEDIUM",
    [124] = "EMEDIUMTYPE",
    [125] = "ECANCELED",
    [126] = "ENOKEY",
    [127] = "EKEYEXPIRED",
    [128] = "EKEYREVOKED",
    [129] = "EKEYREJECTED",
    [130] = "EOWNERDEAD",
    [131] = "ENOTRECOVERABLE",
    [132] = "ERFKILL",
};

struct call {
    int64_t duration, ret;
};

struct sc_stats {
    uint32_t name;
    struct call *calls;
    size_t n, cap;
    int64_t min, max, total;
};

struct sc_tid {
    int64_t tid, pid;
    char comm[LA_COMM_MAX];
    struct sc_stats *calls;
    size_t n_calls, cap_calls;
    size_t total;
};

struct syscalls {
    la_run *run;
    struct sc_tid *tids;
    size_t n_tids, cap_tids;
    tg_hash by_tid;
    size_t total;
    bool nomem;
};

static void on_exit_call(void *ctx, size_t proc, const tg_event *ev, int64_t ret, bool has_ret)
{
    struct syscalls *s = ctx;
    la_run *r = s->run;
    const la_proc *p = la_proc_at(&r->st, proc);
    if (!has_ret || !la_filter_proc(&r->conf, p) || !la_filter_cpu(&r->conf, ev->cpu))
        return;
    uint64_t *slot = tg_hash_find(&s->by_tid, (uint64_t)p->tid);
    struct sc_tid *t;
    if (slot) {
        t = &s->tids[*slot];
    } else {
        if (tg_grow(&s->tids, &s->cap_tids, s->n_tids + 1, sizeof *s->tids) < 0 ||
            tg_hash_insert(&s->by_tid, (uint64_t)p->tid, &slot) < 0) {
            s->nomem = true;
            return;
        }
        *slot = s->n_tids;
        t = &s->tids[s->n_tids++];
        memset(t, 0, sizeof *t);
        t->tid = p->tid;
        t->pid = p->pid;
        snprintf(t->comm, sizeof t->comm, "%s", p->comm);
    }
    struct sc_stats *c = NULL;
    for (size_t i = 0; i < t->n_calls && !c; i++)
        if (t->calls[i].name == p->sc_name)
            c = &t->calls[i];
    if (!c) {
        if (tg_grow(&t->calls, &t->cap_calls, t->n_calls + 1, sizeof *t->calls) < 0) {
            s->nomem = true;
            return;
        }
        c = &t->calls[t->n_calls++];
        memset(c, 0, sizeof *c);
        c->name = p->sc_name;
    }
    if (tg_grow(&c->calls, &c->cap, c->n + 1, sizeof *c->calls) < 0) {
        s->nomem = true;
        return;
    }
    int64_t d = ev->ts - p->sc_begin;
    if (!c->n || d < c->min)
        c->min = d;
    if (!c->n || d > c->max)
        c->max = d;
    c->total += d;
    c->calls[c->n++] = (struct call){d, ret};
    t->total++;
    s->total++;
}

static int sc_begin(la_run *r)
{
    struct syscalls *s = calloc(1, sizeof *s);
    if (!s)
        return TG_ERR_NOMEM;
    s->run = r;
    r->ctx = s;
    r->st.hooks = (la_hooks){.ctx = s, .syscall_exit = on_exit_call};
    return 0;
}

static bool by_total(size_t a, size_t b, const void *arg)
{
    const struct sc_tid *t = arg;
    return t[a].total > t[b].total;
}

static bool by_count(size_t a, size_t b, const void *arg)
{
    const struct sc_stats *c = arg;
    return c[a].n > c[b].n;
}

/* str() of lttng-analyses' return value dict: {'success': 3, 'EAGAIN': 2} */
static void return_values(const struct sc_stats *c, char *buf, size_t size)
{
    char keys[64][24];
    int64_t counts[64];
    size_t n = 0, len = 0;
    for (size_t i = 0; i < c->n; i++) {
        char key[24];
        int64_t ret = c->calls[i].ret;
        if (ret >= 0)
            snprintf(key, sizeof key, "success");
        else if (-ret < (int64_t)(sizeof errno_names / sizeof *errno_names) && errno_names[-ret])
            snprintf(key, sizeof key, "%s", errno_names[-ret]);
        else
            snprintf(key, sizeof key, "%lld", (long long)ret);
        size_t k = 0;
        while (k < n && strcmp(keys[k], key) != 0)
            k++;
        if (k == n) {
            if (n == 64)
                continue;
            snprintf(keys[n], sizeof keys[n], "%s", key);
            counts[n++] = 1; /* as lttng-analyses: the first one counts twice */
        }
        counts[k]++;
    }
    len += (size_t)snprintf(buf + len, size - len, "{");
    for (size_t k = 0; k < n && len < size; k++)
        len += (size_t)snprintf(buf + len, size - len, "%s'%s': %lld", k ? ", " : "", keys[k],
                                (long long)counts[k]);
    if (len < size)
        snprintf(buf + len, size - len, "}");
}

static double call_stdev(const struct sc_stats *c)
{
    if (c->n <= 2)
        return NAN;
    int64_t *xs = malloc(c->n * sizeof *xs);
    if (!xs)
        return NAN;
    for (size_t i = 0; i < c->n; i++)
        xs[i] = c->calls[i].duration;
    double v = la_stdev(xs, c->n);
    free(xs);
    return v;
}

static void line(tg_buf *out, const char *const f[7])
{
    static const int w[7] = {38, 14, 14, 14, 12, 10, 14};
    for (int i = 0; i < 7; i++) {
        if (i == 6)
            tg_buf_putc(out, ' ');
        if (i)
            tg_buf_putc(out, ' ');
        la_pad(out, f[i], w[i], i == 0 || i == 6 ? '<' : '>');
    }
    tg_buf_putc(out, '\n');
}

static void repr3(char *buf, size_t size, double ns)
{
    la_float_repr(buf, size, la_round3(ns / 1000));
}

static int sc_end(la_run *r, tg_buf *out)
{
    struct syscalls *s = r->ctx;
    if (s->nomem)
        return TG_ERR_NOMEM;
    int64_t begin = r->period_begin, end = r->last_ts;
    size_t *idx = malloc((s->n_tids + 1) * sizeof *idx);
    if (!idx)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < s->n_tids; i++)
        idx[i] = i;
    la_sort(idx, s->n_tids, by_total, s->tids);
    json_object *total_t = NULL;
    if (r->conf.json)
        total_t = la_lami_table(r, "total", begin, end);
    else {
        la_print_timerange(r, out, begin, end);
        tg_buf_puts(out, "Per-TID syscalls statistics (usec)\n");
    }
    size_t total = 0;
    int rc = 0;
    json_object *tables = r->conf.json ? json_object_new_array() : NULL;
    for (size_t i = 0; i < s->n_tids && rc == 0; i++) {
        struct sc_tid *t = &s->tids[idx[i]];
        if (!t->total)
            continue;
        char pid[24], sub[LA_COMM_MAX + 64];
        if (t->pid == LA_NONE)
            snprintf(pid, sizeof pid, "?");
        else
            snprintf(pid, sizeof pid, "%lld", (long long)t->pid);
        snprintf(sub, sizeof sub, "%s (%s, TID: %lld)", t->comm, pid, (long long)t->tid);
        size_t *ci = malloc((t->n_calls + 1) * sizeof *ci);
        if (!ci) {
            rc = TG_ERR_NOMEM;
            break;
        }
        for (size_t k = 0; k < t->n_calls; k++)
            ci[k] = k;
        la_sort(ci, t->n_calls, by_count, t->calls);
        json_object *tt = NULL;
        if (r->conf.json) {
            char title[LA_COMM_MAX + 96];
            snprintf(title, sizeof title, "System call statistics [%s]", sub);
            tt = la_lami_table_sub(r, "per-tid", title, begin, end);
        } else {
            const char *h[7] = {sub, "Count", "Min", "Average", "Max", "Stdev", "Return values"};
            line(out, h);
        }
        for (size_t k = 0; k < t->n_calls; k++) {
            const struct sc_stats *c = &t->calls[ci[k]];
            char rv[1024];
            return_values(c, rv, sizeof rv);
            double sd = call_stdev(c);
            double avg = (double)c->total / (double)c->n;
            if (tt) {
                json_object *row = la_lami_row(tt);
                json_object *sc = json_object_new_object();
                json_object_object_add(sc, "class", json_object_new_string("syscall"));
                json_object_object_add(sc, "name", json_object_new_string(r->st.names[c->name]));
                json_object_array_add(row, sc);
                json_object_array_add(row, la_lami_int("number", (int64_t)c->n));
                json_object_array_add(row, la_lami_int("duration", c->min));
                json_object_array_add(row, la_lami_value("duration", avg));
                json_object_array_add(row, la_lami_int("duration", c->max));
                json_object_array_add(row, isnan(sd) ? la_lami_unknown()
                                                     : la_lami_value("duration", sd));
                json_object_array_add(row, la_lami_string(rv));
                continue;
            }
            char name[160], cnt[24], mn[48], av[48], mx[48], sdv[48];
            snprintf(name, sizeof name, " - %s", r->st.names[c->name]);
            snprintf(cnt, sizeof cnt, "%zu", c->n);
            repr3(mn, sizeof mn, (double)c->min);
            repr3(av, sizeof av, avg);
            repr3(mx, sizeof mx, (double)c->max);
            if (isnan(sd))
                snprintf(sdv, sizeof sdv, "?");
            else
                repr3(sdv, sizeof sdv, sd);
            const char *f[7] = {name, cnt, mn, av, mx, sdv, rv};
            line(out, f);
        }
        free(ci);
        if (tt) {
            json_object_array_add(tables, tt);
            json_object_array_add(la_lami_row(total_t), la_lami_process(t->comm, t->pid, t->tid));
            json_object *row = json_object_array_get_idx(
                json_object_object_get(total_t, "data"),
                json_object_array_length(json_object_object_get(total_t, "data")) - 1);
            json_object_array_add(row, la_lami_int("number", (int64_t)t->total));
        } else {
            char cnt[24];
            snprintf(cnt, sizeof cnt, "%zu", t->total);
            const char *f[7] = {"Total:", cnt, "", "", "", "", ""};
            line(out, f);
            tg_buf_pad(out, '-', 113);
            tg_buf_putc(out, '\n');
        }
        total += t->total;
    }
    if (r->conf.json) {
        for (size_t i = 0; i < json_object_array_length(tables); i++)
            la_lami_add(r, json_object_get(json_object_array_get_idx(tables, i)));
        json_object_put(tables);
        la_lami_add(r, total_t);
    } else {
        tg_buf_printf(out, "\nTotal syscalls: %zu\n", total);
    }
    free(idx);
    return rc;
}

static void sc_free(la_run *r)
{
    struct syscalls *s = r->ctx;
    if (!s)
        return;
    for (size_t i = 0; i < s->n_tids; i++) {
        for (size_t k = 0; k < s->tids[i].n_calls; k++)
            free(s->tids[i].calls[k].calls);
        free(s->tids[i].calls);
    }
    free(s->tids);
    tg_hash_free(&s->by_tid);
    free(s);
    r->ctx = NULL;
}

static const char *const sc_needs[] = {"syscall_entry_*", NULL};

const la_kind la_kind_syscallstats = {
    .name = "syscallstats",
    .needs = sc_needs,
    .threads = true,
    .begin = sc_begin,
    .end = sc_end,
    .free = sc_free,
};
