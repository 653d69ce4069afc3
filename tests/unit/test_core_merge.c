/* test_core_merge.c - the k-way merge, damaged streams, filters and the call-stack builder,
 * over a small in-memory format whose streams replay arrays of (time, kind, addr) rows. */
#include "traceglot.h"
#include "core/set_internal.h"
#include "tg_test.h"

#include <stdlib.h>

struct row {
    int64_t ts;
    int kind; /* tg_event_kind, or -1: the stream reports damage here */
    uint64_t addr;
};

struct mem_stream {
    const struct row *rows;
    size_t n, pos;
    tg_event_class *cls[TG_KIND_SCHED_IN + 1];
};

static int mem_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    struct mem_stream *m = s->priv;
    if (m->pos >= m->n)
        return 0;
    const struct row *r = &m->rows[m->pos];
    if (r->kind < 0) {
        if (r->addr == 0) /* hopeless: never moves on */
            return tg_err_at(err, TG_ERR_FORMAT, "mem", m->pos, "hopeless damage");
        m->pos++;
        return tg_err_at(err, TG_ERR_FORMAT, "mem", m->pos - 1, "damaged row");
    }
    m->pos++;
    ev->ts = r->ts;
    ev->cls = m->cls[r->kind];
    ev->addr = r->addr;
    ev->offset = m->pos - 1;
    return 1;
}

static int mem_rewind(tg_stream *s, tg_error **err)
{
    ((struct mem_stream *)s->priv)->pos = 0;
    return 0;
}

static const struct tg_stream_ops mem_ops = {.next = mem_next, .rewind = mem_rewind};

static int mem_probe(const tg_probe_input *in) { return 0; }

struct mem_spec {
    const struct row *rows[4];
    size_t n[4];
    struct mem_stream streams[4];
};

static int mem_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    struct mem_spec *spec = NULL;
    sscanf(path, "%p", (void **)&spec);
    const char *names[] = {"event", "entry", "exit", "tail", "lost"};
    tg_event_class *cls[5];
    for (int k = 0; k < 5; k++)
        cls[k] = tg_trace_add_class(t, names[k], (uint64_t)k, (tg_event_kind)k);
    for (int i = 0; i < 4 && spec->rows[i]; i++) {
        struct mem_stream *m = &spec->streams[i];
        m->rows = spec->rows[i];
        m->n = spec->n[i];
        for (int k = 0; k < 5; k++)
            m->cls[k] = cls[k];
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        tg_trace_add_stream(t, &mem_ops, name, i, 100 + i, m);
    }
    return 0;
}

static const struct tg_format mem_format = {"mem", mem_probe, mem_open, NULL, NULL};

static tg_set *open_mem(struct mem_spec *spec, tg_options *o)
{
    char p[32]; /* the spec travels as the path: options take declared keys only */
    snprintf(p, sizeof p, "%p", (void *)spec);
    tg_set *set = calloc(1, sizeof *set);
    tg_error *err = NULL;
    if (!tg_set_open_child(set, &mem_format, p, o, &err)) {
        tg_error_free(err);
        free(set);
        return NULL;
    }
    return set;
}

static void test_merge_order(struct tg_test_counts *tc)
{
    static const struct row a[] = {{10, 0, 1}, {20, 0, 2}, {20, 0, 3}, {40, 0, 4}};
    static const struct row b[] = {{5, 0, 5}, {20, 0, 6}, {30, 0, 7}};
    static const struct row c[] = {{20, 0, 8}};
    struct mem_spec spec = {{a, b, c}, {4, 3, 1}};
    tg_options *o = tg_options_new();
    tg_set *set = open_mem(&spec, o);
    CHECK(tc, set != NULL);
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    const tg_event *ev;
    uint64_t want[] = {5, 1, 2, 3, 6, 8, 7, 4}; /* ties: stream order, then position */
    size_t n = 0;
    while (tg_iter_next(it, &ev) > 0) {
        if (n < 8)
            CHECK(tc, tg_event_func_addr(ev) == want[n]);
        n++;
    }
    CHECK(tc, n == 8);
    CHECK(tc, tg_iter_errors(it) == NULL);
    CHECK(tc, tg_iter_next(it, &ev) == 0);
    tg_iter_free(it);
    tg_close(set);
    tg_options_free(o);
}

