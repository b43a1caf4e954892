/* Bilinear affine warp of BGR images (see warp.h).
 *
 * OpenCV's arithmetic, step by step: the map in fixed point with 10
 * fraction bits (each row's start and each column's step rounded to
 * nearest), positions cut to 1/32 pixel; the four weights of a position are
 * products of (32 - f, f) pairs, so they sum to 1024 exactly and the blend
 * rounds as (sum + 512) >> 10 (OpenCV's 15-bit weights are these times 32).
 * Outside the frame each tap's coordinate is clamped (BORDER_REPLICATE). */
#include "warp.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* An AVX2 path, chosen at run time (the build targets plain x86-64). */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define TS_WARP_AVX2 1
#include <immintrin.h>
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

/* What every pixel's blend needs. */
typedef struct {
    const ts_image *src;
#ifdef __SSE2__
    __m128i wt[TAB]; /* (32 - f, f) pairs */
    unsigned fast_w, fast_h; /* the left tap and 8 bytes from it inside: sx < w - 2 */
    const uint8_t *buf;
    size_t stride;
    int avx2; /* blend_run_avx2 may be used */
#endif
} sampler;

static void sampler_init(sampler *s, const ts_image *src, int vector)
{
    s->src = src;
#ifdef __SSE2__
    for (int f = 0; f < TAB; f++)
        s->wt[f] = _mm_set1_epi32(f << 16 | (TAB - f));
    s->fast_w = src->w > 2 ? (unsigned)src->w - 2 : 0;
    s->fast_h = (unsigned)src->h - 1;
    s->buf = src->buf;
    s->stride = (size_t)src->stride;
    s->avx2 = 0;
#ifdef TS_WARP_AVX2
    /* its offsets are ints: the frame's bytes must fit one */
    s->avx2 = vector && s->fast_w > 0 && s->fast_h > 0 &&
              (size_t)src->stride * (size_t)src->h < (size_t)INT_MAX &&
              __builtin_cpu_supports("avx2");
#endif
#endif
    (void)vector;
}

/* Writes the blend at (X, Y) in 1/32 px to o (3 bytes; 4 if more4, the
 * fourth being the next pixel's, written after this). OpenCV saturates
 * positions to 16 bits; frames are under 32767 px a side, so that clamps to
 * the same edge pixel as the taps' clamp does. */
static inline void sample(const sampler *s, int X, int Y, uint8_t *o, int more4)
{
    /* >> of a negative int rounds down (arithmetic shift), as in OpenCV */
    const int sx = X >> INTER_BITS, sy = Y >> INTER_BITS;
    const int fx = X & (TAB - 1), fy = Y & (TAB - 1);
#ifdef __SSE2__
    if ((unsigned)sx < s->fast_w && (unsigned)sy < s->fast_h) {
        const uint8_t *r0 = s->buf + (size_t)sy * s->stride + 3 * (size_t)sx;
        int px = blend_sse2(r0, r0 + s->stride, s->wt, fx, fy);
        if (more4) /* constant sizes: one store, not a byte loop */
            memcpy(o, &px, 4);
        else
            memcpy(o, &px, 3);
        return;
    }
#else
    (void)more4;
#endif
    blend_clamped(s->src, sx, sy, fx, fy, o);
}

#ifdef TS_WARP_AVX2
/* Eight pixels a step, two to a register (pixels i and i + 4 in a
 * register's two 128-bit lanes): each pixel's two rows of taps side by side
 * in its lane, shuffled to (left, right) byte pairs of each channel, top row
 * then bottom, so one multiply-add of bytes by the (32 - fx, fx) pairs gives
 * the rows' blends (at most 8160) and one of words by the (32 - fy, fy)
 * pairs gives OpenCV's sums. Steps with a pixel outside the fast region
 * (unless all_in says none is), and the last few pixels, go through
 * sample(). room: bytes that may be written from o. */
