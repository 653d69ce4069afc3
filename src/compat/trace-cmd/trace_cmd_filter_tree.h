/* trace_cmd_filter_tree.h - the parsed form of a `trace-cmd report -F` filter, shared by its
 * parser (trace_cmd_filter_parse.c: libtraceevent's tokens and state machine) and by the
 * filter set that binds it to event classes and evaluates it (trace_cmd_filter.c).  Private
 * to compat/trace-cmd. */
#ifndef TG_TRACE_CMD_FILTER_TREE_H
#define TG_TRACE_CMD_FILTER_TREE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { T_NONE, T_ERROR, T_SPACE, T_NEWLINE, T_OP, T_DELIM, T_ITEM, T_DQUOTE, T_SQUOTE };
enum { NK_BOOL, NK_OP, NK_NUM, NK_STR, NK_EXP, NK_ITEM };
enum { IT_NAME, IT_NUMBER, IT_STRING, IT_CHAR };
enum { OP_AND = 1, OP_OR, OP_NOT };
enum { C_NONE, C_EQ, C_NE, C_GT, C_LT, C_GE, C_LE, C_REGEX, C_NOT_REGEX };
enum { E_NONE, E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_RSHIFT, E_LSHIFT, E_AND, E_OR, E_XOR, E_NOT };
enum { UNBALANCED = 1 }; /* process()'s return for a ')' */

typedef struct node {
    uint8_t kind, type; /* type: op, comparison, arithmetic or item kind */
    bool value;         /* NK_BOOL */
    int left, right;    /* node indices, -1 for none (NK_STR: left is the name) */
    char *text;         /* item: name or string; NK_STR: the string */
    uint64_t num;       /* item: number */
    int slot;           /* IT_NAME: index of its field reference */
    bool regex_ok;      /* NK_STR with a regex */
    regex_t re;
} node;

/* how a name resolves in one class */
enum { REF_NONE, REF_FIELD, REF_COMM, REF_CPU };
typedef struct ref {
    int8_t kind, scope;
    int32_t index;
} ref;

enum { CS_OUT = 0, CS_IN, CS_BOUND, CS_BAD };
typedef struct cls_state {
    uint8_t state;
    int32_t comm; /* index of the COMMON scope's common_comm, -1 */
    ref *refs;
} cls_state;

typedef struct filter {
    char *text; /* as given, for messages */
    node *nodes;
    size_t n_nodes, cap_nodes;
    int root; /* -1: no expression (the events match) */
    int n_slots;
    cls_state *cls;  /* by class number */
    const char *bad; /* why a class cannot take it */
    /* the parser's input */
    const char *in;
    size_t pos, len;
    char *err;
} filter;

/* Parses f->in (f->len bytes: the expression after the filter's ':') into f->nodes, setting
 * f->root: 0, or TG_ERR_USAGE with f->err saying what is wrong and where (the caller's
 * message), TG_ERR_NOMEM. */
int tc_filter_parse(filter *f);

#endif
