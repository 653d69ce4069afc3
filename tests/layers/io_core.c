/* io_core.c - io sits below core and must not see core's headers (tests/layers). */
#include "io/mapped_file.h"
#include "core/error_internal.h"
