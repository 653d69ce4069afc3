/* uftrace_mix.c - the second workload bench/uftrace.sh records, of another shape than
 * uftrace_bench.c's one recursive function: four threads, each walking a table of
 * sixteen small functions that call one another a few levels deep (tree walks, a string
 * hash, a sort's comparisons through qsort, library calls such as memcpy and strlen), so the
 * recording has many functions, shallow and deep stacks, library calls and four threads'
 * interleaving: about ten million records. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

struct node {
    struct node *left, *right;
    unsigned key;
};

NOINLINE static unsigned mix(unsigned x) { return (x ^ (x >> 7)) * 2654435761u; }

NOINLINE static unsigned leaf_add(unsigned a, unsigned b) { return a + b; }

NOINLINE static unsigned leaf_xor(unsigned a, unsigned b) { return a ^ mix(b); }

NOINLINE static struct node *tree_insert(struct node *t, struct node *n)
{
    if (!t)
        return n;
    if (n->key < t->key)
        t->left = tree_insert(t->left, n);
    else
        t->right = tree_insert(t->right, n);
    return t;
}

NOINLINE static unsigned tree_sum(const struct node *t)
{
    return t ? leaf_add(t->key, tree_sum(t->left) + tree_sum(t->right)) : 0;
}

NOINLINE static unsigned str_hash(const char *s)
{
    unsigned h = 5381;
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h;
}

NOINLINE static void make_name(char *buf, unsigned i)
{
    char tmp[16];
    snprintf(tmp, sizeof tmp, "n%u", i);
    memcpy(buf, tmp, strlen(tmp) + 1);
}

NOINLINE static int cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

NOINLINE static unsigned sort_some(unsigned seed)
{
    unsigned v[24];
    for (int i = 0; i < 24; i++)
        v[i] = mix(seed + (unsigned)i);
    qsort(v, 24, sizeof v[0], cmp_uint);
    return v[0] ^ v[23];
}

NOINLINE static unsigned names_round(unsigned seed)
{
    char buf[16];
    unsigned h = 0;
    for (unsigned i = 0; i < 8; i++) {
        make_name(buf, seed + i);
        h = leaf_xor(h, str_hash(buf));
    }
    return h;
}

NOINLINE static unsigned tree_round(unsigned seed)
{
    struct node nodes[32];
    struct node *root = NULL;
    for (unsigned i = 0; i < 32; i++) {
        nodes[i] = (struct node){NULL, NULL, mix(seed + i)};
        root = tree_insert(root, &nodes[i]);
    }
    return tree_sum(root);
}

NOINLINE static unsigned step(unsigned seed)
{
    switch (seed % 3) {
    case 0: return tree_round(seed);
    case 1: return names_round(seed);
    default: return sort_some(seed);
    }
}

static void *worker(void *arg)
{
    unsigned acc = 0, rounds = (unsigned)(size_t)arg;
    for (unsigned i = 0; i < rounds; i++)
        acc = leaf_add(acc, step(i * 4 + rounds));
    return (void *)(size_t)acc;
}

int main(void)
{
    pthread_t t[4];
    void *r[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)(size_t)(7000 + 1000 * i));
    unsigned acc = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], &r[i]);
        acc ^= (unsigned)(size_t)r[i];
    }
    printf("%u\n", acc);
    return 0;
}
