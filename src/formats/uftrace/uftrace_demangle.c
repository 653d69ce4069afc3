/* uftrace_demangle.c - C++ symbol names the way uftrace shows them by default.
 *
 * uftrace's default ("simple") demangling prints a function's qualified name without its
 * parameter list and without template arguments: _ZNSt8ios_base4InitC1Ev reads
 * std::ios_base::Init::Init.  libiberty's demangler does the decoding (without DMGL_PARAMS);
 * template argument lists are then dropped, except the angle brackets of operator names.
 * Done once per symbol when a symbol file is loaded, never per event. */
#include "formats/uftrace/uftrace_internal.h"

#include <demangle.h>
#include <stdlib.h>
#include <string.h>

const char *uft_demangle(tg_arena *a, const char *name)
{
    if (strncmp(name, "_Z", 2) != 0)
        return name;
    char *dem = cplus_demangle(name, DMGL_AUTO);
    if (!dem)
        return name;
    size_t n = strlen(dem);
    char *out = tg_arena_alloc(a, n + 1);
    if (!out) {
        free(dem);
        return name;
    }
    size_t o = 0;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = dem[i];
        bool op = i >= 8 && strncmp(dem + i - 8, "operator", 8) == 0;
        bool op2 = i >= 9 && strncmp(dem + i - 9, "operator", 8) == 0 && dem[i - 1] == c;
        if (c == '<' && depth == 0 && (op || op2)) {
            out[o++] = c;
            continue;
        }
        if ((c == '>' || c == '<') && depth == 0 && (op || op2)) {
            out[o++] = c;
            continue;
        }
        if (c == '<') {
            depth++;
            continue;
        }
        if (c == '>' && depth > 0) {
            depth--;
            continue;
        }
        if (depth == 0)
            out[o++] = c;
    }
    out[o] = 0;
    free(dem);
    return out;
}
