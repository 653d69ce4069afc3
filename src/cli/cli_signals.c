/* cli_signals.c - what SIGINT, SIGTERM, SIGHUP and SIGPIPE do to a running command: remove
 * the outputs it is writing (tg_output_remove_now: system calls only), then end by the same
 * signal, so the shell sees what it expects (130 for Ctrl-C) and nothing half-written is
 * left.
 *
 * A signal handler is given no context, so what it cleans up is kept where it can find it:
 * the command's one piece of process-wide state, a few slots written only with these signals
 * held (a handler never sees a slot half set).  The library's worker threads hold these
 * signals, so the handler runs on the thread that writes the outputs. */
#include "cli.h"

#include <signal.h>
#include <stddef.h>

#define CLI_MAX_OUTPUTS 4

struct cli_signal_state {
    tg_output *volatile outputs[CLI_MAX_OUTPUTS];
    volatile sig_atomic_t *volatile soft; /* cli_signals_soft's flag, NULL: none */
};

static struct cli_signal_state *signal_state(void)
{
    static struct cli_signal_state state; /* the exception: see above */
    return &state;
}

static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

static void on_ending_signal(int sig)
{
    struct cli_signal_state *s = signal_state();
    if (s->soft) { /* a live reading ends; the handler is back to the default (RESETHAND) */
        *s->soft = 1;
        s->soft = NULL;
        return;
    }
    for (size_t i = 0; i < CLI_MAX_OUTPUTS; i++)
        if (s->outputs[i])
            tg_output_remove_now(s->outputs[i]);
    raise(sig); /* held until this returns, then the default action: SA_RESETHAND */
}

/* Holds (how = SIG_BLOCK) or releases (SIG_SETMASK with *old) the ending signals. */
static void hold(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof ending_signals / sizeof *ending_signals; i++)
        sigaddset(&set, ending_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

void cli_signals_install(void)
{
    signal_state()->soft = NULL;
    struct sigaction sa = {0};
    sa.sa_handler = on_ending_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof ending_signals / sizeof *ending_signals; i++) {
        struct sigaction before;
        /* a signal the caller ignores (nohup, a shell's background job) stays ignored */
        if (sigaction(ending_signals[i], NULL, &before) == 0 && before.sa_handler == SIG_IGN)
            continue;
        sigaction(ending_signals[i], &sa, NULL);
    }
}

int cli_signals_watch(tg_output *o)
{
    struct cli_signal_state *s = signal_state();
    sigset_t old;
    hold(&old);
    int slot = -1;
    for (int i = 0; i < CLI_MAX_OUTPUTS && slot < 0; i++)
        if (!s->outputs[i]) {
            s->outputs[i] = o;
            slot = i;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return slot < 0 ? -1 : 0;
}

void cli_signals_unwatch(tg_output *o)
{
    struct cli_signal_state *s = signal_state();
    sigset_t old;
    hold(&old);
    for (int i = 0; i < CLI_MAX_OUTPUTS; i++)
        if (s->outputs[i] == o)
            s->outputs[i] = NULL;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void cli_signals_soft(volatile sig_atomic_t *flag)
{
    sigset_t old;
    hold(&old);
    signal_state()->soft = flag;
    sigprocmask(SIG_SETMASK, &old, NULL);
}
