/* The mean adaptive threshold by running sums (see adaptive.h). Each row:
 * the window's column sums (last row's, one row in and one out), their
 * prefix sums along the row with the edge columns repeated r times at
 * either end, and each pixel's window sum the difference of two of those. */
#include "adaptive.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
/* sixteen pixels a step where the processor has AVX2 (chosen at run time) */
#define TS_ADAPTIVE_AVX2 1
#define AVX2_TARGET __attribute__((target("avx2")))
#endif

static inline int clamp(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* col[x] += add[x] - sub[x] (sums below 2^16: at most 163 bytes) */
static void column_step(uint16_t *col, const uint8_t *add, const uint8_t *sub, int w)
{
    int x = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    for (; x + 8 <= w; x += 8) {
        __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(add + x)), zero);
        __m128i s = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(sub + x)), zero);
        __m128i c = _mm_loadu_si128((const __m128i *)(col + x));
        _mm_storeu_si128((__m128i *)(col + x), _mm_add_epi16(c, _mm_sub_epi16(a, s)));
    }
#endif
    for (; x < w; x++)
        col[x] = (uint16_t)(col[x] + add[x] - sub[x]);
}

#ifdef TS_ADAPTIVE_AVX2
static int prefix_avx2(const uint16_t *col, int w, uint32_t *pre, uint32_t *acc);
#endif

/* pre[i] = the sum of the first i columns of the row col[] with col[0]
 * and col[w - 1] each repeated r more times beyond their ends. */
static void prefix(const uint16_t *col, int w, int r, uint32_t *pre, int avx2)
{
    uint32_t acc = 0;
    *pre++ = 0;
    for (int i = 0; i < r; i++)
        *pre++ = acc += col[0];
    int x = 0;
#ifdef TS_ADAPTIVE_AVX2
    if (avx2) {
        x = prefix_avx2(col, w, pre, &acc);
        pre += x;
    }
#else
    (void)avx2;
#endif
#ifdef __SSE2__
    /* eight columns a step: each half's sums within its lanes (shifted
     * adds), then the sum before them added to all */
    const __m128i zero = _mm_setzero_si128();
    __m128i before = _mm_set1_epi32((int)acc);
    for (; x + 8 <= w; x += 8, pre += 8) {
        const __m128i c = _mm_loadu_si128((const __m128i *)(col + x));
        __m128i lo = _mm_unpacklo_epi16(c, zero), hi = _mm_unpackhi_epi16(c, zero);
        lo = _mm_add_epi32(lo, _mm_slli_si128(lo, 4));
        hi = _mm_add_epi32(hi, _mm_slli_si128(hi, 4));
        lo = _mm_add_epi32(_mm_add_epi32(lo, _mm_slli_si128(lo, 8)), before);
        hi = _mm_add_epi32(_mm_add_epi32(hi, _mm_slli_si128(hi, 8)),
                           _mm_shuffle_epi32(lo, 0xff));
        before = _mm_shuffle_epi32(hi, 0xff);
        _mm_storeu_si128((__m128i *)pre, lo);
        _mm_storeu_si128((__m128i *)(pre + 4), hi);
    }
    acc = (uint32_t)_mm_cvtsi128_si32(before);
#endif
    for (; x < w; x++)
        *pre++ = acc += col[x];
    for (int i = 0; i < r; i++)
        *pre++ = acc += col[w - 1];
}

/* One output row: o[x] = 255 if a[x] - mean > t, the window's sum at x
 * pre[x + block] - pre[x], its mean that times inv rounded to nearest. */
