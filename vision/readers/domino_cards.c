/* Finding Chinese domino cards by their pips (see domino_cards.h). */
#include "readers/domino_cards.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "median.h"
#include "union_find.h"
#include "readers/domino_pips.h"
#if defined(__x86_64__)
#include <xmmintrin.h>
/* An AVX2 grey, chosen at run time (the build targets plain x86-64). */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define TS_DOMINO_AVX2 1
#include <immintrin.h>
#endif
#endif

enum {
    BLOCK = 16,      /* paper level and activity are measured per block */
    MAX_PIPS = 1024, /* pips kept per frame */
    MAX_RAY = 900,   /* px: no card is longer in a frame we read */
    KNOWN = 2,       /* a pip inside this many cards found offers none */
    WORKED = 1,
    BORDER = 2,
    OWN_PAPER = 4,
    /* a ray stops at grey below this percentage of the paper's mean level
     * near it: against the mean, not the brightest pixel, the camera's
     * noise and a lamp's falloff along a card stay paper */
    STOP_PCT = 84,
    SECOND_LOOKS = 96, /* second looks a frame (see second_look) */
    BARE_LOOKS = 256,  /* bare looks a frame (see bare_look) */
    /* a pip's card, its trims, narrows, strict card, second look, length
     * width, bare look and its trims */
    MAX_CANDS = 10 * MAX_PIPS,
    PALE_SAMPLES = 16384, /* pixels paper_tint keeps */
    TINT_MIN = 20,        /* of them, the fewest that tell the paper's colour */
};

/* The deck's printed proportions (seed 004: 26 x 82 mm). Other decks are
 * a little longer; a card measured whole keeps its own length. */
static const float DECK_ASPECT = 82.0f / 26.0f;
static const float MIN_ASPECT = 2.5f, MAX_ASPECT = 4.4f;
/* a card found whole this much wider than its length gives is narrowed too
 * (see narrows): past the tenth a camera's slant shortens it by */
static const float NARROW_OVER = 1.15f;
/* a quad is this share of the card's width larger each side than the paper
 * the rays measure: they end a little inside the card (see card_of_pip) */
static const float GROW = 0.035f;
/* a card found whole this much longer than the frame's cards, one end moved
 * out to a pip (see frame_trims): a quarter of a card past the seam is no
 * printed rule of its own */
static const float PULLED_OVER = 1.25f;

/* lrintf (to nearest, ties to even) without the call libm makes of it
 * (errno): rays round every step. The same instruction glibc uses. */
static inline long round_px(float v)
{
#if defined(__x86_64__)
    return (long)_mm_cvtss_si64(_mm_set_ss(v));
#else
    return lrintf(v);
#endif
}

typedef struct {
    float cx, cy; /* centre */
    float r;      /* half its larger box side (px) */
    int area;
    int clover;   /* a Hong Kong five: its own pixels are see-through, not a disc */
    int paper;    /* the paper level of its block (see keep_brighter) */
} pip;

typedef struct {
    ts_quad q;
    int whole; /* both ends found where a card's would be */
    int pulled; /* an end moved out to a pip lying clear beyond it */
    int straight; /* both ends seen as straight lines across it */
    float rank;
    float width; /* across the card (px) */
    float across; /* the direction across it (radians) */
    float len_w;  /* both ends seen, too close for its width: the width
                     they give (0: none; see card_of_pip) */
    int ran_on;   /* the paper round the pip ran on past a few cards' width */
} cand;

struct domino_card_finder {
    int w, h, bw, bh;
    uint8_t *paper;  /* per block: the paper level near it (grey, its brightest) */
    uint8_t *level;  /* per block: the paper level near it (grey, its mean) */
    uint32_t *wsum;  /* per block: sum of the grey of its paper samples */
    uint8_t *active; /* per block: WORKED near paper, BORDER round those (grey
                        only), OWN_PAPER paper in the block itself */
    uint8_t *ink;    /* per pixel: ink (dark or red) on paper; once the pips are
                        found, 1 where a pip's see-through disc hid a stop */
    uint8_t *stop;   /* per pixel: not paper (a ray ends), 0 on a pip */
    uint8_t *raw;    /* per pixel: stop before the specks are dropped; then 1 on a
                        pip's see-through disc */
    int thr;         /* a second look: two pixels running darker than this stop
                        a ray too (0: off) */
    float own_x, own_y, own_r; /* a bare look: only this disc is see-through
                                  (own_r 0: off; see bare_look) */
    uint8_t *grey;   /* per pixel: (B + 2G + R) / 4, in and round active blocks */
    int *queue;      /* w * h + 1: flood fill */
    pip *pips;
    int npips;
    int red_lim[256];    /* red: r - max(b, g) above this (r > 80, beyond 45 and r / 3) */
    uint8_t colour_lim[256]; /* coloured: max - min at least this, by max */
    uint8_t white_lim[256];  /* hardly coloured: max - min below this, by max */
    cand *cands;
    int nfound; /* quads the last find returned (cands[0..nfound)) */
    uint32_t *pale;    /* PALE_SAMPLES: paper_tint's samples */
    float rmed;        /* the median radius of the frame's plain pips (0: none) */
};

static void free_planes(domino_card_finder *f)
{
    free(f->paper);
    free(f->level);
    free(f->wsum);
    free(f->active);
    free(f->ink);
    free(f->stop);
    free(f->raw);
    free(f->grey);
    free(f->queue);
    f->paper = f->level = f->active = f->ink = f->stop = f->raw = f->grey = NULL;
    f->queue = NULL;
    f->wsum = NULL;
    f->w = f->h = 0;
}

domino_card_finder *domino_card_finder_create(void)
{
    domino_card_finder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    for (int v = 0; v < 256; v++) {
        f->red_lim[v] = v > 80 ? (v / 3 > 45 ? v / 3 : 45) : 255;
        f->colour_lim[v] = (uint8_t)(v * 45 / 100 + 10);
        f->white_lim[v] = (uint8_t)(v * 30 / 100 + 8);
    }
    f->pips = malloc(sizeof(pip) * MAX_PIPS);
    f->cands = malloc(sizeof(cand) * MAX_CANDS);
    f->pale = malloc(sizeof(uint32_t) * PALE_SAMPLES);
    if (!f->pips || !f->cands || !f->pale) {
        domino_card_finder_destroy(f);
        return NULL;
    }
    return f;
}

void domino_card_finder_destroy(domino_card_finder *f)
{
    if (!f)
        return;
    free_planes(f);
    free(f->pale);
    free(f->pips);
    free(f->cands);
    free(f);
}

static int ensure(domino_card_finder *f, int w, int h)
{
    if (f->ink && f->w == w && f->h == h)
        return 0;
    free_planes(f);
    f->w = w;
    f->h = h;
    f->bw = (w + BLOCK - 1) / BLOCK;
    f->bh = (h + BLOCK - 1) / BLOCK;
    size_t n = (size_t)w * (size_t)h, nb = (size_t)f->bw * (size_t)f->bh;
    f->paper = malloc(nb);
    f->level = malloc(nb);
    f->wsum = malloc(sizeof(uint32_t) * nb);
    f->active = malloc(nb);
    f->ink = malloc(n);
    f->stop = malloc(n);
    f->raw = malloc(n);
    f->grey = malloc(n);
    f->queue = malloc(sizeof(int) * (n + 1));
    if (!f->paper || !f->level || !f->wsum || !f->active || !f->ink || !f->stop || !f->raw || !f->grey || !f->queue) {
        free_planes(f);
        return -1;
    }
    return 0;
}

#ifdef TS_DOMINO_AVX2
/* survey's samples of one block's row (every other pixel of the 16 from p,
 * BGR) as eight words at once: *best the brightest grey so far, *count and
 * *sum the paper-white samples and their grey. A block has 64 samples, so
 * the count never reaches survey's cap of 255; white_lim[v] + tint = v * 30
 * / 100 + 8 + tint is computed (n / 100 = n * 5243 >> 19 for n < 43699). */
__attribute__((target("avx2"))) static void survey8_avx2(const uint8_t *p, int tint, int *best,
                                                        int *count, uint32_t *sum)
{
    const __m128i c0 = _mm_loadu_si128((const __m128i *)p);
    const __m128i c1 = _mm_loadu_si128((const __m128i *)(p + 16));
    const __m128i c2 = _mm_loadu_si128((const __m128i *)(p + 32));
#define PICK(a0, a1, a2)                                                                           \
    _mm_cvtepu8_epi16(_mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(c0, a0), _mm_shuffle_epi8(c1, a1)), \
                                   _mm_shuffle_epi8(c2, a2)))
    const __m128i b = PICK(_mm_setr_epi8(0, 6, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, 2, 8, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 4, 10, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m128i gg = PICK(_mm_setr_epi8(1, 7, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                            _mm_setr_epi8(-1, -1, -1, 3, 9, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                            _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 5, 11, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m128i r = PICK(_mm_setr_epi8(2, 8, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, 4, 10, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 6, 12, -1, -1, -1, -1, -1, -1, -1, -1));
#undef PICK
    const __m128i g = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(b, r), _mm_add_epi16(gg, gg)), 2);
    const __m128i hi = _mm_max_epi16(_mm_max_epi16(b, gg), r);
    const __m128i lo = _mm_min_epi16(_mm_min_epi16(b, gg), r);
    const __m128i wl = _mm_add_epi16(
        _mm_srli_epi16(_mm_mulhi_epu16(_mm_mullo_epi16(hi, _mm_set1_epi16(30)), _mm_set1_epi16(5243)), 3),
        _mm_set1_epi16((short)(8 + tint)));
    const __m128i white = _mm_and_si128(_mm_cmpgt_epi16(g, _mm_set1_epi16(69)),
                                        _mm_cmpgt_epi16(wl, _mm_sub_epi16(hi, lo)));
    __m128i m = _mm_max_epi16(g, _mm_shuffle_epi32(g, 0x4e));
    m = _mm_max_epi16(m, _mm_shuffle_epi32(m, 0xb1));
    m = _mm_max_epi16(m, _mm_srli_epi32(m, 16));
    const int top = _mm_cvtsi128_si32(m) & 0xffff;
    *best = top > *best ? top : *best;
    *count += __builtin_popcount((unsigned)_mm_movemask_epi8(white)) / 2;
    const __m128i s = _mm_sad_epu8(_mm_and_si128(g, white), _mm_setzero_si128());
    *sum += (uint32_t)(_mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4));
}
#endif

/* A first look at every other pixel of every other row: per block, the
 * brightest grey and whether it holds white paper (bright and hardly
 * coloured), and that paper's mean grey. The paper levels of a block are
 * the brightest grey and the brightest paper mean of it and its eight
 * neighbours (a pip or a gap is darker than the paper around it);
 * a block is worked if paper is in it or next to it, and the blocks round
 * those get their grey (a thin line is found from pixels two away). */
static void survey(domino_card_finder *f, const ts_image *frame, int tint)
{
    const int w = f->w, h = f->h, bw = f->bw, bh = f->bh;
#ifdef TS_DOMINO_AVX2
    const int avx2 = __builtin_cpu_supports("avx2");
    _Static_assert(BLOCK == 16, "survey8_avx2 takes a block of 16 pixels");
#endif
    size_t nb = (size_t)bw * (size_t)bh;
    uint8_t *mx = f->raw, *white = f->raw + nb; /* scratch: raw holds w * h >= 2 nb */
    memset(mx, 0, 2 * nb);
    memset(f->wsum, 0, sizeof(uint32_t) * nb);
    for (int y = 0; y < h; y += 2) {
        const uint8_t *row = ts_image_row(frame, y);
        uint8_t *m = mx + (size_t)(y / BLOCK) * (size_t)bw;
        uint8_t *wt = white + (size_t)(y / BLOCK) * (size_t)bw;
        uint32_t *ws = f->wsum + (size_t)(y / BLOCK) * (size_t)bw;
        for (int bx = 0; bx < bw; bx++) {
            int x0 = bx * BLOCK, x1 = x0 + BLOCK < w ? x0 + BLOCK : w;
            int best = m[bx], count = wt[bx];
            uint32_t sum = ws[bx];
#ifdef TS_DOMINO_AVX2
            if (avx2 && x1 - x0 == BLOCK) { /* the same numbers */
                survey8_avx2(row + 3 * x0, tint, &best, &count, &sum);
                m[bx] = (uint8_t)best;
                wt[bx] = (uint8_t)count;
                ws[bx] = sum;
                continue;
            }
#endif
            for (int x = x0; x < x1; x += 2) { /* no branches */
                const uint8_t *q = row + 3 * x;
                int g = (q[0] + 2 * q[1] + q[2]) >> 2, hi = q[0], lo = q[0];
                for (int c = 1; c < 3; c++) {
                    hi = q[c] > hi ? q[c] : hi;
                    lo = q[c] < lo ? q[c] : lo;
                }
                best = g > best ? g : best;
                int is_white = (g >= 70) & (hi - lo < f->white_lim[hi] + tint) & (count < 255);
                count += is_white;
                sum += (uint32_t)(g & -is_white);
            }
            m[bx] = (uint8_t)best;
            wt[bx] = (uint8_t)count;
            ws[bx] = sum;
        }
    }
    for (int by = 0; by < bh; by++)
        for (int bx = 0; bx < bw; bx++) {
            int best = 0, near = 0, lev = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x = bx + dx, y = by + dy;
                    if (x < 0 || y < 0 || x >= bw || y >= bh)
                        continue;
                    int j = y * bw + x, nw = white[j];
                    best = mx[j] > best ? mx[j] : best;
                    near |= nw >= 3;
                    if (nw >= 3) {
                        int mean = (int)(f->wsum[j] / (uint32_t)nw);
                        lev = mean > lev ? mean : lev;
                    }
                }
            f->paper[by * bw + bx] = (uint8_t)best;
            f->level[by * bw + bx] = (uint8_t)lev;
            f->active[by * bw + bx] =
                (uint8_t)((near ? WORKED : 0) | (white[by * bw + bx] ? OWN_PAPER : 0));
        }
    for (size_t i = 0; i < nb; i++) /* the border ring: grey only */
        if (!(f->active[i] & WORKED)) {
            int bx = (int)(i % (size_t)bw), by = (int)(i / (size_t)bw), hit = 0;
            for (int dy = -1; dy <= 1 && !hit; dy++)
                for (int dx = -1; dx <= 1 && !hit; dx++) {
                    int x = bx + dx, y = by + dy;
                    hit = x >= 0 && y >= 0 && x < bw && y < bh && (f->active[y * bw + x] & WORKED);
                }
            if (hit)
                f->active[i] |= BORDER;
        }
}

#ifdef TS_DOMINO_AVX2
/* g[x] = (B + 2 G + R) >> 2 of the pixels from p, eight a step (four whole
 * pixels to a lane, read 16 bytes from each lane's first) while the bytes
 * read stay below end. Returns how many it made (a multiple of 8, <= n). */
__attribute__((target("avx2"))) static int grey_run_avx2(const uint8_t *p, int n,
                                                        const uint8_t *end, uint8_t *g)
{
    /* (B, G) pairs, then (R, 0): weighted 1 2 and 1 0, summed in words */
    const __m256i pick = _mm256_setr_epi8(0, 1, 3, 4, 6, 7, 9, 10, 2, -1, 5, -1, 8, -1, 11, -1,
                                          0, 1, 3, 4, 6, 7, 9, 10, 2, -1, 5, -1, 8, -1, 11, -1);
    const __m256i wt = _mm256_setr_epi8(1, 2, 1, 2, 1, 2, 1, 2, 1, 0, 1, 0, 1, 0, 1, 0,
                                        1, 2, 1, 2, 1, 2, 1, 2, 1, 0, 1, 0, 1, 0, 1, 0);
    int x = 0;
    for (; x + 8 <= n && p + 3 * x + 28 <= end; x += 8) {
        const uint8_t *q = p + 3 * x;
        __m256i v = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)q)),
            _mm_loadu_si128((const __m128i *)(q + 12)), 1);
        v = _mm256_maddubs_epi16(_mm256_shuffle_epi8(v, pick), wt);
        v = _mm256_srli_epi16(_mm256_add_epi16(v, _mm256_srli_si256(v, 8)), 2);
        v = _mm256_packus_epi16(v, v); /* a lane's four greys in its first bytes */
        const int lo = _mm256_cvtsi256_si32(v), hi = _mm256_extract_epi32(v, 4);
        memcpy(g + x, &lo, 4);
        memcpy(g + x + 4, &hi, 4);
    }
    return x;
}
#endif

/* Grey of the active blocks in block row by, row by row (the frame is
 * read in its own order). */
static void grey_blocks(domino_card_finder *f, const ts_image *frame, int by)
{
    const int w = f->w, h = f->h, bw = f->bw;
#ifdef TS_DOMINO_AVX2
    const int avx2 = __builtin_cpu_supports("avx2");
#endif
    const uint8_t *act = f->active + (size_t)by * (size_t)bw;
    int y0 = by * BLOCK, y1 = y0 + BLOCK < h ? y0 + BLOCK : h;
    for (int y = y0; y < y1; y++) {
        const uint8_t *row = ts_image_row(frame, y);
        uint8_t *g = f->grey + (size_t)y * (size_t)w;
        for (int bx = 0; bx < bw; bx++) {
            if (!act[bx])
                continue;
            int x0 = bx * BLOCK, x1 = x0 + BLOCK < w ? x0 + BLOCK : w, x = x0;
#ifdef TS_DOMINO_AVX2
            if (avx2)
                x += grey_run_avx2(row + 3 * x0, x1 - x0, row + 3 * (size_t)w, g + x0);
#endif
            const uint8_t *p = row + 3 * x;
            for (; x < x1; x++, p += 3)
                g[x] = (uint8_t)((p[0] + 2 * p[1] + p[2]) >> 2);
        }
    }
}