__attribute__((target("avx2"))) static void blend_run_avx2(const sampler *s, const int *px,
                                                          const int *py, int n, uint8_t *o,
                                                          int room, int all_in)
{
    const __m256i pairs = _mm256_setr_epi8(0, 3, 8, 11, 1, 4, 9, 12, 2, 5, 10, 13, -1, -1, -1, -1,
                                           0, 3, 8, 11, 1, 4, 9, 12, 2, 5, 10, 13, -1, -1, -1, -1);
    const __m256i pack3 = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7); /* 24 bytes in a row */
    const __m256i wmax = _mm256_set1_epi32((int)s->fast_w - 1);
    const __m256i hmax = _mm256_set1_epi32((int)s->fast_h - 1);
    const __m256i stride = _mm256_set1_epi32((int)s->stride), tab = _mm256_set1_epi32(TAB);
    const __m256i fmask = _mm256_set1_epi32(TAB - 1), half = _mm256_set1_epi32(512);
    const uint8_t *buf = s->buf;
    const size_t st = s->stride;
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m256i X = _mm256_loadu_si256((const __m256i *)(px + x));
        const __m256i Y = _mm256_loadu_si256((const __m256i *)(py + x));
        const __m256i sx = _mm256_srai_epi32(X, INTER_BITS), sy = _mm256_srai_epi32(Y, INTER_BITS);
        /* (unsigned)sx < fast_w and (unsigned)sy < fast_h, all eight */
        if (!all_in &&
            _mm256_movemask_epi8(
                _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(sx, wmax), sx),
                                 _mm256_cmpeq_epi32(_mm256_min_epu32(sy, hmax), sy))) != -1) {
            for (int k = 0; k < 8; k++)
                sample(s, px[x + k], py[x + k], o + 3 * (x + k), 3 * (x + k) + 4 <= room);
            continue;
        }
        unsigned off[8]; /* in the frame: offsets are >= 0 */
        _mm256_storeu_si256((__m256i *)off,
                            _mm256_add_epi32(_mm256_mullo_epi32(sy, stride),
                                             _mm256_add_epi32(sx, _mm256_add_epi32(sx, sx))));
        /* 32 - f in the low byte (word), f in the high */
        const __m256i fx = _mm256_and_si256(X, fmask), fy = _mm256_and_si256(Y, fmask);
        __m256i wx = _mm256_or_si256(_mm256_slli_epi32(fx, 8), _mm256_sub_epi32(tab, fx));
        wx = _mm256_or_si256(wx, _mm256_slli_epi32(wx, 16)); /* both words of a lane */
        const __m256i wy = _mm256_or_si256(_mm256_slli_epi32(fy, 16), _mm256_sub_epi32(tab, fy));
        __m256i v[4];
        for (int k = 0; k < 4; k++) { /* pixels k and k + 4 */
            const uint8_t *a = buf + off[k], *b = buf + off[k + 4];
            __m256i t = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)a),
                                                          _mm_loadl_epi64((const __m128i *)(a + st)))),
                _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)b),
                                   _mm_loadl_epi64((const __m128i *)(b + st))),
                1);
            v[k] = _mm256_shuffle_epi8(t, pairs);
        }
        /* each lane's k-th weights, broadcast in the lane */
        v[0] = _mm256_madd_epi16(_mm256_maddubs_epi16(v[0], _mm256_shuffle_epi32(wx, 0x00)),
                                 _mm256_shuffle_epi32(wy, 0x00));
        v[1] = _mm256_madd_epi16(_mm256_maddubs_epi16(v[1], _mm256_shuffle_epi32(wx, 0x55)),
                                 _mm256_shuffle_epi32(wy, 0x55));
        v[2] = _mm256_madd_epi16(_mm256_maddubs_epi16(v[2], _mm256_shuffle_epi32(wx, 0xaa)),
                                 _mm256_shuffle_epi32(wy, 0xaa));
        v[3] = _mm256_madd_epi16(_mm256_maddubs_epi16(v[3], _mm256_shuffle_epi32(wx, 0xff)),
                                 _mm256_shuffle_epi32(wy, 0xff));
        for (int k = 0; k < 4; k++)
            v[k] = _mm256_srli_epi32(_mm256_add_epi32(v[k], half), 10);
        /* lanes: pixels 0-3 and 4-7, B G R 0 each, then 12 bytes each, then 24 */
        __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
        p = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(p, pack3), join);
        if (3 * x + 32 <= room) {
            _mm256_storeu_si256((__m256i *)(o + 3 * x), p);
        } else {
            _mm_storeu_si128((__m128i *)(o + 3 * x), _mm256_castsi256_si128(p));
            _mm_storel_epi64((__m128i *)(o + 3 * x + 16), _mm256_extracti128_si256(p, 1));
        }
    }
    for (; x < n; x++)
        sample(s, px[x], py[x], o + 3 * x, 3 * x + 4 <= room);
}
#endif

