/* The Qwirkle tiles' own finder: black square tiles lying edge to edge on a
 * light board, so the shared detector (bright cards, one blob per card) has
 * nothing to hold on to. A tile here is a symbol inside black:
 *
 *  1. dark = lightness (2*max - min, so deep green ink is not dark) below a
 *     fraction of the frame's bright level; a small closing seals the thin
 *     black rim between a symbol's tip and the tile's edge.
 *  2. Symbols are the light holes of the dark mask (fragments of one star are
 *     merged); their spacing gives the tile pitch, the black around each one
 *     gives its tile's angle.
 *  3. A tile whose symbol still leaks into the board is found from its
 *     neighbours: one pitch away along the tile's axes, a square with a
 *     black rim and something light inside is a tile too.
 * Printed bonus squares and board cells are light inside a light rim, so
 * they never pass the rim test.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "median.h"
#include "readers/qwirkle.h"

enum { WORK = 1600, MAXHOLE = 16384, MAXSYM = 1024 };

typedef struct {
    float x, y, area; /* centre (work px), merged area */
    float main_area;
    float angle, side, score;
} sym;

typedef struct {
    int area, idx;
} hole;

struct qw_finder {
    ts_image small, light, dark, inv;
    int *labels;
    size_t cap;
    tscv_blob *blobs, *dblobs;
    sym *syms;
    hole *order;
};

qw_finder *qw_finder_create(void)
{
    qw_finder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->blobs = malloc(MAXHOLE * sizeof *f->blobs);
    f->dblobs = malloc(MAXHOLE * sizeof *f->dblobs);
    f->syms = malloc(MAXSYM * sizeof *f->syms);
    f->order = malloc(MAXHOLE * sizeof *f->order);
    if (!f->blobs || !f->dblobs || !f->syms || !f->order) {
        qw_finder_destroy(f);
        return NULL;
    }
    return f;
}

void qw_finder_destroy(qw_finder *f)
{
    if (!f)
        return;
    ts_image_free(&f->small);
    ts_image_free(&f->light);
    ts_image_free(&f->dark);
    ts_image_free(&f->inv);
    free(f->labels);
    free(f->blobs);
    free(f->dblobs);
    free(f->syms);
    free(f->order);
    free(f);
}

static int ensure(ts_image *img, int w, int h, int c)
{
    if (img->buf && img->w == w && img->h == h && img->channels == c)
        return 0;
    ts_image_free(img);
    return ts_image_alloc(img, w, h, c);
}

static int by_area_desc(const void *a, const void *b)
{
    const hole *x = a, *y = b;
    return x->area != y->area ? y->area - x->area : x->idx - y->idx;
}

/* The label of the dark component first met going left from (x, y). */
static int dark_left(const qw_finder *f, int x, int y)
{
    const uint8_t *d = ts_image_row(&f->dark, y);
    const int *lab = f->labels + (size_t)y * f->dark.w;
    for (int i = x; i >= 0; i--)
        if (d[i])
            return lab[i];
    return 0;
}

/* The tile's angle (mod 90 degrees) from the lightness gradients in an
 * annulus around its centre: the tile's own edges and its neighbours', not
 * the symbol's. */
static float tile_angle(const ts_image *L, float cx, float cy, float s)
{
    float r0 = 0.42f * s, r1 = 0.85f * s;
    int x0 = (int)(cx - r1), x1 = (int)(cx + r1), y0 = (int)(cy - r1), y1 = (int)(cy + r1);
    x0 = x0 < 1 ? 1 : x0;
    y0 = y0 < 1 ? 1 : y0;
    x1 = x1 > L->w - 2 ? L->w - 2 : x1;
    y1 = y1 > L->h - 2 ? L->h - 2 : y1;
    double C = 0, S = 0;
    for (int y = y0; y <= y1; y++) {
        const uint8_t *p = ts_image_row(L, y), *pu = p - L->stride, *pd = p + L->stride;
        float dy = y - cy;
        for (int x = x0; x <= x1; x++) {
            float dx = x - cx, d2 = dx * dx + dy * dy;
            if (d2 < r0 * r0 || d2 > r1 * r1)
                continue;
            float gx = (float)p[x + 1] - p[x - 1], gy = (float)pd[x] - pu[x];
            float m2 = gx * gx + gy * gy;
            if (m2 < 400)
                continue;
            /* cos/sin of 4*phi from the gradient without atan2 */
            float c2 = (gx * gx - gy * gy) / m2, s2 = 2 * gx * gy / m2;
            float c4 = c2 * c2 - s2 * s2, s4 = 2 * c2 * s2;
            float wgt = sqrtf(m2);
            C += wgt * c4;
            S += wgt * s4;
        }
    }
    if (C == 0 && S == 0)
        return 0;
    return (float)(atan2(S, C) / 4);
}

