/* ctf_metadata_info.c - `babeltrace2 query src.ctf.fs metadata-info -p path=DIR`: the
 * trace's TSDL metadata as babeltrace2's query answers it.
 *
 * babeltrace2 prints the answer's map: "is-packetized: yes|no", then "text: " and the
 * metadata text, decoded from its packets when packetized, up to its first NUL.  As
 * babeltrace2 2.0, it refuses CTF 2 metadata and plain-text metadata without its "CTF 1.x"
 * signature comment.  The trace has been opened, so its metadata parsed: babeltrace2
 * refuses metadata it cannot parse too. */
#include "formats/ctf/ctf_internal.h"
#include "io/mapped_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The trace's metadata text as babeltrace2 2.0 reads it (malloc'ed), or its refusal. */
static int bt2_metadata_text(const tg_trace *t, char **text_out, bool *packetized_out,
                             tg_error **err)
{
    const char *path = tg_trace_path(t);
    struct stat st;
    char *joined = NULL;
    if (path && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        joined = tg_path_join(path, "metadata");
        if (!joined)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        path = joined;
    }
    char *text = NULL;
    size_t len = 0;
    bool packetized = false;
    int rc = path ? ctf_metadata_text(path, &text, &len, &packetized, err)
                  : tg_err(err, TG_ERR_USAGE, "the trace has no path");
    free(joined);
    if (rc < 0)
        return rc;
    /* babeltrace2 2.0 reads CTF 1.8 only, and plain-text metadata with its signature */
    static const char signature[] = "/* CTF 1.";
    if ((unsigned char)text[0] == 0x1e)
        rc = tg_err(err, TG_ERR_FORMAT, "CTF 2 metadata: babeltrace2 2.0's queries read CTF 1.8");
    else if (!packetized && strncmp(text, signature, sizeof signature - 1) != 0)
        rc = tg_err(err, TG_ERR_FORMAT,
                    "missing \"/* CTF major.minor\" signature in plain text metadata");
    if (rc < 0) {
        free(text);
        return rc;
    }
    *text_out = text;
    *packetized_out = packetized;
    return 0;
}

int ctf_metadata_bt2_check(const tg_trace *t, tg_error **err)
{
    char *text = NULL;
    bool packetized = false;
    TG_TRY(bt2_metadata_text(t, &text, &packetized, err));
    free(text);
    return 0;
}

int ctf_metadata_info(const tg_trace *t, tg_buf *out, tg_error **err)
{
    char *text = NULL;
    bool packetized = false;
    TG_TRY(bt2_metadata_text(t, &text, &packetized, err));
    tg_buf_puts(out, packetized ? "is-packetized: yes\ntext: " : "is-packetized: no\ntext: ");
    tg_buf_puts(out, text);
    tg_buf_putc(out, '\n');
    free(text);
    return 1;
}
