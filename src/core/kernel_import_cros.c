/* kernel_import_cros.c - ChromeOS embedded-controller sensor samples as Perfetto draws them:
 * each cros_ec_sensorhub_data is a value of the counter "cros_ec.cros_ec_sensorhub_data.<sensor
 * number>", the sample's delay (current_time - current_timestamp, ns), with args ec_num (the
 * sensor), ec_delta (fifo_timestamp - current_timestamp) and sample_ts (current_timestamp). */
#include "core/kernel_import.h"

#include <stdio.h>

static int cros_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    (void)member, (void)ts;
    int64_t sensor, now, sample, fifo;
    if (!km_imp_int(ev, "ec_sensor_num", &sensor) || !km_imp_int(ev, "current_time", &now) ||
        !km_imp_int(ev, "current_timestamp", &sample) || !km_imp_int(ev, "fifo_timestamp", &fifo))
        return 0;
    char name[96];
    int n = snprintf(name, sizeof name, "cros_ec.cros_ec_sensorhub_data.%lld", (long long)sensor);
    static const km_imp_how how = {
        .type = TG_KTRACK_GLOBAL, .counter = true, .cpu = -1, .utid = -1, .upid = -1};
    int64_t track = km_imp_track(c, km_imp_key_int(0x63726f73u, sensor), &how, name, (size_t)n);
    if (track < 0)
        return (int)track;
    TG_TRY(km_imp_counter(c, step, track, (double)(now - sample)));
    km_imp_arg_int(c, step, "ec_num", sensor);
    km_imp_arg_int(c, step, "ec_delta", fifo - sample);
    km_imp_arg_int(c, step, "sample_ts", sample);
    return 0;
}

static const char *const cros_names[] = {"cros_ec_sensorhub_data", NULL};
const km_importer km_import_cros = {cros_names, cros_event};
