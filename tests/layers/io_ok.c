/* io_ok.c - io sees its own headers and the public one (tests/layers; compiled with the io
 * layer's include path). */
#include "io/byte_reader.h"
#include "io/mapped_file.h"
#include "io/read_window.h"
