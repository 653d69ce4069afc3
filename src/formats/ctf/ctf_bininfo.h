/* ctf_bininfo.h - one mapped executable or library as babeltrace2's debug-info filter sees
 * it: where its ELF file is, whether its build id matches, where its DWARF is, and the
 * function, source line and location of an address in it (ctf_bininfo.c).  Used by
 * ctf_debuginfo.c, which keeps one per module of each process. */
#ifndef TG_CTF_BININFO_H
#define TG_CTF_BININFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ctf_bin ctf_bin;

/* A module mapped at [low, low + memsz) from path (under target_prefix when given);
 * debug_dir replaces /usr/lib/debug for build-id and debug-link lookups.  NULL: no memory. */
ctf_bin *ctf_bin_new(const char *path, uint64_t low, uint64_t memsz, bool is_pic,
                     const char *debug_dir, const char *target_prefix);
void ctf_bin_free(ctf_bin *b);
bool ctf_bin_has(const ctf_bin *b, uint64_t addr);
/* The build id the trace recorded (compared with the file's own) and the debug link. */
void ctf_bin_set_build_id(ctf_bin *b, const uint8_t *id, size_t len);
void ctf_bin_set_debug_link(ctf_bin *b, const char *filename, uint32_t crc);

/* What babeltrace2 shows for address addr of the module (all malloc'ed): func ("name+0x12",
 * or NULL), src_path and line (src_path NULL: none), bin_loc ("+0x1234" for PIC modules,
 * "@0x401234" otherwise).  false: babeltrace2 shows nothing for it (the build id does not
 * match the file, or the address is not in the module). */
typedef struct ctf_bin_source {
    char *func;
    char *src_path;
    uint64_t line;
    char *bin_loc;
} ctf_bin_source;
bool ctf_bin_lookup(ctf_bin *b, uint64_t addr, ctf_bin_source *out);
const char *ctf_bin_path(const ctf_bin *b);

#endif
