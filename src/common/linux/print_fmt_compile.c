/* print_fmt_compile.c - a print fmt compiled into the list of items rendering walks.
 *
 * The format string is split like libtraceevent's parse_args: literal text (escapes
 * resolved), and conversions that each take the next argument tree (%d %u %x %o with their
 * length modifiers, %s, %p with trace-cmd's extensions %ps %pS %pM %pI4 ..., '*' widths);
 * an unknown conversion prints ">c<".  Common integer conversions ("%d", "%08lx", "%llu")
 * are marked for formatting without printf, and an argument that is one field (or a constant
 * element of an array field) is marked for a direct read.  A print fmt that cannot be parsed
 * is marked failed: the event then prints "[FAILED TO PARSE]" and its raw fields. */
#include "common/linux/print_fmt.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

void tg_pf_free(struct tg_pf *pf)
{
    if (!pf)
        return;
    free(pf->items);
    tg_arena_free(&pf->arena);
    free(pf);
}

struct tg_pf *tg_pf_new(void)
{
    struct tg_pf *pf = calloc(1, sizeof *pf);
    if (pf)
        tg_arena_init(&pf->arena);
    return pf;
}

static pf_item *add_item(struct tg_pf *pf)
{
    if (tg_grow(&pf->items, &pf->cap, pf->n + 1, sizeof *pf->items) != 0)
        return NULL;
    pf_item *it = &pf->items[pf->n++];
    memset(it, 0, sizeof *it);
    return it;
}

/* parse_arg_format_pointer: how many letters after %p belong to the conversion */
static int pointer_ext(const char *f)
{
    int ret = 0, index, loop;
    switch (*f) {
    case 'F':
    case 'S':
    case 'f':
    case 's': return 1;
    case 'M':
    case 'm': return (f[1] == 'R' || f[1] == 'F') ? 2 : 1;
    case 'I':
    case 'i':
        index = 2;
        loop = 1;
        switch (f[1]) {
        case 'S':
            while (loop) {
                switch (f[index]) {
                case 'p':
                case 'f':
                case 's':
                    ret++;
                    index++;
                    break;
                default: loop = 0; break;
                }
            }
            /* fall through */
        case '4':
            switch (f[index]) {
            case 'h':
            case 'n':
            case 'l':
            case 'b':
                ret++;
                index++;
                break;
            }
            if (f[1] == '4') {
                ret++;
                break;
            }
            /* fall through */
        case '6':
            if (f[index] == 'c')
                ret++;
            ret++;
            break;
        }
        ret++;
        break;
    case 'U':
        if (f[1] == 'L' || f[1] == 'l' || f[1] == 'B' || f[1] == 'b')
            ret++;
        ret++;
        break;
    case 'h':
        if (f[1] == 'C' || f[1] == 'D' || f[1] == 'N')
            ret++;
        ret++;
        break;
    default: break;
    }
    return ret;
}

static tg_pf_node *next_arg(argv_list *a) { return a->i < a->n ? a->v[a->i++] : NULL; }

static char *dup_n(struct tg_pf *pf, const char *s, size_t n)
{
    return tg_arena_strndup(&pf->arena, s, n);
}

