/* Gang of Four candidates (see gof_find.h). */
#include "readers/gof_find.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cv/cvwrap.h"

enum { WORK_SIDE = 400 }; /* long side of the stock image, px */

enum { MAX_GRID = 8 }; /* rows or columns of touching cards a block may hold */

static const float CARD_ASPECT = 87.0f / 56.0f;

struct ts_gof_finder {
    ts_detector *det;
    float min_aspect, max_aspect;
    ts_image stock, bin; /* scratch, reused across frames */
};

ts_gof_finder *ts_gof_finder_create(float min_aspect, float max_aspect)
{
    ts_gof_finder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    ts_detect_params p;
    ts_detect_defaults(&p);
    p.min_aspect = min_aspect;
    p.max_aspect = max_aspect;
    p.work_size = 4 * WORK_SIDE; /* never decimate the stock image again */
    f->min_aspect = min_aspect;
    f->max_aspect = max_aspect;
    f->det = ts_detector_create(&p);
    if (!f->det) {
        free(f);
        return NULL;
    }
    return f;
}

void ts_gof_finder_destroy(ts_gof_finder *f)
{
    if (!f)
        return;
    ts_detector_destroy(f->det);
    ts_image_free(&f->stock);
    ts_image_free(&f->bin);
    free(f);
}

/* One stock score from a mean B, G, R. */
static inline int stock_score(int b, int g, int r)
{
    int rg = g < r ? g : r;
    int blue = b - (rg * 15) / 16; /* beige: blue a little under red and green */
    int s = rg - (blue > 0 ? 2 * blue : 0);
    return s < 0 ? 0 : s > 255 ? 255 : s;
}

/* Decimates frame by k into f->stock: the score of each k x k block's mean. */
static int stock_image(ts_gof_finder *f, const ts_image *frame, int k)
{
    int w = frame->w / k, h = frame->h / k;
    if (!f->stock.buf || f->stock.w != w || f->stock.h != h) {
        ts_image_free(&f->stock);
        if (ts_image_alloc(&f->stock, w, h, 1) < 0)
            return -1;
    }
    const int c = frame->channels;
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(&f->stock, y);
        for (int x = 0; x < w; x++) {
            int s[3] = {0, 0, 0};
            for (int dy = 0; dy < k; dy++) {
                const uint8_t *p = ts_image_row(frame, y * k + dy) + (size_t)x * k * c;
                for (int dx = 0; dx < k; dx++, p += c)
                    for (int ch = 0; ch < 3; ch++)
                        s[ch] += p[c == 3 ? ch : 0];
            }
            int n = k * k;
            o[x] = (uint8_t)stock_score(s[0] / n, s[1] / n, s[2] / n);
        }
    }
    return 0;
}

/* ---- Blocks of touching cards ---------------------------------------------- */

static float dist(ts_pt a, ts_pt b)
{
    return hypotf(a.x - b.x, a.y - b.y);
}

static ts_pt lerp4(const ts_pt q[4], float u, float v)
{
    ts_pt a = {q[0].x + (q[1].x - q[0].x) * u, q[0].y + (q[1].y - q[0].y) * u};
    ts_pt b = {q[3].x + (q[2].x - q[3].x) * u, q[3].y + (q[2].y - q[3].y) * u};
    return (ts_pt){a.x + (b.x - a.x) * v, a.y + (b.y - a.y) * v};
}

/* Clockwise on screen, q[0]-q[1] a short side. */
static void order(ts_pt q[4])
{
    float s = 0;
    for (int k = 0; k < 4; k++)
        s += q[k].x * q[(k + 1) % 4].y - q[(k + 1) % 4].x * q[k].y;
    if (s < 0) {
        ts_pt t = q[1];
        q[1] = q[3];
        q[3] = t;
    }
    if (dist(q[0], q[1]) + dist(q[2], q[3]) > dist(q[1], q[2]) + dist(q[3], q[0])) {
        ts_pt t = q[0];
        q[0] = q[1], q[1] = q[2], q[2] = q[3], q[3] = t;
    }
}

