/* format_other_format.c - a format must not see another format (tests/layers; compiled with
 * the xray reader's include path). */
#include "core/format_api.h"
#include "formats/ctf/ctf_internal.h"
