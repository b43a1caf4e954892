/* Finding western domino tiles by their middle bar (see domino_find.h). */
#include "readers/domino_find.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvwrap.h"

enum { MAX_DARK = 8192, MAX_BARS = 256 };

/* Bar length / tile width, measured on the double-six photos' tiles. */
static const float BAR_RATIO = 0.78f;

struct domino_finder {
    ts_image grey, inv, bin;
    int *labels;
    int nlabels;
    tscv_blob *blobs;
};

typedef struct {
    float cx, cy;  /* centre */
    float ux, uy;  /* unit vector along the bar */
    float len;     /* length (px) */
    float score;
} bar;

domino_finder *domino_finder_create(void)
{
    domino_finder *f = calloc(1, sizeof *f);
    if (f && !(f->blobs = malloc(sizeof(tscv_blob) * MAX_DARK))) {
        free(f);
        return NULL;
    }
    return f;
}

void domino_finder_destroy(domino_finder *f)
{
    if (!f)
        return;
    ts_image_free(&f->grey);
    ts_image_free(&f->inv);
    ts_image_free(&f->bin);
    free(f->labels);
    free(f->blobs);
    free(f);
}

static int scratch(ts_image *img, int w, int h)
{
    if (img->buf && img->w == w && img->h == h)
        return 0;
    ts_image_free(img);
    return ts_image_alloc(img, w, h, 1);
}

/* True if the frame pixel at (x, y) is light grey paper: brighter than t and
 * hardly coloured. */
static int is_paper(const ts_image *frame, float x, float y, int t)
{
    int ix = (int)lrintf(x), iy = (int)lrintf(y);
    if (ix < 0 || iy < 0 || ix >= frame->w || iy >= frame->h)
        return 0;
    const uint8_t *p = ts_image_row(frame, iy) + (size_t)ix * (size_t)frame->channels;
    if (frame->channels == 1)
        return p[0] >= t;
    int mx = p[0], mn = p[0];
    for (int c = 1; c < 3; c++) {
        if (p[c] > mx) mx = p[c];
        if (p[c] < mn) mn = p[c];
    }
    return p[1] >= t && mx - mn < mx * 45 / 100 + 10;
}

static int by_score(const void *a, const void *b)
{
    float sa = ((const bar *)a)->score, sb = ((const bar *)b)->score;
    return (sa < sb) - (sa > sb);
}

