/* City-block distance transform (see distance.h). */
#include "distance.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Each pass below sets a pixel from other pixels (or other rows) only, so
 * running it twice on a pixel gives the same byte: a row's last sixteen are
 * done by one vector that may overlap the one before (the compiler's own
 * vector loops left up to fifteen to scalar code, most of the work on a
 * card's 100-odd-pixel rows). */
#ifdef __SSE2__
#define VEC_ROW(w, x, body)                                                                        \
    do {                                                                                           \
        int x = 0;                                                                                 \
        if ((w) >= 16) {                                                                           \
            for (; x + 16 <= (w); x += 16)                                                         \
                body;                                                                              \
            if (x < (w)) {                                                                         \
                x = (w) - 16;                                                                      \
                body;                                                                              \
            }                                                                                      \
            x = (w);                                                                               \
        }                                                                                          \
        (void)x;                                                                                   \
    } while (0)
#endif

void ts_distance_l1(const ts_image *bin, ts_image *dist)
{
    /* The city-block distance separates: the distance along the column,
     * then the least of that plus the offset along the row. Both run on
     * whole rows at once: down and up the columns, then along each row by
     * doubling steps (1, 2, 4, 8 reach every offset up to 15). */
    const int w = bin->w, h = bin->h;
#ifdef __SSE2__
    const __m128i one = _mm_set1_epi8(1), far = _mm_set1_epi8(TS_DISTANCE_FAR);
    const __m128i zero = _mm_setzero_si128();
#endif
    for (int y = 0; y < h; y++) {
        const uint8_t *restrict b = ts_image_row(bin, y);
        uint8_t *restrict d = ts_image_row(dist, y);
        const uint8_t *restrict up = ts_image_row(dist, y ? y - 1 : 0);
        int x = 0;
#ifdef __SSE2__
        if (y && w >= 16) { /* min(up + 1, FAR) where bin is set, else 0 */
            VEC_ROW(w, i, {
                __m128i u = _mm_min_epu8(_mm_add_epi8(_mm_loadu_si128((const __m128i *)(up + i)), one),
                                         far);
                __m128i z = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i)), zero);
                _mm_storeu_si128((__m128i *)(d + i), _mm_andnot_si128(z, u));
            });
            x = w;
        }
#endif
        for (; x < w; x++) {
            uint8_t u = y ? up[x] : TS_DISTANCE_FAR;
            u += u < TS_DISTANCE_FAR;
            d[x] = b[x] ? u : 0;
        }
    }
    for (int y = h - 2; y >= 0; y--) {
        uint8_t *restrict d = ts_image_row(dist, y);
        const uint8_t *restrict down = ts_image_row(dist, y + 1);
        int x = 0;
#ifdef __SSE2__
        VEC_ROW(w, i, {
            __m128i u = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(down + i)), one);
            _mm_storeu_si128((__m128i *)(d + i),
                             _mm_min_epu8(u, _mm_loadu_si128((const __m128i *)(d + i))));
        });
        x = w >= 16 ? w : 0;
#endif
        for (; x < w; x++) {
            uint8_t u = down[x] + 1;
            d[x] = u < d[x] ? u : d[x];
        }
    }
    enum { PAD = 8 };
    uint8_t buf[2][PAD + TS_IMAGE_MAX_SIDE + PAD];
    /* the pads stay FAR: nothing below writes outside [0, w) */
    for (int i = 0; i < 2; i++) {
        memset(buf[i], TS_DISTANCE_FAR, PAD);
        memset(buf[i] + PAD + w, TS_DISTANCE_FAR, PAD);
    }
    for (int y = 0; y < h; y++) {
        uint8_t *d = ts_image_row(dist, y);
        uint8_t *restrict a = buf[0] + PAD, *restrict b = buf[1] + PAD;
        memcpy(a, d, (size_t)w);
        for (int s = 1; s <= 8; s *= 2) {
            if (s == 8)
                b = d; /* the last step straight into the row */
            int x = 0;
#ifdef __SSE2__
            const __m128i sv = _mm_set1_epi8((char)s);
            VEC_ROW(w, i, {
                __m128i v = _mm_loadu_si128((const __m128i *)(a + i));
                __m128i l = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(a + i - s)), sv);
                __m128i r = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(a + i + s)), sv);
                v = _mm_min_epu8(_mm_min_epu8(v, l), _mm_min_epu8(r, far));
                _mm_storeu_si128((__m128i *)(b + i), v);
            });
            x = w >= 16 ? w : 0;
#endif
            for (; x < w; x++) {
                uint8_t l = a[x - s] + s, r = a[x + s] + s, v = a[x];
                v = l < v ? l : v;
                v = r < v ? r : v;
                b[x] = v < TS_DISTANCE_FAR ? v : TS_DISTANCE_FAR;
            }
            uint8_t *t = a;
            a = b;
            b = t;
        }
    }
}
