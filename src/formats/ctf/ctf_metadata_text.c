/* ctf_metadata_text.c - the CTF metadata stream as TSDL text.
 *
 * A metadata file is either plain TSDL text or a sequence of metadata packets, each starting
 * with a 37-byte header (magic 0x75D11D57 in the trace's byte order, the trace UUID, a
 * checksum, the content and packet sizes in bits, compression/encryption/checksum schemes
 * and the version).  Packets are concatenated into one text; every header is checked before
 * its sizes are used, so a damaged file gives "offset: what was expected". */
#include "formats/ctf/ctf_internal.h"
#include "io/byte_reader.h"
#include "core/file_input.h"

#include <stdlib.h>
#include <string.h>

#define CTF_META_MAGIC 0x75D11D57u
#define CTF_META_HEADER 37

int ctf_metadata_text(const char *path, char **text, size_t *len, bool *packetized, tg_error **err)
{
    tg_map m;
    TG_TRY(tg_map_open(&m, path, err));
    *packetized = false;
    if (m.size > CTF_MAX_METADATA_SIZE) {
        tg_map_close(&m);
        return tg_err_at(err, TG_ERR_LIMIT, path, TG_NO_OFFSET,
                         "metadata of %zu bytes exceeds the %u-byte limit", m.size,
                         CTF_MAX_METADATA_SIZE);
    }
    bool be = false;
    if (m.size >= 4 && tg_le32(m.data) == CTF_META_MAGIC)
        *packetized = true;
    else if (m.size >= 4 && tg_be32(m.data) == CTF_META_MAGIC)
        *packetized = be = true;
    char *out = malloc(m.size + 1);
    if (!out) {
        tg_map_close(&m);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    size_t n = 0;
    if (!*packetized) {
        memcpy(out, m.data, m.size);
        n = m.size;
    } else {
        size_t off = 0;
        while (off < m.size) {
            tg_reader r;
            tg_reader_init(&r, m.data + off, m.size - off, off, be);
            uint32_t magic = 0, checksum, content_bits = 0, packet_bits = 0;
            const uint8_t *uuid;
            uint8_t comp = 0, enc = 0, csum, major, minor;
            if (!tg_read_u32(&r, &magic) || !tg_read_bytes(&r, &uuid, 16) ||
                !tg_read_u32(&r, &checksum) || !tg_read_u32(&r, &content_bits) ||
                !tg_read_u32(&r, &packet_bits) || !tg_read_u8(&r, &comp) || !tg_read_u8(&r, &enc) ||
                !tg_read_u8(&r, &csum) || !tg_read_u8(&r, &major) || !tg_read_u8(&r, &minor)) {
                free(out);
                tg_map_close(&m);
                return tg_err_at(err, TG_ERR_FORMAT, path, off,
                                 "metadata packet header truncated (expected %d bytes)",
                                 CTF_META_HEADER);
            }
            const char *bad = NULL;
            if (magic != CTF_META_MAGIC)
                bad = "bad metadata packet magic (expected 0x75d11d57)";
            else if (comp || enc)
                bad = "compressed or encrypted metadata packets are not supported";
            else if (content_bits % 8 || packet_bits % 8)
                bad = "metadata packet sizes are not whole bytes";
            else if (content_bits < CTF_META_HEADER * 8 || content_bits > packet_bits)
                bad = "metadata packet content size is smaller than its header or larger than "
                      "the packet";
            else if (packet_bits / 8 > m.size - off)
                bad = "metadata packet runs past the end of the file";
            if (bad) {
                free(out);
                tg_map_close(&m);
                return tg_err_at(err, TG_ERR_FORMAT, path, off, "%s", bad);
            }
            size_t body = content_bits / 8 - CTF_META_HEADER;
            memcpy(out + n, m.data + off + CTF_META_HEADER, body);
            n += body;
            off += packet_bits / 8;
        }
    }
    out[n] = 0;
    tg_map_close(&m);
    *text = out;
    *len = n;
    return 0;
}
