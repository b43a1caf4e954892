/* Gang of Four candidates (see gof_find.h). */
#include "readers/gof_find.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvwrap.h"
#include "geom.h"
#include "median.h"
#include "readers/gof_edges.h"
#include "readers/gof_index.h"

enum { WORK_SIDE = 400 }; /* long side of the stock image, px */

enum { MAX_GRID = 12 }; /* rows or columns of touching cards a block may hold (a row of 12) */
enum { MAX_CELLS = 16 }; /* cards a block may hold */
enum { MAX_INDEX = 256 }; /* cards offered from their indices */
enum { MAX_OUT = 1024 };  /* candidates returned */
/* Outline candidates gathered over all binarisations before the duplicates
 * go: room for every pass, so no blob's splits crowd out a later pass. */
enum { MAX_OUTLINE = 1024 };
/* Splits into several cells offered per blob (the best seams): a blob of
 * two cards has a dozen splits into small cells of a card's shape. */
enum { SPLITS_PER_BLOB = 3 };
enum { MAX_BLOBS = 64 };  /* stock blobs looked at for unexplained stock */
enum { MAX_ON = 64 };     /* cards counted on one blob */
/* A cell of a split whose seams are at least this dark (grey levels) is as
 * sure as a lone card: it explains its stock (see unexplained). */
static const float EXPLAINS = 4.0f;
/* The index finder looks only where the lone cards (score 999/1000) leave
 * stock unexplained, as it costs more than the outlines: a block's cells
 * along clear seams may still be a third of a card off, with no index card
 * to set them right (touching rows on dark cloth, felt, carpet: 109031,
 * 109038, 111014). Seeds (six layouts, 40 each), fully visible: 109000
 * 2130 -> 2134 of 2173 (touching 445 -> 449 of 450, its one wrong gone:
 * wrong 4 -> 3), at least half 2294 -> 2298 of 2398 (wrong 8 -> 7);
 * 111000 2125 -> 2126 of 2174 (touching 436 -> 437), 2297 -> 2299 of 2397
 * (wrong 1/4 as before); 87000 2106 -> 2107 of 2162, 2284 -> 2285 of 2401
 * (wrong 4/4 as before); false as before. Callgrind grid 127.00 M, pile
 * 206.92 M as before (their blobs are explained by lone cards or the index
 * finder runs anyway). Lone cards only for blocks()'s extra binarisations
 * too: 109000 touching 449 but false 0 -> 1, 111000 touching 436 -> 434
 * and wrong 0 -> 1. */
static const float INDEX_EXPLAINS = 999.0f;
static const float MIN_SEAM = -3.0f; /* a split's lines may not run through print */

static const float CARD_ASPECT = 87.0f / 56.0f;
/* A quad that sets the card size must be a card's shape seen at a slant:
 * its opposite sides within this sine of parallel and this share of each
 * other's length (card_shaped; quads of the stock image, a pixel there
 * being 4 of the frame's, so loose). */
static const float SHAPE_SKEW = 0.3f, SHAPE_SIDES = 0.7f;
/* How much shorter than the card's side a pile corner's edges may be and
 * still be a whole card's (corner_cards). */
static const float SHORT_WHOLE = 0.15f;
/* The scores of the cards corner_cards offers: a whole card's two sides,
 * a card sized by the lone cards along a corner's edges, and such a card
 * that does not fit its blob of one card (TS_GOF_ASIDE, on_blob). */
static const float CORNER_WHOLE = 0.45f, CORNER_PART = 0.3f, CORNER_ASIDE = 0.29f;
/* ... and a card sized by a corner's edge that is a whole side of it
 * (sized_by_side), after those sized by the lone cards: a place they read
 * sure is not read again (before them, 125000's piles read one more wrong
 * card and the callgrind pile frame 206.6 M against 203.5). */
static const float CORNER_SIDE = 0.295f;
/* A blob between these many cards' areas is one card (is_pile). */
static const float PILE_AREA = 1.3f, ONE_AREA = 0.5f;
/* How far a corner card's corners are pulled in before they must lie on a
 * blob of one card (on_blob): the blob's outline runs a pixel or two
 * inside the card and round its corners. */
static const float ON_BLOB = 0.1f;
/* An index card whose size is further than this from the lone cards' is
 * resized to theirs (fit_size). */
static const float FIT_SIZE = 0.08f;

/* How far (as a log ratio) a lone quad's long/short side ratio may be from
 * a card's and still be one card. A camera looking at the table at a slant
 * foreshortens the sides that point away from it: far cards seen lengthwise
 * look up to 1.9-2.1 long, seen crosswise down to 1.2 (at a 30 degree slant,
 * far cards of a grid are 1.25-1.3). Two cards joined along their long
 * sides make a 1.29 block too: it is tried after its split when the seam
 * shows, and the reader tells (the card net and the corners disagree). On
 * seeds 20000-20019, from 1.35 to 1.2: 925 -> 939 of 1093 fully visible
 * cards read, wrong 2 -> 2. */
static const float SINGLE_LO = -0.26f, SINGLE_HI = 0.3f;
/* The same for the cells of a block split into touching cards, tighter (a
 * block divides into many wrong grids of loose cells): a block seen at a
 * slant has cells 1.3-1.8 long (1.47-1.67 before, which lost every card of
 * a 4 x 3 block of crosswise cards seen at 25 degrees). */
static const float SPLIT_LO = -0.15f, SPLIT_HI = 0.15f;
/* The cells of a split into one row or column of cards may be as short as
 * a lone card (SINGLE_LO): a row played with gaps of a few pixels between
 * its cards is one blob at the stock image's scale, and seen at a slant
 * its cells are 1.2-1.3 long (81000-81039 rows: 453 -> 465 of 479 fully
 * visible cards read, wrong 1 -> 0). Not for grids of both: on 68019 a
 * 2 x 3 split of a slanted block made a cell across two cards read sure.
 * Only along seams at least LINE_SEAM dark (grey levels): the table between
 * a row's cards (14-160 on 81000-81039); a lone card's halves have that
 * shape too, their seam (-56..10) through its print, and were read for
 * nothing (a pile frame: 288 -> 307 M instructions). */
static const float LINE_LO = -0.26f, LINE_SEAM = 12.0f;
/* How far (of the block's width) a line's cell may move its long sides
 * from the block's (line_cells). */
static const float LINE_SHIFT = 0.4f;
/* Only a line of this many cards with the table showing between them
 * (LINE_SEAM) is laid out so: a pile's blob splits into lines of cells
 * too, whose stretches of outline are other cards' edges (piles 105037
 * and 107026 without that: 18 -> 13 of 21 at least half visible cards). */
enum { LINE_CELLS = 3 };

/* The seams of the splits measured in this frame: the binarisations find
 * the same blob again and again (to a pixel or two once refined), and
 * measuring a split's seams is most of the outline search's cost. */
enum { MAX_SEAMS = 256 };
typedef struct {
    ts_pt q[4];
    int rows, cols;
    float seam, need, u[MAX_GRID + 1], v[MAX_GRID + 1];
} seam_memo;

struct ts_gof_finder {
    seam_memo seam[MAX_SEAMS]; /* this frame's, scratch */
    int nseam;
    ts_detector *det;
    ts_index_ink *index;
    ts_quad idx[MAX_INDEX]; /* the index finder's cards, scratch */
    ts_quad view[MAX_INDEX]; /* ... offered as index views, scratch */
    ts_quad pair[MAX_INDEX]; /* ... all of this frame's (ts_gof_find_pairs) */
    int npair;
    unsigned char kind[MAX_OUT]; /* each candidate's ts_gof_kind, scratch */
    ts_quad outline[MAX_OUTLINE]; /* the outline candidates, scratch */
    struct {
        float x0, y0, x1, y1; /* bounding box, frame px */
        double area;          /* frame px^2 */
    } blob[MAX_BLOBS];        /* the stock blobs of the plain Otsu pass */
    int nblob;
    float min_aspect, max_aspect;
    ts_image stock, bin; /* scratch, reused across frames */
    ts_image away;       /* how far each pixel is from the table's colour, scratch */
    ts_image tone;       /* the closed colours away_image may measure (clean_tone), scratch */
    ts_image smooth;     /* how smooth the stock score is about each pixel, scratch */
    /* The stock the stock-score passes left unexplained (x, y, w, h), when
     * the away passes ran: the index finder looks there, whatever those
     * passes explained (their splits of a block can pass for cards). */
    int away_roi[4], away_ran;
    float slope[2]; /* how the lone cards' side changes down the frame (side_slope) */
};

ts_gof_finder *ts_gof_finder_create(float min_aspect, float max_aspect)
{
    ts_gof_finder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    ts_detect_params p;
    ts_detect_defaults(&p);
    p.min_aspect = min_aspect;
    p.max_aspect = max_aspect;
    p.work_size = 4 * WORK_SIDE; /* never decimate the stock image again */
    f->min_aspect = min_aspect;
    f->max_aspect = max_aspect;
    f->det = ts_detector_create(&p);
    f->index = ts_index_ink_create(TS_GOF_INK_BLOBS);
    if (!f->det || !f->index) {
        ts_detector_destroy(f->det);
        ts_index_ink_destroy(f->index);
        free(f);
        return NULL;
    }
    return f;
}

void ts_gof_finder_destroy(ts_gof_finder *f)
{
    if (!f)
        return;
    ts_detector_destroy(f->det);
    ts_index_ink_destroy(f->index);
    ts_image_free(&f->stock);
    ts_image_free(&f->bin);
    ts_image_free(&f->away);
    ts_image_free(&f->tone);
    ts_image_free(&f->smooth);
    free(f);
}

/* Decimates frame by k into f->stock: the score of the mean of four samples
 * spread over each k x k block (the blur of the contour search does the
 * rest). */
static int stock_image(ts_gof_finder *f, const ts_image *frame, int k)
{
    int w = frame->w / k, h = frame->h / k;
    if (!f->stock.buf || f->stock.w != w || f->stock.h != h) {
        ts_image_free(&f->stock);
        if (ts_image_alloc(&f->stock, w, h, 1) < 0)
            return -1;
    }
    const int c = frame->channels, o0 = k / 4, o1 = (3 * k) / 4;
    for (int y = 0; y < h; y++) {
        const uint8_t *r0 = ts_image_row(frame, y * k + o0), *r1 = ts_image_row(frame, y * k + o1);
        uint8_t *o = ts_image_row(&f->stock, y);
        for (int x = 0; x < w; x++) {
            const uint8_t *p[4] = {r0 + (x * k + o0) * c, r0 + (x * k + o1) * c,
                                   r1 + (x * k + o0) * c, r1 + (x * k + o1) * c};
            int b = 0, g = 0, r = 0;
            for (int i = 0; i < 4; i++) {
                b += p[i][0];
                g += p[i][c == 3 ? 1 : 0];
                r += p[i][c == 3 ? 2 : 0];
            }
            o[x] = (uint8_t)ts_gof_stock_score(b / 4, g / 4, r / 4);
        }
    }
    return 0;
}

/* Each channel of colour image t replaced by its brightest (dark 0) or
 * darkest (dark 1) over the 3 x 3 places about it; row holds 2 rows of t.
 * In place, row by row: the row above is kept aside in row. */