/* Samples the square of side s at (cx, cy), angle a, in the dark mask: the
 * fraction of its rim that is dark, of its inside that is light, and the
 * light pixels' centroid. */
typedef struct {
    float rim_dark, inner_light, lx, ly;
} probe;

static probe square_probe(const ts_image *dark, float cx, float cy, float a, float s)
{
    enum { N = 24 };
    probe pr = {0, 0, cx, cy};
    float ca = cosf(a), sa = sinf(a);
    int nrim = 0, drim = 0, ninner = 0, linner = 0, nl = 0;
    double sx = 0, sy = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            float u = ((i + 0.5f) / N - 0.5f), v = ((j + 0.5f) / N - 0.5f);
            float d = fmaxf(fabsf(u), fabsf(v));
            float x = cx + s * (u * ca - v * sa), y = cy + s * (u * sa + v * ca);
            int xi = (int)lrintf(x), yi = (int)lrintf(y);
            if (xi < 0 || yi < 0 || xi >= dark->w || yi >= dark->h)
                return (probe){0, 0, cx, cy};
            int dk = ts_image_row(dark, yi)[xi] != 0;
            if (d >= 0.36f && d <= 0.48f) {
                nrim++;
                drim += dk;
            } else if (d < 0.30f) {
                ninner++;
                linner += !dk;
            }
            if (d < 0.38f && !dk) {
                nl++;
                sx += x;
                sy += y;
            }
        }
    pr.rim_dark = nrim ? (float)drim / nrim : 0;
    pr.inner_light = ninner ? (float)linner / ninner : 0;
    if (nl) {
        pr.lx = (float)(sx / nl);
        pr.ly = (float)(sy / nl);
    }
    return pr;
}

