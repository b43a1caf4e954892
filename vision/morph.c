/* Elliptic morphology (see morph.h). OpenCV's ellipse of radius 1 is the
 * cross (rows -1..1: the centre, all three, the centre); of radius 2, rows
 * -2..2 span 1, 5, 5, 5, 1 pixels. So a pass is the extreme along each row
 * over 2r + 1 pixels, then down the columns over the full rows (|dy| < r)
 * and the centre pixels of rows y - r and y + r. A larger ellipse's rows
 * have a few widths more (radius 5: 1, 7, 9, 11 x 7, 9, 7... by |dy|): the
 * extreme along the rows for each width, then down the columns each row
 * offset's width (pass_wide). */
#include "morph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A row's scratch reaches PAD bytes past either end: the widest ellipse's
 * half width and the last vector step's bytes. */
enum { PAD = 16 + TS_MORPH_MAX_RADIUS };

static inline uint8_t ext(uint8_t a, uint8_t b, int is_max)
{
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

#ifdef __SSE2__
static inline __m128i vext(__m128i a, __m128i b, int is_max)
{
    return is_max ? _mm_max_epu8(a, b) : _mm_min_epu8(a, b);
}
#endif

/* o = the extreme of the n rows src down each column; full is the count
 * when no row is cut by the image's edge (a constant where r is, so that
 * loop unrolls). */
__attribute__((always_inline)) static inline void column_extreme(const uint8_t *const *src,
                                                                  int n, int full, int w,
                                                                  int is_max, uint8_t *o)
{
    int x = 0;
#ifdef __SSE2__
    if (n == full && w >= 16) {
        for (; x < w; x += 16) {
            x = x > w - 16 ? w - 16 : x; /* the last step overlaps */
            __m128i v = _mm_loadu_si128((const __m128i *)(src[0] + x));
            for (int t = 1; t < full; t++)
                v = vext(v, _mm_loadu_si128((const __m128i *)(src[t] + x)), is_max);
            _mm_storeu_si128((__m128i *)(o + x), v);
        }
    }
    for (; w >= 16 && x < w; x += 16) {
        x = x > w - 16 ? w - 16 : x;
        __m128i v = _mm_loadu_si128((const __m128i *)(src[0] + x));
        for (int t = 1; t < n; t++)
            v = vext(v, _mm_loadu_si128((const __m128i *)(src[t] + x)), is_max);
        _mm_storeu_si128((__m128i *)(o + x), v);
    }
#endif
    for (; x < w; x++) {
        uint8_t v = src[0][x];
        for (int t = 1; t < n; t++)
            v = ext(v, src[t][x], is_max);
        o[x] = v;
    }
}

/* b = one erosion (is_max 0) or dilation of a (b is not a). h: w * h bytes,
 * row: w + 2 PAD bytes of scratch. Every vector step writes bytes computed
 * from other buffers only, so the last one may overlap the one before. */
__attribute__((always_inline)) static inline void pass_k(const ts_image *a, ts_image *b, int r,
                                                          int is_max, uint8_t *h, uint8_t *row)
{
    const int w = a->w, ht = a->h;
    const uint8_t neutral = is_max ? 0 : 255;
    uint8_t *line = row + PAD;
    memset(row, neutral, PAD);
    memset(line + w, neutral, PAD);
    for (int y = 0; y < ht; y++) { /* along the rows */
        memcpy(line, ts_image_row(a, y), (size_t)w);
        uint8_t *o = h + (size_t)y * (size_t)w;
        int x = 0;
#ifdef __SSE2__
        for (; w >= 16 && x < w; x += 16) {
            x = x > w - 16 ? w - 16 : x; /* the last step overlaps */
            __m128i v = _mm_loadu_si128((const __m128i *)(line + x - r));
            for (int k = -r + 1; k <= r; k++)
                v = vext(v, _mm_loadu_si128((const __m128i *)(line + x + k)), is_max);
            _mm_storeu_si128((__m128i *)(o + x), v);
        }
#endif
        for (; x < w; x++) {
            uint8_t v = line[x - r];
            for (int k = -r + 1; k <= r; k++)
                v = ext(v, line[x + k], is_max);
            o[x] = v;
        }
    }
    for (int y = 0; y < ht; y++) { /* down the columns */
        const uint8_t *rows[2 * 2 + 1];
        int n = 0;
        for (int dy = -(r - 1); dy <= r - 1; dy++)
            if (y + dy >= 0 && y + dy < ht)
                rows[n++] = h + (size_t)(y + dy) * (size_t)w;
        if (y - r >= 0)
            rows[n++] = ts_image_row(a, y - r);
        if (y + r < ht)
            rows[n++] = ts_image_row(a, y + r);
        column_extreme(rows, n, 2 * r + 1, w, is_max, ts_image_row(b, y));
    }
}

/* pass_k with r and is_max constants, so its loops unroll and its
 * extremes are single instructions. */
static void pass(const ts_image *a, ts_image *b, int r, int is_max, uint8_t *h, uint8_t *row)
{
    if (r == 1)
        is_max ? pass_k(a, b, 1, 1, h, row) : pass_k(a, b, 1, 0, h, row);
    else
        is_max ? pass_k(a, b, 2, 1, h, row) : pass_k(a, b, 2, 0, h, row);
}

/* The half widths of OpenCV's ellipse of radius r, by |dy| (its
 * getStructuringElement's arithmetic). */
static void ellipse_half(int r, int half[TS_MORPH_MAX_RADIUS + 1])
{
    const double inv_r2 = 1.0 / ((double)r * r);
    for (int dy = 0; dy <= r; dy++)
        half[dy] = (int)lrint(r * sqrt((r * r - dy * dy) * inv_r2));
}

/* o[x] = the extreme of in[x - k .. x + k] for x < w, from in's row padded
 * with neutral bytes (PAD of them each side); or, when prev (padded the same)
 * holds the extremes over half width j with k - j <= (j + 1) / 2 (and the
 * row at least 2 (k - j) long), of prev[x - (k - j)] and prev[x + (k - j)]:
 * the two spans cover x - k .. x + k, and where one lies beyond the row's
 * start or end the other covers what of the span lies in it. */
__attribute__((always_inline)) static inline void row_extreme(const uint8_t *in,
                                                               const uint8_t *prev, int j, int k,
                                                               int w, int is_max, uint8_t *o)
{
    const int d = k - j, inc = prev && 2 * d <= j + 1 && w >= 2 * d; /* not both beyond */
    int x = 0;
#ifdef __SSE2__
    for (; w >= 16 && x < w; x += 16) {
        x = x > w - 16 ? w - 16 : x; /* the last step overlaps */
        __m128i v;
        if (inc) {
            v = vext(_mm_loadu_si128((const __m128i *)(prev + x - d)),
                     _mm_loadu_si128((const __m128i *)(prev + x + d)), is_max);
        } else {
            v = _mm_loadu_si128((const __m128i *)(in + x - k));
            for (int t = -k + 1; t <= k; t++)
                v = vext(v, _mm_loadu_si128((const __m128i *)(in + x + t)), is_max);
        }
        _mm_storeu_si128((__m128i *)(o + x), v);
    }
#endif
    for (; x < w; x++) {
        uint8_t v;
        if (inc) {
            v = ext(prev[x - d], prev[x + d], is_max);
        } else {
            v = in[x - k];
            for (int t = -k + 1; t <= k; t++)
                v = ext(v, in[x + t], is_max);
        }
        o[x] = v;
    }
}

/* b = one erosion (is_max 0) or dilation of a (b is not a) with the ellipse
 * of radius r (3 .. TS_MORPH_MAX_RADIUS; used from TS_MORPH_WIDE). ext: one
 * w * h image per distinct half width above 0; rows: r + 1 padded rows of
 * w + 2 PAD bytes. */
__attribute__((always_inline)) static inline void pass_wide_k(const ts_image *a, ts_image *b,
                                                               int r, int is_max,
                                                               uint8_t *ext_img, uint8_t *rows)
{
    const int w = a->w, ht = a->h;
    const size_t stride = (size_t)w + 2 * PAD, plane = (size_t)w * (size_t)ht;
    int half[TS_MORPH_MAX_RADIUS + 1], plane_of[TS_MORPH_MAX_RADIUS + 1], nplane = 0;
    ellipse_half(r, half);
    /* widths from the widest row (dy = 0) down: each distinct one a plane */
    for (int k = 0; k <= r; k++)
        plane_of[k] = -1;
    for (int dy = 0; dy <= r; dy++)
        if (half[dy] > 0 && plane_of[half[dy]] < 0)
            plane_of[half[dy]] = nplane++;
    memset(rows, is_max ? 0 : 255, stride * (size_t)(r + 1));
    for (int y = 0; y < ht; y++) { /* along the rows: each width from the last narrower one */
        uint8_t *line = rows + PAD;
        memcpy(line, ts_image_row(a, y), (size_t)w);
        int j = 0;
        for (int k = 1; k <= r; k++) {
            if (plane_of[k] < 0)
                continue;
            uint8_t *row_k = rows + stride * (size_t)k + PAD;
            row_extreme(line, j ? rows + stride * (size_t)j + PAD : NULL, j, k, w, is_max, row_k);
            memcpy(ext_img + plane * (size_t)plane_of[k] + (size_t)y * (size_t)w, row_k,
                   (size_t)w);
            j = k;
        }
    }
    for (int y = 0; y < ht; y++) { /* down the columns: row y + dy's width */
        const uint8_t *src[2 * TS_MORPH_MAX_RADIUS + 1];
        int n = 0;
        for (int dy = -r; dy <= r; dy++) {
            int yy = y + dy, k = half[dy < 0 ? -dy : dy];
            if (yy < 0 || yy >= ht)
                continue;
            src[n++] = k ? ext_img + plane * (size_t)plane_of[k] + (size_t)yy * (size_t)w
                         : ts_image_row(a, yy);
        }
        column_extreme(src, n, 2 * r + 1, w, is_max, ts_image_row(b, y));
    }
}

/* pass_wide_k with is_max a constant, so its extremes are single
 * instructions, and for the radii the readers use (5 to 8) r one too, so
 * its loops over the ellipse's rows unroll. */
static void pass_wide(const ts_image *a, ts_image *b, int r, int is_max, uint8_t *ext_img,
                      uint8_t *rows)
{
#define WIDE(R)                                                                                    \
    (is_max ? pass_wide_k(a, b, R, 1, ext_img, rows) : pass_wide_k(a, b, R, 0, ext_img, rows))
    switch (r) {
    case 5: WIDE(5); break;
    case 6: WIDE(6); break;
    case 7: WIDE(7); break;
    case 8: WIDE(8); break;
    default: WIDE(r); break;
    }
#undef WIDE
}

/* One erosion or dilation: the two smallest ellipses by pass, the rest by
 * pass_wide. */
static void one_pass(const ts_image *a, ts_image *b, int r, int is_max, uint8_t *h, uint8_t *row)
{
    if (r <= 2)
        pass(a, b, r, is_max, h, row);
    else
        pass_wide(a, b, r, is_max, h, row);
}

int ts_morph_ellipse(const ts_image *src, ts_image *dst, char op, int radius)
{
    if (src->channels != 1 || dst->channels != 1 || radius < 1 ||
        (radius > 2 && radius < TS_MORPH_WIDE) || radius > TS_MORPH_MAX_RADIUS || src->w < 1 ||
        src->h < 1 || dst->w != src->w || dst->h != src->h ||
        !(op == 'e' || op == 'd' || op == 'o' || op == 'c'))
        return -1;
    const int w = src->w, h = src->h;
    const size_t plane = (size_t)w * (size_t)h, stride = (size_t)w + 2 * PAD;
    /* the rows' extremes (one plane per width: at most radius), a row of
     * scratch per width, and the image between passes */
    const int nplane = radius <= 2 ? 1 : radius;
    uint8_t *mem = malloc(plane * (size_t)(nplane + 1) + stride * (size_t)(radius + 1));
    if (!mem)
        return -1;
    ts_image mid = {w, h, w, 1, mem + plane * (size_t)nplane};
    uint8_t *hbuf = mem, *row = mem + plane * (size_t)(nplane + 1);
    if (op == 'e' || op == 'd') { /* through mid: dst may be src */
        one_pass(src, &mid, radius, op == 'd', hbuf, row);
        for (int y = 0; y < h; y++)
            memcpy(ts_image_row(dst, y), ts_image_row(&mid, y), (size_t)w);
    } else { /* opening: erode, then dilate; closing the other way round */
        one_pass(src, &mid, radius, op == 'c', hbuf, row);
        one_pass(&mid, dst, radius, op == 'o', hbuf, row);
    }
    free(mem);
    return 0;
}