static void spread3(ts_image *t, int dark, uint8_t *row)
{
    int w = t->w, h = t->h;
    uint8_t *above = row, *cur = row + (size_t)w * 3;
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(t, y);
        const uint8_t *below = y + 1 < h ? ts_image_row(t, y + 1) : cur;
        const uint8_t *up = y > 0 ? above : cur;
        memcpy(cur, o, (size_t)w * 3);
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) {
                int m = cur[3 * x + c];
                for (int dx = -1; dx <= 1; dx++) {
                    int i = 3 * (x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx) + c;
                    int v[3] = {cur[i], below[i], up[i]};
                    for (int j = 0; j < 3; j++)
                        m = dark ? (v[j] < m ? v[j] : m) : (v[j] > m ? v[j] : m);
                }
                o[3 * x + c] = (uint8_t)m;
            }
        memcpy(above, cur, (size_t)w * 3);
    }
}

/* Into f->tone (frame / k, colour): each channel of the frame closed (the
 * brightest over each k x k block and its eight neighbours, 3k px, then the
 * darkest of that over the 3 x 3 blocks): a polka-dot cloth's dots, smaller
 * than that, go, leaving its light ground, while card stock a card wide
 * stays, at its size (the dots' chroma differs from the ground's as much as
 * the cards' does, so on the plain samples the cloth is as "away" as the
 * cards). Returns -1 when out of memory. */
static int clean_tone(ts_gof_finder *f, const ts_image *frame, int k)
{
    int w = frame->w / k, h = frame->h / k;
    if ((!f->tone.buf || f->tone.w != w || f->tone.h != h) &&
        (ts_image_free(&f->tone), ts_image_alloc(&f->tone, w, h, 3) < 0))
        return -1;
    for (int y = 0; y < h; y++) {
        uint8_t *t = ts_image_row(&f->tone, y);
        for (int x = 0; x < w; x++) {
            uint8_t m[3] = {0, 0, 0};
            for (int yy = y * k; yy < (y + 1) * k; yy++) {
                const uint8_t *r = ts_image_row(frame, yy) + x * k * 3;
                for (int i = 0; i < 3 * k; i++)
                    m[i % 3] = r[i] > m[i % 3] ? r[i] : m[i % 3];
            }
            memcpy(t + 3 * x, m, 3);
        }
    }
    uint8_t *row = malloc((size_t)w * 3 * 2);
    if (!row)
        return -1;
    spread3(&f->tone, 0, row);
    spread3(&f->tone, 1, row);
    free(row);
    return 0;
}

/* The colours away_image measures along row y of the decimated image, the
 * x-th at the pointer returned plus x * *step: the frame's pixel at the
 * middle of each k x k block, or (clean) f->tone's. */
static const uint8_t *tone_row(const ts_gof_finder *f, const ts_image *frame, int k, int clean,
                               int y, int *step)
{
    *step = clean ? 3 : 3 * k;
    return clean ? ts_image_row(&f->tone, y) : ts_image_row(frame, y * k + k / 2) + k / 2 * 3;
}

/* The chroma of a colour px (BGR) as two opponent values, each + 255:
 * red - green, red and green - blue. */
static void chroma_of(const uint8_t *px, int c[2])
{
    c[0] = px[2] - px[1] + 255;
    c[1] = (px[2] + px[1]) / 2 - px[0] + 255;
}

/* The table's chroma from the histograms hs of its samples' (chroma_of):
 * each value's median (the table fills most of the frame) into ref. */
static void median_chroma(long (*hs)[512], long n, int ref[2])
{
    for (int c = 0; c < 2; c++) {
        long acc = 0;
        int v = 0;
        while (v < 511 && (acc += hs[c][v]) < n / 2)
            v++;
        ref[c] = v;
    }
}

/* The two commonest chromas of the frame's samples (tone_row) into
 * ref[0..1] and ref[2..3]: a striped cloth's two colours, the cards' chroma
 * between them, so as far from their median as the cloth (123006's orange
 * and white stripes). Bins of MODE_BIN, the second at least MODE_APART
 * bins (L1) from the first. Returns -1 when out of memory. */
enum { MODE_BIN = 8, MODE_BINS = 512 / MODE_BIN, MODE_APART = 5 };
static int two_modes(const ts_gof_finder *f, const ts_image *frame, int k, int ref[4])
{
    int (*h)[MODE_BINS] = calloc(MODE_BINS, sizeof *h);
    if (!h)
        return -1;
    for (int y = 0, step; y < frame->h / k; y++) {
        const uint8_t *r = tone_row(f, frame, k, 0, y, &step);
        for (int x = 0; x < frame->w / k; x++) {
            int c[2];
            chroma_of(r + x * step, c);
            h[c[0] / MODE_BIN][c[1] / MODE_BIN]++;
        }
    }
    /* the count of each bin with its 8 neighbours: a mode spread over two bins */
    int best[2] = {-1, -1}, at[2][2] = {{0, 0}, {0, 0}};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 1; i < MODE_BINS - 1; i++)
            for (int j = 1; j < MODE_BINS - 1; j++) {
                if (pass && abs(i - at[0][0]) + abs(j - at[0][1]) < MODE_APART)
                    continue;
                int sum = 0;
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++)
                        sum += h[i + di][j + dj];
                if (sum > best[pass])
                    best[pass] = sum, at[pass][0] = i, at[pass][1] = j;
            }
    free(h);
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < 2; c++)
            ref[2 * m + c] = at[m][c] * MODE_BIN + MODE_BIN / 2;
    return 0;
}

/* How f->away is measured (away_image). */
typedef enum {
    AWAY_MEDIAN, /* from the table's median chroma */
    AWAY_CLEAN,  /* the same of the clean colours (clean_tone) */
    AWAY_MODES   /* from the nearer of the table's two commonest chromas */
} away_kind;

/* Decimates frame by k into f->away: how far each pixel's hue is from the
 * table's, whatever its brightness. The stock score misses cards as bright
 * as the table in it (grey-white stock on yellow wood, beige stock on a
 * pale grey cloth), and the table's shading is as large as any brightness
 * difference; their chroma still differs. Chroma as two opponent values
 * (red - green, red and green - blue), the table's the median of each
 * (the table fills most of the frame), or the nearer of its two commonest
 * (how); the score twice the L1 distance. Blurred like the stock image. */
static int away_image(ts_gof_finder *f, const ts_image *frame, int k, away_kind how, char *err)
{
    int w = frame->w / k, h = frame->h / k;
    if (!f->away.buf || f->away.w != w || f->away.h != h) {
        ts_image_free(&f->away);
        if (ts_image_alloc(&f->away, w, h, 1) < 0) {
            snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
            return -1;
        }
    }
    if (frame->channels != 3) {
        memset(f->away.buf, 0, (size_t)f->away.stride * (size_t)h);
        return 0;
    }
    long (*hs)[512] = calloc(2, sizeof *hs);
    int ref[4], nref = how == AWAY_MODES ? 2 : 1, clean = how == AWAY_CLEAN;
    if (!hs || (clean && clean_tone(f, frame, k) < 0) ||
        (how == AWAY_MODES && two_modes(f, frame, k, ref) < 0)) {
        free(hs);
        snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
        return -1;
    }
    if (how != AWAY_MODES) {
        for (int y = 0, step; y < h; y++) {
            const uint8_t *r = tone_row(f, frame, k, clean, y, &step);
            for (int x = 0; x < w; x++) {
                int c[2];
                chroma_of(r + x * step, c);
                hs[0][c[0]]++;
                hs[1][c[1]]++;
            }
        }
        median_chroma(hs, (long)w * h, ref);
    }
    free(hs);
    for (int y = 0, step; y < h; y++) {
        const uint8_t *r = tone_row(f, frame, k, clean, y, &step);
        uint8_t *out = ts_image_row(&f->away, y);
        for (int x = 0; x < w; x++) {
            int c[2];
            chroma_of(r + x * step, c);
            int d = 2 * (abs(c[0] - ref[0]) + abs(c[1] - ref[1]));
            if (nref == 2) {
                int d2 = 2 * (abs(c[0] - ref[2]) + abs(c[1] - ref[3]));
                d = d2 < d ? d2 : d;
            }
            out[x] = (uint8_t)(d > 255 ? 255 : d);
        }
    }
    return tscv_blur(&f->away, &f->away, 0.8, err);
}

/* A table whose stock score varies this much about the typical pixel (the
 * median of smooth_image's local range, grey levels) is patterned: polka
 * dots, checks, a coarse grain (plain cloth, felt and desk 0-9 on seeds
 * 87000-87039; printed cloth 20-43). */
static const int PATTERNED = 15;

/* Into f->smooth (the stock image's size): how smooth the stock score is
 * about each pixel, 255 - 4 x the local range (max - min within 2 px of
 * the stock image) blurred over a few pixels. A printed cloth as light as
 * the card stock (polka dots, checks) has no edge to tell the cards from it,
 * but its print is everywhere and the stock's margins are smooth: the cards
 * are the smooth blobs. Uses f->bin as scratch. Returns the median local
 * range (the table's: it fills most of the frame), or -1. */
static int smooth_image(ts_gof_finder *f, char *err)
{
    int w = f->stock.w, h = f->stock.h;
    if ((!f->smooth.buf || f->smooth.w != w || f->smooth.h != h) &&
        (ts_image_free(&f->smooth), ts_image_alloc(&f->smooth, w, h, 1) < 0)) {
        snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
        return -1;
    }
    if (tscv_morph(&f->stock, &f->bin, 'd', 2, err) < 0 ||
        tscv_morph(&f->stock, &f->smooth, 'e', 2, err) < 0)
        return -1;
    for (int y = 0; y < h; y++) {
        const uint8_t *hi = ts_image_row(&f->bin, y);
        uint8_t *o = ts_image_row(&f->smooth, y);
        for (int x = 0; x < w; x++)
            o[x] = (uint8_t)(hi[x] - o[x]);
    }
    if (tscv_blur(&f->smooth, &f->smooth, 2.0, err) < 0)
        return -1;
    long hist[256] = {0};
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(&f->smooth, y);
        for (int x = 0; x < w; x++) {
            hist[o[x]]++;
            o[x] = (uint8_t)(o[x] > 63 ? 0 : 255 - 4 * o[x]);
        }
    }
    long acc = 0;
    int med = 0;
    while (med < 255 && (acc += hist[med]) < (long)w * h / 2)
        med++;
    return med;
}

/* ---- Blocks of touching cards ---------------------------------------------- */

/* Clockwise on screen, q[0]-q[1] a short side. */
static void order(ts_pt q[4])
{
    float s = 0;
    for (int k = 0; k < 4; k++)
        s += q[k].x * q[(k + 1) % 4].y - q[(k + 1) % 4].x * q[k].y;
    if (s < 0) {
        ts_pt t = q[1];
        q[1] = q[3];
        q[3] = t;
    }
    if (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]) > ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) {
        ts_pt t = q[0];
        q[0] = q[1], q[1] = q[2], q[2] = q[3], q[3] = t;
    }
}

/* Corners from lines fitted to the outline between the rough corners c (the
 * middle of each side only: the card's corners are rounded). */
