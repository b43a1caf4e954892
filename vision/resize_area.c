/* OpenCV's INTER_AREA shrink by a fraction (see resize_area.h). Each
 * destination pixel covers a cell of scale x scale source pixels; a source
 * pixel the cell's edge cuts counts with the part inside. The weights are
 * OpenCV's (computed in double, stored as float, the cell clipped at the
 * image's end), so the float sums are the same. */
#include "resize_area.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "simd.h"

typedef struct {
    int s;       /* source pixel */
    float alpha; /* its weight */
} tap;

/* The taps of every destination pixel along one axis: first[d] ..
 * first[d + 1] - 1 in t. Returns the number of taps. */
static int axis_taps(int ssize, int dsize, double scale, tap *t, int *first)
{
    int k = 0;
    for (int d = 0; d < dsize; d++) {
        first[d] = k;
        const double f1 = d * scale, f2 = f1 + scale;
        const double cell = scale < ssize - f1 ? scale : ssize - f1;
        int s1 = (int)ceil(f1), s2 = (int)floor(f2);
        s2 = s2 < ssize - 1 ? s2 : ssize - 1;
        s1 = s1 < s2 ? s1 : s2;
        if (s1 - f1 > 1e-3)
            t[k++] = (tap){s1 - 1, (float)((s1 - f1) / cell)};
        for (int s = s1; s < s2; s++)
            t[k++] = (tap){s, (float)(1.0 / cell)};
        if (f2 - s2 > 1e-3) {
            double part = f2 - s2 < 1 ? f2 - s2 : 1;
            t[k++] = (tap){s2, (float)((part < cell ? part : cell) / cell)};
        }
    }
    first[dsize] = k;
    return k;
}

