/* consumer_format.c - a consumer must not see a format's internals (tests/layers). */
#include "core/consumer.h"
#include "formats/ctf/ctf_internal.h"