static int refine(const ts_ipt *pts, int n, const ts_ipt c[4], float grow, ts_pt q[4])
{
    int at[4];
    for (int i = 0; i < 4; i++) {
        int best = 0;
        long bd = -1;
        for (int j = 0; j < n; j++) {
            long dx = pts[j].x - c[i].x, dy = pts[j].y - c[i].y, d = dx * dx + dy * dy;
            if (bd < 0 || d < bd)
                bd = d, best = j;
        }
        at[i] = best;
    }
    ts_ipt cc[4];
    for (int i = 0; i < 4; i++)
        cc[i] = c[i];
    for (int i = 1; i < 4; i++) /* corners in the outline's own order */
        for (int j = i; j > 0 && at[j] < at[j - 1]; j--) {
            int t = at[j];
            at[j] = at[j - 1], at[j - 1] = t;
            ts_ipt u = cc[j];
            cc[j] = cc[j - 1], cc[j - 1] = u;
        }
    c = cc;
    float lx[4], ly[4], nx[4], ny[4]; /* a point on each side's line and its normal */
    for (int i = 0; i < 4; i++) {
        int a = at[i], b = at[(i + 1) % 4], len = (b - a + n) % n;
        if (len < 4)
            return -1;
        double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
        int m = 0;
        for (int t = len / 6; t <= len - len / 6; t++) {
            const ts_ipt *p = &pts[(a + t) % n];
            sx += p->x, sy += p->y, sxx += (double)p->x * p->x, syy += (double)p->y * p->y;
            sxy += (double)p->x * p->y;
            m++;
        }
        double mx = sx / m, my = sy / m, cxx = sxx / m - mx * mx, cyy = syy / m - my * my,
               cxy = sxy / m - mx * my;
        double ang = 0.5 * atan2(2 * cxy, cxx - cyy); /* direction of the side */
        lx[i] = (float)mx, ly[i] = (float)my;
        nx[i] = (float)-sin(ang), ny[i] = (float)cos(ang);
    }
    /* The outline runs through the border pixels' centres, half a pixel in
     * from the edge, and the blur pulls it in a little more: move each side
     * out by a pixel (and by what the blob was eroded). */
    float gx = (c[0].x + c[1].x + c[2].x + c[3].x) / 4.0f, gy = (c[0].y + c[1].y + c[2].y + c[3].y) / 4.0f;
    for (int i = 0; i < 4; i++) {
        float out = (nx[i] * (lx[i] - gx) + ny[i] * (ly[i] - gy)) > 0 ? grow : -grow;
        lx[i] += nx[i] * out, ly[i] += ny[i] * out;
    }
    for (int i = 0; i < 4; i++) { /* corner i: sides i-1 and i */
        int a = (i + 3) % 4, b = i;
        float ca = nx[a] * lx[a] + ny[a] * ly[a], cb = nx[b] * lx[b] + ny[b] * ly[b];
        float det = nx[a] * ny[b] - ny[a] * nx[b];
        if (fabsf(det) < 0.2f)
            return -1;
        q[i] = (ts_pt){(ca * ny[b] - cb * ny[a]) / det, (nx[a] * cb - nx[b] * ca) / det};
        if (hypotf(q[i].x - c[i].x, q[i].y - c[i].y) > 8 + 0.02f * n)
            return -1;
    }
    return 0;
}

/* (u, v) of frame point p in quad q (ts_quad_point's inverse): Newton's
 * steps from the parallelogram at q[0]. */
static void quad_uv(const ts_pt q[4], ts_pt p, float *u, float *v)
{
    float ax = q[1].x - q[0].x, ay = q[1].y - q[0].y, bx = q[3].x - q[0].x, by = q[3].y - q[0].y;
    float det = ax * by - ay * bx;
    if (fabsf(det) < 1e-6f) {
        *u = *v = 0;
        return;
    }
    float uu = ((p.x - q[0].x) * by - (p.y - q[0].y) * bx) / det;
    float vv = (ax * (p.y - q[0].y) - ay * (p.x - q[0].x)) / det;
    for (int it = 0; it < 3; it++) {
        ts_pt f = ts_quad_point(q, uu, vv);
        float fx = f.x - p.x, fy = f.y - p.y;
        /* d/du and d/dv of ts_quad_point */
        float dux = (1 - vv) * ax + vv * (q[2].x - q[3].x);
        float duy = (1 - vv) * ay + vv * (q[2].y - q[3].y);
        float dvx = q[3].x - q[0].x + uu * (q[2].x - q[3].x - ax);
        float dvy = q[3].y - q[0].y + uu * (q[2].y - q[3].y - ay);
        float d = dux * dvy - duy * dvx;
        if (fabsf(d) < 1e-6f)
            break;
        uu -= (fx * dvy - fy * dvx) / d;
        vv -= (dux * fy - duy * fx) / d;
    }
    *u = uu, *v = vv;
}

/* The median of the u (along q[0]-q[1]) of the outline's points whose v
 * lies in [v0, v1] and whose u is on the side side (0: u < 0.3, 1: u >
 * 0.7), or NAN if fewer than LINE_FIT_MIN do. */
enum { LINE_FIT_MIN = 5, LINE_FIT_PTS = 512 };
static float side_median(const ts_ipt *pts, int n, int k, const ts_pt q[4], float v0, float v1,
                         int side)
{
    float us[LINE_FIT_PTS];
    int m = 0;
    int step = n / LINE_FIT_PTS + 1;
    for (int i = 0; i < n; i += step) {
        ts_pt p = {(pts[i].x + 0.5f) * k - 0.5f, (pts[i].y + 0.5f) * k - 0.5f};
        float u, v;
        quad_uv(q, p, &u, &v);
        if (v >= v0 && v <= v1 && (side ? u > 0.7f : u < 0.3f) && m < LINE_FIT_PTS)
            us[m++] = u;
    }
    if (m < LINE_FIT_MIN)
        return NAN;
    ts_sort_floats(us, (size_t)m);
    return us[m / 2];
}

/* A line of cards (a row played, laid unevenly) is one blob whose long
 * sides are fitted as two straight lines: a card set a little above or
 * below the others is cut by them (a row's card a fifth of its length
 * short, read G9 sure for a G2: 119021). Each cell of a split along the
 * line (rows cells across v) takes its long sides where the outline runs
 * along its own stretch (its middle 70%), moved as far from the block's
 * lines as that stretch's median lies from the whole side's; out[r][0..1]
 * are the cell's u at q[0]-q[3] and q[1]-q[2]. */
static void line_cells(const ts_ipt *pts, int n, int k, const ts_pt q[4], const float *u,
                       const float *v, int rows, float (*out)[2])
{
    float whole[2];
    for (int sd = 0; sd < 2; sd++)
        whole[sd] = side_median(pts, n, k, q, 0, 1, sd);
    for (int r = 0; r < rows; r++) {
        float m = 0.15f * (v[r + 1] - v[r]);
        for (int sd = 0; sd < 2; sd++) {
            float own = side_median(pts, n, k, q, v[r] + m, v[r + 1] - m, sd);
            float shift = isnan(own) || isnan(whole[sd]) ? 0 : own - whole[sd];
            out[r][sd] = u[sd] + (fabsf(shift) <= LINE_SHIFT ? shift : 0);
        }
    }
}

/* A bright blob that is a clean quadrilateral but not one card's shape may be
 * cards lying edge to edge (a row played, a grid dealt): where its sides
 * divide into whole cards, offers each cell. The reader keeps the cells whose
 * corners show an index. */
/* How much darker than the cells beside them the inner lines of a rows x
 * cols split of quad q are, in grey levels (the seam between two touching
 * cards: their worn edges and the shadow of one on the other). Each sample
 * takes the darkest pixel within a few pixels across the line, as the block's
 * outline is only that exact. A seam that will be below need is -255 as soon
 * as that shows (most of the splits tried are no seam at all). */
static float line_seam(const ts_image *frame, const ts_pt q[4], int dir, float at, float off,
                       float need)
{
    enum { SAMPLES = 23 };
    float d[SAMPLES];
    int under = 0; /* samples below need: past a quarter, the seam is too */
    for (int t = 0; t < SAMPLES; t++) {
        float along = (t + 1) / (SAMPLES + 1.0f), line = 255, side = 0;
        for (int o = -1; o <= 1; o++) {
            float w = at + o * off, best = 255, ex = 0, ey = 0;
            ts_pt p0 = dir ? ts_quad_point(q, along, w) : ts_quad_point(q, w, along);
            if (!o) { /* the line itself is searched across: its direction */
                ts_pt e = dir ? ts_quad_point(q, along, w + 0.01f) : ts_quad_point(q, w + 0.01f, along);
                float el = hypotf(e.x - p0.x, e.y - p0.y);
                ex = el > 0 ? (e.x - p0.x) / el : 0, ey = el > 0 ? (e.y - p0.y) / el : 0;
            }
            for (int j = o ? 0 : -3; j <= (o ? 0 : 3); j++) { /* across, 1 px steps */
                int x = (int)(p0.x + ex * j + 0.5f), y = (int)(p0.y + ey * j + 0.5f);
                if (x < 0 || y < 0 || x >= frame->w || y >= frame->h)
                    continue;
                const uint8_t *px = ts_image_row(frame, y) + (size_t)x * frame->channels;
                float g = frame->channels == 3 ? (px[1] + px[2]) / 2.0f : px[0];
                best = g < best ? g : best;
            }
            if (o)
                side += best / 2;
            else
                line = best;
        }
        d[t] = side - line;
        if ((under += d[t] < need) > SAMPLES / 4)
            return -255;
    }
    /* a seam runs the whole line; a numeral crosses only part of it */
    for (int i = 1; i < SAMPLES; i++)
        for (int j = i; j > 0 && d[j] < d[j - 1]; j--) {
            float tmp = d[j];
            d[j] = d[j - 1], d[j - 1] = tmp;
        }
    return d[SAMPLES / 4];
}

/* The worst inner line's seam (line_seam) of a rows x cols split of q. Each
 * inner line may move by up to a sixth of a cell to the darkest seam near
 * it by shifts sixteenths of a cell (a block seen at a slant has its far
 * cells smaller, and touching cards lie a little apart): the lines' places, 0..1 across the quad, go to u
 * (cols + 1 of them) and v (rows + 1). need: see line_seam. */
static float seams(const ts_image *frame, const ts_pt q[4], int rows, int cols, int shifts,
                   float need, float *u, float *v)
{
    for (int c = 0; c <= cols; c++)
        u[c] = (float)c / cols;
    for (int r = 0; r <= rows; r++)
        v[r] = (float)r / rows;
    if (rows * cols == 1)
        return 0;
    float worst = 255;
    for (int dir = 0; dir < 2; dir++) {
        int lines = dir ? rows : cols;
        float *pos = dir ? v : u;
        for (int l = 1; l < lines; l++) {
            float best = -255, at = (float)l / lines;
            for (int s = -shifts; s <= shifts; s++) {
                float w = (float)l / lines + s / (16.0f * lines);
                float d = line_seam(frame, q, dir, w, 0.25f / lines, need);
                /* ties to the even split */
                if (d > best + 0.5f * (s != 0))
                    best = d, at = w;
            }
            pos[l] = at;
            worst = best < worst ? best : worst;
        }
    }
    return worst;
}

/* seams() of q, from the memo when a split of a quad within a pixel and a
 * half of it was measured in this frame. */
