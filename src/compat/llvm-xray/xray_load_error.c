/* xray_load_error.c - what llvm-xray says of a basic-mode log it cannot load, and that it
 * prints no report then (exit 1).
 *
 * llvm-xray 14 loads the whole log before it accounts a record, and a basic-mode log it
 * cannot load (a record cut short, a record of an unknown kind or type, a log of no record)
 * stops it with "llvm-xray: Failed loading input file 'PATH'" and the reason on the next
 * line.  The reason is never the first one: after the little-endian read fails, llvm reads
 * the log again as big-endian (llvm/lib/XRay/Trace.cpp), where the header's version 3 reads
 * 768: "Unsupported version for Basic/Naive Mode logging: 768".  This file says the same, as
 * the error's text (the CLI prefixes "traceglot: error: " where llvm-xray prefixes
 * "llvm-xray: ").  FDR logs are not handled here: llvm's FDR loader accepts damage that
 * traceglot's reader reports (buffer extents past the end of the file, a log cut at a record
 * boundary), so a reader error there does not tell that llvm fails. */
#include "xray_account.h"

#include <stdio.h>

#define XRAY_HEADER_BYTES 32

/* The log's first four bytes (version, type); false when it cannot be read. */
static bool read_head(tg_trace *tr, unsigned char h[4], long *size)
{
    FILE *f = fopen(tg_trace_path(tr), "rb");
    bool ok = f && fread(h, 1, 4, f) == 4;
    if (ok && size)
        ok = fseek(f, 0, SEEK_END) == 0 && (*size = ftell(f)) >= 0;
    if (f)
        fclose(f);
    return ok;
}

bool xray_log_is_basic(tg_trace *tr)
{
    unsigned char h[4];
    return read_head(tr, h, NULL) && h[2] == 0 && h[3] == 0;
}

bool xray_basic_has_no_record(tg_trace *tr)
{
    unsigned char h[4];
    long size = 0;
    return read_head(tr, h, &size) && h[2] == 0 && h[3] == 0 && size == XRAY_HEADER_BYTES;
}

int xray_load_failure(tg_trace *tr, tg_error **err)
{
    const char *path = tg_trace_input_path(tr);
    unsigned char h[4];
    if (!read_head(tr, h, NULL))
        return tg_err(err, TG_ERR_FORMAT,
                      "Failed loading input file '%s'\nCannot read log from '%s'", path, path);
    /* the header's version as llvm reads it the second time: big-endian */
    return tg_err(err, TG_ERR_FORMAT,
                  "Failed loading input file '%s'\nUnsupported version for Basic/Naive Mode "
                  "logging: %u",
                  path, (unsigned)h[0] << 8 | h[1]);
}
