/* print_fmt.h - the print-fmt engine of tracefs event formats, and what its pieces share.
 *
 * An event format's "print fmt" is a C format string and C argument expressions over
 * REC->field.  It is compiled once per event format into a list of items (literal text, or a
 * conversion with its argument expression tree) and rendered per event, printing exactly
 * what libtraceevent prints: `trace-cmd report` for trace.dat's records and `perf script`
 * for perf.data's tracepoint samples, so both readers render through this one engine.  The
 * engine is six files, one concept each:
 *   print_fmt_parse.c    tokenizer and expression parser (libtraceevent's process_arg/_op)
 *   print_fmt_compile.c  the format string split into items; one event format compiled
 *   print_fmt_ops.c      the items compiled into typed ops (flags, symbols, strings...)
 *   print_fmt_eval.c     an argument expression evaluated on one record
 *   print_fmt_print.c    the conversions printed; an event's text (print fmt, bprint)
 *   print_fmt_raw.c      the raw fields (trace-cmd report -R)
 * An event's text is assembled in the small stack sink below and handed to the output tg_buf
 * in one call; the sink helpers are inline because they run per field. */
#ifndef TG_PRINT_FMT_H
#define TG_PRINT_FMT_H

#include "core/arena.h"
#include "core/buf_inline.h"
#include "core/digits.h"
#include "core/error_internal.h"
#include "core/symtab.h"
#include "common/linux/event_format.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- the event formats rendered --------------------------------------------------------- */

/* What a print fmt reads beside the record: the traced kernel's byte order and long size,
 * and its printk formats and functions by address (a NULL look-up, or NULL from one: none,
 * printed as libtraceevent prints an address it cannot name). */
typedef struct tg_pf_env {
    bool big_endian;
    int long_size;
    const void *owner; /* the reader's tables, handed to the look-ups */
    const char *(*printk)(const void *owner, uint64_t addr);
    const tg_symbol *(*func)(const void *owner, uint64_t addr);
} tg_pf_env;

/* One event format as the engine renders it (the reader fills the fields from its tg_evf;
 * pf and pf_state start zero and are the engine's). */
typedef struct tg_pf_event {
    const tg_evf_field *common, *fields;
    size_t n_common, n_fields;
    const char *print_fmt; /* NUL-ended, NULL when the format has none */
    bool is_bprint;        /* ftrace:bprint: the format from the printk table */
    const tg_pf_env *env;
    struct tg_pf *pf; /* compiled lazily on first render (NULL: not yet) */
    int pf_state;     /* 0 not compiled, 1 compiled, -1 failed to parse */
} tg_pf_event;

/* The field of that name among the event's own fields, then its common_* ones (NULL: none). */
const tg_evf_field *tg_pf_find_field(const tg_pf_event *e, const char *name);

/* The event's text (its print fmt, or bprint's format) on one record, appended to out; a
 * print fmt libtraceevent cannot parse gives "[FAILED TO PARSE]" and the raw fields.
 * avail: bytes readable from data (>= size), see tg_pf_render_raw. */
void tg_pf_render(const tg_pf_event *e, const uint8_t *data, size_t size, size_t avail,
                  tg_buf *out);
/* The raw fields (trace-cmd report -R), appended to out. */
void tg_pf_render_raw_buf(const tg_pf_event *e, const uint8_t *data, size_t size, size_t avail,
                          tg_buf *out);
/* Frees what the engine compiled for an event (its pf). */
void tg_pf_free(struct tg_pf *pf);

/* ---- expression trees and compiled items ------------------------------------------------ */

enum {
    N_NUM,
    N_ATOM,
    N_FIELD,
    N_CAST,
    N_BIN,
    N_UN,
    N_COND,
    N_GETSTR,
    N_DYNARR,
    N_DYNLEN,
    N_SYM,
    N_FLAGS,
    N_HEX,
    N_HEXSTR,
    N_ARRAY,
    N_INDEX,
    N_BITMASK,
    N_BSTR,
    N_NONE,
    N_NULL,
};

