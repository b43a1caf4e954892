/* Canny's edges, OpenCV's bytes (see canny.h). */
#include "canny.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* An AVX2 thinning, chosen at run time (the build targets plain x86-64). */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define TS_CANNY_AVX2 1
#include <immintrin.h>
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

#ifdef TS_CANNY_AVX2
static inline __attribute__((target("avx2"))) __m256i load8(const int32_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

/* thin_row, eight pixels a step without branches: each pixel's three
 * sector tests against its neighbours' lengths at once, the one its
 * gradient picks kept. */
__attribute__((target("avx2"))) static int thin_row_avx2(const int32_t *p, const int32_t *a,
                                                        const int32_t *n, const int16_t *dx,
                                                        const int16_t *dy, int w, int y, int low,
                                                        int high, uint8_t *out, pixel_stack *s)
{
    const __m256i lv = _mm256_set1_epi32(low), hv = _mm256_set1_epi32(high);
    const __m256i tg = _mm256_set1_epi32(TG22), none = _mm256_set1_epi32(NONE);
    int j = 0;
    for (; j + 8 <= w; j += 8) {
        const __m256i m = load8(a + j), above = _mm256_cmpgt_epi32(m, lv);
        if (_mm256_testz_si256(above, above)) {
            memset(out + j, NONE, 8);
            continue;
        }
        const __m256i xs = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(dx + j)));
        const __m256i ys = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(dy + j)));
        const __m256i x = _mm256_abs_epi32(xs);
        const __m256i yv = _mm256_slli_epi32(_mm256_abs_epi32(ys), SHIFT);
        const __m256i t22 = _mm256_mullo_epi32(x, tg);
        const __m256i t67 = _mm256_add_epi32(t22, _mm256_slli_epi32(x, SHIFT + 1));
        const __m256i horiz = _mm256_cmpgt_epi32(t22, yv);
        const __m256i vert = _mm256_andnot_si256(horiz, _mm256_cmpgt_epi32(yv, t67));
        /* m > v, and m >= v (not v > m) */
#define GT(v) _mm256_cmpgt_epi32(m, v)
#define GE(v) _mm256_andnot_si256(_mm256_cmpgt_epi32(v, m), _mm256_set1_epi32(-1))
        const __m256i hk = _mm256_and_si256(GT(load8(a + j - 1)), GE(load8(a + j + 1)));
        const __m256i vk = _mm256_and_si256(GT(load8(p + j)), GE(load8(n + j)));
        const __m256i dpos = _mm256_and_si256(GT(load8(p + j - 1)), GT(load8(n + j + 1)));
        const __m256i dneg = _mm256_and_si256(GT(load8(p + j + 1)), GT(load8(n + j - 1)));
#undef GT
#undef GE
        const __m256i neg = _mm256_srai_epi32(_mm256_xor_si256(xs, ys), 31); /* s = -1 */
        const __m256i dk = _mm256_blendv_epi8(dpos, dneg, neg);
        const __m256i keep = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(horiz, hk), _mm256_and_si256(vert, vk)),
            _mm256_andnot_si256(_mm256_or_si256(horiz, vert), dk));
        const __m256i pass = _mm256_and_si256(above, keep);
        const __m256i edge = _mm256_and_si256(pass, _mm256_cmpgt_epi32(m, hv));
        /* NONE + pass - 2 edge: 1, WEAK 0 or EDGE 2 (masks are -1) */
        __m256i v = _mm256_sub_epi32(_mm256_add_epi32(none, pass), _mm256_add_epi32(edge, edge));
        v = _mm256_packus_epi16(_mm256_packs_epi32(v, v), v);
        const int lo = _mm256_cvtsi256_si32(v), hi = _mm256_extract_epi32(v, 4);
        memcpy(out + j, &lo, 4);
        memcpy(out + j + 4, &hi, 4);
        for (int e = _mm256_movemask_ps(_mm256_castsi256_ps(edge)); e; e &= e - 1)
            if (push(s, j + __builtin_ctz((unsigned)e), y) < 0)
                return -1;
    }
    for (; j < w; j++)
        if (thin_pixel(p, a, n, dx, dy, j, y, low, high, out, s) < 0)
            return -1;
    return 0;
}
#endif

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
    return ts_canny_v(src, dst, lo, hi, 1);
}

int ts_canny_v(const ts_image *src, ts_image *dst, double lo, double hi, int vector)
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
#ifdef TS_CANNY_AVX2
    const int avx2 = vector && __builtin_cpu_supports("avx2");
#else
#define thin_row_avx2 thin_row
    const int avx2 = 0;
    (void)vector;
#endif
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
        rc = (avx2 ? thin_row_avx2 : thin_row)(p, m[r % 3], n, dx[r % 3], dy[r % 3], w, r, low,
                                               high, ts_image_row(dst, r), &s);
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
