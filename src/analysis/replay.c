/* replay.c - placeholder until the uftrace-compatible replay lands (it overwrites this). */
#include "core/error_internal.h"

int tg_replay(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out,
              tg_error **err)
{
    return tg_err(err, TG_ERR_UNSUPPORTED, "replay is not implemented yet");
}
