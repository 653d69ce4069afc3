/* uftrace_meta.c - the text files of a uftrace data directory the writer produces.
 *
 *   info          40-byte header (magic "Ftrace!", version 4, little-endian, 64-bit, feature
 *                 and info masks) + the "key:value" lines uftrace's info reader expects, in
 *                 the order of its info bits
 *   task.txt      one session (SESS) and one TASK (or FORK) line per thread; from an
 *                 input of another format, a session per process it traced
 *   sid-*.map     the session's one module, mapped at UW_BASE (each session's map)
 *   NAME.sym      the module's functions, nm-style, relative to the module base
 *
 * A conversion keeps the session the input recorded.  From a uftrace recording (the first
 * input trace): its info lines as they were (the program, its command line, the machine,
 * the usage figures, the date), its session id, its SESS and TASK/FORK lines with their
 * times, in their order, and its task list's order.  From other formats: the program the
 * trace names (CTF's procname, XRay's binary, a trace.dat task's comm), the host the trace
 * names, and the date the trace was taken (its wall clock, else its file's time); the rest
 * gets neutral values, so uftrace info shows "unknown" rather than made-up system facts.
 * The functions live in one module named after the program, whatever the input ran. */
#include "writers/uftrace/uftrace_writer.h"
#include "writers/dir_output.h"
#include "core/error_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

/* What the written session says, found once from the input. */
struct session {
    const tg_trace *in; /* the first input trace */
    bool from_uftrace;  /* ... recorded by uftrace: its info lines are kept */
    char exe[1024];     /* the program: info's exename, the map's module */
    char sid[17];       /* the session id (16 hex digits) */
};

/* The value of info key `key` of a uftrace input (env entries are its info lines), else
 * NULL. */
static const char *kept(const struct session *s, const char *key)
{
    if (!s->from_uftrace)
        return NULL;
    const tg_env_entry *e = tg_trace_env_find(s->in, key);
    return e && e->value ? e->value : NULL;
}

static const char *kept_or(const struct session *s, const char *key, const char *dflt)
{
    const char *v = kept(s, key);
    return v ? v : dflt;
}

static void session_find(struct session *s, const uw_writer *w)
{
    memset(s, 0, sizeof *s);
    s->in = tg_set_trace_count(w->set) ? tg_set_trace(w->set, 0) : NULL;
    const tg_tracer_info *ti = s->in ? tg_trace_tracer(s->in) : NULL;
    s->from_uftrace = ti && ti->name && strcmp(ti->name, "uftrace") == 0;
    const tg_process_info *proc = s->in ? tg_trace_process(s->in) : NULL;
    const char *exe = kept(s, "exename");
    if (!exe && proc)
        exe = proc->executable ? proc->executable : proc->name;
    if (!exe && w->program[0] && w->program[0] != '\x01')
        exe = w->program; /* LTTng-UST's procname context */
    for (size_t i = 0; !exe && s->in && i < tg_trace_task_count(s->in); i++) {
        const tg_task_info *task = tg_trace_task(s->in, i);
        if (task && task->name && task->name[0])
            exe = task->name; /* the first task the trace names (trace.dat's saved comm) */
    }
    if (!exe || !exe[0] || strchr(exe, '\n') || strchr(exe, '"'))
        exe = UW_EXE;
    snprintf(s->exe, sizeof s->exe, "%s", exe);
    const char *sid = s->from_uftrace ? kept(s, "session") : NULL;
    if (!sid || strlen(sid) != 16 || strspn(sid, "0123456789abcdef") != 16)
        sid = UW_SID;
    memcpy(s->sid, sid, 17);
}

/* The program's file name: NAME.sym */
static const char *exe_base(const struct session *s)
{
    const char *base = strrchr(s->exe, '/');
    return base && base[1] ? base + 1 : s->exe;
}

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

static const uw_thread *thread_of(const uw_writer *w, int64_t tid)
{
    for (size_t i = 0; i < w->n_threads; i++) /* once per task line */
        if (w->threads[i].tid == tid)
            return &w->threads[i];
    return NULL;
}

/* A task the uftrace input lists without any data of it (a thread asleep at the program's
 * exit leaves no TID.dat): kept in the task list as uftrace lists it. */
static bool listed_without_data(const uw_writer *w, const struct session *s, int64_t tid)
{
    if (!s->from_uftrace || thread_of(w, tid))
        return false;
    for (size_t i = 0; i < tg_trace_stream_count(s->in); i++)
        if (tg_stream_tid(tg_trace_stream(s->in, i)) == tid)
            return false;
    return true;
}

