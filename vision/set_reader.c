/* SET card reader (see set_reader.h). */
#include "set_reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdraw.h"
#include "cv/cvwrap.h"
#include "imageio.h"
#include "distance.h"
#include "hull.h"
#include "simd.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* AVX2 paths, chosen at run time (the build targets plain x86-64). */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define TS_SET_AVX2 1
#include <immintrin.h>
#endif

enum { W = TS_CARD_W, H = TS_CARD_H, MAX_SYMBOLS = 8 };

/* Distances in card pixels, written for a card 160 px wide and scaled to
 * the working width: the colour ring round the symbols, the paper beyond it,
 * the interior past the outline. */
#define CARD_PX(n) (((n) * W + 80) / 160)
enum { RING = CARD_PX(3), AROUND = CARD_PX(8), INTERIOR = CARD_PX(5) };

struct ts_set_reader {
    ts_profile prof;
    ts_image card;              /* resized input when it is not W x H */
    ts_image mask, closed, filled; /* W x H grey scratch */
    ts_image din, dout; /* distance inside / outside the symbols */
    ts_image small, small_closed; /* paper field at an eighth of the size */
    float ink[W * H];           /* 0 = paper, 1 = black; 0 outside the ink area */
    float recip[256];           /* 1 / (v + 1): divisions by paper become products */
    int fx[W];                  /* paper field column left of card column x */
    float fw[W];                /* and the weight of the one right of it */
    float field[H / 8][W * 3];  /* 1 / paper, widened to the card's width */
    int avx2;                   /* the processor has AVX2 */
    char debug[256];
};

ts_set_reader *ts_set_reader_create(const ts_profile *profile)
{
    ts_set_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->prof = *profile;
#ifdef TS_SET_AVX2
    r->avx2 = __builtin_cpu_supports("avx2");
#endif
    for (int v = 0; v < 256; v++)
        r->recip[v] = 1.0f / (v + 1.0f);
    for (int x = 0; x < W; x++) { /* sample positions as OpenCV upscales */
        float f = (x + 0.5f) * (W / 8) / W - 0.5f;
        int i = (int)floorf(f);
        r->fx[x] = i < 0 ? 0 : i > W / 8 - 2 ? W / 8 - 2 : i;
        r->fw[x] = f < 0 ? 0 : f > W / 8 - 1 ? 1 : f - r->fx[x];
    }
    if (ts_image_alloc(&r->mask, W, H, 1) < 0 || ts_image_alloc(&r->closed, W, H, 1) < 0 ||
        ts_image_alloc(&r->filled, W, H, 1) < 0 ||
        ts_image_alloc(&r->din, W, H, 1) < 0 || ts_image_alloc(&r->dout, W, H, 1) < 0 ||
        ts_image_alloc(&r->small, W / 8, H / 8, 3) < 0 ||
        ts_image_alloc(&r->small_closed, W / 8, H / 8, 3) < 0) {
        ts_set_reader_destroy(r);
        return NULL;
    }
    return r;
}

void ts_set_reader_destroy(ts_set_reader *r)
{
    if (!r)
        return;
    ts_image_free(&r->card);
    ts_image_free(&r->mask);
    ts_image_free(&r->closed);
    ts_image_free(&r->filled);
    ts_image_free(&r->din);
    ts_image_free(&r->dout);
    ts_image_free(&r->small);
    ts_image_free(&r->small_closed);
    free(r);
}

void ts_set_reader_debug(ts_set_reader *r, const char *path)
{
    snprintf(r->debug, sizeof r->debug, "%s", path ? path : "");
}

/* ---- Paper and ink ------------------------------------------------------ */

/* Ink is looked for inside these fractions of the card (the rest is margin
 * that may show the table or the card's edge). */
#define INK_X0 0.06
#define INK_X1 0.94
#define INK_Y0 0.04
#define INK_Y1 0.96

/* The margin band between the card edge and the symbols (paper only), as
 * the x span [x0, x1) of row y minus the inner hole [hx0, hx1) (empty when
 * the row is outside the hole). Returns 0 if the row is outside the band. */
static int margin_span(int y, int *x0, int *x1, int *hx0, int *hx1)
{
    if (!(y > H * 0.035 && y < H * 0.965))
        return 0;
    *x0 = (int)(W * 0.05) + 1; /* x > W * 0.05 */
    *x1 = (int)ceil(W * 0.95); /* x < W * 0.95 */
    int inner = y > H * 0.10 && y < H * 0.90;
    *hx0 = inner ? (int)(W * 0.14) + 1 : 0;
    *hx1 = inner ? (int)ceil(W * 0.86) : 0;
    return 1;
}

/* The value below which a fraction frac of a histogram's n samples lie. */
static int percentile(const int *hist, int n, double frac)
{
    int acc = 0;
    for (int v = 0; v < 256; v++) {
        acc += hist[v];
        if (acc >= n * frac)
            return v;
    }
    return 255;
}

/* Paper colour: the 60th percentile of the margin per channel (robust to a
 * few ink or background pixels). Returns the spread (p90 - p60 of grey) as a
 * measure of how uniform the margin's paper is (wide symbols may reach into
 * the margin, so the darkest part of it is not looked at). */
