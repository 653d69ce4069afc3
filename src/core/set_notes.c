/* set_notes.c - where a set's consumers write what their peer prints on its standard error
 * while it goes on (tg_set_notes): a buffer the caller owns, so that the library itself never
 * prints and a caller decides where the lines go (the CLI: standard error). */
#include "core/set_internal.h"

void tg_set_notes(tg_set *set, tg_buf *notes)
{
    if (set)
        set->notes = notes;
}

tg_buf *tg_set_notes_out(const tg_set *set) { return set ? set->notes : NULL; }
