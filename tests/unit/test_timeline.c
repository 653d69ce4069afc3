/* test_timeline.c - several traces on one timeline: clock domains, the shift each trace
 * gets (exact, through a marker, by wall time, by the user's offset, none), the warnings,
 * the options' errors, and the two event times (shared timeline, trace's own clock). */
#include "tg_test.h"
#include "traceglot.h"

#include <stdlib.h>
#include <sys/stat.h>

#define MIXED TG_CORPUS "/mixed"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Opens paths with "clock-align" = align and "clock-offset" = offset (either may be NULL). */
static tg_set *open_set(const char *const *paths, size_t n, const char *align, const char *offset,
                        tg_error **err)
{
    tg_options *o = tg_options_new();
    if (align)
        tg_options_set(o, "clock-align", align);
    if (offset)
        tg_options_set(o, "clock-offset", offset);
    tg_set *set = tg_open(paths, n, o, err);
    tg_options_free(o);
    return set;
}

static tg_set *open_ok(struct tg_test_counts *tc, const char *const *paths, size_t n,
                       const char *align, const char *offset)
{
    tg_error *err = NULL;
    tg_set *set = open_set(paths, n, align, offset, &err);
    CHECK(tc, set != NULL);
    if (!set) {
        fprintf(stderr, "%s\n", tg_error_message(err));
        tg_error_free(err);
    }
    return set;
}

static void test_mixed(struct tg_test_counts *tc)
{
    const char *paths[] = {MIXED "/app.uftrace.data", MIXED "/ust", MIXED "/kernel.dat"};
    if (!exists(paths[1]))
        return;
    const int64_t lttng_offset = 1795376243376209765ll;
    tg_set *set = open_ok(tc, paths, 3, NULL, NULL);
    if (!set)
        return;
    const tg_trace *u = tg_set_trace(set, 0), *l = tg_set_trace(set, 1), *k = tg_set_trace(set, 2);
    CHECK(tc, tg_trace_alignment(u) == TG_ALIGN_OWN && tg_trace_shift_ns(u) == 0);
    CHECK(tc, tg_trace_alignment(l) == TG_ALIGN_EXACT && tg_trace_shift_ns(l) == -lttng_offset);
    CHECK(tc, tg_trace_alignment(k) == TG_ALIGN_EXACT && tg_trace_shift_ns(k) == 0);
    CHECK_STR(tc, tg_trace_clock_domain(l), "monotonic@vm");
    CHECK(tc, tg_set_warnings(set) == NULL);
    /* the tracepoint of round 0: on the timeline (monotonic) and on LTTng's own clock */
    tg_filter *f = tg_filter_new();
    tg_filter_set_events(f, "tg_mixed:round", NULL);
    tg_iter *it = tg_iter_new(set, f, NULL);
    const tg_event *ev;
    CHECK(tc, it && tg_iter_next(it, &ev) == 1);
    if (it) {
        CHECK(tc, tg_event_time_ns(ev) == 1436384855748ll);
        CHECK(tc, tg_event_trace_time_ns(ev) == 1795377679761065513ll);
    }
    tg_iter_free(it);
    tg_close(set);
    /* a peer style's iterator (on a fresh set: CTF streams are read once): LTTng's own
     * times order and bound the events, the event still says its timeline time */
    set = open_ok(tc, paths, 3, NULL, NULL);
    it = set ? tg_iter_new(set, NULL, NULL) : NULL;
    if (it) {
        tg_iter_use_trace_clocks(it);
        int64_t last = INT64_MIN;
        bool ordered = true, lttng_last = true, seen_lttng = false;
        while (tg_iter_next(it, &ev) == 1) {
            ordered = ordered && tg_event_trace_time_ns(ev) >= last;
            last = tg_event_trace_time_ns(ev);
            bool is_lttng = tg_event_trace(ev) == tg_set_trace(set, 1);
            lttng_last = lttng_last && (is_lttng || !seen_lttng);
            seen_lttng = seen_lttng || is_lttng;
        }
        CHECK(tc, ordered && seen_lttng && lttng_last);
    }
    tg_iter_free(it);
    tg_close(set);
    tg_filter_free(f);

    /* LTTng first: the timeline is LTTng's clock, the others move by its offset */
    const char *rev[] = {paths[1], paths[0], paths[2]};
    set = open_ok(tc, rev, 3, "auto", NULL);
    if (set) {
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 0)) == 0);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 1)) == lttng_offset);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 2)) == lttng_offset);
        tg_close(set);
    }
    /* realtime: LTTng's times are wall times; the others reach the wall clock through LTTng's
     * reading on the same host and clock */
    set = open_ok(tc, paths, 3, "realtime", NULL);
    if (set) {
        CHECK(tc, tg_trace_alignment(tg_set_trace(set, 0)) == TG_ALIGN_WALL);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 0)) == lttng_offset);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 1)) == 0);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 2)) == lttng_offset);
        tg_close(set);
    }
    /* none, plus a user offset on one trace */
    set = open_ok(tc, paths, 3, "none", MIXED "/kernel.dat=-1.5ms");
    if (set) {
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 0)) == 0);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 1)) == 0);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 2)) == -1500000);
        tg_close(set);
    }
    /* two offsets, one on a directory the CTF trace was found under */
    set = open_ok(tc, paths, 3, NULL, MIXED "/ust/=+20us\n" MIXED "/app.uftrace.data=+1s");
    if (set) {
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 0)) == 1000000000);
        CHECK(tc, tg_trace_shift_ns(tg_set_trace(set, 1)) == -lttng_offset + 20000);
        tg_close(set);
    }
}

