/* Finding western domino tiles by their middle bar (see domino_find.h). */
#include "readers/domino_find.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvwrap.h"
#include "median.h"

enum { MAX_DARK = 8192, MAX_BARS = 256 };

/* Bar length / tile width, measured on the double-six photos' tiles. */
static const float BAR_RATIO = 0.78f;

struct domino_finder {
    ts_image grey, inv, bin, open, thin;
    int *labels;
    int nlabels;
    tscv_blob *blobs;
};

typedef struct {
    float cx, cy; /* centre */
    float ux, uy; /* unit vector along the bar */
    float len;    /* length (px) */
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
    ts_image_free(&f->open);
    ts_image_free(&f->thin);
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
        if (p[c] > mx)
            mx = p[c];
        if (p[c] < mn)
            mn = p[c];
    }
    return (p[0] + 2 * p[1] + p[2]) / 4 >= t && mx - mn < mx * 45 / 100 + 10;
}

static int by_score(const void *a, const void *b)
{
    float sa = ((const bar *)a)->score, sb = ((const bar *)b)->score;
    return (sa < sb) - (sa > sb);
}

/* Work size: the long side the search runs at (tiles ~40 px wide on the
 * photos; bars stay 3 px thick). */
enum { WORK_SIDE = 700 };

/* grey (B + 2G + R) / 4 of frame, k x k pixels averaged into each of dst's. */
static void shrink_grey(const ts_image *frame, int k, ts_image *dst)
{
    for (int y = 0; y < dst->h; y++) {
        uint8_t *o = ts_image_row(dst, y);
        if (k == 1) {
            const uint8_t *p = ts_image_row(frame, y);
            for (int x = 0; x < dst->w; x++, p += 3)
                o[x] = (uint8_t)((p[0] + 2 * p[1] + p[2]) >> 2);
            continue;
        }
        if (k == 2) { /* the photos' case: unrolled */
            const uint8_t *a = ts_image_row(frame, 2 * y), *b = ts_image_row(frame, 2 * y + 1);
            for (int x = 0; x < dst->w; x++, a += 6, b += 6) {
                unsigned sum = a[0] + 2u * a[1] + a[2] + a[3] + 2u * a[4] + a[5] + b[0] +
                               2u * b[1] + b[2] + b[3] + 2u * b[4] + b[5];
                o[x] = (uint8_t)(sum / 16u);
            }
            continue;
        }
        for (int x = 0; x < dst->w; x++) {
            unsigned sum = 0;
            for (int j = 0; j < k; j++) {
                const uint8_t *p = ts_image_row(frame, y * k + j) + (size_t)x * k * 3;
                for (int i = 0; i < k; i++, p += 3)
                    sum += p[0] + 2u * p[1] + p[2];
            }
            o[x] = (uint8_t)(sum / (4u * k * k));
        }
    }
}

/* Bars among the dark blobs of bin (work image coordinates), appended to
 * bars[*n]; a bar near one already listed is skipped. */