int qw_find_tiles(qw_finder *f, const ts_image *frame, ts_quad *out, int max, char *err)
{
    int fw = frame->w, fh = frame->h, big = fw > fh ? fw : fh;
    float scale = big > WORK ? (float)WORK / big : 1.0f;
    const ts_image *img = frame;
    if (scale < 1) {
        int w = (int)lrintf(fw * scale), h = (int)lrintf(fh * scale);
        if (ensure(&f->small, w, h, frame->channels) < 0)
            goto oom;
        if (tscv_resize(frame, &f->small, w, h, err) < 0)
            return -1;
        img = &f->small;
    }
    int w = img->w, h = img->h;
    if (ensure(&f->light, w, h, 1) < 0 || ensure(&f->dark, w, h, 1) < 0 ||
        ensure(&f->inv, w, h, 1) < 0)
        goto oom;
    if (f->cap < (size_t)w * h) {
        free(f->labels);
        f->labels = malloc((size_t)w * h * sizeof *f->labels);
        if (!f->labels) {
            f->cap = 0;
            goto oom;
        }
        f->cap = (size_t)w * h;
    }

    /* 1. lightness, the bright level, the dark mask */
    int hist[256] = {0};
    for (int y = 0; y < h; y++) {
        const uint8_t *p = ts_image_row(img, y);
        uint8_t *l = ts_image_row(&f->light, y);
        if (img->channels == 3) {
            for (int x = 0; x < w; x++, p += 3) {
                int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
                mx = p[2] > mx ? p[2] : mx;
                mn = p[2] < mn ? p[2] : mn;
                int v = 2 * mx - mn;
                l[x] = (uint8_t)(v > 255 ? 255 : v);
                hist[l[x]]++;
            }
        } else {
            for (int x = 0; x < w; x++) {
                l[x] = p[x];
                hist[l[x]]++;
            }
        }
    }
    int acc = 0, p95 = 255;
    for (int i = 0; i < 256; i++) {
        acc += hist[i];
        if (acc >= 0.95 * w * h) {
            p95 = i;
            break;
        }
    }
    int t = (int)(0.45f * p95);
    for (int y = 0; y < h; y++) {
        const uint8_t *l = ts_image_row(&f->light, y);
        uint8_t *d = ts_image_row(&f->dark, y);
        for (int x = 0; x < w; x++)
            d[x] = l[x] < t ? 255 : 0;
    }
    int rclose = (int)lrintf(3.0f * (w > h ? w : h) / WORK);
    if (tscv_morph(&f->dark, &f->dark, 'c', rclose < 1 ? 1 : rclose, err) < 0)
        return -1;
    for (int y = 0; y < h; y++) {
        const uint8_t *d = ts_image_row(&f->dark, y);
        uint8_t *v = ts_image_row(&f->inv, y);
        for (int x = 0; x < w; x++)
            v[x] = (uint8_t)~d[x];
    }

    /* 2. holes -> symbols */
    int nb = tscv_components(&f->inv, f->labels, f->blobs, MAXHOLE, err);
    if (nb < 0)
        return -1;
    int nh = 0;
    float amax = 0.005f * w * h;
    for (int i = 0; i < nb; i++) {
        const tscv_blob *b = &f->blobs[i];
        if (b->x == 0 || b->y == 0 || b->x + b->w >= w || b->y + b->h >= h)
            continue;
        if (b->area < 6 || b->area > amax)
            continue;
        f->order[nh++] = (hole){b->area, i};
    }
    if (nh == 0)
        return 0;
    qsort(f->order, (size_t)nh, sizeof *f->order, by_area_desc);
    /* the typical symbol area: the median of the holes big enough to be
     * symbols (specks of board showing between tiles are smaller) */
    float amin = fmaxf(30.0f, 1e-4f * w * h);
    int nbig = 0;
    while (nbig < nh && f->order[nbig].area >= amin)
        nbig++;
    if (nbig == 0)
        return 0;
    float aref = (float)f->order[nbig / 2].area;
    int ns = 0;
    for (int k = 0; k < nh; k++) {
        const tscv_blob *b = &f->blobs[f->order[k].idx];
        int joined = 0;
        for (int j = 0; j < ns && !joined; j++) {
            sym *s = &f->syms[j];
            float r = 0.6f * sqrtf(s->main_area);
            float dx = b->cx - s->x, dy = b->cy - s->y;
            if (dx * dx + dy * dy < r * r) {
                s->x = (s->x * s->area + b->cx * b->area) / (s->area + b->area);
                s->y = (s->y * s->area + b->cy * b->area) / (s->area + b->area);
                s->area += b->area;
                joined = 1;
            }
        }
        if (joined || b->area < 0.25f * aref || ns >= MAXSYM)
            continue;
        f->syms[ns++] = (sym){b->cx, b->cy, (float)b->area, (float)b->area, 0, 0, 0};
    }

    /* the pitch: the area of black and holes per symbol in each dark
     * component (tiles lie edge to edge), then the spacing of neighbours
     * when enough lie at about that distance */
    int nd = tscv_components(&f->dark, f->labels, f->dblobs, MAXHOLE, err);
    if (nd < 0)
        return -1;
    float *fill = calloc((size_t)nd + 1, sizeof *fill), *nn = malloc((size_t)(ns + nd + 1) * sizeof *nn);
    int *count = calloc((size_t)nd + 1, sizeof *count);
    if (!fill || !nn || !count) {
        free(fill);
        free(nn);
        free(count);
        goto oom;
    }
    for (int i = 0; i < nd; i++)
        fill[i + 1] = (float)f->dblobs[i].area;
    for (int k = 0; k < nh; k++) {
        const tscv_blob *b = &f->blobs[f->order[k].idx];
        int c = dark_left(f, b->x, (int)b->cy);
        if (c > 0 && c <= nd)
            fill[c] += (float)b->area;
    }
    for (int i = 0; i < ns; i++) {
        int c = dark_left(f, (int)f->syms[i].x, (int)f->syms[i].y);
        if (c > 0 && c <= nd)
            count[c]++;
    }
    int nnn = 0;
    for (int c = 1; c <= nd; c++)
        if (count[c] > 0)
            nn[nnn++] = sqrtf(fill[c] / count[c]);
    float pitch = 2.0f * sqrtf(aref);
    if (nnn > 0) {
        ts_sort_floats(nn, (size_t)nnn);
        pitch = nn[nnn / 2];
    }
    float sfoot = pitch;
    nnn = 0;
    for (int i = 0; i < ns; i++) {
        float best = 1e30f;
        for (int j = 0; j < ns; j++) {
            if (j == i)
                continue;
            float dx = f->syms[i].x - f->syms[j].x, dy = f->syms[i].y - f->syms[j].y;
            float d = dx * dx + dy * dy;
            best = d < best ? d : best;
        }
        best = sqrtf(best);
        if (best > 0.85f * sfoot && best < 1.15f * sfoot)
            nn[nnn++] = best;
    }
    if (nnn >= 3) {
        ts_sort_floats(nn, (size_t)nnn);
        pitch = nn[nnn / 2];
    }
    free(fill);
    free(nn);
    free(count);

    /* 3. each symbol's tile, then tiles found from their neighbours */
    int nt = 0;
    for (int i = 0; i < ns; i++) {
        sym *s = &f->syms[i];
        s->angle = tile_angle(&f->light, s->x, s->y, pitch);
        probe pr = square_probe(&f->dark, s->x, s->y, s->angle, pitch);
        if (pr.rim_dark < 0.5f)
            continue;
        s->score = pr.rim_dark;
        f->syms[nt++] = *s;
    }
    for (int i = 0; i < nt && nt < MAXSYM; i++) {
        sym base = f->syms[i];
        float ca = cosf(base.angle), sa = sinf(base.angle);
        for (int k = 0; k < 8 && nt < MAXSYM; k++) {
            static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
            float x = base.x + pitch * (DX[k] * ca - DY[k] * sa);
            float y = base.y + pitch * (DX[k] * sa + DY[k] * ca);
            int taken = 0;
            for (int j = 0; j < nt && !taken; j++) {
                float dx = f->syms[j].x - x, dy = f->syms[j].y - y;
                taken = dx * dx + dy * dy < 0.36f * pitch * pitch;
            }
            if (taken)
                continue;
            probe pr = square_probe(&f->dark, x, y, base.angle, pitch);
            if (pr.rim_dark < 0.6f || pr.inner_light < 0.08f)
                continue;
            /* centre on its symbol, and check again there */
            float lx = pr.lx, ly = pr.ly;
            probe p2 = square_probe(&f->dark, lx, ly, base.angle, pitch);
            if (p2.rim_dark < 0.6f || p2.inner_light < 0.08f)
                continue;
            for (int j = 0; j < nt && !taken; j++) {
                float dx = f->syms[j].x - lx, dy = f->syms[j].y - ly;
                taken = dx * dx + dy * dy < 0.36f * pitch * pitch;
            }
            if (taken)
                continue;
            f->syms[nt++] = (sym){lx, ly, 0, 0, base.angle, 0, p2.rim_dark};
        }
    }

    /* a lone tile whose symbol leaks into the board has no hole and no
     * neighbour: a dark blob of about one tile, square, light inside */
    for (int c = 0; c < nd && nt < MAXSYM; c++) {
        const tscv_blob *b = &f->dblobs[c];
        if (b->w < 0.7f * pitch || b->h < 0.7f * pitch || b->w > 1.5f * pitch ||
            b->h > 1.5f * pitch || b->area < 0.3f * pitch * pitch)
            continue;
        float x = b->x + 0.5f * b->w, y = b->y + 0.5f * b->h;
        int taken = 0;
        for (int j = 0; j < nt && !taken; j++) {
            float dx = f->syms[j].x - x, dy = f->syms[j].y - y;
            taken = dx * dx + dy * dy < 0.36f * pitch * pitch;
        }
        if (taken)
            continue;
        float a = tile_angle(&f->light, x, y, pitch);
        probe pr = square_probe(&f->dark, x, y, a, pitch);
        if (pr.rim_dark < 0.6f || pr.inner_light < 0.08f)
            continue;
        probe p2 = square_probe(&f->dark, pr.lx, pr.ly, a, pitch);
        if (p2.rim_dark < 0.6f || p2.inner_light < 0.08f)
            continue;
        f->syms[nt++] = (sym){pr.lx, pr.ly, 0, 0, a, 0, p2.rim_dark};
    }

    int n = 0;
    float half = 0.5f * 0.95f * pitch;
    for (int i = 0; i < nt && n < max; i++) {
        const sym *s = &f->syms[i];
        float ca = cosf(s->angle), sa = sinf(s->angle);
        float ex = half * ca, ey = half * sa, fx = -half * sa, fy = half * ca;
        ts_quad *q = &out[n++];
        q->q[0] = (ts_pt){(s->x - ex - fx) / scale, (s->y - ey - fy) / scale};
        q->q[1] = (ts_pt){(s->x + ex - fx) / scale, (s->y + ey - fy) / scale};
        q->q[2] = (ts_pt){(s->x + ex + fx) / scale, (s->y + ey + fy) / scale};
        q->q[3] = (ts_pt){(s->x - ex + fx) / scale, (s->y - ey + fy) / scale};
        q->score = s->score;
        q->area = (2 * half / scale) * (2 * half / scale);
    }
    return n;
oom:
    if (err)
        strcpy(err, "qwirkle finder: out of memory");
    return -1;
}
