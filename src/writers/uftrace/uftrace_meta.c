/* uftrace_meta.c - the text files of a uftrace data directory the writer produces.
 *
 *   info          40-byte header (magic "Ftrace!", version 4, little-endian, 64-bit, feature
 *                 and info masks) + the "key:value" lines uftrace's info reader expects, in
 *                 the order of its info bits
 *   task.txt      one session (SESS) and one TASK line per thread
 *   sid-*.map     the session's one module, mapped at UW_BASE
 *   NAME.sym      the module's functions, nm-style, relative to the module base
 *
 * Only what the event model knows is written (the program's path and command line, the
 * host's name and kernel, from the first input trace's attributes); the rest gets neutral
 * values, so uftrace info shows "unknown" rather than made-up system facts.  The functions
 * live in one module of the writer's own (UW_EXE), whatever program the input ran. */
#include "writers/uftrace/uftrace_writer.h"
#include "writers/dir_output.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UW_SID "7472616365676c74" /* "traceglt" */
#define UW_EXE "/traceglot/converted"

enum {
    FEAT_TASK_SESSION = 1 << 1,
    FEAT_ARGUMENT = 1 << 3,
    FEAT_RETVAL = 1 << 4,
    FEAT_SYM_REL_ADDR = 1 << 5,
    FEAT_MAX_STACK = 1 << 6,
    FEAT_PERF_EVENT = 1 << 8,
};

static const char *exe_name(void) { return UW_EXE; }

static void put_le(tg_buf *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        tg_buf_putc(b, (char)(uint8_t)(v >> (8 * i)));
}

/* s up to its first newline, then a newline (info is one key:value per line) */
static void put_line(tg_buf *b, const char *s)
{
    tg_buf_put(b, s, strcspn(s, "\n"));
    tg_buf_putc(b, '\n');
}

static void put_time(tg_buf *b, int64_t ns)
{
    tg_buf_printf(b, "%lld.%09lld", (long long)(ns / 1000000000), (long long)(ns % 1000000000));
}

static int write_info(const uw_writer *w, tg_buf *b, tg_error **err)
{
    tg_buf_put(b, "Ftrace!\0", 8);
    put_le(b, 4, 4);  /* file version */
    put_le(b, 40, 2); /* header size */
    put_le(b, 1, 1);  /* ELFDATA2LSB */
    put_le(b, 2, 1);  /* ELFCLASS64 */
    int args = uw_args_any(w, 0), rets = uw_args_any(w, 1);
    put_le(b,
           FEAT_TASK_SESSION | FEAT_SYM_REL_ADDR | FEAT_MAX_STACK |
               (w->n_perf ? FEAT_PERF_EVENT : 0) | (args ? FEAT_ARGUMENT : 0) |
               (rets ? FEAT_RETVAL : 0),
           8);
    /* exe, build id, exit, cmdline, cpu, mem, os, task, usage, load, (argument specs,)
     * record date, pattern type, version */
    put_le(b, 0x3bff | (args || rets ? 1 << 10 : 0), 8);
    put_le(b, 1024, 2); /* max stack */
    put_le(b, 0, 6);
    /* what the first input trace says about the program and its host */
    const tg_trace *in = tg_set_trace_count(w->set) ? tg_set_trace(w->set, 0) : NULL;
    const tg_host_info *host = in ? tg_trace_host(in) : NULL;
    const tg_process_info *proc = in ? tg_trace_process(in) : NULL;
    tg_buf_puts(b, "exename:");
    put_line(b, proc && proc->executable ? proc->executable : exe_name());
    tg_buf_puts(b, "build_id:0000000000000000000000000000000000000000\n"
                   "exit_status:0\n"
                   "cmdline:");
    put_line(b, proc && proc->cmdline ? proc->cmdline : "traceglot convert --to uftrace");
    tg_buf_puts(b, "cpuinfo:lines=2\n"
                   "cpuinfo:nr_cpus=1 / 1 (online/possible)\n"
                   "cpuinfo:desc=unknown\n"
                   "meminfo:0.0 / 0.0 GB (free / total)\n"
                   "osinfo:lines=3\n"
                   "osinfo:kernel=");
    put_line(b, host && host->kernel ? host->kernel : "unknown");
    tg_buf_puts(b, "osinfo:hostname=");
    put_line(b, host && host->hostname ? host->hostname : "unknown");
    tg_buf_puts(b, "osinfo:distro=\"unknown\"\n"
                   "taskinfo:lines=2\n");
    tg_buf_printf(b, "taskinfo:nr_tid=%zu\ntaskinfo:tids=", w->n_threads);
    size_t *order = uw_thread_order(w);
    if (!order)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < w->n_threads; i++)
        tg_buf_printf(b, "%s%d", i ? "," : "", w->threads[order[i]].tid);
    free(order);
    tg_buf_puts(b, "\nusageinfo:lines=6\n"
                   "usageinfo:systime=0.000000\n"
                   "usageinfo:usrtime=0.000000\n"
                   "usageinfo:ctxsw=0 / 0 (voluntary / involuntary)\n"
                   "usageinfo:maxrss=0\n"
                   "usageinfo:pagefault=0 / 0 (major / minor)\n"
                   "usageinfo:iops=0 / 0 (read / write)\n"
                   "loadinfo:0.00 / 0.00 / 0.00\n");
    if (args || rets)
        uw_args_info(w, b);
    tg_buf_puts(b, "record_date:Thu Jan  1 00:00:00 1970\n"
                   "elapsed_time:");
    put_time(b, w->last_ns - w->first_ns);
    tg_buf_puts(b, " sec\npattern_type:regex\n"
                   "uftrace_version:v0.13 ( written by traceglot " TG_VERSION_STRING " )\n");
    return tg_dir_file_put(w->dir, "info", tg_buf_data(b), tg_buf_len(b), err);
}

