/* cli_consumer.c - the CLI sees only the public header (tests/layers). */
#include "traceglot.h"
#include "core/consumer.h"
