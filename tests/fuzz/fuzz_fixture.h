/* fuzz_fixture.h - what the unit fuzz targets share: a fixture of tests/data with one of its
 * units replaced by the fuzzer's input, run through everything the library does.
 *
 * A parser stage is best fuzzed where it really runs: inside the reader, with the rest of a
 * real trace around it, so that what it parsed is then used (a mutated event format decodes
 * real records, a mutated symbol file names real addresses).  Each target therefore names a
 * fixture and the unit it replaces (a file of a trace directory, or a piece of a trace.dat
 * cut by fuzz_tracedat.c); the fixture is copied once per fuzzing process into
 * /tmp/tg-fuzz-PID/ (removed at exit), the unit file is rewritten per input and the copy
 * goes through tg_exercise_path.  Nothing is kept between inputs but that copy, whose other
 * files never change, so every input replays alone (tests/fuzz/replay_main.c). */
#ifndef TG_FUZZ_FIXTURE_H
#define TG_FUZZ_FIXTURE_H

#include "exercise.h"

#include <stddef.h>
#include <stdint.h>

#ifndef TG_FUZZ_DATA
#error "TG_FUZZ_DATA must name tests/data (set by tests/fuzz/CMakeLists.txt)"
#endif

/* The whole file at path (malloc'ed, *n its size), NULL when unreadable. */
uint8_t *tg_fuzz_slurp(const char *path, size_t *n);
/* Writes p[0..n) to dir/name (replacing it); 0, or -1. */
int tg_fuzz_put(const char *dir, const char *name, const void *p, size_t n);
/* This process's copy of the fixture directory TG_FUZZ_DATA/fixture (made on first use) in
 * dir; 0, or -1 (the fixture is missing: the caller aborts, since fuzzing nothing would pass
 * silently). */
int tg_fuzz_copy(const char *fixture, char *dir, size_t dir_size);
/* The name of the first file of dir (in name order) matching the fnmatch(3) pattern, in
 * name; 0 or -1. */
int tg_fuzz_find(const char *dir, const char *pattern, char *name, size_t name_size);
/* A scratch path in this process's folder for a file of its own (name), in path. */
int tg_fuzz_scratch(const char *name, char *path, size_t path_size);
/* Writes p[0..n) to the scratch file name; its path in path.  0, or -1. */
int tg_fuzz_scratch_put(const char *name, const void *p, size_t n, char *path, size_t path_size);
/* Replaces the unit `pattern` of the fixture (a directory of tests/data) by the input and
 * exercises the copy.  Aborts when the fixture or its unit is missing. */
void tg_fuzz_dir_unit(const char *fixture, const char *pattern, const uint8_t *data, size_t size,
                      const tg_options *opts);
/* Picks one of n fixtures by the input's first byte and replaces its unit by the rest (the
 * binary units, whose seeds start with the byte of their fixture). */
void tg_fuzz_dir_unit_pick(const char *const *fixtures, size_t n, const char *pattern,
                           const uint8_t *data, size_t size, const tg_options *opts);

/* ---- seeds: each target cuts its own from its fixtures ----------------------------------- */

/* Defined by every target: writes its seeds into the folder out (which exists) and returns
 * how many.  A fuzzing binary run with TG_FUZZ_SEEDS=DIR writes them there and exits
 * (tests/fuzz/run.sh); the replay driver's --seeds and --self-test call it too. */
int tg_fuzz_seeds(const char *out);
/* Writes one seed out/name: the byte pick first when pick >= 0 (the targets whose first
 * byte picks their fixture), then p[0..n).  1 when written, else 0. */
int tg_fuzz_seed(const char *out, const char *name, int pick, const void *p, size_t n);
/* The seeds of tg_fuzz_dir_unit(_pick): the unit of each fixture (pick: behind its byte). */
int tg_fuzz_seed_units(const char *out, const char *const *fixtures, size_t n, const char *pattern,
                       int pick);
/* The seeds of the whole-file targets: each file of tests/data named (as "perf/x.data") whole,
 * under its base name. */
int tg_fuzz_seed_files(const char *out, const char *const *files, size_t n);

/* ---- whole-file targets -------------------------------------------------------------------- */

/* Writes the input to the scratch file name (whose extension the probes may look at) and
 * exercises it. */
void tg_fuzz_whole_file(const char *name, const uint8_t *data, size_t size);

#endif