static int collect_bars(domino_finder *f, const ts_image *frame, int step, const ts_image *bin,
                        int bright, bar *bars, int *nbars, float *wids, char *err)
{
    const int w = bin->w, h = bin->h;
    int n = tscv_components(bin, f->labels, f->blobs, MAX_DARK, err);
    if (n < 0)
        return -1;
    int side = w > h ? w : h, paper_t = bright * 62 / 100;
    float min_len = side / 100.0f, max_len = side / 4.0f;
    for (int i = 0; i < n && *nbars < MAX_BARS; i++) {
        const tscv_blob *b = &f->blobs[i];
        int bl = b->w > b->h ? b->w : b->h;
        if (b->area < 8 || bl < min_len * 0.7f || bl > max_len * 1.2f)
            continue;
        /* second moments and darkness over the blob's own pixels */
        double sxx = 0, syy = 0, sxy = 0, ink = 0;
        for (int y = b->y; y < b->y + b->h; y++) {
            const int *lab = f->labels + (size_t)y * (size_t)w;
            const uint8_t *g = ts_image_row(&f->grey, y);
            for (int x = b->x; x < b->x + b->w; x++)
                if (lab[x] == i + 1) {
                    double dx = x - b->cx, dy = y - b->cy;
                    sxx += dx * dx;
                    syy += dy * dy;
                    sxy += dx * dy;
                    ink += g[x];
                }
        }
        sxx /= b->area;
        syy /= b->area;
        sxy /= b->area;
        double t = (sxx + syy) / 2, d = sqrt((sxx - syy) * (sxx - syy) / 4 + sxy * sxy);
        double major = sqrt(fmax(t + d, 0)), minor = sqrt(fmax(t - d, 0));
        float len = (float)(3.4641 * major), wid = (float)(3.4641 * minor);
        /* a bar: long, straight, black; the seam between two tiles is as
         * long but a hairline, and grey */
        if (len < min_len || len > max_len || wid < 0.8f || len < 5.5f * wid || len > 16 * wid ||
            b->area < 0.55f * len * wid || ink / b->area > bright * 0.45)
            continue;
        int dup = 0;
        for (int j = 0; j < *nbars && !dup; j++)
            dup = hypotf(bars[j].cx - b->cx, bars[j].cy - b->cy) < 0.3f * len;
        if (dup)
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
                float a = along[k] * T, o = s * (0.025f * T + wid / 2 + 0.7f);
                float x = b->cx + a * ux + o * vx, y = b->cy + a * uy + o * vy;
                ok += is_paper(frame, (x + 0.5f) * step - 0.5f, (y + 0.5f) * step - 0.5f, paper_t);
                tried++;
            }
        if (ok < tried * 2 / 3)
            continue;
        /* past both ends of a bar is still its tile; past the ends of the
         * seam between two tiles laid end to end is the table (the rounded
         * corners open the gap there): such candidates go last */
        int ends = 0;
        for (int s = -1; s <= 1; s += 2)
            for (int j = 0; j < 2; j++) {
                float a = s * (len * (0.54f + 0.04f * j) + 1);
                float x = b->cx + a * ux, y = b->cy + a * uy;
                ends +=
                    is_paper(frame, (x + 0.5f) * step - 0.5f, (y + 0.5f) * step - 0.5f, paper_t);
            }

        wids[*nbars] = wid;
        bars[(*nbars)++] = (bar){b->cx, b->cy, ux, uy, len, (float)ok / tried * (1 + ends) / 5};
    }
    return 0;
}