/* A literal's copy with TG_PF_TEXT_PAD zero bytes after it (see render_items). */
static char *dup_text(struct tg_pf *pf, const char *s, size_t n)
{
    if (n > SIZE_MAX - TG_PF_TEXT_PAD - 1)
        return NULL;
    char *p = tg_arena_alloc(&pf->arena, n + TG_PF_TEXT_PAD + 1); /* zeroed */
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Splits the format into items like libtraceevent's parse_args. */
int tg_pf_compile_format(struct tg_pf *pf, const char *fmt, argv_list *args)
{
    const char *p = fmt;
    char lit[4096];
    while (*p) {
        if (*p == '%' && p[1] != '%') {
            const char *start = p;
            int ls = 0;
            tg_pf_node *len_arg = NULL;
            p++;
            for (;; p++) {
                char ch = *p;
                if (!ch) {
                    return 0; /* dangling conversion: ignored */
                }
                if (ch == '#' || ch == '.' || ch == 'z' || ch == 'Z' || ch == '-' ||
                    (ch >= '0' && ch <= '9'))
                    continue;
                if (ch == 'h') {
                    ls--;
                    continue;
                }
                if (ch == 'l') {
                    ls++;
                    continue;
                }
                if (ch == 'L') {
                    ls = 2;
                    continue;
                }
                if (ch == '*') {
                    if (args->i >= args->n || len_arg)
                        return -1;
                    len_arg = next_arg(args);
                    continue;
                }
                pf_item *it;
                if (ch == 'p') {
                    if (args->i >= args->n)
                        return -1;
                    int ext = pointer_ext(p + 1);
                    it = add_item(pf);
                    if (!it)
                        return -1;
                    it->type = IT_PTR;
                    it->pch = ext > 0 ? p[1] : 0;
                    it->pch2 = ext > 1 ? p[2] : 0;
                    p += ext;
                    it->text = dup_n(pf, start, (size_t)(p + 1 - start));
                    it->ls = ls;
                    it->arg = next_arg(args);
                    it->len_arg = len_arg;
                    p++;
                    break;
                }
                if (ch == 'd' || ch == 'u' || ch == 'i' || ch == 'x' || ch == 'X' || ch == 'o') {
                    if (args->i >= args->n)
                        return -1;
                    it = add_item(pf);
                    if (!it)
                        return -1;
                    it->type = IT_DIGIT;
                    it->text = dup_n(pf, start, (size_t)(p + 1 - start));
                    it->text_len = (size_t)(p + 1 - start);
                    it->ls = ls;
                    it->arg = next_arg(args);
                    it->len_arg = len_arg;
                    /* "%d", "%ld", "%08lx", "%03d", "%llu" ... go without printf */
                    const char *q = it->text + 1;
                    if (*q == '0') {
                        it->zero = true;
                        q++;
                    }
                    while (*q >= '0' && *q <= '9' && it->width < 64)
                        it->width = it->width * 10 + (*q++ - '0');
                    while (*q == 'l' || *q == 'h' || *q == 'L' || *q == 'z')
                        q++;
                    if (q == it->text + it->text_len - 1 && !len_arg)
                        it->fast = (ch == 'd' || ch == 'i') ? 'd'
                                   : ch == 'u'              ? 'u'
                                   : ch == 'x'              ? 'x'
                                                            : 0;
                    if (it->fast && ls < -2)
                        it->fast = 0;
                    if (ls > 2 || ls < -2)
                        return -1;
                    p++;
                    break;
                }
                if (ch == 's') {
                    if (args->i >= args->n)
                        return -1;
                    it = add_item(pf);
                    if (!it)
                        return -1;
                    it->type = IT_STR;
                    it->text = dup_n(pf, start, (size_t)(p + 1 - start));
                    it->text_len = (size_t)(p + 1 - start);
                    it->arg = next_arg(args);
                    it->len_arg = len_arg;
                    p++;
                    break;
                }
                /* anything else prints as ">c<" */
                it = add_item(pf);
                if (!it)
                    return -1;
                it->type = IT_TEXT;
                char t[4] = {'>', ch, '<', 0};
                it->text = dup_text(pf, t, 3);
                it->text_len = 3;
                p++;
                break;
            }
            continue;
        }
        /* literal text with escapes, up to the next conversion */
        size_t n = 0;
        while (*p && n < sizeof lit - 1) {
            if (*p == '\\') {
                p++;
                char e = *p;
                if (!e)
                    break;
                lit[n++] = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                p++;
            } else if (*p == '%') {
                if (p[1] == '%') {
                    lit[n++] = '%';
                    p += 2;
                } else {
                    break;
                }
            } else {
                lit[n++] = *p++;
            }
        }
        pf_item *it = add_item(pf);
        if (!it)
            return -1;
        it->type = IT_TEXT;
        it->text = dup_text(pf, lit, n);
        it->text_len = n;
    }
    return 0;
}

/* An argument eval would read as one field (N_FIELD: read_field) or as a constant element
 * of an array field (the '[' operator on an uncast N_FIELD), under casts (which only mask),
 * is read directly when rendering, with the same bounds checks. */
bool tg_pf_direct_of(const tg_pf_node *n, pf_item *it)
{
    if (!n)
        return false;
    if (n->kind == N_CAST) {
        /* eval: the value masked (a mask of 0: none); a field of 1, 2, 4 or 8 bytes only */
        if (!tg_pf_direct_of(n->a, it) ||
            (it->d_size != 1 && it->d_size != 2 && it->d_size != 4 && it->d_size != 8))
            return false;
        if (n->num)
            it->d_mask = it->d_mask ? it->d_mask & n->num : n->num;
        return true;
    }
    if (n->kind == N_FIELD && n->field) {
        it->d_off = n->field->offset;
        it->d_size = n->field->size;
        it->d_idx = 0;
        return true;
    }
    if (n->kind == N_BIN && n->opstr[0] == '[' && n->a && n->a->kind == N_FIELD && n->a->field &&
        n->b && (n->b->kind == N_NUM || n->b->kind == N_ATOM)) {
        uint64_t idx = n->b->num, esize = n->a->field->elem_size;
        if (idx > UINT32_MAX || esize > UINT32_MAX)
            return false;
        it->d_idx = idx;
        it->d_off = n->a->field->offset + idx * esize;
        it->d_size = (uint32_t)esize;
        return true;
    }
    return false;
}

static void set_direct(pf_item *it)
{
    if (it->type != IT_DIGIT)
        return;
    it->d_mask = 0;
    it->direct = tg_pf_direct_of(it->arg, it);
}

/* Room a step takes at most: its padded literal and a fast number (tg_pf_num_text). */
enum { STEP_ROOM = TG_PF_TEXT_PAD + 100 };

int tg_pf_plan(struct tg_pf *pf, bool big_endian)
{
    if (big_endian || !pf->n)
        return 0;
    size_t steps = 0, need = 0;
    for (size_t i = 0; i < pf->n; i++) {
        const pf_item *it = &pf->items[i];
        if (it->type == IT_TEXT) {
            /* the last item's trailing newline is dropped (render_items' strip_nl) */
            size_t n = it->text_len;
            if (i + 1 == pf->n && n && it->text[n - 1] == '\n')
                n--;
            if (n > TG_PF_TEXT_PAD || (i + 1 < pf->n && pf->items[i + 1].type == IT_TEXT))
                return 0;
            continue;
        }
        if (it->type != IT_DIGIT || !it->fast || it->len_arg || !it->direct ||
            (it->d_size != 1 && it->d_size != 2 && it->d_size != 4 && it->d_size != 8))
            return 0;
        size_t end = (size_t)it->d_off + it->d_size;
        if (end < it->d_idx)
            end = (size_t)it->d_idx;
        if (end > need)
            need = end;
        steps++;
    }
    if (pf->items[pf->n - 1].type == IT_TEXT)
        steps++;
    if (steps * STEP_ROOM > TG_PF_SINK_ROOM)
        return 0;
    pf_step *plan = tg_arena_alloc(&pf->arena, steps * sizeof *plan);
    if (!plan)
        return -1;
    static const char none[TG_PF_TEXT_PAD] = {0};
    size_t k = 0;
    for (size_t i = 0; i < pf->n; i++) {
        const pf_item *it = &pf->items[i];
        pf_step *st = &plan[k];
        if (it->type == IT_TEXT) {
            st->text = it->text;
            st->text_len = it->text_len;
            if (i + 1 == pf->n) {
                if (st->text_len && it->text[st->text_len - 1] == '\n')
                    st->text_len--;
                st->num = NULL;
                k++;
            }
            continue;
        }
        if (i == 0 || pf->items[i - 1].type != IT_TEXT) {
            st->text = none;
            st->text_len = 0;
        }
        st->num = it;
        k++;
    }
    pf->plan = plan;
    pf->n_plan = k;
    pf->need = need;
    pf->room = k * STEP_ROOM;
    return 0;
}

/* Compiles e's "fmt", args into e->pf on first use (the event format is otherwise
 * immutable: the compiled form is a cache). */
void tg_pf_compile_event(const tg_pf_event *e)
{
    if (e->pf_state)
        return;
    tg_pf_event *me = (tg_pf_event *)e;
    me->pf_state = -1;
    if (!e->print_fmt || e->is_bprint)
        return;
    struct tg_pf *pf = tg_pf_new();
    if (!pf)
        return;
    me->pf = pf;
    char *fmt = NULL;
    tg_pf_node *argv[128];
    size_t n_args = 0;
    if (tg_pf_parse(e, pf, &fmt, argv, 128, &n_args) == 0) {
        argv_list args = {argv, n_args, 0};
        if (tg_pf_compile_format(pf, fmt, &args) == 0) {
            for (size_t i = 0; i < pf->n; i++)
                set_direct(&pf->items[i]);
            /* TG_PRINT_FMT_INTERPRET=1: every item through the interpreter (render_items),
             * which the tests compare with the compiled paths */
            const char *interp = getenv("TG_PRINT_FMT_INTERPRET");
            if (interp && *interp && strcmp(interp, "0") != 0)
                me->pf_state = 1;
            else if (tg_pf_plan(pf, e->env->big_endian) == 0) {
                if (!pf->plan)
                    (void)tg_pf_compile_ops(pf, e); /* out of memory: no ops, items */
                me->pf_state = 1;
            }
        }
    }
    free(fmt);
}
