/* What the file commands (scan, eval, bench) share: load + process one file,
 * progress on stderr, annotated copies. */
#ifndef TS_BATCH_H
#define TS_BATCH_H

#include <stddef.h>

#include "imageio.h"
#include "pipeline.h"
#include "table.h"

/* Loads path (JPEG/PNG, by content) within lim (NULL = the defaults) into
 * *img (caller frees with ts_image_free); "-" is standard input. Returns 0,
 * or -1 with a one-line message naming the file in err. */
int batch_load(const char *path, const ts_decode_limits *lim, ts_image *img, char *err,
               size_t errlen);

/* Loads path (JPEG/PNG; "-" is standard input) within lim (NULL = the defaults), times the decode,
 * runs the pipeline and solves the table. On success the decoded frame is left in *img (caller
 * frees with ts_image_free). Returns 0; 1 when the image was processed but
 * the answer needs a word (a greyscale photo: no colour, so no SET, Qwirkle or
 * Gang of Four card can be read), with that one line naming the file in err; or -1 with a one-line
 * message naming the file in err. */
int batch_process_file(ts_pipeline *p, const char *path, const ts_decode_limits *lim,
                       ts_image *img, ts_table *t, char *err, size_t errlen);

/* The output names a batch has used, so two inputs with the same base name
 * (a/IMG_1.jpg, b/IMG_1.jpg) never overwrite each other's output. */
typedef struct {
    char **names; /* owned */
    int n, cap;
} batch_names;

void batch_names_free(batch_names *u);

/* Draws t onto img and writes DIR/<name>.annotated.jpg, where name is the
 * source's base name: never a path outside DIR, never the input itself. When
 * names (may be NULL) already holds that name, a number is added
 * (<name>-2.annotated.jpg) and *renamed is set (may be NULL). The written path
 * goes to out (may be NULL). */
int batch_annotate(ts_image *img, const ts_table *t, const char *dir, const char *source,
                   batch_names *names, int *renamed, char *out, size_t outlen, char *err,
                   size_t errlen);

/* A decode limit from an option value: a whole number of pixels, or with an M
 * suffix millions ("50M"). Returns 0, or -1 if it is neither (or out of range). */
int batch_parse_pixels(const char *s, long long *out);

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