/* info's record_date for an input of another format: the wall-clock time of its first
 * event where its clock says it (a realtime clock, or a realtime reading taken with it), else
 * the time its file was last written; as uftrace writes it (ctime, local time). */
static void put_date(tg_buf *b, const uw_writer *w, const struct session *s)
{
    int64_t wall = 0;
    const tg_clock_info *ck = s->in ? tg_trace_clock(s->in) : NULL;
    if (ck && ck->origin == TG_CLOCK_REALTIME)
        wall = w->first_ns - ck->offset_ns;
    else if (ck && ck->sync_origin == TG_CLOCK_REALTIME)
        wall = w->first_ns - ck->offset_ns + ck->sync_offset_ns;
    time_t when = (time_t)(wall / 1000000000);
    struct stat st;
    if (when < 946684800 && s->in && stat(tg_trace_path(s->in), &st) == 0) /* before 2000 */
        when = st.st_mtime;
    struct tm tm;
    char text[64];
    if (when >= 946684800 && localtime_r(&when, &tm) &&
        strftime(text, sizeof text, "%a %b %e %H:%M:%S %Y", &tm))
        put_line(b, text);
    else
        put_line(b, "Thu Jan  1 00:00:00 1970");
}

/* "key:" and the input's value, else dflt */
static void put_kv(tg_buf *b, const struct session *s, const char *key, const char *dflt)
{
    tg_buf_printf(b, "%s:", key);
    put_line(b, kept_or(s, key, dflt));
}

/* "group:sub=" and the input's value (its env key "group:sub"), else dflt */
static void put_sub(tg_buf *b, const struct session *s, const char *key, const char *dflt)
{
    const char *colon = strchr(key, ':');
    tg_buf_put(b, key, (size_t)(colon - key) + 1);
    tg_buf_printf(b, "%s=", colon + 1);
    put_line(b, kept_or(s, key, dflt));
}

static int write_info(const uw_writer *w, const struct session *s, tg_buf *b, tg_error **err)
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
    /* what the input says about the program and its host */
    const tg_host_info *host = s->in ? tg_trace_host(s->in) : NULL;
    const tg_process_info *proc = s->in ? tg_trace_process(s->in) : NULL;
    tg_buf_puts(b, "exename:");
    put_line(b, s->exe);
    put_kv(b, s, "build_id", "0000000000000000000000000000000000000000");
    put_kv(b, s, "exit_status", "0");
    put_kv(b, s, "cmdline",
           proc && proc->cmdline ? proc->cmdline : "traceglot convert --to uftrace");
    tg_buf_puts(b, "cpuinfo:lines=2\n");
    put_sub(b, s, "cpuinfo:nr_cpus", "1 / 1 (online/possible)");
    put_sub(b, s, "cpuinfo:desc", "unknown");
    put_kv(b, s, "meminfo", "0.0 / 0.0 GB (free / total)");
    tg_buf_puts(b, "osinfo:lines=3\n");
    put_sub(b, s, "osinfo:kernel", host && host->kernel ? host->kernel : "unknown");
    put_sub(b, s, "osinfo:hostname", host && host->hostname ? host->hostname : "unknown");
    put_sub(b, s, "osinfo:distro", "\"unknown\"");
    tg_buf_puts(b, "taskinfo:lines=2\n");
    const char *tids = kept(s, "taskinfo:tids");
    size_t *order = uw_thread_order(w, tids);
    if (!order)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    /* the written threads in order, the input's tasks without data where it lists them */
    tg_buf *list = tg_buf_new();
    size_t n = 0, k = 0;
    for (const char *p = tids; list && p && *p;) {
        int tid = atoi(p);
        if (listed_without_data(w, s, tid)) {
            tg_buf_printf(list, "%s%d", n++ ? "," : "", tid);
        } else if (k < w->n_threads && w->threads[order[k]].tid == tid) {
            tg_buf_printf(list, "%s%d", n++ ? "," : "", tid);
            k++;
        }
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    for (; list && k < w->n_threads; k++)
        tg_buf_printf(list, "%s%d", n++ ? "," : "", w->threads[order[k]].tid);
    free(order);
    if (!list)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_buf_printf(b, "taskinfo:nr_tid=%zu\ntaskinfo:tids=", n);
    tg_buf_put(b, tg_buf_data(list), tg_buf_len(list));
    tg_buf_free(list);
    tg_buf_puts(b, "\nusageinfo:lines=6\n");
    put_sub(b, s, "usageinfo:systime", "0.000000");
    put_sub(b, s, "usageinfo:usrtime", "0.000000");
    put_sub(b, s, "usageinfo:ctxsw", "0 / 0 (voluntary / involuntary)");
    put_sub(b, s, "usageinfo:maxrss", "0");
    put_sub(b, s, "usageinfo:pagefault", "0 / 0 (major / minor)");
    put_sub(b, s, "usageinfo:iops", "0 / 0 (read / write)");
    put_kv(b, s, "loadinfo", "0.00 / 0.00 / 0.00");
    if (args || rets)
        uw_args_info(w, b);
    tg_buf_puts(b, "record_date:");
    if (kept(s, "record_date"))
        put_line(b, kept(s, "record_date"));
    else
        put_date(b, w, s);
    tg_buf_puts(b, "elapsed_time:");
    if (kept(s, "elapsed_time")) {
        put_line(b, kept(s, "elapsed_time"));
    } else {
        put_time(b, w->last_ns - w->first_ns);
        tg_buf_puts(b, " sec\n");
    }
    put_kv(b, s, "pattern_type", "regex");
    put_kv(b, s, "uftrace_version", "v0.13 ( written by traceglot " TG_VERSION_STRING " )");
    return tg_dir_file_put(w->dir, "info", tg_buf_data(b), tg_buf_len(b), err);
}