static float paper_colour(const ts_image *c, float paper[3])
{
    int hist[4][256] = {{0}}; /* B, G, R, grey */
    int n = 0;
    for (int y = 0; y < H; y++) {
        int x0, x1, hx0, hx1;
        if (!margin_span(y, &x0, &x1, &hx0, &hx1))
            continue;
        const uint8_t *p = ts_image_row(c, y);
        for (int x = x0; x < x1; x++) {
            if (x == hx0)
                x = hx1; /* skip the inner hole */
            const uint8_t *px = p + 3 * x;
            hist[0][px[0]]++;
            hist[1][px[1]]++;
            hist[2][px[2]]++;
            hist[3][(px[0] + px[1] + px[2]) / 3]++;
            n++;
        }
    }    for (int ch = 0; ch < 3; ch++)
        paper[ch] = percentile(hist[ch], n, 0.6) + 0.5f;
    return (float)(percentile(hist[3], n, 0.9) - percentile(hist[3], n, 0.6));
}

/* rows[i] += p[i] for a card row's W * 3 bytes (a plain loop the compiler
 * vectorises: words, not ints, so eight or sixteen a step). */
TS_AVX2_CLONES static void column_sums(const uint8_t *restrict p, uint16_t *restrict rows)
{
    for (int i = 0; i < W * 3; i++)
        rows[i] = (uint16_t)(rows[i] + p[i]);
}

/* The paper under the ink, pixel by pixel: closing (max then min) on an
 * eighth-size card removes the dark symbols and keeps the slow light
 * gradients and shadows across the card, which then divide out. */
static int paper_field(ts_set_reader *r, const ts_image *c, char *err)
{
    /* Means of 8 x 8 blocks (the last two rows of the card left out). */
    for (int j = 0; j < H / 8; j++) {
        uint16_t rows[W * 3] = {0}; /* the block row summed down its columns (<= 2040) */
        for (int y = 8 * j; y < 8 * j + 8; y++)
            column_sums(ts_image_row(c, y), rows);
        uint8_t *o = ts_image_row(&r->small, j);
        for (int i = 0; i < W / 8; i++)
            for (int ch = 0; ch < 3; ch++) {
                int sum = 0;
                for (int k = 0; k < 8; k++)
                    sum += rows[(8 * i + k) * 3 + ch];
                o[3 * i + ch] = (uint8_t)((sum + 32) / 64);
            }
    }
    return tscv_morph(&r->small, &r->small_closed, 'c', 4, err);
}

#ifdef TS_SET_AVX2
/* ink_map's row from x to x1, eight pixels a step (the rest is left; returns
 * where it stopped): the same float operations in the same order as the
 * scalar code, the channels of eight pixels gathered by blends and a
 * permutation before their minimum. */
__attribute__((target("avx2"))) static int ink_row_avx2(const uint8_t *p, const float *f0,
                                                       const float *f1, float wy, int x, int x1,
                                                       float *o, int hist[4 * 101])
{
    const __m256 wv = _mm256_set1_ps(wy), one = _mm256_set1_ps(1), hundred = _mm256_set1_ps(100);
    const __m256i c0 = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    const __m256i c1 = _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6);
    const __m256i c2 = _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7);
    for (; x + 8 <= x1; x += 8) {
        __m256 r[3]; /* each channel over its paper, 24 places from 3x */
        for (int k = 0; k < 3; k++) {
            const int i = 3 * x + 8 * k;
            __m256 a = _mm256_loadu_ps(f0 + i), b = _mm256_loadu_ps(f1 + i);
            __m256 f = _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), wv));
            __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p + i))));
            r[k] = _mm256_mul_ps(v, f);
        }
        /* A0 B1 C2 A3 ...: channel 0 of the eight pixels, and so on */
        __m256 t0 = _mm256_blend_ps(_mm256_blend_ps(r[0], r[1], 0x92), r[2], 0x24);
        __m256 t1 = _mm256_blend_ps(_mm256_blend_ps(r[0], r[1], 0x24), r[2], 0x49);
        __m256 t2 = _mm256_blend_ps(_mm256_blend_ps(r[0], r[1], 0x49), r[2], 0x92);
        __m256 m = _mm256_min_ps(_mm256_permutevar8x32_ps(t0, c0), _mm256_permutevar8x32_ps(t1, c1));
        m = _mm256_min_ps(m, _mm256_permutevar8x32_ps(t2, c2));
        __m256 ink = _mm256_sub_ps(one, _mm256_min_ps(m, one));
        _mm256_storeu_ps(o + x, ink);
        int bin[8];
        _mm256_storeu_si256((__m256i *)bin, _mm256_cvttps_epi32(_mm256_mul_ps(ink, hundred)));
        for (int k = 0; k < 8; k++) /* four histograms: runs of one bin do not wait on each other */
            hist[(k & 3) * 101 + bin[k]]++;
    }
    return x;
}
#endif

/* r->ink inside the ink area: 1 - the darkest channel over the paper field
 * there (the field's reciprocal interpolated bilinearly from the eighth-size
 * one). Returns the ink strength, the 99th percentile. */