#ifdef TS_DOMINO_AVX2
/* classify's test of one whole block row (16 pixels from p, BGR; g, gu, gd:
 * their grey and the grey two rows up and down, gu and gd read only when
 * vert; g[-2] and g[17] readable) as words, sixteen at once. The limit tables
 * are computed as finder_create fills them (exact for bytes: v / 3 is v *
 * 171 >> 9, n / 100 for n < 43699 is n * 5243 >> 19). */
__attribute__((target("avx2"))) static void classify16_avx2(const uint8_t *p, const uint8_t *g,
                                                           const uint8_t *gu, const uint8_t *gd,
                                                           int vert, int dark_t, int stop_t,
                                                           int line, uint8_t *ink, uint8_t *st)
{
    const __m128i c0 = _mm_loadu_si128((const __m128i *)p);
    const __m128i c1 = _mm_loadu_si128((const __m128i *)(p + 16));
    const __m128i c2 = _mm_loadu_si128((const __m128i *)(p + 32));
#define PICK(a0, a1, a2)                                                                           \
    _mm256_cvtepu8_epi16(_mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(c0, a0), _mm_shuffle_epi8(c1, a1)), \
                                      _mm_shuffle_epi8(c2, a2)))
    const __m256i b = PICK(_mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13));
    const __m256i gg = PICK(_mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                            _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1),
                            _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14));
    const __m256i r = PICK(_mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1),
                           _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15));
#undef PICK
#define WORDS(q) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(q)))
    const __m256i grey = WORDS(g);
    const __m256i bg = _mm256_max_epi16(b, gg);
    const __m256i mx = _mm256_max_epi16(bg, r), mn = _mm256_min_epi16(_mm256_min_epi16(b, gg), r);
    /* red_lim[r] = r > 80 ? max(r / 3, 45) : 255 */
    const __m256i third = _mm256_srli_epi16(_mm256_mullo_epi16(r, _mm256_set1_epi16(171)), 9);
    const __m256i lim = _mm256_blendv_epi8(_mm256_set1_epi16(255),
                                           _mm256_max_epi16(third, _mm256_set1_epi16(45)),
                                           _mm256_cmpgt_epi16(r, _mm256_set1_epi16(80)));
    const __m256i red = _mm256_cmpgt_epi16(_mm256_sub_epi16(r, bg), lim);
    const __m256i dark = _mm256_cmpgt_epi16(_mm256_set1_epi16((short)dark_t), grey);
    /* colour_lim[mx] = mx * 45 / 100 + 10 */
    const __m256i clim = _mm256_add_epi16(
        _mm256_srli_epi16(_mm256_mulhi_epu16(_mm256_mullo_epi16(mx, _mm256_set1_epi16(45)),
                                             _mm256_set1_epi16(5243)),
                          3),
        _mm256_set1_epi16(10));
    const __m256i coloured = _mm256_andnot_si256(
        _mm256_cmpgt_epi16(clim, _mm256_sub_epi16(mx, mn)), _mm256_set1_epi16(-1));
    const __m256i v = _mm256_add_epi16(grey, _mm256_set1_epi16((short)line));
    __m256i stop = _mm256_or_si256(_mm256_cmpgt_epi16(_mm256_set1_epi16((short)stop_t), grey), coloured);
    stop = _mm256_or_si256(stop, _mm256_and_si256(_mm256_cmpgt_epi16(WORDS(g - 2), v),
                                                  _mm256_cmpgt_epi16(WORDS(g + 2), v)));
    if (vert)
        stop = _mm256_or_si256(stop, _mm256_and_si256(_mm256_cmpgt_epi16(WORDS(gu), v),
                                                      _mm256_cmpgt_epi16(WORDS(gd), v)));
#undef WORDS
    const __m256i one = _mm256_set1_epi8(1);
    const __m256i i8 = _mm256_permute4x64_epi64(_mm256_packs_epi16(_mm256_or_si256(dark, red), stop), 0xd8);
    /* low lane: ink's sixteen, high: the stops' */
    const __m256i bits = _mm256_and_si256(i8, one);
    _mm_storeu_si128((__m128i *)ink, _mm256_castsi256_si128(bits));
    _mm_storeu_si128((__m128i *)st, _mm256_extracti128_si256(bits, 1));
}
#endif

/* Grey for worked blocks and their border; ink (darker than 62% of the
 * brightest paper near it, or red) and stops (darker than STOP_PCT of its
 * mean level, coloured, or a
 * faint thin line: darker than both pixels two away across it, the seam of
 * two cards laid edge to edge) in worked blocks. Elsewhere no ink, and
 * every pixel stops a ray. */
static void classify(domino_card_finder *f, const ts_image *frame)
{
    const int w = f->w, h = f->h, bw = f->bw, bh = f->bh;
#ifdef TS_DOMINO_AVX2
    const int avx2 = __builtin_cpu_supports("avx2");
#endif
    memset(f->ink, 0, (size_t)w * (size_t)h);
    memset(f->raw, 1, (size_t)w * (size_t)h);
    /* a row of blocks is classified right after the grey of the next one
     * is made (a pixel looks two rows down): the frame's rows are read
     * twice while they are still in the cache */
    grey_blocks(f, frame, 0);
    for (int by = 0; by < bh; by++) {
        if (by + 1 < bh)
            grey_blocks(f, frame, by + 1);
        int y0 = by * BLOCK, y1 = y0 + BLOCK < h ? y0 + BLOCK : h;
        for (int y = y0; y < y1; y++) {
            const uint8_t *row = ts_image_row(frame, y);
            const uint8_t *g = f->grey + (size_t)y * (size_t)w;
            uint8_t *ink = f->ink + (size_t)y * (size_t)w, *st = f->raw + (size_t)y * (size_t)w;
            int vert = y >= 2 && y < h - 2;
            const uint8_t *gu = vert ? g - 2 * w : g, *gd = vert ? g + 2 * w : g;
            for (int bx = 0; bx < bw; bx++) {
                int act = f->active[by * bw + bx];
                if (!(act & WORKED))
                    continue;
                /* dark ink only where the block holds paper itself: the
                 * table round a card is darker than the card, and no pip */
                int paper = f->paper[by * bw + bx], line = paper * 12 / 100;
                int ink_paper = act & OWN_PAPER ? paper : 0;
                /* the tests below as thresholds on whole numbers: grey *
                 * 100 < p * k is grey < ceil(p * k / 100) */
                int dark_t = ink_paper >= 70 ? (ink_paper * 62 + 99) / 100 : 0;
                int level = f->level[by * bw + bx];
                /* and always below 72% of the brightest paper near it: a
                 * cloth nearly as bright as the cards (their mean level
                 * taken from its blocks) still ends a ray */
                int stop_t = (level * STOP_PCT + 99) / 100, stop_m = (paper * 72 + 99) / 100;
                stop_t = stop_m > stop_t ? stop_m : stop_t;
                int x0 = bx * BLOCK, x1 = x0 + BLOCK < w ? x0 + BLOCK : w;
#ifdef TS_DOMINO_AVX2
                if (avx2 && x1 - x0 == 16 && x0 >= 2 && x1 <= w - 2) { /* the same bytes */
                    classify16_avx2(row + 3 * x0, g + x0, gu + x0, gd + x0, vert, dark_t, stop_t,
                                    line, ink + x0, st + x0);
                    continue;
                }
#endif
                /* columns whose neighbours two away across are in the frame */
                int xi0 = x0 > 2 ? x0 : 2, xi1 = x1 < w - 2 ? x1 : w - 2;
                const uint8_t *p = row + 3 * x0;
                for (int x = x0; x < x1; x++, p += 3) {
                    int b = p[0], gg = p[1], r = p[2], grey = g[x];
                    int mx = b > gg ? b : gg, mn = b < gg ? b : gg, bg = mx;
                    mx = r > mx ? r : mx;
                    mn = r < mn ? r : mn;
                    int red = r - bg > f->red_lim[r];
                    int dark = grey < dark_t;
                    ink[x] = (uint8_t)(dark | red);
                    int v = grey + line;
                    int across = x >= xi0 && x < xi1 ? (g[x - 2] > v) & (g[x + 2] > v) : 0;
                    int down = vert & (gu[x] > v) & (gd[x] > v);
                    st[x] = (uint8_t)((grey < stop_t) | (mx - mn >= f->colour_lim[mx]) |
                                      across | down);
                }
            }
        }
    }
}

/* Stops with at least two stops among their eight neighbours: a line or an
 * edge, not a speck of the camera's noise on the paper. */
static void drop_specks(domino_card_finder *f)
{
    const int w = f->w, h = f->h, bw = f->bw;
    memset(f->stop, 1, (size_t)w * (size_t)h);
    for (int y = 1; y < h - 1; y++) {
        const uint8_t *a = f->raw + (size_t)(y - 1) * (size_t)w, *b = a + w, *c = b + w;
        const uint8_t *act = f->active + (size_t)(y / BLOCK) * (size_t)bw;
        uint8_t *o = f->stop + (size_t)y * (size_t)w;
        for (int bx = 0; bx < bw; bx++) {
            if (!(act[bx] & WORKED))
                continue;
            int x0 = bx * BLOCK > 1 ? bx * BLOCK : 1;
            int x1 = (bx + 1) * BLOCK < w - 1 ? (bx + 1) * BLOCK : w - 1;
            for (int x = x0; x < x1; x++) { /* no branches: it vectorises */
                int n =
                    a[x - 1] + a[x] + a[x + 1] + b[x - 1] + b[x + 1] + c[x - 1] + c[x] + c[x + 1];
                o[x] = (uint8_t)(b[x] & (n >= 2));
            }
        }
    }
}

/* True if (x, y) is bright grey paper (not a stop). */
static int paper_at(const domino_card_finder *f, float x, float y)
{
    int ix = (int)round_px(x), iy = (int)round_px(y);
    if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
        return 0;
    size_t at = (size_t)iy * (size_t)f->w + (size_t)ix;
    return !f->stop[at] && !(f->grey[at] < f->thr && !f->raw[at]);
}

/* The radius of a pip's see-through disc: its blurred rim too (a clover's
 * middle may hold no paper block: no ink there). */
static float disc_radius(const pip *p)
{
    return p->clover ? 0.6f * p->r : 1.35f * p->r + 2;
}

/* Paints a disc see-through for rays (a pip is part of the card),
 * marking in ink (all clear once find_pips has walked it) the stops it hid
 * (see bare_look). */
static void clear_disc(domino_card_finder *f, float cx, float cy, float r)
{
    int y0 = (int)floorf(cy - r), y1 = (int)ceilf(cy + r);
    int x0 = (int)floorf(cx - r), x1 = (int)ceilf(cx + r);
    for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < f->h; y++)
        for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < f->w; x++)
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) {
                size_t at = (size_t)y * (size_t)f->w + (size_t)x;
                f->ink[at] |= f->stop[at];
                f->stop[at] = 0;
                f->raw[at] = 1;
            }
}

/* True if the blob of pixels px[0..n) (packed y << 16 | x) of frame, on
 * paper of grey `paper`, is printed in no colour of a pip. A pip absorbs
 * blue and green alike (every deck prints them black or red), so neither
 * channel lies much above its grey, nor green above blue; a cloth's print
 * may be any colour and pass every test of shape and paper. Measured
 * against how far the blob's grey lies below the paper: on the renders'
 * inks (their hue varies by a tenth per channel) pips reach 0.14 and 0.25,
 * blue and green spots 0.22 and more, orange ones 0.65 and more. */
static int not_pip_colour(const ts_image *frame, const int *px, int n, int paper)
{
    long lift = 0, green = 0, grey = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = ts_image_row(frame, px[i] >> 16) + 3 * (size_t)(px[i] & 0xffff);
        int g = (p[0] + 2 * p[1] + p[2]) >> 2;
        lift += (p[0] > p[1] ? p[0] : p[1]) - g;
        green += p[1] - p[0];
        grey += g;
    }
    return domino_ink_coloured((double)lift, (double)green, n, paper - (double)grey / n);
}

/* True if (x, y) is paper or lies on one of the discs sib[0..nsib) (the
 * other pips of a blob split in parts: see split_blob). */
static int paper_or_sib(const domino_card_finder *f, float x, float y, const pip *sib, int nsib)
{
    for (int i = 0; i < nsib; i++) {
        float dx = x - sib[i].cx, dy = y - sib[i].cy, r = 1.35f * sib[i].r + 2;
        if (dx * dx + dy * dy <= r * r)
            return 1;
    }
    return paper_at(f, x, y);
}

/* Whether the ink blob px[0..area) (packed y << 16 | x) looks like a pip:
 * compact, about round, with paper all round it (or the discs of its
 * siblings sib[0..nsib), the other parts of its blob) and in no cloth's
 * colour. If so fills *out and returns 1 (a clover's pixels are made
 * see-through); -1 if it is not a pip's shape (pips run together may be:
 * split_blob), else 0. */
static int pip_of_blob(domino_card_finder *f, const ts_image *frame, const int *px, int area,
                       const pip *sib, int nsib, pip *out)
{
    const int w = f->w, h = f->h;
    int x0 = px[0] & 0xffff, x1 = x0, y0 = px[0] >> 16, y1 = y0;
    /* whole-number sums, exact (< 2^53 for any frame we read) */
    int64_t sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < area; i++) {
        int x = px[i] & 0xffff, y = px[i] >> 16;
        sx += x;
        sy += y;
        sxx += (int64_t)x * x;
        syy += (int64_t)y * y;
        sxy += (int64_t)x * y;
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;
    }
    int bwid = x1 - x0 + 1, bhei = y1 - y0 + 1;
    if (area < 5 || bwid > 200 || bhei > 200)
        return 0;
    /* the Hong Kong five's clover square to the frame (its card
     * turned about an eighth of a turn) fills only 0.32-0.35 of
     * its box, but its box is square */
    int square = abs(bwid - bhei) * 10 <= (bwid > bhei ? bwid : bhei);
    if (area < (square ? 0.30 : 0.36) * bwid * bhei)
        return -1;
    double mx = (double)sx / area, my = (double)sy / area;
    double cxx = (double)sxx / area - mx * mx, cyy = (double)syy / area - my * my;
    double cxy = (double)sxy / area - mx * my;
    double t = (cxx + cyy) / 2, d = sqrt((cxx - cyy) * (cxx - cyy) / 4 + cxy * cxy);
    double major = sqrt(fmax(t + d, 0)), minor = sqrt(fmax(t - d, 1e-6));
    if (major > 1.6 * minor)
        return -1;
    /* a disc fills 0.79 of its box whatever its turn; the Hong Kong
     * five's clover turned a third of a right angle only 0.42, but
     * it is about as wide every way (a camera's slant draws it up
     * to a quarter longer one way, a little more along its
     * box's diagonal) */
    if (area < 0.45 * bwid * bhei && major > (square ? 1.4 : 1.3) * minor)
        return -1;
    float r = (bwid > bhei ? bwid : bhei) / 2.0f;
    /* paper all round, just outside (the pips of a six are a pip's
     * radius apart; a Hong Kong five spans half the card) or further
     * out (the ring round a one): twelve points, one may miss */
    int ok = 0;
    for (int ring = 0; ring < 2 && !ok; ring++) {
        float rr = ring ? 1.6f * r + 2 : 1.1f * r + 2;
        int miss = 0, runs = 0, prev;
        int first = !paper_or_sib(f, (float)mx + rr, (float)my, sib, nsib);
        prev = first;
        miss = first;
        for (int k = 1; k < 12 && miss < 4; k++) {
            float a = k * 0.5235988f;
            int m = !paper_or_sib(f, (float)mx + rr * cosf(a), (float)my + rr * sinf(a), sib, nsib);
            miss += m;
            runs += m && !prev;
            prev = m;
        }
        runs += first && !prev; /* a run through point 0 counts once */
        /* one may miss; or up to three side by side: an end, an
         * edge or a printed outline close by on one side */
        ok = miss < 2 || (miss <= 3 && runs <= 1);
    }
    /* or paper just outside the blob's own outline, whatever its
     * shape (the Hong Kong five's clover reaches a third further
     * on its diagonals than on its sides) */
    if (!ok && area >= 40) {
        int miss = 0;
        float lim = 1.6f * r + 2;
        for (int k = 0; k < 12 && miss < 2; k++) {
            float a = k * 0.5235988f, dx = cosf(a), dy = sinf(a), dd = 0;
            float x = (float)mx, y = (float)my;
            while (dd <= lim && !paper_or_sib(f, x + dd * dx, y + dd * dy, sib, nsib))
                dd += 1;
            miss += dd > lim || dd < 0.5f * r ||
                    !paper_or_sib(f, x + (dd + 2) * dx, y + (dd + 2) * dy, sib, nsib) ||
                    !paper_or_sib(f, x + (dd + 4) * dx, y + (dd + 4) * dy, sib, nsib);
        }
        ok = miss < 2;
    }
    if (!ok)
        return 0;
    /* a blue, green or orange spot of a cloth's print: no deck
     * prints such pips */
    if (not_pip_colour(frame, px, area, f->paper[((int)my / BLOCK) * f->bw + (int)mx / BLOCK]))
        return 0;
    /* a Hong Kong five's clover fills much less of its box than a
     * disc: a disc round it would reach past a narrow card's
     * sides, so its own pixels, grown by its blurred rim, are
     * made see-through instead */
    int clover = area < 0.6 * bwid * bhei;
    if (clover)
        for (int i = 0; i < area; i++) {
            int x = px[i] & 0xffff, y = px[i] >> 16;
            for (int yy = y - 2; yy <= y + 2; yy++)
                if (yy >= 0 && yy < h)
                    for (int xx = x - 2; xx <= x + 2; xx++)
                        if (xx >= 0 && xx < w)
                            f->stop[(size_t)yy * (size_t)w + (size_t)xx] = 0;
        }
    *out = (pip){(float)mx, (float)my, r, area, clover,
                 f->paper[((int)my / BLOCK) * f->bw + (int)mx / BLOCK]};
    return 1;
}

