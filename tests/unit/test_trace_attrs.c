/* test_trace_attrs.c - every format fills the typed trace attributes (clock, host, process,
 * tracer, environment) from what its files say: checked on the committed fixtures and, when
 * the corpus is there, on its traces (the mixed recording's three clocks among them). */
#include "tg_test.h"
#include "traceglot.h"

#include <stdlib.h>
#include <sys/stat.h>

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static tg_set *open_one(const char *path)
{
    if (!exists(path))
        return NULL;
    tg_error *err = NULL;
    tg_set *set = tg_open(&path, 1, NULL, &err);
    if (!set) {
        fprintf(stderr, "%s: %s\n", path, tg_error_message(err));
        tg_error_free(err);
    }
    return set;
}

static const char *env(const tg_trace *t, const char *key)
{
    const tg_env_entry *e = tg_trace_env_find(t, key);
    return e ? e->value : NULL;
}

static void test_uftrace(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/uftrace/threads.data");
    CHECK(tc, set != NULL);
    if (!set)
        return;
    const tg_trace *t = tg_set_trace(set, 0);
    const tg_clock_info *c = tg_trace_clock(t);
    CHECK_STR(tc, c->name, "mono"); /* uftrace record's default --clock */
    CHECK(tc, c->origin == TG_CLOCK_MONOTONIC);
    CHECK(tc, c->frequency_hz == 1000000000u && c->offset_ns == 0 && !c->raw_cycles);
    CHECK(tc, c->sync_origin == TG_CLOCK_UNKNOWN);
    CHECK_STR(tc, tg_trace_clock_name(t), "mono");
    CHECK(tc, tg_trace_clock_offset_ns(t) == 0);
    CHECK_STR(tc, tg_trace_tracer(t)->name, "uftrace");
    CHECK_STR(tc, tg_trace_tracer(t)->version, "0.13");
    const tg_host_info *h = tg_trace_host(t);
    CHECK_STR(tc, h->hostname, "vm");
    CHECK_STR(tc, h->arch, "x86_64");
    CHECK_STR(tc, h->kernel, "Linux 6.18.44-fc-v595");
    CHECK(tc, h->word_bits == 64 && h->byte_order == 1);
    const tg_process_info *p = tg_trace_process(t);
    CHECK(tc, p->pid == 31568);
    CHECK_STR(tc, p->name, "threads");
    CHECK_STR(tc, p->executable, "/tmp/tg-uftrace-rec.giEK4K/threads");
    CHECK_STR(tc, env(t, "osinfo:hostname"), "vm");
    CHECK_STR(tc, env(t, "taskinfo:nr_tid"), "3");
    CHECK(tc, env(t, "cpuinfo:lines") == NULL);
    CHECK(tc, tg_trace_env_count(t) > 10);
    CHECK(tc, tg_trace_env(t, tg_trace_env_count(t)) == NULL);
    tg_close(set);
    /* the tasks of task.txt: a forked child (FORK pid=31682 ppid=31677) by its parent's
     * command, as `uftrace info` lists it (forks.info.txt: "31677(forks), 31682(forks)") */
    set = open_one(TG_TEST_DATA "/uftrace/forks.data");
    CHECK(tc, set != NULL);
    if (!set)
        return;
    t = tg_set_trace(set, 0);
    CHECK(tc, tg_trace_task_count(t) == 2 && tg_trace_task(t, 2) == NULL);
    const tg_task_info *child = tg_trace_task_find(t, 31682);
    CHECK(tc, child && child->pid == 31682 && child->ppid == 31677);
    CHECK_STR(tc, child ? child->name : NULL, "forks");
    CHECK(tc, tg_trace_task_find(t, 1) == NULL);
    tg_close(set);
}

