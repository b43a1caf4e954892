#include "batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "cmd.h"
#include "imageio.h"
#include "overlay.h"

int batch_load(const char *path, const ts_decode_limits *lim, ts_image *img, char *err,
               size_t errlen)
{
    if (strcmp(path, "-") != 0)
        return ts_image_load_limited(path, lim, img, err, errlen);
    uint8_t *data;
    size_t len;
    memset(img, 0, sizeof *img);
    if (cmd_read_stdin(TS_FILE_MAX_BYTES, &data, &len, err, errlen) < 0)
        return -1;
    char why[256] = "";
    int rc = len == 0 ? -1 : ts_image_decode_limited(data, len, lim, img, why, sizeof why);
    if (rc < 0)
        snprintf(err, errlen, "-: %s", len == 0 ? "empty standard input" : why);
    free(data);
    return rc;
}

int batch_process_file(ts_pipeline *p, const char *path, const ts_decode_limits *lim,
                       ts_image *img, ts_table *t, char *err, size_t errlen)
{
    double t0 = ts_now_ms();
    memset(t, 0, sizeof *t);
    ts_frame_result *r = &t->frame;
    if (batch_load(path, lim, img, err, errlen) < 0)
        return -1;
    r->ms_decode = ts_now_ms() - t0;
    char why[256];
    if (ts_pipeline_process(p, img, r, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        ts_image_free(img);
        return -1;
    }
    /* SET, Qwirkle and Gang of Four cards differ by colour: a greyscale
     * photo can show where they are but never what they are. Said, not left
     * as zero cards. (Pips and playing-card indices read in grey.) */
    int fam = r->family;
    if ((fam == TS_FAM_SET || fam == TS_FAM_QWIRKLE || fam == TS_FAM_GOF) &&
        ts_image_is_grey(img)) {
        snprintf(err, errlen,
                 "%s: a greyscale image (no colour): %s cards cannot be read from it "
                 "(%d found, none read)",
                 path, ts_family_name((ts_family)fam), r->ncards);
        for (int i = 0; i < r->ncards; i++)
            r->cards[i].read = 0;
        ts_table_solve(t);
        return 1;
    }
    ts_table_solve(t);
    return 0;
}

int batch_parse_pixels(const char *s, long long *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end != s && (*end == 'M' || *end == 'm') && end[1] == '\0')
        v *= 1e6;
    else if (end == s || *end)
        return -1;
    if (errno || v < 1 || v > 4e9)
        return -1;
    *out = (long long)v;
    return 0;
}

void batch_names_free(batch_names *u)
{
    for (int i = 0; i < u->n; i++)
        free(u->names[i]);
    free(u->names);
    memset(u, 0, sizeof *u);
}

static int name_used(const batch_names *u, const char *name)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->names[i], name) == 0)
            return 1;
    return 0;
}

static void name_add(batch_names *u, const char *name)
{
    if (u->n == u->cap) {
        int cap = u->cap ? u->cap * 2 : 64;
        char **grown = realloc(u->names, sizeof *grown * (size_t)cap);
        if (!grown)
            return;
        u->names = grown;
        u->cap = cap;
    }
    char *copy = strdup(name);
    if (copy)
        u->names[u->n++] = copy;
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
                   batch_names *names, int *renamed, char *out, size_t outlen, char *err,
                   size_t errlen)
{
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    if (strcmp(source, "-") == 0)
        base = "stdin";
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    if (n > 200)
        n = 200; /* a file name has at most 255 bytes */
    char name[256];
    snprintf(name, sizeof name, "%.*s", n, base);
    if (renamed)
        *renamed = 0;
    if (names) {
        for (int k = 2; name_used(names, name) && k < 1000000; k++) {
            snprintf(name, sizeof name, "%.*s-%d", n, base, k);
            if (renamed)
                *renamed = 1;
        }
        name_add(names, name);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.annotated.jpg", dir, name);
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
