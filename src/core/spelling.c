/* spelling.c - the nearest names to a misspelt one: what every "did you mean" of the command
 * line, the SQL layer and the filters says (options, commands, styles, targets, tables,
 * events).
 *
 * A candidate is near when its edit distance (insertions, deletions, substitutions and
 * swaps of two neighbouring letters, each one step: "stlye" is one step from "style") is at
 * most a third of the word's letters (at least one), or when the word is the start or the
 * end of it ("conver", "stat", "fields").  All candidates at the best distance are kept, up
 * to TG_NEAREST_MAX, so that "did you mean" can name several. */
#include "traceglot.h"

#include <stdio.h>
#include <string.h>

/* Edit distance of a and b (optimal string alignment), capped at 99. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 60 || lb > 60)
        return 99;
    size_t rows[3][61], *two_up = rows[0], *up = rows[1], *row = rows[2];
    for (size_t j = 0; j <= lb; j++)
        up[j] = j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = up[j - 1] + (a[i - 1] != b[j - 1]);
            if (up[j] + 1 < best)
                best = up[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                two_up[j - 2] + 1 < best)
                best = two_up[j - 2] + 1;
            row[j] = best;
        }
        size_t *oldest = two_up;
        two_up = up;
        up = row;
        row = oldest;
    }
    return up[lb];
}

void tg_nearest_init(tg_nearest *n, const char *word)
{
    memset(n, 0, sizeof *n);
    n->word = word;
    n->distance = 99;
}

void tg_nearest_offer(tg_nearest *n, const char *candidate)
{
    if (!candidate || !*candidate || strcmp(candidate, n->word) == 0)
        return;
    size_t lw = strlen(n->word), lc = strlen(candidate);
    size_t d = distance(n->word, candidate);
    if (lw >= 3 && lw < lc &&
        (strncmp(candidate, n->word, lw) == 0 || strcmp(candidate + lc - lw, n->word) == 0))
        d = 1;
    size_t allowed = lw / 3 ? lw / 3 : 1;
    if (d > allowed || d > n->distance)
        return;
    if (d < n->distance) {
        n->distance = d;
        n->count = 0;
    }
    for (size_t i = 0; i < n->count; i++)
        if (strcmp(n->names[i], candidate) == 0)
            return;
    if (n->count < TG_NEAREST_MAX)
        n->names[n->count++] = candidate;
}

size_t tg_nearest_say(const tg_nearest *n, const char *prefix, char *buf, size_t size)
{
    if (size)
        buf[0] = 0;
    size_t used = 0;
    for (size_t i = 0; i < n->count && size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n->count ? " or " : ", ";
        int k = snprintf(buf + used, size - used, "%s%s%s", sep, prefix, n->names[i]);
        if (k < 0 || (size_t)k >= size - used)
            break;
        used += (size_t)k;
    }
    return n->count;
}
