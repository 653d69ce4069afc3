/* kernel_import_gpu_freq.c - a GPU's frequency as Perfetto draws it from gpu_frequency (the
 * ftrace event, or a generic kernel's GPU frequency event read as one): a counter of the GPU
 * the event names (gpu_id), "gpufreq" (track type "gpu_frequency"), its value the event's
 * state in kHz. */
#include "core/kernel_import.h"

static int gpu_freq_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    (void)member, (void)ts;
    int64_t gpu, state;
    if (!km_imp_int(ev, "gpu_id", &gpu) || !km_imp_int(ev, "state", &state))
        return 0;
    static const char name[] = "gpufreq";
    static const km_imp_how how = {.type = TG_KTRACK_GLOBAL,
                                   .type_name = "gpu_frequency",
                                   .counter = true,
                                   .cpu = -1,
                                   .utid = -1,
                                   .upid = -1};
    int64_t track = km_imp_track(c, km_imp_key_int(0x67707566u, gpu), &how, name, sizeof name - 1);
    if (track < 0)
        return (int)track;
    return km_imp_counter(c, step, track, (double)state);
}

static const char *const gpu_freq_names[] = {"gpu_frequency", NULL};
const km_importer km_import_gpu_freq = {gpu_freq_names, gpu_freq_event};
