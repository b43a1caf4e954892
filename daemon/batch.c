#include "batch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "imageio.h"
#include "overlay.h"

int batch_process_file(ts_pipeline *p, const char *path, ts_image *img, ts_table *t, char *err,
                       size_t errlen)
{
    double t0 = ts_now_ms();
    memset(t, 0, sizeof *t);
    if (ts_image_load(path, img, err, errlen) < 0)
        return -1;
    t->frame.ms_decode = ts_now_ms() - t0;
    char why[256];
    if (ts_pipeline_process(p, img, &t->frame, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        ts_image_free(img);
        return -1;
    }
    ts_table_solve(t);
    return 0;
}

int batch_mkdir(const char *dir, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int batch_annotate(ts_image *img, const ts_table *t, const char *dir, const char *source,
                   char *out, size_t outlen, char *err, size_t errlen)
{
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    const char *dot = strrchr(base, '.');
    int n = dot ? (int)(dot - base) : (int)strlen(base);
    char path[4096];
    snprintf(path, sizeof path, "%s/%.*s.annotated.jpg", dir, n, base);
    if (out)
        snprintf(out, outlen, "%s", path);
    if (ts_overlay_draw(img, t, NULL) < 0) {
        snprintf(err, errlen, "%s: drawing the overlay failed", source);
        return -1;
    }
    return ts_image_save(img, path, err, errlen);
}

void batch_progress_start(batch_progress *p, const char *what, int total)
{
    p->what = what;
    p->total = total;
    p->start = p->last = ts_now_ms();
}

void batch_progress_tick(batch_progress *p, int done)
{
    double t = ts_now_ms();
    /* Quiet for short runs; then a line every second. */
    if (t - p->start < 2000 || t - p->last < 1000)
        return;
    p->last = t;
    double eta = done > 0 ? (t - p->start) / done * (p->total - done) / 1000 : 0;
    fprintf(stderr, "%s: %d/%d (%.0f%%), %.0f s left\n", p->what, done, p->total,
            100.0 * done / (p->total ? p->total : 1), eta);
}

void batch_progress_end(batch_progress *p)
{
    double t = ts_now_ms();
    if (t - p->start >= 2000)
        fprintf(stderr, "%s: %d done in %.1f s\n", p->what, p->total, (t - p->start) / 1000);
}
