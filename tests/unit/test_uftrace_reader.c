/* test_uftrace_reader.c - the uftrace reader through the public API: symbols, argument and
 * return-value fields, the reader's own rendering, the sched events of perf-cpuN.dat, and
 * damage (truncated TID.dat, wrong record magic, missing TID.dat, unparsable .sym) reported
 * with file and offset after the events before it.  Uses the fixtures in tests/data/uftrace
 * (copied to a temp dir before damaging them); skips when they are absent. */
#include "tg_test.h"
#include "traceglot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static tg_set *open_one(const char *path)
{
    tg_error *err = NULL;
    const char *paths[] = {path};
    tg_set *set = tg_open(paths, 1, NULL, &err);
    if (!set) {
        fprintf(stderr, "open %s: %s\n", path, err ? tg_error_message(err) : "?");
        tg_error_free(err);
    }
    return set;
}

static void test_args(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/uftrace/args.data");
    CHECK(tc, set != NULL);
    if (!set)
        return;
    CHECK_STR(tc, tg_trace_format(tg_set_trace(set, 0)), "uftrace");
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    const tg_event *ev;
    int found = 0;
    tg_buf *b = tg_buf_new();
    while (tg_iter_next(it, &ev) > 0) {
        const char *name = tg_event_func_name(ev);
        if (!name || strcmp(name, "add") != 0)
            continue;
        if (tg_event_kind_of(ev) == TG_KIND_FUNC_ENTRY && found == 0) {
            tg_value v;
            CHECK(tc, tg_event_field_count(ev, TG_SCOPE_PAYLOAD) == 2);
            CHECK(tc, tg_event_field(ev, TG_SCOPE_PAYLOAD, 0, &v) == 0 && v.v.s == 40);
            CHECK_STR(tc, v.name, "arg1");
            CHECK(tc, tg_event_field(ev, TG_SCOPE_PAYLOAD, 1, &v) == 0 && v.v.s == 2);
            tg_buf_reset(b);
            CHECK(tc, tg_event_render(ev, b) == 1);
            CHECK_STR(tc, tg_buf_data(b), "40, 2");
            found = 1;
        } else if (tg_event_kind_of(ev) == TG_KIND_FUNC_EXIT && found == 1) {
            tg_value v;
            CHECK(tc, tg_event_field_count(ev, TG_SCOPE_RETURN) == 1);
            CHECK(tc, tg_event_field(ev, TG_SCOPE_RETURN, 0, &v) == 0 && v.v.s == 42);
            tg_buf_reset(b);
            CHECK(tc, tg_event_render(ev, b) == 1);
            CHECK_STR(tc, tg_buf_data(b), "42");
            found = 2;
        }
    }
    CHECK(tc, found == 2);
    CHECK(tc, tg_iter_errors(it) == NULL);
    tg_buf_free(b);
    tg_iter_free(it);
    tg_close(set);
}

static void test_sched_and_depth(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/uftrace/threads.data");
    CHECK(tc, set != NULL);
    if (!set)
        return;
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    const tg_event *ev;
    long entries = 0, exits = 0, sched = 0;
    int64_t last = 0;
    int ordered = 1;
    while (tg_iter_next(it, &ev) > 0) {
        tg_event_kind k = tg_event_kind_of(ev);
        entries += k == TG_KIND_FUNC_ENTRY;
        exits += k == TG_KIND_FUNC_EXIT;
        sched += k == TG_KIND_SCHED_IN || k == TG_KIND_SCHED_OUT;
        if (k == TG_KIND_FUNC_ENTRY && tg_event_depth(ev) < 0)
            ordered = 0;
        if (tg_event_time_ns(ev) < last)
            ordered = 0;
        last = tg_event_time_ns(ev);
    }
    CHECK(tc, entries > 10 && entries == exits);
    CHECK(tc, ordered);
    (void)sched;
    tg_iter_free(it);
    tg_close(set);
}

static int copy_dir(const char *from, const char *to)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", to, from, to);
    return system(cmd);
}

/* Iterates everything; returns the number of events and the first error's message. */
static long drain(const char *dir, char *msg, size_t msglen)
{
    msg[0] = 0;
    tg_set *set = open_one(dir);
    if (!set)
        return -1;
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    const tg_event *ev;
    long n = 0;
    while (tg_iter_next(it, &ev) > 0)
        n++;
    const tg_error *e = tg_iter_errors(it);
    if (e)
        snprintf(msg, msglen, "%s", tg_error_message(e));
    tg_iter_free(it);
    tg_close(set);
    return n;
}

