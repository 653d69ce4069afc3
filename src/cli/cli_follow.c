/* cli_follow.c - `cat --follow PATH`: a trace a tracer is writing, printed as it grows.
 *
 * Every tenth of a second the files under PATH are looked at (their sizes and change
 * times); when they changed, a pass (cli_live_show.c) prints the events up to where every
 * stream that has records is whole, in time order, after what was shown.  It ends at Ctrl-C
 * (or another ending signal), or when the tracer ends the trace where the format says so (a
 * uftrace data directory gets its info file at the end of the recording), with the rest of
 * the events.  A uftrace directory is read while it grows (its TID.dat files get a buffer
 * of records at a time) unless it records scheduling events: uftrace writes those to
 * perf-cpuN.dat in chunks of its own, late, so earlier events could come after later ones
 * were shown; such a recording is printed when it ends.  A trace.dat of `trace-cmd record` is refused: trace-cmd keeps each CPU's data
 * in files of its own while it records and writes trace.dat whole at the end. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FOLLOW_POLL_MS 100
#define FOLLOW_MAX_DEPTH 8
#define FOLLOW_MAX_FILES 100000

/* A summary of the files under path (sizes, change times, names): it differs when a tracer
 * wrote. */
typedef struct follow_look {
    uint64_t hash;
    size_t files;
} follow_look;

static void mix(follow_look *l, uint64_t v) { l->hash = (l->hash ^ v) * 0x100000001b3ull; }

static void look_at(const char *path, int depth, follow_look *l)
{
    struct stat st;
    if (l->files >= FOLLOW_MAX_FILES || lstat(path, &st) < 0)
        return;
    l->files++;
    mix(l, (uint64_t)st.st_size);
    mix(l, (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec);
    mix(l, (uint64_t)st.st_ino);
    if (!S_ISDIR(st.st_mode) || depth >= FOLLOW_MAX_DEPTH)
        return;
    DIR *d = opendir(path);
    struct dirent *e;
    char sub[4200];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        look_at(sub, depth + 1, l);
    }
    if (d)
        closedir(d);
}

static bool has_file(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* A trace.dat (its magic), which trace-cmd writes whole at the end of a recording. */
static bool is_trace_dat(const char *path)
{
    static const char magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    char head[10];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    return n == (ssize_t)sizeof head && memcmp(head, magic, sizeof magic) == 0;
}

/* A uftrace data directory: task.txt, written when the recording starts. */
static bool is_uftrace_dir(const char *path) { return has_file(path, "task.txt"); }

/* uftrace records scheduling events there (perf-cpu0.dat is made at the start). */
static bool has_uftrace_perf(const char *path) { return has_file(path, "perf-cpu0.dat"); }

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL); /* a signal ends it early: the loop looks at the stop flag */
}

int cli_follow_run(struct cli_args *a)
{
    if (a->n_paths != 1 || tg_live_is_url(a->paths[0])) {
        fprintf(stderr, "traceglot cat: --follow takes one PATH, a trace being written (a "
                        "net:// session is followed without it)\n");
        return 2;
    }
    if (!cli_live_show_fits(a)) {
        fprintf(stderr, "traceglot cat: --follow prints in the default, babeltrace and native "
                        "styles, without --begin and --end\n");
        return 2;
    }
    const char *path = a->paths[0];
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(stderr, "traceglot: error: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (S_ISREG(st.st_mode) && is_trace_dat(path)) {
        fprintf(stderr,
                "traceglot: error: %s: a trace.dat is readable only when trace-cmd record "
                "ends (trace-cmd keeps each CPU's data apart while it records and writes "
                "trace.dat whole at the end): run cat without --follow then\n",
                path);
        return 2;
    }
    bool uftrace = S_ISDIR(st.st_mode) && is_uftrace_dir(path);
    /* scheduling events come late: the events are printed when the recording ends */
    bool at_end = uftrace && !has_file(path, "info") && has_uftrace_perf(path);
    if (at_end)
        fprintf(stderr,
                "traceglot: note: %s: uftrace writes its scheduling events (perf-cpuN.dat) "
                "late, in chunks: the events come when the recording ends (record with "
                "--no-event to follow it as it grows)\n",
                path);
    struct cli_live_show *s = cli_live_show_new(a, path);
    if (!s) {
        fprintf(stderr, "traceglot: error: cannot make a scratch file under $TMPDIR\n");
        return 1;
    }
    if (uftrace)
        cli_live_show_guard(s, "info");
    volatile sig_atomic_t stop = 0;
    cli_signals_soft(&stop); /* Ctrl-C ends the following: the rest is printed */
    follow_look seen = {0};
    bool first = true, left = false;
    while (!stop) {
        follow_look now = {0xcbf29ce484222325ull, 0};
        look_at(path, 0, &now);
        bool still = !first && now.hash == seen.hash && now.files == seen.files;
        if (uftrace && has_file(path, "info") && still) /* the tracer ended the trace */
            break;
        /* a pass when the files changed, and while events wait for time to pass */
        /* uftrace writes its symbol tables with info: a pass then waits for the last one */
        bool ending = uftrace && has_file(path, "info");
        if ((first || left || !still) && !at_end && !ending)
            left = cli_live_show_follow(s);
        seen = now;
        first = false;
        pause_ms(FOLLOW_POLL_MS);
    }
    cli_signals_install();
    int rc = cli_live_show_end(s);
    cli_live_show_free(s);
    return rc;
}