static inline uint8_t to_byte(float v)
{
    long r = lrintf(v); /* to nearest, ties to even, as cvRound */
    return (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
}

/* o[i] = to_byte(v[i]) for i < n, four a step: the conversion rounds by the
 * same mode as lrintf (to nearest, ties to even), and saturating packs
 * clamp as to_byte does (lrintf is a call, the packs a few instructions). */
static void to_bytes(const float *restrict v, size_t n, uint8_t *restrict o)
{
    size_t i = 0;
#ifdef __SSE2__
    for (; i + 4 <= n; i += 4) {
        __m128i r = _mm_cvtps_epi32(_mm_loadu_ps(v + i));
        r = _mm_packus_epi16(_mm_packs_epi32(r, r), r);
        const int b = _mm_cvtsi128_si32(r);
        memcpy(o + i, &b, 4);
    }
#endif
    for (; i < n; i++)
        o[i] = to_byte(v[i]);
}

/* One source row's horizontal sums into buf (dw x cn floats). */
static void row_sums(const uint8_t *s, int cn, int dw, const tap *xt, const int *xf, float *buf)
{
    if (cn == 3) {
        for (int d = 0; d < dw; d++) {
            float b0 = 0, b1 = 0, b2 = 0;
            for (int k = xf[d]; k < xf[d + 1]; k++) {
                const uint8_t *p = s + 3 * xt[k].s;
                const float a = xt[k].alpha;
                b0 = b0 + p[0] * a;
                b1 = b1 + p[1] * a;
                b2 = b2 + p[2] * a;
            }
            buf[3 * d] = b0, buf[3 * d + 1] = b1, buf[3 * d + 2] = b2;
        }
    } else {
        for (int d = 0; d < dw; d++) {
            float b = 0;
            for (int k = xf[d]; k < xf[d + 1]; k++)
                b = b + s[xt[k].s] * xt[k].alpha;
            buf[d] = b;
        }
    }
}

/* An AVX2 path, chosen at run time (the build targets plain x86-64). */
#if defined(__GNUC__) && defined(__x86_64__)
#define TS_AVX2_PATH 1
#define AVX2_TARGET __attribute__((target("avx2")))
#else
#define TS_AVX2_PATH 0
#define AVX2_TARGET
#endif

/* Eight floats (two SSE registers on the plain path, one on the AVX2
 * path); only always-inlined helpers take them, so the warning about how
 * they would be passed between functions does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float v8 __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* The horizontal sums of eight source rows at once, row r in lane r: t
 * holds the rows as floats, column after column (8 floats a column); h
 * receives row r's sums at h + r * n. Each lane does for its row what
 * row_sums does, in the same order. */
static inline __attribute__((always_inline)) void rows8_body(const float *t, int cn, int dw,
                                                            const tap *xt, const int *xf,
                                                            float *h, size_t n)
{
    for (int d = 0; d < dw; d++)
        for (int c = 0; c < cn; c++) {
            v8 b = (v8){0};
            for (int k = xf[d]; k < xf[d + 1]; k++) {
                v8 v;
#if defined(__clang__)
                const float w = xt[k].alpha;
                const v8 a = {w, w, w, w, w, w, w, w};
#else
                const v8 a1 = {xt[k].alpha};
                const v8 a = __builtin_shuffle(a1, (v8i){0}); /* one broadcast */
#endif
                memcpy(&v, t + (size_t)(xt[k].s * cn + c) * 8, sizeof v);
                b = b + v * a;
            }
            for (int r = 0; r < 8; r++)
                h[(size_t)r * n + (size_t)(d * cn + c)] = b[r];
        }
}

AVX2_TARGET static void rows8_avx2(const float *t, int cn, int dw,
                                                       const tap *xt, const int *xf, float *h,
                                                       size_t n)
{
    rows8_body(t, cn, dw, xt, xf, h, n);
}

static void rows8_plain(const float *t, int cn, int dw, const tap *xt, const int *xf, float *h,
                        size_t n)
{
    rows8_body(t, cn, dw, xt, xf, h, n);
}

/* Rows y .. y + 7 of src as floats, column after column (with SSE2 four
 * columns a step: each row's four bytes widened, then 4x4 transposes). */
static void columns8(const ts_image *src, int y, float *t)
{
    const int n = src->w * src->channels;
    const uint8_t *s[8];
    for (int r = 0; r < 8; r++)
        s[r] = ts_image_row(src, y + r);
    int j = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    for (; j + 4 <= n; j += 4) {
        __m128 v[8];
        for (int r = 0; r < 8; r++) {
            int32_t b;
            memcpy(&b, s[r] + j, sizeof b);
            __m128i w = _mm_unpacklo_epi8(_mm_cvtsi32_si128(b), zero);
            v[r] = _mm_cvtepi32_ps(_mm_unpacklo_epi16(w, zero));
        }
        _MM_TRANSPOSE4_PS(v[0], v[1], v[2], v[3]);
        _MM_TRANSPOSE4_PS(v[4], v[5], v[6], v[7]);
        for (int k = 0; k < 4; k++) {
            _mm_storeu_ps(t + (size_t)(j + k) * 8, v[k]);
            _mm_storeu_ps(t + (size_t)(j + k) * 8 + 4, v[4 + k]);
        }
    }
#endif
    for (; j < n; j++)
        for (int r = 0; r < 8; r++)
            t[(size_t)j * 8 + (size_t)r] = s[r][j];
}

/* sum = beta x row (first) or sum + beta x row, element by element. */
TS_AVX2_CLONES static void accumulate(float *sum, const float *row, float beta, int n, int first)
{
    if (first)
        for (int i = 0; i < n; i++)
            sum[i] = 0 + beta * row[i];
    else
        for (int i = 0; i < n; i++)
            sum[i] = sum[i] + beta * row[i];
}

/* Destination row o of w pixels from its cells' column sums col (ix
 * columns a cell), times inv, rounded to even. The cells' sums are whole
 * numbers, the same in any order: each column's with the ix - 1 after it,
 * a vector at a time into h, then every cell's first. h: room for the
 * row's w * ix * cn sums; f: for its w * cn products. */
static inline __attribute__((always_inline)) void cell_sums(const uint16_t *restrict col,
                                                             uint16_t *restrict h, int w, int ix,
                                                             const int cn, float inv,
                                                             float *restrict f, uint8_t *o)
{
    const int sn = w * ix * cn;
    for (int i = 0; i < sn; i++)
        h[i] = col[i];
    for (int k = 1; k < ix; k++)
        for (int i = 0; i < sn - k * cn; i++)
            h[i] = (uint16_t)(h[i] + col[i + k * cn]);
    for (int x = 0; x < w; x++)
        for (int ch = 0; ch < cn; ch++)
            f[x * cn + ch] = (float)h[x * ix * cn + ch] * inv;
    to_bytes(f, (size_t)w * cn, o);
}

/* A whole-number scale ix x iy (OpenCV's "fast" area path) but halving:
 * each destination byte the sum of its cell times 1 / (ix iy) in float,
 * rounded to even. OpenCV adds the cell's bytes one by one, about 6
 * instructions a source byte; this sums the cell's rows first, a vector
 * at a time. col: room for two source rows' bytes; f: for a destination
 * row's. */
TS_AVX2_CLONES static void shrink_whole(const ts_image *src, ts_image *dst, int ix, int iy,
                                        uint16_t *restrict col, float *restrict f)
{
    uint16_t *restrict h = col + (size_t)src->w * src->channels;
    const int cn = src->channels, sn = dst->w * cn * ix;
    const float inv = 1.f / (float)(ix * iy);
    for (int d = 0; d < dst->h; d++) {
        const uint8_t *restrict r = ts_image_row(src, d * iy);
        for (int i = 0; i < sn; i++)
            col[i] = r[i];
        for (int k = 1; k < iy; k++) {
            r = ts_image_row(src, d * iy + k);
            for (int i = 0; i < sn; i++)
                col[i] = (uint16_t)(col[i] + r[i]);
        }
        if (cn == 3)
            cell_sums(col, h, dst->w, ix, 3, inv, f, ts_image_row(dst, d));
        else
            cell_sums(col, h, dst->w, ix, 1, inv, f, ts_image_row(dst, d));
    }
}

/* Halving (2 x 2 cells): OpenCV rounds each cell's sum of four half up,
 * (s + 2) >> 2, in its vector path and its plain tail alike
 * (test_resize_area). x: the first output pixel the plain loop gives (the
 * vector path gave those before); sums (NULL: not wanted): each cell's
 * sum, unrounded, for the quarter (quarter_row). */
static void halve_row_plain(const uint8_t *a, const uint8_t *b, int cn, int x, int w, uint8_t *o,
                            uint16_t *sums)
{
    for (; x < w; x++)
        for (int c = 0; c < cn; c++) {
            const int i = 2 * x * cn + c, sum = a[i] + b[i] + a[i + cn] + b[i + cn];
            o[x * cn + c] = (uint8_t)((sum + 2) >> 2);
            if (sums)
                sums[x * cn + c] = (uint16_t)sum;
        }
}

#if TS_AVX2_PATH
/* A 256-bit register of two unaligned 16-byte loads: lo in the lower lane,
 * hi in the upper. */
AVX2_TARGET static inline __m256i lanes(const void *lo, const void *hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
                                   _mm_loadu_si128((const __m128i *)hi), 1);
}

