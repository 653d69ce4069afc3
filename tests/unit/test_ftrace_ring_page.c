/* test_ftrace_ring_page.c - the shared ring-buffer page decoder (common/linux/ring_page.h) on pages
 * built by hand: the header_page layout, every record kind (data with type_len 1..28 and with
 * a length word, padding, time extend, absolute timestamp), the missed-events flags, and
 * damaged pages (commit past the page, a record or extend past the commit). */
#include "common/linux/ring_page.h"
#include "tg_test.h"

#include <stdint.h>
#include <string.h>

static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                                  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
                                  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                                  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

typedef struct page_builder {
    uint8_t page[4096];
    size_t n; /* bytes of records */
} page_builder;

static void put32(page_builder *b, uint32_t v)
{
    memcpy(b->page + 16 + b->n, &v, 4);
    b->n += 4;
}

static void hdr(page_builder *b, unsigned type_len, uint32_t delta)
{
    put32(b, (delta << 5) | type_len);
}

static void finish(page_builder *b, uint64_t ts, uint64_t flags)
{
    memcpy(b->page, &ts, 8);
    uint64_t commit = b->n | flags;
    memcpy(b->page + 8, &commit, 8);
}

static void test_layout(struct tg_test_counts *tc)
{
    tg_rb_layout l;
    memset(&l, 0, sizeof l);
    l.long_size = 8;
    CHECK(tc, tg_rb_layout_parse(&l, header_page, sizeof header_page - 1) == 0);
    CHECK(tc, l.ts_off == 0 && l.commit_off == 8 && l.commit_size == 8 && l.data_off == 16);
    CHECK(tc, tg_rb_layout_parse(&l, "field: u64 timestamp; offset:0; size:8;\n", 40) < 0);
}

static void test_records(struct tg_test_counts *tc)
{
    tg_rb_layout l = {4096, 0, 8, 8, 16, 8, false};
    page_builder b;
    memset(&b, 0, sizeof b);
    hdr(&b, 2, 10); /* 8 bytes of data, delta 10 */
    put32(&b, 0x11111111);
    put32(&b, 0x22222222);
    hdr(&b, 30, 5); /* time extend: (1 << 27) + 5 */
    put32(&b, 1);
    hdr(&b, 0, 3); /* length word: 9 bytes -> 8 of data (+4 for the word) rounds up */
    put32(&b, 4 + 9);
    put32(&b, 0x33333333);
    put32(&b, 0x44444444);
    put32(&b, 0x55555555);
    hdr(&b, 29, 0); /* padding: 8 bytes counted from its length word */
    put32(&b, 8);
    put32(&b, 0);
    hdr(&b, 31, 7); /* absolute timestamp (2 << 27) + 7 */
    put32(&b, 2);
    hdr(&b, 1, 1); /* 4 bytes of data */
    put32(&b, 0x66666666);
    finish(&b, 1000, 0);

    tg_rb_page p;
    size_t commit;
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, &commit) == 1 && commit == b.n && p.lost == 0);
    tg_rb_record r;
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_RECORD);
    CHECK(tc, r.ts == 1010 && r.len == 8 && r.pos == 0 && r.data == b.page + 20);
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_RECORD);
    CHECK(tc, r.ts == 1010 + (1ull << 27) + 5 + 3 && r.len == 12);
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_RECORD);
    CHECK(tc, r.ts == (2ull << 27) + 7 + 1 && r.len == 4);
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_END);
}

static void test_missed_and_damage(struct tg_test_counts *tc)
{
    tg_rb_layout l = {4096, 0, 8, 8, 16, 8, false};
    page_builder b;
    memset(&b, 0, sizeof b);
    hdr(&b, 1, 1);
    put32(&b, 7);
    uint64_t lost = 42;
    memcpy(b.page + 16 + b.n, &lost, 8); /* the count stored after the records */
    finish(&b, 5, (1ull << 31) | (1ull << 30));
    tg_rb_page p;
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, NULL) == 1 && p.lost == 42);
    finish(&b, 5, 1ull << 31);
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, NULL) == 1 && p.lost == -1);

    /* empty page; commit past the page */
    memset(&b, 0, sizeof b);
    finish(&b, 5, 0);
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, NULL) == 0);
    b.n = 4090;
    finish(&b, 5, 0);
    size_t commit = 0;
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, &commit) == -1 && commit == 4090);

    /* a record longer than the commit, then a time extend cut by the commit */
    memset(&b, 0, sizeof b);
    hdr(&b, 0, 0);
    put32(&b, 400);
    finish(&b, 5, 0);
    tg_rb_record r;
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, NULL) == 1);
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_BAD_LENGTH && r.pos == 0);
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_END);
    memset(&b, 0, sizeof b);
    hdr(&b, 30, 0);
    finish(&b, 5, 0);
    CHECK(tc, tg_rb_page_load(&p, &l, b.page, NULL) == 1);
    CHECK(tc, tg_rb_page_next(&p, &r) == TG_RB_BAD_EXTEND);
}

static void test_big_endian(struct tg_test_counts *tc)
{
    tg_rb_layout l = {4096, 0, 8, 4, 12, 4, true};
    uint8_t page[4096];
    memset(page, 0, sizeof page);
    page[7] = 100;                 /* timestamp 100 */
    page[11] = 8;                  /* commit 8 */
    page[12] = (uint8_t)(1u << 3); /* type_len 1 in the top 5 bits, delta 2 */
    page[15] = 2;
    page[19] = 9; /* the record's word */
    tg_rb_page p;
    tg_rb_record r;
    CHECK(tc, tg_rb_page_load(&p, &l, page, NULL) == 1);
    CHECK(tc,
          tg_rb_page_next(&p, &r) == TG_RB_RECORD && r.ts == 102 && r.len == 4 && r.data[3] == 9);
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_layout(&tc);
    test_records(&tc);
    test_missed_and_damage(&tc);
    test_big_endian(&tc);
    return tg_test_done(&tc);
}
