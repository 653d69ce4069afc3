/* option_registry.c - every option's declaration, found through the registries of formats,
 * styles, converters, report styles, graph styles and option groups (see option_registry.h).
 *
 * The declarations are walked, never copied: a few dozen entries, read when an option is
 * set or a command starts, so a linear walk is the simplest right structure. */
#include "core/option_registry.h"
#include "core/consumer.h"
#include "core/error_internal.h"
#include "core/format_api.h"

#include <string.h>

/* The owners in a fixed order: opening and the formats first, then commands, then styles
 * and converters (so a key's first declaration is the one opening reads). */
typedef struct owner_ref {
    tg_option_owner owner;
    const char *name;
    const tg_option_decl *options;
} owner_ref;

/* The k-th owner with declarations (0..), 0 past the last. */
static int owner_at(size_t k, owner_ref *r)
{
    for (size_t i = 0; tg_option_group_list[i]; i++)
        if (tg_option_group_list[i]->owner == TG_OWNER_OPEN && k-- == 0) {
            *r = (owner_ref){TG_OWNER_OPEN, tg_option_group_list[i]->name,
                             tg_option_group_list[i]->options};
            return 1;
        }
    for (size_t i = 0; i < tg_n_formats; i++)
        if (k-- == 0) {
            *r = (owner_ref){TG_OWNER_FORMAT, tg_formats[i]->name, tg_formats[i]->options};
            return 1;
        }
    for (size_t i = 0; tg_option_group_list[i]; i++)
        if (tg_option_group_list[i]->owner == TG_OWNER_COMMAND && k-- == 0) {
            *r = (owner_ref){TG_OWNER_COMMAND, tg_option_group_list[i]->name,
                             tg_option_group_list[i]->options};
            return 1;
        }
    for (size_t i = 0; tg_print_style_list[i]; i++)
        if (k-- == 0) {
            *r = (owner_ref){TG_OWNER_PRINT_STYLE, tg_print_style_list[i]->name,
                             tg_print_style_list[i]->options};
            return 1;
        }
    for (size_t i = 0; tg_converter_list[i]; i++)
        if (k-- == 0) {
            *r = (owner_ref){TG_OWNER_CONVERTER, tg_converter_list[i]->name,
                             tg_converter_list[i]->options};
            return 1;
        }
    for (size_t i = 0; tg_report_style_list[i]; i++)
        if (k-- == 0) {
            *r = (owner_ref){TG_OWNER_REPORT_STYLE, tg_report_style_list[i]->name,
                             tg_report_style_list[i]->options};
            return 1;
        }
    for (size_t i = 0; tg_graph_style_list[i]; i++)
        if (k-- == 0) {
            *r = (owner_ref){TG_OWNER_GRAPH_STYLE, tg_graph_style_list[i]->name,
                             tg_graph_style_list[i]->options};
            return 1;
        }
    return 0;
}

const tg_option_decl *tg_option_declared(size_t i, tg_option_owner *owner, const char **owner_name)
{
    owner_ref r;
    for (size_t k = 0; owner_at(k, &r); k++) {
        for (const tg_option_decl *d = r.options; d && d->name; d++) {
            if (i-- == 0) {
                if (owner)
                    *owner = r.owner;
                if (owner_name)
                    *owner_name = r.name;
                return d;
            }
        }
    }
    return NULL;
}

const tg_option_decl *tg_option_find(const char *key)
{
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, NULL, NULL)) != NULL; i++)
        if (strcmp(d->name, key) == 0)
            return d;
    return NULL;
}

static int declares(const owner_ref *r, const char *key)
{
    for (const tg_option_decl *d = r->options; d && d->name; d++)
        if (strcmp(d->name, key) == 0)
            return 1;
    return 0;
}

/* Does (owner, name) or a group named cmd1/cmd2, or opening, take key? */
static int takes(const char *key, tg_option_owner owner, const char *name, const char *cmd1,
                 const char *cmd2)
{
    owner_ref r;
    for (size_t k = 0; owner_at(k, &r); k++) {
        if (!declares(&r, key))
            continue;
        if (r.owner == TG_OWNER_OPEN || r.owner == TG_OWNER_FORMAT)
            return 1;
        if (r.owner == TG_OWNER_COMMAND &&
            ((cmd1 && strcmp(r.name, cmd1) == 0) || (cmd2 && strcmp(r.name, cmd2) == 0)))
            return 1;
        if (r.owner == owner && name && strcmp(r.name, name) == 0)
            return 1;
    }
    return 0;
}

int tg_option_taken(const char *key, tg_option_owner owner, const char *name)
{
    return takes(key, owner, name, owner == TG_OWNER_COMMAND ? name : NULL, NULL);
}

static const char *owner_word(tg_option_owner owner)
{
    switch (owner) {
    case TG_OWNER_PRINT_STYLE: return "style";
    case TG_OWNER_CONVERTER: return "converter";
    case TG_OWNER_REPORT_STYLE: return "report style";
    case TG_OWNER_GRAPH_STYLE: return "graph style";
    case TG_OWNER_COMMAND: return "command";
    default: return "reader";
    }
}

int tg_options_check(const tg_options *opts, tg_option_owner owner, const char *name,
                     const char *cmd1, const char *cmd2, tg_error **err)
{
    const char *key;
    for (size_t i = 0; (key = tg_options_key(opts, i, NULL)) != NULL; i++) {
        if (takes(key, owner, name, cmd1, cmd2))
            continue;
        /* who does take it, for the message */
        owner_ref r;
        for (size_t k = 0; owner_at(k, &r); k++)
            if (declares(&r, key))
                return tg_err(err, TG_ERR_USAGE,
                              "the %s %s does not take option '%s' (the %s %s does)", name,
                              owner_word(owner), key, r.name, owner_word(r.owner));
        return tg_err(err, TG_ERR_USAGE, "the %s %s does not take option '%s'", name,
                      owner_word(owner), key);
    }
    return 0;
}

const char *tg_option_nearest(const char *key)
{
    tg_nearest near;
    tg_nearest_init(&near, key);
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, NULL, NULL)) != NULL; i++)
        tg_nearest_offer(&near, d->name);
    return near.count ? near.names[0] : NULL;
}
