/* cli_completion.c - `traceglot completion bash|zsh`: the shell completion scripts, written
 * from the same options the parser accepts (cli_each_option), so that a command, style,
 * converter or option the library declares is completed without an edit here.  The build
 * writes both and `make install` puts them where Debian's bash-completion and zsh look.
 *
 * What an option's value completes to comes from its declaration: the choices of a choice,
 * the registered names of --style and --to, folders for a DIR, files for a FILE, BINARY or
 * PATH; anything else (times, lists, SQL) completes to nothing.  The words after the options
 * are trace paths: files and folders. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

enum value_kind { V_NONE, V_WORDS, V_FILES, V_DIRS };

/* What o's value completes to; words (space-separated) for V_WORDS. */
static enum value_kind value_of(const struct cli_opt *o, char *words, size_t size)
{
    words[0] = 0;
    if (!o->arg)
        return V_NONE;
    if (o->own && o->own->values) {
        size_t n = 0;
        for (size_t i = 0; o->own->values(i) && n < size; i++)
            n += (size_t)snprintf(words + n, size - n, "%s%s", i ? " " : "", o->own->values(i));
        return V_WORDS;
    }
    if (o->decl && o->decl->type == TG_OPT_CHOICE && o->decl->choices) {
        snprintf(words, size, "%s", o->decl->choices);
        for (char *p = words; *p; p++)
            if (*p == '|')
                *p = ' ';
        return V_WORDS;
    }
    if (strcmp(o->arg, "DIR") == 0)
        return V_DIRS;
    if (strstr(o->arg, "FILE") || strstr(o->arg, "BINARY") || strcmp(o->arg, "PATH") == 0 ||
        strcmp(o->arg, "OTHER") == 0)
        return V_FILES;
    return V_NONE;
}

/* ---- bash ------------------------------------------------------------------------------- */

struct bash_ctx {
    int pass; /* 0: the value cases, 1: the option words */
};

static void bash_option(const struct cli_command_info *cmd, const struct cli_opt *o, void *ctx)
{
    (void)cmd;
    struct bash_ctx *b = ctx;
    if (b->pass == 1) {
        printf(" --%s", o->name);
        if (o->short_name)
            printf(" -%c", o->short_name);
        return;
    }
    if (!o->arg)
        return;
    char words[512];
    enum value_kind k = value_of(o, words, sizeof words);
    printf("        --%s", o->name);
    if (o->short_name)
        printf("|-%c", o->short_name);
    switch (k) {
    case V_WORDS: printf(") COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", words); break;
    case V_FILES: printf(") _traceglot_paths; return ;;\n"); break;
    case V_DIRS: printf(") _traceglot_paths -d; return ;;\n"); break;
    default: printf(") return ;;\n"); break;
    }
}

static void bash_script(void)
{
    printf("# bash completion for traceglot, written by `traceglot completion bash` from the "
           "options\n# the program declares (installed as "
           "share/bash-completion/completions/traceglot).\n\n");
    printf("_traceglot_paths()\n{\n"
           "    if declare -F _filedir >/dev/null; then _filedir $1; return; fi\n"
           "    compopt -o filenames 2>/dev/null\n"
           "    if [ \"$1\" = -d ]; then COMPREPLY=($(compgen -d -- \"$cur\"));\n"
           "    else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n}\n\n");
    printf("_traceglot()\n{\n    local cur prev words cword split=false\n"
           "    if declare -F _init_completion >/dev/null; then\n"
           "        _init_completion -s || return\n    else\n"
           "        words=(\"${COMP_WORDS[@]}\") cword=$COMP_CWORD\n"
           "        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "        if [[ $cur == --*=* ]]; then prev=${cur%%%%=*} cur=${cur#*=} split=true; fi\n"
           "    fi\n");
    printf("    if [ \"$cword\" -le 1 ]; then\n        COMPREPLY=($(compgen -W '");
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        printf("%s ", c->name);
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++)
        printf("%s ", e->name);
    printf("--help --version -V' -- \"$cur\"))\n        return\n    fi\n");
    printf("    local opts\n    case ${words[1]} in\n");
    printf("    help|options) COMPREPLY=($(compgen -W '");
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        printf("%s ", c->name);
    printf("common' -- \"$cur\")); return ;;\n");
    printf("    completion) COMPREPLY=($(compgen -W 'bash zsh' -- \"$cur\")); return ;;\n");
    for (const struct cli_command_info *c = cli_commands; c->name; c++) {
        struct bash_ctx b = {0};
        printf("    %s)\n        case $prev in\n", c->name);
        cli_each_option(c, bash_option, &b);
        printf("        esac\n        opts='");
        b.pass = 1;
        cli_each_option(c, bash_option, &b);
        printf("'\n        ;;\n");
    }
    printf("    *) return ;;\n    esac\n");
    printf("    if [[ $cur == -* ]] && ! $split; then\n"
           "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
           "        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace 2>/dev/null\n"
           "        return\n    fi\n    _traceglot_paths\n}\n"
           "complete -F _traceglot traceglot\n");
}

