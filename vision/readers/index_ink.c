/* Index ink, level by level (see index_ink.h). */
#include "readers/index_ink.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resize_area.h"

ts_index_ink *ts_index_ink_create(int max_blobs)
{
    ts_index_ink *k = calloc(1, sizeof *k);
    if (k && (!(k->blobs = malloc(sizeof *k->blobs * (size_t)max_blobs)) ||
              !(k->cc = ts_components_create()))) {
        free(k->blobs);
        free(k);
        return NULL;
    }
    if (k) {
        k->max_blobs = max_blobs;
        k->keep_labels = 1;
    }
    return k;
}

void ts_index_ink_destroy(ts_index_ink *k)
{
    if (!k)
        return;
    ts_image_free(&k->small);
    ts_image_free(&k->next);
    ts_image_free(&k->grey);
    ts_image_free(&k->bin);
    free(k->labels);
    ts_components_destroy(k->cc);
    free(k->blobs);
    free(k);
}

/* Whether k->next is frame at w x h: made from this frame's buffer by the
 * call just before (the finders ask for a frame's levels in a row). */
static int next_is(const ts_index_ink *k, const uint8_t *next_of, const ts_image *frame, int w,
                   int h)
{
    return next_of && next_of == frame->buf && k->next.w == w && k->next.h == h &&
           k->next.channels == frame->channels;
}

/* k->small = frame at w x h: the next level made by the call before
 * (next_of) if it is this one, else the frame shrunk; a halving makes the
 * next level (the quarter) in the same pass. */
static int level_image(ts_index_ink *k, const uint8_t *next_of, const ts_image *frame, int w,
                       int h, char *err)
{
    if (next_is(k, next_of, frame, w, h)) {
        ts_image t = k->small;
        k->small = k->next;
        k->next = t;
        return 0;
    }
    if (k->small.w != w || k->small.h != h || k->small.channels != frame->channels)
        ts_image_free(&k->small); /* another level, or a part of another size */
    const int qw = w / 2, qh = h / 2;
    if (2 * w == frame->w && 2 * h == frame->h && 2 * qw == w && 2 * qh == h && qw > 0 &&
        qh > 0) {
        if (k->next.w != qw || k->next.h != qh || k->next.channels != frame->channels)
            ts_image_free(&k->next);
        if ((!k->small.buf && ts_image_alloc(&k->small, w, h, frame->channels) < 0) ||
            (!k->next.buf && ts_image_alloc(&k->next, qw, qh, frame->channels) < 0)) {
            snprintf(err, TSCV_ERR_MAX, "index ink: out of memory");
            return -1;
        }
        int rc = ts_resize_area_halves(frame, &k->small, &k->next);
        if (rc < 0) {
            snprintf(err, TSCV_ERR_MAX, "index ink: out of memory");
            return -1;
        }
        if (rc == 0) {
            k->next_of = frame->buf;
            return 0;
        }
    }
    return tscv_resize(frame, &k->small, w, h, err);
}

int ts_index_ink_level(ts_index_ink *k, const ts_image *frame, int w, int h, int block, int ink,
                       char *err)
{
    const ts_image *src = frame;
    const uint8_t *next_of = k->next_of; /* for this call only */
    k->next_of = NULL;
    if (w != frame->w || h != frame->h) {
        if (level_image(k, next_of, frame, w, h, err) < 0)
            return -1;
        src = &k->small;
    }
    if (k->grey.w != w || k->grey.h != h) {
        ts_image_free(&k->grey);
        ts_image_free(&k->bin);
        if (ts_image_alloc(&k->grey, w, h, 1) < 0) {
            snprintf(err, TSCV_ERR_MAX, "index ink: out of memory");
            return -1;
        }
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *p = ts_image_row(src, y);
        uint8_t *g = ts_image_row(&k->grey, y);
        if (src->channels == 1) {
            for (int x = 0; x < w; x++)
                g[x] = (uint8_t)(255 - p[x]);
            continue;
        }
        ts_row_darkest(p, w, 255, g); /* 255 - darkest */
    }
    if (tscv_adaptive(&k->grey, &k->bin, block, ink, err) < 0)
        return -1;
    size_t need = (size_t)w * h;
    if (k->keep_labels && k->nlabels < need) {
        free(k->labels);
        k->labels = malloc(sizeof *k->labels * need);
        k->nlabels = k->labels ? need : 0;
    }
    int n = !k->keep_labels || k->labels
                ? ts_components_find(k->cc, &k->bin, k->keep_labels ? k->labels : NULL, k->blobs,
                                     k->max_blobs)
                : -1;
    if (n < 0)
        snprintf(err, TSCV_ERR_MAX, "index ink: out of memory");
    return n;
}

int ts_index_ink_grey(const ts_index_ink *k, float x, float y)
{
    const ts_image *g = &k->grey;
    int ix = (int)lroundf(x), iy = (int)lroundf(y);
    ix = ix < 0 ? 0 : ix >= g->w ? g->w - 1 : ix;
    iy = iy < 0 ? 0 : iy >= g->h ? g->h - 1 : iy;
    return ts_image_row(g, iy)[ix];
}

int ts_index_ink_glyph(const ts_index_ink *k, float cx, float cy, float ext)
{
    const float d = 0.25f * ext, off[5][2] = {{0, 0}, {d, 0}, {-d, 0}, {0, d}, {0, -d}};
    int best = 0;
    for (int i = 0; i < 5; i++) {
        int v = ts_index_ink_grey(k, cx + off[i][0], cy + off[i][1]);
        best = v > best ? v : best;
    }
    return best;
}