static void test_ctf(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/ctf/types");
    CHECK(tc, set != NULL);
    if (!set)
        return;
    const tg_trace *t = tg_set_trace(set, 0);
    const tg_clock_info *c = tg_trace_clock(t);
    CHECK_STR(tc, c->name, "monotonic");
    CHECK_STR(tc, c->description, "Monotonic Clock");
    CHECK(tc, c->origin == TG_CLOCK_MONOTONIC && c->frequency_hz == 1000000000u);
    CHECK(tc, c->offset_ns == 1795320987257155480ll);
    CHECK(tc, c->sync_origin == TG_CLOCK_REALTIME && c->sync_offset_ns == c->offset_ns);
    CHECK(tc, c->has_uuid);
    CHECK_STR(tc, tg_trace_tracer(t)->name, "lttng-ust");
    CHECK_STR(tc, tg_trace_tracer(t)->version, "2.13");
    const tg_host_info *h = tg_trace_host(t);
    CHECK_STR(tc, h->hostname, "vm");
    CHECK(tc, h->word_bits == 64 && h->byte_order == 1);
    CHECK_STR(tc, h->boot_id, "5ba7cd07-3735-4174-a5b7-7dbc06aeec6b"); /* the clock's uuid */
    const tg_env_entry *bits = tg_trace_env_find(t, "architecture_bit_width");
    CHECK(tc, bits && bits->is_integer && bits->integer == 64);
    CHECK_STR(tc, env(t, "domain"), "ust");
    tg_close(set);

    /* an LTTng kernel trace (corpus): kernel release from env, lttng-modules version */
    set = open_one(TG_CORPUS "/ctf/babeltrace/succeed/multi-domains/kernel");
    if (!set)
        return;
    t = tg_set_trace(set, 0);
    CHECK_STR(tc, tg_trace_tracer(t)->name, "lttng-modules");
    CHECK_STR(tc, tg_trace_tracer(t)->version, "2.11.0");
    CHECK_STR(tc, tg_trace_host(t)->hostname, "joraj-alpa");
    CHECK_STR(tc, tg_trace_host(t)->kernel, "Linux 4.15.0-43-generic");
    CHECK(tc, tg_trace_clock(t)->offset_ns == 1564079206484157378ll);
    tg_close(set);
}

static void test_ftrace(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/ftrace/all-events-v7zstd.dat");
    CHECK(tc, set != NULL);
    if (!set)
        return;
    const tg_trace *t = tg_set_trace(set, 0);
    const tg_clock_info *c = tg_trace_clock(t);
    CHECK_STR(tc, c->name, "local");
    CHECK(tc, c->origin == TG_CLOCK_LOCAL && !c->raw_cycles && c->offset_ns == 0);
    CHECK_STR(tc, tg_trace_tracer(t)->name, "trace-cmd");
    CHECK_STR(tc, tg_trace_tracer(t)->version, "3.1.6");
    const tg_host_info *h = tg_trace_host(t);
    CHECK_STR(tc, h->hostname, "vm");
    CHECK_STR(tc, h->arch, "x86_64");
    CHECK(tc, h->word_bits == 64 && h->byte_order == 1 && h->page_size == 4096);
    CHECK(tc, tg_trace_process(t)->pid == -1);
    const tg_env_entry *cpus = tg_trace_env_find(t, "cpus");
    CHECK(tc, cpus && cpus->is_integer && cpus->integer == 2);
    tg_close(set);

    /* a 32-bit v6 file without a VERSION option (corpus) */
    set = open_one(TG_CORPUS "/ftrace/trappy-trace.dat");
    if (!set)
        return;
    t = tg_set_trace(set, 0);
    CHECK(tc, tg_trace_host(t)->word_bits == 32 && tg_trace_host(t)->page_size == 4096);
    CHECK(tc, tg_trace_tracer(t)->version == NULL);
    tg_close(set);
}