static float ink_map(ts_set_reader *r, const ts_image *c)
{
    const ts_image *f = &r->small_closed;
    const int fh = f->h;
    const int x0 = (int)(W * INK_X0) + 1, x1 = (int)ceil(W * INK_X1); /* x0 <= x < x1 */
    /* Bilinear upscaling, separated: along the field's rows once, then
     * down the card a row at a time. */
    for (int j = 0; j < fh; j++) {
        const uint8_t *fr = ts_image_row(f, j);
        float rf[W / 8 * 3]; /* the row's reciprocals */
        for (int i = 0; i < W / 8 * 3; i++)
            rf[i] = r->recip[fr[i]];
        for (int x = 0; x < W; x++) {
            const float *a = rf + 3 * r->fx[x], w = r->fw[x];
            float *o = r->field[j] + 3 * x;
            for (int ch = 0; ch < 3; ch++)
                o[ch] = a[ch] + (a[ch + 3] - a[ch]) * w;
        }
    }
    int hist[101] = {0}, n = 0;
    int hist4[4 * 101] = {0}; /* the AVX2 rows' four histograms, summed into hist */
    for (int y = 0; y < H; y++) {
        if (!(y > H * INK_Y0 && y < H * INK_Y1))
            continue;
        float fy = (y + 0.5f) * fh / H - 0.5f;
        int y0 = (int)floorf(fy);
        y0 = y0 < 0 ? 0 : y0 > fh - 2 ? fh - 2 : y0;
        float wy = fy < 0 ? 0 : fy > fh - 1 ? 1 : fy - y0;
        const float *f0 = r->field[y0], *f1 = r->field[y0 + 1];
        const uint8_t *p = ts_image_row(c, y);
        float *o = r->ink + y * W;
        n += x1 - x0;
#ifdef TS_SET_AVX2
        if (r->avx2) {
            int x = ink_row_avx2(p, f0, f1, wy, x0, x1, o, hist4);
            for (; x < x1; x++) {
                float m = 1;
                for (int ch = 0; ch < 3; ch++) {
                    const int i = 3 * x + ch;
                    const float v = p[i] * (f0[i] + (f1[i] - f0[i]) * wy);
                    m = ch == 0 || v < m ? v : m;
                }
                float v = 1 - m;
                o[x] = v < 0 ? 0 : v > 1 ? 1 : v;
                hist[(int)(o[x] * 100)]++;
            }
            continue;
        }
#endif
        float ratio[W * 3]; /* each channel over its paper */
        for (int i = 3 * x0; i < 3 * x1; i++)
            ratio[i] = p[i] * (f0[i] + (f1[i] - f0[i]) * wy);
        int x = x0;
#ifdef __SSE2__
        /* At every place i, 1 - the least of ratio[i..i+2] (at most 1, and
         * >= 0, so only the floor at 0 can bite): at i = 3x, pixel x's ink.
         * Every place alike is four at a time; the compiler will not make
         * vector minima of float compares itself. */
        float v[W * 3];
        const __m128 one = _mm_set1_ps(1);
        int i = 3 * x0;
        for (; i + 6 < 3 * x1; i += 4) {
            __m128 m = _mm_min_ps(_mm_loadu_ps(ratio + i), _mm_loadu_ps(ratio + i + 1));
            m = _mm_min_ps(m, _mm_loadu_ps(ratio + i + 2));
            _mm_storeu_ps(v + i, _mm_sub_ps(one, _mm_min_ps(m, one)));
        }
        for (; x < x1 && 3 * x < i; x++) {
            o[x] = v[3 * x];
            hist[(int)(o[x] * 100)]++;
        }
#endif
        for (; x < x1; x++) {
            float m = ratio[3 * x] < ratio[3 * x + 1] ? ratio[3 * x] : ratio[3 * x + 1];
            m = ratio[3 * x + 2] < m ? ratio[3 * x + 2] : m;
            float v = 1 - m;
            o[x] = v < 0 ? 0 : v > 1 ? 1 : v;
            hist[(int)(o[x] * 100)]++;
        }
    }
    for (int i = 0; i < 101; i++)
        hist[i] += hist4[i] + hist4[101 + i] + hist4[202 + i] + hist4[303 + i];
    int acc = 0;
    for (int i = 100; i >= 0; i--) {
        acc += hist[i];
        if (acc >= n / 100)
            return i / 100.0f;
    }
    return 0;
}

/* True if a contour looks like a shadow or stain rather than a symbol: it
 * runs into the margin while off-centre (symbols are centred across the
 * card; on tightly cropped cards they may reach the margin), or it runs
 * along the edge of the ink area for a stretch, cut off there as a shadow
 * falling across the card edge is (a symbol at most grazes it). */
static int touches_margin(const ts_ipt *p, int n)
{
    double cx = 0;
    int edge = 0, along = 0, x0 = W, x1 = 0;
    for (int i = 0; i < n; i++) {
        int on = p[i].y <= H * INK_Y0 + 2 || p[i].y >= H * INK_Y1 - 2 ||
                 p[i].x <= W * INK_X0 + 2 || p[i].x >= W * INK_X1 - 2;
        edge |= on;
        along += on;
        cx += p[i].x;
        x0 = p[i].x < x0 ? p[i].x : x0;
        x1 = p[i].x > x1 ? p[i].x : x1;
    }
    return (edge && fabs(cx / n - W / 2.0) > 0.12 * W) || along > 0.5 * (x1 - x0);
}

/* ---- Matching ----------------------------------------------------------- */

/* Most likely value when each prototype is a Gaussian with independent
 * features (its own spread, or the attribute's scale) and a value is as
 * likely as its nearest prototype. The confidence is that value's posterior,
 * reduced when even the best match is far from its prototype (a card unlike
 * the deck). */
