/* xray_dwarf_line.h - DWARF line-table lookups for the instrumentation map's locations. */
#ifndef TG_XRAY_DWARF_LINE_H
#define TG_XRAY_DWARF_LINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct xray_line {
    const char *file; /* the file's last path component (points into the sections), or NULL */
    uint32_t line;
    uint16_t column;
} xray_line;

/* For each of the na sorted addresses, fills res[i] (zero it first) from the line tables in
 * debug_line (strings in debug_str / debug_line_str, which may be NULL).  Returns 0. */
int xray_dwarf_lines(const uint8_t *debug_line, size_t n_line, const uint8_t *debug_str,
                     size_t n_str, const uint8_t *debug_line_str, size_t n_line_str,
                     const uint64_t *addrs, size_t na, xray_line *res);

#endif
