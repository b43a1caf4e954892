/* OpenCV's 8-bit Gaussian blur, its bytes (see blur.h). */
#include "blur.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"

enum { MAX_TAPS = 33 };

/* OpenCV's fixed-point weights (getGaussianKernelBitExact, then 8 fraction
 * bits with the rounding error carried to the next weight, the centre
 * taking what makes 256): computed here in doubles where OpenCV uses soft
 * floats, so a value within a hair of a rounding boundary is refused (0). */
static int fixed_kernel(double sigma, int n, uint16_t *k)
{
    const int half = n / 2;
    const double scale = -0.125 / (sigma * sigma);
    double v[MAX_TAPS / 2 + 1], sum = 0;
    for (int i = 0, x = 1 - n; i < half; i++, x += 2) {
        v[i] = exp((double)(x * x) * scale);
        sum += v[i];
    }
    const double mul = 1.0 / (2 * sum + 1);
    double err = 0;
    int total = 0;
    for (int i = 0; i < half; i++) {
        const double adj = v[i] * mul * 256 + err;
        const double r = nearbyint(adj);
        if (fabs(fabs(adj - floor(adj)) - 0.5) < 1e-6)
            return 0;
        err = adj - r;
        k[i] = k[n - 1 - i] = (uint16_t)r;
        total += (int)r;
    }
    if (2 * total > 256)
        return 0;
    k[half] = (uint16_t)(256 - 2 * total);
    return 1;
}

/* Reflection 101 of index i into [0, n) (n > the kernel's half). */
static inline int reflect(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

/* h[x] = the row's weighted sum around x (exact: at most 255 * 256; the
 * kernel is symmetric, so each weight but the centre's takes a pair of
 * pixels at once); pad: room for the row with half reflected pixels on
 * either side. */
TS_AVX2_CLONES static void row_pass(const uint8_t *p, int w, const uint16_t *k, int n,
                                    uint16_t *pad, uint16_t *h)
{
    const int half = n / 2;
    for (int x = 0; x < w; x++)
        pad[x + half] = p[x];
    for (int i = 1; i <= half; i++) { /* reflected ends */
        pad[half - i] = p[i];
        pad[half + w - 1 + i] = p[w - 1 - i];
    }
    const uint16_t kc = k[half], *c = pad + half;
    for (int x = 0; x < w; x++)
        h[x] = (uint16_t)(kc * c[x]);
    for (int i = 0; i < half; i++) {
        const uint16_t ki = k[i], *a = pad + i, *b = pad + n - 1 - i;
        if (ki)
            for (int x = 0; x < w; x++)
                h[x] = (uint16_t)(h[x] + ki * (a[x] + b[x]));
    }
}

/* o[x] = the column sum of the filtered rows r[0..n) weighted (in pairs,
 * as along the rows), rounded half up from 16 fraction bits. */
TS_AVX2_CLONES static void column_pass(const uint16_t *const *r, const uint16_t *k, int n, int w,
                                       uint32_t *acc, uint8_t *o)
{
    const int half = n / 2;
    const uint32_t kc = k[half];
    const uint16_t *c = r[half];
    for (int x = 0; x < w; x++)
        acc[x] = kc * c[x];
    for (int j = 0; j < half; j++) {
        const uint32_t kj = k[j];
        const uint16_t *a = r[j], *b = r[n - 1 - j];
        if (kj)
            for (int x = 0; x < w; x++)
                acc[x] += kj * ((uint32_t)a[x] + b[x]);
    }
    for (int x = 0; x < w; x++)
        o[x] = (uint8_t)((acc[x] + (1u << 15)) >> 16);
}

int ts_gauss_blur(const ts_image *src, ts_image *dst, double sigma)
{
    const int w = src->w, h = src->h;
    if (src->channels != 1 || dst->channels != 1 || dst->w != w || dst->h != h || !(sigma > 0))
        return 1;
    const int n = (int)lrint(sigma * 3 * 2 + 1) | 1; /* OpenCV's size for 8 bits, its operations */
    uint16_t k[MAX_TAPS];
    if (n < 3 || n > MAX_TAPS || w < n || h < n || !fixed_kernel(sigma, n, k))
        return 1;
    const int half = n / 2;
    /* a ring of n filtered rows (row q at q mod n), a padded row, sums */
    uint16_t *mem = malloc(sizeof *mem * ((size_t)n * w + (size_t)w + n));
    uint32_t *acc = malloc(sizeof *acc * (size_t)w);
    if (!mem || !acc) {
        free(mem);
        free(acc);
        return -1;
    }
    uint16_t *pad = mem + (size_t)n * w;
    const uint16_t *rows[MAX_TAPS];
    int done = 0; /* rows filtered so far; each read before dst's row of it is written */
    for (int y = 0; y < h; y++) {
        const int last = y + half < h ? y + half : h - 1;
        for (; done <= last; done++)
            row_pass(ts_image_row(src, done), w, k, n, pad, mem + (size_t)(done % n) * w);
        /* the window's rows reflected lie within [y - half, y + half], in the ring */
        for (int j = 0; j < n; j++)
            rows[j] = mem + (size_t)(reflect(y - half + j, h) % n) * w;
        column_pass(rows, k, n, w, acc, ts_image_row(dst, y));
    }
    free(mem);
    free(acc);
    return 0;
}