static float seams_memo(ts_gof_finder *f, const ts_image *frame, const ts_pt q[4], int rows,
                        int cols, int shifts, float need, float *u, float *v)
{
    if (rows * cols == 1)
        return seams(frame, q, rows, cols, shifts, need, u, v); /* no lines: nothing to keep */
    for (int i = 0; i < f->nseam; i++) {
        const seam_memo *m = &f->seam[i];
        int same = m->rows == rows && m->cols == cols && m->need == need;
        for (int c = 0; c < 4 && same; c++)
            same = fabsf(m->q[c].x - q[c].x) <= 1.5f && fabsf(m->q[c].y - q[c].y) <= 1.5f;
        if (same) {
            memcpy(u, m->u, sizeof m->u);
            memcpy(v, m->v, sizeof m->v);
            return m->seam;
        }
    }
    float sm = seams(frame, q, rows, cols, shifts, need, u, v);
    if (f->nseam < MAX_SEAMS) {
        seam_memo *m = &f->seam[f->nseam++];
        memcpy(m->q, q, sizeof m->q);
        m->rows = rows, m->cols = cols, m->seam = sm, m->need = need;
        memcpy(m->u, u, sizeof m->u);
        memcpy(m->v, v, sizeof m->v);
    }
    return sm;
}

static int grid_cells(ts_gof_finder *f, const ts_image *frame, const ts_ipt *pts, int n, int k, float grow,
                      int lone, ts_quad *out, int max)
{
    double area = tscv_area(pts, n), hull = tscv_hull_area(pts, n);
    if (hull <= 0 || area / hull < 0.85)
        return 0;
    /* A blob running along three edges of the frame is the table (a pale
     * cloth brighter than its print), not cards: its clean outline would
     * pass for one huge card and set the card size. */
    int x0 = pts[0].x, y0 = pts[0].y, x1 = x0, y1 = y0;
    for (int i = 1; i < n; i++) {
        x0 = pts[i].x < x0 ? pts[i].x : x0, x1 = pts[i].x > x1 ? pts[i].x : x1;
        y0 = pts[i].y < y0 ? pts[i].y : y0, y1 = pts[i].y > y1 ? pts[i].y : y1;
    }
    if ((x0 <= 1) + (y0 <= 1) + (x1 >= f->stock.w - 2) + (y1 >= f->stock.h - 2) >= 3)
        return 0;
    ts_ipt poly[8];
    int m = 0;
    double per = tscv_perimeter(pts, n);
    for (double eps = 0.01; eps < 0.08 && m != 4; eps += 0.01)
        m = tscv_approx(pts, n, eps * per, 1, poly, 8);
    if (m != 4)
        return 0;
    ts_pt q[4];
    if (refine(pts, n, poly, grow, q) < 0)
        return 0;
    for (int i = 0; i < 4; i++)
        q[i] = (ts_pt){(q[i].x + 0.5f) * k - 0.5f, (q[i].y + 0.5f) * k - 0.5f};
    order(q);
    float a = (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3])) / 2; /* short side */
    float b = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) / 2;
    double qa = 0;
    for (int i = 0; i < 4; i++)
        qa += (double)q[i].x * q[(i + 1) % 4].y - (double)q[(i + 1) % 4].x * q[i].y;
    if (fabs(qa) / 2 < 0.9 * area * k * k)
        return 0; /* not a clean quadrilateral */
    /* Every split into cells of a card's shape, the one whose inner lines
     * run along the darkest seams first. */
    struct {
        int rows, cols;
        float seam;
        float u[MAX_GRID + 1], v[MAX_GRID + 1]; /* the lines' places */
    } split[MAX_GRID * MAX_GRID];
    float min_side = 0.05f * (frame->w < frame->h ? frame->w : frame->h);
    int ns = 0;
    float best_seam = -255;
    /* A blob of a card's own shape is one card or, rarely, a 2 x 2 block:
     * its 3 x 3 ... 8 x 8 splits (cells of the same shape) cost their seams
     * for nothing. */
    int max_cells = fabsf(b / a - CARD_ASPECT) <= 0.12f ? 4 : MAX_CELLS;
    for (int cols = 1; cols <= MAX_GRID && cols <= max_cells; cols++)
        for (int rows = 1; rows <= MAX_GRID && rows * cols <= max_cells; rows++) {
            float cw = a / cols, ch = b / rows;
            float asp = cw > ch ? cw / ch : ch / cw, l = logf(asp / CARD_ASPECT);
            int fits = rows * cols == 1 ? l >= SINGLE_LO && l <= SINGLE_HI
                                        : l >= (rows == 1 || cols == 1 ? LINE_LO : SPLIT_LO) &&
                                              l <= SPLIT_HI;
            if (!fits || (cw < ch ? cw : ch) < min_side)
                continue;
            split[ns].rows = rows, split[ns].cols = cols;
            /* a blob of a card's shape is rarely a block (2 x 2 at most): its
             * lines stay where they are (a lone card's split costs a third) */
            split[ns].seam = seams_memo(f, frame, q, rows, cols, max_cells > 4 ? 3 : 0,
                                        l < SPLIT_LO ? LINE_SEAM : MIN_SEAM, split[ns].u,
                                        split[ns].v);
            if (rows * cols > 1 && l < SPLIT_LO && split[ns].seam < LINE_SEAM)
                continue; /* a lone card cut in two across its length */
            ns++;
            if (rows * cols > 1)
                best_seam = fmaxf(best_seam, split[ns - 1].seam);
        }
    /* A quad of a card's shape only when foreshortened is one card unless
     * it divides into cards along clear seams (a block of touching cards
     * can have that shape too). */
    float asp = b / a;
    int nominal = fabsf(asp - CARD_ASPECT) <= 0.12f;
    int single_first = nominal || best_seam < 4;
    for (int i = 1; i < ns; i++)
        for (int j = i; j > 0 && split[j].seam > split[j - 1].seam; j--) {
            __typeof__(split[0]) t = split[j];
            split[j] = split[j - 1], split[j - 1] = t;
        }
    int got = 0, multi = 0;
    for (int s = 0; s < ns; s++) {
        int rows = split[s].rows, cols = split[s].cols;
        if (got + rows * cols > max ||
            (rows * cols > 1 && (split[s].seam < MIN_SEAM || multi >= SPLITS_PER_BLOB)))
            continue;
        multi += rows * cols > 1;
        const float *u = split[s].u, *v = split[s].v;
        float cell_u[MAX_GRID][2];
        int line = cols == 1 && rows >= LINE_CELLS && split[s].seam >= LINE_SEAM;
        if (line)
            line_cells(pts, n, k, q, u, v, rows, cell_u);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                ts_quad *o = &out[got++];
                float u0 = line ? cell_u[r][0] : u[c];
                float u1 = line ? cell_u[r][1] : u[c + 1];
                o->q[0] = ts_quad_point(q, u0, v[r]);
                o->q[1] = ts_quad_point(q, u1, v[r]);
                o->q[2] = ts_quad_point(q, u1, v[r + 1]);
                o->q[3] = ts_quad_point(q, u0, v[r + 1]);
                order(o->q);
                /* lone: a card of the nominal shape, lone - 1 a foreshortened one */
                o->score = rows * cols > 1 ? split[s].seam
                           : single_first  ? (float)(nominal ? lone : lone - 1)
                                           : -100;
                o->area = a / cols * b / rows;
            }
    }
    return got;
}

/* The card's short side at frame row y: side changed by slope[0] per pixel
 * of y from row slope[1] (a camera looking at the table at a slant sees
 * far cards smaller: 89-94 px at the top of a 30 degree view, 116-121 at
 * the bottom), within a third of side. */
static float side_at(float side, const float slope[2], float y)
{
    float s = side + slope[0] * (y - slope[1]);
    return fminf(fmaxf(s, 0.75f * side), 1.33f * side);
}

/* How the lone cards' short side (score >= 999, within a quarter of side)
 * changes with their centre's row: slope[0] per pixel, from slope[1], the
 * row where it is side. 0 when they are too few or lie in one band. */
static void side_slope(const ts_quad *c, int n, float side, float slope[2])
{
    double sy = 0, ss = 0, syy = 0, sys = 0;
    int m = 0;
    slope[0] = slope[1] = 0;
    for (int i = 0; i < n; i++) {
        float sd = ts_dist(c[i].q[0], c[i].q[1]);
        if (c[i].score < 999 || side <= 0 || fabsf(sd / side - 1) > 0.25f)
            continue;
        float y = (c[i].q[0].y + c[i].q[1].y + c[i].q[2].y + c[i].q[3].y) / 4;
        sy += y, ss += sd, syy += (double)y * y, sys += (double)y * sd, m++;
    }
    if (m < 3)
        return;
    double my = sy / m, vy = syy / m - my * my;
    if (vy < (double)side * side) /* centres less than a card apart in rows */
        return;
    slope[0] = (float)((sys / m - my * ss / m) / vy);
    if (slope[0] != 0)
        slope[1] = (float)(my - (ss / m - side) / slope[0]);
}

/* Whether the blob of polygon poly[0..m) (stock image px, k frame px each;
 * orient: twice its signed area) may be a pile: not about one card of
 * short side side (side_at where it lies). A blob of one card is that
 * card: its corners offer it again sized by the lone cards, not its own
 * foreshortened sides, 0.1-0.2 off, and a small 6's index there read 8
 * sure (the card net, a 6's loop). Such corner cards that do not fit the
 * blob (on_blob) are TS_GOF_ASIDE: they may confirm the blob's outline
 * reading, not overrule it (gof.c overrules_outline). Dropped (session
 * 16), they lost cards whose outline read unsure and such a corner right
 * (a G9 0.6 -> 1.0) and pile cards a binarisation cut off their pile
 * (87029). Below ONE_AREA the blob is part of a card (a close-up card of a
 * block cut by a binarisation: 0.35 of the size model) whose corner card
 * runs past it. Seeds 40 of each layout, fully / at least half visible
 * read, wrong, against corners read as any pile corner's: 103000 2108 ->
 * 2107 of 2166, 2280 -> 2278 of 2391, wrong 5/8 -> 3/6; 105000 2081,
 * 2248 as before, wrong 6/7 -> 5/6; 100000 2113, 2283 -> 2282, wrong 3/4
 * -> 1/2; 87000 2099 -> 2098, 2273 as before, wrong 4/4. */
static int is_pile(const ts_ipt *poly, int m, double orient, int k, float side,
                   const float slope[2])
{
    double a = fabs(orient) / 2 * k * k; /* orient: twice the signed area */
    float cy = 0;
    for (int i = 0; i < m; i++)
        cy += (float)poly[i].y;
    float sd = side_at(side, slope, (cy / (float)m + 0.5f) * (float)k);
    return a > PILE_AREA * sd * sd * CARD_ASPECT || a < ONE_AREA * sd * sd * CARD_ASPECT;
}

/* Whether the corners of card q (frame px), each pulled ON_BLOB of the way
 * to its centre, lie inside polygon poly[0..m) (stock image px, k frame px
 * each): the card fits its blob. */
static int on_blob(const ts_ipt *poly, int m, int k, const ts_quad *q)
{
    ts_pt c = ts_quad_centre(q->q);
    for (int j = 0; j < 4; j++) {
        float x = ((q->q[j].x + ON_BLOB * (c.x - q->q[j].x)) + 0.5f) / (float)k - 0.5f;
        float y = ((q->q[j].y + ON_BLOB * (c.y - q->q[j].y)) + 0.5f) / (float)k - 0.5f;
        int in = 0; /* even-odd rule */
        for (int i = 0, h = m - 1; i < m; h = i++)
            if ((poly[i].y > y) != (poly[h].y > y) &&
                x < (float)(poly[h].x - poly[i].x) * (y - (float)poly[i].y) /
                            (float)(poly[h].y - poly[i].y) + (float)poly[i].x)
                in = !in;
        if (!in)
            return 0;
    }
    return 1;
}

