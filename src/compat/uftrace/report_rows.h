/* report_rows.h - the rows of uftrace's report: one per function name, with total time,
 * self time and calls, found by name and printed sorted as `uftrace report` prints them.
 * Rows are allocated one by one because callers cache pointers to them. */
#ifndef TG_REPORT_ROWS_H
#define TG_REPORT_ROWS_H

#include "core/consumer.h"

#include <stddef.h>
#include <stdint.h>

struct row {
    char *name;
    uint64_t total, self, calls;
};

struct table {
    struct row **rows; /* each row allocated on its own: caches keep pointers to rows */
    size_t n, cap;
    tg_hash by_name; /* hash of the name -> index into rows */
};

/* The row of name, made (zeroed) when new; NULL when out of memory. */
struct row *uf_row_get(struct table *tb, const char *name);
/* Sorts the rows by total time (then name) and prints uftrace report's table. */
void uf_rows_print(struct table *tb, tg_buf *out);

#endif