enum {
    SPLIT_MAX = 6,      /* pips run together in one blob (a blurred six) */
    SPLIT_MIN_CORE = 3, /* px: a core smaller is the camera's noise */
};

/* The pips of a blob that is no pip: a blurred card's neighbouring pips
 * run together through the grey between them, but each keeps a dark
 * core. The blob's cores (darker than a quarter of the way from its
 * darkest grey to its paper), when two to SPLIT_MAX of about one size,
 * share its pixels out (each to the nearest core) and each part that
 * looks like a pip, its siblings' discs counting as paper round it, is
 * one; every part must, or none is taken. px[0..area) lies in
 * f->queue, whose room after it is scratch. Returns the pips written to
 * out (<= room). */
static int split_blob(domino_card_finder *f, const ts_image *frame, int *px, int area,
                      pip *out, int room)
{
    const int w = f->w;
    uint8_t owner[4096]; /* each pixel's part */
    if (area < 2 * 5 || area > (int)sizeof owner || room < 2)
        return 0;
    int darkest = 255, cx = (px[0] & 0xffff) / BLOCK, cy = (px[0] >> 16) / BLOCK;
    for (int i = 0; i < area; i++) {
        int g = f->grey[(size_t)(px[i] >> 16) * (size_t)w + (size_t)(px[i] & 0xffff)];
        darkest = g < darkest ? g : darkest;
    }
    int paper = f->paper[cy * f->bw + cx], core_t = darkest + (paper - darkest) / 4;
    /* cores: flood fills over the blob's core pixels (ink is 0 on the blob
     * now: 2 marks a core pixel not yet reached) */
    uint8_t *ink = f->ink;
    for (int i = 0; i < area; i++) {
        size_t at = (size_t)(px[i] >> 16) * (size_t)w + (size_t)(px[i] & 0xffff);
        ink[at] = (uint8_t)(f->grey[at] <= core_t ? 2 : 0);
    }
    float ccx[SPLIT_MAX], ccy[SPLIT_MAX];
    int ncore = 0, ccount[SPLIT_MAX], too_many = 0, *q = px + area;
    for (int i = 0; i < area; i++) {
        size_t at = (size_t)(px[i] >> 16) * (size_t)w + (size_t)(px[i] & 0xffff);
        if (ink[at] != 2)
            continue;
        int head = 0, tail = 0;
        long sx = 0, sy = 0;
        ink[at] = 0;
        q[tail++] = px[i];
        while (head < tail) {
            int p = q[head++], x = p & 0xffff, y = p >> 16;
            sx += x;
            sy += y;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx, yy = y + dy;
                    if (xx < 0 || yy < 0 || xx >= w || yy >= f->h)
                        continue;
                    size_t a = (size_t)yy * (size_t)w + (size_t)xx;
                    if (ink[a] == 2) {
                        ink[a] = 0;
                        q[tail++] = yy << 16 | xx;
                    }
                }
        }
        if (tail < SPLIT_MIN_CORE)
            continue;
        if (ncore == SPLIT_MAX) {
            too_many = 1;
            continue;
        }
        ccx[ncore] = (float)sx / tail;
        ccy[ncore] = (float)sy / tail;
        ccount[ncore++] = 0;
    }
    if (too_many || ncore < 2)
        return 0;
    /* each pixel to its nearest core; the parts laid out one after the
     * other after the blob */
    int *part = q, start[SPLIT_MAX + 1];
    for (int i = 0; i < area; i++) {
        float x = (float)(px[i] & 0xffff), y = (float)(px[i] >> 16), best = 1e30f;
        for (int k = 0; k < ncore; k++) {
            float d = (x - ccx[k]) * (x - ccx[k]) + (y - ccy[k]) * (y - ccy[k]);
            if (d < best) {
                best = d;
                owner[i] = (uint8_t)k;
            }
        }
        ccount[owner[i]]++;
    }
    start[0] = 0;
    for (int k = 0; k < ncore; k++)
        start[k + 1] = start[k] + ccount[k];
    int fill[SPLIT_MAX];
    memcpy(fill, start, sizeof fill);
    for (int i = 0; i < area; i++)
        part[fill[owner[i]]++] = px[i];
    /* pips of one card's end are of one size, and each part is a disc
     * with half the grey neck to the next: none of its pixels lies
     * further from its core than 1.6 of its own radius (a cloth's spots
     * run into a card's shadow take a piece of a line with them) */
    int lo = area, hi = 0;
    for (int k = 0; k < ncore; k++) {
        lo = ccount[k] < lo ? ccount[k] : lo;
        hi = ccount[k] > hi ? ccount[k] : hi;
    }
    if (2 * lo < hi || ncore > room)
        return 0;
    for (int k = 0; k < ncore; k++)
        for (int i = start[k]; i < start[k + 1]; i++) {
            float dx = (float)(part[i] & 0xffff) - ccx[k], dy = (float)(part[i] >> 16) - ccy[k];
            if (dx * dx + dy * dy > 1.6f * 1.6f * (float)ccount[k] / (float)M_PI)
                return 0;
        }
    /* each part's disc, for its siblings' rings: as a pip of it would be */
    pip sib[SPLIT_MAX];
    for (int k = 0; k < ncore; k++) {
        int x0 = 1 << 16, x1 = -1, y0 = 1 << 16, y1 = -1;
        for (int i = start[k]; i < start[k + 1]; i++) {
            int x = part[i] & 0xffff, y = part[i] >> 16;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
        int side = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0;
        sib[k] = (pip){ccx[k], ccy[k], (side + 1) / 2.0f, ccount[k], 0, 0};
    }
    for (int k = 0; k < ncore; k++) {
        pip others[SPLIT_MAX];
        int no = 0;
        for (int j = 0; j < ncore; j++)
            if (j != k)
                others[no++] = sib[j];
        if (pip_of_blob(f, frame, part + start[k], ccount[k], others, no, &out[k]) <= 0)
            return 0;
    }
    return ncore;
}

/* With MAX_PIPS found already (a spotted cloth as light as paper: its
 * spots are pips to the finder), a pip of the blob px[0..area) takes the
 * place of the one on the dimmest paper, if its own is brighter: the
 * cards' paper is whiter than such a cloth, and the first MAX_PIPS in
 * the frame's order would be the cloth's above the cards. */
static void keep_brighter(domino_card_finder *f, const ts_image *frame, const int *px, int area)
{
    pip p;
    if (pip_of_blob(f, frame, px, area, NULL, 0, &p) <= 0)
        return;
    int dim = 0;
    for (int i = 1; i < MAX_PIPS; i++)
        if (f->pips[i].paper < f->pips[dim].paper)
            dim = i;
    if (p.paper > f->pips[dim].paper)
        f->pips[dim] = p;
}

static int by_paper(const void *a, const void *b)
{
    int x = ((const pip *)a)->paper, y = ((const pip *)b)->paper;
    return (x < y) - (x > y);
}

/* The ink blobs that look like pips (pip_of_blob), and the pips of blobs
 * run together (split_blob). The ink mask is cleared as it is walked.
 * Returns the count. */
static int find_pips(domino_card_finder *f, const ts_image *frame)
{
    const int w = f->w, h = f->h;
    /* locals: the byte stores would otherwise reload the pointers */
    int *restrict queue = f->queue;
    uint8_t *restrict inkp = f->ink;
    int n = 0;
    for (int y = 0; y < h; y++) {
        uint8_t *row = inkp + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++) {
            /* most of the plane is clear: skip it eight bytes at a time */
            while (x + 8 <= w) {
                uint64_t word;
                memcpy(&word, row + x, sizeof word);
                if (word)
                    break;
                x += 8;
            }
            if (x >= w || !row[x])
                continue;
            int head = 0, tail = 0, x0 = x, x1 = x, y1 = y;
            row[x] = 0;
            queue[tail++] = y << 16 | x; /* packed: no division per pixel */
            while (head < tail) {
                int p = queue[head++], px = p & 0xffff, py = p >> 16;
                x0 = px < x0 ? px : x0;
                x1 = px > x1 ? px : x1;
                y1 = py > y1 ? py : y1;
                if (px > 0 && py > 0 && px < w - 1 && py < h - 1) {
                    /* inside the frame: no bounds to check */
                    uint8_t *q = inkp + (size_t)(py - 1) * (size_t)w + (size_t)px;
                    /* without branches (ink is 0 or 1; the queue has room
                     * for one more) */
                    for (int dy = -1; dy <= 1; dy++, q += w)
                        for (int dx = -1; dx <= 1; dx++) {
                            int on = q[dx];
                            q[dx] = 0;
                            queue[tail] = (py + dy) << 16 | (px + dx);
                            tail += on;
                        }
                    continue;
                }
                for (int dy = -1; dy <= 1; dy++) {
                    int qy = py + dy;
                    if (qy < 0 || qy >= h)
                        continue;
                    uint8_t *q = inkp + (size_t)qy * (size_t)w;
                    for (int dx = -1; dx <= 1; dx++) {
                        int qx = px + dx;
                        if (qx < 0 || qx >= w || !q[qx])
                            continue;
                        q[qx] = 0;
                        queue[tail++] = qy << 16 | qx;
                    }
                }
            }
            if (x1 - x0 >= 200 || y1 - y >= 200) /* (as pip_of_blob) */
                continue;
            if (n >= MAX_PIPS) {
                keep_brighter(f, frame, queue, tail);
                continue;
            }
            int is = pip_of_blob(f, frame, queue, tail, NULL, 0, &f->pips[n]);
            if (is > 0)
                n++;
            else if (is < 0)
                n += split_blob(f, frame, queue, tail, &f->pips[n], MAX_PIPS - n);
        }
    }
    return n;
}

/* Distance (px) along (dx, dy) from (x, y) to the first stop (specks are
 * gone: a thin printed line, crossed square, is one sample), at most lim;
 * -1 if the frame ends first. */
static float ray(const domino_card_finder *f, float x, float y, float dx, float dy, float lim)
{
    if (f->thr) { /* the second look: paper darker than the pip's own ends it */
        int run = 0;
        for (float d = 0; d <= lim; d += 1.0f) {
            int ix = (int)round_px(x + d * dx), iy = (int)round_px(y + d * dy);
            if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
                return -1;
            size_t at = (size_t)iy * (size_t)f->w + (size_t)ix;
            if (f->stop[at])
                return d;
            run = f->grey[at] < f->thr && !f->raw[at] ? run + 1 : 0;
            if (run == 2)
                return d - 1;
        }
        return lim;
    }
    if (f->own_r > 0) { /* a bare look: other pips' discs hide no stop */
        for (float d = 0; d <= lim; d += 1.0f) {
            int ix = (int)round_px(x + d * dx), iy = (int)round_px(y + d * dy);
            if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
                return -1;
            size_t at = (size_t)iy * (size_t)f->w + (size_t)ix;
            float ox = ix - f->own_x, oy = iy - f->own_y;
            if (f->stop[at] || (f->ink[at] && ox * ox + oy * oy > f->own_r * f->own_r))
                return d;
        }
        return lim;
    }
    for (float d = 0; d <= lim; d += 1.0f) {
        int ix = (int)round_px(x + d * dx), iy = (int)round_px(y + d * dy);
        if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
            return -1;
        if (f->stop[(size_t)iy * (size_t)f->w + (size_t)ix])
            return d;
    }
    return lim;
}

/* The paper's grey just outside a pip (the median of a ring round its
 * see-through disc), or 0 where too little of it is paper or it is
 * uneven. */
static int ring_level(const domino_card_finder *f, const pip *p)
{
    enum { N = 24 };
    int v[N], n = 0;
    float r = 1.35f * p->r + 4;
    for (int k = 0; k < N; k++) {
        float a = k * 6.2831853f / N;
        int ix = (int)round_px(p->cx + r * cosf(a)), iy = (int)round_px(p->cy + r * sinf(a));
        if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
            continue;
        size_t at = (size_t)iy * (size_t)f->w + (size_t)ix;
        if (f->stop[at] || f->raw[at])
            continue;
        int g = f->grey[at], j = n++;
        for (; j > 0 && v[j - 1] > g; j--)
            v[j] = v[j - 1];
        v[j] = g;
    }
    /* and even, as paper is: a cloth's print or weave round a spot is not */
    if (n < N / 2 || (v[3 * n / 4] - v[n / 4]) * 100 > 5 * v[n / 2])
        return 0;
    return v[n / 2];
}

/* Like ray, but across a card's print: a thin line (at most thin px) with
 * paper again beyond it for at least clear px is a rule or a stroke
 * printed on the card, not where it ends. */
static float walk(const domino_card_finder *f, float x, float y, float dx, float dy, float lim,
                  int thin, int clear)
{
    float d = 0;
    for (;;) {
        float r = ray(f, x + d * dx, y + d * dy, dx, dy, lim - d);
        if (r < 0)
            return -1;
        d += r;
        if (d >= lim)
            return lim;
        int run = 0;
        while (run <= thin && d + run <= lim) {
            int ix = (int)round_px(x + (d + run) * dx), iy = (int)round_px(y + (d + run) * dy);
            if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
                return d;
            if (!f->stop[(size_t)iy * (size_t)f->w + (size_t)ix])
                break;
            run++;
        }
        if (run > thin)
            return d;
        float past = ray(f, x + (d + run) * dx, y + (d + run) * dy, dx, dy, (float)clear);
        if (past < clear)
            return d;
        d += run;
    }
}

/* Distance (px) along (dx, dy) from (x, y) to the frame's edge. */
static float ray_to_edge(const domino_card_finder *f, float x, float y, float dx, float dy)
{
    float d = 1e9f;
    if (dx > 1e-6f)
        d = fminf(d, (f->w - 1 - x) / dx);
    if (dx < -1e-6f)
        d = fminf(d, -x / dx);
    if (dy > 1e-6f)
        d = fminf(d, (f->h - 1 - y) / dy);
    if (dy < -1e-6f)
        d = fminf(d, -y / dy);
    return d < 0 ? 0 : d;
}

/* The median of five (a missing one, -1, counts as short). */
static float median5(const float *v)
{
    float s[5];
    memcpy(s, v, sizeof s);
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && s[j] < s[j - 1]; j--) {
            float t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    return s[2];
}

/* True if a straight line slanting more than 10 degrees off square
 * crosses the five lines along the card from (mx, my) the way (dx, dy)
 * before limit: the edge of a card lying over this one (the print runs
 * square across a card). Every stop of each line is a candidate crossing,
 * so a printed rule nearer does not hide the edge: the two outer lines'
 * crossings are paired, and the three inner lines must all cross on the
 * line between them (two of three is met by two rules of a printed waist,
 * a figure between them and a camera's noise). */
static int cut_across(const domino_card_finder *f, float mx, float my, float ux, float uy, float dx,
                      float dy, float width, float limit)
{
    enum { MAX_X = 24 };
    float at[5][MAX_X];
    int n[5];
    for (int k = 0; k < 5; k++) {
        float off = (k - 2) * 0.21f * width, ox = mx + off * ux, oy = my + off * uy;
        int prev = 0;
        n[k] = 0;
        for (float d = 0; d < limit && n[k] < MAX_X; d += 1.0f) {
            int ix = (int)round_px(ox + d * dx), iy = (int)round_px(oy + d * dy);
            if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
                break;
            int s = f->stop[(size_t)iy * (size_t)f->w + (size_t)ix];
            if (s && !prev)
                at[k][n[k]++] = d;
            prev = s;
        }
    }
    float span = 4 * 0.21f * width, tol = 0.06f * width;
    for (int i = 0; i < n[0]; i++)
        for (int j = 0; j < n[4]; j++) {
            float slope = (at[4][j] - at[0][i]) / span;
            if (fabsf(slope) <= 0.18f)
                continue;
            int hits = 0;
            for (int k = 1; k <= 3; k++) {
                float want = at[0][i] + slope * k * 0.21f * width;
                for (int m = 0; m < n[k]; m++)
                    if (fabsf(at[k][m] - want) <= tol) {
                        hits++;
                        break;
                    }
            }
            if (hits >= 3)
                return 1;
        }
    return 0;
}

static int inside(const ts_quad *q, float x, float y)
{
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        ts_pt a = q->q[k], b = q->q[(k + 1) % 4];
        float c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
        pos += c > 0;
        neg += c < 0;
    }
    return !(pos && neg);
}

/* True if the card's long sides run on from its near end (along v from
 * (mx, my), at `from`, the way sg) over the far half of a card of length
 * want: at five places there, rays across from the middle line meet its
 * sides about half its width out. A place that starts on ink (a pip the
 * finder did not take, a middle picture, noise) tells nothing. */
static int sides_run_on(const domino_card_finder *f, float mx, float my, float ux, float uy,
                        float vx, float vy, float width, float from, float sg, float want)
{
    int ok = 0, bad = 0;
    for (int k = 0; k < 5; k++) {
        float t = from + sg * (0.6f + 0.08f * k) * want;
        float ox = mx + t * vx, oy = my + t * vy;
        if (!paper_at(f, ox, oy))
            continue;
        int sides = 0;
        for (int s = -1; s <= 1; s += 2) {
            float r = ray(f, ox, oy, s * ux, s * uy, width);
            /* a pip the finder did not take (small pips of a six close
             * together, blurred into one another) lies between the middle
             * line and the side: the side is past it */
            if (r >= 0 && r < 0.3f * width)
                r = walk(f, ox, oy, s * ux, s * uy, width, (int)(0.3f * width),
                         (int)fmaxf(2, 0.06f * width));
            sides += r >= 0.3f * width && r <= 0.65f * width;
        }
        ok += sides == 2;
        bad += sides < 2;
    }
    return ok >= 2 && bad <= 1;
}