static int match(const ts_attr_model *m, const float *f, float *conf)
{
    float d2[3], z2[3]; /* -2 log likelihood, and squared distance alone */
    for (int v = 0; v < 3; v++) {
        d2[v] = z2[v] = 1e30f;
        for (int k = 0; k < m->nmodes[v]; k++) {
            float s = 0, logdet = 0;
            for (int i = 0; i < m->nfeat; i++) {
                float sc = m->spread[v][k][i] > 0 ? m->spread[v][k][i] : m->scale[i];
                float z = (f[i] - m->proto[v][k][i]) / sc;
                s += z * z;
                logdet += 2 * logf(sc);
            }
            if (s + logdet < d2[v]) {
                d2[v] = s + logdet;
                z2[v] = s;
            }
        }
    }
    int b = 0;
    for (int v = 1; v < 3; v++)
        if (d2[v] < d2[b])
            b = v;
    float others = 0;
    for (int v = 0; v < 3; v++)
        if (v != b)
            others += expf(-(d2[v] - d2[b]) / 2);
    float c = 1 / (1 + others);
    float far = sqrtf(z2[b]);
    if (far > 4)
        c *= 4 / far;
    *conf = c;
    return b;
}

/* ---- Reading ------------------------------------------------------------ */

typedef struct {
    int start, len;         /* contour points */
    double area, box, hull; /* its area, its minimum rotated rectangle's, its hull's */
    int x0, x1, y0, y1;     /* its box on the card (set by symbols_turned) */
} symbol;

/* The symbols of one card: outer contours of its ink mask, and their box. */
typedef struct {
    tscv_contours cs;
    symbol sym[MAX_SYMBOLS];
    int n;
    double big, small; /* largest and smallest symbol area */
    int x0, x1, y0, y1; /* box around every symbol */
} symbols;

/* Step 1: a card's paper is a light, even, near-grey margin. Fills paper[]
 * (B, G, R); returns 0 if the margin is too dark, patchy or coloured. */
static int paper_ok(const ts_image *c, float paper[3])
{
    float spread = paper_colour(c, paper);
    float paper_grey = (paper[0] + paper[1] + paper[2]) / 3;
    float pmin = fminf(paper[0], fminf(paper[1], paper[2]));
    float pmax = fmaxf(paper[0], fmaxf(paper[1], paper[2]));
    return !(paper_grey < 30 || spread > 0.35f * paper_grey || pmax > 3.0f * pmin);
}

/* Step 2: the ink mask at a fraction of the ink strength (adapts to faded
 * print and blur; the threshold goes to *t), closed so stripes join their
 * outline and broken outlines mend. Returns 0 or -1. */
