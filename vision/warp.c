/* Bilinear affine warp of BGR images (see warp.h).
 *
 * OpenCV's arithmetic, step by step: the map in fixed point with 10
 * fraction bits (each row's start and each column's step rounded to
 * nearest), positions cut to 1/32 pixel; the four weights of a position are
 * products of (32 - f, f) pairs, so they sum to 1024 exactly and the blend
 * rounds as (sum + 512) >> 10 (OpenCV's 15-bit weights are these times 32).
 * Outside the frame each tap's coordinate is clamped (BORDER_REPLICATE). */
#include "warp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    AB_BITS = 10,   /* fraction bits of the map */
    INTER_BITS = 5, /* fraction bits of a sample position */
    TAB = 1 << INTER_BITS,
    ROUND = (1 << AB_BITS) / TAB / 2,
    LIMIT = 1 << 19 << AB_BITS, /* |map| < 2^19 px: no int sum overflows */
};

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* One pixel anywhere, taps clamped to the frame (kept out of line: the
 * frame's edges are rare, and inlined it crowds the common path's registers). */
__attribute__((noinline)) static void blend_clamped(const ts_image *src, int sx, int sy, int fx, int fy, uint8_t *o)
{
    const int x0 = clampi(sx, 0, src->w - 1), x1 = clampi(sx + 1, 0, src->w - 1);
    const int y0 = clampi(sy, 0, src->h - 1), y1 = clampi(sy + 1, 0, src->h - 1);
    const uint8_t *r0 = ts_image_row(src, y0), *r1 = ts_image_row(src, y1);
    for (int ch = 0; ch < 3; ch++) {
        int top = r0[3 * x0 + ch] * (TAB - fx) + r0[3 * x1 + ch] * fx;
        int bottom = r1[3 * x0 + ch] * (TAB - fx) + r1[3 * x1 + ch] * fx;
        o[ch] = (uint8_t)((top * (TAB - fy) + bottom * fy + 512) >> 10);
    }
}

#ifdef __SSE2__
/* One pixel whose 2 x 2 taps and the two bytes after them lie in the frame:
 * both taps' channels side by side, weighted in pairs. w[f] holds the pairs
 * (32 - f, f). */
static inline int blend_sse2(const uint8_t *r0, const uint8_t *r1, const __m128i *w, int fx,
                             int fy)
{
    const __m128i zero = _mm_setzero_si128();
    __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)r0), zero); /* B0 G0 R0 B1 G1 R1 */
    __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)r1), zero);
    /* (left, right) per channel, times (32 - fx, fx): 32-bit blends per row */
    __m128i top = _mm_madd_epi16(_mm_unpacklo_epi16(a, _mm_srli_si128(a, 6)), w[fx]);
    __m128i bottom = _mm_madd_epi16(_mm_unpacklo_epi16(b, _mm_srli_si128(b, 6)), w[fx]);
    __m128i tb = _mm_packs_epi32(top, bottom); /* at most 8160: fits */
    __m128i v = _mm_madd_epi16(_mm_unpacklo_epi16(tb, _mm_srli_si128(tb, 8)), w[fy]);
    v = _mm_srli_epi32(_mm_add_epi32(v, _mm_set1_epi32(512)), 10);
    v = _mm_packus_epi16(_mm_packs_epi32(v, v), zero);
    return _mm_cvtsi128_si32(v); /* B, G, R in the low bytes (little-endian) */
}
#endif

int ts_warp_affine_linear(const ts_image *src, const double m[6], ts_image *dst)
{
    if (src->channels != 3 || dst->channels != 3 || src->w < 1 || src->h < 1 || dst->w < 1)
        return -1;
    const int w = dst->w, h = dst->h;
    int *step = malloc(sizeof *step * 2 * (size_t)w); /* each column's offset, x then y */
    if (!step)
        return -1;
    for (int x = 0; x < w; x++) {
        double a = m[0] * x * (1 << AB_BITS), b = m[3] * x * (1 << AB_BITS);
        if (!(fabs(a) < LIMIT && fabs(b) < LIMIT)) {
            free(step);
            return -1;
        }
        step[2 * x] = (int)lrint(a);
        step[2 * x + 1] = (int)lrint(b);
    }
#ifdef __SSE2__
    __m128i wt[TAB];
    for (int f = 0; f < TAB; f++)
        wt[f] = _mm_set1_epi32(f << 16 | (TAB - f));
    /* the left tap and 8 bytes from it inside the frame: sx < w - 2 */
    const unsigned fast_w = src->w > 2 ? (unsigned)src->w - 2 : 0, fast_h = (unsigned)src->h - 1;
    const uint8_t *const sbuf = src->buf;
    const size_t sstride = (size_t)src->stride;
#endif
    for (int y = 0; y < h; y++) {
        double a = (m[1] * y + m[2]) * (1 << AB_BITS), b = (m[4] * y + m[5]) * (1 << AB_BITS);
        /* OpenCV saturates positions to 16 bits; frames are under 32767 px a
         * side, so that clamps to the same edge pixel as the taps' clamp. */
        if (!(fabs(a) < LIMIT && fabs(b) < LIMIT)) {
            free(step);
            return -1;
        }
        const int X0 = (int)lrint(a) + ROUND, Y0 = (int)lrint(b) + ROUND;
        uint8_t *o = ts_image_row(dst, y);
        for (int x = 0; x < w; x++, o += 3) {
            /* >> of a negative int rounds down (arithmetic shift), as in OpenCV */
            const int X = (X0 + step[2 * x]) >> (AB_BITS - INTER_BITS);
            const int Y = (Y0 + step[2 * x + 1]) >> (AB_BITS - INTER_BITS);
            const int sx = X >> INTER_BITS, sy = Y >> INTER_BITS;
            const int fx = X & (TAB - 1), fy = Y & (TAB - 1);
#ifdef __SSE2__
            if ((unsigned)sx < fast_w && (unsigned)sy < fast_h) {
                const uint8_t *r0 = sbuf + (size_t)sy * sstride + 3 * (size_t)sx;
                int px = blend_sse2(r0, r0 + sstride, wt, fx, fy);
                /* the fourth byte is the next pixel's, written after this */
                memcpy(o, &px, x + 1 < w ? 4 : 3);
                continue;
            }
#endif
            blend_clamped(src, sx, sy, fx, fy, o);
        }
    }
    free(step);
    return 0;
}
