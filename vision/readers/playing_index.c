/* Corner-index glyph pairs for playing cards.
 *
 * A card's index is a rank glyph above a suit glyph, both dark or red ink on
 * the card's white, near a corner. This finds such pairs anywhere in the
 * frame without any card outline, so a card held in fingers, cut by the
 * frame, lying on a white desk or half under another card still offers its
 * index; the reader (playing.c) cuts the index patch each pair implies and
 * lets its net say whether it is an index and which.
 *
 * Ink is what is darker than its neighbourhood in the darkest channel (red
 * ink is dark in blue and green). Blobs of glyph size are paired when the
 * second (the suit) lies one glyph below the first (the rank) and is no
 * larger. Two scales cover glyphs from 4 to about 50 pixels of a frame up to
 * 1280 px long; a third, coarser, is for close-ups (the reader looks there
 * when the first two give no index).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "median.h"
#include "readers/index_ink.h"
#include "readers/playing.h"

enum {
    WORK = 640,       /* long side of the finest level (px): glyphs from 8 px of a 1280 px frame */
    LEVELS = 2,       /* each half the size of the one before */
    MIN_EXT = 4,      /* glyph extent on a level (px) */
    MAX_EXT = 26,
    BLOCK = 31,       /* local mean window (px): a few glyphs wide */
    INK = 14,         /* how much darker than the local mean ink is */
    /* white_margin's distances tried on the coarse level, a close-up's: the
     * nearer ones on the finer levels too let a webcam frame's pips and
     * fingers pair (2 cards read wrong) */
    NEAR_COARSE = 3,
    GLYPH_CELL = 16,  /* glyph buckets (level px): a suit lies within 1.9 rank extents */
    PAIR_CELLS = 128, /* pair buckets along the frame's long side, at most */
};
/* A suit glyph lies this many rank extents from its rank glyph, at least
 * and at most. */
#define STEP_MIN 0.65f
#define STEP_MAX 1.9f

typedef struct {
    float cx, cy, ext;
    int area;
} glyph;

/* Items bucketed by where they lie, in square cells, so that each is
 * compared with its neighbours only: a printed cloth gives thousands of
 * glyph-sized blobs (1,861 on a gingham level), and pairing them all
 * against all was quadratic. A cell as large as the picture is one bucket:
 * every item against every other. */
typedef struct {
    float cell;
    int gw, gh;
    int *head; /* gw * gh: an item in each cell, or -1 */
    int *next; /* per item: the next one in its cell, or -1 */
} buckets;

static int buckets_init(buckets *b, float w, float h, float cell, int items)
{
    b->cell = cell;
    b->gw = (int)(w / cell) + 1;
    b->gh = (int)(h / cell) + 1;
    b->head = malloc(sizeof *b->head * ((size_t)b->gw * b->gh + (size_t)items + 1));
    if (!b->head)
        return -1;
    b->next = b->head + (size_t)b->gw * b->gh;
    memset(b->head, -1, sizeof *b->head * (size_t)b->gw * b->gh);
    return 0;
}

static int cell_of(const buckets *b, float v, int n)
{
    int c = (int)floorf(v / b->cell);
    return c < 0 ? 0 : c >= n ? n - 1 : c;
}

static void buckets_put(buckets *b, int item, float x, float y)
{
    int *h = &b->head[cell_of(b, y, b->gh) * b->gw + cell_of(b, x, b->gw)];
    b->next[item] = *h;
    *h = item;
}

/* The cells holding points within r of (x, y) (both axes): x0..x1, y0..y1. */
static void buckets_about(const buckets *b, float x, float y, float r, int c[4])
{
    c[0] = cell_of(b, x - r, b->gw), c[1] = cell_of(b, x + r, b->gw);
    c[2] = cell_of(b, y - r, b->gh), c[3] = cell_of(b, y + r, b->gh);
}

static int near_pair(const ts_playing_pair *a, const ts_playing_pair *b)
{
    /* most pairs lie far apart: a bound first, without a root (a distance
     * is at least its larger axis, a step at most its two axes summed) */
    float most = 0.3f * (fabsf(a->suit.x - a->rank.x) + fabsf(a->suit.y - a->rank.y));
    if (fabsf(a->rank.x - b->rank.x) >= most || fabsf(a->rank.y - b->rank.y) >= most)
        return 0;
    float tol = 0.3f * ts_dist(a->rank, a->suit);
    return ts_dist(a->rank, b->rank) < tol && ts_dist(a->suit, b->suit) < tol;
}

/* Clearest first; equal margins by place, so the order (and which of two
 * near pairs is kept) does not depend on the order they were found in. */
