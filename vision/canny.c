/* Canny's edges, OpenCV's bytes (see canny.h). */
#include "canny.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* OpenCV's sector bounds: tan 22.5 degrees in 15-bit fixed point */
enum { SHIFT = 15, TG22 = 13573 };

/* Map values while thinning, as OpenCV's: a possible edge pixel, none, an
 * edge (joined to a pixel above hi). */
enum { WEAK = 0, NONE = 1, EDGE = 2 };

typedef struct {
    uint32_t *at; /* (y << 16) | x of edge pixels whose neighbours are still to be joined */
    size_t n, cap;
} pixel_stack;

static int push(pixel_stack *s, int x, int y)
{
    if (s->n == s->cap) {
        size_t cap = s->cap * 2;
        uint32_t *at = realloc(s->at, sizeof *at * cap);
        if (!at)
            return -1;
        s->at = at;
        s->cap = cap;
    }
    s->at[s->n++] = (uint32_t)y << 16 | (uint32_t)x;
    return 0;
}

/* Row y's Sobel gradients, borders replicated: the column sums a + 2b + c
 * and c - a (vs, vd, one column repeated at either end), then across. */
static void sobel_row(const ts_image *src, int y, int16_t *vs, int16_t *vd, int16_t *dx,
                      int16_t *dy)
{
    const int w = src->w, h = src->h;
    const uint8_t *a = ts_image_row(src, y > 0 ? y - 1 : 0), *b = ts_image_row(src, y);
    const uint8_t *c = ts_image_row(src, y < h - 1 ? y + 1 : h - 1);
    for (int x = 0; x < w; x++) {
        vs[x + 1] = (int16_t)(a[x] + 2 * b[x] + c[x]);
        vd[x + 1] = (int16_t)(c[x] - a[x]);
    }
    vs[0] = vs[1], vs[w + 1] = vs[w];
    vd[0] = vd[1], vd[w + 1] = vd[w];
    for (int x = 0; x < w; x++) {
        dx[x] = (int16_t)(vs[x + 2] - vs[x]);
        dy[x] = (int16_t)(vd[x] + 2 * vd[x + 1] + vd[x + 2]);
    }
}

/* m[x] = the squared gradient length (m[-1] and m[w] stay 0) */
static void magnitude_row(const int16_t *dx, const int16_t *dy, int w, int32_t *m)
{
    for (int x = 0; x < w; x++)
        m[x] = (int32_t)dx[x] * dx[x] + (int32_t)dy[x] * dy[x];
}

/* Whether pixel j of row a (rows p above, n below) is a local maximum
 * across its gradient, in OpenCV's sectors and tie rules. */
static inline int thin_keeps(const int32_t *p, const int32_t *a, const int32_t *n, int j, int xs,
                             int ys)
{
    const int m = a[j], x = abs(xs), y = abs(ys) << SHIFT, tg22x = x * TG22;
    if (y < tg22x)
        return m > a[j - 1] && m >= a[j + 1];
    if (y > tg22x + (x << (SHIFT + 1)))
        return m > p[j] && m >= n[j];
    const int s = (xs ^ ys) < 0 ? -1 : 1;
    return m > p[j - s] && m > n[j + s];
}

/* Pixel j of map row y (out): NONE where the gradient is low or not a
 * maximum, else WEAK, or EDGE (pushed) above high. */
static inline int thin_pixel(const int32_t *p, const int32_t *a, const int32_t *n,
                             const int16_t *dx, const int16_t *dy, int j, int y, int low, int high,
                             uint8_t *out, pixel_stack *s)
{
    const int m = a[j];
    uint8_t v = NONE;
    if (m > low && thin_keeps(p, a, n, j, dx[j], dy[j])) {
        v = m > high ? EDGE : WEAK;
        if (v == EDGE && push(s, j, y) < 0)
            return -1;
    }
    out[j] = v;
    return 0;
}

/* Map row y, four pixels a step: a step whose lengths are all at most low
 * (most of a table) is NONE at once. */
