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
    MAX_GLYPHS = 600, /* glyph-sized ones kept per level */
    MIN_EXT = 4,      /* glyph extent on a level (px) */
    MAX_EXT = 26,
    BLOCK = 31,       /* local mean window (px): a few glyphs wide */
    INK = 14,         /* how much darker than the local mean ink is */
    /* white_margin's distances tried on the coarse level, a close-up's: the
     * nearer ones on the finer levels too let a webcam frame's pips and
     * fingers pair (2 cards read wrong) */
    NEAR_COARSE = 3,
};

typedef struct {
    float cx, cy, ext;
    int area;
} glyph;

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

static int by_margin(const void *a, const void *b)
{
    const ts_playing_pair *x = a, *y = b;
    return (x->margin < y->margin) - (x->margin > y->margin);
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

/* Pairs on levels first..last (and, if more, on the next one when none was
 * found); nnear: white_margin's. */
static int pairs_on(ts_index_ink *ix, const ts_image *frame, int first, int last, int more,
                    int nnear, ts_playing_pair *out, int max, char *err)
{
    int n = 0;
    glyph *gl = malloc(sizeof *gl * MAX_GLYPHS);
    if (!gl) {
        snprintf(err, TSCV_ERR_MAX, "out of memory");
        return -1;
    }
    float k = (float)WORK / (frame->w > frame->h ? frame->w : frame->h);
    if (k > 1)
        k = 1;
    for (int lv = 0; lv < first; lv++)
        k /= 2;
    for (int lv = first; lv <= last || (more && lv == last + 1 && n == 0); lv++, k /= 2) {
        int w = (int)lroundf(frame->w * k), h = (int)lroundf(frame->h * k);
        if (w < 2 * BLOCK || h < 2 * BLOCK)
            break;
        int nb = ts_index_ink_level(ix, frame, w, h, BLOCK, INK, err);
        if (nb < 0) {
            free(gl);
            return -1;
        }
        int ng = 0;
        for (int i = 0; i < nb && ng < MAX_GLYPHS; i++) {
            const tscv_blob *b = &ix->blobs[i];
            int ext = b->w > b->h ? b->w : b->h;
            /* glyph-sized, solid enough to be a stroke figure, not a line */
            if (ext < MIN_EXT || ext > MAX_EXT || b->area < 8 || b->area * 5 < b->w * b->h ||
                b->w > 6 * b->h || b->h > 7 * b->w)
                continue;
            gl[ng++] = (glyph){b->cx, b->cy, (float)ext, b->area};
        }
        float back_x = (float)frame->w / w, back_y = (float)frame->h / h;
        for (int i = 0; i < ng; i++) {
            const glyph *r = &gl[i];
            for (int j = 0; j < ng; j++) {
                const glyph *s = &gl[j];
                if (i == j || s->ext > 1.15f * r->ext || s->ext < 0.35f * r->ext ||
                    s->area > 3 * r->area || 6 * s->area < r->area)
                    continue;
                float vx = s->cx - r->cx, vy = s->cy - r->cy, e2 = r->ext * r->ext;
                /* squares first, with room to spare (0.65^2, 1.9^2): most
                 * glyphs lie far apart, and hypotf below decides */
                if (vx * vx + vy * vy < 0.4f * e2 || vx * vx + vy * vy > 3.7f * e2)
                    continue;
                float d = hypotf(vx, vy);
                if (d < 0.65f * r->ext || d > 1.9f * r->ext)
                    continue;
                float margin = white_margin(ix, r, vx, vy, d, nnear);
                if (margin < 0)
                    continue;
                ts_playing_pair p = {
                    .rank = {r->cx * back_x, r->cy * back_y},
                    .suit = {s->cx * back_x, s->cy * back_y},
                    .margin = margin,
                };
                int dup = 0;
                for (int t = 0; t < n && !dup; t++)
                    if (near_pair(&out[t], &p)) {
                        dup = 1;
                        if (p.margin > out[t].margin)
                            out[t] = p;
                    }
                if (!dup && n < max)
                    out[n++] = p;
            }
        }
    }
    free(gl);
    qsort(out, (size_t)n, sizeof *out, by_margin);
    return n;
}

int ts_playing_index_pairs(ts_index_ink *ix, const ts_image *frame, ts_playing_pair *out,
                           int max, char *err)
{
    /* A close-up's glyphs are too big for both levels: a frame with no pair
     * there is looked at once more, a level coarser. */
    return pairs_on(ix, frame, 0, LEVELS - 1, 1, 1, out, max, err);
}

int ts_playing_index_pairs_coarse(ts_index_ink *ix, const ts_image *frame, ts_image *scratch,
                                  ts_playing_pair *out, int max, char *err)
{
    float k = (float)WORK / (frame->w > frame->h ? frame->w : frame->h);
    k = (k > 1 ? 1 : k) / 2;
    int w1 = (int)lroundf(frame->w * k), h1 = (int)lroundf(frame->h * k);
    const ts_image *last = &ix->small;
    if (!last->buf || last->w != w1 || last->h != h1 || last->channels != frame->channels)
        return pairs_on(ix, frame, LEVELS, LEVELS, 0, NEAR_COARSE, out, max, err);
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
    int n = pairs_on(ix, scratch, 1, 1, 0, NEAR_COARSE, out, max, err);
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
    int ix = (int)lroundf(x), iy = (int)lroundf(y);
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