static int by_margin(const void *a, const void *b)
{
    const ts_playing_pair *x = a, *y = b;
    if (x->margin != y->margin)
        return (x->margin < y->margin) - (x->margin > y->margin);
    const float kx[4] = {x->rank.y, x->rank.x, x->suit.y, x->suit.x};
    const float ky[4] = {y->rank.y, y->rank.x, y->suit.y, y->suit.x};
    for (int i = 0; i < 4; i++)
        if (kx[i] != ky[i])
            return (kx[i] > ky[i]) - (kx[i] < ky[i]);
    return 0;
}

/* How much whiter than the rank glyph's ink the card is beside the index:
 * left of the rank and of the gap between the glyphs, half a glyph step
 * out (ink is bright in grey here). In a photo squeezed to a square a card
 * whose length runs along the stretched axis has its glyph step stretched
 * too, and half of it lands beyond the card's edge: there the white is
 * looked for nearer (the frame stretches of ts_playing_index_card; nnear of
 * the three distances), and such a pair ranks after the plain ones (half
 * its margin). -1: no white. */
static float white_margin(const ts_index_ink *ix, const glyph *r, float vx, float vy, float d,
                          int nnear)
{
    static const float near[3] = {0.5f, 0.375f, 0.28f}; /* 0.5 x 1, 0.75, 0.5625 */
    float ink = 255 - ts_index_ink_glyph(ix, r->cx, r->cy, r->ext);
    float ex = vy / d, ey = -vx / d;
    for (int k = 0; k < nnear; k++) {
        float o = near[k] * d;
        float m0 = 255 - ts_index_ink_grey(ix, r->cx - o * ex, r->cy - o * ey);
        float m1 = 255 - ts_index_ink_grey(ix, r->cx + 0.5f * vx - o * ex,
                                           r->cy + 0.5f * vy - o * ey);
        float margin = (m0 < m1 ? m0 : m1) - ink;
        if (margin >= INK)
            return k ? 0.5f * margin : margin;
    }
    return -1;
}

/* A growing list of pairs (every pair of every level, before the near ones
 * are merged). */
typedef struct {
    ts_playing_pair *p;
    int n, room;
} pair_list;

static int pair_push(pair_list *l, ts_playing_pair p)
{
    if (l->n == l->room) {
        int room = l->room ? 2 * l->room : 256;
        ts_playing_pair *q = realloc(l->p, sizeof *q * (size_t)room);
        if (!q)
            return -1;
        l->p = q, l->room = room;
    }
    l->p[l->n++] = p;
    return 0;
}

/* The level's glyph-sized blobs (all of them: the pairing looks only at
 * neighbours) into gl; returns their count. */
static int level_glyphs(const ts_index_ink *ix, int nb, glyph *gl)
{
    int ng = 0;
    for (int i = 0; i < nb; i++) {
        const tscv_blob *b = &ix->blobs[i];
        int ext = b->w > b->h ? b->w : b->h;
        /* glyph-sized, solid enough to be a stroke figure, not a line */
        if (ext < MIN_EXT || ext > MAX_EXT || b->area < 8 || b->area * 5 < b->w * b->h ||
            b->w > 6 * b->h || b->h > 7 * b->w)
            continue;
        gl[ng++] = (glyph){b->cx, b->cy, (float)ext, b->area};
    }
    return ng;
}

/* Whether s may be the suit below rank glyph r: no larger, about one glyph
 * below; its distance in *d. */
static int suit_of(const glyph *r, const glyph *s, float *d)
{
    if (s->ext > 1.15f * r->ext || s->ext < 0.35f * r->ext || s->area > 3 * r->area ||
        6 * s->area < r->area)
        return 0;
    float vx = s->cx - r->cx, vy = s->cy - r->cy, e2 = r->ext * r->ext;
    /* squares first, with room to spare (0.65^2, 1.9^2): hypotf decides */
    if (vx * vx + vy * vy < 0.4f * e2 || vx * vx + vy * vy > 3.7f * e2)
        return 0;
    *d = hypotf(vx, vy);
    return *d >= STEP_MIN * r->ext && *d <= STEP_MAX * r->ext;
}

/* Every rank-above-suit pair of the level's glyphs gl[0..ng) with white
 * beside it, in frame px (back: level -> frame), onto l; cell: the
 * buckets' size (level px). */
