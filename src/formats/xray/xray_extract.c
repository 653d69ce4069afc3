/* xray_extract.c - `llvm-xray extract`: a binary's instrumentation map as llvm-xray's YAML.
 *
 * Each sled of the xray_instr_map section is one line, in section order: its function id,
 * the sled's and its function's file addresses, its kind, whether the function is always
 * instrumented, the function's name (with -s: demangled unless --no-demangle, as llvm-xray's
 * symbolizer names it; else empty) and the sled version.  The map is the one the XRay reader
 * loads for --instr-map (xray_instr_map.c), so the ids are the ones every other XRay command
 * names.  Scalars are quoted as LLVM's YAML writer quotes them. */
#include "formats/xray/xray_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const sled_kinds[] = {
    "function-enter", "function-exit", "function-tail-exit",
    "log-args-enter", "custom-event",  "typed-event",
};

static bool is_plain_number(const char *s)
{
    char *end;
    if (!*s)
        return false;
    (void)strtod(s, &end);
    return *end == 0;
}

/* LLVM's YAML rule for a string scalar: plain when every byte is safe, single-quoted
 * ('' for a quote) otherwise, and for the empty string, a leading indicator, surrounding
 * blanks, or what would read as a number, a boolean or null. */
static void put_scalar(tg_buf *out, const char *s)
{
    size_t n = strlen(s);
    bool quote = n == 0 || strchr("-?:\\,[]{}#&*!|>'\"%@`", s[0]) || s[0] == ' ' || s[0] == '\t' ||
                 s[n - 1] == ' ' || s[n - 1] == '\t' || is_plain_number(s) || !strcmp(s, "true") ||
                 !strcmp(s, "false") || !strcmp(s, "null") || !strcmp(s, "~");
    for (const unsigned char *p = (const unsigned char *)s; *p && !quote; p++) {
        unsigned char c = *p;
        bool safe = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    strchr("_-^., \t", c) || (c & 0x80);
        quote = !safe;
    }
    if (!quote) {
        tg_buf_puts(out, s);
        return;
    }
    tg_buf_putc(out, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            tg_buf_putc(out, '\'');
        tg_buf_putc(out, *p);
    }
    tg_buf_putc(out, '\'');
}

int xray_extract_yaml(const char *bin, bool symbolize, bool demangle, tg_buf *out, tg_error **err)
{
    tg_arena arena;
    tg_arena_init(&arena);
    xray_instr_map map;
    int rc = xray_instr_map_load(&map, bin, &arena, err);
    if (rc < 0) {
        tg_arena_free(&arena);
        return rc;
    }
    tg_buf_puts(out, "---\n");
    for (size_t i = 0; i < map.n_sleds; i++) {
        const xray_sled *s = &map.sleds[i];
        const xray_func *f = s->id > 0 && (size_t)s->id < map.n_funcs ? &map.funcs[s->id] : NULL;
        const char *name = "";
        if (symbolize && f)
            name = demangle ? f->name : f->symbol ? f->symbol : f->name;
        tg_buf_printf(out,
                      "- { id: %d, address: 0x%" PRIX64 ", function: 0x%" PRIX64
                      ", kind: %s, always-instrument: %s, function-name: ",
                      s->id, s->address, s->function,
                      s->kind < sizeof sled_kinds / sizeof *sled_kinds ? sled_kinds[s->kind] : "",
                      s->always ? "true" : "false");
        put_scalar(out, name ? name : "");
        tg_buf_printf(out, ", version: %u }\n", s->version);
    }
    tg_buf_puts(out, "...\n");
    xray_instr_map_free(&map);
    tg_arena_free(&arena);
    return 0;
}
