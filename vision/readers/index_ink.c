/* Index ink, level by level (see index_ink.h). */
#include "readers/index_ink.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    ts_image_free(&k->grey);
    ts_image_free(&k->bin);
    free(k->labels);
    ts_components_destroy(k->cc);
    free(k->blobs);
    free(k);
}

int ts_index_ink_level(ts_index_ink *k, const ts_image *frame, int w, int h, int block, int ink,
                       char *err)
{
    const ts_image *src = frame;
    if (w != frame->w || h != frame->h) {
        if (k->small.w != w || k->small.h != h)
            ts_image_free(&k->small); /* another level, or a part of another size */
        if (tscv_resize(frame, &k->small, w, h, err) < 0)
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