/* Blends n pixels at (px[i], py[i]) (1/32 px) into o, 3 bytes each; room:
 * bytes that may be written from o. all_in: the caller knows every pixel's
 * taps lie in the fast region. */
static void blend_run(const sampler *s, const int *px, const int *py, int n, uint8_t *o, int room,
                      int all_in)
{
#ifdef TS_WARP_AVX2
    if (s->avx2) {
        blend_run_avx2(s, px, py, n, o, room, all_in);
        return;
    }
#endif
    (void)all_in;
    for (int x = 0; x < n; x++)
        sample(s, px[x], py[x], o + 3 * x, 3 * x + 4 <= room);
}

/* OpenCV's affine map at AB_BITS fraction bits, as both affine warps take
 * it: each column's offset in x (step[x]) and in y (step[w + x]); -1 when
 * one is out of the fixed-point range. */
static int column_steps(const double m[6], int w, int *step)
{
    for (int x = 0; x < w; x++) {
        double a = m[0] * x * (1 << AB_BITS), b = m[3] * x * (1 << AB_BITS);
        if (!(fabs(a) < LIMIT && fabs(b) < LIMIT))
            return -1;
        step[x] = (int)lrint(a);
        step[w + x] = (int)lrint(b);
    }
    return 0;
}

/* Row y's start in x and y at AB_BITS fraction bits, plus round; -1 as
 * above. */
static int row_start(const double m[6], int y, int round, int *x0, int *y0)
{
    double a = (m[1] * y + m[2]) * (1 << AB_BITS), b = (m[4] * y + m[5]) * (1 << AB_BITS);
    if (!(fabs(a) < LIMIT && fabs(b) < LIMIT))
        return -1;
    *x0 = (int)lrint(a) + round;
    *y0 = (int)lrint(b) + round;
    return 0;
}

int ts_warp_affine_linear(const ts_image *src, const double m[6], ts_image *dst)
{
    return ts_warp_affine_linear_v(src, m, dst, 1);
}

int ts_warp_perspective_linear(const ts_image *src, const double m[9], ts_image *dst)
{
    return ts_warp_perspective_linear_v(src, m, dst, 1);
}

