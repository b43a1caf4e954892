/* What the file commands (scan, eval, bench) share: load + process one file,
 * progress on stderr, annotated copies. */
#ifndef TS_BATCH_H
#define TS_BATCH_H

#include <stddef.h>

#include "pipeline.h"
#include "table.h"

/* Loads path (JPEG/PNG), times the decode, runs the pipeline and solves the
 * table. On success the decoded frame is left in *img (caller frees with
 * ts_image_free). Returns 0, or -1 with a one-line message naming the file in
 * err. */
int batch_process_file(ts_pipeline *p, const char *path, ts_image *img, ts_table *t, char *err,
                       size_t errlen);

/* Draws t onto img and writes DIR/<name>.annotated.jpg, where name is the
 * source's base name: never a path outside DIR, never the input itself. The
 * written path goes to out (may be NULL). */
int batch_annotate(ts_image *img, const ts_table *t, const char *dir, const char *source,
                   char *out, size_t outlen, char *err, size_t errlen);

/* Creates dir (one level) if missing. */
int batch_mkdir(const char *dir, char *err, size_t errlen);

/* Progress on stderr for runs longer than a couple of seconds. */
typedef struct {
    const char *what;
    int total;
    double start, last;
} batch_progress;

void batch_progress_start(batch_progress *p, const char *what, int total);
void batch_progress_tick(batch_progress *p, int done);
void batch_progress_end(batch_progress *p);

#endif
