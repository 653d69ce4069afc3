/* id_index.h - dense indexes for sparse keys (thread ids, process ids, stream pointers).
 *
 * The viewer writers keep per-thread and per-stream state in plain arrays; this table gives
 * each distinct 64-bit key the next index (0, 1, 2, ...) the first time it is seen. */
#ifndef TG_ID_INDEX_H
#define TG_ID_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct tg_id_index {
    uint64_t *keys;
    uint32_t *values;  /* index + 1; 0 marks an empty slot */
    size_t n, n_slots; /* n_slots: a power of two */
} tg_id_index;

void tg_id_index_free(tg_id_index *t);
/* The key's index; *added is set to 1 when the key was new.  TG_ERR_NOMEM as a negative. */
int64_t tg_id_index_get(tg_id_index *t, uint64_t key, int *added);

#endif
