/* sample_folded.c - folded stacks of sampled call chains, as perf's stackcollapse writes them.
 *
 * perf's scripts/python/stackcollapse.py (`perf script report stackcollapse`, which Debian's
 * linux-perf ships) counts the samples of hardware and software events by stack: the
 * thread's name at the sample (spaces as '_'), then the call chain's frames from the
 * outermost to the sampled one (none without a chain: perf hands the script an empty
 * one, and the script's "no chain" branch never runs), each its symbol's name (';' as ':') or "[unknown]", joined by ';'; then writes "STACK COUNT" for
 * each, sorted as Python sorts the texts (by code point: bytes of UTF-8).  Tracepoint
 * samples go to a tracepoint handler it does not define, so they are not counted.  Threads,
 * maps and symbols are perf's session's (common/perf), symbols under --symfs when given. */
#include "writers/viewers/sample_folded.h"
#include "common/perf/perf_chain_walk.h"

#include <stdlib.h>
#include <string.h>

typedef struct sf_line {
    char *stack; /* owned */
    uint64_t count;
} sf_line;

typedef struct sf_class {
    const tg_event_class *cls;
    long chain; /* field index of the call chain, -1: none */
} sf_class;

typedef struct sf_state {
    perf_session s;
    perf_symbols syms;
    sf_line *lines;
    size_t n_lines, cap_lines;
    tg_hash index; /* stack hash -> line */
    sf_class *classes;
    size_t n_classes, cap_classes;
    perf_chain_frame *frames; /* the current sample's frames, callee first */
    size_t cap_frames;
    tg_buf *text; /* the current sample's stack */
    bool nomem;
} sf_state;

static const sf_class *class_of(sf_state *st, const tg_event *ev)
{
    const tg_event_class *c = tg_event_class_of(ev);
    for (size_t i = 0; i < st->n_classes; i++)
        if (st->classes[i].cls == c)
            return &st->classes[i];
    if (tg_grow(&st->classes, &st->cap_classes, st->n_classes + 1, sizeof *st->classes) < 0) {
        st->nomem = true;
        return NULL;
    }
    sf_class *k = &st->classes[st->n_classes++];
    k->cls = c;
    k->chain = perf_chain_field(ev, TG_SCOPE_PAYLOAD);
    return k;
}

static void put_replacing(tg_buf *out, const char *s, char from, char to)
{
    for (; *s; s++)
        tg_buf_putc(out, *s == from ? to : *s);
}

static int sf_line_eq(const void *ctx, uint64_t value)
{
    const sf_state *st = ((const sf_state *const *)ctx)[0];
    const char *text = ((const char *const *)ctx)[1];
    return strcmp(st->lines[value].stack, text) == 0;
}

static void count_stack(sf_state *st, const char *text)
{
    uint64_t hash = tg_hash_str(text);
    const void *ctx[2] = {st, text};
    uint64_t *found = tg_hash_find_by(&st->index, hash, sf_line_eq, ctx);
    if (found) {
        st->lines[*found].count++;
        return;
    }
    char *copy = strdup(text);
    uint64_t *slot;
    if (!copy || tg_grow(&st->lines, &st->cap_lines, st->n_lines + 1, sizeof *st->lines) < 0 ||
        tg_hash_add(&st->index, hash, &slot) < 0) {
        free(copy);
        st->nomem = true;
        return;
    }
    *slot = st->n_lines;
    st->lines[st->n_lines++] = (sf_line){copy, 1};
}

static void add_sample(sf_state *st, const tg_event *ev)
{
    const sf_class *k = class_of(st, ev);
    if (!k || tg_event_class_system(k->cls)) /* a tracepoint: not stackcollapse's */
        return;
    long n = perf_chain_walk(&st->s, &st->syms, ev, TG_SCOPE_PAYLOAD, k->chain, &st->frames,
                             &st->cap_frames);
    if (n < 0) {
        st->nomem = true;
        return;
    }
    ps_thread *t = perf_session_thread(&st->s, ev->pid, ev->tid);
    tg_buf_reset(st->text);
    put_replacing(st->text, t ? t->comm : ":-1", ' ', '_');
    while (n--) {
        tg_buf_putc(st->text, ';');
        const ps_sym *sym = st->frames[n].sym;
        put_replacing(st->text, sym ? sym->name : "[unknown]", ';', ':');
    }
    count_stack(st, tg_buf_data(st->text));
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(((const sf_line *)a)->stack, ((const sf_line *)b)->stack);
}

int tg_sample_folded(tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    sf_state st = {0};
    perf_symbols_configure(&st.syms, opts);
    st.text = tg_buf_new();
    int rc = st.text ? 0 : TG_ERR_NOMEM;
    const tg_event *ev;
    while (rc == 0 && (rc = tg_iter_next(it, &ev)) > 0) {
        rc = 0;
        if (strncmp(tg_event_name(ev), "PERF_RECORD_", 12) == 0)
            perf_session_update(&st.s, ev);
        else
            add_sample(&st, ev);
    }
    if (rc >= 0 && (st.nomem || st.s.nomem || st.syms.nomem))
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc >= 0 && st.n_lines) { /* none: lines is NULL, which qsort may not take */
        qsort(st.lines, st.n_lines, sizeof *st.lines, line_cmp);
        for (size_t i = 0; i < st.n_lines; i++) {
            tg_buf_puts(out, st.lines[i].stack);
            tg_buf_putc(out, ' ');
            tg_buf_u64(out, st.lines[i].count);
            tg_buf_putc(out, '\n');
        }
    }
    for (size_t i = 0; i < st.n_lines; i++)
        free(st.lines[i].stack);
    free(st.lines);
    free(st.classes);
    free(st.frames);
    tg_hash_free(&st.index);
    tg_buf_free(st.text);
    perf_session_free(&st.s);
    perf_symbols_free(&st.syms);
    return rc;
}
