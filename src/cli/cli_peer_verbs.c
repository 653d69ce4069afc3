/* cli_peer_verbs.c - the peers' commands traceglot does not have, answered by name.
 *
 * A uftrace, trace-cmd, babeltrace2 or llvm-xray user types their tool's verb out of habit
 * (`traceglot split`).  Rather than "unknown command",
 * each is refused (exit 2) naming whose command it is and, where traceglot has one, the
 * command that does that work, so the refusal is never a guess. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct peer_verb {
    const char *verb, *peer, *instead; /* instead: NULL when traceglot has nothing like it */
};

static const struct peer_verb peer_verbs[] = {
    {"record", "uftrace", NULL},
    {"live", "uftrace", NULL},
    {"tui", "uftrace", NULL},
    {"recv", "uftrace", NULL},
    {"script", "uftrace", NULL},
    {"split", "trace-cmd", NULL},
    {"account", "llvm-xray", "traceglot report --style=xray"},
    {0},
};

int cli_refuse_peer_verb(const char *verb)
{
    for (const struct peer_verb *p = peer_verbs; p->verb; p++) {
        if (strcmp(p->verb, verb) != 0)
            continue;
        fprintf(stderr, "traceglot: '%s' is %s's command, which traceglot does not have%s%s%s\n",
                verb, p->peer, p->instead ? " (" : "", p->instead ? p->instead : "",
                p->instead ? ")" : "");
        return 2;
    }
    return 0;
}