/* The session's process: the uftrace input's, else the first thread's. */
static int session_pid(const uw_writer *w, const struct session *s)
{
    const tg_env_entry *spid = s->from_uftrace ? tg_trace_env_find(s->in, "session:pid") : NULL;
    if (spid && spid->is_integer)
        return (int)spid->integer;
    int pid = w->n_threads ? w->threads[0].pid : 0;
    return pid < 0 ? w->threads[0].tid : pid;
}

/* Whether thread i is the first of a process other than the session's, in an input of
 * another format tracing several (a trace.dat's tasks): that process gets a session of its
 * own (its SESS line and map), through which uftrace finds its tasks' symbols and names. */
static bool first_of_other_process(const uw_writer *w, const struct session *s, size_t i,
                                   int main_pid)
{
    int pid = w->threads[i].pid;
    if (s->from_uftrace || pid < 0 || pid == main_pid)
        return false;
    for (size_t k = 0; k < i; k++) /* once per process: few of them */
        if (w->threads[k].pid == pid)
            return false;
    return true;
}

/* The session id of the process whose first thread is i: the session's, plus i + 1. */
static void process_sid(const struct session *s, size_t i, char out[17])
{
    snprintf(out, 17, "%016llx", strtoull(s->sid, NULL, 16) + i + 1);
}

/* The name the trace gives process pid (its main thread's, else one of its threads'), else
 * the program's. */
static const char *process_name(const struct session *s, int pid)
{
    const char *any = NULL;
    for (size_t i = 0; s->in && i < tg_trace_task_count(s->in); i++) {
        const tg_task_info *task = tg_trace_task(s->in, i);
        if (!task || !task->name || !task->name[0] || strpbrk(task->name, "\"\n"))
            continue;
        if (task->tid == pid)
            return task->name;
        if (task->pid == pid && !any)
            any = task->name;
    }
    return any ? any : s->exe;
}

/* SESS, then a line per task: the input's own lines (a uftrace recording's task.txt: TASK
 * and FORK with their times, in its order) for the threads written, then a TASK line at its
 * first record for each thread it does not list. */