/* Distance (px) along (dx, dy) from (x, y) to where the paper ends, also
 * at a faint seam: the grey, averaged over three pixels across the ray,
 * darker by 6% than the averages two samples before and after it (a thin
 * dip; a pip's blurred rim only darkens on, and a pip is ink), but not
 * ink. Two cards laid edge to edge, or one lying on another, often show no
 * more than that where they touch. -1 if the frame ends first. */
static float soft_ray(const domino_card_finder *f, float x, float y, float dx, float dy,
                      float lim)
{
    float avg[5] = {0}; /* the averages at d - 4 .. d, ring */
    const int ox = fabsf(dy) > fabsf(dx) ? 1 : 0, oy = 1 - ox; /* across the ray */
    const size_t off = (size_t)ox + (size_t)oy * (size_t)f->w;
    for (int d = 0; d <= (int)lim; d++) {
        int ix = (int)round_px(x + d * dx), iy = (int)round_px(y + d * dy);
        if (ix < 1 || iy < 1 || ix >= f->w - 1 || iy >= f->h - 1)
            return -1;
        size_t at = (size_t)iy * (size_t)f->w + (size_t)ix;
        if (f->stop[at])
            return (float)d;
        float v = (f->grey[at] + f->grey[at - off] + f->grey[at + off]) / 3.0f;
        avg[d % 5] = v;
        if (d >= 4) {
            float before = avg[(d - 4) % 5], mid = avg[(d - 2) % 5];
            float lvl = f->level[(size_t)(iy / BLOCK) * (size_t)f->bw + (size_t)(ix / BLOCK)];
            if (mid < 0.94f * before && mid < 0.94f * v && mid > 0.6f * lvl)
                return (float)(d - 2);
        }
    }
    return lim;
}

enum { TRIM = 3 }; /* the third lowest and highest ray ends bound an extent */

/* The extent of the points (px, py) along direction a: the TRIM-th lowest
 * and highest, so a few rays that ran out where the card's edge meets a
 * light table are left out. */
__attribute__((always_inline)) static inline void extent(const float *px, const float *py, int nr,
                                                        float a, float *lo_out, float *hi_out)
{
    float dx = cosf(a), dy = sinf(a), low[TRIM], high[TRIM];
    for (int j = 0; j < TRIM; j++) {
        low[j] = 1e9f;
        high[j] = -1e9f;
    }
    for (int i = 0; i < nr; i++) {
        float t = px[i] * dx + py[i] * dy;
        if (t < low[TRIM - 1]) {
            int j = TRIM - 1;
            for (; j > 0 && low[j - 1] > t; j--)
                low[j] = low[j - 1];
            low[j] = t;
        }
        if (t > high[TRIM - 1]) {
            int j = TRIM - 1;
            for (; j > 0 && high[j - 1] < t; j--)
                high[j] = high[j - 1];
            high[j] = t;
        }
    }
    *lo_out = low[TRIM - 1];
    *hi_out = high[TRIM - 1];
}

/* The narrowest extent over every direction of the points (px, py)
 * (rotating calipers, 2 degrees then a quarter; see extent): its width,
 * direction and ends. */
static float narrowest(const float *px, const float *py, int nr, float *angle, float *lo_out,
                       float *hi_out)
{
    float best = 1e9f, best_a = 0, lo_u = 0, hi_u = 0;
    for (int pass = 0; pass < 2; pass++) {
        float a0 = pass ? best_a - 2.0f * 3.14159265f / 180 : 0;
        int steps = pass ? 16 : 90;
        float step = pass ? 0.25f * 3.14159265f / 180 : 2.0f * 3.14159265f / 180;
        for (int k = 0; k <= steps; k++) {
            float a = a0 + k * step, lo, hi;
            extent(px, py, nr, a, &lo, &hi);
            if (hi - lo < best) {
                best = hi - lo;
                best_a = a;
                lo_u = lo;
                hi_u = hi;
            }
        }
    }
    *angle = best_a;
    *lo_out = lo_u;
    *hi_out = hi_u;
    return best;
}

/* How many of the five lines along the card (a[k] at (k - 2) * 0.21 *
 * width across, -1 where the frame ended) met the end within tol of the
 * line through a[i] at slope s (d(distance)/d(across)). */
static int on_end_line(const float *a, float width, int i, float s, float tol)
{
    float at_i = a[i] - s * (i - 2) * 0.21f * width;
    int on = 0;
    for (int k = 0; k < 5; k++)
        on += a[k] >= 0 && fabsf(a[k] - s * (k - 2) * 0.21f * width - at_i) <= tol;
    return on;
}

/* How an end's line slants, from where the five lines along the card met
 * it (a[k] at (k - 2) * 0.21 * width across, -1 where the frame ended):
 * d(distance)/d(across), the median of the pairs' slopes, in *slope; 1 if
 * four lines lie on that line (the end is straight), else 0 (and 0). A
 * card seen at a slant under a tilted camera is a parallelogram, not a
 * rectangle: its ends do not meet its sides square. One line far off (an
 * outer line run off a card measured too wide, on a cloth nearly as light
 * as its paper) pulls the pairs' median off: then the slope of the pair
 * of lines that four lie on is taken. */
static int end_line(const float *a, float width, float *slope)
{
    float sl[10];
    int n = 0, valid = 0;
    *slope = 0;
    for (int i = 0; i < 5; i++) {
        valid += a[i] >= 0;
        for (int j = i + 1; j < 5; j++)
            if (a[i] >= 0 && a[j] >= 0)
                sl[n++] = (a[j] - a[i]) / ((j - i) * 0.21f * width);
    }
    if (valid < 4)
        return 0;
    ts_sort_floats(sl, (size_t)n);
    float s = sl[n / 2], tol = 0.04f * width + 1.0f;
    if (fabsf(s) <= 0.4f) {
        float at[5];
        int m = 0;
        for (int k = 0; k < 5; k++)
            if (a[k] >= 0)
                at[m++] = a[k] - s * (k - 2) * 0.21f * width;
        ts_sort_floats(at, (size_t)m);
        float mid = at[m / 2];
        int on = 0;
        for (int k = 0; k < m; k++)
            on += fabsf(at[k] - mid) <= tol;
        if (on >= 4) {
            *slope = s;
            return 1;
        }
    }
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++) {
            if (a[i] < 0 || a[j] < 0)
                continue;
            float sp = (a[j] - a[i]) / ((j - i) * 0.21f * width);
            if (fabsf(sp) <= 0.4f && on_end_line(a, width, i, sp, tol) >= 4) {
                *slope = sp;
                return 1;
            }
        }
    return 0;
}

/* True if a card w px wide may carry pip p: several pips wide (a Hong
 * Kong five's blob is half its width), not many. */
static int width_fits(const pip *p, float w)
{
    return w >= (p->clover ? 2.0f : 2.5f) * p->r && w <= 14 * p->r && w >= 8;
}

/* A fan's top card: its paper runs on into the cards under it, and the
 * paper's narrowest way is not the card's. The table beyond its own long
 * side is the nearest edge round the pip (the rays' ends px, py); the
 * card's length square to it (both ends seen, past its print) gives a
 * width to look at (c->len_w, across c->across), as card_of_pip's own. */
static void nearest_edge_len_w(const domino_card_finder *f, const pip *p, const float *px,
                               const float *py, int nr, cand *c)
{
    int k0 = 0;
    float near = 1e9f;
    for (int k = 0; k < nr; k++) {
        float d = hypotf(px[k], py[k]);
        if (d < near) {
            near = d;
            k0 = k;
        }
    }
    float a = atan2f(py[k0], px[k0]), vx = -sinf(a), vy = cosf(a);
    /* the print's rules and pips are thin against a pip's size */
    int thin = (int)fmaxf(2, 0.5f * p->r), clear = (int)fmaxf(4, p->r);
    float a0 = walk(f, p->cx, p->cy, -vx, -vy, MAX_RAY, thin, clear);
    float a1 = walk(f, p->cx, p->cy, vx, vy, MAX_RAY, thin, clear);
    if (a0 < 0 || a1 < 0)
        return;
    float wl = (a0 + a1) / DECK_ASPECT;
    /* the pip lies a third or so in from that side (see card_of_pip) */
    if (width_fits(p, wl) && near >= 0.15f * wl && near <= 0.6f * wl) {
        c->len_w = wl;
        c->across = a;
    }
}

/* The card a pip lies on, from rays over the paper. Returns 0 and fills c,
 * or -1 if the pip does not sit on a card-shaped piece of paper. strict:
 * an end is not moved out to a pip lying clear beyond it (see c->pulled). With
 * force_w > 0 the card is that wide (the frame's other cards say so), and
 * only paper running on past one side (a card lying on or under it, no
 * seam to see) is looked at: that side is put where the near side's
 * distance says, and -1 if the paper was not wider than that. Across
 * direction force_a (radians; NAN: the paper's narrowest), the nearest
 * card's: a row of cards laid side by side is narrowest along their length. */
static int card_of_pip(const domino_card_finder *f, const pip *p, float force_w, float force_a,
                       int strict, cand *c)
{
    enum { NR = 48 };
    c->len_w = 0;
    c->ran_on = 0;
    /* the paper round the pip: rays all round, to where each ends */
    float px[NR], py[NR], lim = fminf(MAX_RAY, 45 * p->r);
    float width = 0, best_a = 0, lo_u = 0, hi_u = 0;
    /* a card is several pips wide (a Hong Kong five's blob is half its
     * width, and its box is wider turned), but not many: paper running on
     * over cards laid edge to edge, or under a card lying on it, is looked
     * at again for the faint seam where they meet (a few cards wide) */
    for (int soft = 0; soft < 2; soft++) {
        for (int k = 0; k < NR; k++) {
            float a = k * 6.2831853f / NR, dx = cosf(a), dy = sinf(a);
            float l = soft ? soft_ray(f, p->cx, p->cy, dx, dy, lim) : ray(f, p->cx, p->cy, dx, dy, lim);
            if (l < 0) /* the frame's edge: the card is cut there */
                l = ray_to_edge(f, p->cx, p->cy, dx, dy);
            px[k] = l * dx;
            py[k] = l * dy;
        }
        width = narrowest(px, py, NR, &best_a, &lo_u, &hi_u);
        /* a few cards' width, not a cloth as light as the cards (its
         * spots are pips to the finder, and its paper runs on and on);
         * measured in the frame's plain pips where this one is bigger (a
         * one's ringed disc: a fan's top card, its paper running on
         * into the cards under it, was never looked at again) */
        float rs = f->rmed > 0 && p->r > 1.3f * f->rmed ? f->rmed : p->r;
        c->ran_on |= width > 14 * rs;
        if (width <= 14 * rs || width > 24 * rs)
            break;
    }
    if (force_w > 0 && !isnan(force_a)) {
        best_a = force_a;
        extent(px, py, NR, best_a, &lo_u, &hi_u);
        width = hi_u - lo_u;
    }
    if (force_w > 0) {
        /* the pip lies a third or so in from a side (or on the middle
         * line): the near side is the card's own */
        float near = fminf(hi_u, -lo_u);
        if (width < 1.15f * force_w || near < 0.15f * force_w || near > 0.6f * force_w)
            return -1;
        if (hi_u < -lo_u)
            lo_u = hi_u - force_w;
        else
            hi_u = lo_u + force_w;
        width = force_w;
    }
    float ux = cosf(best_a), uy = sinf(best_a);
    if (!width_fits(p, width))
        return -1;
    float l1 = hi_u, l2 = -lo_u;
    float mx = p->cx + (l1 - l2) / 2 * ux, my = p->cy + (l1 - l2) / 2 * uy;
    /* along the card, on its middle line and two lines near its sides */
    float vx = -uy, vy = ux;
    lim = fminf(MAX_RAY, width * (MAX_ASPECT + 0.3f));
    int thin = (int)fmaxf(2, 0.08f * width), clear = (int)fmaxf(4, 0.15f * width);
    float want = DECK_ASPECT * width, up[5], dn[5], wup[5], wdn[5];
    for (int k = 0; k < 5; k++) {
        float off = (k - 2) * 0.21f * width;
        float ox = mx + off * ux, oy = my + off * uy;
        up[k] = ray(f, ox, oy, -vx, -vy, lim);
        dn[k] = ray(f, ox, oy, vx, vy, lim);
        wup[k] = walk(f, ox, oy, -vx, -vy, lim, thin, clear);
        wdn[k] = walk(f, ox, oy, vx, vy, lim, thin, clear);
    }
    float lu = median5(up), ld = median5(dn);
    float e0 = 0, e1 = 0; /* the ends, along v from (mx, my) */
    float sure = 0;       /* how the ends were found: first lines across, best */
    float s0 = 0, s1 = 0; /* the ends' slants (along per across) */
    int st0 = 0, st1 = 0; /* and whether each end was seen straight */
    c->whole = 0;
    /* the first line across each way, or past the card's print (rules, a
     * picture) to where paper ends: a card's length */
    for (int pass = 0; pass < 2 && !c->whole; pass++) {
        float a0 = pass ? median5(wup) : lu, a1 = pass ? median5(wdn) : ld;
        if (a0 >= 0 && a1 >= 0 && a0 + a1 >= MIN_ASPECT * width && a0 + a1 <= MAX_ASPECT * width) {
            c->whole = 1;
            e0 = -a0;
            e1 = a1;
            sure = pass ? 0.5f : 1.0f;
            st0 = end_line(pass ? wup : up, width, &s0);
            st1 = end_line(pass ? wdn : dn, width, &s1);
            s0 = -s0;
        }
    }
    /* both ends seen, but too close for a card this wide: the paper runs on
     * past one side into a card under or beside it (a fan's top card, no
     * seam seen): worth a look as wide as its length gives (c->len_w),
     * its near side its own; not paper twice as wide as that (another
     * family's card, a pip near its middle: a strip of it looks like a
     * domino card to --game auto's net) */
    c->across = best_a;
    if (!c->whole && force_w <= 0 && lu >= 0 && ld >= 0) {
        float wl = (lu + ld) / DECK_ASPECT;
        if (width_fits(p, wl) && width >= NARROW_OVER * wl && width <= 2 * wl &&
            lu + ld < MIN_ASPECT * width)
            c->len_w = wl;
    }
    if (!c->whole && force_w <= 0 && c->len_w == 0 && c->ran_on)
        nearest_edge_len_w(f, p, px, py, NR, c);
    /* a second look keeps only a card found whole (second_look asks
     * for its ends straight, or seen as edges in the frame) */
    if (f->thr && !c->whole)
        return -1;
    /* a middle picture or rules the rays cannot pass: the far end is found
     * from the far group's last pip outwards (the far group lies within the
     * deck's length of the near end; no deck prints pips in its middle) */
    for (int dir = 0; dir < 2 && !c->whole; dir++) {
        float near = dir ? lu : ld; /* the near end is the other way */
        if (near < 0 || near > 0.45f * want)
            continue;
        float sg = dir ? 1.0f : -1.0f, far = -1;
        for (int i = 0; i < f->npips; i++) {
            const pip *o = &f->pips[i];
            float dx = o->cx - mx, dy = o->cy - my;
            float along = sg * (dx * vx + dy * vy), across = dx * ux + dy * uy;
            if (fabsf(across) <= 0.45f * width && along >= 0.35f * want &&
                along + near <= 1.1f * want && along > far)
                far = along;
        }
        if (far < 0)
            continue;
        float out[5];
        for (int k = 0; k < 5; k++) {
            float off = (k - 2) * 0.21f * width;
            float ox = mx + off * ux + sg * far * vx, oy = my + off * uy + sg * far * vy;
            out[k] = ray(f, ox, oy, sg * vx, sg * vy, 0.45f * want);
        }
        float beyond = median5(out), len = near + far + beyond;
        if (beyond < 0 || beyond >= 0.45f * want || len < MIN_ASPECT * width ||
            len > MAX_ASPECT * width)
            continue;
        /* and paper all the way: the far pips are on this card, not on
         * another one lying in line beyond the table between */
        if (!sides_run_on(f, mx, my, ux, uy, vx, vy, width, dir ? -near : near,
                          dir ? 1.0f : -1.0f, want))
            continue;
        c->whole = 1;
        e0 = dir ? -near : -(far + beyond);
        e1 = dir ? far + beyond : near;
        sure = 0.4f;
        st0 = end_line(dir ? up : out, width, &s0);
        st1 = end_line(dir ? out : dn, width, &s1);
        s0 = -s0;
    }
    if (!c->whole) {
        /* one end only: the far way is where the other end's pips lie
         * (unless they are covered too); the near end is the first line */
        int far_up = 0, far_dn = 0;
        /* not a pip past where the paper ends that way, rules crossed
         * (the next card's, over the table beyond this card's end) */
        float paper_up = median5(wup), paper_dn = median5(wdn);
        for (int i = 0; i < f->npips; i++) {
            const pip *o = &f->pips[i];
            float dx = o->cx - mx, dy = o->cy - my;
            float along = dx * vx + dy * vy, across = dx * ux + dy * uy;
            if (fabsf(across) > 0.5f * width || fabsf(along) < 0.3f * want ||
                fabsf(along) > 1.1f * want)
                continue;
            if ((along > 0 && paper_dn >= 0 && along - o->r > paper_dn) ||
                (along < 0 && paper_up >= 0 && -along - o->r > paper_up))
                continue;
            far_dn += along > 0;
            far_up += along < 0;
        }
        int near_up = far_dn && !far_up   ? 1
                      : far_up && !far_dn ? 0
                                          : (lu >= 0 && (ld < 0 || lu <= ld));
        if (near_up && lu >= 0 && lu <= 0.45f * want) {
            e0 = -lu;
            e1 = -lu + want;
            st0 = end_line(up, width, &s0);
            s0 = -s0;
        } else if (!near_up && ld >= 0 && ld <= 0.45f * want) {
            e1 = ld;
            e0 = ld - want;
            st1 = end_line(dn, width, &s1);
        } else {
            return -1;
        }
        /* the far end was not seen: the card's own long sides must run on
         * to it (a card lying across it has its sides elsewhere), or what
         * is read there may be another card's end */
        if (!sides_run_on(f, mx, my, ux, uy, vx, vy, width, near_up ? e0 : e1,
                          near_up ? 1.0f : -1.0f, want))
            return -1;
    }
    /* a straight line slanting across the card between its ends is the edge
     * of a card lying over it: what lies beyond is that card's, and this
     * card cannot be read whole (its print runs square across it). It is
     * offered last, only where no other card is, and not as a sighting
     * (its pips still look for their own card): the reader reads the ends
     * that show or calls it no card */
    int cut = cut_across(f, mx, my, ux, uy, -vx, -vy, width, -e0 - 0.04f * width) ||
              cut_across(f, mx, my, ux, uy, vx, vy, width, e1 - 0.04f * width);
    /* each end at its own slant (a camera's perspective turns them apart);
     * an end not measured takes the other's (a parallelogram) */
    const float sl0 = st0 ? s0 : st1 ? s1 : 0, sl1 = st1 ? s1 : st0 ? s0 : 0;
    /* every pip of the card lies inside it: an end found inside a pip
     * group (a line of the print taken for the end) moves out past it */
    int pulled = 0;
    {
        float n0 = e0, n1 = e1;
        for (int i = 0; i < f->npips; i++) {
            const pip *o = &f->pips[i];
            float dx = o->cx - mx, dy = o->cy - my;
            float across = dx * ux + dy * uy, raw = dx * vx + dy * vy;
            if (fabsf(across) > 0.45f * width)
                continue;
            float along1 = raw - sl1 * across, along0 = raw - sl0 * across;
            float reach = o->r + 0.1f * width;
            /* a pip lying clear beyond the end is this card's past a
             * printed rule, or the next card's past a seam where the
             * camera's slant shortens this one: c->pulled says the card
             * is worth trying strict, without it */
            float gap = 0.06f * width;
            int past1 = along1 - o->r >= e1 + gap, past0 = along0 + o->r <= e0 - gap;
            if (along1 + reach > e1 && along0 <= e0 + 1.05f * want && !(strict && past1)) {
                pulled |= past1;
                n1 = fmaxf(n1, along1 + reach);
            }
            if (along0 - reach < e0 && along1 >= e1 - 1.05f * want && !(strict && past0)) {
                pulled |= past0;
                n0 = fminf(n0, along0 - reach);
            }
        }
        e0 = n0;
        e1 = n1;
        if (e1 - e0 > MAX_ASPECT * width)
            return -1;
    }
    /* the pip lies in an end's group, not in the middle of the card */
    float t = -(e0 + e1) / 2, half = (e1 - e0) / 2;
    if (fabsf(t) < 0.25f * half)
        return -1;
    /* rays end a little inside the card: at a printed outline, or where a
     * soft (blurred) edge is already dark enough to stop them */
    float grow = GROW * width;
    float hu = width / 2 + grow;
    half += grow;
    float cx = mx + (e0 + e1) / 2 * vx, cy = my + (e0 + e1) / 2 * vy;
    ts_quad *q = &c->q;
    float lo = -half - sl0 * hu, hi = half - sl1 * hu;  /* along, at -hu */
    float lo2 = -half + sl0 * hu, hi2 = half + sl1 * hu; /* and at +hu */
    q->q[0] = (ts_pt){cx - hu * ux + lo * vx, cy - hu * uy + lo * vy};
    q->q[1] = (ts_pt){cx + hu * ux + lo2 * vx, cy + hu * uy + lo2 * vy};
    q->q[2] = (ts_pt){cx + hu * ux + hi2 * vx, cy + hu * uy + hi2 * vy};
    q->q[3] = (ts_pt){cx - hu * ux + hi * vx, cy - hu * uy + hi * vy};
    q->area = width * 2 * half;
    /* rank: ends found whole and straight away, a card of the deck's shape */
    float shape = fabsf((e1 - e0) / width - DECK_ASPECT) / DECK_ASPECT;
    q->score = c->whole ? 1.0f : 0.5f;
    c->width = width;
    c->pulled = pulled;
    c->straight = st0 && st1;
    c->rank = q->score + 0.3f * sure - shape - (cut ? 10.0f : 0.0f);
    if (cut)
        c->whole = 0;
    return 0;
}