static void test_damage(struct tg_test_counts *tc)
{
    static const struct row a[] = {{10, 0, 1}, {0, -1, 1}, {30, 0, 3}};
    static const struct row b[] = {{15, 0, 2}, {0, -1, 0}, {99, 0, 9}};
    struct mem_spec spec = {{a, b}, {3, 3}};
    tg_options *o = tg_options_new();
    tg_set *set = open_mem(&spec, o);
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    const tg_event *ev;
    uint64_t got[8];
    size_t n = 0;
    while (tg_iter_next(it, &ev) > 0 && n < 8)
        got[n++] = tg_event_func_addr(ev);
    /* the resumable stream goes on past its damage; the hopeless one is dropped */
    CHECK(tc, n == 3 && got[0] == 1 && got[1] == 2 && got[2] == 3);
    const tg_error *e = tg_iter_errors(it);
    CHECK(tc, e != NULL);
    CHECK_STR(tc, e ? tg_error_message(e) : NULL, "mem: offset 0x1: damaged row");
    size_t n_err = 0;
    for (; e; e = tg_error_next(e))
        n_err++;
    CHECK(tc, n_err == 1 + 64 + 1); /* one damaged row, 64 hopeless tries, the abandon */
    tg_iter_free(it);
    tg_close(set);
    tg_options_free(o);
}

static void test_filters(struct tg_test_counts *tc)
{
    static const struct row a[] = {{1000, 0, 1}, {2000, 1, 2}, {3000, 0, 3}, {4000, 0, 4}};
    static const struct row b[] = {{1500, 0, 5}, {2500, 0, 6}};
    struct mem_spec spec = {{a, b}, {4, 2}};
    tg_options *o = tg_options_new();
    tg_set *set = open_mem(&spec, o);
    tg_filter *f = tg_filter_new();
    tg_error *err = NULL;
    CHECK(tc, tg_filter_set_begin(f, "+1us", &err) == 0);
    CHECK(tc, tg_filter_set_end(f, "0.000003", &err) == 0);
    CHECK(tc, tg_filter_set_events(f, "ev*", &err) == 0);
    tg_iter *it = tg_iter_new(set, f, NULL);
    const tg_event *ev;
    uint64_t sum = 0;
    while (tg_iter_next(it, &ev) > 0)
        sum += tg_event_func_addr(ev);
    CHECK(tc, sum == 6 + 3); /* 2500 (b) and 3000 (a); 2000 is not an "ev*" */
    tg_iter_free(it);
    tg_filter_free(f);

    f = tg_filter_new();
    CHECK(tc, tg_filter_set_tids(f, "101", &err) == 0);
    it = tg_iter_new(set, f, NULL);
    size_t n = 0;
    while (tg_iter_next(it, &ev) > 0)
        n++;
    CHECK(tc, n == 2);
    tg_iter_free(it);
    CHECK(tc, tg_filter_set_cpus(f, "x", &err) == TG_ERR_USAGE);
    CHECK(tc, err != NULL);
    tg_error_free(err);
    err = NULL;
    CHECK(tc, tg_filter_set_begin(f, "+abc", &err) == TG_ERR_USAGE);
    tg_error_free(err);
    tg_filter_free(f);
    tg_close(set);
    tg_options_free(o);
}

struct calls {
    tg_call c[16];
    size_t n;
};

static void on_call(void *ctx, const tg_call *call)
{
    struct calls *cs = ctx;
    if (cs->n < 16)
        cs->c[cs->n++] = *call;
}

