/* format_ok.c - a format sees core, io and its own folder (tests/layers; compiled with the
 * xray reader's include path). */
#include "core/format_api.h"
#include "formats/xray/xray_internal.h"
#include "io/byte_reader.h"