int domino_find_tiles(domino_finder *f, const ts_image *frame, ts_quad *out, int max, char *err)
{
    int side = frame->w > frame->h ? frame->w : frame->h;
    int k = (side + WORK_SIDE / 2) / WORK_SIDE; /* whole pixels per work pixel */
    if (k < 1)
        k = 1;
    int w = frame->w / k, h = frame->h / k;
    float s = 1.0f / k;
    if (w < 16 || h < 16)
        return 0;
    if (frame->channels != 3) /* paper is told from the table by colour */
        return 0;
    if (scratch(&f->grey, w, h) < 0 || scratch(&f->inv, w, h) < 0 || scratch(&f->bin, w, h) < 0 ||
        scratch(&f->open, w, h) < 0 || scratch(&f->thin, w, h) < 0) {
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
    shrink_grey(frame, k, &f->grey);
    /* paper brightness: a high percentile of the frame (tiles are its lightest part) */
    int hist[256] = {0}, samples = 0;
    for (int y = 0; y < h; y += 2) {
        const uint8_t *g = ts_image_row(&f->grey, y);
        for (int x = 0; x < w; x += 2, samples++)
            hist[g[x]]++;
    }
    int bright = 255;
    for (int acc = 0; bright > 0; bright--)
        if ((acc += hist[bright]) > samples / 50)
            break;
    for (int y = 0; y < h; y++) {
        const uint8_t *g = ts_image_row(&f->grey, y);
        uint8_t *o = ts_image_row(&f->inv, y);
        for (int x = 0; x < w; x++)
            o[x] = (uint8_t)(255 - g[x]);
    }
    int block = (w > h ? w : h) / 40 | 1;
    if (block < 11)
        block = 11;
    if (tscv_adaptive(&f->inv, &f->bin, block, 22, err) < 0)
        return -1;
    bar bars[MAX_BARS];
    float wids[MAX_BARS];
    int nbars = 0;
    if (collect_bars(f, frame, k, &f->bin, bright, bars, &nbars, wids, err) < 0)
        return -1;
    /* bars that touch a pip: open the dark mask with a disc wider than a
     * bar (pips survive, bars go) and look again in what the opening took */
    float wmed = 3;
    if (nbars) {
        float tmp[MAX_BARS];
        memcpy(tmp, wids, sizeof(float) * (size_t)nbars);
        ts_sort_floats(tmp, (size_t)nbars);
        wmed = tmp[nbars / 2];
    }
    int r = (int)ceilf(wmed / 2);
    if (tscv_morph(&f->bin, &f->open, 'o', r < 1 ? 1 : r, err) < 0)
        return -1;
    for (int y = 0; y < h; y++) {
        const uint8_t *a = ts_image_row(&f->bin, y), *o = ts_image_row(&f->open, y);
        uint8_t *t = ts_image_row(&f->thin, y);
        for (int x = 0; x < w; x++)
            t[x] = a[x] & (uint8_t)~o[x];
    }
    if (collect_bars(f, frame, k, &f->thin, bright, bars, &nbars, wids, err) < 0)
        return -1;
    if (nbars == 0)
        return 0;
    float lens[MAX_BARS];
    for (int i = 0; i < nbars; i++)
        lens[i] = bars[i].len;
    ts_sort_floats(lens, (size_t)nbars);
    float med = lens[nbars / 2];
    for (int i = 0; i < nbars; i++) /* the frame's usual bar first */
        bars[i].score *= expf(-4 * fabsf(bars[i].len / med - 1));
    qsort(bars, (size_t)nbars, sizeof bars[0], by_score);
    int nout = 0;
    float inv_s = 1 / s;
    int paper_t = bright * 62 / 100;
    for (int i = 0; i < nbars && nout < max; i++) {
        const bar *b = &bars[i];
        float len = (fabsf(b->len / med - 1) < 0.2f ? med : b->len) * inv_s;
        float T = len / BAR_RATIO; /* expected short side, frame pixels */
        float cx = (b->cx + 0.5f) * inv_s - 0.5f, cy = (b->cy + 0.5f) * inv_s - 0.5f;
        float ux = b->ux, uy = b->uy, vx = -b->uy, vy = b->ux;
        /* the tile's sides where the paper ends, along pip-free lines: just
         * beside the bar (short sides) and through the bar's middle past
         * the pips (long ends); a side not found keeps the expected place */
        float e[4]; /* -u, +u, -v, +v: distance from the bar's centre */
        for (int side = 0; side < 4; side++) {
            int along_u = side < 2;
            float sg = side & 1 ? 1.0f : -1.0f;
            float want = along_u ? T / 2 : T, from = along_u ? len / 2 : 0.9f * T;
            float to = along_u ? 0.65f * T : 1.2f * T;
            float found[3];
            int nf = 0;
            for (int line = -1; line <= 1; line++) {
                float off = along_u ? line * 0.04f * T : line * 0.15f * T;
                if (along_u && line == 0)
                    continue; /* the bar itself */
                for (float d = from; d <= to; d += 1) {
                    float x, y;
                    if (along_u) {
                        x = cx + sg * d * ux + off * vx;
                        y = cy + sg * d * uy + off * vy;
                    } else {
                        x = cx + sg * d * vx + off * ux;
                        y = cy + sg * d * vy + off * uy;
                    }
                    if (!is_paper(frame, x, y, paper_t)) {
                        if (d > from + 1)
                            found[nf++] = d;
                        break;
                    }
                }
            }
            e[side] = want;
            if (nf == 2)
                e[side] = (found[0] + found[1]) / 2;
            else if (nf == 3) {
                float a = found[0], m = found[1], c = found[2];
                e[side] = a > m ? (m > c ? m : a > c ? c : a) : (a > c ? a : m > c ? c : m);
            }
        }
        /* one side lost in a neighbour: mirror the other */
        float hu = (e[0] + e[1]) / 2, hv = (e[2] + e[3]) / 2;
        if (fabsf(e[0] - e[1]) > 0.12f * T)
            hu = fminf(e[0], e[1]);
        if (fabsf(e[2] - e[3]) > 0.12f * T)
            hv = fminf(e[2], e[3]);
        float mu = (e[1] - e[0]) / 2 * (fabsf(e[0] - e[1]) <= 0.12f * T);
        float mv = (e[3] - e[2]) / 2 * (fabsf(e[2] - e[3]) <= 0.12f * T);
        cx += mu * ux + mv * vx;
        cy += mu * uy + mv * vy;
        ts_quad *q = &out[nout++];
        q->q[0] = (ts_pt){cx - hu * ux - hv * vx, cy - hu * uy - hv * vy};
        q->q[1] = (ts_pt){cx + hu * ux - hv * vx, cy + hu * uy - hv * vy};
        q->q[2] = (ts_pt){cx + hu * ux + hv * vx, cy + hu * uy + hv * vy};
        q->q[3] = (ts_pt){cx - hu * ux + hv * vx, cy - hu * uy + hv * vy};
        q->score = b->score;
        q->area = 4 * hu * hv;
    }
    return nout;
}
