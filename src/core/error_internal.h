/* error_internal.h - building error cause chains inside the library.
 *
 * An error is a list of causes, innermost first when built, printed outermost first.  The
 * place that first notices damage creates the error with the file and byte offset
 * (tg_err_at); callers may wrap it with their context (tg_err_wrap), so the user reads the
 * whole story: "trace.dat: offset 0x2b9010: cpu 1 page 17: event length 4093 runs past the
 * page end (4080)".  Several independent errors (one per damaged stream) form a list
 * through tg_error_next. */
#ifndef TG_ERROR_INTERNAL_H
#define TG_ERROR_INTERNAL_H

#include "traceglot.h"

#include <stdint.h>

#if defined(__GNUC__)
#define TG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TG_PRINTF(a, b)
#endif

/* Sets *err (when err is not NULL) to a new error "file: offset 0x..: message" and returns
 * status, so that `return tg_err_at(err, TG_ERR_FORMAT, path, off, "...")` reads straight.
 * file may be NULL; offset UINT64_MAX means "no offset". */
int tg_err_at(tg_error **err, tg_status status, const char *file, uint64_t offset, const char *fmt,
              ...) TG_PRINTF(5, 6);
/* Same without file or offset. */
int tg_err(tg_error **err, tg_status status, const char *fmt, ...) TG_PRINTF(3, 4);
/* Adds an outer cause ("while reading X") to *err; returns the error's status. */
int tg_err_wrap(tg_error **err, const char *fmt, ...) TG_PRINTF(2, 3);
/* Appends err to the list *list (takes ownership). */
void tg_err_append(tg_error **list, tg_error *err);
/* In every cause of every error of list: each `from` (not followed by a digit: /proc/self/fd/4
 * is not /proc/self/fd/40) becomes `to`.  A cause that cannot grow is left as it was. */
void tg_err_rename(tg_error *list, const char *from, const char *to);

#define TG_NO_OFFSET UINT64_MAX

/* Propagate a negative status: keeps the happy path straight without hiding control flow
 * beyond a return. */
#define TG_TRY(expr)                                                                               \
    do {                                                                                           \
        int tg_try_rc_ = (expr);                                                                   \
        if (tg_try_rc_ < 0)                                                                        \
            return tg_try_rc_;                                                                     \
    } while (0)

#endif