static int write_tasks(const uw_writer *w, const struct session *s, tg_buf *b, tg_error **err)
{
    int pid = session_pid(w, s);
    const tg_env_entry *sts =
        s->from_uftrace ? tg_trace_env_find(s->in, "session:timestamp") : NULL;
    tg_buf_puts(b, "SESS timestamp=");
    put_time(b, sts && sts->is_integer ? sts->integer : w->first_ns);
    tg_buf_printf(b, " pid=%d sid=%s exename=\"%s\"\n", pid, s->sid, s->exe);
    for (size_t i = 0; i < w->n_threads; i++) {
        if (!first_of_other_process(w, s, i, pid))
            continue;
        char sid[17];
        process_sid(s, i, sid);
        tg_buf_puts(b, "SESS timestamp=");
        put_time(b, w->threads[i].first_ns > w->first_ns ? w->threads[i].first_ns : w->first_ns);
        tg_buf_printf(b, " pid=%d sid=%s exename=\"%s\"\n", w->threads[i].pid, sid,
                      process_name(s, w->threads[i].pid));
    }
    size_t listed = 0, n_tasks = s->from_uftrace ? tg_trace_task_count(s->in) : 0;
    char *done = calloc(w->n_threads ? w->n_threads : 1, 1);
    if (!done)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n_tasks; i++) {
        const tg_task_info *task = tg_trace_task(s->in, i);
        const uw_thread *t = task ? thread_of(w, task->tid) : NULL;
        if (!task || task->start_ns <= 0 || (t && done[t - w->threads]) ||
            (!t && !listed_without_data(w, s, task->tid)))
            continue;
        if (t) {
            done[t - w->threads] = 1;
            listed++;
        }
        tg_buf_puts(b, task->forked ? "FORK timestamp=" : "TASK timestamp=");
        put_time(b, task->start_ns);
        if (task->forked)
            tg_buf_printf(b, " pid=%lld ppid=%lld\n", (long long)task->tid, (long long)task->ppid);
        else
            tg_buf_printf(b, " tid=%lld pid=%lld\n", (long long)task->tid, (long long)task->pid);
    }
    for (size_t i = 0; i < w->n_threads && listed < w->n_threads; i++) {
        const uw_thread *t = &w->threads[i];
        if (done[i])
            continue;
        tg_buf_puts(b, "TASK timestamp=");
        put_time(b, t->first_ns > w->first_ns ? t->first_ns : w->first_ns);
        tg_buf_printf(b, " tid=%d pid=%d\n", t->tid, t->pid >= 0 ? t->pid : pid);
    }
    free(done);
    return tg_dir_file_put(w->dir, "task.txt", tg_buf_data(b), tg_buf_len(b), err);
}

static int write_map(const uw_writer *w, const struct session *s, tg_buf *b, tg_error **err)
{
    uint64_t end = UW_BASE + UW_FIRST + UW_STEP * (w->n_funcs + 1);
    end = (end + 0xfff) & ~0xfffull;
    tg_buf_printf(b, "%012llx-%012llx r-xp 00000000 00:00 0                          %s\n",
                  (unsigned long long)UW_BASE, (unsigned long long)end, s->exe);
    tg_buf_puts(
        b, "7ffff0000000-7ffff0021000 rw-p 00000000 00:00 0                          [stack]\n");
    char name[64];
    snprintf(name, sizeof name, "sid-%s.map", s->sid);
    int rc = tg_dir_file_put(w->dir, name, tg_buf_data(b), tg_buf_len(b), err);
    /* the other processes' sessions map the same module */
    int pid = session_pid(w, s);
    for (size_t i = 0; rc >= 0 && i < w->n_threads; i++) {
        if (!first_of_other_process(w, s, i, pid))
            continue;
        char sid[17];
        process_sid(s, i, sid);
        snprintf(name, sizeof name, "sid-%s.map", sid);
        rc = tg_dir_file_put(w->dir, name, tg_buf_data(b), tg_buf_len(b), err);
    }
    return rc;
}

static int write_syms(const uw_writer *w, const struct session *s, tg_buf *b, tg_error **err)
{
    tg_buf_printf(b, "# symbols: %zu\n# path name: %s\n", w->n_funcs + 1, s->exe);
    for (size_t i = 0; i < w->n_funcs; i++)
        tg_buf_printf(b, "%016llx T %s\n", (unsigned long long)(UW_FIRST + UW_STEP * i),
                      w->funcs[i].name);
    tg_buf_printf(b, "%016llx ? __sym_end\n",
                  (unsigned long long)(UW_FIRST + UW_STEP * w->n_funcs));
    char name[1100];
    snprintf(name, sizeof name, "%s.sym", exe_base(s));
    return tg_dir_file_put(w->dir, name, tg_buf_data(b), tg_buf_len(b), err);
}

int uw_write_meta(const uw_writer *w, tg_error **err)
{
    struct session s;
    session_find(&s, w);
    tg_buf *b = tg_buf_new();
    if (!b)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    int rc = write_info(w, &s, b, err);
    tg_buf_reset(b);
    if (rc >= 0)
        rc = write_tasks(w, &s, b, err);
    tg_buf_reset(b);
    if (rc >= 0)
        rc = write_map(w, &s, b, err);
    tg_buf_reset(b);
    if (rc >= 0)
        rc = write_syms(w, &s, b, err);
    tg_buf_free(b);
    return rc;
}
