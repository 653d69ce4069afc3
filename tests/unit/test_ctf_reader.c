/* test_ctf_reader.c - the CTF reader through the public API: field access by scope, enum
 * labels, text arrays, lost events and the function-trace kinds of the cyg-profile fixture;
 * a second pass over a set whose CTF streams were read partly is refused, not short.
 * (The babeltrace2 text is checked against babeltrace2's own output by tests/ctf.) */
#include "tg_test.h"
#include "traceglot.h"

#include <stdlib.h>
#include <sys/stat.h>

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void test_fields(struct tg_test_counts *tc)
{
    const char *path = TG_TEST_DATA "/ctf/types";
    if (!exists(path))
        return;
    tg_error *err = NULL;
    const char *paths[] = {path};
    tg_set *set = tg_open(paths, 1, NULL, &err);
    CHECK(tc, set != NULL);
    if (!set) {
        tg_error_free(err);
        return;
    }
    tg_iter *it = tg_iter_new(set, NULL, &err);
    const tg_event *ev;
    int seen_compound = 0, seen_ints = 0;
    while (tg_iter_next(it, &ev) > 0) {
        const char *name = tg_event_name(ev);
        tg_value v;
        if (!strcmp(name, "tg_fixture:ints") && !seen_ints) {
            seen_ints = 1;
            CHECK(tc, tg_event_field_count(ev, TG_SCOPE_PAYLOAD) == 12);
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "s8", &v) == 0 &&
                          v.type == TG_VAL_SINT && v.v.s < 0 && v.bits == 8);
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "hex32", &v) == 0 &&
                          v.base == 16 && (v.v.u >> 16) == 0xdead);
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_STREAM_CONTEXT, "vtid", &v) == 0 &&
                          v.type == TG_VAL_SINT);
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PACKET_CONTEXT, "cpu_id", &v) == 0);
            /* special fields are hidden from the packet context, shown in the header */
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PACKET_CONTEXT, "packet_size", &v) < 0);
            CHECK(tc, tg_event_field_count(ev, TG_SCOPE_EVENT_HEADER) >= 1);
        }
        if (!strcmp(name, "tg_fixture:compound") && !seen_compound) {
            seen_compound = 1;
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "arr3", &v) == 0 &&
                          v.type == TG_VAL_ARRAY && v.count == 3);
            tg_value c;
            CHECK(tc, tg_value_child(&v, 1, &c) == 0 && c.type == TG_VAL_SINT && c.v.s == -1);
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "text6", &v) == 0 &&
                          v.type == TG_VAL_STRING && v.v.str.len == 6);
            CHECK(tc, tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "color", &v) == 0 &&
                          (v.flags & TG_VALF_ENUM) && v.label && !strcmp(v.label, "GREENS"));
        }
    }
    CHECK(tc, seen_ints && seen_compound);
    tg_iter_free(it);
    tg_close(set);
}

static void test_func_kinds(struct tg_test_counts *tc)
{
    const char *path = TG_TEST_DATA "/ctf/cyg";
    if (!exists(path))
        return;
    tg_error *err = NULL;
    const char *paths[] = {path};
    tg_set *set = tg_open(paths, 1, NULL, &err);
    CHECK(tc, set != NULL);
    if (!set) {
        tg_error_free(err);
        return;
    }
    tg_iter *it = tg_iter_new(set, NULL, &err);
    const tg_event *ev;
    int entries = 0, exits = 0, tid_ok = 1;
    while (tg_iter_next(it, &ev) > 0) {
        tg_event_kind k = tg_event_kind_of(ev);
        if (k == TG_KIND_FUNC_ENTRY)
            entries++;
        if (k == TG_KIND_FUNC_EXIT)
            exits++;
        if ((k == TG_KIND_FUNC_ENTRY || k == TG_KIND_FUNC_EXIT) &&
            (tg_event_tid(ev) <= 0 || tg_event_func_addr(ev) == 0))
            tid_ok = 0;
    }
    CHECK(tc, entries > 0 && entries == exits);
    CHECK(tc, tid_ok);
    tg_iter_free(it);
    tg_close(set);
}

/* Function events of a whole pass over set (its first one's address in *first). */
static size_t count_calls(tg_set *set, uint64_t *first)
{
    tg_iter *it = tg_iter_new(set, NULL, NULL);
    const tg_event *ev;
    size_t n = 0;
    while (it && tg_iter_next(it, &ev) > 0)
        if (tg_event_kind_of(ev) == TG_KIND_FUNC_ENTRY && n++ == 0)
            *first = tg_event_func_addr(ev);
    tg_iter_free(it);
    return n;
}

/* CTF streams are read once: a cursor after one that read from them would start where that
 * one stopped (cyg-fast lost main's entry so, the event the CLI's first read had stopped
 * at).  The second cursor is refused with a message; the paths opened again read it all. */
static void test_second_pass(struct tg_test_counts *tc)
{
    const char *path = TG_TEST_DATA "/ctf/cyg-fast";
    if (!exists(path))
        return;
    const char *paths[] = {path};
    tg_error *err = NULL;
    tg_set *set = tg_open(paths, 1, NULL, &err);
    CHECK(tc, set != NULL);
    if (!set) {
        tg_error_free(err);
        return;
    }
    uint64_t first = 0, again_first = 0;
    size_t calls = count_calls(set, &first);
    CHECK(tc, calls == 21 && first != 0); /* main 1, worker 2, mid 6, leaf 12 */
    tg_close(set);

    set = tg_open(paths, 1, NULL, &err);
    tg_iter *it = set ? tg_iter_new(set, NULL, &err) : NULL;
    const tg_event *ev;
    while (it && tg_iter_next(it, &ev) > 0 && tg_event_kind_of(ev) != TG_KIND_FUNC_ENTRY)
        ;
    tg_iter_free(it);
    CHECK(tc, tg_iter_new(set, NULL, &err) == NULL && err != NULL);
    CHECK(tc, err && strstr(tg_error_message(err), "read once") != NULL);
    tg_error_free(err);
    err = NULL;
    tg_set *again = tg_set_reopen(set, &err);
    CHECK(tc, again && count_calls(again, &again_first) == calls && again_first == first);
    tg_close(again);
    tg_close(set);
    tg_error_free(err);
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_fields(&tc);
    test_func_kinds(&tc);
    test_second_pass(&tc);
    if (tc.passed + tc.failed == 0) {
        printf("SKIP: no CTF fixtures or corpus\n");
        return 77;
    }
    return tg_test_done(&tc);
}