static void test_xray(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/xray/fdr.xray");
    CHECK(tc, set != NULL);
    if (set) {
        const tg_trace *t = tg_set_trace(set, 0);
        const tg_clock_info *c = tg_trace_clock(t);
        const tg_env_entry *freq = tg_trace_env_find(t, "cycle-frequency");
        CHECK(tc, c->origin == TG_CLOCK_CYCLES && !c->raw_cycles); /* counts turned into ns */
        CHECK(tc, freq && freq->is_integer && (uint64_t)freq->integer == c->frequency_hz);
        CHECK(tc, c->frequency_hz > 0);
        /* the first buffer's marker: 3927.218367 s on the monotonic clock at its first TSC */
        CHECK(tc, c->sync_origin == TG_CLOCK_MONOTONIC);
        CHECK_STR(tc, tg_trace_tracer(t)->name, "xray");
        tg_close(set);
    }
    set = open_one(TG_TEST_DATA "/xray/basic.xray");
    CHECK(tc, set != NULL);
    if (set) {
        const tg_clock_info *c = tg_trace_clock(tg_set_trace(set, 0));
        CHECK(tc,
              c->origin == TG_CLOCK_CYCLES && c->sync_origin == TG_CLOCK_UNKNOWN); /* no markers */
        tg_close(set);
    }
}

/* LTTng 0.x: the cycle counter in ns and one wall-time reading (the block header's start
 * time at its first cycle count); values as make-fixtures.py writes them. */
static void test_lttng0(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_TEST_DATA "/lttng0/lost-be");
    CHECK(tc, set != NULL);
    if (set) {
        const tg_trace *t = tg_set_trace(set, 0);
        const tg_clock_info *c = tg_trace_clock(t);
        CHECK(tc, c->origin == TG_CLOCK_CYCLES && !c->raw_cycles && c->offset_ns == 0);
        CHECK(tc, c->frequency_hz == 1993051000u);
        /* 1262715366.408819 s minus the ns of cycle count 0x2b54a2003b7a at 1.993051 GHz */
        CHECK(tc,
              c->sync_origin == TG_CLOCK_REALTIME && c->sync_offset_ns == 1262691462105732200ll);
        CHECK(tc, tg_trace_host(t)->word_bits == 64 && tg_trace_host(t)->byte_order == 2);
        CHECK_STR(tc, tg_trace_tracer(t)->name, "ltt");
        tg_close(set);
    }
    set = open_one(TG_TEST_DATA "/lttng0/smp8");
    CHECK(tc, set != NULL);
    if (set) {
        const tg_trace *t = tg_set_trace(set, 0);
        CHECK(tc, tg_trace_clock(t)->frequency_hz == 2500000000u);
        CHECK(tc, tg_trace_host(t)->word_bits == 32 && tg_trace_host(t)->byte_order == 1);
        tg_close(set);
    }
}

/* The corpus's mixed recording: three tracers, two ways of counting the monotonic clock. */
static void test_mixed(struct tg_test_counts *tc)
{
    tg_set *set = open_one(TG_CORPUS "/mixed/ust");
    if (!set)
        return;
    const tg_clock_info *c = tg_trace_clock(tg_set_trace(set, 0));
    CHECK(tc, c->origin == TG_CLOCK_MONOTONIC && c->offset_ns == 1795376243376209765ll);
    tg_close(set);
    set = open_one(TG_CORPUS "/mixed/kernel.dat");
    if (!set)
        return;
    c = tg_trace_clock(tg_set_trace(set, 0));
    CHECK_STR(tc, c->name, "mono");
    CHECK(tc, c->origin == TG_CLOCK_MONOTONIC && c->offset_ns == 0);
    tg_close(set);
}

static void test_names(struct tg_test_counts *tc)
{
    CHECK_STR(tc, tg_clock_origin_name(TG_CLOCK_MONOTONIC), "monotonic");
    CHECK_STR(tc, tg_clock_origin_name(TG_CLOCK_LOCAL), "local");
    CHECK_STR(tc, tg_clock_origin_name((tg_clock_origin)99), "unknown");
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_uftrace(&tc);
    test_ctf(&tc);
    test_ftrace(&tc);
    test_xray(&tc);
    test_lttng0(&tc);
    test_mixed(&tc);
    test_names(&tc);
    return tg_test_done(&tc);
}
