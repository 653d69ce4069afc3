/* consumer_format_api.c - a consumer must not see what a format implements (tests/layers). */
#include "core/consumer.h"
#include "core/format_api.h"