static void test_damage(struct tg_test_counts *tc)
{
    char dir[] = "/tmp/tg-uftrace-unit.XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(tc, 0);
        return;
    }
    char data[512], dat[600], msg[1024], cmd[1400];
    snprintf(data, sizeof data, "%s/threads.data", dir);
    CHECK(tc, copy_dir(TG_TEST_DATA "/uftrace/threads.data", data) == 0);
    long full = drain(data, msg, sizeof msg);
    CHECK(tc, full > 0 && msg[0] == 0);

    /* the biggest TID.dat, truncated in the middle of a record */
    snprintf(cmd, sizeof cmd, "ls -S %s/[0-9]*.dat | head -1", data);
    FILE *p = popen(cmd, "r");
    CHECK(tc, p && fgets(dat, sizeof dat, p));
    if (p)
        pclose(p);
    dat[strcspn(dat, "\n")] = 0;
    struct stat st;
    CHECK(tc, stat(dat, &st) == 0);
    CHECK(tc, truncate(dat, st.st_size / 2 + 5) == 0);
    long n = drain(data, msg, sizeof msg);
    CHECK(tc, n > 0 && n < full);
    CHECK(tc, strstr(msg, ".dat: offset 0x") && strstr(msg, "truncated record"));

    /* a wrong magic in record 3 */
    CHECK(tc, copy_dir(TG_TEST_DATA "/uftrace/threads.data", data) == 0);
    FILE *f = fopen(dat, "r+b");
    CHECK(tc, f != NULL);
    if (f) {
        fseek(f, 16 * 3 + 8, SEEK_SET);
        fputc(0, f);
        fclose(f);
    }
    n = drain(data, msg, sizeof msg);
    CHECK(tc, n > 3 && n < full);
    CHECK(tc, strstr(msg, "offset 0x38: bad record magic 0") != NULL);

    /* a missing TID.dat (a thread asleep at exit leaves none): the others are read, as
     * uftrace reads them, and a warning names the file */
    CHECK(tc, copy_dir(TG_TEST_DATA "/uftrace/threads.data", data) == 0);
    CHECK(tc, unlink(dat) == 0);
    n = drain(data, msg, sizeof msg);
    CHECK(tc, n > 0 && n < full && msg[0] == 0);
    {
        tg_error *werr = NULL;
        const char *wpaths[] = {data};
        tg_set *wset = tg_open(wpaths, 1, NULL, &werr);
        CHECK(tc, wset != NULL && werr == NULL);
        if (wset) {
            const tg_trace *t = tg_set_trace(wset, 0);
            CHECK(tc, tg_trace_warning_count(t) == 1 &&
                          strstr(tg_trace_warning(t, 0), "has no data file") != NULL);
        }
        tg_error_free(werr);
        tg_close(wset);
    }

    /* a .sym line that does not parse: that symbol is lost with a warning naming the file
     * and line, not the trace */
    CHECK(tc, copy_dir(TG_TEST_DATA "/uftrace/threads.data", data) == 0);
    snprintf(cmd, sizeof cmd, "echo 'zz not-a-symbol' >> %s/threads.sym", data);
    CHECK(tc, system(cmd) == 0);
    tg_error *err = NULL;
    const char *paths[] = {data};
    tg_set *set = tg_open(paths, 1, NULL, &err);
    CHECK(tc, set != NULL && err == NULL);
    if (set) {
        const tg_trace *t = tg_set_trace(set, 0);
        CHECK(tc, tg_trace_warning_count(t) == 1 &&
                      strstr(tg_trace_warning(t, 0), "threads.sym: line ") != NULL);
    }
    tg_error_free(err);
    tg_close(set);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(tc, system(cmd) == 0);
}

int main(void)
{
    struct stat st;
    if (stat(TG_TEST_DATA "/uftrace/args.data", &st) != 0) {
        printf("SKIP: no uftrace fixtures in " TG_TEST_DATA "/uftrace\n");
        return 77;
    }
    struct tg_test_counts tc = {0};
    test_args(&tc);
    test_sched_and_depth(&tc);
    test_damage(&tc);
    return tg_test_done(&tc);
}
