/* sample_folded.c - folded stacks of sampled call chains, as perf's stackcollapse writes them.
 *
 * perf's scripts/python/stackcollapse.py (`perf script report stackcollapse`, which Debian's
 * linux-perf ships) counts the samples of hardware and software events by stack: the
 * thread's name at the sample (spaces as '_'), then the call chain's frames from the
 * outermost to the sampled one (none without a chain: perf hands the script an empty
 * one, and the script's "no chain" branch never runs), each its symbol's name (';' as ':') or "[unknown]", joined by ';'; then writes "STACK COUNT" for
 * each, sorted as Python sorts the texts (by code point: bytes of UTF-8).  Tracepoint
 * samples go to a tracepoint handler it does not define, so they are not counted.  The
 * stacks are sample_stacks.c's, which the SVG and speedscope writers draw too. */
#include "writers/viewers/sample_folded.h"
#include "writers/viewers/sample_stacks.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

typedef struct sf_line {
    char *stack; /* owned */
    uint64_t count;
} sf_line;

typedef struct sf_state {
    sf_line *lines;
    size_t n_lines, cap_lines;
    tg_hash index; /* stack hash -> line */
    tg_buf *text;  /* the current sample's stack */
} sf_state;

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

static int count_stack(sf_state *st, const char *text)
{
    uint64_t hash = tg_hash_str(text);
    const void *ctx[2] = {st, text};
    uint64_t *found = tg_hash_find_by(&st->index, hash, sf_line_eq, ctx);
    if (found) {
        st->lines[*found].count++;
        return 0;
    }
    char *copy = strdup(text);
    uint64_t *slot;
    if (!copy || tg_grow(&st->lines, &st->cap_lines, st->n_lines + 1, sizeof *st->lines) < 0 ||
        tg_hash_add(&st->index, hash, &slot) < 0) {
        free(copy);
        return TG_ERR_NOMEM;
    }
    *slot = st->n_lines;
    st->lines[st->n_lines++] = (sf_line){copy, 1};
    return 0;
}

static int add_sample(void *ctx, const tg_sample_stack *stack)
{
    sf_state *st = ctx;
    tg_buf_reset(st->text);
    put_replacing(st->text, stack->comm, ' ', '_');
    for (size_t i = 0; i < stack->depth; i++) {
        tg_buf_putc(st->text, ';');
        put_replacing(st->text, stack->names[i], ';', ':');
    }
    return count_stack(st, tg_buf_data(st->text));
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(((const sf_line *)a)->stack, ((const sf_line *)b)->stack);
}

int tg_sample_folded(tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    sf_state st = {0};
    st.text = tg_buf_new();
    int rc = st.text ? tg_sample_stacks_walk(it, opts, add_sample, &st, err)
                     : tg_err(err, TG_ERR_NOMEM, "out of memory");
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
    tg_hash_free(&st.index);
    tg_buf_free(st.text);
    return rc;
}
