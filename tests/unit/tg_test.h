/* tg_test.h - the smallest test harness: CHECK records a failure with its line and goes
 * on; tg_test_done prints "N passed, N failed" and gives the exit code. */
#ifndef TG_TEST_H
#define TG_TEST_H

#include <stdio.h>
#include <string.h>

struct tg_test_counts {
    int passed, failed;
};

#define CHECK(tc, cond)                                                                            \
    do {                                                                                           \
        if (cond) {                                                                                \
            (tc)->passed++;                                                                        \
        } else {                                                                                   \
            (tc)->failed++;                                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_STR(tc, got, want)                                                                   \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        if (g_ && strcmp(g_, w_) == 0) {                                                           \
            (tc)->passed++;                                                                        \
        } else {                                                                                   \
            (tc)->failed++;                                                                        \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__,                \
                    g_ ? g_ : "(null)", w_);                                                       \
        }                                                                                          \
    } while (0)

static inline int tg_test_done(const struct tg_test_counts *tc)
{
    printf("%d passed, %d failed\n", tc->passed, tc->failed);
    return tc->failed ? 1 : 0;
}

#endif
