/* cli_ok.c - the CLI uses the public header (tests/layers). */
#include "traceglot.h"