/* ftrace's local clock is not the monotonic clock: own times and a warning, unless the user
 * gives an offset. */
static void test_local_clock(struct tg_test_counts *tc)
{
    const char *paths[] = {TG_TEST_DATA "/uftrace/threads.data",
                           TG_TEST_DATA "/ftrace/all-events-v7.dat"};
    tg_set *set = open_ok(tc, paths, 2, NULL, NULL);
    if (!set)
        return;
    const tg_trace *k = tg_set_trace(set, 1);
    CHECK(tc, tg_trace_alignment(k) == TG_ALIGN_NONE && tg_trace_shift_ns(k) == 0);
    CHECK_STR(tc, tg_trace_clock_domain(k), "local@vm");
    const tg_error *w = tg_set_warnings(set);
    CHECK(tc, w && strstr(tg_error_message(w), "per-CPU scheduler clock"));
    CHECK(tc, w && tg_error_next(w) == NULL);
    tg_close(set);
    set = open_ok(tc, paths, 2, NULL, TG_TEST_DATA "/ftrace/all-events-v7.dat=+0");
    if (set) {
        CHECK(tc, tg_trace_alignment(tg_set_trace(set, 1)) == TG_ALIGN_USER);
        CHECK(tc, tg_set_warnings(set) == NULL);
        tg_close(set);
    }
    /* a local clock alone is simply its own timeline */
    set = open_ok(tc, paths + 1, 1, NULL, NULL);
    if (set) {
        CHECK(tc, tg_trace_alignment(tg_set_trace(set, 0)) == TG_ALIGN_OWN);
        CHECK(tc, tg_set_warnings(set) == NULL);
        tg_close(set);
    }
}

/* XRay's buffer markers read the monotonic clock: the log meets a monotonic trace there. */
static void test_marker(struct tg_test_counts *tc)
{
    const char *paths[] = {TG_TEST_DATA "/uftrace/threads.data", TG_TEST_DATA "/xray/fdr.xray"};
    tg_set *set = open_ok(tc, paths, 2, NULL, NULL);
    if (!set)
        return;
    const tg_trace *x = tg_set_trace(set, 1);
    CHECK(tc, tg_trace_alignment(x) == TG_ALIGN_MARKER);
    CHECK(tc, tg_trace_shift_ns(x) == tg_trace_clock(x)->sync_offset_ns);
    CHECK(tc, strstr(tg_trace_alignment_note(x), "not recorded") != NULL);
    tg_close(set);
}

/* Monotonic clocks of different hosts are never aligned; wall-clock readings are. */
static void test_hosts(struct tg_test_counts *tc)
{
    const char *other = TG_CORPUS "/ctf/babeltrace/succeed/multi-domains/kernel";
    if (!exists(other))
        return;
    const char *mono[] = {TG_TEST_DATA "/uftrace/threads.data", other};
    tg_set *set = open_ok(tc, mono, 2, NULL, NULL);
    if (set) {
        const tg_trace *t = tg_set_trace(set, 1);
        CHECK(tc, tg_trace_alignment(t) == TG_ALIGN_NONE);
        CHECK(tc, strstr(tg_trace_alignment_note(t), "different hosts") != NULL);
        tg_close(set);
    }
    const char *wall[] = {TG_TEST_DATA "/ctf/types", other};
    set = open_ok(tc, wall, 2, NULL, NULL);
    if (set) {
        const tg_trace *t = tg_set_trace(set, 1);
        CHECK(tc, tg_trace_alignment(t) == TG_ALIGN_WALL && tg_trace_shift_ns(t) == 0);
        tg_close(set);
    }
}

static void test_bad_options(struct tg_test_counts *tc)
{
    const char *paths[] = {TG_TEST_DATA "/uftrace/threads.data"};
    /* a mode that is none of the choices is refused when it is set */
    tg_options *o = tg_options_new();
    CHECK(tc, tg_options_set(o, "clock-align", "sometimes") == TG_ERR_USAGE);
    tg_options_free(o);
    const char *bad[][2] = {
        {NULL, "threads.data+1ms"},
        {NULL, TG_TEST_DATA "/uftrace/threads.data=1ms"},
        {NULL, TG_TEST_DATA "/uftrace/threads.data=+1parsec"},
        {NULL, "/nowhere=+1ms"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tg_error *err = NULL;
        tg_set *set = open_set(paths, 1, bad[i][0], bad[i][1], &err);
        CHECK(tc, set == NULL && err && tg_error_status(err) == TG_ERR_USAGE);
        tg_error_free(err);
        tg_close(set);
    }
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_mixed(&tc);
    test_local_clock(&tc);
    test_marker(&tc);
    test_hosts(&tc);
    test_bad_options(&tc);
    return tg_test_done(&tc);
}