/* Four BGR output pixels a step: each 128-bit lane takes four source pixels
 * of both rows (12 bytes), puts each channel's two pixels side by side and
 * sums them in 16 bits (maddubs by ones), the rows added; each lane's six
 * bytes stored (8 written, the last two overwritten by the next step), and
 * so its six sums if asked. Returns the first output pixel left to the
 * plain loop. */
AVX2_TARGET static int halve_row_bgr_avx2(const uint8_t *a, const uint8_t *b, int w, uint8_t *o,
                                          uint16_t *sums)
{
    const __m256i pair = _mm256_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1,
                                          0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1);
    const __m256i ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2);
    int x = 0;
    /* a step reads 28 source bytes from 6x and writes 14 from 3x */
    for (; x + 5 <= w; x += 4) {
        const uint8_t *pa = a + 6 * x, *pb = b + 6 * x;
        __m256i va = lanes(pa, pa + 12);
        __m256i vb = lanes(pb, pb + 12);
        __m256i sa = _mm256_maddubs_epi16(_mm256_shuffle_epi8(va, pair), ones);
        __m256i sb = _mm256_maddubs_epi16(_mm256_shuffle_epi8(vb, pair), ones);
        __m256i sum = _mm256_add_epi16(sa, sb);
        if (sums) {
            _mm_storeu_si128((__m128i *)(sums + 3 * x), _mm256_castsi256_si128(sum));
            _mm_storeu_si128((__m128i *)(sums + 3 * x + 6), _mm256_extracti128_si256(sum, 1));
        }
        __m256i v = _mm256_srli_epi16(_mm256_add_epi16(sum, two), 2);
        v = _mm256_packus_epi16(v, v);
        _mm_storel_epi64((__m128i *)(o + 3 * x), _mm256_castsi256_si128(v));
        _mm_storel_epi64((__m128i *)(o + 3 * x + 6), _mm256_extracti128_si256(v, 1));
    }
    if (x + 4 <= w) {
        /* the last four: the upper lane's pixels loaded from 4 bytes
         * earlier (not past the row), and stored through a copy */
        const __m256i late = _mm256_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1,
                                              4, 7, 5, 8, 6, 9, 10, 13, 11, 14, 12, 15, -1, -1, -1, -1);
        const uint8_t *pa = a + 6 * x, *pb = b + 6 * x;
        __m256i va = lanes(pa, pa + 8);
        __m256i vb = lanes(pb, pb + 8);
        __m256i sum = _mm256_add_epi16(_mm256_maddubs_epi16(_mm256_shuffle_epi8(va, late), ones),
                                       _mm256_maddubs_epi16(_mm256_shuffle_epi8(vb, late), ones));
        uint16_t s16[16];
        _mm256_storeu_si256((__m256i *)s16, sum);
        if (sums) {
            memcpy(sums + 3 * x, s16, 6 * sizeof *s16);
            memcpy(sums + 3 * x + 6, s16 + 8, 6 * sizeof *s16);
        }
        __m256i v = _mm256_srli_epi16(_mm256_add_epi16(sum, two), 2);
        uint8_t b8[32];
        _mm256_storeu_si256((__m256i *)b8, _mm256_packus_epi16(v, v));
        memcpy(o + 3 * x, b8, 6);
        memcpy(o + 3 * x + 6, b8 + 16, 6);
        x += 4;
    }
    return x;
}
#endif