static int level_pairs(const ts_index_ink *ix, const glyph *gl, int ng, float cell, int nnear,
                       const float back[2], pair_list *l)
{
    buckets b;
    if (buckets_init(&b, (float)ix->grey.w, (float)ix->grey.h, cell, ng) < 0)
        return -1;
    for (int i = 0; i < ng; i++)
        buckets_put(&b, i, gl[i].cx, gl[i].cy);
    int rc = 0;
    for (int i = 0; i < ng && rc == 0; i++) {
        const glyph *r = &gl[i];
        int c[4];
        buckets_about(&b, r->cx, r->cy, STEP_MAX * r->ext, c);
        for (int cy = c[2]; cy <= c[3]; cy++)
            for (int cx = c[0]; cx <= c[1]; cx++)
                for (int j = b.head[cy * b.gw + cx]; j >= 0 && rc == 0; j = b.next[j]) {
                    const glyph *s = &gl[j];
                    float d, margin;
                    if (j == i || !suit_of(r, s, &d) ||
                        (margin = white_margin(ix, r, s->cx - r->cx, s->cy - r->cy, d, nnear)) < 0)
                        continue;
                    rc = pair_push(l, (ts_playing_pair){
                                          .rank = {r->cx * back[0], r->cy * back[1]},
                                          .suit = {s->cx * back[0], s->cy * back[1]},
                                          .margin = margin,
                                      });
                }
    }
    free(b.head);
    return rc;
}

/* The clearest of l's pairs, each but where a clearer one lies near it
 * (near_pair: the same index found twice, or on two levels), into
 * out[0..max), clearest first; returns their count. whole: one bucket. */
static int clearest_apart(pair_list *l, float w, float h, int whole, ts_playing_pair *out, int max)
{
    if (l->n == 0)
        return 0; /* no pairs: l->p may be NULL, which qsort must not get */
    qsort(l->p, (size_t)l->n, sizeof *l->p, by_margin);
    /* a near pair's rank lies within its clearer one's bound (near_pair's
     * most) in both axes: in the cells about it when they are that wide */
    float most = (w > h ? w : h) / PAIR_CELLS;
    for (int i = 0; i < l->n; i++) {
        const ts_playing_pair *p = &l->p[i];
        float m = 0.3f * (fabsf(p->suit.x - p->rank.x) + fabsf(p->suit.y - p->rank.y));
        most = m > most ? m : most;
    }
    buckets b;
    if (buckets_init(&b, w, h, whole ? w + h + 1 : most, max) < 0)
        return -1;
    int n = 0;
    for (int i = 0; i < l->n && n < max; i++) {
        const ts_playing_pair *p = &l->p[i];
        int c[4], near = 0;
        buckets_about(&b, p->rank.x, p->rank.y, b.cell, c);
        for (int cy = c[2]; cy <= c[3] && !near; cy++)
            for (int cx = c[0]; cx <= c[1] && !near; cx++)
                for (int j = b.head[cy * b.gw + cx]; j >= 0 && !near; j = b.next[j])
                    near = near_pair(&out[j], p);
        if (near)
            continue;
        out[n] = *p;
        buckets_put(&b, n++, p->rank.x, p->rank.y);
    }
    free(b.head);
    return n;
}

/* Pairs on levels first..last (and, if more, on the next one when none was
 * found; if finer, on one twice as fine as first before it, no finer than
 * the frame); nnear: white_margin's; whole: every glyph and pair in one
 * bucket (all against all, as a check of the buckets). */
static int pairs_on(ts_index_ink *ix, const ts_image *frame, int first, int last, int more,
                    int finer, int nnear, int whole, ts_playing_pair *out, int max, char *err)
{
    pair_list l = {0};
    glyph *gl = malloc(sizeof *gl * (size_t)ix->max_blobs);
    if (!gl) {
        snprintf(err, TSCV_ERR_MAX, "out of memory");
        return -1;
    }
    int n = 0;
    float k = (float)WORK / (frame->w > frame->h ? frame->w : frame->h);
    if (k > 1)
        k = 1;
    for (int lv = 0; lv < first; lv++)
        k /= 2;
    if (finer && 2 * k <= 1)
        k *= 2, first--;
    for (int lv = first; lv <= last || (more && lv == last + 1 && l.n == 0); lv++, k /= 2) {
        int w = (int)lroundf(frame->w * k), h = (int)lroundf(frame->h * k);
        if (w < 2 * BLOCK || h < 2 * BLOCK)
            break;
        int nb = ts_index_ink_level(ix, frame, w, h, BLOCK, INK, err);
        if (nb < 0) {
            n = -1;
            break;
        }
        int ng = level_glyphs(ix, nb, gl);
        const float back[2] = {(float)frame->w / w, (float)frame->h / h};
        if (level_pairs(ix, gl, ng, whole ? (float)(w + h + 1) : GLYPH_CELL, nnear, back, &l) < 0) {
            n = -1;
            snprintf(err, TSCV_ERR_MAX, "out of memory");
            break;
        }
    }
    if (n == 0 && (n = clearest_apart(&l, (float)frame->w, (float)frame->h, whole, out, max)) < 0)
        snprintf(err, TSCV_ERR_MAX, "out of memory");
    free(gl);
    free(l.p);
    return n;
}