/* Whether a corner's two edges, of lengths la and lb along unit vectors ea
 * and eb (frame px), are a whole card's seen at a slant, its sides
 * foreshortened unlike the lone cards' (short side sd where it lies): each
 * within FORE_LO..FORE_HI of that card's side, one of them at least
 * 1 - SHORT_WHOLE of it, and the shorter one (by that share) running down
 * the frame more than FORE_DOWN times as much as across, the way a camera's slant
 * shortens: a long side cut short running across the frame is a card under
 * another (113036's R2 so cut read R9 at 1.00). Such a corner's card is
 * offered first, before the corner's cards of the lone cards' size (a pile
 * top on felt seen at 30 degrees, 61 px across where the lone cards are 87,
 * was read from no quad). Piles of seeds 113000-113039 and 115000-115039:
 * fully visible 231 -> 232 of 253 and 218 -> 221 of 242 read, at least
 * half 361 -> 363 of 439 and 364 -> 373 of 443, wrong and false as before;
 * with FORE_LO 0.6 and the shorter edge more down than across, 231 and
 * 219, 362 and 370; either edge cut: a false R9 on 113036. */
static const float FORE_LO = 0.5f, FORE_HI = 1.15f, FORE_DOWN = 0.5f;
static int foreshortened(float la, float lb, ts_pt ea, ts_pt eb, float sd)
{
    int a_short = la < lb;
    float lo = a_short ? la : lb, hi = a_short ? lb : la;
    float a = lo / sd, b = hi / (sd * CARD_ASPECT);
    ts_pt cut = (a < b) == a_short ? ea : eb; /* the edge shortened most */
    return a >= FORE_LO && a <= FORE_HI && b >= FORE_LO && b <= FORE_HI &&
           fmaxf(a, b) >= 1 - SHORT_WHOLE && fabsf(cut.y) > FORE_DOWN * fabsf(cut.x);
}

/* A right-angled convex corner of a blob's outline (corner_cards), frame px:
 * the corner c, its edges' directions ea and eb and lengths la and lb, and
 * the outline's vertices it lies at (first, last: two for a rounded one). */
typedef struct {
    ts_pt c, ea, eb;
    float la, lb;
    int first, last;
} blob_corner;

/* An edge of the outline's polygon shorter than this (stock image px)
 * between two at least twice as long is a card's rounded corner (not a
 * printed cloth's small squares: their corners set the card size at 19 px
 * for cards of 80 on 127034's pile, through card_side). */
static const float ROUNDED = 4.0f;

static ts_pt ipt(ts_ipt p)
{
    return (ts_pt){(float)p.x, (float)p.y};
}

/* Whether the edges p-v0 and v1-q of an outline (stock image px, k frame
 * px each; turning clockwise: cw) meet in a right-angled convex corner,
 * each at least min_len long: the corner where their lines cross (v0 when
 * v0 is v1) into *c. */
static int right_corner(ts_pt p, ts_pt v0, ts_pt v1, ts_pt q, int cw, float min_len, int k,
                        blob_corner *c)
{
    float ax = p.x - v0.x, ay = p.y - v0.y, bx = q.x - v1.x, by = q.y - v1.y;
    ts_pt v = v0;
    if (v0.x != v1.x || v0.y != v1.y) { /* where the lines p-v0 and v1-q cross */
        float det = ax * by - ay * bx;
        if (fabsf(det) < 1e-6f)
            return 0;
        float t = ((v1.x - v0.x) * by - (v1.y - v0.y) * bx) / det;
        v = (ts_pt){v0.x + t * ax, v0.y + t * ay};
        ax = p.x - v.x, ay = p.y - v.y, bx = q.x - v.x, by = q.y - v.y;
    }
    float la = hypotf(ax, ay), lb = hypotf(bx, by);
    if (la < min_len || lb < min_len)
        return 0;
    float cosang = (ax * bx + ay * by) / (la * lb);
    float cross = bx * ay - by * ax; /* convex: same turn as the outline */
    if (fabsf(cosang) > 0.25f || (cross > 0) != cw)
        return 0;
    /* the outline runs a pixel inside the edge (see refine) */
    c->ea = (ts_pt){ax / la, ay / la};
    c->eb = (ts_pt){bx / lb, by / lb};
    c->c = (ts_pt){(v.x + 0.5f - c->ea.x - c->eb.x) * k - 0.5f,
                   (v.y + 0.5f - c->ea.y - c->eb.y) * k - 0.5f};
    c->la = (la + 2) * k, c->lb = (lb + 2) * k;
    return 1;
}

/* A pile card's side that runs whole from one of its corners to the next
 * (both right-angled corners of the blob's outline) gives the card's size
 * where it lies, nearer than the lone cards' (their outlines a few pixels
 * large, and no slant measured when they lie in one band: 127039's G3 on
 * top of its pile, 71 px wide, was offered at 84 and never read). A side
 * of length len is the card's long or short side, whichever gives a card
 * nearer the lone cards' short side sd (within SIDE_SIZE of it: from 0.75,
 * 125025's R6 under another card, its side cut short, read R8 at 0.99;
 * to 1.15, 117019's row R6 read R9 at 0.96 from a quad 1.12 of them): *along
 * and *across are the card's sides along and across it. The other edges
 * at its two corners (the longer other long) may not run on past the
 * card's side there (SIDE_OTHER): a block of touching cards has whole
 * sides of no card (127021: a false R7 across four cards). Returns 0 when
 * neither fits. */
static const float SIDE_SIZE[2] = {0.85f, 1.05f}, SIDE_OTHER = 1.1f;
static int sized_by_side(float len, float other, float sd, float *along, float *across)
{
    float as_long = len / CARD_ASPECT / sd, as_short = len / sd;
    int lng = fabsf(logf(as_long)) < fabsf(logf(as_short));
    float r = lng ? as_long : as_short;
    if (r < SIDE_SIZE[0] || r > SIDE_SIZE[1] ||
        other > SIDE_OTHER * (lng ? len / CARD_ASPECT : len * CARD_ASPECT))
        return 0;
    *along = len * 1.02f; /* the rounded corners */
    *across = lng ? len / CARD_ASPECT : len * CARD_ASPECT;
    return 1;
}

/* A card partly under others still shows some of its corners: where the
 * outline of a bright blob turns through a right angle between two straight
 * edges, offers a card of the frame's card size lying along those edges (its
 * long side along either). side = the card's short side in frame pixels.
 * The outline's polygon is fine (0.6% of its perimeter: at 1.2% a pile's
 * corners a card apart merged), and it runs on the plain adaptive, Otsu and
 * upper Otsu outlines (blurred or warm-lit piles come apart in one only). */
static int corner_cards(const ts_ipt *pts, int n, int k, float side, const float slope[2],
                        ts_quad *out, int max)
{
    const float known = side;
    ts_ipt poly[64];
    double per = tscv_perimeter(pts, n);
    int m = tscv_approx(pts, n, 0.006 * per, 0, poly, 64);
    if (m < 4 || m >= 64)
        return 0;
    double orient = 0;
    for (int i = 0; i < m; i++)
        orient += (double)poly[i].x * poly[(i + 1) % m].y - (double)poly[(i + 1) % m].x * poly[i].y;
    /* The right-angled convex corners, and the lengths of their two edges:
     * at a vertex, or where a short edge rounds a card's corner off (the
     * outline turns there in two steps: 127039's R3 top) */
    blob_corner cn[64];
    int nc = 0;
    float longest = 0;
    for (int i = 0; i < m; i++) {
        ts_ipt p = poly[(i + m - 1) % m], v = poly[i], q = poly[(i + 1) % m];
        float la = hypotf((float)(p.x - v.x), (float)(p.y - v.y));
        longest = la > longest ? la : longest;
        if (right_corner(ipt(p), ipt(v), ipt(v), ipt(q), orient > 0, ROUNDED, k, &cn[nc]))
            cn[nc].first = cn[nc].last = i, nc++;
        else if (hypotf((float)(q.x - v.x), (float)(q.y - v.y)) < ROUNDED &&
                 right_corner(ipt(p), ipt(v), ipt(q), ipt(poly[(i + 2) % m]), orient > 0,
                              2 * ROUNDED, k, &cn[nc]))
            cn[nc].first = i, cn[nc].last = (i + 1) % m, nc++;
    }
    /* the corner at the other end of each corner's edge a and b, where it
     * runs to another such corner (a card's whole side), or -1 */
    int first_of[64], last_of[64], far[64][2];
    for (int i = 0; i < m; i++)
        first_of[i] = last_of[i] = -1;
    for (int i = 0; i < nc; i++)
        first_of[cn[i].first] = last_of[cn[i].last] = i;
    for (int i = 0; i < nc; i++) {
        far[i][0] = last_of[(cn[i].first + m - 1) % m];
        far[i][1] = first_of[(cn[i].last + 1) % m];
    }
    /* A corner whose two edges are a card's two sides is a whole card; the
     * others take the card size from those (or the lone cards, or the
     * longest edge) and try the long side along either edge. */
    float meas[64];
    int nm = 0, got = 0;
    for (int i = 0; i < nc; i++) {
        /* not a rounded corner's: its edges run from where their lines
         * cross, a few pixels longer (105037's pile, with no lone card,
         * sized 69 px for cards of 63: a G6 read G9) */
        float lo = fminf(cn[i].la, cn[i].lb), hi = fmaxf(cn[i].la, cn[i].lb);
        if (cn[i].first == cn[i].last && fabsf(hi / lo - CARD_ASPECT) < 0.15f)
            meas[nm++] = lo;
    }
    if (side <= 0 && nm) {
        ts_sort_floats(meas, (size_t)nm);
        side = meas[nm / 2];
    }
    if (side <= 0)
        side = longest * k / CARD_ASPECT;
    int pile = -1; /* not yet known: only corners sized by the lone cards ask */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nc && got + 2 <= max; i++) {
            float lo = fminf(cn[i].la, cn[i].lb), hi = fmaxf(cn[i].la, cn[i].lb);
            /* the card's size where the corner lies (a slanted view); two
             * edges of a card's shape but shorter than its sides are part
             * of a card, cut off by a covering card or a seam: a quad on
             * the top of an 8 read 2, of a 9 read 1. Sized by the lone
             * cards instead (65000-65039: wrong 7 -> 3 of 2152 fully
             * visible cards, 2 more read; longer ones too: 12 fewer half
             * visible pile cards). */
            float sd = known > 0 ? side_at(side, slope, cn[i].c.y) : side;
            int whole = fabsf(hi / lo - CARD_ASPECT) < 0.15f &&
                        (known <= 0 || lo >= (1 - SHORT_WHOLE) * sd);
            if (whole != (pass == 0) || hi < 0.3f * sd)
                continue;
            /* h 0: the corner's own edges (a whole card, or one seen
             * foreshortened, first); 1 and 2: the lone cards' size, the
             * long side along either edge */
            int own = whole || (known > 0 && foreshortened(cn[i].la, cn[i].lb, cn[i].ea,
                                                           cn[i].eb, sd));
            /* h 3 and 4: sized by the corner's edge a or b where it is a
             * whole side (far) */
            for (int h = own ? 0 : 1; h < (whole ? 1 : 5) && got < max; h++) {
                float sa, sb;
                if (h == 0)
                    sa = cn[i].la * 1.02f, sb = cn[i].lb * 1.02f; /* the rounded corners */
                else if (h >= 3) {
                    int j = far[i][h - 3]; /* the corner at the side's other end */
                    if (j < 0 || known <= 0 ||
                        !sized_by_side(h == 3 ? cn[i].la : cn[i].lb,
                                       fmaxf(h == 3 ? cn[i].lb : cn[i].la,
                                             h == 3 ? cn[j].la : cn[j].lb),
                                       sd, h == 3 ? &sa : &sb, h == 3 ? &sb : &sa))
                        continue;
                } else
                    sa = h == 2 ? sd * CARD_ASPECT : sd, sb = h == 2 ? sd : sd * CARD_ASPECT;
                ts_pt c = cn[i].c, ea = cn[i].ea, eb = cn[i].eb;
                ts_quad o;
                o.q[0] = c;
                o.q[1] = (ts_pt){c.x + ea.x * sa, c.y + ea.y * sa};
                o.q[2] = (ts_pt){c.x + ea.x * sa + eb.x * sb, c.y + ea.y * sa + eb.y * sb};
                o.q[3] = (ts_pt){c.x + eb.x * sb, c.y + eb.y * sb};
                order(o.q);
                /* on a blob of one card, a card sized by the lone cards
                 * that does not fit it lies a little off that card */
                if (!whole && pile < 0)
                    pile = known <= 0 || is_pile(poly, m, orient, k, side, slope);
                int aside = !whole && !pile && !on_blob(poly, m, k, &o);
                o.score = whole     ? CORNER_WHOLE
                          : aside   ? CORNER_ASIDE
                          : h >= 3  ? CORNER_SIDE
                                    : CORNER_PART;
                o.area = sa * sb;
                out[got++] = o;
            }
        }
    return got;
}