static int thin_row(const int32_t *p, const int32_t *a, const int32_t *n, const int16_t *dx,
                    const int16_t *dy, int w, int y, int low, int high, uint8_t *out,
                    pixel_stack *s)
{
    int j = 0;
#ifdef __SSE2__
    const __m128i lv = _mm_set1_epi32(low);
    for (; j + 4 <= w; j += 4) {
        if (!_mm_movemask_epi8(_mm_cmpgt_epi32(_mm_loadu_si128((const __m128i *)(a + j)), lv))) {
            memset(out + j, NONE, 4);
            continue;
        }
        for (int k = j; k < j + 4; k++)
            if (thin_pixel(p, a, n, dx, dy, k, y, low, high, out, s) < 0)
                return -1;
    }
#endif
    for (; j < w; j++)
        if (thin_pixel(p, a, n, dx, dy, j, y, low, high, out, s) < 0)
            return -1;
    return 0;
}

/* Joins every WEAK pixel touching an EDGE one (eight ways) to the edges. */
static int join_edges(ts_image *map, pixel_stack *s)
{
    const int w = map->w, h = map->h;
    while (s->n) {
        const uint32_t at = s->at[--s->n];
        const int x = (int)(at & 0xffff), y = (int)(at >> 16);
        for (int v = y - 1; v <= y + 1; v++) {
            if (v < 0 || v >= h)
                continue;
            uint8_t *r = ts_image_row(map, v);
            for (int u = x - 1; u <= x + 1; u++)
                if (u >= 0 && u < w && r[u] == WEAK) {
                    r[u] = EDGE;
                    if (push(s, u, v) < 0)
                        return -1;
                }
        }
    }
    return 0;
}

/* OpenCV's integer thresholds on the squared length: the pair in order,
 * each at most 32767 before squaring, floored. */
static void thresholds(double lo, double hi, int *low, int *high)
{
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    lo = lo < 32767.0 ? lo : 32767.0;
    hi = hi < 32767.0 ? hi : 32767.0;
    if (lo > 0)
        lo *= lo;
    if (hi > 0)
        hi *= hi;
    *low = (int)floor(lo);
    *high = (int)floor(hi);
}

static int overlap(const ts_image *a, const ts_image *b)
{
    const uint8_t *a1 = ts_image_row(a, a->h - 1) + a->w, *b1 = ts_image_row(b, b->h - 1) + b->w;
    return a->buf < b1 && b->buf < a1;
}

int ts_canny(const ts_image *src, ts_image *dst, double lo, double hi)
{
    const int w = src->w, h = src->h;
    if (src->channels != 1 || dst->channels != 1 || dst->w != w || dst->h != h || w < 1 ||
        h < 1 || w > 0xffff || h > 0xffff || !dst->buf || overlap(src, dst))
        return 1;
    int low, high;
    thresholds(lo, hi, &low, &high);
    /* three rows of gradients and of lengths (one zero on either side) */
    const size_t ws = (size_t)w + 2;
    int16_t *grad = malloc(sizeof *grad * ws * 8);
    int32_t *len = calloc(ws * 4, sizeof *len);
    pixel_stack s = {malloc(sizeof *s.at * 1024), 0, 1024};
    if (!grad || !len || !s.at) {
        free(grad);
        free(len);
        free(s.at);
        return -1;
    }
    int16_t *vs = grad, *vd = grad + ws, *dx[3], *dy[3];
    int32_t *m[3] = {len + 1, len + ws + 1, len + 2 * ws + 1};
    const int32_t *zero = len + 3 * ws + 1; /* the rows beyond the image */
    for (int k = 0; k < 3; k++) {
        dx[k] = grad + (size_t)(2 + 2 * k) * ws;
        dy[k] = dx[k] + ws;
    }
    int rc = 0;
    for (int y = 0; y <= h && rc == 0; y++) {
        if (y < h) { /* row y's gradients, a row ahead of the thinning */
            sobel_row(src, y, vs, vd, dx[y % 3], dy[y % 3]);
            magnitude_row(dx[y % 3], dy[y % 3], w, m[y % 3]);
        }
        if (y == 0)
            continue;
        const int r = y - 1; /* thinned with rows r - 1 and r + 1 */
        const int32_t *p = r > 0 ? m[(r + 2) % 3] : zero, *n = y < h ? m[y % 3] : zero;
        rc = thin_row(p, m[r % 3], n, dx[r % 3], dy[r % 3], w, r, low, high,
                      ts_image_row(dst, r), &s);
    }
    if (rc == 0)
        rc = join_edges(dst, &s);
    if (rc == 0)
        for (int y = 0; y < h; y++) {
            uint8_t *o = ts_image_row(dst, y);
            for (int x = 0; x < w; x++)
                o[x] = o[x] == EDGE ? 255 : 0;
        }
    free(grad);
    free(len);
    free(s.at);
    return rc;
}