int ts_playing_index_pairs(ts_index_ink *ix, const ts_image *frame, ts_playing_pair *out,
                           int max, char *err)
{
    /* A close-up's glyphs are too big for both levels: a frame with no pair
     * there is looked at once more, a level coarser. */
    return pairs_on(ix, frame, 0, LEVELS - 1, 1, 0, 1, 0, out, max, err);
}

/* A card narrower than this on the finest level (level px) has index
 * glyphs of 4-6 px there (rank 0.11, suit 0.07 of its width): too few to
 * part a 7 from its heart or to pass MIN_EXT. A pile's cards on a 1280 px
 * frame are 64-121 px wide; a row's or grid's 140-200. */
#define FINE_CARD_W 70.0f

int ts_playing_index_small_cards(const ts_image *frame, float card_w)
{
    float k = (float)WORK / (frame->w > frame->h ? frame->w : frame->h);
    return card_w > 0 && card_w * (k > 1 ? 1 : k) < FINE_CARD_W;
}

int ts_playing_index_pairs_sized(ts_index_ink *ix, const ts_image *frame, float card_w,
                                 ts_playing_pair *out, int max, char *err)
{
    int finer = ts_playing_index_small_cards(frame, card_w);
    return pairs_on(ix, frame, 0, LEVELS - 1, 1, finer, 1, 0, out, max, err);
}

int ts_playing_index_pairs_exhaustive(ts_index_ink *ix, const ts_image *frame,
                                      ts_playing_pair *out, int max, char *err)
{
    return pairs_on(ix, frame, 0, LEVELS - 1, 1, 0, 1, 1, out, max, err);
}

int ts_playing_index_pairs_coarse(ts_index_ink *ix, const ts_image *frame, ts_image *scratch,
                                  ts_playing_pair *out, int max, char *err)
{
    float k = (float)WORK / (frame->w > frame->h ? frame->w : frame->h);
    k = (k > 1 ? 1 : k) / 2;
    int w1 = (int)lroundf(frame->w * k), h1 = (int)lroundf(frame->h * k);
    const ts_image *last = &ix->small;
    if (!last->buf || last->w != w1 || last->h != h1 || last->channels != frame->channels)
        return pairs_on(ix, frame, LEVELS, LEVELS, 0, 0, NEAR_COARSE, 0, out, max, err);
    /* halve the last level's picture, not the whole frame again (13 M
     * instructions a 720p frame); a copy, since the level is redrawn */
    if (scratch->w != w1 || scratch->h != h1 || scratch->channels != last->channels) {
        ts_image_free(scratch);
        if (ts_image_alloc(scratch, w1, h1, last->channels) < 0) {
            snprintf(err, TSCV_ERR_MAX, "out of memory");
            return -1;
        }
    }
    for (int y = 0; y < h1; y++)
        memcpy(ts_image_row(scratch, y), ts_image_row(last, y), (size_t)w1 * last->channels);
    int n = pairs_on(ix, scratch, 1, 1, 0, 0, NEAR_COARSE, 0, out, max, err);
    float sx = (float)frame->w / w1, sy = (float)frame->h / h1;
    for (int i = 0; i < n; i++) {
        out[i].rank = (ts_pt){out[i].rank.x * sx, out[i].rank.y * sy};
        out[i].suit = (ts_pt){out[i].suit.x * sx, out[i].suit.y * sy};
    }
    return n;
}

/* Where the index sits on a card, in card widths (63 x 88 mm): the rank
 * glyph's centre and the rank-to-suit distance, measured on the rectified
 * cards of two real decks (mathsvlog, vosloo). */
#define IDX_RANK_X 0.10f
#define IDX_RANK_Y 0.112f
#define IDX_STEP 0.154f
#define CARD_ASPECT 1.397f

/* Ways a frame may be stretched (true x, y -> frame x, y): a 16:9 or 4:3
 * photo squeezed to a square makes cards look narrower or squatter. */
static const float STRETCH[TS_PLAYING_NSTRETCH][2] = {
    {1, 1}, {0.5625f, 1}, {1, 0.5625f}, {0.75f, 1}, {1, 0.75f}};