/* Row d of dst, src halved (sums as halve_row_plain's). */
static void halve_row(const ts_image *src, ts_image *dst, int d, int avx2, uint16_t *sums)
{
    const uint8_t *a = ts_image_row(src, 2 * d), *b = ts_image_row(src, 2 * d + 1);
    uint8_t *o = ts_image_row(dst, d);
    int x = 0;
#if TS_AVX2_PATH
    if (avx2)
        x = halve_row_bgr_avx2(a, b, dst->w, o, sums);
#else
    (void)avx2;
#endif
    halve_row_plain(a, b, src->channels, x, dst->w, o, sums);
}

static int halve_avx2(const ts_image *src, int vector)
{
#if TS_AVX2_PATH
    return vector && src->channels == 3 && __builtin_cpu_supports("avx2");
#else
    (void)src, (void)vector;
    return 0;
#endif
}

static void halve(const ts_image *src, ts_image *dst, int vector)
{
    const int avx2 = halve_avx2(src, vector);
    for (int d = 0; d < dst->h; d++)
        halve_row(src, dst, d, avx2, NULL);
}

/* The quarter's byte of a 4 x 4 cell's sum: over 16 rounded to even, as
 * OpenCV's whole-number path rounds the float sum / 16 (exact). */
static inline uint8_t quarter_byte(unsigned u)
{
    return (uint8_t)((u + 7 + ((u >> 4) & 1)) >> 4);
}

/* Quarter pixels from x on of a row, from two rows of the half's cell sums
 * a and b (2 qw pixels of cn each). */
static void quarter_row_plain(const uint16_t *a, const uint16_t *b, int qw, int cn, int x,
                              uint8_t *o)
{
    for (; x < qw; x++)
        for (int c = 0; c < cn; c++) {
            const int i = 2 * x * cn + c;
            o[x * cn + c] = quarter_byte((unsigned)a[i] + a[i + cn] + b[i] + b[i + cn]);
        }
}

#if TS_AVX2_PATH
/* Two BGR quarter pixels a step, one a 128-bit lane: its two half pixels'
 * sums of both rows added, each channel's pair side by side and summed
 * (madd by ones), rounded as quarter_byte; 4 bytes stored a lane (the
 * fourth overwritten next). Returns the first pixel left. */
AVX2_TARGET static int quarter_row_bgr_avx2(const uint16_t *a, const uint16_t *b, int qw,
                                            uint8_t *o)
{
    const __m256i pair = _mm256_setr_epi8(0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -1, -1, -1, -1,
                                          0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -1, -1, -1, -1);
    const __m256i ones = _mm256_set1_epi16(1), seven = _mm256_set1_epi32(7);
    const __m256i one = _mm256_set1_epi32(1);
    int x = 0;
    /* a step reads 8 sums from 6x + 6 and writes 4 bytes from 3x + 3 */
    for (; x + 3 <= qw; x += 2) {
        const uint16_t *pa = a + 6 * x, *pb = b + 6 * x;
        __m256i va = lanes(pa, pa + 6);
        __m256i vb = lanes(pb, pb + 6);
        __m256i u = _mm256_madd_epi16(_mm256_shuffle_epi8(_mm256_add_epi16(va, vb), pair), ones);
        __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 4), one);
        u = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, seven), odd), 4);
        u = _mm256_packus_epi16(_mm256_packs_epi32(u, u), u);
        const int lo = _mm_cvtsi128_si32(_mm256_castsi256_si128(u));
        const int hi = _mm_cvtsi128_si32(_mm256_extracti128_si256(u, 1));
        memcpy(o + 3 * x, &lo, 4);
        memcpy(o + 3 * x + 3, &hi, 4);
    }
    return x;
}
#endif