/* ---- zsh -------------------------------------------------------------------------------- */

/* s inside '...' quotes, with the characters of special escaped: `[]:\\` in an _arguments
 * description, `:\\` in its message, none in a _describe item's description. */
static void zsh_text(const char *s, const char *special)
{
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", stdout);
        else if (strchr(special, *s))
            printf("\\%c", *s);
        else
            putchar(*s);
    }
}

static void zsh_option(const struct cli_command_info *cmd, const struct cli_opt *o, void *ctx)
{
    (void)ctx;
    char words[512], label[160];
    enum value_kind k = value_of(o, words, sizeof words);
    int repeat = o->decl && (o->decl->type == TG_OPT_LIST || o->decl->type == TG_OPT_TEXTS);
    if (o->short_name) { /* -o and --output: one option, given once unless repeatable */
        if (repeat)
            printf("    '*'");
        else
            printf("    '(-%c --%s)'", o->short_name, o->name);
        printf("{-%c%s,--%s%s}'", o->short_name, o->arg ? "+" : "", o->name, o->arg ? "=" : "");
    } else {
        printf("    '%s--%s%s", repeat ? "*" : "", o->name, o->arg ? "=" : "");
    }
    cli_option_label(cmd, o, label, sizeof label);
    printf("[");
    zsh_text(label, "[]:\\");
    zsh_text(o->help, "[]:\\");
    printf("]");
    if (o->arg) {
        printf(":");
        zsh_text(o->arg, ":\\");
        switch (k) {
        case V_WORDS: printf(":(%s)", words); break;
        case V_FILES: printf(":_files"); break;
        case V_DIRS: printf(":_files -/"); break;
        default: printf(": "); break;
        }
    }
    printf("' \\\n");
}

static void zsh_script(void)
{
    printf("#compdef traceglot\n# zsh completion for traceglot, written by `traceglot "
           "completion zsh` from the options\n# the program declares (installed as "
           "share/zsh/vendor-completions/_traceglot).\n\n");
    printf("_traceglot() {\n  local -a commands\n  commands=(\n");
    for (const struct cli_command_info *c = cli_commands; c->name; c++) {
        printf("    '%s:", c->name);
        zsh_text(c->summary, "");
        printf("'\n");
    }
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++) {
        printf("    '%s:", e->name);
        zsh_text(e->summary, "");
        printf("'\n");
    }
    printf("  )\n  if (( CURRENT == 2 )); then\n    _describe -t commands 'traceglot command' "
           "commands\n    return\n  fi\n  local cmd=$words[2]\n  shift words\n  (( CURRENT-- ))\n"
           "  case $cmd in\n");
    printf("  help|options) _values command");
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        printf(" %s", c->name);
    printf(" ;;\n  completion) _values shell bash zsh ;;\n");
    for (const struct cli_command_info *c = cli_commands; c->name; c++) {
        printf("  %s)\n    _arguments -s -S \\\n", c->name);
        cli_each_option(c, zsh_option, NULL);
        printf("    '*:trace:_files' ;;\n");
    }
    printf("  esac\n}\n\n_traceglot \"$@\"\n");
}

int cli_run_completion(int argc, char **argv)
{
    if (argc == 1 && strcmp(argv[0], "bash") == 0)
        bash_script();
    else if (argc == 1 && strcmp(argv[0], "zsh") == 0)
        zsh_script();
    else {
        fprintf(stderr, "usage: traceglot completion bash|zsh\n");
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
