/* test_lttng0_reader.c - LTTng 0.x marker formats and payload layout, from the format's
 * rules (type sizes from the marker's declaration, "#" trace types over C conversions,
 * alignment to min(size, alignment) from the block start), and the reader through the
 * public API on the hand-made big-endian fixture (values written by make-fixtures.py). */
#include "tg_test.h"
#include "traceglot.h"
#include "formats/lttng0/lttng0_internal.h"

#include <stdint.h>
#include <string.h>

static void test_formats(struct tg_test_counts *tc)
{
    tg_arena a;
    tg_arena_init(&a);
    const lt0_sizes ilp32 = {4, 4, 4, 4, 0}, lp64_aligned = {4, 8, 8, 8, 8};
    lt0_field *f;
    size_t n;
    const char *why = NULL;
    CHECK(tc, lt0_format_parse(&a, "ip #p%ld syscall_id #2u%u", &ilp32, &f, &n, &why) == 0);
    CHECK(tc, n == 2 && f[0].type == LT0_PTR && f[0].size == 4 && f[1].type == LT0_UINT &&
                  f[1].size == 2);
    CHECK_STR(tc, f[0].name, "ip");
    CHECK_STR(tc, f[1].conv, "%u");
    CHECK(tc, lt0_format_parse(&a, "ip 0x%lX dev #n4u%lu c #1x%c s %s q %lld h %hu", &lp64_aligned,
                               &f, &n, &why) == 0);
    CHECK(tc, n == 6);
    CHECK_STR(tc, f[0].conv, "0x%lX");
    CHECK(tc, f[0].size == 8 && f[0].align == 8 && f[0].type == LT0_UINT);
    CHECK(tc, f[1].net_order && f[1].size == 4 && f[1].align == 4);
    CHECK(tc, f[2].size == 1 && f[2].type == LT0_UINT);
    CHECK(tc, f[3].type == LT0_STRING && f[3].size == 0 && f[3].align == 1);
    CHECK(tc, f[4].size == 8 && f[4].type == LT0_SINT && f[5].size == 2);
    CHECK(tc, lt0_format_parse(&a, " ", &ilp32, &f, &n, &why) == 0 && n == 0);
    CHECK(tc, lt0_format_parse(&a, "irqstate #1%d", &ilp32, &f, &n, &why) == 0 && n == 1 &&
                  f[0].size == 1 && f[0].type == LT0_SINT);
    CHECK(tc, lt0_format_parse(&a, "x %q", &ilp32, &f, &n, &why) == TG_ERR_FORMAT);
    CHECK(tc, lt0_format_parse(&a, "%d", &ilp32, &f, &n, &why) == TG_ERR_FORMAT);

    /* layout: "a #1u%u b %llu s %s c %u" aligned to 8, payload starting at block offset 72:
     * a at 72 (1 byte), b at 80 (8), s at 88 ("hi\0"), c at 92 (4) -> 24 bytes */
    lt0_marker m = {0};
    CHECK(tc, lt0_format_parse(&a, "a #1u%u b %llu s %s c %u", &lp64_aligned, &m.fields,
                               &m.n_fields, &why) == 0);
    m.sizes = lp64_aligned;
    lt0_marker_layout(&m);
    CHECK(tc, m.largest_align == 8 && m.has_string);
    uint8_t p[24] = {7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'h', 'i', 0, 0, 9, 0, 0, 0};
    size_t end;
    CHECK(tc, lt0_payload_size(&m, p, sizeof p, 72) == 24);
    CHECK(tc, lt0_field_offset(&m, 1, p, sizeof p, 72, &end) == 8 && end == 16);
    CHECK(tc, lt0_field_offset(&m, 3, p, sizeof p, 72, &end) == 20 && end == 24);
    CHECK(tc, lt0_payload_size(&m, p, 20, 72) == -1); /* cut inside c */
    tg_arena_free(&a);
}