static int write_tasks(const uw_writer *w, tg_buf *b, tg_error **err)
{
    int pid = w->n_threads ? w->threads[0].pid : 0;
    if (pid < 0)
        pid = w->threads[0].tid;
    tg_buf_puts(b, "SESS timestamp=");
    put_time(b, w->first_ns);
    tg_buf_printf(b, " pid=%d sid=" UW_SID " exename=\"%s\"\n", pid, exe_name());
    for (size_t i = 0; i < w->n_threads; i++) {
        const uw_thread *t = &w->threads[i];
        tg_buf_puts(b, "TASK timestamp=");
        put_time(b, t->first_ns > w->first_ns ? t->first_ns : w->first_ns);
        tg_buf_printf(b, " tid=%d pid=%d\n", t->tid, t->pid >= 0 ? t->pid : pid);
    }
    return tg_dir_file_put(w->dir, "task.txt", tg_buf_data(b), tg_buf_len(b), err);
}

static int write_map(const uw_writer *w, tg_buf *b, tg_error **err)
{
    uint64_t end = UW_BASE + UW_FIRST + UW_STEP * (w->n_funcs + 1);
    end = (end + 0xfff) & ~0xfffull;
    tg_buf_printf(b, "%012llx-%012llx r-xp 00000000 00:00 0                          %s\n",
                  (unsigned long long)UW_BASE, (unsigned long long)end, exe_name());
    tg_buf_puts(
        b, "7ffff0000000-7ffff0021000 rw-p 00000000 00:00 0                          [stack]\n");
    return tg_dir_file_put(w->dir, "sid-" UW_SID ".map", tg_buf_data(b), tg_buf_len(b), err);
}

static int write_syms(const uw_writer *w, tg_buf *b, tg_error **err)
{
    tg_buf_printf(b, "# symbols: %zu\n# path name: %s\n", w->n_funcs + 1, exe_name());
    for (size_t i = 0; i < w->n_funcs; i++)
        tg_buf_printf(b, "%016llx T %s\n", (unsigned long long)(UW_FIRST + UW_STEP * i),
                      w->funcs[i].name);
    tg_buf_printf(b, "%016llx ? __sym_end\n",
                  (unsigned long long)(UW_FIRST + UW_STEP * w->n_funcs));
    const char *base = strrchr(exe_name(), '/');
    char name[256];
    snprintf(name, sizeof name, "%s.sym", base ? base + 1 : exe_name());
    return tg_dir_file_put(w->dir, name, tg_buf_data(b), tg_buf_len(b), err);
}

int uw_write_meta(const uw_writer *w, tg_error **err)
{
    tg_buf *b = tg_buf_new();
    if (!b)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    int rc = write_info(w, b, err);
    tg_buf_reset(b);
    if (rc >= 0)
        rc = write_tasks(w, b, err);
    tg_buf_reset(b);
    if (rc >= 0)
        rc = write_map(w, b, err);
    tg_buf_reset(b);
    if (rc >= 0)
        rc = write_syms(w, b, err);
    tg_buf_free(b);
    return rc;
}