typedef struct tg_pf_sym {
    uint64_t value;
    const char *str;
} tg_pf_sym;

typedef struct tg_pf_node {
    int kind, op, prio;
    char opstr[3];
    uint64_t num;    /* N_NUM; N_CAST: mask (0 = none) */
    const char *str; /* N_ATOM text, N_FLAGS delimiter, N_BSTR string */
    const tg_evf_field *field;
    struct tg_pf_node *a, *b, *c;
    tg_pf_sym *syms;
    size_t n_syms;
} tg_pf_node;

enum { IT_TEXT, IT_DIGIT, IT_PTR, IT_STR };

typedef struct pf_item {
    int type;
    char *text; /* IT_TEXT: the literal; others: the printf conversion */
    size_t text_len;
    int ls;
    char pch;  /* IT_PTR: the letter after 'p' (0 none) */
    char pch2; /* IT_PTR: the letter after that ('F'/'R' for MAC, '4'/'6' for IP) */
    tg_pf_node *arg, *len_arg;
    int fast;    /* 0: printf; 'd','u','x' with ls: formatted directly */
    bool direct; /* the argument is a plain field or a constant index into an array
                         field: read at d_off, d_size (d_idx: eval's bounds check) */
    uint32_t d_size;
    uint64_t d_off, d_idx;
    uint64_t d_mask; /* direct under a cast: the cast's mask (0: none) */
    int width;       /* fast path: minimum width */
    bool zero;       /* fast path: pad with zeros */
} pf_item;

/* A step of an event's fast plan: a literal (padded, at most TG_PF_TEXT_PAD bytes), then a
 * fast number read directly (or none: the text's last literal). */
typedef struct pf_step {
    const char *text;
    size_t text_len;
    const pf_item *num;
} pf_step;

/* A value an op reads: one field (or a constant element of an array field) under casts that
 * mask, read directly with eval's bounds checks, or an expression eval walks. */
typedef struct pf_val {
    bool direct;
    const tg_pf_node *eval;
    uint64_t off, idx, mask;
    uint32_t size;
} pf_val;

/* A "%s" argument compiled (print_fmt_ops.c): a constant, __get_str, a char array field,
 * __print_flags, __print_symbolic, a ?: between two of them, or any other shape (SA_NODE:
 * tg_pf_print_str_arg). */
enum { SA_CONST, SA_GETSTR, SA_FIELD, SA_FLAGS, SA_SYM, SA_COND, SA_NODE };

/* __print_flags' text for the values a field took last (a trace repeats a few gfp masks
 * millions of times): a cache the compiled print fmt owns, like the compiled form itself. */
enum { TG_PF_MEMO_N = 32, TG_PF_MEMO_TEXT = 112 };
typedef struct pf_memo {
    uint64_t val;
    uint32_t len; /* 0: empty (a value whose text is empty is not kept) */
    char text[TG_PF_MEMO_TEXT];
} pf_memo;

typedef struct pf_sarg {
    int kind;
    pf_memo *memo;          /* SA_FLAGS: TG_PF_MEMO_N entries */
    pf_val val;             /* SA_FLAGS, SA_SYM: the value; SA_COND: the condition */
    const char *str;        /* SA_CONST: the text; SA_FLAGS: the delimiter (NULL: none) */
    size_t len;             /* of str */
    const tg_pf_node *node; /* SA_GETSTR, SA_FIELD, SA_NODE: the argument */
    const tg_pf_sym *syms;  /* SA_FLAGS, SA_SYM */
    const uint32_t *sym_len;
    size_t n_syms;
    const struct pf_sarg *yes, *no; /* SA_COND */
} pf_sarg;

/* An op of an event's compiled program (print_fmt_ops.c): every item of a print fmt in the
 * shape it has, its decisions taken once.  OP_ITEM renders an item as render_items does. */