static void test_fixture(struct tg_test_counts *tc)
{
    const char *path = TG_TEST_DATA "/lttng0/lost-be";
    tg_error *err = NULL;
    tg_set *set = tg_open(&path, 1, NULL, &err);
    CHECK(tc, set != NULL);
    if (!set) {
        fprintf(stderr, "%s\n", tg_error_message(err));
        tg_error_free(err);
        return;
    }
    tg_trace *t = tg_set_trace(set, 0);
    CHECK_STR(tc, tg_trace_format(t), "lttng0");
    CHECK_STR(tc, tg_trace_version(t), "2.6");
    tg_iter *it = tg_iter_new(set, NULL, &err);
    const tg_event *ev;
    int values = 0, lost = 0;
    uint64_t lost_total = 0;
    while (it && tg_iter_next(it, &ev) > 0) {
        if (tg_event_kind_of(ev) == TG_KIND_LOST) {
            lost++;
            lost_total += tg_event_lost_count(ev);
            continue;
        }
        if (strcmp(tg_event_name(ev), "values") != 0 || values++)
            continue;
        /* the first kernel.values event as written: "be-0-0", 0, 0, 123456, 2^40,
         * -(2^40), 0xffff800012345678, 0xABCDEF, port 443 in network order, 'a' */
        tg_value v;
        CHECK(tc, tg_event_field_count(ev, TG_SCOPE_PAYLOAD) == 10);
        CHECK(tc, tg_event_field(ev, TG_SCOPE_PAYLOAD, 0, &v) == 0 && v.type == TG_VAL_STRING &&
                      v.v.str.len == 6 && memcmp(v.v.str.ptr, "be-0-0", 6) == 0);
        CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "big", &v) == 0 &&
                      v.v.u == (1ull << 40) && v.bits == 64);
        CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "neg", &v) == 0 &&
                      v.type == TG_VAL_SINT && v.v.s == -(1ll << 40));
        CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "ptr", &v) == 0 &&
                      (v.flags & TG_VALF_POINTER) && v.v.u == 0xffff800012345678ull);
        CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "ip", &v) == 0 &&
                      v.v.u == 0xABCDEF && v.base == 16 && strcmp(v.fmt, "0x%lX") == 0);
        CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "port", &v) == 0 && v.v.u == 443);
    }
    CHECK(tc, values == 7 && lost == 2 && lost_total == 12);
    CHECK(tc, it && tg_iter_errors(it) == NULL);
    tg_iter_free(it);
    tg_close(set);
}

/* next_batch gives the same events as next, and stops where next must take over (block
 * ends, lost-event records): smp8's kernel_3 has 12 events in 2 blocks. */
static void test_batch(struct tg_test_counts *tc)
{
    const char *path = TG_TEST_DATA "/lttng0/smp8";
    tg_error *err = NULL;
    tg_set *set = tg_open(&path, 1, NULL, &err);
    CHECK(tc, set != NULL);
    if (!set) {
        tg_error_free(err);
        return;
    }
    tg_trace *t = tg_set_trace(set, 0);
    tg_stream *s = NULL;
    for (size_t i = 0; i < tg_trace_stream_count(t); i++)
        if (strcmp(tg_stream_name(tg_trace_stream(t, i)), "kernel_3") == 0)
            s = tg_trace_stream(t, i);
    CHECK(tc, s != NULL && s->ops->next_batch && s->ops->rewind);
    if (!s) {
        tg_close(set);
        return;
    }
    int64_t by_next[16], by_batch[16];
    size_t n1 = 0, n2 = 0;
    tg_event ev, evs[4];
    memset(&ev, 0, sizeof ev);
    while (n1 < 16 && s->ops->next(s, &ev, &err) > 0)
        by_next[n1++] = ev.ts;
    CHECK(tc, s->ops->rewind(s, &err) == 0);
    for (int guard = 0; n2 < 16 && guard < 64; guard++) {
        size_t k = s->ops->next_batch(s, evs, 4);
        for (size_t i = 0; i < k && n2 < 16; i++)
            by_batch[n2++] = evs[i].ts;
        if (k == 0) {
            if (s->ops->next(s, &ev, &err) <= 0)
                break;
            by_batch[n2++] = ev.ts;
        }
    }
    CHECK(tc, n1 == 12 && n2 == 12);
    for (size_t i = 0; i < n1 && i < n2; i++)
        CHECK(tc, by_next[i] == by_batch[i] && (i == 0 || by_next[i] > by_next[i - 1]));
    tg_close(set);
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_formats(&tc);
    test_fixture(&tc);
    test_batch(&tc);
    return tg_test_done(&tc);
}