static int ink_mask(ts_set_reader *r, float strength, float *t, char *err)
{
    *t = 0.30f * strength;
    if (*t < 0.10f)
        *t = 0.10f;
    for (int y = 0; y < H; y++) {
        uint8_t *m = ts_image_row(&r->mask, y);
        const float *ink = r->ink + y * W;
        int x = 0;
#ifdef __SSE2__
        /* sixteen at a time (float compares stay scalar if left to the compiler) */
        const __m128 tv = _mm_set1_ps(*t);
        for (; x + 16 <= W; x += 16) {
            __m128i a = _mm_castps_si128(_mm_cmpgt_ps(_mm_loadu_ps(ink + x), tv));
            __m128i b = _mm_castps_si128(_mm_cmpgt_ps(_mm_loadu_ps(ink + x + 4), tv));
            __m128i c = _mm_castps_si128(_mm_cmpgt_ps(_mm_loadu_ps(ink + x + 8), tv));
            __m128i d = _mm_castps_si128(_mm_cmpgt_ps(_mm_loadu_ps(ink + x + 12), tv));
            /* all-ones lanes pack to 0xff bytes */
            _mm_storeu_si128((__m128i *)(m + x),
                             _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
        }
#endif
        for (; x < W; x++)
            m[x] = ink[x] > *t ? 255 : 0;
    }
    if (tscv_morph(&r->mask, &r->closed, 'c', 2, err) < 0)
        return -1;
    if (r->debug[0])
        ts_image_save(&r->closed, r->debug, NULL, 0);
    return 0;
}

/* Step 3: the symbols among the mask's contours: not specks, not shadows
 * reaching in from the edge, not the card's own edge; of one size. Returns
 * 1 with 1-3 symbols in *s (free s->cs), 0 if there are none or too many
 * (s->cs freed), -1 on error. */
static int find_symbols(ts_set_reader *r, symbols *s, char *err)
{
    if (tscv_find_contours(&r->closed, 1, &s->cs, err) < 0)
        return -1;
    const tscv_contours *cs = &s->cs;
    int ns = 0, too_many = 0;
    double big = 0;
    for (int i = 0; i < cs->n; i++) {
        double a = tscv_area(cs->pts + cs->start[i], cs->len[i]);
        if (a < 0.015 * W * H)
            continue; /* specks, stains, a stray stripe */
        if (touches_margin(cs->pts + cs->start[i], cs->len[i]))
            continue; /* a shadow or stain reaching in from the card's edge */
        /* The hull once: the minimum rectangle is the hull's, and
         * shape_features wants its area. */
        ts_ipt *hull = malloc(sizeof *hull * 2 * (size_t)cs->len[i]);
        int nc = hull ? ts_hull_candidates(cs->pts + cs->start[i], cs->len[i],
                                           hull + cs->len[i])
                      : -1;
        if (nc < 0) {
            free(hull);
            tscv_contours_free(&s->cs);
            snprintf(err, TSCV_ERR_MAX, "set reader: out of memory");
            return -1;
        }
        /* the same hull from the points that can be its corners (hull.h) */
        int nh = tscv_hull(hull + cs->len[i], nc, hull);
        double hull_area = nh > 2 ? tscv_area(hull, nh) : 0;
        ts_pt rc[4];
        tscv_min_rect(hull, nh, rc);
        free(hull);
        double side1 = hypot(rc[1].x - rc[0].x, rc[1].y - rc[0].y);
        double side2 = hypot(rc[2].x - rc[1].x, rc[2].y - rc[1].y);
        if ((side1 > 0.8 * W && side2 > 0.5 * H) || (side2 > 0.8 * W && side1 > 0.5 * H))
            continue; /* the card's own edge or background seen through the margin */
        if (ns == MAX_SYMBOLS) {
            too_many = 1;
            break;
        }
        s->sym[ns++] = (symbol){cs->start[i], cs->len[i], a, side1 * side2, hull_area, 0, 0, 0, 0};
        if (a > big)
            big = a;
    }
    /* Symbols of one card are alike; drop blobs far smaller than the largest. */
    int k = 0;
    double small = big;
    for (int i = 0; i < ns; i++)
        if (s->sym[i].area > 0.35 * big) {
            s->sym[k++] = s->sym[i];
            if (s->sym[i].area < small)
                small = s->sym[i].area;
        }
    s->n = k;
    s->big = big;
    s->small = small;
    if (k < 1 || k > 3 || too_many) {
        tscv_contours_free(&s->cs);
        return 0;
    }
    return 1;
}

/* Step 4: the symbols' box, and whether they lie across the card (wider
 * than tall) as they should. Two cards side by side seen as one quad show
 * theirs turned on end (the caller may then try the quad as two cards). */
static int symbols_turned(symbols *s)
{
    int across = 0, along = 0;
    s->x0 = W, s->x1 = 0, s->y0 = H, s->y1 = 0;
    for (int i = 0; i < s->n; i++) {
        const ts_ipt *p = s->cs.pts + s->sym[i].start;
        int x0 = W, x1 = 0, y0 = H, y1 = 0;
        for (int j = 0; j < s->sym[i].len; j++) {
            x0 = p[j].x < x0 ? p[j].x : x0;
            x1 = p[j].x > x1 ? p[j].x : x1;
            y0 = p[j].y < y0 ? p[j].y : y0;
            y1 = p[j].y > y1 ? p[j].y : y1;
        }
        s->sym[i].x0 = x0, s->sym[i].x1 = x1, s->sym[i].y0 = y0, s->sym[i].y1 = y1;
        across += x1 - x0;
        along += y1 - y0;
        s->x0 = x0 < s->x0 ? x0 : s->x0;
        s->x1 = x1 > s->x1 ? x1 : s->x1;
        s->y0 = y0 < s->y0 ? y0 : s->y0;
        s->y1 = y1 > s->y1 ? y1 : s->y1;
    }
    return along > across;
}

/* Step 5: shape features - area over its minimum rectangle (diamond 0.5,
 * oval 0.85) and over its convex hull (a squiggle is concave), averaged
 * over the symbols - and the filled symbols in r->filled. */
static int shape_features(ts_set_reader *r, const symbols *s, float feat[], char *err)
{
    float extent = 0, solidity = 0;
    memset(r->filled.buf, 0, (size_t)W * H);
    for (int i = 0; i < s->n; i++) {
        const ts_ipt *p = s->cs.pts + s->sym[i].start;
        double ha = s->sym[i].hull;
        extent += (float)(s->sym[i].box > 0 ? s->sym[i].area / s->sym[i].box : 0);
        solidity += (float)(ha > 0 ? s->sym[i].area / ha : 0);
        if (tscv_fill_contour(&r->filled, p, s->sym[i].len, err) < 0)
            return -1;
    }
    feat[0] = extent / s->n;
    feat[1] = solidity / s->n;
    return 0;
}

/* What step 6 sums over the symbols and around them. Every ink value is a
 * multiple of 2^-24 in [0, 1] (1 - a float in [0, 1]), so the sums of ink
 * values and of their differences are exact in a double whatever their
 * order; only inner2 (of squares) must be summed in the pixels' order. */
typedef struct {
    double around, inner, inner2, texture;
    long px[3]; /* the ring's pixel values, summed per channel */
    int nround, nring, nink, nin;
} ink_sums;

/* Adds pixel x of a row (di, dou: distances inside and outside the symbols,
 * offset to the card's x). */
static inline void ink_sums_add(ink_sums *a, const uint8_t *px, const uint8_t *di,
                                const uint8_t *dou, const float *ink, int x, float t)
{
    float v = ink[x];
    if (dou[x] > RING && dou[x] <= AROUND) {
        a->around += v; /* paper just outside the symbols */
        a->nround++;
    }
    if (dou[x] <= RING) {
        for (int ch = 0; ch < 3; ch++)
            a->px[ch] += px[3 * x + ch];
        a->nring++;
        a->nink += v > t;
    }
    if (di[x] > INTERIOR && x > 0 && x < W - 1) {
        a->inner += v;
        a->inner2 += (double)v * v;
        /* stripes run across the symbol: ink alternates along x */
        a->texture += fabsf(ink[x + 1] - ink[x - 1]);
        a->nin++;
    }
}

#ifdef TS_SET_AVX2
__attribute__((target("avx2"))) static double sum4d(__m256d v)
{
    double d[4];
    _mm256_storeu_pd(d, v);
    return (d[0] + d[1]) + (d[2] + d[3]);
}

__attribute__((target("avx2"))) static int sum8i(__m256i v)
{
    int d[8], s = 0;
    _mm256_storeu_si256((__m256i *)d, v);
    for (int i = 0; i < 8; i++)
        s += d[i];
    return s;
}

/* ink_sums_add for pixels x.. while eight fit below xe (0 < x, xe <= W - 1);
 * returns where it stopped. Masks per pixel, the exact sums in double lanes,
 * inner2 in order over the interior's pixels. */
__attribute__((target("avx2"))) static int ink_sums_avx2(ink_sums *a, const uint8_t *px,
                                                        const uint8_t *di, const uint8_t *dou,
                                                        const float *ink, int x, int xe, float t)
{
    const __m128i b0 = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i b1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i g0 = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i g1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i r0 = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i r1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i ring = _mm256_set1_epi32(RING + 1), around = _mm256_set1_epi32(AROUND + 1);
    const __m256i ring_out = _mm256_set1_epi32(RING), interior = _mm256_set1_epi32(INTERIOR);
    const __m256 tv = _mm256_set1_ps(t), sign = _mm256_set1_ps(-0.0f);
    __m256d ar = _mm256_setzero_pd(), in = _mm256_setzero_pd(), tx = _mm256_setzero_pd();
    __m256i sb = _mm256_setzero_si256(), sg = sb, sr = sb, cround = sb, cring = sb, cink = sb;
    __m256i cin = sb;
    for (; x + 8 <= xe; x += 8) {
        const __m256 v = _mm256_loadu_ps(ink + x);
        const __m256i d = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(dou + x)));
        const __m256i e = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(di + x)));
        const __m256i m_ar = _mm256_and_si256(_mm256_cmpgt_epi32(d, ring_out),
                                              _mm256_cmpgt_epi32(around, d));
        const __m256i m_ring = _mm256_cmpgt_epi32(ring, d);
        const __m256i m_in = _mm256_cmpgt_epi32(e, interior);
        /* masked values, each to its own double sum */
        const __m256 va = _mm256_and_ps(v, _mm256_castsi256_ps(m_ar));
        ar = _mm256_add_pd(ar, _mm256_cvtps_pd(_mm256_castps256_ps128(va)));
        ar = _mm256_add_pd(ar, _mm256_cvtps_pd(_mm256_extractf128_ps(va, 1)));
        const __m256 vi = _mm256_and_ps(v, _mm256_castsi256_ps(m_in));
        in = _mm256_add_pd(in, _mm256_cvtps_pd(_mm256_castps256_ps128(vi)));
        in = _mm256_add_pd(in, _mm256_cvtps_pd(_mm256_extractf128_ps(vi, 1)));
        __m256 dt = _mm256_sub_ps(_mm256_loadu_ps(ink + x + 1), _mm256_loadu_ps(ink + x - 1));
        dt = _mm256_and_ps(_mm256_andnot_ps(sign, dt), _mm256_castsi256_ps(m_in));
        tx = _mm256_add_pd(tx, _mm256_cvtps_pd(_mm256_castps256_ps128(dt)));
        tx = _mm256_add_pd(tx, _mm256_cvtps_pd(_mm256_extractf128_ps(dt, 1)));
        /* counts: masks are -1 */
        cround = _mm256_sub_epi32(cround, m_ar);
        cring = _mm256_sub_epi32(cring, m_ring);
        cin = _mm256_sub_epi32(cin, m_in);
        cink = _mm256_sub_epi32(
            cink, _mm256_and_si256(m_ring, _mm256_castps_si256(_mm256_cmp_ps(v, tv, _CMP_GT_OQ))));
        /* the ring's pixels, channel by channel */
        const __m128i lo = _mm_loadu_si128((const __m128i *)(px + 3 * x));
        const __m128i hi = _mm_loadl_epi64((const __m128i *)(px + 3 * x + 16));
        sb = _mm256_add_epi32(sb, _mm256_and_si256(m_ring, _mm256_cvtepu8_epi32(_mm_or_si128(
                                                               _mm_shuffle_epi8(lo, b0),
                                                               _mm_shuffle_epi8(hi, b1)))));
        sg = _mm256_add_epi32(sg, _mm256_and_si256(m_ring, _mm256_cvtepu8_epi32(_mm_or_si128(
                                                               _mm_shuffle_epi8(lo, g0),
                                                               _mm_shuffle_epi8(hi, g1)))));
        sr = _mm256_add_epi32(sr, _mm256_and_si256(m_ring, _mm256_cvtepu8_epi32(_mm_or_si128(
                                                               _mm_shuffle_epi8(lo, r0),
                                                               _mm_shuffle_epi8(hi, r1)))));
        /* the squares in order */
        for (int bits = _mm256_movemask_ps(_mm256_castsi256_ps(m_in)); bits; bits &= bits - 1) {
            const float w = ink[x + __builtin_ctz((unsigned)bits)];
            a->inner2 += (double)w * w;
        }
    }
    a->around += sum4d(ar);
    a->inner += sum4d(in);
    a->texture += sum4d(tx);
    a->px[0] += sum8i(sb);
    a->px[1] += sum8i(sg);
    a->px[2] += sum8i(sr);
    a->nround += sum8i(cround);
    a->nring += sum8i(cring);
    a->nink += sum8i(cink);
    a->nin += sum8i(cin);
    return x;
}
#endif