/* The short side of a card in this frame: the median over the detector's
 * candidates of a card's shape, or 0 if there are none. */
static float card_side(const ts_quad *c, int n)
{
    float s[256];
    int m = 0;
    for (int i = 0; i < n && m < 256; i++) {
        float a = (ts_dist(c[i].q[0], c[i].q[1]) + ts_dist(c[i].q[2], c[i].q[3])) / 2;
        float b = (ts_dist(c[i].q[1], c[i].q[2]) + ts_dist(c[i].q[3], c[i].q[0])) / 2;
        if (a > 0 && fabsf(b / a - CARD_ASPECT) < 0.12f)
            s[m++] = a;
    }
    if (!m)
        return 0;
    ts_sort_floats(s, (size_t)m);
    return s[m / 2];
}

/* Whether quad q is of a card's shape seen at a slant (SHAPE_SKEW,
 * SHAPE_SIDES). Two cards overlapping in a pile can make a clean
 * quadrilateral blob that is not: on 105037 a 10 over a 7, its top side 53
 * px and its bottom 122, set the corner cards' size at 123 px for cards of
 * 63, and 1 of its 12 cards was read (9 by this alone). Seeds 105000-105039 (six
 * layouts): fully visible 2087 -> 2092 of 2176, at least half 2254 -> 2264
 * of 2393; 107000-107039 2049 -> 2052 and 2227 -> 2231; wrong and false as
 * before. At 0.14 and 0.8 (a true card's shape) 107024's pile lost 5 cards:
 * a pile card's outline is bent by the cards over it. */
static int card_shaped(const ts_pt q[4])
{
    /* as ts_gof_skew, in squares: typical_side sees every candidate */
    for (int k = 0; k < 2; k++) {
        /* q[0]-q[1] against q[3]-q[2], then q[1]-q[2] against q[0]-q[3] */
        ts_pt a0 = q[k], a1 = q[k + 1], b0 = q[k ? 0 : 3], b1 = q[k ? 3 : 2];
        float ux = a1.x - a0.x, uy = a1.y - a0.y, vx = b1.x - b0.x, vy = b1.y - b0.y;
        float uu = ux * ux + uy * uy, vv = vx * vx + vy * vy, cross = ux * vy - uy * vx;
        if (ux * vx + uy * vy <= 0 || cross * cross > SHAPE_SKEW * SHAPE_SKEW * uu * vv ||
            fminf(uu, vv) < SHAPE_SIDES * SHAPE_SIDES * fmaxf(uu, vv))
            return 0;
    }
    return 1;
}

/* The short side of the typical card among the quads with a score of at
 * least min_score: the side shared by the most of them (within 20%), ties
 * to the larger (a stripe of the table or an index can have a card's shape,
 * a block of cards rarely shares its size with another). The median of the
 * sides near it, or 0 if there are none or fewer than min_n share it (the cells of
 * splits are measured against it: one stripe of a printed cloth with a
 * card's outline dropped every real card of a row). */
static float typical_side(const ts_quad *c, int n, float min_score, int min_n)
{
    float s[MAX_INDEX];
    int m = 0;
    for (int i = 0; i < n && m < MAX_INDEX; i++)
        if (c[i].score >= min_score && card_shaped(c[i].q))
            s[m++] = ts_dist(c[i].q[0], c[i].q[1]);
    if (!m)
        return 0;
    ts_sort_floats(s, (size_t)m);
    int best = 0, best_n = 0;
    for (int i = 0; i < m; i++) {
        int k = 0;
        for (int j = 0; j < m; j++)
            k += fabsf(s[j] / s[i] - 1) <= 0.2f;
        if (k >= best_n)
            best_n = k, best = i;
    }
    if (best_n < min_n)
        return 0;
    float near[MAX_INDEX];
    int nn = 0;
    for (int j = 0; j < m; j++)
        if (fabsf(s[j] / s[best] - 1) <= 0.2f)
            near[nn++] = s[j];
    return near[nn / 2];
}

/* Thresholds stock at the Otsu level of its pixels brighter than t (the
 * first Otsu level): on a table of two tones (a light cloth with dark dots or
 * stripes, a pale board) the first level falls between the table's tones and
 * leaves the cards joined to the light one; the second falls between that
 * tone and the brighter stock. *level: that level, -1 until the frame's
 * first call finds it (every pass thresholds the same stock image). */
static int upper_otsu(const ts_image *stock, ts_image *bin, double t, int *level)
{
    if (*level >= 0) /* this frame's, from an earlier pass */
        goto threshold;
    long hist[256] = {0}, n = 0;
    int lo = (int)t + 1;
    for (int y = 0; y < stock->h; y++) {
        const uint8_t *s = ts_image_row(stock, y);
        for (int x = 0; x < stock->w; x++)
            hist[s[x]]++;
    }
    /* whole numbers: the same sum as one added pixel by pixel */
    long isum = 0;
    for (int v = lo > 0 ? lo : 0; v < 256; v++)
        n += hist[v], isum += (long)v * hist[v];
    double sum = (double)isum;
    int best_t = lo;
    double best = -1, sb = 0;
    long wb = 0;
    for (int v = lo; v < 255 && n > 0; v++) {
        wb += hist[v];
        sb += (double)v * hist[v];
        long wf = n - wb;
        if (!wb || !wf)
            continue;
        double mb = sb / wb, mf = (sum - sb) / wf, between = (double)wb * wf * (mb - mf) * (mb - mf);
        if (between > best)
            best = between, best_t = v;
    }
    *level = best_t;
threshold:;
    const int lv = *level; /* a local: a store to o may alias *level */
    for (int y = 0; y < stock->h; y++) {
        const uint8_t *s = ts_image_row(stock, y);
        uint8_t *o = ts_image_row(bin, y);
        for (int x = 0; x < stock->w; x++)
            o[x] = s[x] > lv ? 255 : 0;
    }
    return 0;
}

static int unexplained(const ts_gof_finder *f, const ts_quad *out, int n, const ts_image *frame,
                       float explains, int roi[4]);