/* Quad q kept from its side q[a]-q[b] (neighbours) to a share t of the way
 * across, into o: the other two corners moved toward that side. */
static void cut_to_side(const ts_pt q[4], int a, int b, float t, ts_pt o[4])
{
    int na = (a + 1) % 4 == b ? (a + 3) % 4 : (a + 1) % 4; /* a's other neighbour */
    int nb = (b + 1) % 4 == a ? (b + 3) % 4 : (b + 1) % 4;
    o[na] = ts_toward(q[a], q[na], t);
    o[nb] = ts_toward(q[b], q[nb], t);
}

/* A card found whole but longer than the deck's cards may run on over the
 * end of a card lying edge to edge with it (the seam between two cards is
 * faint); one found much shorter stopped short of an end (at a small
 * card's middle figure, thicker than the rules walk crosses, or on the
 * paper under a card lying on it): the two quads px long along it, each
 * keeping one end, are offered after it (the reader calls a quad that is
 * off the card no card, and the next one gets the place). Returns how many
 * (0 or 2). */
static int trims_to(const cand *c, float keep, cand *out)
{
    const ts_pt *q = c->q.q; /* q[0]-q[1] one end, q[3]-q[2] the other */
    float len = ts_dist(q[0], q[3]); /* from one end to the other */
    if (!c->whole || (len < 1.06f * keep && len > 0.9f * keep))
        return 0;
    float t = keep / len;
    for (int k = 0; k < 2; k++) {
        out[k] = *c;
        if (k == 0)
            cut_to_side(q, 0, 1, t, out[k].q.q);
        else
            cut_to_side(q, 3, 2, t, out[k].q.q);
        out[k].q.area = c->q.area * t;
        out[k].rank = c->rank - 0.25f;
        out[k].whole = 0; /* not a sighting of its own: a pip in it still looks */
    }
    return 2;
}

/* The trims (or stretches) to the deck's length at the card's width. */
static int trims(const cand *c, cand *out)
{
    const ts_pt *q = c->q.q;
    return trims_to(c, DECK_ASPECT * hypotf(q[1].x - q[0].x, q[1].y - q[0].y), out);
}

/* The camera's slant shortens a card along it by up to a tenth or so,
 * below the deck's proportions, so a card run on a little over the faint
 * seam of one lying end to end with it is still no longer than the deck's
 * shape: it is cut (and one stopped short stretched) to the median length
 * of the frame's cards found whole with both ends straight (one deck, one
 * camera) as well; one pulled out far past that length comes after its
 * cuts. Returns the count of cands now (<= cap). */
static int frame_trims(cand *c, int nc, int cap)
{
    enum { MAX_LENS = 64 }; /* a frame's cards, and more */
    float len[MAX_LENS];
    int n = 0;
    for (int i = 0; i < nc && n < MAX_LENS; i++)
        if (c[i].whole && c[i].straight)
            len[n++] = ts_dist(c[i].q.q[0], c[i].q.q[3]);
    if (n < 3)
        return nc;
    ts_sort_floats(len, (size_t)n);
    float keep = len[n / 2];
    for (int i = 0, m = nc; i < m && nc + 2 <= cap; i++) {
        nc += trims_to(&c[i], keep, &c[nc]);
        /* an end moved out to a pip past a seam this far is the next
         * card's pip: its trims first (read as found, the quad takes that
         * card's end for its own) */
        if (c[i].pulled && ts_dist(c[i].q.q[0], c[i].q.q[3]) > PULLED_OVER * keep)
            c[i].rank -= 0.5f;
    }
    return nc;
}

/* The median radius of the frame's pips, clovers left out. */
static float median_radius(const domino_card_finder *f)
{
    float r[MAX_PIPS];
    int n = 0;
    for (int i = 0; i < f->npips; i++)
        if (!f->pips[i].clover)
            r[n++] = f->pips[i].r;
    if (!n)
        return 0;
    ts_sort_floats(r, (size_t)n);
    return r[n / 2];
}

/* A pip of the usual size: not a one's disc nor a five's clover, whose
 * size says less about the card's. */
static int plain_pip(const pip *p, float rmed)
{
    return !p->clover && p->r <= 1.3f * rmed && p->r >= 0.7f * rmed;
}

/* The across direction of the card found whole (narrower than wmax: not a
 * row taken for one card) whose middle lies nearest pip p, NAN if none:
 * cards laid side by side lie the same way. */
static float nearest_across(const cand *c, int nc, const pip *p, float wmax)
{
    float best = 1e30f, a = NAN;
    for (int j = 0; j < nc; j++) {
        if (!c[j].whole || c[j].width >= wmax)
            continue;
        float mx = 0, my = 0;
        for (int k = 0; k < 4; k++) {
            mx += c[j].q.q[k].x / 4;
            my += c[j].q.q[k].y / 4;
        }
        float d = (mx - p->cx) * (mx - p->cx) + (my - p->cy) * (my - p->cy);
        if (d < best) {
            best = d;
            a = c[j].across;
        }
    }
    return a;
}

static int by_rank(const void *a, const void *b)
{
    float x = ((const cand *)a)->rank, y = ((const cand *)b)->rank;
    return (x < y) - (x > y);
}

static int edges_of_whole(const ts_image *frame, const pip *p, cand *c);

/* A pip whose card was not found whole with both ends straight (its paper
 * ran on, or one end did not show) looked at again with the paper it lies
 * on as the measure: a cloth nearly as bright as the cards, spotted or
 * plain, is darker than the card's own paper, though not darker than the
 * mean level the first look stops at. At most *budget looks a frame (a
 * spotted cloth would take one per spot). Returns the cards added (0 or
 * 1). */
static int second_look(domino_card_finder *f, const ts_image *frame, const pip *p, cand *c,
                       int *budget)
{
    if (*budget <= 0)
        return 0;
    int lvl = ring_level(f, p);
    if (lvl < 60)
        return 0;
    --*budget;
    f->thr = lvl * 92 / 100;
    /* and both its ends straight across it: a cloth's print or weave
     * ends the rays at no line; or every side an edge in the frame */
    int ok = card_of_pip(f, p, 0, NAN, 0, c) == 0 && c->whole &&
             (c->straight || edges_of_whole(frame, p, c));
    f->thr = 0;
    if (!ok)
        return 0;
    c->rank -= 0.1f;
    return 1;
}

/* A pip whose paper ran on looked at again with no other pip's disc
 * see-through (ray): a spotted cloth's spots are
 * pips to the finder, and the disc of one lying against a card's edge
 * opens a gap there that the card's rays run out of. At most *budget looks
 * a frame. Returns the cards added (0 or 1). */
static int bare_look(domino_card_finder *f, const pip *p, cand *c, int *budget)
{
    if (*budget <= 0)
        return 0;
    --*budget;
    f->own_x = p->cx;
    f->own_y = p->cy;
    f->own_r = disc_radius(p);
    /* found whole, its ends not moved out to pips beyond them (the
     * cloth's spots lie round it) */
    int ok = card_of_pip(f, p, 0, NAN, 1, c) == 0 && c->whole && !c->ran_on;
    f->own_r = 0;
    if (!ok)
        return 0;
    c->rank -= 0.1f;
    return 1;
}

/* True if a pale sample (grey << 24 | R << 16 | G << 8 | B) has a channel
 * at the camera's ceiling: its colour is not the lamp's (a warm lamp's red
 * cut off, the paper reads paler than it is). */
static int clipped(uint32_t s)
{
    return (s >> 16 & 0xff) >= 250 || (s >> 8 & 0xff) >= 250 || (s & 0xff) >= 250;
}

/* The allowance survey's white test needs to pass 3/4 of the unclipped
 * pale samples brighter than thr (f->pale[0..n)), -1 if fewer than 20. */
static int unclipped_allowance(const domino_card_finder *f, int n, unsigned thr)
{
    int hist[256] = {0}, cnt = 0;
    for (int i = 0; i < n; i++) {
        uint32_t s = f->pale[i];
        if (s >> 24 <= thr || clipped(s))
            continue;
        int hi = 0, lo = 255;
        for (int c = 0; c < 3; c++) {
            int v = (int)(s >> (8 * c) & 0xff);
            hi = v > hi ? v : hi;
            lo = v < lo ? v : lo;
        }
        int need = hi - lo + 1 - f->white_lim[hi];
        hist[need < 0 ? 0 : need > 255 ? 255 : need]++;
        cnt++;
    }
    if (cnt < 20)
        return -1;
    int a = 0;
    for (int acc = 0; a < 255; a++)
        if ((acc += hist[a]) >= cnt * 3 / 4)
            break;
    return a;
}

/* How much more colour survey allows white paper under a tinted lamp: the
 * mean B, G, R of the frame's brightest pale pixels (a sample every 8th
 * pixel of every 8th row, sparser on frames above 1 Mpx; the top 2% by grey
 * among those no more coloured than a lamp makes paper) is the paper's
 * colour. A warm lamp tints the paper past survey's white_lim, and every
 * ray then stops on the card's own paper. Returns the allowance that puts
 * that paper at 90% of the limit (more lets a seam's shadow count as paper
 * and darkens the paper level), 0 when the paper lies well within it
 * (a pale cloth beside the cards keeps its colour). When most of those
 * brightest samples are clipped, at least what the unclipped paper within
 * 10% of them needs (unclipped_allowance). Only survey's test moves: the
 * stops keep the colour of a seam's shadow between two cards. */
static int paper_tint(domino_card_finder *f, const ts_image *frame)
{
    uint32_t *pale = f->pale; /* grey << 24 | R << 16 | G << 8 | B */
    int hist[256] = {0}, n = 0;
    const int k = 1 + (int)((long)frame->w * frame->h / (PALE_SAMPLES * 64L));
    const int step = 8 * k;
    for (int y = step / 2; y < frame->h && n < PALE_SAMPLES; y += step) {
        const uint8_t *p = ts_image_row(frame, y) + 3 * (step / 2);
        for (int x = step / 2; x < frame->w && n < PALE_SAMPLES; x += step, p += 3 * step) {
            unsigned g = (unsigned)(p[0] + 2 * p[1] + p[2]) >> 2;
            if (g < 70) /* too dark for paper */
                continue;
            int hi = p[0] > p[1] ? p[0] : p[1], lo = p[0] < p[1] ? p[0] : p[1];
            hi = p[2] > hi ? p[2] : hi;
            lo = p[2] < lo ? p[2] : lo;
            if (2 * (hi - lo) > hi) /* more coloured than any lamp makes paper */
                continue;
            hist[g]++;
            pale[n++] = g << 24 | (unsigned)p[2] << 16 | (unsigned)p[1] << 8 | p[0];
        }
    }
    /* the top 2%, but enough to tell a colour (its grey level included
     * when fewer lie above it): small cards far off give the frame few
     * pale samples, and their tinted paper no allowance */
    unsigned thr = 255;
    int acc = 0;
    for (; thr > 0; thr--)
        if ((acc += hist[thr]) > n / 50)
            break;
    for (int above = acc - hist[thr]; above < TINT_MIN && thr > 0; thr--)
        above += hist[thr];
    long sum[3] = {0, 0, 0}, cnt = 0, nclip = 0;
    for (int i = 0; i < n; i++)
        if (pale[i] >> 24 > thr) {
            for (int c = 0; c < 3; c++)
                sum[c] += pale[i] >> (8 * c) & 0xff;
            cnt++;
            nclip += clipped(pale[i]);
        }
    if (cnt < TINT_MIN) /* too little paper to tell its colour */
        return 0;
    float m[3] = {(float)sum[0] / cnt, (float)sum[1] / cnt, (float)sum[2] / cnt};
    float hi = fmaxf(m[0], fmaxf(m[1], m[2])), lo = fminf(m[0], fminf(m[1], m[2]));
    /* a lamp's tint runs blue to red through green (warm or cool) */
    int lamp = (m[2] >= m[1] && m[1] >= m[0]) || (m[0] >= m[1] && m[1] >= m[2]);
    float lim = 0.3f * hi + 8;
    if (!lamp)
        return 0;
    int tint = hi - lo < 0.8f * lim ? 0 : (int)ceilf((hi - lo) / 0.9f - lim);
    if (2 * nclip > cnt) {
        int a = unclipped_allowance(f, n, thr * 9 / 10);
        tint = a > tint ? a : tint;
    }
    return tint;
}

/* ---- a card's long sides moved to the edges that show ------------------ */

enum {
    SIDE_N = 8,    /* samples along the middle of a long side */
    SIDE_MIN = 5,  /* of them on one straight edge, or the side stays */
    PROFILE = 96,  /* px: the longest profile across a side */
    REFINED = 128, /* candidates looked at so, a frame */
    OUTLINE = 10,  /* px: a printed outline lies this close inside the edge */
    RAMP = 6,      /* px: a blurred edge falls over this many */
};

/* The frame's grey (B + 2G + R) / 4 at the pixel nearest (x, y), -1 off
 * the frame (f->grey holds only the blocks near paper). */
static int frame_grey(const ts_image *frame, float x, float y)
{
    int ix = (int)round_px(x), iy = (int)round_px(y);
    if (ix < 0 || iy < 0 || ix >= frame->w || iy >= frame->h)
        return -1;
    const uint8_t *p = ts_image_row(frame, iy) + 3 * (size_t)ix;
    return (p[0] + 2 * p[1] + p[2]) >> 2;
}

/* True if some of p[i0..i1) lies below v. */
static int dips(const float *p, int i0, int i1, float v)
{
    for (int i = i0; i < i1; i++)
        if (p[i] < v)
            return 1;
    return 0;
}

/* Where the grey p falls fastest outward from p[k] on (a blurred edge's
 * middle), within RAMP px. */