/* How alike a symbol is to itself turned half a turn about its centre:
 * the share of its filled pixels (in r->filled, inside its box) whose
 * mirror through the centre is filled too. SET's diamond, oval and
 * squiggle all are (about 1); a shape cut by another card's edge, a
 * playing card's heart, spade or club and Gang of Four's brush numerals
 * are not. */
static double half_turn_symmetry(const ts_set_reader *r, const symbol *sym)
{
    const int x0 = sym->x0, x1 = sym->x1, y0 = sym->y0, y1 = sym->y1;
    long sx = 0, sy = 0, cnt = 0;
    for (int y = y0; y <= y1; y++) {
        const uint8_t *f = ts_image_row(&r->filled, y);
        for (int x = x0; x <= x1; x++)
            if (f[x])
                sx += x, sy += y, cnt++;
    }
    if (!cnt)
        return 0;
    /* twice the centre, rounded: the mirror of x is tx - x */
    const int tx = (int)((2 * sx + cnt / 2) / cnt), ty = (int)((2 * sy + cnt / 2) / cnt);
    long same = 0;
    for (int y = y0; y <= y1; y++) {
        const uint8_t *f = ts_image_row(&r->filled, y);
        const int my = ty - y;
        if (my < y0 || my > y1)
            continue;
        const uint8_t *m = ts_image_row(&r->filled, my);
        for (int x = x0; x <= x1; x++) {
            const int mx = tx - x;
            same += f[x] && mx >= x0 && mx <= x1 && m[mx];
        }
    }
    return (double)same / cnt;
}