/* A bright blob that is a clean quadrilateral but not one card's shape may be
 * cards lying edge to edge (a row played, a grid dealt): where its sides
 * divide into whole cards, offers each cell. The reader keeps the cells whose
 * corners show an index. */
static int grid_cells(const ts_ipt *pts, int n, int k, ts_quad *out,
                      int max)
{
    double area = tscv_area(pts, n), hull = tscv_hull_area(pts, n);
    if (hull <= 0 || area / hull < 0.9)
        return 0;
    ts_ipt poly[8];
    int m = 0;
    double per = tscv_perimeter(pts, n);
    for (double eps = 0.01; eps < 0.08 && m != 4; eps += 0.01)
        m = tscv_approx(pts, n, eps * per, 1, poly, 8);
    if (m != 4)
        return 0;
    ts_pt q[4];
    for (int i = 0; i < 4; i++)
        q[i] = (ts_pt){(poly[i].x + 0.5f) * k - 0.5f, (poly[i].y + 0.5f) * k - 0.5f};
    order(q);
    float a = (dist(q[0], q[1]) + dist(q[2], q[3])) / 2; /* short side */
    float b = (dist(q[1], q[2]) + dist(q[3], q[0])) / 2;
    double qa = 0;
    for (int i = 0; i < 4; i++)
        qa += (double)q[i].x * q[(i + 1) % 4].y - (double)q[(i + 1) % 4].x * q[i].y;
    if (fabs(qa) / 2 < 0.9 * area * k * k)
        return 0; /* not a clean quadrilateral */
    int got = 0;
    for (int cols = 1; cols <= MAX_GRID; cols++)
        for (int rows = 1; rows <= MAX_GRID; rows++) {
            if (rows * cols < 2)
                continue;
            float cw = a / cols, ch = b / rows;
            float asp = cw > ch ? cw / ch : ch / cw;
            if (fabsf(asp - CARD_ASPECT) > 0.12f || got + rows * cols > max)
                continue;
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++) {
                    ts_quad *o = &out[got++];
                    o->q[0] = lerp4(q, (float)c / cols, (float)r / rows);
                    o->q[1] = lerp4(q, (float)(c + 1) / cols, (float)r / rows);
                    o->q[2] = lerp4(q, (float)(c + 1) / cols, (float)(r + 1) / rows);
                    o->q[3] = lerp4(q, (float)c / cols, (float)(r + 1) / rows);
                    order(o->q);
                    o->score = 0.5f;
                    o->area = cw * ch;
                }
        }
    return got;
}

/* A card partly under others still shows some of its corners: where the
 * outline of a bright blob turns through a right angle between two straight
 * edges, offers a card of the frame's card size lying along those edges (its
 * long side along either). side = the card's short side in frame pixels. */