static float steepest(const float *p, int k, int np)
{
    int best = k;
    float drop = -1e9f;
    for (int i = k; i <= k + RAMP && i + 1 < np; i++)
        if (p[i - 1] - p[i + 1] > drop) {
            drop = p[i - 1] - p[i + 1];
            best = i;
        }
    return (float)best;
}

/* Where a card's edge crosses the line through s along n (outward, a the
 * way along the side): the first step down outward between from and to px,
 * the card's paper (at least 85% of `paper`) two and three px before it and
 * 7% darker one px past it (another card's paper in the shadow of this one,
 * or the table). Each sample averages three pixels along the side (the
 * camera's noise). Returns the offset, or NAN if none. */
static float edge_offset(const ts_image *frame, ts_pt s, ts_pt n, ts_pt a, int from, int to,
                         float paper)
{
    float p[PROFILE];
    int lo = from - 3, np = to + RAMP + 1 - lo + 1;
    if (np > PROFILE)
        return NAN;
    for (int k = 0; k < np; k++) {
        float d = (float)(lo + k);
        int sum = 0;
        for (int j = -1; j <= 1; j++) {
            int g = frame_grey(frame, s.x + d * n.x + j * a.x, s.y + d * n.y + j * a.y);
            if (g < 0)
                return NAN;
            sum += g;
        }
        p[k] = sum / 3.0f;
    }
    int first = 0, seen = 0;
    for (int d = from; d <= to; d++) {
        if (seen && d - first > OUTLINE)
            break;
        int k = d - lo;
        if (p[k - 3] >= 0.85f * paper && p[k - 2] >= 0.85f * paper && p[k + 1] < 0.93f * p[k - 2]) {
            if (!seen)
                first = d;
            else if (d - first >= 3 && dips(p, first - lo + 1, k - 2, 0.93f * p[k - 2]))
                return steepest(p, k, np) + (float)lo; /* first was a printed outline */
            seen = 1;
        }
    }
    return seen ? steepest(p, first - lo, np) + (float)lo : NAN;
}

/* The line l = l0 + k s through the most of the points (s[i], l[i]), each
 * within 1.5 px of it (the line through two of them that most lie near,
 * then least squares over those). Returns how many lie on it. */
static int edge_fit(const float *s, const float *l, int n, float *l0, float *k)
{
    int best = 0;
    float b0 = 0, b1 = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (s[j] - s[i] < 1e-3f)
                continue;
            float sl = (l[j] - l[i]) / (s[j] - s[i]);
            int on = 0;
            for (int q = 0; q < n; q++)
                on += fabsf(l[i] + sl * (s[q] - s[i]) - l[q]) <= 1.5f;
            if (on > best) {
                best = on;
                b1 = sl;
                b0 = l[i] - sl * s[i];
            }
        }
    float ss = 0, sv = 0, sss = 0, ssv = 0;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (fabsf(b0 + b1 * s[i] - l[i]) <= 1.5f) {
            ss += s[i];
            sv += l[i];
            sss += s[i] * s[i];
            ssv += s[i] * l[i];
            m++;
        }
    float var = m ? sss - ss * ss / m : 0;
    *k = var > 1e-6f ? (ssv - ss * sv / m) / var : b1;
    *l0 = m ? (sv - *k * ss) / m : b0;
    return best;
}

/* The offsets (px along the outward normal n) of the long side a-b at its
 * ends a and b that put it on the edge that shows: samples over the middle
 * of the side (no deck prints pips there), each its first edge within
 * `reach` either way (edge_offset), and the line SIDE_MIN or more of them
 * lie on (edge_fit). Returns 1 and fills da, db, or 0. */
static int side_shift(const ts_image *frame, ts_pt a, ts_pt b, ts_pt n, int reach, float paper,
                      float *da, float *db)
{
    float len = ts_dist(a, b), t[SIDE_N], d[SIDE_N];
    if (len < 1)
        return 0;
    ts_pt u = {(b.x - a.x) / len, (b.y - a.y) / len};
    int m = 0;
    for (int i = 0; i < SIDE_N; i++) {
        float ti = 0.32f + 0.36f * i / (SIDE_N - 1);
        ts_pt p = {a.x + ti * (b.x - a.x), a.y + ti * (b.y - a.y)};
        float e = edge_offset(frame, p, n, u, -reach, reach, paper);
        if (e == e) { /* not NAN */
            t[m] = ti;
            d[m++] = e;
        }
    }
    if (m < SIDE_MIN)
        return 0;
    float l0, k;
    if (edge_fit(t, d, m, &l0, &k) < SIDE_MIN)
        return 0;
    *da = l0;
    *db = l0 + k;
    return 1;
}

/* A quad's width: the mean of its ends (q[0]-q[1] one). */
static float quad_width(const ts_pt q[4])
{
    return (ts_dist(q[0], q[1]) + ts_dist(q[3], q[2])) / 2;
}

/* How coloured the pixel at (x, y) is: its largest channel less its
 * smallest; -1 outside the frame. */
static int frame_colour(const ts_image *frame, float x, float y)
{
    int ix = (int)round_px(x), iy = (int)round_px(y);
    if (ix < 0 || iy < 0 || ix >= frame->w || iy >= frame->h)
        return -1;
    const uint8_t *p = ts_image_row(frame, iy) + 3 * (size_t)ix;
    int hi = p[0] > p[1] ? p[0] : p[1], lo = p[0] < p[1] ? p[0] : p[1];
    return (p[2] > hi ? p[2] : hi) - (p[2] < lo ? p[2] : lo);
}

/* The paper level of card c (q[0]-q[1] an end) by measure (frame_grey, or
 * frame_colour): between its axis and its long sides, over its middle, the
 * upper quartile; or -1 if too little of it is in the frame. */
static float card_level(const ts_image *frame, const ts_pt c[4],
                        int (*measure)(const ts_image *, float, float))
{
    float g[2 * SIDE_N];
    int ng = 0;
    for (int i = 0; i < SIDE_N; i++)
        for (int k = 0; k < 2; k++) {
            ts_pt p = ts_quad_point(c, k ? 0.75f : 0.25f, 0.32f + 0.36f * i / (SIDE_N - 1));
            int v = measure(frame, p.x, p.y);
            if (v >= 0)
                g[ng++] = (float)v;
        }
    if (ng < SIDE_N)
        return -1;
    ts_sort_floats(g, (size_t)ng);
    return g[ng * 3 / 4];
}

/* The paper level of card c (see card_level). */
static float card_paper(const ts_image *frame, const ts_pt c[4])
{
    return card_level(frame, c, frame_grey);
}

/* Quad c with its sides c[0]-c[3] and c[1]-c[2] each moved to the edge
 * that shows within reach px either way (side_shift) into out. Returns 1,
 * or 0 if a side finds no edge. */
static int move_sides(const ts_image *frame, const ts_pt c[4], int reach, float paper,
                      ts_quad *out)
{
    ts_pt ctr = ts_quad_centre(c);
    for (int k = 0; k < 4; k++)
        out->q[k] = c[k];
    for (int side = 0; side < 2; side++) {
        ts_pt a = c[side ? 1 : 0], b = c[side ? 2 : 3];
        float len = ts_dist(a, b);
        if (len < 1)
            return 0;
        ts_pt n = {(b.y - a.y) / len, -(b.x - a.x) / len};
        if (n.x * (a.x - ctr.x) + n.y * (a.y - ctr.y) < 0)
            n = (ts_pt){-n.x, -n.y};
        float da, db;
        if (!side_shift(frame, a, b, n, reach, paper, &da, &db))
            return 0;
        out->q[side ? 1 : 0] = (ts_pt){a.x + da * n.x, a.y + da * n.y};
        out->q[side ? 2 : 3] = (ts_pt){b.x + db * n.x, b.y + db * n.y};
    }
    return 1;
}

/* Card q (q[0]-q[1] an end) with both long sides moved to the edges that
 * show (side_shift, within a quarter of its width either way): a card found
 * too wide (its paper ran on over a card beside or under it, and the seam
 * stopped no ray) or too narrow. Returns 1 and fills out if both sides
 * moved to a card of about its width, 0 if not. */
static int refine_sides(const ts_image *frame, const ts_quad *q, ts_quad *out)
{
    const ts_pt *c = q->q;
    float wid = quad_width(c);
    int reach = (int)(0.25f * wid);
    if (reach < 3 || 2 * reach + 6 > PROFILE)
        return 0;
    float paper = card_paper(frame, c);
    if (paper < 0 || !move_sides(frame, c, reach, paper, out))
        return 0;
    float w2 = quad_width(out->q);
    if (w2 < 0.75f * wid || w2 > 1.25f * wid)
        return 0;
    out->area = (float)ts_quad_area(out->q);
    return 1;
}

/* Card q, its long sides on their edges, with its ends moved to the edges
 * that show too (within a fifth of its width: a card's first pips lie
 * further in): where the paper ran on, the card was measured along a
 * slanting axis, its ends across that slant. Returns 1 and fills out, or 0
 * (out = q) if an end finds no edge. */
static int refine_ends(const ts_image *frame, const ts_quad *q, ts_quad *out)
{
    const ts_pt *c = q->q;
    *out = *q;
    int reach = (int)(0.2f * quad_width(c));
    float paper = card_paper(frame, c);
    ts_pt turned[4] = {c[1], c[2], c[3], c[0]}; /* its ends as sides */
    ts_quad moved;
    if (reach < 3 || paper < 0 || !move_sides(frame, turned, reach, paper, &moved))
        return 0;
    for (int k = 0; k < 4; k++)
        out->q[(k + 1) & 3] = moved.q[k];
    out->area = (float)ts_quad_area(out->q);
    return 1;
}

/* Card c (found whole on a second look, its ends not both straight) with
 * its sides and then its ends moved to the edges that show in frame: on a
 * cloth nearly as light as the card, the rays run on a few px past the
 * side the lamp lights (the grey steps down there only a little), the
 * card is measured too wide, and the lines along it near its sides run
 * off it. Kept when all four sides are edges, the card keeps the deck's
 * shape (within 15%: a card run on over another one's paper, its end at
 * that one's edge, is longer) and pip p still lies in one end's group;
 * not as a card found whole (a sighting), so the pips in it still look for
 * their own cards (a fan's top so moved hid the cards under it). Returns 1
 * and moves c->q, or 0. */
static int edges_of_whole(const ts_image *frame, const pip *p, cand *c)
{
    ts_quad sides, ends;
    if (!refine_sides(frame, &c->q, &sides) || !refine_ends(frame, &sides, &ends))
        return 0;
    const ts_pt *q = ends.q;
    float wid = quad_width(q), len = (ts_dist(q[1], q[2]) + ts_dist(q[0], q[3])) / 2;
    if (wid < 8 || fabsf(len / wid / DECK_ASPECT - 1) > 0.15f || !inside(&ends, p->cx, p->cy))
        return 0;
    /* the pip in an end's group: its place along the card (0..1) */
    ts_pt a = ts_mid(q[0], q[1]), b = ts_mid(q[3], q[2]);
    float t = ((p->cx - a.x) * (b.x - a.x) + (p->cy - a.y) * (b.y - a.y)) / (len * len);
    if (fabsf(t - 0.5f) < 0.125f)
        return 0;
    c->q = ends;
    c->q.score = 1.0f;
    c->width = wid;
    c->whole = 0;
    return 1;
}

/* True if the table, not paper, lies just outside the side a-b of a quad
 * wid wide whose middle is ctr: at most one of five points along it as
 * light as the card's paper (by STOP_PCT, as the rays stop). */
static int table_beyond(const ts_image *frame, ts_pt a, ts_pt b, ts_pt ctr, float wid,
                        float paper)
{
    ts_pt mid = ts_mid(a, b);
    float d = ts_dist(mid, ctr), out = 0.08f * wid + 2;
    if (d < 1)
        return 0;
    float ox = (mid.x - ctr.x) / d * out, oy = (mid.y - ctr.y) / d * out;
    int light = 0;
    for (int k = 1; k <= 5; k++) {
        float t = k / 6.0f;
        ts_pt on = ts_toward(a, b, t);
        int g = frame_grey(frame, on.x + ox, on.y + oy);
        light += g < 0 || g * 100 >= STOP_PCT * paper;
    }
    return light <= 1;
}

/* A card found whole but wider than its length says (a fan's top card
 * with the strip of the card under it that shows past its inner side, no
 * seam seen between them) is offered again at the width its length gives,
 * keeping the long side with the table beyond it (the other runs on into
 * the card under it), after it, its sides and ends then moved to the
 * edges that show (the wide quad's slant was the two cards'): the reader
 * calls it no card if it is off the card. Returns how many (0 or 1). */
static int narrows(const ts_image *frame, const cand *c, cand *out)
{
    const ts_quad wide = c->q; /* out may be c's next: a copy */
    const ts_pt *q = wide.q;   /* q[0]-q[3] one side, q[1]-q[2] the other */
    float len = 0.5f * (ts_dist(q[0], q[3]) + ts_dist(q[1], q[2]));
    float wid = 0.5f * (ts_dist(q[0], q[1]) + ts_dist(q[3], q[2]));
    float keep = len / DECK_ASPECT;
    if (!c->whole || wid < NARROW_OVER * keep)
        return 0;
    float t = keep / wid;
    ts_pt ctr = ts_quad_centre(wide.q);
    float paper = card_paper(frame, wide.q);
    if (paper < 0)
        return 0;
    int hard0 = table_beyond(frame, q[0], q[3], ctr, wid, paper);
    int hard1 = table_beyond(frame, q[1], q[2], ctr, wid, paper);
    if (hard0 == hard1)
        return 0;
    *out = *c;
    if (hard0)
        cut_to_side(q, 0, 3, t, out->q.q);
    else
        cut_to_side(q, 1, 2, t, out->q.q);
    out->q.area = c->q.area * t;
    out->width = c->width * t;
    out->rank = c->rank - 0.3f;
    out->whole = 0; /* not a sighting of its own: a pip in it still looks */
    ts_quad sides;
    if (refine_sides(frame, &out->q, &sides))
        refine_ends(frame, &sides, &out->q);
    return 1;
}

/* True if quads a and b have each corner within tol px of the other's
 * (either way round). */
static int same_quad(const ts_pt a[4], const ts_pt b[4], float tol)
{
    for (int turn = 0; turn < 4; turn += 2) {
        int k = 0;
        while (k < 4 && ts_dist(a[k], b[(k + turn) & 3]) <= tol)
            k++;
        if (k == 4)
            return 1;
    }
    return 0;
}

/* The median width of the cards c[0..nc) found whole with both ends
 * straight (one deck, one camera), or 0 if none. */
static float whole_width(const cand *c, int nc)
{
    enum { MAX_W = 64 };
    float w[MAX_W];
    int n = 0;
    for (int i = 0; i < nc && n < MAX_W; i++)
        if (c[i].whole && c[i].straight)
            w[n++] = quad_width(c[i].q.q);
    if (!n)
        return 0;
    ts_sort_floats(w, (size_t)n);
    return w[n / 2];
}

/* The first REFINED candidates c[0..nc) with their long sides on the edges
 * that show (refine_sides), then their ends (refine_ends), each a new one
 * where its sides moved (at least a twentieth of its width at a corner) to
 * the width of the frame's cards found whole (within 15%: a tilted camera
 * sees its near cards wider than the median), added after them: not a
 * sighting of its own, tried where no candidate before it took the place
 * (each costs a reading). Returns the count of cands now (<= cap). */
static int refined_sides(const ts_image *frame, cand *c, int nc, int cap)
{
    float wid = whole_width(c, nc);
    if (wid <= 0)
        return nc;
    int n0 = nc;
    for (int i = 0; i < n0 && i < REFINED && nc < cap; i++) {
        cand r = c[i];
        if (fabsf(quad_width(c[i].q.q) / wid - 1) <= 0.04f) /* as wide as a card already */
            continue;
        if (!refine_sides(frame, &c[i].q, &r.q) || fabsf(quad_width(r.q.q) / wid - 1) > 0.15f)
            continue;
        ts_quad sides = r.q;
        refine_ends(frame, &sides, &r.q);
        float tol = 0.05f * c[i].width;
        int dup = same_quad(r.q.q, c[i].q.q, tol);
        for (int j = n0; j < nc && !dup; j++)
            dup = same_quad(r.q.q, c[j].q.q, tol);
        if (dup)
            continue;
        r.whole = 0;
        c[nc++] = r;
    }
    return nc;
}

/* A fan's top card found askew (its across way taken from the nearest of
 * a few rays, or from paper running on into the card under it) squared to
 * its one long side with the table beyond (side_shift: a straight edge
 * over the side's middle), the other side parallel to it at the quad's
 * width (it runs on into the card under it, no seam seen), its ends then
 * moved to the edges that show (refine_ends). Returns 1 and fills out if
 * that moved a corner by a twentieth of the width, else 0. */
