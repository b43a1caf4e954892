/* Small elliptic morphology (see morph.h). OpenCV's ellipse of radius 1 is
 * the cross (rows -1..1: the centre, all three, the centre); of radius 2,
 * rows -2..2 span 1, 5, 5, 5, 1 pixels. So a pass is the extreme along each
 * row over 2r + 1 pixels, then down the columns over the full rows (|dy| <
 * r) and the centre pixels of rows y - r and y + r. */
#include "morph.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { PAD = 16 };

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
        uint8_t *o = ts_image_row(b, y);
        int x = 0;
#ifdef __SSE2__
        if (n == 2 * r + 1 && w >= 16) { /* every row there: n known */
            for (; x < w; x += 16) {
                x = x > w - 16 ? w - 16 : x;
                __m128i v = _mm_loadu_si128((const __m128i *)(rows[0] + x));
                for (int k = 1; k < 2 * r + 1; k++)
                    v = vext(v, _mm_loadu_si128((const __m128i *)(rows[k] + x)), is_max);
                _mm_storeu_si128((__m128i *)(o + x), v);
            }
        }
        for (; w >= 16 && x < w; x += 16) {
            x = x > w - 16 ? w - 16 : x;
            __m128i v = _mm_loadu_si128((const __m128i *)(rows[0] + x));
            for (int k = 1; k < n; k++)
                v = vext(v, _mm_loadu_si128((const __m128i *)(rows[k] + x)), is_max);
            _mm_storeu_si128((__m128i *)(o + x), v);
        }
#endif
        for (; x < w; x++) {
            uint8_t v = rows[0][x];
            for (int k = 1; k < n; k++)
                v = ext(v, rows[k][x], is_max);
            o[x] = v;
        }
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

int ts_morph_small(const ts_image *src, ts_image *dst, char op, int radius)
{
    if (src->channels != 1 || dst->channels != 1 || (radius != 1 && radius != 2) ||
        src->w < 1 || src->h < 1 || dst->w != src->w || dst->h != src->h ||
        !(op == 'e' || op == 'd' || op == 'o' || op == 'c'))
        return -1;
    const int w = src->w, h = src->h;
    /* the rows' extremes, a row of scratch, and the image between passes */
    uint8_t *mem = malloc((size_t)w * (size_t)h * 2 + (size_t)w + 2 * PAD);
    if (!mem)
        return -1;
    ts_image mid = {w, h, w, 1, mem + (size_t)w * (size_t)h};
    uint8_t *hbuf = mem, *row = mem + (size_t)w * (size_t)h * 2;
    if (op == 'e' || op == 'd') { /* through mid: dst may be src */
        pass(src, &mid, radius, op == 'd', hbuf, row);
        for (int y = 0; y < h; y++)
            memcpy(ts_image_row(dst, y), ts_image_row(&mid, y), (size_t)w);
    } else { /* opening: erode, then dilate; closing the other way round */
        pass(src, &mid, radius, op == 'c', hbuf, row);
        pass(&mid, dst, radius, op == 'o', hbuf, row);
    }
    free(mem);
    return 0;
}
