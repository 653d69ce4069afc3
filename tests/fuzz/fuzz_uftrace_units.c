/* fuzz_uftrace_units.c - libFuzzer targets for the files of a uftrace data directory, one
 * binary per unit: the build compiles this file once per target with TG_FUZZ_UNIT set to
 * one of the units below (tests/fuzz/CMakeLists.txt).
 *
 *   info      the 40-byte header and key:value lines    (first byte picks the fixture)
 *   task      task.txt: SESS, TASK, FORK, EXEC, DLOP lines
 *   map       sid-SESSION.map: /proc/PID/maps lines of the session
 *   sym       MODULE.sym: "ADDRESS TYPE NAME" lines (C++ names, demangled)
 *   dbg       MODULE.dbg: F:/L:/A:/R: lines (functions, lines, argument specs)
 *   dat       TID.dat: the thread's 16-byte records and their payloads (first byte picks)
 *   kheader   kernel_header of `record -k`: PAGE_SIZE/LONG_SIZE/ENDIAN, TRACEFS sections
 *   kernel    kernel-cpuN.dat: the cpu's function_graph ring-buffer pages
 *   kallsyms  the data's copy of /proc/kallsyms (the kernel functions' names)
 *   perf      perf-cpuN.dat: the perf records of context switches, forks, exits, comms
 *             (first byte picks)
 *   extern    extern.dat: "SECONDS.NANOSECONDS message" lines
 *
 * Each replaces that file of a fixture recorded by uftrace (tests/uftrace/record-fixtures.sh)
 * and runs the directory through everything the library does (fuzz_fixture.h).  Seeds: the
 * unit of each fixture.  Dictionaries: dict/uftrace_UNIT.dict for the text units. */
#include "fuzz_fixture.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#if TG_FUZZ_UNIT_info
static const char *const fixtures[] = {"uftrace/args.data", "uftrace/forks.data",
                                       "uftrace/events.data", "uftrace-kernel/kernel.data"};
static const char pattern[] = "info";
enum { PICK = 1 };
#elif TG_FUZZ_UNIT_task
static const char *const fixtures[] = {"uftrace/forks.data"};
static const char pattern[] = "task.txt";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_map
static const char *const fixtures[] = {"uftrace/libcalls.data"};
static const char pattern[] = "sid-*.map";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_sym
static const char *const fixtures[] = {"uftrace/cxx.data"};
static const char pattern[] = "*.sym";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_dbg
static const char *const fixtures[] = {"uftrace/args.data"};
static const char pattern[] = "*.dbg";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_dat
static const char *const fixtures[] = {"uftrace/args.data", "uftrace/events.data",
                                       "uftrace/lost.data", "uftrace/forks.data",
                                       "uftrace/cxx.data"};
static const char pattern[] = "[0-9]*.dat";
enum { PICK = 1 };
#elif TG_FUZZ_UNIT_kheader
static const char *const fixtures[] = {"uftrace-kernel/kernel.data"};
static const char pattern[] = "kernel_header";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_kernel
static const char *const fixtures[] = {"uftrace-kernel/kernel.data"};
static const char pattern[] = "kernel-cpu*.dat";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_kallsyms
static const char *const fixtures[] = {"uftrace-kernel/kernel.data"};
static const char pattern[] = "kallsyms";
enum { PICK = 0 };
#elif TG_FUZZ_UNIT_perf
static const char *const fixtures[] = {"uftrace-sched/s3.data", "uftrace-sched/end2.data",
                                       "uftrace/args.data", "uftrace-kernel/kernel.data"};
static const char pattern[] = "perf-cpu*.dat";
enum { PICK = 1 };
#elif TG_FUZZ_UNIT_extern
static const char *const fixtures[] = {"uftrace/extern.data"};
static const char pattern[] = "extern.dat";
enum { PICK = 0 };
#else
#error "TG_FUZZ_UNIT_<unit> must be set"
#endif

int tg_fuzz_seeds(const char *out)
{
    return tg_fuzz_seed_units(out, fixtures, N_OF(fixtures), pattern, PICK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (PICK)
        tg_fuzz_dir_unit_pick(fixtures, N_OF(fixtures), pattern, data, size, NULL);
    else
        tg_fuzz_dir_unit(fixtures[0], pattern, data, size, NULL);
    return 0;
}