void ts_playing_index_card(const ts_playing_pair *p, int stretch, ts_pt card[4], ts_pt patch[4])
{
    const float *st = STRETCH[stretch];
    float rx = p->rank.x / st[0], ry = p->rank.y / st[1];
    float vx = p->suit.x / st[0] - rx, vy = p->suit.y / st[1] - ry;
    float len = hypotf(vx, vy) + 1e-6f;
    float dx = vx / len, dy = vy / len; /* the card's down */
    float ex = dy, ey = -dx;            /* its right, for an index at the top-left */
    float u = len / IDX_STEP;           /* the card's width (px) */
    float ox = rx - u * (IDX_RANK_X * ex + IDX_RANK_Y * dx);
    float oy = ry - u * (IDX_RANK_X * ey + IDX_RANK_Y * dy);
    const float cw[2] = {1, TS_PLAYING_CORNER_W};
    const float ch[2] = {CARD_ASPECT, CARD_ASPECT * TS_PLAYING_CORNER_H};
    ts_pt *q[2] = {card, patch};
    for (int k = 0; k < 2; k++) {
        float a = u * cw[k], b = u * ch[k];
        const float c[4][2] = {{0, 0}, {a, 0}, {a, b}, {0, b}};
        for (int i = 0; i < 4; i++)
            q[k][i] = (ts_pt){(ox + c[i][0] * ex + c[i][1] * dx) * st[0],
                              (oy + c[i][0] * ey + c[i][1] * dy) * st[1]};
    }
}

/* Whiteness (the darkest channel: wood and skin are dark in blue) of the
 * frame at card point (u, w) (card widths from the index corner across and
 * along), or -1 beyond the frame. */
static int card_white(const ts_image *frame, const ts_pt card[4], float u, float w)
{
    float v = w / CARD_ASPECT;
    float x = card[0].x + u * (card[1].x - card[0].x) + v * (card[3].x - card[0].x);
    float y = card[0].y + u * (card[1].y - card[0].y) + v * (card[3].y - card[0].y);
    return ts_playing_whiteness(frame, (ts_pt){x, y});
}

int ts_playing_whiteness(const ts_image *frame, ts_pt at)
{
    int ix = (int)lroundf(at.x), iy = (int)lroundf(at.y);
    if (ix < 0 || iy < 0 || ix >= frame->w || iy >= frame->h)
        return -1;
    const uint8_t *p = ts_image_row(frame, iy) + (size_t)ix * frame->channels;
    if (frame->channels == 1)
        return p[0];
    uint8_t m = p[0] < p[1] ? p[0] : p[1];
    return m < p[2] ? m : p[2];
}

enum {
    EDGE_SAMPLES = 6, /* per line along an edge */
    CORNER_EDGE = 20, /* how much darker than the card's white beyond its edge is */
};

/* The median whiteness along a line of card points from (u0, w0) to (u1, w1)
 * (-1 when most lie beyond the frame). */
static float line_white(const ts_image *frame, const ts_pt card[4], float u0, float w0, float u1,
                        float w1)
{
    float v[EDGE_SAMPLES];
    int n = 0;
    for (int i = 0; i < EDGE_SAMPLES; i++) {
        float t = (float)i / (EDGE_SAMPLES - 1);
        int g = card_white(frame, card, u0 + t * (u1 - u0), w0 + t * (w1 - w0));
        if (g >= 0)
            v[n++] = (float)g;
    }
    if (2 * n <= EDGE_SAMPLES)
        return -1;
    ts_sort_floats(v, (size_t)n);
    return v[n / 2];
}

int ts_playing_index_corner(const ts_image *frame, const ts_pt card[4])
{
    /* the card's white between its edges and the index, and beyond the two
     * edges that meet at the index's corner */
    float in_l = line_white(frame, card, 0.03f, 0.1f, 0.03f, 0.4f);
    float in_t = line_white(frame, card, 0.1f, 0.03f, 0.4f, 0.03f);
    float in = in_l > in_t ? in_l : in_t;
    const float beyond[2] = {line_white(frame, card, -0.1f, 0.1f, -0.1f, 0.5f),
                             line_white(frame, card, 0.1f, -0.1f, 0.5f, -0.1f)};
    int seen = 0;
    for (int k = 0; k < 2; k++) {
        if (beyond[k] < 0)
            continue; /* beyond the frame */
        if (in < 0 || in - beyond[k] < CORNER_EDGE)
            return 0;
        seen++;
    }
    return seen > 0;
}