int ts_warp_affine_linear_v(const ts_image *src, const double m[6], ts_image *dst, int vector)
{
    if (src->channels != 3 || dst->channels != 3 || src->w < 1 || src->h < 1 || dst->w < 1)
        return -1;
    const int w = dst->w, h = dst->h;
    /* each column's offset in x, then in y; a row's positions */
    int *step = malloc(sizeof *step * 4 * (size_t)w);
    if (!step)
        return -1;
    int *pos = step + 2 * w;
    if (column_steps(m, w, step) < 0) {
        free(step);
        return -1;
    }
    sampler sm;
    sampler_init(&sm, src, vector);
    for (int y = 0; y < h; y++) {
        int X0, Y0;
        if (row_start(m, y, ROUND, &X0, &Y0) < 0) {
            free(step);
            return -1;
        }
        for (int x = 0; x < w; x++) { /* a loop the compiler vectorises */
            pos[x] = (X0 + step[x]) >> (AB_BITS - INTER_BITS);
            pos[w + x] = (Y0 + step[w + x]) >> (AB_BITS - INTER_BITS);
        }
        /* a row's positions move steadily one way (the steps are rounded
         * multiples of the column), so its ends bound them all */
        int all_in = 0;
#ifdef __SSE2__
        const int *px = pos, *py = pos + w;
        all_in = (unsigned)(px[0] >> INTER_BITS) < sm.fast_w &&
                 (unsigned)(px[w - 1] >> INTER_BITS) < sm.fast_w &&
                 (unsigned)(py[0] >> INTER_BITS) < sm.fast_h &&
                 (unsigned)(py[w - 1] >> INTER_BITS) < sm.fast_h;
#endif
        blend_run(&sm, pos, pos + w, w, ts_image_row(dst, y), 3 * w, all_in);
    }
    free(step);
    return 0;
}

/* OpenCV's nearest-pixel affine warp: each column's offset and each row's
 * start rounded at 10 fraction bits as for the blend, half a pixel added,
 * the position truncated, held to a short, then the edge pixel repeated
 * outside. */
int ts_warp_affine_nearest(const ts_image *src, const double m[6], ts_image *dst)
{
    const int cn = src->channels;
    if ((cn != 1 && cn != 3) || dst->channels != cn || src->w < 1 || src->h < 1 || dst->w < 1)
        return -1;
    const int w = dst->w, h = dst->h;
    int *step = malloc(sizeof *step * 2 * (size_t)w);
    if (!step)
        return -1;
    if (column_steps(m, w, step) < 0) {
        free(step);
        return -1;
    }
    for (int y = 0; y < h; y++) {
        int X0, Y0;
        if (row_start(m, y, (1 << AB_BITS) / 2, &X0, &Y0) < 0) {
            free(step);
            return -1;
        }
        uint8_t *o = ts_image_row(dst, y);
        /* a row's positions move steadily one way, so its ends bound them */
        const int x0 = (X0 + step[0]) >> AB_BITS, x1 = (X0 + step[w - 1]) >> AB_BITS;
        const int y0 = (Y0 + step[w]) >> AB_BITS, y1 = (Y0 + step[2 * w - 1]) >> AB_BITS;
        if ((unsigned)x0 < (unsigned)src->w && (unsigned)x1 < (unsigned)src->w &&
            (unsigned)y0 < (unsigned)src->h && (unsigned)y1 < (unsigned)src->h) {
            const uint8_t *base = src->buf;
            const size_t stride = (size_t)src->stride;
            if (cn == 3)
                for (int x = 0; x < w; x++) {
                    const uint8_t *p = base + (size_t)((Y0 + step[w + x]) >> AB_BITS) * stride +
                                       (size_t)((X0 + step[x]) >> AB_BITS) * 3;
                    o[3 * x] = p[0], o[3 * x + 1] = p[1], o[3 * x + 2] = p[2];
                }
            else
                for (int x = 0; x < w; x++)
                    o[x] = base[(size_t)((Y0 + step[w + x]) >> AB_BITS) * stride +
                                (size_t)((X0 + step[x]) >> AB_BITS)];
            continue;
        }
        for (int x = 0; x < w; x++) {
            int sx = clampi((X0 + step[x]) >> AB_BITS, -32768, 32767); /* a short */
            int sy = clampi((Y0 + step[w + x]) >> AB_BITS, -32768, 32767);
            sx = clampi(sx, 0, src->w - 1);
            sy = clampi(sy, 0, src->h - 1);
            const uint8_t *p = ts_image_row(src, sy) + (size_t)sx * (size_t)cn;
            if (cn == 3)
                o[3 * x] = p[0], o[3 * x + 1] = p[1], o[3 * x + 2] = p[2];
            else
                o[x] = p[0];
        }
    }
    free(step);
    return 0;
}