static int by_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int domino_find_tiles(domino_finder *f, const ts_image *frame, ts_quad *out, int max, char *err)
{
    const int w = frame->w, h = frame->h;
    if (scratch(&f->grey, w, h) < 0 || scratch(&f->inv, w, h) < 0 || scratch(&f->bin, w, h) < 0) {
        if (err)
            strcpy(err, "domino find: out of memory");
        return -1;
    }
    if (f->nlabels < w * h) {
        free(f->labels);
        f->labels = malloc(sizeof(int) * (size_t)w * (size_t)h);
        f->nlabels = f->labels ? w * h : 0;
        if (!f->labels) {
            if (err)
                strcpy(err, "domino find: out of memory");
            return -1;
        }
    }
    if (frame->channels == 3) {
        if (tscv_grey(frame, &f->grey, err) < 0)
            return -1;
    } else {
        for (int y = 0; y < h; y++)
            memcpy(ts_image_row(&f->grey, y), ts_image_row(frame, y), (size_t)w);
    }
    /* paper brightness: a high percentile of the frame (tiles are its lightest part) */
    int hist[256] = {0};
    for (int y = 0; y < h; y += 4) {
        const uint8_t *g = ts_image_row(&f->grey, y);
        uint8_t *o = ts_image_row(&f->inv, y);
        for (int x = 0; x < w; x += 4)
            hist[g[x]]++;
        (void)o;
    }
    int samples = ((h + 3) / 4) * ((w + 3) / 4), bright = 255;
    for (int acc = 0; bright > 0; bright--)
        if ((acc += hist[bright]) > samples / 50)
            break;
    int paper_t = bright * 62 / 100;
    for (int y = 0; y < h; y++) {
        const uint8_t *g = ts_image_row(&f->grey, y);
        uint8_t *o = ts_image_row(&f->inv, y);
        for (int x = 0; x < w; x++)
            o[x] = (uint8_t)(255 - g[x]);
    }
    int side = w > h ? w : h;
    int block = side / 40 | 1;
    if (block < 15)
        block = 15;
    if (tscv_adaptive(&f->inv, &f->bin, block, 22, err) < 0)
        return -1;
    int n = tscv_components(&f->bin, f->labels, f->blobs, MAX_DARK, err);
    if (n < 0)
        return -1;
    bar bars[MAX_BARS];
    int nbars = 0;
    float min_len = side / 100.0f, max_len = side / 4.0f;
    for (int i = 0; i < n && nbars < MAX_BARS; i++) {
        const tscv_blob *b = &f->blobs[i];
        int bl = b->w > b->h ? b->w : b->h;
        if (b->area < 12 || bl < min_len * 0.7f || bl > max_len * 1.2f)
            continue;
        /* second moments over the blob's own pixels */
        double sxx = 0, syy = 0, sxy = 0, ink = 0;
        for (int y = b->y; y < b->y + b->h; y++) {
            const int *lab = f->labels + (size_t)y * (size_t)w;
            for (int x = b->x; x < b->x + b->w; x++)
                if (lab[x] == i + 1) {
                    double dx = x - b->cx, dy = y - b->cy;
                    ink += ts_image_row(&f->grey, y)[x];
                    sxx += dx * dx;
                    syy += dy * dy;
                    sxy += dx * dy;
                }
        }
        sxx /= b->area;
        syy /= b->area;
        sxy /= b->area;
        double t = (sxx + syy) / 2, d = sqrt((sxx - syy) * (sxx - syy) / 4 + sxy * sxy);
        double major = sqrt(fmax(t + d, 0)), minor = sqrt(fmax(t - d, 0));
        float len = (float)(3.4641 * major), wid = (float)(3.4641 * minor);
        if (getenv("DF_DEBUG") && len > 30)
            fprintf(stderr, "blob %.0f,%.0f len %.1f wid %.1f area %d\n", b->cx, b->cy, len, wid, b->area);
        /* a bar: long, straight, black; the seam between two tiles is as
         * long but a hairline, and grey */
        if (len < min_len || len > max_len || wid < 1.0f || len < 5.5f * wid ||
            len > 14 * wid || b->area < 0.55f * len * wid || ink / b->area > bright * 0.45)
            continue;
        double ang = 0.5 * atan2(2 * sxy, sxx - syy);
        float ux = (float)cos(ang), uy = (float)sin(ang);
        float vx = -uy, vy = ux;
        float T = len / BAR_RATIO;
        /* both sides of the bar, close to it, are clean paper on a tile */
        int ok = 0, tried = 0;
        static const float along[6] = {-0.33f, -0.24f, -0.12f, 0.12f, 0.24f, 0.33f};
        for (int s = -1; s <= 1; s += 2)
            for (int k = 0; k < 6; k++) {
                float a = along[k] * T, o = s * (0.025f * T + wid / 2 + 1);
                ok += is_paper(frame, b->cx + a * ux + o * vx, b->cy + a * uy + o * vy, paper_t);
                tried++;
            }
        if (getenv("DF_DEBUG"))
            fprintf(stderr, "  bar %.0f,%.0f paper %d/%d\n", b->cx, b->cy, ok, tried);
        if (ok < tried * 2 / 3)
            continue;
        bars[nbars++] = (bar){b->cx, b->cy, ux, uy, len, (float)ok / tried};
    }
    if (nbars == 0)
        return 0;
    float lens[MAX_BARS];
    for (int i = 0; i < nbars; i++)
        lens[i] = bars[i].len;
    qsort(lens, (size_t)nbars, sizeof lens[0], by_float);
    float med = lens[nbars / 2];
    for (int i = 0; i < nbars; i++) /* the frame's usual bar first */
        bars[i].score *= expf(-4 * fabsf(bars[i].len / med - 1));
    qsort(bars, (size_t)nbars, sizeof bars[0], by_score);
    int k = 0;
    for (int i = 0; i < nbars && k < max; i++) {
        const bar *b = &bars[i];
        float len = fabsf(b->len / med - 1) < 0.2f ? med : b->len;
        float T = len / BAR_RATIO;
        float ux = b->ux * T / 2, uy = b->uy * T / 2; /* half the short side */
        float vx = -b->uy * T, vy = b->ux * T;        /* half the long side */
        ts_quad *q = &out[k++];
        q->q[0] = (ts_pt){b->cx - ux - vx, b->cy - uy - vy};
        q->q[1] = (ts_pt){b->cx + ux - vx, b->cy + uy - vy};
        q->q[2] = (ts_pt){b->cx + ux + vx, b->cy + uy + vy};
        q->q[3] = (ts_pt){b->cx - ux + vx, b->cy - uy + vy};
        q->score = b->score;
        q->area = 2 * T * T;
    }
    return k;
}