static int squared_to_free_side(const ts_image *frame, const cand *c, cand *out)
{
    const ts_quad src = c->q; /* out may be c's next: a copy */
    const ts_pt *q = src.q;
    float wid = quad_width(q);
    int reach = (int)(0.25f * wid);
    ts_pt ctr = ts_quad_centre(q);
    float paper = card_paper(frame, q);
    if (paper < 0 || reach < 3 || 2 * reach + 6 > PROFILE)
        return 0;
    int hard0 = table_beyond(frame, q[0], q[3], ctr, wid, paper);
    int hard1 = table_beyond(frame, q[1], q[2], ctr, wid, paper);
    /* a fan's top: the table beyond one long side and both ends (checked
     * first: cheap) */
    if (hard0 == hard1 || !table_beyond(frame, q[0], q[1], ctr, wid, paper) ||
        !table_beyond(frame, q[3], q[2], ctr, wid, paper))
        return 0;
    int ia = hard0 ? 0 : 1, ib = hard0 ? 3 : 2; /* the free side; across it ia ^ 1, ib ^ 1 */
    ts_pt n = ts_outward(q[ia], q[ib], ctr);
    float da, db;
    if (!side_shift(frame, q[ia], q[ib], n, reach, paper, &da, &db))
        return 0;
    ts_pt a = {q[ia].x + da * n.x, q[ia].y + da * n.y};
    ts_pt b = {q[ib].x + db * n.x, q[ib].y + db * n.y};
    if (ts_dist(a, b) < 2 * wid)
        return 0;
    ts_pt n2 = ts_outward(a, b, ctr);
    ts_quad sq = src;
    sq.q[ia] = a;
    sq.q[ib] = b;
    sq.q[ia ^ 1] = (ts_pt){a.x - wid * n2.x, a.y - wid * n2.y};
    sq.q[ib ^ 1] = (ts_pt){b.x - wid * n2.x, b.y - wid * n2.y};
    *out = *c;
    if (!refine_ends(frame, &sq, &out->q) || same_quad(out->q.q, q, 0.05f * wid))
        return 0;
    /* and the table beyond both ends: a fan's top shows them whole (a
     * pile's card partly under another one does not) */
    const ts_pt *o = out->q.q;
    ts_pt oc = ts_quad_centre(o);
    return table_beyond(frame, o[0], o[1], oc, wid, paper) &&
           table_beyond(frame, o[3], o[2], oc, wid, paper);
}

/* Each of the first REFINED candidates c[0..nc) not cut across squared
 * to its free long side (squared_to_free_side), added after it as found
 * whole (a fan's top, read as one), not straight. Returns the count of
 * cands now (<= cap). */
static int squared_tops(const ts_image *frame, cand *c, int nc, int cap)
{
    int n0 = nc;
    for (int i = 0; i < n0 && i < REFINED && nc < cap; i++) {
        if (c[i].rank < 0)
            continue;
        if (!squared_to_free_side(frame, &c[i], &c[nc]))
            continue;
        c[nc].whole = 1;
        c[nc].straight = 0;
        c[nc].rank = c[i].rank - 0.01f;
        nc++;
    }
    return nc;
}

static int on_whole(const cand *c, int nc, const pip *p);

/* ---- a fan's top card along its free long side ------------------------ */

enum {
    EDGE_LOOKS = 32, /* pips looked at so, a frame */
    EDGE_N = 17,     /* samples along the edge */
};

/* How far the paper runs along (vx, vy) from the points depth px in from
 * the edge through (ex, ey) (inward -(ux, uy)) at the depths given: the
 * card's end that way, if the three agree (an end meets the free side
 * about square); -1 if not. */
static float end_along(const domino_card_finder *f, ts_pt e, ts_pt u, ts_pt v, const float *depth,
                       float tol, int thin, int clear)
{
    float d[3];
    for (int k = 0; k < 3; k++) {
        d[k] = walk(f, e.x - depth[k] * u.x, e.y - depth[k] * u.y, v.x, v.y, MAX_RAY, thin, clear);
        if (d[k] < 0)
            return -1;
    }
    float lo = fminf(d[0], fminf(d[1], d[2])), hi = fmaxf(d[0], fmaxf(d[1], d[2]));
    return hi - lo <= tol ? d[1] : -1;
}

/* A fan's top card from a pip on it whose paper runs on (into the cards
 * under it, no seam seen), where the rays found no card: the nearest
 * edge round the pip is its free long side, taken as a straight line from
 * rays across it at points along it (edge_fit: the nearest of a few rays
 * gives its way only to a few degrees), its ends where the paper along
 * that side ends, square to it, its width the deck's for that length;
 * the pip a third or so in from the side, in an end's group; the edge
 * looked at is the one near px off the pip along a (radians). Returns 0
 * and fills c (found whole, not straight), or -1. */
static int card_along(const domino_card_finder *f, const pip *p, float a, float near, cand *c)
{
    ts_pt u = {cosf(a), sinf(a)}, v = {-u.y, u.x};
    /* the edge at points along it, each side of the pip's foot */
    float s[EDGE_N], l[EDGE_N];
    int n = 0;
    for (int j = 0; j < EDGE_N; j++) {
        float sj = (j - EDGE_N / 2) * 0.5f * near;
        float x = p->cx + sj * v.x, y = p->cy + sj * v.y;
        if (!paper_at(f, x, y))
            continue;
        float lj = ray(f, x, y, u.x, u.y, 3 * near);
        if (lj < 0 || lj >= 3 * near)
            continue;
        s[n] = sj;
        l[n++] = lj;
    }
    float l0, k;
    if (n < 8 || edge_fit(s, l, n, &l0, &k) < 8)
        return -1;
    /* the side's own way: u turned by atan(k), the pip l0 cos off it */
    float t = atanf(k), cs = cosf(t), sn = sinf(t);
    ts_pt u2 = {u.x * cs - v.x * sn, u.y * cs - v.y * sn}, v2 = {-u2.y, u2.x};
    float near2 = l0 * cs;
    ts_pt foot = {p->cx + near2 * u2.x, p->cy + near2 * u2.y};
    /* the ends, along the side at three depths within the pip's distance */
    const float depth[3] = {0.3f * near2, 0.6f * near2, 0.9f * near2};
    float tol = 0.15f * near2 + 2;
    int thin = (int)fmaxf(2, 0.5f * p->r), clear = (int)fmaxf(4, p->r);
    float e0 = end_along(f, foot, u2, (ts_pt){-v2.x, -v2.y}, depth, tol, thin, clear);
    float e1 = end_along(f, foot, u2, v2, depth, tol, thin, clear);
    if (e0 < 0 || e1 < 0)
        return -1;
    float len = e0 + e1, w = len / DECK_ASPECT;
    /* the pip a third or so in from the side, and in an end's group */
    if (!width_fits(p, w) || near2 < 0.15f * w || near2 > 0.6f * w ||
        fabsf(e1 - e0) < 0.25f * len)
        return -1;
    float grow = GROW * w;
    ts_pt o = {foot.x + grow * u2.x, foot.y + grow * u2.y}; /* on the side, grown */
    float b0 = e0 + grow, b1 = e1 + grow;
    ts_quad *q = &c->q;
    q->q[0] = (ts_pt){o.x - b0 * v2.x, o.y - b0 * v2.y};
    q->q[1] = (ts_pt){q->q[0].x - w * u2.x, q->q[0].y - w * u2.y};
    q->q[3] = (ts_pt){o.x + b1 * v2.x, o.y + b1 * v2.y};
    q->q[2] = (ts_pt){q->q[3].x - w * u2.x, q->q[3].y - w * u2.y};
    q->area = w * (b0 + b1);
    q->score = 0.5f;
    c->whole = 1;
    c->straight = 0;
    c->pulled = 0;
    c->width = w;
    c->across = atan2f(u2.y, u2.x);
    c->len_w = 0;
    c->ran_on = 0;
    c->rank = 0.2f;
    return 0;
}

/* A fan's top card along one of the two nearest edges round pip p (the
 * nearest may be an end: a pip lies about as far in from an end as from
 * a side), as card_along makes it. Returns 0 and fills c, or -1. */
static int card_along_edge(const domino_card_finder *f, const pip *p, cand *c)
{
    enum { NR = 48, APART = NR / 8 }; /* two edges' ways 45 degrees apart */
    float len[NR], lim = fminf(MAX_RAY, 45 * p->r); /* as card_of_pip's rays */
    for (int k = 0; k < NR; k++) {
        float a = k * 6.2831853f / NR;
        len[k] = ray(f, p->cx, p->cy, cosf(a), sinf(a), lim);
    }
    int tried = -1;
    for (int pass = 0; pass < 2; pass++) {
        int k0 = -1;
        for (int k = 0; k < NR; k++) {
            int d = abs(k - tried); /* rays apart, round the circle */
            d = tried < 0 ? APART : d < NR - d ? d : NR - d;
            if (len[k] >= p->r && d >= APART && (k0 < 0 || len[k] < len[k0]))
                k0 = k;
        }
        if (k0 < 0)
            return -1;
        if (card_along(f, p, k0 * 6.2831853f / NR, len[k0], c) == 0)
            return 0;
        tried = k0;
    }
    return -1;
}

/* The pips runs_on[i] marks (their paper ran on, or no card was found
 * for them) on no card found whole with both ends straight, each a card
 * along one of its nearest edges (card_along_edge), at most EDGE_LOOKS looks,
 * added after the cards found when not found already. Returns the count
 * of cands now (<= cap). */
static int cards_along_edges(const domino_card_finder *f, const uint8_t *runs_on, cand *c,
                             int nc, int cap)
{
    int looks = EDGE_LOOKS;
    for (int i = 0; i < f->npips && looks > 0 && nc < cap; i++) {
        const pip *p = &f->pips[i];
        if (!runs_on[i] || on_whole(c, nc, p))
            continue;
        looks--;
        if (card_along_edge(f, p, &c[nc]) < 0)
            continue;
        int dup = 0;
        for (int j = 0; j < nc && !dup; j++)
            dup = same_quad(c[j].q.q, c[nc].q.q, 0.05f * c[nc].width);
        nc += !dup;
    }
    return nc;
}

/* ---- a card from its two pip groups ------------------------------------ */

enum {
    GROUPS = 96,    /* pip groups paired a frame */
    PAIR_CARDS = 24, /* cards offered from pairs a frame */
};

typedef struct {
    float cx, cy; /* the mean of its pips' centres: every count is printed
                     centred in its end's square */
    int first, n; /* its pips: order[first..first + n) */
    float r;      /* the median radius of its plain pips (0: none) */
} pip_group;

/* Whether pip p lies inside a card found whole among c[0..nc), both its
 * ends seen straight. */
static int on_whole(const cand *c, int nc, const pip *p)
{
    for (int j = 0; j < nc; j++)
        if (c[j].whole && c[j].straight && inside(&c[j].q, p->cx, p->cy))
            return 1;
    return 0;
}

/* Whether pip p lies inside one of known[0..nk). */
static int on_known(const ts_quad *known, int nk, const pip *p)
{
    for (int k = 0; k < nk; k++)
        if (inside(&known[k], p->cx, p->cy))
            return 1;
    return 0;
}

/* The groups of the pips on no card found whole (known NULL) or on none
 * of known[0..nk): plain pips within 5.5 of their radii of each other (a
 * two's diagonal is about 4.5) are one group; a one's disc and a five's
 * clover are groups alone. order gets the pips by group. Returns the
 * count (<= GROUPS). */
static int pip_groups(const domino_card_finder *f, const cand *c, int nc, const ts_quad *known,
                      int nk, float rmed, int *order, pip_group *g)
{
    int np = f->npips, free_n = 0;
    int *parent = order + MAX_PIPS, *free_i = order + 2 * MAX_PIPS;
    for (int i = 0; i < np; i++) {
        parent[i] = i;
        if (known ? !on_known(known, nk, &f->pips[i]) : !on_whole(c, nc, &f->pips[i]))
            free_i[free_n++] = i;
    }
    for (int a = 0; a < free_n; a++)
        for (int b = a + 1; b < free_n; b++) {
            const pip *p = &f->pips[free_i[a]], *q = &f->pips[free_i[b]];
            if (!plain_pip(p, rmed) || !plain_pip(q, rmed))
                continue;
            float r = fminf(p->r, q->r), dx = p->cx - q->cx, dy = p->cy - q->cy;
            if (dx * dx + dy * dy > 5.5f * r * 5.5f * r)
                continue;
            ts_join_lower(parent, free_i[a], free_i[b]);
        }
    int ng = 0, no = 0;
    for (int a = 0; a < free_n && ng < GROUPS; a++) {
        int root = free_i[a];
        if (ts_find_root(parent, root) != root)
            continue;
        pip_group *gr = &g[ng++];
        gr->first = no;
        float rs[MAX_PIPS];
        int nr = 0;
        double sx = 0, sy = 0;
        for (int b = a; b < free_n; b++) {
            if (ts_find_root(parent, free_i[b]) != root)
                continue;
            const pip *p = &f->pips[free_i[b]];
            order[no++] = free_i[b];
            sx += p->cx;
            sy += p->cy;
            if (plain_pip(p, rmed))
                rs[nr++] = p->r;
        }
        gr->n = no - gr->first;
        gr->cx = (float)(sx / gr->n);
        gr->cy = (float)(sy / gr->n);
        ts_sort_floats(rs, (size_t)nr);
        gr->r = nr ? rs[nr / 2] : 0;
    }
    return ng;
}

/* Whether the side a-b of a card w wide (its opposite side through o) is
 * an edge: of 8 points along its middle, 7 or more not paper a tenth of
 * the width beyond it and paper as far inside (a card lying over a third
 * of it leaves fewer). */
static int side_shows(const domino_card_finder *f, ts_pt a, ts_pt b, ts_pt o, float w)
{
    float nx = a.x - o.x, ny = a.y - o.y, d = hypotf(nx, ny);
    if (d < 1)
        return 0;
    nx /= d;
    ny /= d;
    int out = 0, in = 0;
    for (int k = 0; k < 8; k++) {
        ts_pt s = ts_toward(a, b, 0.15f + 0.1f * k);
        out += !paper_at(f, s.x + 0.1f * w * nx, s.y + 0.1f * w * ny);
        in += paper_at(f, s.x - 0.1f * w * nx, s.y - 0.1f * w * ny);
    }
    return out >= 7 && in >= 7;
}

/* Whether the middle of a card w wide (its middle m, along (ux, uy)) is
 * paper: 9 or more of 12 points beside its middle line, where no deck
 * prints a pip (a cloth's spots or weave lie there too). */
static int paper_in_middle(const domino_card_finder *f, ts_pt m, float w, float ux, float uy)
{
    int paper = 0;
    for (int k = 0; k < 12; k++) {
        float t = (k % 6 - 2.5f) * 0.06f * 3.15f * w, side = (k < 6 ? -0.35f : 0.35f) * w;
        paper += paper_at(f, m.x + t * ux - side * uy, m.y + t * uy + side * ux);
    }
    return paper >= 9;
}

/* Whether groups a and b are the two ends of one card whose quad is q
 * (width w along u across n): each pip within its end's square, plain
 * pips of the card's size, no other pip on the card, and paper beside its
 * middle. */
static int pair_fits(const domino_card_finder *f, const int *order, const pip_group *a,
                     const pip_group *b, const ts_pt q[4], float w, float ux, float uy)
{
    const pip_group *gs[2] = {a, b};
    int plain_r = 0;
    for (int k = 0; k < 2; k++) {
        const pip_group *g = gs[k];
        if (g->r > 0 && (w < 4.5f * g->r || w > 11.0f * g->r))
            return 0;
        plain_r |= g->r > 0;
        for (int i = 0; i < g->n; i++) {
            const pip *p = &f->pips[order[g->first + i]];
            float dx = p->cx - g->cx, dy = p->cy - g->cy;
            float along = dx * ux + dy * uy, across = -dx * uy + dy * ux;
            if (fabsf(along) > 0.36f * w || fabsf(across) > 0.36f * w)
                return 0;
            /* a one's disc or a five's clover is a card's width apart */
            if (!g->r && (p->r < 0.2f * w || p->r > 0.5f * w))
                return 0;
        }
    }
    if (!plain_r)
        return 0;
    for (int i = 0; i < f->npips; i++) {
        int mine = 0;
        for (int k = 0; k < 2 && !mine; k++)
            for (int j = 0; j < gs[k]->n && !mine; j++)
                mine = order[gs[k]->first + j] == i;
        if (!mine && ts_point_in_quad(q, f->pips[i].cx, f->pips[i].cy))
            return 0;
    }
    /* one long side at least shows as the card's edge: no paper just
     * beyond it, paper just inside (two ends of two cards lying on one
     * another are paper on both sides of it); and no card's edge slants
     * across it (an end under a card whose one lies where its pips
     * would) */
    if (!side_shows(f, q[1], q[2], q[0], w) && !side_shows(f, q[3], q[0], q[2], w))
        return 0;
    ts_pt m = ts_mid(ts_mid(q[0], q[1]), ts_mid(q[2], q[3]));
    float reach = 0.5f * ts_dist(q[0], q[3]) - 0.04f * w;
    if (cut_across(f, m.x, m.y, -uy, ux, ux, uy, w, reach) ||
        cut_across(f, m.x, m.y, -uy, ux, -ux, -uy, w, reach))
        return 0;
    return paper_in_middle(f, m, w, ux, uy);
}

int domino_find_paired(domino_card_finder *f, ts_quad *out, int max)
{
    int order[3 * MAX_PIPS], fits[GROUPS] = {0}, pa[PAIR_CARDS], pb[PAIR_CARDS];
    pip_group g[GROUPS];
    ts_quad q4[PAIR_CARDS];
    if (!f->pips || f->npips == 0)
        return 0;
    int ng = pip_groups(f, f->cands, f->nfound, NULL, 0, f->rmed, order, g), np = 0, added = 0;
    for (int a = 0; a < ng && np < PAIR_CARDS; a++)
        for (int b = a + 1; b < ng && np < PAIR_CARDS; b++) {
            float dx = g[b].cx - g[a].cx, dy = g[b].cy - g[a].cy, d = hypotf(dx, dy);
            float w = d * 26.0f / 54, len = d * 82.0f / 54;
            if (w < 8)
                continue;
            float ux = dx / d, uy = dy / d, nx = -uy, ny = ux;
            ts_pt m = {(g[a].cx + g[b].cx) / 2, (g[a].cy + g[b].cy) / 2};
            ts_pt *q = q4[np].q;
            q[0] = (ts_pt){m.x - len / 2 * ux - w / 2 * nx, m.y - len / 2 * uy - w / 2 * ny};
            q[1] = (ts_pt){m.x - len / 2 * ux + w / 2 * nx, m.y - len / 2 * uy + w / 2 * ny};
            q[2] = (ts_pt){m.x + len / 2 * ux + w / 2 * nx, m.y + len / 2 * uy + w / 2 * ny};
            q[3] = (ts_pt){m.x + len / 2 * ux - w / 2 * nx, m.y + len / 2 * uy - w / 2 * ny};
            if (!pair_fits(f, order, &g[a], &g[b], q, w, ux, uy))
                continue;
            q4[np].area = w * len;
            q4[np].score = 1.0f;
            ts_quad_order(q4[np].q);
            pa[np] = a;
            pb[np++] = b;
            fits[a]++;
            fits[b]++;
        }
    /* a group that ends two cards ends neither surely (a pile's ends lie
     * every way): only pairs of groups that fit nothing else are kept */
    for (int i = 0; i < np && added < max; i++)
        if (fits[pa[i]] == 1 && fits[pb[i]] == 1)
            out[added++] = q4[i];
    return added;
}