/* OpenCV's rounding of a position: clamped to int's range, to nearest
 * (even on ties; the instruction OpenCV's cvRound uses, not a libm call). */
static inline int round_sat(double v)
{
    v = v < 2147483647.0 ? v : 2147483647.0;
    v = v > -2147483648.0 ? v : -2147483648.0;
#ifdef __SSE2__
    return _mm_cvtsd_si32(_mm_set_sd(v));
#else
    return (int)lrint(v);
#endif
}

int ts_warp_perspective_linear_v(const ts_image *src, const double m[9], ts_image *dst,
                                 int vector)
{
    if (src->channels != 3 || dst->channels != 3 || src->w < 1 || src->h < 1 || dst->w < 1 ||
        dst->h < 1)
        return -1;
    const int w = dst->w, h = dst->h;
    /* OpenCV maps blocks of BW columns, each from its first column's
     * homogeneous coordinates plus x1 times the column step: the same sums
     * in the same order give the same doubles. */
    enum { BLOCK = 32 };
    const int bh = BLOCK / 2 < h ? BLOCK / 2 : h;
    const int bw = BLOCK * BLOCK / bh < w ? BLOCK * BLOCK / bh : w;
    int *pos = malloc(sizeof *pos * 2 * (size_t)bw); /* a block row's X, then its Y */
    if (!pos)
        return -1;
    sampler sm;
    sampler_init(&sm, src, vector);
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(dst, y);
        for (int x = 0; x < w; x += bw) {
            const int n = bw < w - x ? bw : w - x;
            const double X0 = m[0] * x + m[1] * y + m[2];
            const double Y0 = m[3] * x + m[4] * y + m[5];
            const double W0 = m[6] * x + m[7] * y + m[8];
            int x1 = 0;
#ifdef __SSE2__
            /* two columns at a time: the same double operations, one
             * division instruction for both */
            const __m128d m0 = _mm_set1_pd(m[0]), m3 = _mm_set1_pd(m[3]), m6 = _mm_set1_pd(m[6]);
            const __m128d x0 = _mm_set1_pd(X0), y0 = _mm_set1_pd(Y0), w0 = _mm_set1_pd(W0);
            const __m128d tab = _mm_set1_pd(TAB), zero = _mm_setzero_pd();
            const __m128d hi = _mm_set1_pd(2147483647.0), lo = _mm_set1_pd(-2147483648.0);
            __m128d c = _mm_set_pd(1, 0);
            for (; x1 + 2 <= n; x1 += 2, c = _mm_add_pd(c, _mm_set1_pd(2))) {
                __m128d W = _mm_add_pd(w0, _mm_mul_pd(m6, c));
                W = _mm_and_pd(_mm_div_pd(tab, W), _mm_cmpneq_pd(W, zero));
                __m128d fx = _mm_mul_pd(_mm_add_pd(x0, _mm_mul_pd(m0, c)), W);
                __m128d fy = _mm_mul_pd(_mm_add_pd(y0, _mm_mul_pd(m3, c)), W);
                fx = _mm_max_pd(_mm_min_pd(fx, hi), lo);
                fy = _mm_max_pd(_mm_min_pd(fy, hi), lo);
                __m128i ix = _mm_cvtpd_epi32(fx), iy = _mm_cvtpd_epi32(fy);
                _mm_storel_epi64((__m128i *)(pos + x1), ix);
                _mm_storel_epi64((__m128i *)(pos + bw + x1), iy);
            }
#endif
            for (; x1 < n; x1++) {
                double W = W0 + m[6] * x1;
                W = W != 0 ? TAB / W : 0;
                pos[x1] = round_sat((X0 + m[0] * x1) * W);
                pos[bw + x1] = round_sat((Y0 + m[3] * x1) * W);
            }
            blend_run(&sm, pos, pos + bw, n, o + 3 * x, 3 * (w - x), 0);
        }
    }
    free(pos);
    return 0;
}
