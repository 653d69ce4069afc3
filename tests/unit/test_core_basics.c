/* test_core_basics.c - output buffers, error chains, options, symbol tables, byte readers. */
#include "core/error_internal.h"
#include "core/symtab.h"
#include "io/byte_reader.h"
#include "tg_test.h"

static void test_buf(struct tg_test_counts *tc)
{
    tg_buf *b = tg_buf_new();
    tg_buf_u64(b, 0);
    tg_buf_putc(b, ' ');
    tg_buf_i64(b, -9223372036854775807LL - 1);
    tg_buf_putc(b, ' ');
    tg_buf_u64_pad(b, 42, 6, ' ');
    tg_buf_u64_pad(b, 7, 3, '0');
    tg_buf_putc(b, ' ');
    tg_buf_hex(b, 0xdeadbeef);
    tg_buf_pad(b, '-', 2);
    tg_buf_printf(b, "%s=%d", "x", 5);
    CHECK_STR(tc, tg_buf_data(b), "0 -9223372036854775808     42007 deadbeef--x=5");
    tg_buf_reset(b);
    for (int i = 0; i < 1000; i++)
        tg_buf_printf(b, "%0300d", i);
    CHECK(tc, tg_buf_len(b) == 300000);
    tg_buf_free(b);
}

static void test_errors(struct tg_test_counts *tc)
{
    tg_error *err = NULL;
    int rc = tg_err_at(&err, TG_ERR_FORMAT, "trace.dat", 0x2b9010,
                       "event length %d runs past the page end (%d)", 4093, 4080);
    CHECK(tc, rc == TG_ERR_FORMAT);
    tg_err_wrap(&err, "cpu 1 page 17");
    CHECK_STR(tc, tg_error_message(err),
              "cpu 1 page 17: trace.dat: offset 0x2b9010: event length 4093 runs past the page "
              "end (4080)");
    tg_err(&err, TG_ERR_IO, "second");
    CHECK_STR(tc, tg_error_message(tg_error_next(err)), "second");
    CHECK(tc, tg_error_status(tg_error_next(err)) == TG_ERR_IO);
    tg_error_free(err);
    CHECK(tc, tg_err(NULL, TG_ERR_USAGE, "ignored") == TG_ERR_USAGE);
}

static void test_options(struct tg_test_counts *tc)
{
    tg_options *o = tg_options_new();
    CHECK(tc, tg_options_set(o, "raw", NULL) == 0);
    CHECK(tc, tg_options_set(o, "sort", "count") == 0);
    CHECK(tc, tg_options_set(o, "sort", "sum") == 0);
    CHECK(tc, tg_options_set(o, "ns", "false") == 0);
    CHECK(tc, tg_options_flag(o, "raw"));
    CHECK(tc, !tg_options_flag(o, "ns"));
    CHECK_STR(tc, tg_options_get(o, "ns"), "0");
    CHECK(tc, !tg_options_flag(o, "clock-seconds"));
    CHECK_STR(tc, tg_options_get(o, "sort"), "sum");
    /* refused: an undeclared key (named the nearest key), a bad value of each type */
    tg_error *err = NULL;
    CHECK(tc, tg_options_put(o, "instr-mpa", "x", &err) == TG_ERR_USAGE);
    CHECK(tc, err && strstr(tg_error_message(err), "did you mean 'instr-map'"));
    tg_error_free(err);
    err = NULL;
    CHECK(tc, tg_options_put(o, "plugin-options", "x", &err) == TG_ERR_USAGE);
    CHECK(tc, err && strstr(tg_error_message(err), "'plugin-option'"));
    tg_error_free(err);
    CHECK(tc, tg_options_set(o, "off", "0") == TG_ERR_USAGE);
    CHECK(tc, tg_options_set(o, "sortorder", "up") == TG_ERR_USAGE);
    CHECK(tc, tg_options_set(o, "raw", "maybe") == TG_ERR_USAGE);
    CHECK(tc, tg_options_set(o, "top", "2147483648") == TG_ERR_USAGE); /* past its bound */
    CHECK(tc, tg_options_set(o, "top", "-1") == 0); /* llvm-xray's own default: all rows */
    CHECK(tc, tg_options_set(o, "top", "3x") == TG_ERR_USAGE);
    CHECK(tc, tg_options_set(o, "top", "3") == 0);
    CHECK(tc, tg_options_get(o, "off") == NULL);
    CHECK_STR(tc, tg_options_get(o, "sort"), "sum");
    tg_options_free(o);
    /* every declaration is whole, and a key declared twice has one type */
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    size_t n = 0;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++, n++) {
        CHECK(tc, d->help && *d->help && oname && owner >= TG_OWNER_OPEN);
        CHECK(tc, d->type != TG_OPT_CHOICE || d->choices);
        const tg_option_decl *e;
        for (size_t k = 0; k < i && (e = tg_option_declared(k, NULL, NULL)); k++)
            if (strcmp(e->name, d->name) == 0)
                CHECK(tc, e->type == d->type);
    }
    CHECK(tc, n > 20);
    CHECK(tc, tg_option_taken("raw", TG_OWNER_PRINT_STYLE, "trace-cmd") == 1);
    CHECK(tc, tg_option_taken("raw", TG_OWNER_PRINT_STYLE, "native") == 0);
    CHECK(tc, tg_option_taken("instr-map", TG_OWNER_PRINT_STYLE, "native") == 1);
    CHECK(tc, tg_option_nearest("zzzzzzzz") == NULL);
}

