/* cli_catalog.c - which options each command offers, and who takes each one.
 *
 * A command offers its own options (cli_options.c) and the library's declarations
 * (tg_option_declared) of opening, of its command group, of the filters (the filtering
 * commands) and of every style or converter it can run.  The parser (cli_args.c), --help,
 * `traceglot options`, the man pages and the shell completions (cli_docs.c) all walk the
 * options through cli_each_option, so what one shows, the others show: a new declaration
 * in the library appears everywhere without an edit here. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int is_filtering(const struct cli_command_info *cmd)
{
    return (cmd->id & CMD_FILTERING) != 0;
}

int cli_offers(const struct cli_command_info *cmd, tg_option_owner owner, const char *oname)
{
    switch (owner) {
    case TG_OWNER_OPEN:
    case TG_OWNER_FORMAT: return 1;
    case TG_OWNER_COMMAND:
        return strcmp(oname, cmd->name) == 0 || /* fleet runs sql's queries */
               (is_filtering(cmd) && strcmp(oname, "filter") == 0) ||
               (cmd->id == CMD_FLEET && strcmp(oname, "sql") == 0);
    default: return owner == cmd->sink;
    }
}

int cli_takes(const struct cli_command_info *cmd, const char *sink, const char *key)
{
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++) {
        if (strcmp(d->name, key) != 0 || !cli_offers(cmd, owner, oname))
            continue;
        if (owner != cmd->sink || owner == TG_OWNER_COMMAND || (sink && strcmp(oname, sink) == 0))
            return 1;
    }
    return 0;
}

int cli_single_dash(const struct cli_command_info *cmd, const char *sink)
{
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    if (!sink)
        return 0;
    /* a command that is its own sink (stack): its group's declarations */
    const char *who = cmd->sink == TG_OWNER_COMMAND ? cmd->name : sink;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++)
        if (owner == cmd->sink && strcmp(oname, who) == 0 && (d->flags & TG_OPT_SINGLE_DASH))
            return 1;
    return 0;
}

const char *cli_arg_name(const tg_option_decl *d)
{
    if (d->type == TG_OPT_FLAG)
        return NULL;
    if (d->arg)
        return d->arg;
    return d->type == TG_OPT_CHOICE && d->choices ? d->choices : "VALUE";
}

void cli_who_takes(const struct cli_command_info *cmd, const char *key, char *buf, size_t size)
{
    size_t n = 0, count = 0;
    buf[0] = 0;
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++)
        if (owner == cmd->sink && strcmp(d->name, key) == 0 && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", count++ ? ", " : "", oname);
}

const char *cli_sink_word(const struct cli_command_info *cmd)
{
    return cmd->sink == TG_OWNER_CONVERTER ? "converter" : "style";
}

void cli_option_label(const struct cli_command_info *cmd, const struct cli_opt *o, char *buf,
                      size_t size)
{
    char who[128];
    buf[0] = 0;
    if (o->own || !o->styled)
        return;
    cli_who_takes(cmd, o->name, who, sizeof who);
    snprintf(buf, size, "%s%s%s", who, cmd->sink == TG_OWNER_CONVERTER ? "" : " style",
             who[0] ? ": " : "");
}

void cli_values_join(const char *(*values)(size_t i), char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; values(i) && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", values(i));
}

const struct cli_command_info *cli_command_find(const char *name)
{
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

/* Options every command has: opening's and the filters. */
static int is_common(tg_option_owner owner, const char *oname)
{
    return owner == TG_OWNER_OPEN || owner == TG_OWNER_FORMAT ||
           (owner == TG_OWNER_COMMAND && strcmp(oname, "filter") == 0);
}

void cli_peer_spelling(const struct cli_command_info *cmd, const struct cli_opt *o, char *buf,
                       size_t size)
{
    buf[0] = 0;
    if (!o->decl)
        return;
    /* the declaration of that name with LLVM's spellings, if a style of cmd has one */
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++) {
        if (strcmp(d->name, o->name) != 0 || !(d->flags & TG_OPT_SINGLE_DASH) ||
            !cli_offers(cmd, owner, oname) || is_common(owner, oname) != o->common)
            continue;
        const char *arg = cli_arg_name(d);
        snprintf(buf, size, "-%s%s%s", d->spelling ? d->spelling : d->name, arg ? "=" : "",
                 arg ? arg : "");
        return;
    }
}

void cli_each_option(const struct cli_command_info *cmd, cli_option_fn fn, void *ctx)
{
    for (const struct cli_option *o = cli_options; o->name; o++) {
        if (!(o->commands & cmd->id))
            continue;
        char help[512], list[400];
        struct cli_opt v = {o->name, o->short_name, o->arg, o->help, NULL, 0, 0, o, NULL};
        if (o->values) {
            cli_values_join(o->values, list, sizeof list);
            snprintf(help, sizeof help, "%s: %s", o->help, list);
            v.help = help;
            v.def = cmd->sink_default;
        }
        fn(cmd, &v, ctx);
    }
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++) {
        if (!cli_offers(cmd, owner, oname))
            continue;
        /* once per name among the common options and once among the command's own (a style
         * may declare a key of opening again for its peer's spellings: instr-map) */
        const tg_option_decl *e;
        tg_option_owner eowner;
        const char *ename;
        int seen = 0, common = is_common(owner, oname);
        for (size_t k = 0; k < i && !seen && (e = tg_option_declared(k, &eowner, &ename)); k++)
            seen = strcmp(e->name, d->name) == 0 && cli_offers(cmd, eowner, ename) &&
                   is_common(eowner, ename) == common;
        if (seen)
            continue;
        struct cli_opt v = {d->name, d->short_name, cli_arg_name(d), d->help, d->def, 0, 0, NULL,
                            d};
        v.common = common;
        v.styled = owner == cmd->sink && owner != TG_OWNER_COMMAND;
        fn(cmd, &v, ctx);
    }
}
