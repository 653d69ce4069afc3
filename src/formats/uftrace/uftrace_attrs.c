/* uftrace_attrs.c - a uftrace data directory's typed trace attributes.
 *
 * uftrace writes what it knows about the recording into the info file: the header's byte
 * order and address size, then "key:value" lines (hostname, kernel, exename, the uftrace
 * version with the architecture it was built for, the record command line).  Its clock is
 * not written anywhere but in that command line (`--clock=mono|mono_raw|boot`, mono by
 * default), so it is read from there.  Every info line also becomes an environment key. */
#include "formats/uftrace/uftrace_internal.h"

#include <stdlib.h>
#include <string.h>

/* Copies info value key into buf (truncated, NUL-terminated); NULL when absent. */
static const char *info_str(const struct uft_data *d, const char *key, char *buf, size_t cap)
{
    size_t n = 0;
    const char *v = uft_info_get(d, key, &n);
    if (!v)
        return NULL;
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, v, n);
    buf[n] = 0;
    return buf;
}

/* The clock `uftrace record --clock=NAME` / `--clock NAME` chose; "mono" by default. */
static void clock_of_cmdline(const char *cmdline, char *out, size_t cap)
{
    strcpy(out, "mono");
    const char *p = cmdline ? strstr(cmdline, "--clock") : NULL;
    if (!p || (p[7] != '=' && p[7] != ' '))
        return;
    p += 8;
    size_t n = strcspn(p, " ");
    if (n && n < cap) {
        memcpy(out, p, n);
        out[n] = 0;
    }
}

/* Each "key:value" line (and "group:sub=value") after the binary header as an env entry;
 * "group:lines=N" counters are the file's own bookkeeping and are left out. */
static int add_env(tg_trace *t, const struct uft_data *d)
{
    const char *p = d->info_text + d->header_size, *end = d->info_text + d->info_len;
    char key[64], val[512];
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *colon = memchr(p, ':', (size_t)(le - p));
        if (colon && colon > p && (size_t)(colon - p) < sizeof key) {
            const char *v = colon + 1;
            const char *eq = memchr(v, '=', (size_t)(le - v));
            size_t klen = (size_t)(colon - p);
            if (eq && strspn(v, "abcdefghijklmnopqrstuvwxyz_") == (size_t)(eq - v) &&
                (size_t)(eq - p) < sizeof key) {
                klen = (size_t)(eq - p);
                v = eq + 1;
            }
            memcpy(key, p, klen);
            key[klen] = 0;
            size_t vlen = (size_t)(le - v) < sizeof val ? (size_t)(le - v) : sizeof val - 1;
            memcpy(val, v, vlen);
            val[vlen] = 0;
            const char *sub = strchr(key, ':');
            if (!(sub && strcmp(sub + 1, "lines") == 0))
                TG_TRY(tg_trace_add_env(t, key, val, false, 0));
        }
        p = le + 1;
    }
    return 0;
}

int uft_attrs_fill(tg_trace *t, const struct uft_data *d)
{
    char host[256], kernel[256], exe[1024], cmd[1024], ver[256], clock[32];
    const char *cmdline = info_str(d, "cmdline", cmd, sizeof cmd);
    clock_of_cmdline(cmdline, clock, sizeof clock);
    tg_clock_info ck = {
        .name = clock, .origin = tg_clock_origin_of_name(clock), .frequency_hz = 1000000000u};
    TG_TRY(tg_trace_set_clock_info(t, &ck));

    /* "v0.13 ( x86_64 dwarf python3 ... )": the version, then the build's architecture */
    const char *version = info_str(d, "uftrace_version", ver, sizeof ver);
    char arch[32] = "";
    if (version) {
        const char *paren = strstr(version, "( ");
        if (paren) {
            size_t n = strcspn(paren + 2, " )");
            if (n && n < sizeof arch) {
                memcpy(arch, paren + 2, n);
                arch[n] = 0;
            }
        }
        ver[strcspn(ver, " ")] = 0;
        if (ver[0] == 'v')
            version = ver + 1;
    }
    TG_TRY(tg_trace_set_tracer(t, "uftrace", version));

    tg_host_info h = {
        .hostname = info_str(d, "osinfo:hostname", host, sizeof host),
        .kernel = info_str(d, "osinfo:kernel", kernel, sizeof kernel),
        .arch = arch[0] ? arch : NULL,
        .word_bits = d->elf_class == 2 ? 64 : 32,
        .byte_order = d->big_endian ? 2 : 1,
    };
    TG_TRY(tg_trace_set_host(t, &h));

    /* one process when every task has the same pid (forks make several) */
    tg_process_info pr = {.pid = -1, .executable = info_str(d, "exename", exe, sizeof exe)};
    for (size_t i = 0; i < d->n_tasks; i++) {
        if (i == 0 || d->tasks[i].pid == pr.pid) {
            pr.pid = d->tasks[i].pid;
        } else {
            pr.pid = -1;
            break;
        }
    }
    for (size_t i = 0; pr.pid >= 0 && i < d->n_tasks; i++)
        if (d->tasks[i].tid == pr.pid && d->tasks[i].comm[0])
            pr.name = d->tasks[i].comm;
    TG_TRY(tg_trace_set_process(t, &pr));
    for (size_t i = 0; i < d->n_tasks; i++) {
        const struct uft_task *tk = &d->tasks[i];
        tg_task_info task = {tk->tid, tk->pid,   tk->ppid, tk->comm[0] ? tk->comm : NULL,
                             tk->ts,  tk->forked};
        TG_TRY(tg_trace_add_task(t, &task));
    }
    /* the session uftrace graph names its graph by, and its task.txt line (SESS): when it
     * began and the program it ran, which a conversion to uftrace keeps */
    if (d->n_sessions && d->sessions[0].sid) {
        TG_TRY(tg_trace_add_env(t, "session", d->sessions[0].sid, false, 0));
        TG_TRY(tg_trace_add_env_int(t, "session:timestamp", d->sessions[0].ts));
        TG_TRY(tg_trace_add_env_int(t, "session:pid", d->sessions[0].pid));
        if (d->sessions[0].exename)
            TG_TRY(tg_trace_add_env(t, "session:exename", d->sessions[0].exename, false, 0));
    }
    return add_env(t, d);
}