/* A SET symbol, whatever the deck's shapes, lies long across the card:
 * SHAPE_LONG of the card's width and more, SHAPE_ASPECT times as long as
 * it is thick (along the card's length when the symbols are turned).
 * A domino's round pip, a heart or a spade in a quad of its own, or a
 * playing card's index is not, even when its area, hull and colour match
 * a SET shape's. A lone symbol must also be alike to itself turned half a
 * turn (diamond, oval and squiggle all are): a Gang of Four numeral, a
 * club, or a shape cut by the edge of a card lying over it is not. Two or
 * three alike symbols evenly spaced are SET's mark already, and glare
 * fading one side of each leaves them lopsided (pclewis "angle", 2PDS).
 * Measured over the sure readings of shared boards and crops, SET renders
 * and other families' renders (seeds 100000, 103000): these keep every
 * shared one and drop 1049 of the 1715 on other families' tables. */
#define SHAPE_LONG 0.30
#define SHAPE_ASPECT 1.1
#define SHAPE_SYM 0.80

/* Whether the symbols of s (filled in r->filled) have SET symbols' form. */
static int set_shaped(const ts_set_reader *r, const symbols *s, int turned)
{
    const int span = turned ? H : W;
    for (int i = 0; i < s->n; i++) {
        const symbol *y = &s->sym[i];
        const int across = y->x1 - y->x0 + 1, along = y->y1 - y->y0 + 1;
        const int len = turned ? along : across, thick = turned ? across : along;
        if (len < SHAPE_LONG * span || len < SHAPE_ASPECT * thick)
            return 0;
    }
    return s->n > 1 || half_turn_symmetry(r, &s->sym[0]) >= SHAPE_SYM;
}

/* Step 6: colour and shading features from the ink in and around the
 * symbols. Distances inside and outside the symbols: the interior lies past
 * the outline (> 5 px in), the colour ring within 3 px out, the surrounding
 * paper 3..8 px out. Only the symbols' box grown by 9 px can hold any of
 * these (its border is outside every symbol), so only it is looked at.
 * Returns 0 if there is too little ink to tell, 1 otherwise. */