static void test_symtab(struct tg_test_counts *tc)
{
    tg_symtab st;
    tg_symtab_init(&st);
    tg_symtab_add(&st, 0x3000, 0, "c", 'T');
    tg_symtab_add(&st, 0x1000, 0x10, "a", 'T');
    tg_symtab_add(&st, 0x2000, 0, "b", 't');
    tg_symtab_sort(&st);
    CHECK(tc, tg_symtab_lookup(&st, 0x0fff) == NULL);
    CHECK_STR(tc, tg_symtab_lookup(&st, 0x1008)->name, "a");
    CHECK(tc, tg_symtab_lookup(&st, 0x1010) == NULL); /* past a's size */
    CHECK_STR(tc, tg_symtab_lookup(&st, 0x2fff)->name, "b");
    CHECK_STR(tc, tg_symtab_lookup(&st, 0x9999)->name, "c");
    CHECK(tc, tg_symtab_exact(&st, 0x2001) == NULL);
    CHECK_STR(tc, tg_symtab_exact(&st, 0x2000)->name, "b");
    tg_symtab_free(&st);
}

static void test_reader(struct tg_test_counts *tc)
{
    static const uint8_t bytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 'h', 'i', 0, 9};
    tg_reader r;
    tg_reader_init(&r, bytes, sizeof bytes, 0x100, false);
    uint32_t v32;
    uint16_t v16;
    CHECK(tc, tg_read_u32(&r, &v32) && v32 == 0x04030201);
    r.big_endian = true;
    CHECK(tc, tg_read_u16(&r, &v16) && v16 == 0x0506);
    CHECK(tc, tg_reader_offset(&r) == 0x106);
    uint64_t v64;
    CHECK(tc, !tg_read_u64(&r, &v64)); /* only 6 bytes left */
    CHECK(tc, tg_reader_offset(&r) == 0x106);
    CHECK(tc, tg_reader_skip(&r, 2));
    const char *s;
    size_t len;
    CHECK(tc, tg_read_cstr(&r, &s, &len) && len == 2 && s[0] == 'h');
    CHECK(tc, !tg_read_cstr(&r, &s, &len)); /* no NUL before the end */
    CHECK(tc, tg_be32(bytes) == 0x01020304 && tg_le64(bytes) == 0x0807060504030201ull);
}

int main(void)
{
    struct tg_test_counts tc = {0};
    test_buf(&tc);
    test_errors(&tc);
    test_options(&tc);
    test_symtab(&tc);
    test_reader(&tc);
    return tg_test_done(&tc);
}