enum { OP_TEXT, OP_NUM, OP_PTR, OP_FUNC, OP_STR, OP_ITEM };

typedef struct pf_op {
    int kind;
    bool last;        /* the text's last item (its trailing newline dropped) */
    const char *text; /* OP_TEXT: padded (dup_text), trailing newline already dropped */
    size_t text_len;
    const pf_item *it; /* OP_NUM, OP_PTR, OP_FUNC, OP_ITEM */
    pf_val val;        /* OP_NUM, OP_PTR, OP_FUNC */
    const pf_sarg *s;  /* OP_STR */
} pf_op;

struct tg_pf {
    /* the program (tg_pf_compile_ops) when the text has no fast plan: NULL before */
    pf_op *ops;
    size_t n_ops;
    pf_item *items;
    size_t n, cap;
    tg_arena arena;
    /* The fast plan (tg_pf_plan), when the text is only short literals and fast numbers
     * read directly from a little-endian record (sys_enter's "NR %ld (%lx, ...)"): one
     * bounds check (need: the record bytes every read lies in) and one room check (room:
     * the longest text) per event. */
    pf_step *plan;
    size_t n_plan, need, room;
};

/* A literal's copy carries 16 zero bytes after it: rendering copies a short literal with one
 * fixed 16-byte move. */
#define TG_PF_TEXT_PAD 16

/* What an expression is evaluated on: one record of one event. */
typedef struct rctx {
    const tg_pf_event *ev;
    const tg_pf_env *env;
    const uint8_t *data;
    size_t size;
    bool strip_nl; /* printing the last item of the event's text */
    size_t avail;  /* raw mode: bytes readable from data (the record's page) */
} rctx;

/* ---- the output of one event ---------------------------------------------------------------
 * An event's text is written straight into room reserved at the end of the output tg_buf
 * (no copy from a stack buffer) and committed in one call; when the room is full it is
 * committed and room reserved again.  A sink whose tg_buf could not grow writes into its own
 * scrap, which is dropped (the tg_buf remembers the failure). */

#define TG_PF_SINK_ROOM 2048

typedef struct tg_pf_sink {
    tg_buf *out;
    char *b;    /* the room: at the end of out, or scrap */
    size_t n;   /* bytes written at b */
    size_t cap; /* TG_PF_SINK_ROOM, or sizeof scrap */
    char scrap[128];
} tg_pf_sink;

/* Room at the end of out for the next bytes (nothing pending). */
static inline void sk_room(tg_pf_sink *o)
{
    o->n = 0;
    o->b = tg_buf_room(o->out, TG_PF_SINK_ROOM);
    o->cap = TG_PF_SINK_ROOM;
    if (!o->b) {
        o->b = o->scrap;
        o->cap = sizeof o->scrap;
    }
}

static inline void sk_open(tg_pf_sink *o, tg_buf *out)
{
    o->out = out;
    sk_room(o);
}

/* Keeps what was written (the sink then has no room: sk_room before writing again). */
static inline void sk_close(tg_pf_sink *o)
{
    if (o->n && o->b != o->scrap)
        tg_buf_commit(o->out, o->n);
    o->n = 0;
    o->cap = 0;
}

static inline void sk_flush(tg_pf_sink *o)
{
    sk_close(o);
    sk_room(o);
}