static int ink_features(ts_set_reader *r, const ts_image *c, const symbols *s,
                        const float paper[3], float strength, float t, ts_set_reading *out)
{
    enum { G = AROUND + 1 };
    const int gx0 = s->x0 - G < 0 ? 0 : s->x0 - G, gy0 = s->y0 - G < 0 ? 0 : s->y0 - G;
    const int gx1 = s->x1 + G + 1 > W ? W : s->x1 + G + 1;
    const int gy1 = s->y1 + G + 1 > H ? H : s->y1 + G + 1;
    ts_image filled = ts_image_roi(&r->filled, gx0, gy0, gx1 - gx0, gy1 - gy0);
    ts_image outside = ts_image_roi(&r->mask, gx0, gy0, gx1 - gx0, gy1 - gy0);
    ts_image din = ts_image_roi(&r->din, gx0, gy0, gx1 - gx0, gy1 - gy0);
    ts_image dout = ts_image_roi(&r->dout, gx0, gy0, gx1 - gx0, gy1 - gy0);
    for (int y = 0; y < filled.h; y++) {
        const uint8_t *restrict f = ts_image_row(&filled, y);
        uint8_t *restrict o = ts_image_row(&outside, y); /* another image: a vector loop */
        for (int x = 0; x < filled.w; x++)
            o[x] = f[x] ? 0 : 255;
    }
    ts_distance_l1(&filled, &din);
    ts_distance_l1(&outside, &dout);

    /* Colour: total paper-relative absorption per channel over the symbols
     * and a ring around them. Blur and JPEG chroma subsampling spread a thin
     * line's colour into its neighbours but keep the sum, so summing over the
     * ring keeps open and striped symbols as colourful as solid ones. */
    const float inv_paper[3] = {1 / paper[0], 1 / paper[1], 1 / paper[2]};
    double ab[3] = {0};
    ink_sums a = {0};
    for (int y = gy0; y < gy1; y++) {
        const uint8_t *px = ts_image_row(c, y);
        const uint8_t *di = ts_image_row(&din, y - gy0) - gx0;
        const uint8_t *dou = ts_image_row(&dout, y - gy0) - gx0;
        const float *ink = r->ink + y * W;
        int x = gx0;
#ifdef TS_SET_AVX2
        if (r->avx2) {
            const int xs = gx0 > 0 ? gx0 : 1, xe = gx1 < W - 1 ? gx1 : W - 1;
            for (; x < xs; x++)
                ink_sums_add(&a, px, di, dou, ink, x, t);
            x = ink_sums_avx2(&a, px, di, dou, ink, x, xe, t);
        }
#endif
        for (; x < gx1; x++)
            ink_sums_add(&a, px, di, dou, ink, x, t);
    }
    const double around = a.around, inner = a.inner, inner2 = a.inner2, texture = a.texture;
    const long *sum_px = a.px;
    const int nink = a.nink, nin = a.nin, nround = a.nround, nring = a.nring;
    for (int ch = 0; ch < 3; ch++) { /* the sum of 1 - pixel / paper */
        ab[ch] = nring - sum_px[ch] * (double)inv_paper[ch];
        if (ab[ch] < 0)
            ab[ch] = 0;
    }
    double sum = ab[0] + ab[1] + ab[2];
    if (nink < 20 || sum <= 0)
        return 0;
    float *colour = out->feat[TS_ATTR_COLOUR], *shading = out->feat[TS_ATTR_SHADING];
    colour[0] = (float)(ab[2] / sum); /* red channel's share */
    colour[1] = (float)(ab[1] / sum); /* green's */
    /* Shading: how much of the ink strength fills the interior, measured
     * from the paper just around the symbols (shadows and uneven light shift
     * both alike), and how uneven the interior is (stripes). */
    double base = nround ? around / nround : 0, span = strength - base;
    if (nin < 10 || span < 0.05) {
        shading[0] = shading[1] = shading[2] = 0;
    } else {
        double mean = inner / nin, var = inner2 / nin - mean * mean;
        shading[0] = (float)((mean - base) / span);
        shading[1] = (float)(sqrt(var > 0 ? var : 0) / span);
        shading[2] = (float)(texture / nin / span);
    }
    return 1;
}

/* A reading whose symbols have no SET symbol's form (set_shaped) keeps its
 * best guess, below the reader's floor: its shape is this unsure. */
#define UNSHAPED_CONF 0.3f

/* Step 7: each attribute matched to the profile; the whole reading is right
 * only if every attribute is (shaped: the symbols have SET symbols' form). */
static void classify(const ts_set_reader *r, const symbols *s, ts_set_reading *out, int shaped)
{
    out->is_card = 1;
    out->value[TS_SET_NUM] = s->n - 1;
    /* Count is sure when the symbols match in size. */
    float ratio = (float)(s->small / s->big);
    out->conf[TS_SET_NUM] = ratio > 0.75f ? 1.0f : (ratio - 0.35f) / 0.4f;
    out->value[TS_SET_COLOUR] =
        match(&r->prof.attr[TS_ATTR_COLOUR], out->feat[TS_ATTR_COLOUR], &out->conf[TS_SET_COLOUR]);
    out->value[TS_SET_SHAPE] =
        match(&r->prof.attr[TS_ATTR_SHAPE], out->feat[TS_ATTR_SHAPE], &out->conf[TS_SET_SHAPE]);
    out->foreign = !shaped;
    if (!shaped)
        out->conf[TS_SET_SHAPE] *= UNSHAPED_CONF;
    out->value[TS_SET_SHADING] = match(&r->prof.attr[TS_ATTR_SHADING], out->feat[TS_ATTR_SHADING],
                                       &out->conf[TS_SET_SHADING]);
    out->conf_all = 1;
    for (int a = 0; a < 4; a++)
        out->conf_all *= out->conf[a];
    out->idx = ts_set_make(out->value[0], out->value[1], out->value[2], out->value[3]);
}

int ts_set_read(ts_set_reader *r, const ts_image *in, ts_set_reading *out, char *err)
{
    memset(out, 0, sizeof *out);
    const ts_image *c = in;
    if (in->w != W || in->h != H || in->channels != 3) {
        if (in->channels != 3) {
            snprintf(err, TSCV_ERR_MAX, "set reader: needs a BGR card image");
            return -1;
        }
        if (tscv_resize(in, &r->card, W, H, err) < 0)
            return -1;
        c = &r->card;
    }
    float paper[3];
    if (!paper_ok(c, paper))
        return 0;
    if (paper_field(r, c, err) < 0)
        return -1;
    float strength = ink_map(r, c);
    if (strength < 0.12f)
        return 0; /* blank */
    float t;
    if (ink_mask(r, strength, &t, err) < 0)
        return -1;
    symbols s;
    int found = find_symbols(r, &s, err);
    if (found <= 0)
        return found;
    out->turned = symbols_turned(&s);
    int rc = shape_features(r, &s, out->feat[TS_ATTR_SHAPE], err);
    int shaped = rc == 0 && set_shaped(r, &s, out->turned);
    tscv_contours_free(&s.cs);
    if (rc < 0)
        return -1;
    if (!ink_features(r, c, &s, paper, strength, t, out))
        return 0;
    const float *colour = out->feat[TS_ATTR_COLOUR];
    if (hypotf(colour[0] - 1.0f / 3, colour[1] - 1.0f / 3) < r->prof.min_chroma)
        return 0; /* grey "ink": a pattern or a shadow, not this deck's print */
    classify(r, &s, out, shaped);
    return 0;
}