int domino_find_cards(domino_card_finder *f, const ts_image *frame, ts_quad *out, int max,
                      char *err)
{
    f->nfound = 0;
    if (frame->channels != 3 || frame->w < 16 || frame->h < 16 || frame->w > 32767 ||
        frame->h > 32767) /* pixels are packed y << 16 | x */
        return 0;
    if (ensure(f, frame->w, frame->h) < 0) {
        if (err)
            strcpy(err, "domino find: out of memory");
        return -1;
    }
    survey(f, frame, paper_tint(f, frame));
    classify(f, frame);
    drop_specks(f);
    int np = f->npips = find_pips(f, frame);
    /* a spotted cloth's pips first would spend the second looks (and
     * the cards' pips never get one): brightest paper first */
    if (np >= MAX_PIPS)
        qsort(f->pips, (size_t)np, sizeof f->pips[0], by_paper);

    /* pips are part of the card they lie on: rays see through them (a one
     * has a ring round it) */
    memset(f->raw, 0, (size_t)f->w * (size_t)f->h); /* now: the pips' discs */
    f->thr = 0;
    f->own_r = 0;
    for (int i = 0; i < np; i++)
        clear_disc(f, f->pips[i].cx, f->pips[i].cy, disc_radius(&f->pips[i]));
    int nc = 0;
    uint8_t failed[MAX_PIPS], runs_on[MAX_PIPS];
    float wids[MAX_PIPS]; /* the widths of the cards found whole from plain pips */
    int nratio = 0;
    float rmed = f->rmed = median_radius(f);
    /* second looks per frame: a table of cards needs a few per card, a
     * spotted cloth would take one per spot */
    int looks = SECOND_LOOKS, bare = BARE_LOOKS;
    for (int i = 0; i < np; i++) {
        const pip *p = &f->pips[i];
        failed[i] = runs_on[i] = 0;
        /* a pip inside two cards found already gives nothing new */
        int known = 0;
        for (int j = 0; j < nc && known < KNOWN; j++)
            known += f->cands[j].whole && inside(&f->cands[j].q, p->cx, p->cy);
        if (known >= KNOWN)
            continue;
        int got = card_of_pip(f, p, 0, NAN, 0, &f->cands[nc]);
        float len_w = f->cands[nc].len_w, across = f->cands[nc].across;
        int ran_on = f->cands[nc].ran_on;
        runs_on[i] = (uint8_t)(ran_on || got != 0);
        if (got == 0) {
            if (f->cands[nc].whole && plain_pip(p, rmed))
                wids[nratio++] = f->cands[nc].width;
            int pulled = f->cands[nc].pulled;
            /* a card found whole with an end not straight (its lines
             * along it near a side ran off it) gets a second look too */
            int sure = f->cands[nc].whole && f->cands[nc].straight;
            int more = 1 + trims(&f->cands[nc], &f->cands[nc + 1]);
            nc += more + narrows(frame, &f->cands[nc], &f->cands[nc + more]);
            /* and without the pips lying clear beyond its ends, after it */
            if (pulled && card_of_pip(f, p, 0, NAN, 1, &f->cands[nc]) == 0) {
                f->cands[nc].rank -= 0.25f;
                nc++;
            }
            if (!sure)
                nc += second_look(f, frame, p, &f->cands[nc], &looks);
        } else {
            failed[i] = 1;
            nc += second_look(f, frame, p, &f->cands[nc], &looks);
        }
        if (ran_on && bare_look(f, p, &f->cands[nc], &bare)) /* and its trims, after it */
            nc += 1 + trims(&f->cands[nc], &f->cands[nc + 1]);
        /* and as wide as its length gives, after it (not a sighting of
         * its own: a pip in it still looks) */
        if (len_w > 0 && card_of_pip(f, p, len_w, across, 0, &f->cands[nc]) == 0) {
            f->cands[nc].rank -= 0.3f;
            f->cands[nc].whole = 0;
            nc++;
        }
    }
    /* a pip on paper that runs on past its card (another card lying on or
     * under it, their seam unseen) is tried again at the width of the
     * frame's cards found whole (two will do: a row of cards laid side by
     * side may show no more; their median width per median pip radius,
     * steadier than any one pip's half-pixel radius), across the way the
     * nearest of them lies, after every card found on its own; a quad
     * found "whole" half again as wide as that is such a row taken for one
     * card, and knows none of its pips */
    if (nratio >= 2) {
        ts_sort_floats(wids, (size_t)nratio);
        float k = wids[nratio / 2] / rmed;
        for (int i = 0; i < np; i++) {
            const pip *p = &f->pips[i];
            if (!failed[i] || !plain_pip(p, rmed))
                continue;
            int known = 0;
            for (int j = 0; j < nc && !known; j++)
                known = f->cands[j].whole && f->cands[j].width < 1.5f * k * p->r &&
                        inside(&f->cands[j].q, p->cx, p->cy);
            if (known)
                continue;
            /* across the paper's narrowest way, then the nearest card's
             * (a pile's cards lie every way, a row's all one way) */
            int was = nc;
            if (card_of_pip(f, p, k * p->r, NAN, 0, &f->cands[nc]) == 0) {
                f->cands[nc].rank -= 3;
                nc++;
            }
            float a = nearest_across(f->cands, was, p, 1.5f * k * p->r);
            if (!isnan(a) && card_of_pip(f, p, k * p->r, a, 0, &f->cands[nc]) == 0 &&
                (nc == was || !same_quad(f->cands[nc].q.q, f->cands[was].q.q,
                                         0.05f * f->cands[nc].width))) {
                f->cands[nc].rank -= 3.1f;
                nc++;
            }
        }
    }
    nc = frame_trims(f->cands, nc, MAX_CANDS);
    qsort(f->cands, (size_t)nc, sizeof f->cands[0], by_rank);
    nc = refined_sides(frame, f->cands, nc, MAX_CANDS);
    nc = squared_tops(frame, f->cands, nc, MAX_CANDS);
    nc = cards_along_edges(f, runs_on, f->cands, nc, MAX_CANDS);
    qsort(f->cands, (size_t)nc, sizeof f->cands[0], by_rank);
    int n = nc < max ? nc : max;
    for (int i = 0; i < n; i++) {
        out[i] = f->cands[i].q;
        ts_quad_order(out[i].q);
    }
    f->nfound = n;
    return n;
}

int domino_found_whole(const domino_card_finder *f, int i)
{
    return i >= 0 && i < f->nfound && f->cands[i].whole;
}

/* Marks the outline of q (about 2 px thick) as stops, listing each pixel
 * changed in changed[*n] (room for cap). */
static void stop_outline(domino_card_finder *f, const ts_quad *q, int *changed, int *n, int cap)
{
    for (int k = 0; k < 4; k++) {
        ts_pt a = q->q[k], b = q->q[(k + 1) & 3];
        float len = ts_dist(a, b);
        for (float t = 0; t <= len; t += 0.5f) {
            float x = a.x + (b.x - a.x) * t / len, y = a.y + (b.y - a.y) * t / len;
            for (int dy = 0; dy <= 1; dy++)
                for (int dx = 0; dx <= 1; dx++) {
                    int ix = (int)x + dx, iy = (int)y + dy;
                    if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h || *n >= cap)
                        continue;
                    size_t at = (size_t)iy * (size_t)f->w + (size_t)ix;
                    if (!f->stop[at]) {
                        f->stop[at] = 1;
                        changed[(*n)++] = (int)at;
                    }
                }
        }
    }
}

/* A pip's card looked for among the cards known[0..nk) (their outlines
 * stops already): -1 if none, else 0 with c (see find_off_known). */
typedef int (*known_look)(const domino_card_finder *f, const pip *p, const ts_quad *known, int nk,
                          cand *c);

/* The pips of the last frame that lie on none of the cards known[0..nk),
 * each looked at (look) with the known cards' outlines as edges. Returns
 * the quads found (<= max), as domino_find_cards gives them, none the same
 * as one before it or one of tried[0..ntried) (several pips of a card give
 * it again). */
static int find_off_known(domino_card_finder *f, const ts_image *frame, const ts_quad *known,
                          int nk, known_look look, const ts_quad *tried, int ntried, ts_quad *out,
                          int max)
{
    if (!f->queue || !f->npips)
        return 0;
    /* the pips on no card known (most frames: none) */
    int *free_pip = f->queue, nfree = 0;
    for (int i = 0; i < f->npips; i++) {
        int on = 0;
        for (int k = 0; k < nk && !on; k++)
            on = inside(&known[k], f->pips[i].cx, f->pips[i].cy);
        if (!on)
            free_pip[nfree++] = i;
    }
    if (!nfree)
        return 0;
    /* the flood fill's queue is free after find_pips */
    int *changed = f->queue + nfree, nch = 0, cap = f->w * f->h - nfree;
    for (int k = 0; k < nk; k++)
        stop_outline(f, &known[k], changed, &nch, cap);
    int n = 0;
    for (int j = 0; j < nfree && n < max; j++) {
        cand c;
        if (look(f, &f->pips[free_pip[j]], known, nk, &c) < 0)
            continue;
        ts_quad sides;
        if (frame && refine_sides(frame, &c.q, &sides))
            refine_ends(frame, &sides, &c.q);
        float tol = 0.1f * c.width;
        int dup = 0;
        for (int k = 0; k < ntried && !dup; k++)
            dup = same_quad(c.q.q, tried[k].q, tol);
        for (int k = 0; k < n && !dup; k++)
            dup = same_quad(c.q.q, out[k].q, tol);
        if (dup)
            continue;
        out[n] = c.q;
        ts_quad_order(out[n].q);
        n++;
    }
    for (int i = 0; i < nch; i++)
        f->stop[changed[i]] = 0;
    return n;
}

static int look_under(const domino_card_finder *f, const pip *p, const ts_quad *known, int nk,
                      cand *c)
{
    (void)known;
    (void)nk;
    return card_of_pip(f, p, 0, NAN, 0, c);
}

int domino_find_under(domino_card_finder *f, const ts_quad *known, int nk, ts_quad *out, int max)
{
    return find_off_known(f, NULL, known, nk, look_under, NULL, 0, out, max);
}

/* The direction across quad q (its shorter sides' way, radians) and the
 * width of the paper it was found on (less the quad's GROW). */
static float quad_across(const ts_quad *q, float *width)
{
    ts_pt a = q->q[0], b = q->q[1], c = q->q[2];
    if (ts_dist(a, b) > ts_dist(b, c))
        a = c;
    *width = ts_dist(a, b) / (1 + 2 * GROW);
    return atan2f(a.y - b.y, a.x - b.x);
}

/* The card of pip p beside a known card: as wide as the nearest known card
 * (within a card's length and a half of its middle: a row's or block's
 * neighbour, seen at the same scale), across the way it lies, its near side
 * the first edge the rays meet (a known card's outline where it touches one). */
static int look_beside(const domino_card_finder *f, const pip *p, const ts_quad *known, int nk,
                       cand *c)
{
    float best = 1e30f;
    int at = -1;
    for (int k = 0; k < nk; k++) {
        float d = ts_dist(ts_quad_centre(known[k].q), (ts_pt){p->cx, p->cy});
        const ts_pt *q = known[k].q;
        float len = fmaxf(ts_dist(q[0], q[3]), ts_dist(q[0], q[1]));
        if (d <= 1.5f * len && d < best) {
            best = d;
            at = k;
        }
    }
    if (at < 0 || p->clover)
        return -1;
    float w, a = quad_across(&known[at], &w);
    return card_of_pip(f, p, w, a, 0, c);
}

/* Whether quad q (a card's outline) holds pips on no card of known[0..nk)
 * at both its ends and none across its middle, and paper beside its
 * middle: a card's two pip groups (every end prints one), not a cloth's
 * spots. */
static int pips_at_both_ends(const domino_card_finder *f, const ts_pt q[4], const ts_quad *known,
                             int nk)
{
    ts_pt a = ts_mid(q[0], q[1]), b = ts_mid(q[3], q[2]); /* the ends' middles */
    if (ts_dist(q[0], q[1]) > ts_dist(q[1], q[2]))
        a = ts_mid(q[1], q[2]), b = ts_mid(q[0], q[3]);
    float len2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y), len = sqrtf(len2);
    if (len < 8 || !paper_in_middle(f, ts_mid(a, b), len / DECK_ASPECT, (b.x - a.x) / len,
                                    (b.y - a.y) / len))
        return 0;
    int ends[2] = {0, 0};
    for (int i = 0; i < f->npips; i++) {
        const pip *p = &f->pips[i];
        if (!ts_point_in_quad(q, p->cx, p->cy) || on_known(known, nk, p))
            continue;
        /* its place along the card, 0..1 */
        float t = ((p->cx - a.x) * (b.x - a.x) + (p->cy - a.y) * (b.y - a.y)) / len2;
        if (fabsf(t - 0.5f) < 0.1f)
            return 0;
        ends[t > 0.5f]++;
    }
    return ends[0] && ends[1];
}

/* The known cards moved by their own width across or length along, into
 * out[n..max): in a block or row of cards laid edge to edge whose seams the
 * camera barely shows (the rays run on over them every way), the card
 * beside a known one lies where that one would, moved by its own size.
 * Kept where the moved card holds pips on no known card at both its ends
 * (the table's own spots, or another card's end, lie elsewhere), its sides
 * and ends moved to the edges that show, none the same as another or as
 * one of tried[0..ntried). Returns the count now. */
static int moved_known(const domino_card_finder *f, const ts_image *frame, const ts_quad *known,
                       int nk, const ts_quad *tried, int ntried, ts_quad *out, int n, int max)
{
    for (int k = 0; k < nk && n < max; k++) {
        /* q[0]-q[1] an end (as card_of_pip gives a card) */
        const ts_pt *o = known[k].q;
        int e = ts_dist(o[0], o[1]) > ts_dist(o[1], o[2]);
        ts_pt q[4] = {o[e], o[(e + 1) & 3], o[(e + 2) & 3], o[(e + 3) & 3]};
        float tint = -2; /* measured when a moved card first needs it */
        ts_pt sides[2] = {{q[1].x - q[0].x, q[1].y - q[0].y}, {q[2].x - q[1].x, q[2].y - q[1].y}};
        for (int m = 0; m < 4 && n < max; m++) {
            ts_pt s = sides[m >> 1];
            float sg = m & 1 ? -1.0f : 1.0f;
            ts_quad c = known[k];
            for (int j = 0; j < 4; j++)
                c.q[j] = (ts_pt){q[j].x + sg * s.x, q[j].y + sg * s.y};
            if (!ts_quad_in_frame(c.q, f->w, f->h, 0) || !pips_at_both_ends(f, c.q, known, nk))
                continue;
            /* and paper of the known card's colour (one deck under one
             * lamp; a cloth as light as the cards, its spots pips to the
             * finder, is coloured) */
            if (tint < -1)
                tint = card_level(frame, q, frame_colour);
            float tint_here = card_level(frame, c.q, frame_colour);
            if (tint < 0 || tint_here < 0 || fabsf(tint_here - tint) > 8 + 0.1f * tint)
                continue;
            ts_quad sides_on, ends_on;
            if (refine_sides(frame, &c, &sides_on) && refine_ends(frame, &sides_on, &ends_on))
                c = ends_on;
            float tol = 0.1f * fminf(ts_dist(q[0], q[1]), ts_dist(q[1], q[2]));
            int dup = 0;
            for (int j = 0; j < ntried && !dup; j++)
                dup = same_quad(c.q, tried[j].q, tol);
            for (int j = 0; j < n && !dup; j++)
                dup = same_quad(c.q, out[j].q, tol);
            if (dup)
                continue;
            ts_quad_order(c.q);
            out[n++] = c;
        }
    }
    return n;
}

int domino_find_beside(domino_card_finder *f, const ts_image *frame, const ts_quad *known, int nk,
                       const ts_quad *tried, int ntried, ts_quad *out, int max)
{
    int n = find_off_known(f, frame, known, nk, look_beside, tried, ntried, out, max);
    return moved_known(f, frame, known, nk, tried, ntried, out, n, max);
}

int domino_groups_off(domino_card_finder *f, const ts_quad *known, int nk, domino_group *out,
                      int max)
{
    int order[3 * MAX_PIPS];
    pip_group g[GROUPS];
    if (!f->pips || f->npips == 0)
        return 0;
    int ng = pip_groups(f, f->cands, f->nfound, known, nk, f->rmed, order, g), n = 0;
    for (int i = 0; i < ng && n < max; i++) {
        domino_group *o = &out[n++];
        o->cx = g[i].cx;
        o->cy = g[i].cy;
        o->r = g[i].r;
        o->n = g[i].n;
        for (int k = 0; k < g[i].n && k < DOMINO_GROUP_PIPS; k++) {
            const pip *p = &f->pips[order[g[i].first + k]];
            o->px[k] = p->cx;
            o->py[k] = p->cy;
        }
    }
    return n;
}

int domino_fit_sides(const ts_image *frame, const ts_quad *q, ts_quad *out)
{
    return refine_sides(frame, q, out);
}