static int blocks(ts_gof_finder *f, const ts_image *frame, int k, float side, ts_quad *dst,
                  int dst_max, char *err)
{
    ts_quad *out = f->outline; /* every pass's candidates, then the best dst_max */
    const int max = MAX_OUTLINE;
    if ((!f->bin.buf || f->bin.w != f->stock.w || f->bin.h != f->stock.h) &&
        (ts_image_free(&f->bin), ts_image_alloc(&f->bin, f->stock.w, f->stock.h, 1) < 0)) {
        snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
        return -1;
    }
    /* Three binarisations: stock brighter than its surroundings (adaptive,
     * window larger than a card), simply bright (Otsu), and brighter than
     * the light tone of a two-tone table (upper_otsu); each as it is and
     * eroded (cards that touch come apart). Where stock is left unexplained
     * (see unexplained), the two Otsu levels again, opened: a printed cloth
     * (gingham) as light as the stock joins the cards to its light checks,
     * which an opening a little wider than a check takes away (33000-33039
     * scatter, printed cloth: 61 -> 68 of 108 cards read). */
    static const struct {
        char kind, op;
        int r;
    } passes[] = {{'a', 0, 0}, {'a', 'e', 2}, {'a', 'e', 4}, {'o', 0, 0}, {'o', 'e', 2},
                  {'o', 'e', 4}, {'u', 0, 0}, {'u', 'e', 2}, {'u', 'e', 4}, {'o', 'o', 3},
                  {'u', 'o', 3}, {'A', 0, 0}, {'A', 'e', 2}, {'O', 0, 0}, {'O', 'e', 2},
                  {'s', 0, 0},   {'s', 'e', 2}, {'C', 0, 0}, {'C', 'e', 2}, {'P', 0, 0},
                  {'P', 'e', 2}, {'P', 'o', 2}, {'M', 'o', 2}};
    enum { OPENED = 9 }; /* the first opened pass */
    /* Where stock is still unexplained, adaptive and Otsu again on how far
     * the colour is from the table's (away_image): cards the stock score
     * does not tell from the table. */
    enum { AWAY = 11 };
    /* Their lone cards come after the stock passes' and do not set the card
     * size (score 999/1000: typical_side, on_lone_card): a printed cloth's
     * squares differ from the table's chroma as much as cards do. */
    enum { AWAY_LONE = 990 };
    /* Where stock is still unexplained on a patterned table, the smooth
     * blobs (smooth_image): the cards on a polka-dot cloth as light as
     * their stock (87000-87039: two such tables lost 34 of 2162 fully
     * visible cards). Their lone cards count as the away passes'. */
    enum { SMOOTH = 15 };
    /* Where stock is still unexplained there, adaptive and Otsu on how far
     * the clean colour (clean_tone) is from the table's: a polka-dot cloth
     * whose dots the stock image averages away, so it is smooth and the
     * cards' numerals are the texture (121011, 123017). */
    enum { CLEAN = 17 };
    /* and Otsu, opened (the blend of two stripes is a thin line), on how far
     * the colour is from the nearer of the table's two commonest (two_modes):
     * a striped cloth, whose stripes are too wide for the clean colours. */
    enum { MODES = 22 };
    double min_area = 0.003 * f->stock.w * f->stock.h;
    int got = 0, side_n = 0;
    float slope[2] = {0, 0};
    double t_otsu = 0;
    int upper = -1; /* upper_otsu's level, once a frame (the stock image is one) */
    for (size_t pass = 0; pass < sizeof passes / sizeof *passes; pass++) {
        int roi[4];
        if ((pass == OPENED || pass == AWAY || pass == SMOOTH || pass == CLEAN || pass == MODES) &&
            !unexplained(f, out, got, frame, EXPLAINS, roi))
            break;
        if (pass == SMOOTH) {
            int med = smooth_image(f, err);
            if (med < 0)
                return -1;
            if (med < PATTERNED)
                break;
        }
        if ((pass == CLEAN && away_image(f, frame, k, AWAY_CLEAN, err) < 0) ||
            (pass == MODES && away_image(f, frame, k, AWAY_MODES, err) < 0))
            return -1;
        if (pass == AWAY) {
            if (away_image(f, frame, k, AWAY_MEDIAN, err) < 0)
                return -1;
            memcpy(f->away_roi, roi, sizeof roi);
            f->away_ran = 1;
        }
        tscv_contours cs = {0};
        int r = passes[pass].r, rc;
        char kind = passes[pass].kind;
        if (kind == 'a' || kind == 'A' || kind == 'C')
            rc = tscv_adaptive(kind == 'a' ? &f->stock : &f->away, &f->bin,
                               (f->stock.w / 5) | 1, 8, err);
        else if (kind == 's')
            rc = tscv_adaptive(&f->smooth, &f->bin, (f->stock.w / 5) | 1, 12, err);
        else if (kind == 'o')
            rc = tscv_otsu(&f->stock, &f->bin, &t_otsu, err);
        else if (kind == 'O' || kind == 'P' || kind == 'M') {
            double t_away;
            rc = tscv_otsu(&f->away, &f->bin, &t_away, err);
        } else
            rc = upper_otsu(&f->stock, &f->bin, t_otsu, &upper);
        if (rc == 0 && r)
            rc = tscv_morph(&f->bin, &f->bin, passes[pass].op, r, err);
        if (rc < 0 || tscv_find_contours(&f->bin, 1, &cs, err) < 0)
            return -1;
        /* eroded blobs lie r inside the stock; the smooth ones, the local
         * range's reach (2 px) more */
        float grow = 1.0f + (passes[pass].op == 'e' ? r : 0) + (kind == 's' ? 2 : 0);
        for (int i = 0; i < cs.n && got < max; i++)
            if (tscv_area(cs.pts + cs.start[i], cs.len[i]) > min_area)
                got += grid_cells(f, frame, cs.pts + cs.start[i], cs.len[i], k, grow,
                                  pass >= AWAY ? AWAY_LONE : 1000, out + got,
                                  max - got);
        if (pass == 3) /* Otsu, not eroded: the stock where it is */
            for (int j = 0; j < cs.n && f->nblob < MAX_BLOBS; j++) {
                const ts_ipt *pt = cs.pts + cs.start[j];
                double a = tscv_area(pt, cs.len[j]);
                if (a <= min_area)
                    continue;
                int x0 = pt[0].x, y0 = pt[0].y, x1 = x0, y1 = y0;
                for (int t = 1; t < cs.len[j]; t++) {
                    x0 = pt[t].x < x0 ? pt[t].x : x0, x1 = pt[t].x > x1 ? pt[t].x : x1;
                    y0 = pt[t].y < y0 ? pt[t].y : y0, y1 = pt[t].y > y1 ? pt[t].y : y1;
                }
                f->blob[f->nblob].x0 = (float)x0 * k, f->blob[f->nblob].y0 = (float)y0 * k;
                f->blob[f->nblob].x1 = (float)(x1 + 1) * k, f->blob[f->nblob].y1 = (float)(y1 + 1) * k;
                f->blob[f->nblob++].area = a * k * k;
            }
        if (!passes[pass].op) { /* not eroded: the outline where it is */
            /* the card size from the lone cards: the median over every
             * card-shaped quad is a split's small cell in a pile (42 px
             * for cards of 75), so the corner cards were dropped as the
             * wrong size */
            side = typical_side(out, got, 999, 1);
            if (side <= 0)
                side = card_side(out, got);
            side_slope(out, got, side, slope);
            memcpy(f->slope, slope, sizeof slope);
            side_n = got;
            for (int j = 0; j < cs.n && got < max; j++)
                if (tscv_area(cs.pts + cs.start[j], cs.len[j]) > min_area)
                    got += corner_cards(cs.pts + cs.start[j], cs.len[j], k, side, slope, out + got,
                                        max - got);
        }
        tscv_contours_free(&cs);
    }
    (void)side_n;
    /* best first: single cards, then the splits by their seams, then corners */
    for (int i = 1; i < got; i++)
        for (int j = i; j > 0 && out[j].score > out[j - 1].score; j--) {
            ts_quad t = out[j];
            out[j] = out[j - 1], out[j - 1] = t;
        }
    /* Cells of a split must be about the size of the lone cards, where there
     * are any (a lone card divides into smaller cards of its own shape too). */
    float ref = typical_side(out, got, 1000, 2);
    int kept = 0;
    for (int i = 0; i < got; i++) {
        float sd = ts_dist(out[i].q[0], out[i].q[1]);
        if (ref > 0 && out[i].score < 999 && fabsf(sd / ref - 1) > 0.3f)
            continue;
        /* a lone "card" far larger than the typical one is a block of cards
         * that no split fitted (a long row has a card's outline too): last */
        if (ref > 0 && out[i].score >= 999 && sd > 1.5f * ref)
            out[i].score = -200;
        int dup = 0; /* the same quad from several binarisations: keep the first */
        float tol = 0.04f * ts_dist(out[i].q[0], out[i].q[1]), tol2 = tol * tol;
        for (int j = 0; j < kept && !dup; j++) {
            dup = 1; /* every corner within tol (squared: no root per pair) */
            for (int c = 0; c < 4 && dup; c++) {
                float dx = out[i].q[c].x - out[j].q[c].x, dy = out[i].q[c].y - out[j].q[c].y;
                dup = dx * dx + dy * dy < tol2;
            }
        }
        if (!dup)
            out[kept++] = out[i];
    }
    for (int i = 1; i < kept; i++)
        for (int j = i; j > 0 && out[j].score > out[j - 1].score; j--) {
            ts_quad t = out[j];
            out[j] = out[j - 1], out[j - 1] = t;
        }
    kept = kept < dst_max ? kept : dst_max;
    memcpy(dst, out, sizeof *dst * (size_t)kept);
    return kept;
}

/* An index card resized to side (the lone cards' where it lies) about its
 * numeral: the numeral-to-symbol step that sized it is a few pixels long,
 * a pixel off in it a card 10% off (a split merged index, gof_index.c). */
static void fit_size(ts_quad *q, float side)
{
    float s = side / ts_dist(q->q[0], q->q[1]);
    if (fabsf(s - 1) < FIT_SIZE)
        return;
    ts_quad_scale_about(q->q, ts_quad_point(q->q, 7.0f / 56, 7.0f / 87), s, q->q);
    q->area *= s * s;
}

/* The index cards (idx[0..m)) whose size is near the lone cards' (side_at
 * where they lie: far cards of a slanted view are smaller, and a pile top
 * there was refused; 115000-115039 piles: 1 more fully visible card) or that
 * at least two cards whose both indices show share (without lone cards, one
 * is enough): the others are a numeral stroke or the table's pattern read
 * as an index. The second size is for a table whose pattern has a card's
 * shape (a striped cloth as light as the stock: its stripes' pieces set the
 * lone size at half the cards'). Returns the new count. */
/* With no lone card and no card showing both indices (a pile whose cards
 * cover each other's far corners: 119035, whose top card was not offered
 * at all), the size at least this many one-index cards share. */
enum { ONE_INDEX_SHARED = 3 };
static int index_size_ok(const ts_gof_finder *f, const ts_quad *out, int n, ts_quad *idx, int m)
{
    float ref = typical_side(out, n, 1000, 1);
    float two = typical_side(idx, m, 2, ref > 0 ? 2 : 1);
    if (ref <= 0 && two <= 0)
        two = typical_side(idx, m, 1, ONE_INDEX_SHARED);
    if (ref <= 0 && two <= 0)
        return 0;
    int k = 0;
    for (int i = 0; i < m; i++) {
        float sd = ts_dist(idx[i].q[0], idx[i].q[1]);
        float at = ref > 0 ? side_at(ref, f->slope, ts_quad_point(idx[i].q, 0.5f, 0.5f).y) : 0;
        if (ref > 0 && fabsf(sd / at - 1) <= 0.25f) {
            idx[k] = idx[i];
            fit_size(&idx[k++], at);
        } else if (two > 0 && fabsf(sd / two - 1) <= 0.25f)
            idx[k++] = idx[i];
    }
    return k;
}

/* Adds the cards found by their indices (idx, score 2 if both indices show,
 * else 1, sized by index_size_ok) to the outline candidates out[0..n). The
 * two-index cards go after the lone cards; the one-index ones last. Returns
 * the new count. */
static int merge_index(ts_quad *out, unsigned char *kind, int n, int max, const ts_quad *idx,
                       int m)
{
    int lone = 0;
    while (lone < n && out[lone].score >= 999)
        lone++;
    int two = 0;
    for (int i = 0; i < m; i++)
        two += idx[i].score >= 2;
    int add = m < max - n ? m : max - n;
    if (add <= 0)
        return n;
    /* make room after the lone cards for the two-index cards */
    int t = two < add ? two : add;
    memmove(out + lone + t, out + lone, sizeof *out * (size_t)(n - lone));
    memmove(kind + lone + t, kind + lone, (size_t)(n - lone));
    for (int i = 0, j = 0; i < m && j < t; i++)
        if (idx[i].score >= 2) {
            kind[lone + j] = TS_GOF_PART;
            out[lone + j++] = idx[i];
        }
    n += t;
    for (int i = 0; i < m && n < max; i++)
        if (idx[i].score < 2) {
            kind[n] = TS_GOF_PART;
            out[n++] = idx[i];
        }
    return n;
}

/* The index shows, so its view is a place on the card whatever covers the
 * rest: a card in a pile is read from its index and reported there. 0.6 of
 * a card: the pipeline drops quads far smaller than the table's cards. */
void ts_gof_index_view(const ts_quad *q, ts_quad *v)
{
    /* on the index (numeral 7 x 7 mm into a 56 x 87 mm card, its symbol
     * 6 mm below: gof_index.c), a little in from its middle: a quad a few
     * mm off (a pile corner's) still has it on the card */
    ts_pt c = ts_quad_point(q->q, 9.0f / 56, 13.0f / 87);
    float ax = 0.3f * (q->q[1].x - q->q[0].x), ay = 0.3f * (q->q[1].y - q->q[0].y);
    float bx = 0.3f * (q->q[3].x - q->q[0].x), by = 0.3f * (q->q[3].y - q->q[0].y);
    v->q[0] = (ts_pt){c.x - ax - bx, c.y - ay - by};
    v->q[1] = (ts_pt){c.x + ax - bx, c.y + ay - by};
    v->q[2] = (ts_pt){c.x + ax + bx, c.y + ay + by};
    v->q[3] = (ts_pt){c.x - ax + bx, c.y - ay + by};
    v->score = q->score;
    v->area = 0.36f * q->area;
}

/* How near (of q's short side) an index card's corner at its index and the
 * corner across from it must lie to corners of a lone card for that card
 * to be the index card's own outline. */
static const float LONE_FIT = 0.25f;

/* Whether corner p lies within tol of one of q's corners. */
static int near_corner(const ts_pt q[4], ts_pt p, float tol)
{
    for (int k = 0; k < 4; k++)
        if (ts_dist(q[k], p) <= tol)
            return 1;
    return 0;
}

/* Whether the centre of q lies on a lone card found by its outline (score
 * 999/1000) whose corners fit q's (LONE_FIT): the pipeline would take that
 * card first and pass q over, so q is not worth its edge snapping. A lone
 * outline that does not fit runs on past the card (a stripe of a printed
 * cloth as light as the stock joined to its end) and may read unsure: q
 * stays, for the place pick to read when it does (119029's striped cloth:
 * an R3's outline ran 0.3 of a card past it and read 0.55). Seeds
 * 119000-119039 (six layouts): fully visible 2114 -> 2116 of 2168, at
 * least half 2286 -> 2288 of 2395; 117000-117039 as before; wrong and
 * false as before. */
