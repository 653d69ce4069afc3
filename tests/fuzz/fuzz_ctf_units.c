/* fuzz_ctf_units.c - libFuzzer targets for CTF 1.8, one binary per unit (TG_FUZZ_UNIT_<unit>,
 * tests/fuzz/CMakeLists.txt):
 *
 *   tsdl      the metadata as plain TSDL text (lexer, parser, type resolution, validation,
 *             compiled decoders), read with the stream files of a fixture
 *   packets   the metadata file in packets (the 37-byte packet headers, their sizes, uuid
 *             and version, the text they carry)            (first byte picks the fixture)
 *   stream    a stream file: packet headers and contexts, event headers, payloads, under the
 *             fixture's fixed metadata                       (first byte picks the fixture)
 *
 * The fixtures were recorded by LTTng and by a barectf-like writer of every type
 * (tests/ctf/record-fixtures.sh); the unit replaces that file of one and the folder runs
 * through everything the library does.  Seeds: the unit of each fixture (for tsdl, their
 * packetized metadata's text).  Dictionary: dict/ctf_tsdl.dict. */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#if TG_FUZZ_UNIT_tsdl
static const char *const fixtures[] = {"ctf/types", "ctf/cyg", "ctf/rotation"};
static const char pattern[] = "metadata";

/* The text of packetized metadata: each packet's content after its 37-byte header. */
static size_t unpacketize(const uint8_t *p, size_t n, uint8_t *out)
{
    size_t len = 0, at = 0;
    while (n - at >= 37) {
        uint32_t content, packet;
        memcpy(&content, p + at + 24, 4);
        memcpy(&packet, p + at + 28, 4);
        content /= 8;
        packet /= 8;
        if (content < 37 || content > packet || packet > n - at)
            break;
        memcpy(out + len, p + at + 37, content - 37);
        len += content - 37;
        at += packet;
    }
    return len;
}

int tg_fuzz_seeds(const char *out)
{
    int count = 0;
    for (size_t i = 0; i < N_OF(fixtures); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/metadata", TG_FUZZ_DATA, fixtures[i]);
        size_t n = 0;
        uint8_t *b = tg_fuzz_slurp(path, &n), *text = b ? malloc(n + 1) : NULL;
        if (text) {
            char name[64];
            snprintf(name, sizeof name, "%s", strrchr(fixtures[i], '/') + 1);
            count += tg_fuzz_seed(out, name, -1, text, unpacketize(b, n, text));
        }
        free(text);
        free(b);
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_dir_unit(fixtures[0], pattern, data, size, NULL);
    return 0;
}
#else
#if TG_FUZZ_UNIT_packets
static const char *const fixtures[] = {"ctf/types", "ctf/cyg", "ctf/rotation"};
static const char pattern[] = "metadata";
#elif TG_FUZZ_UNIT_stream
static const char *const fixtures[] = {"ctf/types", "ctf/cyg", "ctf/rotation"};
static const char pattern[] = "ch_0*";
#else
#error "TG_FUZZ_UNIT_<unit> must be set"
#endif

int tg_fuzz_seeds(const char *out)
{
    return tg_fuzz_seed_units(out, fixtures, N_OF(fixtures), pattern, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_dir_unit_pick(fixtures, N_OF(fixtures), pattern, data, size, NULL);
    return 0;
}
#endif