static void test_callstack(struct tg_test_counts *tc)
{
    /* main(1){ a(2){ b(3) }  c(4) -- exit of a missing -- } ; exit of 9 without entry */
    static const struct row a[] = {{0, 1, 1},  {10, 1, 2}, {20, 1, 3}, {30, 2, 3},
                                   {40, 1, 4}, {50, 2, 1}, {60, 2, 9}, {70, 1, 5}};
    struct mem_spec spec = {{a}, {8}};
    tg_options *o = tg_options_new();
    tg_set *set = open_mem(&spec, o);
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    struct calls got = {0};
    tg_callstack *cs = tg_callstack_new(on_call, &got);
    const tg_event *ev;
    while (tg_iter_next(it, &ev) > 0)
        tg_callstack_feed(cs, ev);
    CHECK(tc, tg_callstack_depth(cs, 100) == 1);
    tg_callstack_finish(cs);
    CHECK(tc, got.n == 6);
    /* b: 20..30 depth 2; c and a unwound at 50; main 0..50 with child a (10..50) */
    CHECK(tc, got.c[0].addr == 3 && got.c[0].entry_ns == 20 && got.c[0].exit_ns == 30 &&
                  got.c[0].depth == 2);
    CHECK(tc, got.c[1].addr == 4 && (got.c[1].flags & TG_CALL_NO_EXIT) && got.c[1].exit_ns == 50);
    CHECK(tc, got.c[2].addr == 2 && (got.c[2].flags & TG_CALL_NO_EXIT) && got.c[2].child_ns == 20);
    CHECK(tc, got.c[3].addr == 1 && got.c[3].flags == 0 && got.c[3].child_ns == 40 &&
                  got.c[3].exit_ns - got.c[3].entry_ns == 50);
    CHECK(tc, got.c[4].addr == 9 && (got.c[4].flags & TG_CALL_NO_ENTRY));
    CHECK(tc, got.c[5].addr == 5 && (got.c[5].flags & TG_CALL_NO_EXIT) && got.c[5].exit_ns == 70);
    tg_callstack_free(cs);
    tg_iter_free(it);
    tg_close(set);
    tg_options_free(o);
}

/* Feeds rows a[0..n) to a builder under rules; the calls in got. */
static void feed_rows(const struct row *a, size_t n, tg_stack_rules rules, struct calls *got)
{
    struct mem_spec spec = {{a}, {n}};
    tg_options *o = tg_options_new();
    tg_set *set = open_mem(&spec, o);
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    tg_callstack *cs = tg_callstack_new(on_call, got);
    tg_callstack_set_rules(cs, rules);
    const tg_event *ev;
    while (tg_iter_next(it, &ev) > 0)
        tg_callstack_feed(cs, ev);
    tg_callstack_finish(cs);
    tg_callstack_free(cs);
    tg_iter_free(it);
    tg_close(set);
    tg_options_free(o);
}

static void test_callstack_top_only(struct tg_test_counts *tc)
{
    /* as above; under the top-only rules the exit of main (under c) matches nothing */
    static const struct row a[] = {{0, 1, 1},  {10, 1, 2}, {20, 1, 3}, {30, 2, 3},
                                   {40, 1, 4}, {50, 2, 1}, {60, 2, 9}, {70, 1, 5}};
    for (int r = 0; r < 2; r++) {
        struct calls got = {0};
        feed_rows(a, 8, r ? TG_STACK_LLVM_XRAY : TG_STACK_TOP_ONLY, &got);
        CHECK(tc, got.n == 7);
        CHECK(tc, got.c[0].addr == 3 && got.c[0].total_ns == 10 && got.c[0].depth == 2 &&
                      got.c[0].flags == 0);
        CHECK(tc, got.c[1].addr == 1 && got.c[1].flags == TG_CALL_NO_ENTRY);
        CHECK(tc, got.c[2].addr == 9 && got.c[2].flags == TG_CALL_NO_ENTRY);
        CHECK(tc, got.c[3].addr == 5 && got.c[3].flags == TG_CALL_NO_EXIT && got.c[3].depth == 3);
        CHECK(tc, got.c[5].addr == 2 && got.c[5].child_ns == 40 && got.c[5].total_ns == 60);
        CHECK(tc, got.c[6].addr == 1 && got.c[6].child_ns == 60 && got.c[6].depth == 0);
    }
    /* llvm-xray's: a record before the first is skipped, function ids are 32-bit */
    static const struct row b[] = {{5, 1, 0x100000001ull}, {3, 1, 2}, {8, 2, 1}};
    struct calls got = {0};
    feed_rows(b, 3, TG_STACK_LLVM_XRAY, &got);
    CHECK(tc, got.n == 1 && got.c[0].addr == 1 && got.c[0].total_ns == 3 && got.c[0].flags == 0);
    got.n = 0;
    feed_rows(b, 3, TG_STACK_TOP_ONLY, &got);
    CHECK(tc, got.n == 3 && got.c[0].flags == TG_CALL_NO_ENTRY);
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_merge_order(&tc);
    test_damage(&tc);
    test_filters(&tc);
    test_callstack(&tc);
    test_callstack_top_only(&tc);
    return tg_test_done(&tc);
}
