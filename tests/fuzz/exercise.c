/* exercise.c - see exercise.h. */
#include "exercise.h"

#include <fcntl.h>
#include <unistd.h>

typedef int (*run_fn)(tg_set *set, const char *style, const tg_options *opts, tg_buf *out,
                      tg_error **err);

static int run_print(tg_set *s, const char *style, const tg_options *o, tg_buf *b, tg_error **e)
{
    return tg_print(s, NULL, style, o, b, e);
}
static int run_report(tg_set *s, const char *style, const tg_options *o, tg_buf *b, tg_error **e)
{
    return tg_report(s, NULL, style, o, b, e);
}
static int run_replay(tg_set *s, const char *style, const tg_options *o, tg_buf *b, tg_error **e)
{
    return tg_replay(s, NULL, o, b, e);
}
static int run_stats(tg_set *s, const char *style, const tg_options *o, tg_buf *b, tg_error **e)
{
    return tg_stats(s, NULL, o, b, e);
}
static int run_info(tg_set *s, const char *style, const tg_options *o, tg_buf *b, tg_error **e)
{
    return tg_info(s, o, b, e);
}
static int run_chrome(tg_set *s, const char *style, const tg_options *o, tg_buf *b, tg_error **e)
{
    return tg_convert(s, NULL, "chrome", o, b, e);
}

static void run_once(const char *path, const tg_options *opts, run_fn fn, const char *style,
                     int devnull)
{
    tg_error *err = NULL;
    const char *paths[1] = {path};
    tg_set *set = tg_open(paths, 1, opts, &err);
    if (set) {
        tg_buf *out = tg_buf_new_fd(devnull);
        fn(set, style, opts, out, &err);
        tg_buf_free(out);
        tg_close(set);
    }
    (void)tg_error_message(err);
    tg_error_free(err);
}

int tg_exercise_path(const char *path, const tg_options *opts)
{
    tg_error *err = NULL;
    const char *paths[1] = {path};
    tg_set *set = tg_open(paths, 1, opts, &err);
    if (!set) {
        (void)tg_error_message(err);
        tg_error_free(err);
        return 0;
    }
    tg_close(set);
    int devnull = open("/dev/null", O_WRONLY);
    for (size_t i = 0; tg_print_style_name(i); i++)
        run_once(path, opts, run_print, tg_print_style_name(i), devnull);
    run_once(path, opts, run_report, "uftrace", devnull);
    run_once(path, opts, run_report, "xray", devnull);
    run_once(path, opts, run_replay, NULL, devnull);
    run_once(path, opts, run_stats, NULL, devnull);
    run_once(path, opts, run_info, NULL, devnull);
    run_once(path, opts, run_chrome, NULL, devnull);
    close(devnull);
    return 1;
}