static int corner_cards(const ts_ipt *pts, int n, int k, float side, ts_quad *out, int max)
{
    ts_ipt poly[64];
    double per = tscv_perimeter(pts, n);
    int m = tscv_approx(pts, n, 0.012 * per, 0, poly, 64);
    if (m < 4 || m >= 64)
        return 0;
    double orient = 0;
    for (int i = 0; i < m; i++)
        orient += (double)poly[i].x * poly[(i + 1) % m].y - (double)poly[(i + 1) % m].x * poly[i].y;
    int got = 0;
    float min_edge = 0.3f * side / k;
    for (int i = 0; i < m && got + 2 <= max; i++) {
        ts_ipt p = poly[(i + m - 1) % m], v = poly[i], q = poly[(i + 1) % m];
        float ax = (float)(p.x - v.x), ay = (float)(p.y - v.y);
        float bx = (float)(q.x - v.x), by = (float)(q.y - v.y);
        float la = hypotf(ax, ay), lb = hypotf(bx, by);
        if (la < min_edge || lb < min_edge)
            continue;
        float cosang = (ax * bx + ay * by) / (la * lb);
        float cross = bx * ay - by * ax; /* convex: same turn as the outline */
        if (fabsf(cosang) > 0.25f || (cross > 0) != (orient > 0))
            continue;
        ts_pt c = {(v.x + 0.5f) * k - 0.5f, (v.y + 0.5f) * k - 0.5f};
        ts_pt ea = {ax / la, ay / la}, eb = {bx / lb, by / lb};
        for (int h = 0; h < 2; h++) {
            float sa = h ? side * CARD_ASPECT : side, sb = h ? side : side * CARD_ASPECT;
            ts_quad *o = &out[got++];
            o->q[0] = c;
            o->q[1] = (ts_pt){c.x + ea.x * sa, c.y + ea.y * sa};
            o->q[2] = (ts_pt){c.x + ea.x * sa + eb.x * sb, c.y + ea.y * sa + eb.y * sb};
            o->q[3] = (ts_pt){c.x + eb.x * sb, c.y + eb.y * sb};
            order(o->q);
            o->score = 0.3f;
            o->area = sa * sb;
        }
    }
    return got;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* The short side of a card in this frame: the median over the detector's
 * candidates of a card's shape, or 0 if there are none. */
static float card_side(const ts_quad *c, int n)
{
    float s[256];
    int m = 0;
    for (int i = 0; i < n && m < 256; i++) {
        float a = (dist(c[i].q[0], c[i].q[1]) + dist(c[i].q[2], c[i].q[3])) / 2;
        float b = (dist(c[i].q[1], c[i].q[2]) + dist(c[i].q[3], c[i].q[0])) / 2;
        if (a > 0 && fabsf(b / a - CARD_ASPECT) < 0.12f)
            s[m++] = a;
    }
    if (!m)
        return 0;
    qsort(s, (size_t)m, sizeof *s, cmp_float);
    return s[m / 2];
}

static int blocks(ts_gof_finder *f, int k, float side, ts_quad *out, int max, char *err)
{
    if ((!f->bin.buf || f->bin.w != f->stock.w || f->bin.h != f->stock.h) &&
        (ts_image_free(&f->bin), ts_image_alloc(&f->bin, f->stock.w, f->stock.h, 1) < 0)) {
        snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
        return -1;
    }
    tscv_contours cs = {0};
    if (tscv_otsu(&f->stock, &f->bin, NULL, err) < 0 ||
        tscv_find_contours(&f->bin, 1, &cs, err) < 0)
        return -1;
    double min_area = 0.004 * f->stock.w * f->stock.h;
    int got = 0;
    for (int i = 0; i < cs.n && got < max; i++)
        if (tscv_area(cs.pts + cs.start[i], cs.len[i]) > 2 * min_area)
            got += grid_cells(cs.pts + cs.start[i], cs.len[i], k, out + got, max - got);
    for (int i = 0; i < cs.n && got < max && side > 0; i++)
        if (tscv_area(cs.pts + cs.start[i], cs.len[i]) > min_area)
            got += corner_cards(cs.pts + cs.start[i], cs.len[i], k, side, out + got, max - got);
    tscv_contours_free(&cs);
    return got;
}

int ts_gof_find(ts_gof_finder *f, const ts_image *frame, ts_quad *out, int max, char *err)
{
    int side = frame->w > frame->h ? frame->w : frame->h;
    int k = (side + WORK_SIDE - 1) / WORK_SIDE;
    k = k < 1 ? 1 : k;
    if (stock_image(f, frame, k) < 0) {
        snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
        return -1;
    }
    int n = ts_detect(f->det, &f->stock, out, max, err);
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) {
            out[i].q[c].x = (out[i].q[c].x + 0.5f) * k - 0.5f;
            out[i].q[c].y = (out[i].q[c].y + 0.5f) * k - 0.5f;
        }
        out[i].area *= (float)(k * k);
    }
    if (n < 0)
        return -1;
    int more = blocks(f, k, card_side(out, n), out + n, max - n, err);
    return more < 0 ? -1 : n + more;
}