static void threshold_row(const uint8_t *a, const uint32_t *pre, int block, float inv, int t,
                          int w, uint8_t *o)
{
    int x = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    const __m128i tv = _mm_set1_epi16((short)(t < -256 ? -256 : t > 256 ? 256 : t));
    const __m128 iv = _mm_set1_ps(inv);
    for (; x + 8 <= w; x += 8) {
        __m128i s0 = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(pre + x + block)),
                                   _mm_loadu_si128((const __m128i *)(pre + x)));
        __m128i s1 = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(pre + x + 4 + block)),
                                   _mm_loadu_si128((const __m128i *)(pre + x + 4)));
        __m128i m0 = _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s0), iv));
        __m128i m1 = _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s1), iv));
        __m128i m = _mm_packs_epi32(m0, m1);
        __m128i av = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(a + x)), zero);
        __m128i on = _mm_cmpgt_epi16(_mm_sub_epi16(av, m), tv);
        _mm_storel_epi64((__m128i *)(o + x), _mm_packs_epi16(on, on));
    }
#endif
    for (; x < w; x++) {
        /* nearest, as the vector lanes round (no sum lies on a half) */
        int m = ts_adaptive_round((float)(pre[x + block] - pre[x]), inv);
        o[x] = a[x] - m > t ? 255 : 0;
    }
}

#ifdef TS_ADAPTIVE_AVX2
/* column_step sixteen columns a step; returns the first column left. */
AVX2_TARGET static int column_step_avx2(uint16_t *col, const uint8_t *add, const uint8_t *sub,
                                        int w)
{
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(add + x)));
        __m256i s = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(sub + x)));
        __m256i c = _mm256_loadu_si256((const __m256i *)(col + x));
        _mm256_storeu_si256((__m256i *)(col + x), _mm256_add_epi16(c, _mm256_sub_epi16(a, s)));
    }
    return x;
}

/* threshold_row sixteen pixels a step, the same float products rounded
 * the same way (the lanes' round to nearest); returns the first pixel left. */
AVX2_TARGET static int threshold_row_avx2(const uint8_t *a, const uint32_t *pre, int block,
                                          float inv, int t, int w, uint8_t *o)
{
    const __m256i tv = _mm256_set1_epi16((short)(t < -256 ? -256 : t > 256 ? 256 : t));
    const __m256 iv = _mm256_set1_ps(inv);
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        __m256i s0 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(pre + x + block)),
                                      _mm256_loadu_si256((const __m256i *)(pre + x)));
        __m256i s1 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(pre + x + 8 + block)),
                                      _mm256_loadu_si256((const __m256i *)(pre + x + 8)));
        __m256i m0 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s0), iv));
        __m256i m1 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s1), iv));
        /* packs interleaves the lanes: put the sixteen means back in order */
        __m256i m = _mm256_permute4x64_epi64(_mm256_packs_epi32(m0, m1), 0xd8);
        __m256i av = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(a + x)));
        __m256i on = _mm256_cmpgt_epi16(_mm256_sub_epi16(av, m), tv);
        _mm_storeu_si128((__m128i *)(o + x),
                         _mm_packs_epi16(_mm256_castsi256_si128(on), _mm256_extracti128_si256(on, 1)));
    }
    return x;
}
#endif

/* prefix's middle part sixteen columns a step: within each 128-bit lane by
 * shifted adds, the low lane's total carried into the high one, then the
 * sum before them added to all. Writes pre[0 .. x) for the x returned (the
 * first column left) and sets *acc to the sum through it. */
AVX2_TARGET static int prefix_avx2(const uint16_t *col, int w, uint32_t *pre, uint32_t *acc)
{
    const __m256i last = _mm256_set1_epi32(7);
    __m256i before = _mm256_set1_epi32((int)*acc);
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        const __m256i c = _mm256_loadu_si256((const __m256i *)(col + x));
        __m256i v[2] = {_mm256_cvtepu16_epi32(_mm256_castsi256_si128(c)),
                        _mm256_cvtepu16_epi32(_mm256_extracti128_si256(c, 1))};
        for (int k = 0; k < 2; k++) {
            v[k] = _mm256_add_epi32(v[k], _mm256_slli_si256(v[k], 4));
            v[k] = _mm256_add_epi32(v[k], _mm256_slli_si256(v[k], 8));
            const __m256i low_total = _mm256_shuffle_epi32(v[k], 0xff);
            v[k] = _mm256_add_epi32(v[k], _mm256_permute2x128_si256(low_total, low_total, 0x08));
            v[k] = _mm256_add_epi32(v[k], before);
            before = _mm256_permutevar8x32_epi32(v[k], last);
            _mm256_storeu_si256((__m256i *)(pre + x + 8 * k), v[k]);
        }
    }
    *acc = (uint32_t)_mm256_cvtsi256_si32(before);
    return x;
}

