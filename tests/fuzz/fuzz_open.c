/* fuzz_open.c - libFuzzer target: the input bytes as one trace file (trace.dat, XRay log,
 * CTF packetized metadata ... whatever the probes recognise), run through everything the
 * library does.  Built with -DTG_FUZZ=ON and clang; seeds are the fixtures in tests/data. */
#include "exercise.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/tg-fuzz-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) == (ssize_t)size)
        tg_exercise_path(path, NULL);
    close(fd);
    unlink(path);
    return 0;
}