static inline void sk_put(tg_pf_sink *o, const void *p, size_t n)
{
    if (n > o->cap - o->n) {
        if (n > TG_PF_SINK_ROOM) {
            sk_close(o);
            tg_buf_put(o->out, p, n);
            sk_room(o);
            return;
        }
        sk_flush(o);
        if (n > o->cap - o->n)
            return; /* scrap: dropped */
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static inline void sk_putc(tg_pf_sink *o, char c)
{
    if (o->n == o->cap)
        sk_flush(o);
    o->b[o->n++] = c;
}

static inline void sk_puts(tg_pf_sink *o, const char *s) { sk_put(o, s, strlen(s)); }

static inline void sk_u64(tg_pf_sink *o, uint64_t v)
{
    char d[24];
    const char *p = tg_dec_write(d + sizeof d, v);
    sk_put(o, p, (size_t)(d + sizeof d - p));
}

static inline void sk_i64(tg_pf_sink *o, int64_t v)
{
    if (v < 0) {
        sk_putc(o, '-');
        sk_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        sk_u64(o, (uint64_t)v);
    }
}

static inline void sk_hex(tg_pf_sink *o, uint64_t v)
{
    char d[24];
    const char *p = tg_hex_write(d + sizeof d, v);
    sk_put(o, p, (size_t)(d + sizeof d - p));
}

/* Two hex digits of a byte. */
static inline void sk_hex2(tg_pf_sink *o, uint8_t v) { sk_put(o, tg_hex_pairs + 2 * v, 2); }

void sk_printf(tg_pf_sink *o, const char *fmt, ...) TG_PRINTF(2, 3);

void tg_pf_put_printf_num(tg_pf_sink *out, const pf_item *it, int plen, uint64_t val);

/* ---- reading fields of the record, bounded by it -------------------------------------------- */

static inline uint64_t read_field(const rctx *r, const tg_evf_field *fl)
{
    if (fl->offset + (size_t)fl->size > r->size)
        return 0;
    return tg_evf_read_num(r->env->big_endian, r->data + fl->offset, fl->size);
}

/* Offset and length of a dynamic field's data, bounded by the record. */
static inline bool dyn_loc(const rctx *r, const tg_evf_field *fl, size_t *off, size_t *len)
{
    if (fl->offset + (size_t)fl->size > r->size)
        return false;
    uint64_t v = tg_evf_read_num(r->env->big_endian, r->data + fl->offset, fl->size);
    size_t o = (size_t)(v & 0xffff), l = (size_t)((v >> 16) & 0xffff);
    if (fl->flags & TG_EVF_RELATIVE)
        o += fl->offset + fl->size;
    if (o > r->size)
        return false;
    if (l > r->size - o)
        l = r->size - o;
    *off = o;
    *len = l;
    return true;
}

/* The fast conversions ("%d", "%08lx", "%llu" ...) written at w (at most 100 bytes: width
 * < 64 and at most 20 digits): the digit count is known first, so the padding and the
 * digits are written straight in, last digit first.  The end of the text. */
static inline __attribute__((always_inline)) char *tg_pf_num_text(char *w, const pf_item *it,
                                                                  uint64_t val)
{
    uint64_t v = val;
    switch (it->ls) {
    case -2: v = (uint8_t)v; break;
    case -1: v = (uint16_t)v; break;
    case 0: v = (uint32_t)v; break;
    default: break;
    }
    bool neg = false;
    if (it->fast == 'd') {
        int64_t sv = it->ls == -2   ? (int8_t)v
                     : it->ls == -1 ? (int16_t)v
                     : it->ls == 0  ? (int32_t)v
                                    : (int64_t)v;
        neg = sv < 0;
        v = neg ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv;
    }
    size_t nd = it->fast == 'x' ? tg_hex_len(v) : tg_dec_len(v);
    size_t len = nd + neg;
    size_t pad = it->width > 0 && (size_t)it->width > len ? (size_t)it->width - len : 0;
    if (!it->zero)
        for (; pad; pad--)
            *w++ = ' ';
    if (neg)
        *w++ = '-';
    for (; pad; pad--)
        *w++ = '0';
    char *e = w + nd;
    if (it->fast == 'x')
        tg_hex_write(e, v);
    else
        tg_dec_write(e, v);
    return e;
}

static inline __attribute__((always_inline)) void tg_pf_put_num(tg_pf_sink *out, const pf_item *it,
                                                                int plen, uint64_t val)
{
    if (it->fast && plen < 0) {
        if (out->cap - out->n < 100)
            sk_flush(out);
        if (out->cap - out->n >= 100) {
            out->n = (size_t)(tg_pf_num_text(out->b + out->n, it, val) - out->b);
            return;
        }
    }
    tg_pf_put_printf_num(out, it, plen, val);
}

/* ---- the pieces ------------------------------------------------------------------------------ */

/* print_fmt_parse.c: the print fmt's format string (adjacent literals joined, heap, NUL-ended:
 * *fmt) and its argument trees (argv, at most max_args) parsed into pf's arena; -1 when
 * libtraceevent could not parse it either. */
int tg_pf_parse(const tg_pf_event *e, struct tg_pf *pf, char **fmt, tg_pf_node **argv,
                size_t max_args, size_t *n_args);
/* libtraceevent's eval_type_str: the mask a cast to type (n bytes) applies, 0 for none */
uint64_t tg_pf_cast_mask(const char *type, size_t n);

/* print_fmt_compile.c */
typedef struct argv_list {
    tg_pf_node **v;
    size_t n, i;
} argv_list;
struct tg_pf *tg_pf_new(void);
/* Splits a format into items like libtraceevent's parse_args: 0, or -1 (cannot parse). */
int tg_pf_compile_format(struct tg_pf *pf, const char *fmt, argv_list *args);
/* pf's fast plan, when it has one (see struct tg_pf): 0, or -1 out of memory. */
int tg_pf_plan(struct tg_pf *pf, bool big_endian);
/* e's print fmt compiled once, on first use (e->pf, e->pf_state). */
void tg_pf_compile_event(const tg_pf_event *e);

/* An argument read directly (see pf_item.direct): false when it is not that shape. */
bool tg_pf_direct_of(const tg_pf_node *n, pf_item *it);

/* print_fmt_ops.c: pf's items compiled into ops (pf->ops): 0, or -1 out of memory. */
int tg_pf_compile_ops(struct tg_pf *pf, const tg_pf_event *e);
/* The event's text through its ops. */
void tg_pf_run_ops(const rctx *r, const struct tg_pf *pf, tg_pf_sink *out);

/* print_fmt_eval.c */
uint64_t tg_pf_eval(const rctx *r, const tg_pf_node *n);

/* print_fmt_print.c */
void tg_pf_print_pointer(const rctx *r, tg_pf_sink *out, const pf_item *it, int plen);
/* print_fmt_ip.c: %pI4 %pi4 %pI6 %pi6 %pI6c %pIS[p][c] of a field; false when the argument
 * is no field (the caller prints it as a pointer). */
bool tg_pf_print_ip(const rctx *r, tg_pf_sink *out, const pf_item *it);
void tg_pf_print_str_arg(const rctx *r, tg_pf_sink *out, const pf_item *it, int plen,
                         const tg_pf_node *n);
void tg_pf_put_hex0x(tg_pf_sink *out, uint64_t v);
/* print_str_to_seq: s (at most n bytes, to its NUL) through the conversion of it (NULL or
 * "%s": as is); strip: a trailing newline dropped (the end of the event's text) */
void tg_pf_put_str(tg_pf_sink *out, const pf_item *it, int plen, const char *s, size_t n,
                   bool strip);
/* %p as glibc prints it: "(nil)" or 0x and hex */
void tg_pf_put_glibc_ptr(tg_pf_sink *out, uint64_t v);
/* %ps %pS %pf %pF: the kernel function at val (with +0x offset for the capital letters) */
void tg_pf_print_function(const rctx *r, tg_pf_sink *out, char pch, uint64_t val);
/* One item as the interpreter renders it (r->strip_nl on the last). */
void tg_pf_render_item(const rctx *r, const pf_item *it, tg_pf_sink *out);

/* print_fmt_raw.c */
/* avail: bytes readable from data (>= size): an array is printed to its declared length, as
 * libtraceevent reads it, past the record's end into the pages that follow it. */
void tg_pf_render_raw(const tg_pf_event *e, const uint8_t *data, size_t size, size_t avail,
                      tg_pf_sink *out);

#endif
