/* fuzz_lttng0_units.c - libFuzzer targets for the two kinds of LTTng 0.x tracefile, one
 * binary per unit (TG_FUZZ_UNIT_<unit>, tests/fuzz/CMakeLists.txt):
 *
 *   tracefile  kernel_0: blocks of events (block headers, event headers with compact or full
 *              ids and sizes, payloads decoded by the marker formats of the metadata)
 *   markers    metadata_0: blocks of core_marker_id / core_marker_format events, whose
 *              format strings ("%u", "%lu", "%s", "#2u%lu" ...) the markers parse
 *
 * The first input byte picks one of the hand-made fixtures (tests/lttng0/make-fixtures.py:
 * 8 cpus, big-endian with lost events, a flight-recorder trace); the rest replaces that
 * tracefile of it, and the folder runs through everything the library does.  Seeds: the
 * unit of each fixture.  Dictionary: dict/lttng0_markers.dict. */
#include "fuzz_fixture.h"

static const char *const fixtures[] = {"lttng0/smp8", "lttng0/lost-be", "lttng0/flight"};
#if TG_FUZZ_UNIT_tracefile
static const char pattern[] = "kernel_0";
#elif TG_FUZZ_UNIT_markers
static const char pattern[] = "metadata_0";
#else
#error "TG_FUZZ_UNIT_<unit> must be set"
#endif
enum { N = sizeof fixtures / sizeof fixtures[0] };

int tg_fuzz_seeds(const char *out) { return tg_fuzz_seed_units(out, fixtures, N, pattern, 1); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_dir_unit_pick(fixtures, N, pattern, data, size, NULL);
    return 0;
}