int ts_resize_area_halves(const ts_image *src, ts_image *half, ts_image *quarter)
{
    const int cn = src->channels;
    if ((cn != 1 && cn != 3) || half->channels != cn || quarter->channels != cn ||
        quarter->w < 1 || quarter->h < 1 || 2 * half->w != src->w || 2 * half->h != src->h ||
        2 * quarter->w != half->w || 2 * quarter->h != half->h)
        return 1;
    const size_t n = (size_t)half->w * cn;
    uint16_t *sums = malloc(sizeof *sums * 2 * n);
    if (!sums)
        return -1;
    const int avx2 = halve_avx2(src, 1);
    for (int d = 0; d < quarter->h; d++) {
        uint8_t *o = ts_image_row(quarter, d);
        halve_row(src, half, 2 * d, avx2, sums);
        halve_row(src, half, 2 * d + 1, avx2, sums + n);
        int x = 0;
#if TS_AVX2_PATH
        if (avx2)
            x = quarter_row_bgr_avx2(sums, sums + n, quarter->w, o);
#endif
        quarter_row_plain(sums, sums + n, quarter->w, cn, x, o);
    }
    free(sums);
    return 0;
}

int ts_resize_area_v(const ts_image *src, ts_image *dst, int vector)
{
    const int cn = src->channels, sw = src->w, sh = src->h, dw = dst->w, dh = dst->h;
    if ((cn != 1 && cn != 3) || dst->channels != cn || dw < 1 || dh < 1 || dw > sw ||
        dh > sh || (dw == sw && dh == sh) || sw > 8192 || sh > 8192)
        return 1;
    /* OpenCV's scales, and its test for the whole-number (fast) path */
    const double scale_x = 1. / ((double)dw / sw), scale_y = 1. / ((double)dh / sh);
    const int ix = (int)lrint(scale_x), iy = (int)lrint(scale_y);
    if (fabs(scale_x - ix) < 2.220446049250313e-16 && fabs(scale_y - iy) < 2.220446049250313e-16) {
        if (ix == 2 && iy == 2) {
            halve(src, dst, vector);
            return 0;
        }
        if (ix * iy > 256)
            return 1; /* a cell's sum must fit 16 bits */
        uint16_t *col = malloc(sizeof *col * (size_t)sw * cn * 2);
        float *f = malloc(sizeof *f * (size_t)dw * cn);
        const int ok = col && f;
        if (ok)
            shrink_whole(src, dst, ix, iy, col, f);
        free(col);
        free(f);
        return ok ? 0 : -1;
    }
    if (scale_x < 1 || scale_y < 1)
        return 1;
    const size_t n = (size_t)dw * (size_t)cn;
    tap *xt = malloc((size_t)(2 * sw + 2) * sizeof *xt);
    tap *yt = malloc((size_t)(2 * sh + 2) * sizeof *yt);
    int *xf = malloc((size_t)(dw + 1) * sizeof *xf);
    int *yf = malloc((size_t)(dh + 1) * sizeof *yf);
    float *h = malloc((size_t)sh * n * sizeof *h);           /* every row's sums */
    float *t = malloc((size_t)sw * (size_t)cn * 8 * sizeof *t); /* eight rows' columns */
    float *sum = malloc(n * sizeof *sum);
    int rc = -1;
    if (!xt || !yt || !xf || !yf || !h || !t || !sum)
        goto out;
    axis_taps(sw, dw, scale_x, xt, xf);
    axis_taps(sh, dh, scale_y, yt, yf);
#if TS_AVX2_PATH
    const int avx2 = vector && __builtin_cpu_supports("avx2");
#else
    const int avx2 = 0;
    (void)vector;
#endif
    int y = 0;
    for (; sh >= 8 && y < sh; y += 8) {
        const int y0 = y > sh - 8 ? sh - 8 : y; /* the last eight overlap: the same sums */
        columns8(src, y0, t);
        (avx2 ? rows8_avx2 : rows8_plain)(t, cn, dw, xt, xf, h + (size_t)y0 * n, n);
    }
    for (; y < sh; y++)
        row_sums(ts_image_row(src, y), cn, dw, xt, xf, h + (size_t)y * n);
    for (int d = 0; d < dh; d++) {
        for (int k = yf[d]; k < yf[d + 1]; k++)
            accumulate(sum, h + (size_t)yt[k].s * n, yt[k].alpha, (int)n, k == yf[d]);
        to_bytes(sum, n, ts_image_row(dst, d));
    }
    rc = 0;
out:
    free(xt), free(yt), free(xf), free(yf), free(h), free(t), free(sum);
    return rc;
}

int ts_resize_area(const ts_image *src, ts_image *dst)
{
    return ts_resize_area_v(src, dst, 1);
}