/* col += add - sub, AVX2 where avx2 says so, the rest as before. */
static void column_step_any(uint16_t *col, const uint8_t *add, const uint8_t *sub, int w, int avx2)
{
    int x = 0;
#ifdef TS_ADAPTIVE_AVX2
    if (avx2)
        x = column_step_avx2(col, add, sub, w);
#else
    (void)avx2;
#endif
    column_step(col + x, add + x, sub + x, w - x);
}

static void threshold_row_any(const uint8_t *a, const uint32_t *pre, int block, float inv, int t,
                              int w, uint8_t *o, int avx2)
{
    int x = 0;
#ifdef TS_ADAPTIVE_AVX2
    if (avx2)
        x = threshold_row_avx2(a, pre, block, inv, t, w, o);
#else
    (void)avx2;
#endif
    threshold_row(a + x, pre + x, block, inv, t, w - x, o + x);
}

int ts_adaptive_mean(const ts_image *src, ts_image *dst, int block, int t)
{
    return ts_adaptive_mean_v(src, dst, block, t, 1);
}

int ts_adaptive_mean_v(const ts_image *src, ts_image *dst, int block, int t, int vector)
{
    if (src->channels != 1 || dst->channels != 1 || dst->w != src->w || dst->h != src->h ||
        block < 3 || block > TS_ADAPTIVE_MAX_BLOCK || !(block & 1) || src->w < 1 || src->h < 1)
        return 1;
    int w = src->w, h = src->h, r = block / 2;
    /* written over its own source: rows still to be summed would be lost */
    const uint8_t *s0 = src->buf, *s1 = s0 + (size_t)src->stride * (h - 1) + w;
    const uint8_t *d0 = dst->buf, *d1 = d0 + (size_t)dst->stride * (h - 1) + w;
    int over = d0 < s1 && s0 < d1;
    uint16_t *col = malloc(sizeof *col * (size_t)w);
    uint32_t *pre = malloc(sizeof *pre * (size_t)(w + 2 * r + 1));
    uint8_t *zero = malloc((size_t)w), *out = over ? malloc((size_t)w * h) : NULL;
    if (!col || !pre || !zero || (over && !out)) {
        free(col);
        free(pre);
        free(zero);
        free(out);
        return -1;
    }
    /* the first row's window: rows -r .. r, the top row for those above */
    memset(col, 0, sizeof *col * (size_t)w);
    memset(zero, 0, (size_t)w);
#ifdef TS_ADAPTIVE_AVX2
    const int avx2 = vector && __builtin_cpu_supports("avx2");
#else
    const int avx2 = 0;
    (void)vector;
#endif
    for (int k = -r; k <= r; k++)
        column_step_any(col, ts_image_row(src, clamp(k, h - 1)), zero, w, avx2);
    const float inv = (float)(1.0 / ((double)block * block));
    for (int y = 0; y < h; y++) {
        if (y > 0)
            column_step_any(col, ts_image_row(src, clamp(y + r, h - 1)),
                            ts_image_row(src, clamp(y - r - 1, h - 1)), w, avx2);
        prefix(col, w, r, pre, avx2);
        uint8_t *o = over ? out + (size_t)y * w : ts_image_row(dst, y);
        threshold_row_any(ts_image_row(src, y), pre, block, inv, t, w, o, avx2);
    }
    if (over)
        for (int y = 0; y < h; y++)
            memcpy(ts_image_row(dst, y), out + (size_t)y * w, (size_t)w);
    free(col);
    free(pre);
    free(zero);
    free(out);
    return 0;
}