static int on_lone_card(const ts_quad *out, int n, const ts_quad *q)
{
    float cx = (q->q[0].x + q->q[1].x + q->q[2].x + q->q[3].x) / 4;
    float cy = (q->q[0].y + q->q[1].y + q->q[2].y + q->q[3].y) / 4;
    float tol = LONE_FIT * ts_dist(q->q[0], q->q[1]);
    for (int i = 0; i < n; i++)
        if (out[i].score >= 999 && ts_point_in_quad(out[i].q, cx, cy) &&
            near_corner(out[i].q, q->q[0], tol) && near_corner(out[i].q, q->q[2], tol))
            return 1;
    return 0;
}

/* Whether most of the stock scores v[0..n) are near the brightest of them
 * (its 90th centile: the stock, not a glint). */
static int mostly_stock(const int *v, int n)
{
    int sorted[32] = {0}; /* n <= 25 */
    for (int i = 0; i < n; i++) {
        int t = i;
        sorted[i] = v[i];
        while (t > 0 && sorted[t] < sorted[t - 1]) {
            int u = sorted[t];
            sorted[t] = sorted[t - 1], sorted[t - 1] = u, t--;
        }
    }
    int top = sorted[(9 * n) / 10], on = 0;
    for (int i = 0; i < n; i++)
        on += 5 * v[i] >= 4 * top;
    return top > 0 && 10 * on >= 7 * n;
}

enum { GRID = 5 }; /* stock_inside's grid of places, GRID x GRID */

/* The stock scores of a GRID x GRID grid of places inside card q, inset
 * by inset of it, into v (row by row) and those of its outer ring into
 * ring. Returns the ring's count. */
static int grid_scores(const ts_image *frame, const ts_quad *q, float inset, int *v, int *ring)
{
    int n = 0, nr = 0;
    for (int i = 0; i < GRID; i++)
        for (int j = 0; j < GRID; j++) {
            ts_pt p = ts_quad_point(q->q, inset + (1 - 2 * inset) * (i + 0.5f) / GRID,
                            inset + (1 - 2 * inset) * (j + 0.5f) / GRID);
            int x = (int)(p.x + 0.5f), y = (int)(p.y + 0.5f), s = 0;
            if (x >= 0 && y >= 0 && x < frame->w && y < frame->h) {
                const uint8_t *px = ts_image_row(frame, y) + (size_t)x * frame->channels;
                s = frame->channels == 3 ? ts_gof_stock_score(px[0], px[1], px[2]) : px[0];
            }
            v[n++] = s;
            if (i == 0 || j == 0 || i == GRID - 1 || j == GRID - 1)
                ring[nr++] = s;
        }
    return nr;
}

/* Whether a card an index implies lies on card stock: most of a 5 x 5 grid
 * of places inside it, or most of the grid's outer ring, score near the
 * brightest of them (an index read the wrong way round, or a numeral stroke
 * taken for one, puts the card half on the table). The big numeral covers
 * a few places of the grid, and an 8 or a 10 in a pile's top card (its
 * stock shaded by the light) most of the middle: the ring alone leaves
 * it out (81000-81039, index cards of real cards on stock: 476 -> 491 of
 * 503, others 3726 -> 3854 of 10104). */
static int stock_inside(const ts_image *frame, const ts_quad *q, float inset)
{
    int v[GRID * GRID], ring[GRID * GRID];
    int nr = grid_scores(frame, q, inset, v, ring);
    return mostly_stock(v, GRID * GRID) || mostly_stock(ring, nr);
}

int ts_gof_ring_stock(const ts_image *frame, const ts_quad *q)
{
    int v[GRID * GRID], ring[GRID * GRID];
    float r[GRID * GRID];
    int nr = grid_scores(frame, q, 0.1f, v, ring);
    for (int i = 0; i < nr; i++)
        r[i] = (float)ring[i];
    ts_sort_floats(r, (size_t)nr);
    return (int)r[nr / 4];
}

/* Where stock_inside samples an index card: over the whole card, or
 * inset by a tenth of it when the card has the lone cards' size (ref): one
 * found by a pair a pixel off lies a few pixels off the card, its edge
 * samples on the table (68000-68039: 2 more fully visible cards read,
 * wrong 4 -> 3). A card of another size keeps the strict test: a grained
 * table's specks pair into big cards across several real ones. */
static float stock_inset(float ref, const ts_quad *q)
{
    return ref > 0 && fabsf(ts_dist(q->q[0], q->q[1]) / ref - 1) <= 0.25f ? 0.1f : 0;
}

/* ts_gof_index_keep for the index finder: its cards on the stock, and
 * within a factor 2.5 of the lone cards' size where there are any (twice
 * it: index_size_ok's second size). A polka-dot cloth as light as the
 * stock pairs its dots a grid step apart into cards three times the lone
 * cards' size, whose samples fall on the cloth's light ground between the
 * dots (107001 row: 85 such cards, every one refused by index_size_ok,
 * took the index finder's room). */
typedef struct {
    const ts_image *frame;
    float ref; /* the lone cards' side, or 0 */
} stock_ctx;

static int index_on_stock(const ts_quad *q, void *ctx)
{
    const stock_ctx *c = ctx;
    float r = c->ref > 0 ? ts_dist(q->q[0], q->q[1]) / c->ref : 1;
    return r >= 0.4f && r <= 2.5f && stock_inside(c->frame, q, stock_inset(c->ref, q));
}

/* The box around the stock that the cards found do not explain: the Otsu
 * blobs whose distinct cards of score at least explains (lone cards 999/1000,
 * cells of splits along clear seams from EXPLAINS) do not add up to about
 * their area (blocks of touching cards not all found, piles, fans, cards
 * joined to a light table). Returns 0 if every blob is explained, else 1
 * with roi (x, y, w, h). */
static int unexplained(const ts_gof_finder *f, const ts_quad *out, int n, const ts_image *frame,
                       float explains, int roi[4])
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int b = 0; b < f->nblob; b++) {
        /* the area of the distinct cards found on the blob */
        double found = 0;
        int on[MAX_ON], non = 0;
        for (int i = 0; i < n && non < MAX_ON; i++) {
            if (out[i].score < explains)
                continue;
            float cx = (out[i].q[0].x + out[i].q[1].x + out[i].q[2].x + out[i].q[3].x) / 4;
            float cy = (out[i].q[0].y + out[i].q[1].y + out[i].q[2].y + out[i].q[3].y) / 4;
            if (cx < f->blob[b].x0 || cx > f->blob[b].x1 || cy < f->blob[b].y0 ||
                cy > f->blob[b].y1)
                continue;
            int seen = 0;
            for (int j = 0; j < non && !seen; j++)
                seen = ts_quad_overlap(&out[on[j]], &out[i]);
            if (!seen) {
                on[non++] = i;
                found += out[i].area;
            }
        }
        /* the blob's outline lies inside the cards' (blur, rounded corners) */
        if (found >= 0.7 * f->blob[b].area && found <= 1.5 * f->blob[b].area)
            continue;
        /* with a margin: an index of a card cut by the blob's edge */
        float mx = 0.1f * (f->blob[b].x1 - f->blob[b].x0), my = 0.1f * (f->blob[b].y1 - f->blob[b].y0);
        x0 = fminf(x0, f->blob[b].x0 - mx), y0 = fminf(y0, f->blob[b].y0 - my);
        x1 = fmaxf(x1, f->blob[b].x1 + mx), y1 = fmaxf(y1, f->blob[b].y1 + my);
    }
    x0 = fmaxf(x0, 0), y0 = fmaxf(y0, 0);
    x1 = fminf(x1, (float)frame->w), y1 = fminf(y1, (float)frame->h);
    if (x1 - x0 < 16 || y1 - y0 < 16)
        return 0;
    roi[0] = (int)x0, roi[1] = (int)y0, roi[2] = (int)(x1 - x0), roi[3] = (int)(y1 - y0);
    return 1;
}

int ts_gof_corner_whole(const ts_quad *q)
{
    return q->score == CORNER_WHOLE;
}

int ts_gof_find_pairs(const ts_gof_finder *f, const ts_quad **pairs)
{
    *pairs = f->pair;
    return f->npair;
}

int ts_gof_find(ts_gof_finder *f, const ts_image *frame, ts_quad *out, ts_quad *card,
                unsigned char *kind, int max, char *err)
{
    int side = frame->w > frame->h ? frame->w : frame->h;
    int k = (side + WORK_SIDE - 1) / WORK_SIDE;
    k = k < 1 ? 1 : k;
    if (stock_image(f, frame, k) < 0) {
        snprintf(err, TSCV_ERR_MAX, "gof find: out of memory");
        return -1;
    }
    if (tscv_blur(&f->stock, &f->stock, 0.8, err) < 0)
        return -1;
    f->nblob = 0;
    f->nseam = 0;
    f->slope[0] = f->slope[1] = 0;
    f->away_ran = 0;
    max = max < MAX_OUT ? max : MAX_OUT;
    /* a third of the room kept for the cards of the indices (a striped
     * cloth as light as the stock gives hundreds of outlines, none a card) */
    int n = blocks(f, frame, k, 0, out, max - max / 3, err);
    if (n < 0)
        return -1;
    /* then the cards their indices imply on the stock, where outlines
     * were lost */
    float ref = typical_side(out, n, 1000, 1);
    stock_ctx on = {frame, ref > 0 ? ref : 0};
    int roi[4], m = 0;
    if (f->away_ran)
        m = ts_gof_index_cards(f->index, frame, f->away_roi, index_on_stock, &on, f->idx,
                               MAX_INDEX, err);
    else if (unexplained(f, out, n, frame, INDEX_EXPLAINS, roi))
        m = ts_gof_index_cards(f->index, frame, roi, index_on_stock, &on, f->idx, MAX_INDEX, err);
    if (m < 0)
        return -1;
    memcpy(f->pair, f->idx, sizeof *f->idx * (size_t)m);
    f->npair = m;
    unsigned char *kd = f->kind;
    for (int i = 0; i < n; i++) /* the corner cards of piles (corner_cards' scores) */
        kd[i] = out[i].score == CORNER_ASIDE                                   ? TS_GOF_ASIDE
                : out[i].score == CORNER_WHOLE || out[i].score == CORNER_PART ||
                        out[i].score == CORNER_SIDE
                    ? TS_GOF_PART
                                                                              : TS_GOF_OUTLINE;
    int kept = 0, nv = 0;
    for (int i = 0; i < m; i++) {
        f->view[nv++] = f->idx[i];
        if (!on_lone_card(out, n, &f->idx[i]))
            f->idx[kept++] = f->idx[i];
    }
    m = index_size_ok(f, out, n, f->idx, kept);
    int whole = n = merge_index(out, kd, n, max, f->idx, m);
    if (card) {
        for (int i = 0; i < n; i++)
            card[i] = out[i];
        /* last, every index card on stock again as its index view: the
         * whole card may lie under others (or its centre on a lone card) */
        nv = index_size_ok(f, out, whole, f->view, nv);
        for (int i = 0; i < nv && n < max; i++, n++) {
            card[n] = f->view[i];
            kd[n] = TS_GOF_VIEW;
            ts_gof_index_view(&f->view[i], &out[n]);
        }
        memcpy(kind, kd, (size_t)n);
    }
    return n;
}
