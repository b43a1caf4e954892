/* Fanned Chinese domino cards read from the strip that shows (see
 * domino_strips.h). */
#include "readers/domino_strips.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "codes.h"
#include "cv/cvwrap.h"
#include "geom.h"
#include "median.h"
#include "readers/domino_pips.h"

enum {
    W = DOMINO_CARD_W,
    H = DOMINO_CARD_H,
    CHAIN = 13,     /* cards under one top card, at most */
    MAX_BLOBS = 64,
    LONG_N = 16,    /* samples along the free long edge */
    MARGIN = 5,     /* px: a card on this one hides this much more (its rim, its shadow) */
    END_N = 8,      /* samples along each end */
};

/* how far out of the top card its first card under it shows, at most, over
 * its width: less shows no part of a pip column (their middles lie 0.3 of
 * the width in, their rims 0.2) */
static const float MIN_SHOWN = 0.2f;

/* px: how near its place a whole pip of a covered card (on its own quad)
 * is evidence of its count: a part of a five's clover cut by a card no
 * candidate knew of lay 7-9 px off a two's or a six's place */
static const float SURE = 7;
/* the paper's red over green, a share of its red, past which the paper is
 * tinted (pips red by a larger share), and past which no strip is read */
static const float TINTED = 0.12f, TINT_MAX = 0.2f;

static float grey_at(const ts_image *f, float x, float y)
{
    if (!(x >= -0.5f && y >= -0.5f)) /* and NaN */
        return -1;
    int ix = (int)(x + 0.5f), iy = (int)(y + 0.5f); /* nearest, without libm */
    if (ix >= f->w || iy >= f->h)
        return -1;
    const uint8_t *p = ts_image_row(f, iy) + 3 * ix;
    return (float)((p[0] + 2 * p[1] + p[2]) >> 2);
}

/* Signed distance of (x, y) inside the convex quad q (either winding):
 * > 0 inside, < 0 outside (to the nearest side's line). */
static float depth_in(const ts_pt q[4], float x, float y)
{
    float area2 = 0;
    for (int i = 0; i < 4; i++) {
        ts_pt a = q[i], b = q[(i + 1) & 3];
        area2 += a.x * b.y - b.x * a.y;
    }
    float s = area2 > 0 ? 1.0f : -1.0f, d = 1e9f;
    for (int i = 0; i < 4; i++) {
        ts_pt a = q[i], b = q[(i + 1) & 3];
        float len = hypotf(b.x - a.x, b.y - a.y);
        if (len < 1e-3f)
            return -1e9f;
        float c = s * ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)) / len;
        if (c < d)
            d = c;
    }
    return d;
}

/* A convex quad as its four sides' lines: a x + b y + c is the distance
 * inside of each (depth_in without a square root a point). */
typedef struct {
    float a[4], b[4], c[4];
    /* the box round the quad grown by COVER_M along every side's line: a
     * point outside it lies more than COVER_M beyond some side */
    float x0, y0, x1, y1;
} qlines;

enum { COVER_M = 4 }; /* the widest margin covered() is asked about */

static void quad_lines(const ts_pt q[4], qlines *l)
{
    float area2 = 0;
    for (int i = 0; i < 4; i++) {
        ts_pt p = q[i], r = q[(i + 1) & 3];
        area2 += p.x * r.y - r.x * p.y;
    }
    float s = area2 > 0 ? 1.0f : -1.0f;
    for (int i = 0; i < 4; i++) {
        ts_pt p = q[i], r = q[(i + 1) & 3];
        float len = hypotf(r.x - p.x, r.y - p.y);
        if (len < 1e-3f)
            len = 1e-3f;
        /* s ((r - p) x (pt - p)) / len */
        l->a[i] = -s * (r.y - p.y) / len;
        l->b[i] = s * (r.x - p.x) / len;
        l->c[i] = -(l->a[i] * p.x + l->b[i] * p.y);
    }
    /* the grown quad's corners: where each two neighbouring sides' lines,
     * moved COVER_M out, meet */
    l->x0 = l->y0 = 1e30f;
    l->x1 = l->y1 = -1e30f;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) & 3;
        float det = l->a[i] * l->b[j] - l->a[j] * l->b[i];
        if (fabsf(det) < 0.05f) { /* nearly parallel sides: no box */
            l->x0 = l->y0 = -1e30f;
            l->x1 = l->y1 = 1e30f;
            return;
        }
        float ri = -COVER_M - l->c[i], rj = -COVER_M - l->c[j];
        float x = (ri * l->b[j] - rj * l->b[i]) / det, y = (l->a[i] * rj - l->a[j] * ri) / det;
        l->x0 = fminf(l->x0, x - 1);
        l->x1 = fmaxf(l->x1, x + 1);
        l->y0 = fminf(l->y0, y - 1);
        l->y1 = fmaxf(l->y1, y + 1);
    }
}

static float depth_l(const qlines *l, float x, float y)
{
    float d = 1e9f;
    for (int i = 0; i < 4; i++) {
        float v = l->a[i] * x + l->b[i] * y + l->c[i];
        d = v < d ? v : d;
    }
    return d;
}

/* True if (x, y) lies under one of the cards cov[0..n) (or within m px
 * of one, m <= COVER_M). */
static int covered(const qlines *cov, int n, float x, float y, float m)
{
    for (int i = 0; i < n; i++) {
        if (x < cov[i].x0 || x > cov[i].x1 || y < cov[i].y0 || y > cov[i].y1)
            continue; /* m <= COVER_M */
        /* depth_l > -m: every side's line has it further in than -m (a
         * side it lies m or more beyond decides at once) */
        int k = 0;
        while (k < 4 && cov[i].a[k] * x + cov[i].b[k] * y + cov[i].c[k] > -m)
            k++;
        if (k == 4)
            return 1;
    }
    return 0;
}

static ts_pt rot(ts_pt p, ts_pt c, float cs, float sn)
{
    float dx = p.x - c.x, dy = p.y - c.y;
    return (ts_pt){c.x + cs * dx - sn * dy, c.y + sn * dx + cs * dy};
}

/* How deep inside a card of width wid (px) its paper is looked at from an
 * edge: 4 px, or past the printed outline (1.2 mm of 26 in) on a card seen
 * large, where 4-6 px in is that outline. */
static int paper_depth(float wid)
{
    int d = (int)lrintf(0.075f * wid);
    return d < 4 ? 4 : d;
}

/* An edge at s (outward normal n): the card's paper inside (depth..depth+2
 * px in, paper_depth), a darker line (its rim, a shadow, the table) at the
 * edge or just past it. Returns the contrast (0 if none), paper the level
 * the inside must reach. */
static float edge_at(const ts_image *f, ts_pt s, float nx, float ny, float paper, int depth)
{
    float in = -1;
    for (int k = depth; k <= depth + 2; k++) {
        float g = grey_at(f, s.x - k * nx, s.y - k * ny);
        if (g > in)
            in = g;
    }
    if (in < paper)
        return 0;
    float lo = 1e9f;
    for (int k = 0; k <= 2; k++) {
        float g = grey_at(f, s.x + k * nx, s.y + k * ny);
        if (g < 0)
            return 0;
        if (g < lo)
            lo = g;
    }
    return lo < 0.86f * in ? (in - lo) / in : 0;
}

/* How well card c (q[0]-q[1] an end) shows as a card lying under the cards
 * cover[0..ncov) (cover[0] the one just on it): its free long edge and the
 * free parts of its ends are edges. Returns the summed contrast, or -1 if
 * it does not show as one. fast: the first few samples only. */
static float placement_score(const ts_image *f, const ts_pt c[4], const qlines *cover,
                             int ncov, float paper, int fast, ts_pt shift[2])
{
    /* the free long side: the one whose middle lies off the card on it */
    ts_pt m03 = {(c[0].x + c[3].x) / 2, (c[0].y + c[3].y) / 2};
    ts_pt m12 = {(c[1].x + c[2].x) / 2, (c[1].y + c[2].y) / 2};
    int f03 = !covered(cover, ncov, m03.x, m03.y, 4), f12 = !covered(cover, ncov, m12.x, m12.y, 4);
    if (f03 == f12)
        return -1;
    /* and its other side under the card on it */
    ts_pt other = f03 ? m12 : m03;
    if (depth_l(&cover[0], other.x, other.y) < 2)
        return -1;
    ts_pt a = f03 ? c[0] : c[1], b = f03 ? c[3] : c[2];
    ts_pt ctr = ts_quad_centre(c);
    float lx = b.x - a.x, ly = b.y - a.y, len = hypotf(lx, ly);
    if (len < 20)
        return -1;
    int depth = paper_depth((ts_dist(c[0], c[1]) + ts_dist(c[2], c[3])) / 2);
    float nx = ly / len, ny = -lx / len;
    if (nx * (a.x - ctr.x) + ny * (a.y - ctr.y) < 0)
        nx = -nx, ny = -ny;
    static const float FAST[4] = {0.2f, 0.4f, 0.6f, 0.8f};
    float sum = 0;
    int hits = 0, n = 0;
    for (int i = 0; i < (fast ? 4 : LONG_N); i++) {
        float t = fast ? FAST[i] : 0.06f + 0.88f * (i + 0.5f) / LONG_N;
        ts_pt s = {a.x + t * lx, a.y + t * ly};
        if (covered(cover, ncov, s.x, s.y, 3))
            continue;
        float e = edge_at(f, s, nx, ny, paper, depth);
        n++;
        hits += e > 0;
        sum += e;
        if (fast && n - hits > 1)
            return -1;
    }
    if (fast)
        return n >= 3 && hits >= n - 1 ? sum : -1;
    if (n < LONG_N * 2 / 3 || hits < 0.85f * n)
        return -1;
    /* the ends where they show */
    int eh = 0, en = 0;
    for (int e = 0; e < 2; e++) {
        ts_pt p = e ? c[3] : c[0], q = e ? c[2] : c[1];
        float ex = q.x - p.x, ey = q.y - p.y, el = hypotf(ex, ey);
        if (el < 8)
            return -1;
        float ux = -ey / el, uy = ex / el;
        ts_pt mid = {(p.x + q.x) / 2, (p.y + q.y) / 2};
        if (ux * (mid.x - ctr.x) + uy * (mid.y - ctr.y) < 0)
            ux = -ux, uy = -uy;
        /* the card's length from the card on it, give or take: the end
         * where it shows best within 8 px */
        int bh = -1, bn = 0, bd = 0;
        float bs = 0;
        for (int d = -8; d <= 8; d += 2) {
            int h = 0, m = 0;
            float sm = 0;
            for (int i = 0; i < END_N; i++) {
                float t = 0.1f + 0.8f * (i + 0.5f) / END_N;
                ts_pt s = {p.x + t * ex + d * ux, p.y + t * ey + d * uy};
                if (covered(cover, ncov, s.x, s.y, 3))
                    continue;
                float g = edge_at(f, s, ux, uy, paper, depth);
                m++;
                h += g > 0;
                sm += g;
            }
            if (h > bh || (h == bh && sm > bs))
                bh = h, bn = m, bs = sm, bd = d;
        }
        /* where it shows plainly, the end is moved there */
        if (shift)
            shift[e] = bn >= 4 && bh >= 0.7f * bn ? (ts_pt){bd * ux, bd * uy} : (ts_pt){0, 0};
        /* the end that shows most (the other may show a sliver) */
        if (bn > en) {
            en = bn;
            eh = bh;
        }
        sum += bs;
    }
    if (en < 3 || eh < 0.7f * en)
        return -1;
    return sum;
}

/* The card under `top` turned by angle about pivot. */
static void place(const ts_pt top[4], ts_pt pivot, float angle, ts_pt *out)
{
    float cs = cosf(angle), sn = sinf(angle);
    for (int k = 0; k < 4; k++)
        out[k] = rot(top[k], pivot, cs, sn);
}

typedef struct {
    ts_pt c[4];
    ts_pt pivot;
    float angle, score;
    ts_pt shift[2]; /* where each end shows, from where the turn puts it */
} placement;

/* How far card c reaches out from under the card on it (cover: its
 * lines), over c's width: its corner furthest out. */
static float shown_width(const ts_pt c[4], const qlines *cover)
{
    float out = 0;
    for (int k = 0; k < 4; k++)
        out = fmaxf(out, -depth_l(cover, c[k].x, c[k].y));
    return out / ((ts_dist(c[0], c[1]) + ts_dist(c[2], c[3])) / 2);
}

/* The turns a search tries: the angles a0 + k da (k in -na..na) about the
 * pivots at top's centre + t len + u wid (t in t0 + j dt, j in -nt..nt;
 * u 0, on its axis, or with nu > 0 the rows off it, u = +-i du for i in
 * 1..nu). */
typedef struct {
    float a0, da;
    int na;
    float t0, dt;
    int nt;
    float du;
    int nu;
} turns;

/* The best placement of a card under top (covered by cover[0..ncov),
 * cover[0] == top) among the turns g. Returns 1 and fills best if one
 * shows as a card. */
static int search(const ts_image *f, const ts_pt top[4], const qlines *cover, int ncov,
                  float paper, const turns *g, int sides, placement *best)
{
    /* which side of top a point is on: the sign of the axis cross it */
    ts_pt s0 = {(top[0].x + top[3].x) / 2, (top[0].y + top[3].y) / 2};
    ts_pt s1 = {(top[1].x + top[2].x) / 2, (top[1].y + top[2].y) / 2};
    ts_pt ctr = ts_quad_centre(top);
    ts_pt e0 = {(top[0].x + top[1].x) / 2, (top[0].y + top[1].y) / 2};
    ts_pt e1 = {(top[3].x + top[2].x) / 2, (top[3].y + top[2].y) / 2};
    float ax = e1.x - e0.x, ay = e1.y - e0.y, wx = s1.x - s0.x, wy = s1.y - s0.y;
    enum { PIVOTS_MAX = 4 * 33 };
    ts_pt piv[PIVOTS_MAX];
    int npiv = 0, found = 0;
    for (int i = -g->nu; i <= g->nu; i++)
        for (int j = -g->nt; j <= g->nt && npiv < PIVOTS_MAX; j++) {
            float t = g->t0 + j * g->dt, u = i * g->du;
            if (!g->nu || i)
                piv[npiv++] = (ts_pt){ctr.x + t * ax + u * wx, ctr.y + t * ay + u * wy};
        }
    for (int v = 0; v < npiv; v++) {
        ts_pt pv = piv[v];
        for (int k = -g->na; k <= g->na; k++) {
            float ang = g->a0 + k * g->da;
            if (fabsf(ang) < 0.02f)
                continue;
            placement p;
            place(top, pv, ang, p.c);
            if (sides != 3) {
                /* the free long side only where paper shows beside top */
                ts_pt m03 = {(p.c[0].x + p.c[3].x) / 2, (p.c[0].y + p.c[3].y) / 2};
                ts_pt m12 = {(p.c[1].x + p.c[2].x) / 2, (p.c[1].y + p.c[2].y) / 2};
                ts_pt fm = depth_l(&cover[0], m03.x, m03.y) < depth_l(&cover[0], m12.x, m12.y)
                               ? m03
                               : m12;
                float cf = ax * (fm.y - ctr.y) - ay * (fm.x - ctr.x);
                float c0 = ax * (s0.y - ctr.y) - ay * (s0.x - ctr.x);
                int side = (cf > 0) == (c0 > 0) ? 1 : 2;
                if (!(sides & side))
                    continue;
            }
            /* the first card under the top shows a pip column somewhere (a
             * sliver along the top's own side is no card to read, and
             * turns the rest of the hand the wrong way) */
            if ((ncov == 1 && shown_width(p.c, &cover[0]) < MIN_SHOWN) ||
                placement_score(f, p.c, cover, ncov, paper, 1, NULL) < 0)
                continue;
            p.score = placement_score(f, p.c, cover, ncov, paper, 0, p.shift);
            if (p.score < 0)
                continue;
            if (!found || p.score > best->score) {
                p.pivot = pv;
                p.angle = ang;
                *best = p;
                found = 1;
            }
        }
    }
    return found;
}

/* ---- reading the strip ------------------------------------------------ */

typedef struct {
    float x, y;
    int area, cut, red, thin;
    int big;    /* larger than any pip of this card, or a part of one */
    int bw, bh; /* its width and height (along the card) */
    float hx, hy; /* cut: the way to what hides the rest of it (unit) */
} sblob;

/* px: how far a cut blob's pip may lie back from it, away from what hides
 * the rest (the strip placed a few px off) */
static const float BACK = 4;

/* True if blob b can be (the part that shows of) a pip at (x, y): the part
 * of a cut pip that shows lies on its side away from what hides the rest,
 * so its middle lies toward the hidden side, not back from it (a two's
 * corner pip cut by the card on it is no three's middle pip). */
static int cut_faces(const sblob *b, float x, float y)
{
    return !b->cut || (x - b->x) * b->hx + (y - b->y) * b->hy >= -BACK;
}

/* The pip places of count n (variant: 6:6's red column) in end e's square,
 * turned by t: px coordinates of the card; colour per place. */
static int places(int n, int t, int e, int heaven, float (*at)[2], int *red)
{
    float y0 = (e ? 57.0f : 3.0f) / 82 * H, y1 = (e ? 79.0f : 25.0f) / 82 * H;
    int m = (n == 1 || n == 5) ? 0 : n;
    for (int i = 0; i < m; i++) {
        float lx = domino_layout[n][i][0], ly = domino_layout[n][i][1];
        if (t & 1)
            lx = 1 - lx;
        if (t & 2)
            ly = 1 - ly;
        at[i][0] = (2 + lx * 22) / 26 * W;
        at[i][1] = y0 + ly * (y1 - y0);
        red[i] = n == 4 || (heaven && domino_layout[n][i][0] < 0.5f);
    }
    return m;
}

/* True if the place of radius r at (x, y) is bare paper: its middle and
 * at least 7 of 13 samples on it show (vis), and each that shows is bare.
 * A pip there would be ink at its middle, so half a place seen bare is
 * none (a place partly under the card on it is judged by what shows).
 * Samples within r of the pips seen at other places (pip[0..npip)) are
 * not looked at: that ink is theirs (a two's corner pip beside a three's
 * middle place when the strip lies a few px off). */
static int bare_place(const uint8_t *vis, const uint8_t *bare, float x, float y, float r,
                      const float (*pip)[2], int npip)
{
    static const float CS[12][2] = {{1, 0},      {0.866f, 0.5f},  {0.5f, 0.866f},  {0, 1},
                                    {-0.5f, 0.866f}, {-0.866f, 0.5f}, {-1, 0},   {-0.866f, -0.5f},
                                    {-0.5f, -0.866f}, {0, -1},   {0.5f, -0.866f}, {0.866f, -0.5f}};
    int shown = 0;
    for (int k = -1; k < 12; k++) {
        float px = x, py = y;
        if (k >= 0) {
            px += r * CS[k][0];
            py += r * CS[k][1];
        }
        int ix = (int)lrintf(px), iy = (int)lrintf(py);
        int i = iy * W + ix, in = ix >= 0 && iy >= 0 && ix < W && iy < H;
        for (int j = 0; j < npip && in; j++)
            in = hypotf(px - pip[j][0], py - pip[j][1]) >= r;
        if (!in || !vis[i]) {
            if (k < 0)
                return 0;
            continue;
        }
        if (!bare[i])
            return 0;
        shown++;
    }
    return shown >= 7;
}

/* True if blob b is about as wide as high: a pip seen whole, not a
 * segment of a one's large disc cut by the card lying on it (of a pip's
 * area, but long along the cut). */
static int round_blob(const sblob *b)
{
    return 2 * b->bw <= 3 * b->bh && 2 * b->bh <= 3 * b->bw;
}

/* True if blob b's middle lies on the disc of a one at end e (within a
 * quarter of the square of its middle; a four's pips lie a third off). */
static int on_disc(const sblob *b, int e)
{
    float cy = ((e ? 57.0f : 3.0f) + (e ? 79.0f : 25.0f)) / 2 / 82 * H;
    return hypotf(b->x - W / 2.0f, b->y - cy) <= 0.25f * 22.0f / 26 * W;
}

/* True if count n (heaven: 6:6's colours) explains end e: every pip seen
 * on one of its places in its colour, every place seen bare (bare_place;
 * bare: shown and as bright as the paper, a pip too faint or dim to be
 * ink is not bare) holding one. *seen counts the places matched by whole
 * pips within sure px of them (a pip further off fits, but is no
 * evidence). */
static int explains(int n, int heaven, int e, const sblob *b, int nb, const uint8_t *vis,
                    const uint8_t *bare, float sure, int *seen)
{
    float y0 = (e ? 57.0f : 3.0f) / 82 * H, y1 = (e ? 79.0f : 25.0f) / 82 * H;
    float cx = W / 2.0f, cy = (y0 + y1) / 2, sq = 22.0f / 26 * W;
    const float PIP_R = 7, TOL = 10;
    *seen = 0;
    if (n == 1) {
        /* one red disc on the middle, a thin ring round it */
        int core = 0;
        for (int i = 0; i < nb; i++) {
            if (b[i].area < 40 && b[i].thin)
                continue;
            if (hypotf(b[i].x - cx, b[i].y - cy) > 0.35f * sq)
                return 0;
            if (b[i].area >= 40 && !b[i].red)
                return 0;
            /* (no taller than the disc: two fours' pips joined by a
             * shadow along the card on them are not a one) */
            if (b[i].red && b[i].area >= (b[i].cut ? 100 : 250) &&
                (b[i].bh <= 0.5f * sq || (round_blob(&b[i]) && b[i].bh <= 0.6f * sq)))
                core = 1;
            /* the parts of one disc lie within its width (0.42 of the
             * square) of one another: two red pips further apart are a
             * four's */
            for (int j = 0; j < i; j++)
                if (b[i].red && b[j].red && b[i].area >= 40 && b[j].area >= 40 &&
                    hypotf(b[i].x - b[j].x, b[i].y - b[j].y) > 0.42f * sq)
                    return 0;
        }
        if (bare_place(vis, bare, cx, cy, 6, NULL, 0) && !core)
            return 0;
        /* the edge of a red disc alone is not seen to be a one: a four's
         * red pip cut by a card lying on it looks the same */
        *seen = core;
        return 1;
    }
    if (n == 5) {
        /* the Hong Kong five: one black clover on the middle; a pip seen
         * whole is never a part of it */
        int core = 0;
        for (int i = 0; i < nb; i++) {
            if (b[i].area < 40 && b[i].thin)
                continue;
            if (b[i].red && b[i].area >= 40)
                return 0;
            float dx = fabsf(b[i].x - cx), dy = fabsf(b[i].y - cy);
            if (dx > 0.42f * sq || dy > 0.42f * sq)
                return 0;
            /* a clover's corner disc may show apart from its middle, but
             * never on the middle row or column (a six's, a three's) */
            if (!b[i].cut && b[i].area <= 330 && b[i].area >= 40 &&
                (dx < 0.12f * sq || dy < 0.12f * sq))
                return 0;
            if (!b[i].cut && b[i].area > 330 && hypotf(dx, dy) > 0.15f * sq)
                return 0;
            /* nor a part of one, cut or not, on the middle row beside the
             * middle (a six's column), on a covered card's own quad (a
             * strip's place is searched: off by a few px) */
            if (isfinite(sure) && b[i].area >= 40 && !b[i].thin && dy < 0.06f * sq &&
                dx >= 0.2f * sq)
                return 0;
            /* (not a thin blob: a six's column of pips run together with
             * the shadow of the card lying on them is no clover's part; a
             * cut part larger than the card's pips, not merely as large as
             * one: a pip run together with that shadow is as large; and
             * larger than a pip of 2-4 prints (to 190 px, blurred: with no
             * whole black pip seen to compare) with its middle within 0.35
             * of the square of the clover's, where a part as large lies) */
            if ((b[i].cut ? b[i].big && b[i].area >= 200 && hypotf(dx, dy) <= 0.35f * sq
                          : b[i].area >= 330) &&
                !b[i].thin)
                core = 1;
        }
        if (bare_place(vis, bare, cx, cy, 6, NULL, 0) && !core)
            return 0;
        *seen = core;
        return 1;
    }
    int nred = 0;
    for (int i = 0; i < nb; i++)
        nred += b[i].red && !b[i].thin;
    for (int t = 0; t < 4; t++) {
        float at[6][2];
        int red[6], used[6] = {0}, nseen = 0;
        float seen_at[6][2]; /* the pips matched to places */
        int m = places(n, t, e, heaven, at, red), ok = 1, got = 0;
        for (int i = 0; i < nb && ok; i++) {
            if (b[i].area < 40 && b[i].thin)
                continue; /* a sliver of an outline or a shadow, as for 1 and 5 */
            if (b[i].big || b[i].area > 330 || (b[i].thin && b[i].area >= 40))
                ok = 0; /* a disc, a clover or a ring no pip is */
            /* the nearest free place in reach (a cut part's middle lies
             * off its pip's: it reaches further, and may reach a
             * neighbouring place too) */
            int hit = -1, part = b[i].cut || b[i].area < 40;
            float best = part ? PIP_R + TOL : TOL;
            for (int j = 0; j < m; j++) {
                float d = hypotf(b[i].x - at[j][0], b[i].y - at[j][1]);
                if (d <= best && !used[j] && cut_faces(&b[i], at[j][0], at[j][1])) {
                    hit = j;
                    best = d;
                }
            }
            if (hit < 0) {
                ok = 0;
                break;
            }
            if (b[i].area >= 40 && b[i].red != red[hit])
                ok = 0;
            used[hit] = 1;
            seen_at[nseen][0] = b[i].x;
            seen_at[nseen++][1] = b[i].y;
            /* (two red parts, off a one's disc, are a four's or 6:6's: a
             * red pip's part is evidence of them, cut or not; one part
             * alone may be the edge of a one's disc, cut by the card on
             * it, which never leaves two) */
            got += (!b[i].cut ||
                    (red[hit] && b[i].red && !b[i].thin && nred >= 2 && !on_disc(&b[i], e))) &&
                   b[i].area >= 60 && best <= sure;
        }
        for (int j = 0; j < m && ok; j++)
            if (!used[j] && bare_place(vis, bare, at[j][0], at[j][1], PIP_R, seen_at, nseen))
                ok = 0;
        if (ok) {
            *seen = got;
            return 1;
        }
    }
    return 0;
}

/* True if the whole black pips seen at end e could be the Hong Kong five's
 * corner discs with its middle hidden: each about a fifth of the square
 * from the middle row (give or take a placement's error), and two in a
 * column as far apart as the corners and about the middle row. A six's
 * column shows a pip on the middle row or a third pip, or pips spaced
 * otherwise; two of its pips alone are only told from the corners by a
 * few px. */
static int clover_corners(const sblob *b, int nb, int e)
{
    const float SHIFT = 6, PAIR = 4; /* px: a placement's error, along */
    float y0 = (e ? 57.0f : 3.0f) / 82 * H, y1 = (e ? 79.0f : 25.0f) / 82 * H;
    float cx = W / 2.0f, cy = (y0 + y1) / 2, ky = 0.2f * (y1 - y0);
    float col[2][2];
    int ncol[2] = {0, 0};
    for (int i = 0; i < nb; i++) {
        if (b[i].cut || b[i].red || b[i].thin || b[i].area < 60 || b[i].area > 330)
            continue;
        if (fabsf(fabsf(b[i].y - cy) - ky) > SHIFT)
            return 0;
        int s = b[i].x > cx;
        if (ncol[s] == 2)
            return 0; /* a clover has two corners a side */
        col[s][ncol[s]++] = b[i].y;
    }
    for (int s = 0; s < 2; s++)
        if (ncol[s] == 2 && (fabsf((col[s][0] + col[s][1]) / 2 - cy) > PAIR ||
                             fabsf(fabsf(col[s][0] - col[s][1]) - 2 * ky) > PAIR))
            return 0;
    return 1;
}

/* The count a column of black pips b[0..nb) shows where it can be a six's
 * column or the five's clover corners (the rest of the end hidden, as at
 * the end of a fan's strip near the hand's pivot): 6 for three in it, or
 * two as far apart as a six's neighbours (0.34 of the square, whose parts
 * cut along the column keep their spacing), 5 for two as far apart as the
 * corners (0.4); 0 for anything else or in between. */
static int column_count(const sblob *b, int nb)
{
    const float SQ = (79.0f - 57.0f) / 82 * H, COL = 5; /* px: one column */
    float y[3], x0 = 0;
    int n = 0, small = 0;
    for (int i = 0; i < nb; i++) {
        if (b[i].area < 40 && b[i].thin)
            continue; /* a sliver, as explains() takes it */
        if (b[i].red || n == 3 || (n && fabsf(b[i].x - x0) > COL))
            return 0;
        x0 = n ? x0 : b[i].x;
        small += b[i].area < 20;
        y[n++] = b[i].y;
    }
    ts_sort_floats(y, (size_t)n);
    int six[2] = {0, 0};
    for (int i = 1; i < n; i++)
        six[i - 1] = y[i] - y[i - 1] >= 0.29f * SQ && y[i] - y[i - 1] <= 0.36f * SQ;
    if (n == 3)
        return six[0] && six[1] ? 6 : 0;
    if (n != 2 || small)
        return 0;
    if (six[0])
        return 6;
    return y[1] - y[0] >= 0.375f * SQ && y[1] - y[0] <= 0.45f * SQ ? 5 : 0;
}

/* out: m grown by r px every way (a box; past the card's sides counts as
 * `edge`); r <= 4. */
static void grow(const uint8_t *m, int r, int edge, uint8_t *out)
{
    enum { R_MAX = 4 };
    uint8_t rows[W * H];
    for (int y = 0; y < H; y++) { /* across, then along: whole rows OR'd */
        uint8_t pad[W + 2 * R_MAX];
        memset(pad, edge, sizeof pad);
        memcpy(pad + r, m + y * W, W);
        uint8_t *o = rows + y * W;
        memcpy(o, pad, W);
        for (int k = 1; k <= 2 * r; k++)
            for (int x = 0; x < W; x++)
                o[x] |= pad[x + k];
    }
    for (int y = 0; y < H; y++) {
        int y0 = y < r ? 0 : y - r, y1 = y + r < H ? y + r : H - 1;
        uint8_t *o = out + y * W;
        memcpy(o, rows + y0 * W, W);
        for (int qy = y0 + 1; qy <= y1; qy++)
            for (int x = 0; x < W; x++)
                o[x] |= rows[qy * W + x];
    }
}

/* True if each end's paper that shows is clean: hardly a pixel of it,
 * away from ink (a pip's blurred rim) and from what does not show (near),
 * is dimmer than the paper. The shadow and rim of a card lying on this
 * one that the caller does not know of are (its pips would be read as
 * this card's). */
static int ends_clean(const ts_image *card, const uint8_t *vis, const uint8_t *ink,
                      const uint8_t *near, int paper)
{
    enum { MX = 5, MY = 6, DIM_MAX = 40 }; /* px an end, of ~3000 */
    uint8_t rim[W * H];
    grow(ink, 3, 0, rim);
    for (int e = 0; e < 2; e++) {
        int y0 = (int)((e ? 57.0f : 3.0f) / 82 * H), y1 = (int)((e ? 79.0f : 25.0f) / 82 * H);
        int dim = 0;
        for (int y = y0 < MY ? MY : y0; y <= y1 && y < H - MY; y++) {
            const uint8_t *p = ts_image_row(card, y);
            for (int x = MX; x < W - MX; x++) {
                int i = y * W + x;
                dim += vis[i] && !rim[i] && !near[i] && p[3 * x + 1] < paper * 85 / 100;
            }
        }
        if (dim > DIM_MAX)
            return 0;
    }
    return 1;
}

/* b->hx, hy: the way from cut blob b's middle to the mean of what does not
 * show (hid, card px) within HIDE_R of it; 0 if nothing is hidden there. */
static void hidden_way(const uint8_t *hid, sblob *b)
{
    enum { HIDE_R = 10 };
    b->hx = b->hy = 0;
    if (!b->cut)
        return;
    int cx = (int)lrintf(b->x), cy = (int)lrintf(b->y), n = 0;
    float sx = 0, sy = 0;
    for (int y = cy - HIDE_R; y <= cy + HIDE_R; y++)
        for (int x = cx - HIDE_R; x <= cx + HIDE_R; x++)
            if (x >= 0 && y >= 0 && x < W && y < H && hid[y * W + x]) {
                sx += (float)x - b->x;
                sy += (float)y - b->y;
                n++;
            }
    float len = hypotf(sx, sy);
    if (n && len > 1e-3f) {
        b->hx = sx / len;
        b->hy = sy / len;
    }
}

/* fit (an end's, as read_strip keeps it: 1 + its evidence) left with a
 * six (or 6:6's) and a five only, settled by the column of pips b[0..nb)
 * that shows: the count it shows (column_count) is the end's, seen. */
static void six_or_five(int fit[8], const sblob *b, int nb)
{
    for (int n = 1; n <= 4; n++)
        if (fit[n])
            return;
    if (!fit[5] || !(fit[6] || fit[7]))
        return;
    int c = column_count(b, nb);
    if (c == 6) {
        fit[5] = 0;
        if (fit[6] == 1)
            fit[6] = 2;
    } else if (c == 5) {
        fit[6] = fit[7] = 0;
        if (fit[5] == 1)
            fit[5] = 2;
    }
}

/* Reads a card whose visible pixels are vis (card px); clean: a covered
 * card on its own quad (its ends must show clean paper), else a fan's
 * strip on its searched place. Returns 1 and fills r when both ends are
 * fixed by what shows. */
static int read_strip(const ts_image *card, const uint8_t *vis, int clean, ts_reading *r)
{
    enum { MX = 5, MY = 6 };
    /* paper: a high percentile of green over what shows, white enough to
     * tell red from black */
    int hist[256] = {0}, total = 0;
    for (int y = MY; y < H - MY; y++) {
        const uint8_t *p = ts_image_row(card, y);
        for (int x = MX; x < W - MX; x++)
            if (vis[y * W + x]) {
                hist[p[3 * x + 1]]++;
                total++;
            }
    }
    if (total < W * H / 8)
        return 0;
    int paper = domino_paper_level(hist, total);
    if (paper < 60)
        return 0;
    double pr = 0, pg = 0, pb = 0;
    int pn = 0;
    uint8_t ink[W * H], bare[W * H];
    for (int y = 0; y < H; y++) {
        const uint8_t *p = ts_image_row(card, y);
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            ink[i] = vis[i] && x >= MX && x < W - MX && y >= MY && y < H - MY &&
                     p[3 * x + 1] < paper * 62 / 100;
            bare[i] = vis[i] && p[3 * x + 1] >= paper * 78 / 100;
            if (vis[i] && p[3 * x + 1] >= paper * 85 / 100) {
                pr += p[3 * x + 2];
                pg += p[3 * x + 1];
                pb += p[3 * x];
                pn++;
            }
        }
    }
    /* tinted paper or a warm light: red told from black by more red over
     * green (as domino_read_pips does); a light more coloured than that
     * leaves red and black not told apart */
    int tinted = pn && pr - pg > TINTED * pr;
    if (!pn || pr - pg > TINT_MAX * pr)
        return 0;
    double paper_grey = (pb + 2 * pg + pr) / (4.0 * pn);
    /* near: within 2 px of what does not show (a blob there is cut) */
    uint8_t hid[W * H], near[W * H];
    for (int i = 0; i < W * H; i++)
        hid[i] = !vis[i];
    grow(hid, 2, 0, near);
    if (clean && !ends_clean(card, vis, ink, near, paper))
        return 0;
    /* blobs per end */
    sblob bl[2][MAX_BLOBS];
    int nb[2] = {0, 0};
    uint8_t seen[W * H];
    int stack[W * H];
    memset(seen, 0, sizeof seen);
    for (int i0 = 0; i0 < W * H; i0++) {
        if (!ink[i0] || seen[i0])
            continue;
        int sp = 0, area = 0, cut = 0, x0 = W, x1 = 0, y0 = H, y1 = 0;
        double sx = 0, sy = 0, rg = 0, rs = 0, lift = 0, gb = 0, gs = 0;
        stack[sp++] = i0;
        seen[i0] = 1;
        while (sp) {
            int p = stack[--sp], px = p % W, py = p / W;
            const uint8_t *c = ts_image_row(card, py) + 3 * px;
            area++;
            sx += px;
            sy += py;
            rg += c[2] > c[1] ? c[2] - c[1] : 0;
            rs += c[2];
            int grey = (c[0] + 2 * c[1] + c[2]) >> 2;
            lift += (c[0] > c[1] ? c[0] : c[1]) - grey;
            gb += c[1] - c[0];
            gs += grey;
            x0 = px < x0 ? px : x0;
            x1 = px > x1 ? px : x1;
            y0 = py < y0 ? py : y0;
            y1 = py > y1 ? py : y1;
            static const int DX[4] = {1, -1, 0, 0}, DY[4] = {0, 0, 1, -1};
            for (int k = 0; k < 4; k++) {
                int qx = px + DX[k], qy = py + DY[k];
                if (qx < 0 || qy < 0 || qx >= W || qy >= H)
                    continue;
                int q = qy * W + qx;
                if (near[q])
                    cut = 1;
                if (ink[q] && !seen[q]) {
                    seen[q] = 1;
                    stack[sp++] = q;
                }
            }
        }
        if (area < 12)
            continue;
        float cy = (float)(sy / area);
        int e = cy < H / 2 ? 0 : 1;
        float ey0 = (e ? 57.0f : 3.0f) / 82 * H - 3, ey1 = (e ? 79.0f : 25.0f) / 82 * H + 3;
        if (cy < ey0 || cy > ey1)
            continue; /* between the ends: decks print pictures there */
        int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
        /* a rule across the card (an end's outline, a printed line): no
         * pip is long and thin */
        if (bw > 3 * bh)
            continue;
        if (nb[e] >= MAX_BLOBS)
            return 0;
        sblob *b = &bl[e][nb[e]++];
        b->x = (float)(sx / area);
        b->y = cy;
        b->area = area;
        b->cut = cut;
        b->bw = bw;
        b->bh = bh;
        b->red = domino_ink_red(rg, rs, area, tinted ? 0.35 : 0.25, pr / pn);
        /* a cloth's coloured spot: no deck prints such a pip */
        if (!b->red && area >= 40 && domino_ink_coloured(lift, gb, area, paper_grey - gs / area))
            return 0;
        b->thin = (double)area / (bw * bh) < 0.35 || bw > 4 * bh || bh > 4 * bw;
        hidden_way(hid, b);
        /* a pip seen whole is round */
        if (!cut && !b->red && (b->thin || bw > 2 * bh || bh > 2 * bw) && area >= 40) {
            return 0;
        }
    }
    /* a blob near what does not show is cut only if smaller than the
     * card's whole pips (a whole pip beside the card lying on it is whole) */
    {
        int areas[2 * MAX_BLOBS], na = 0;
        for (int e = 0; e < 2; e++)
            for (int i = 0; i < nb[e]; i++)
                if (!bl[e][i].cut && !bl[e][i].red && bl[e][i].area >= 60 && bl[e][i].area <= 330)
                    areas[na++] = bl[e][i].area;
        int typ = 130;
        if (na) {
            for (int i = 1; i < na; i++)
                for (int j = i; j > 0 && areas[j - 1] > areas[j]; j--) {
                    int t = areas[j];
                    areas[j] = areas[j - 1];
                    areas[j - 1] = t;
                }
            typ = areas[na / 2];
        }
        /* a four's red pips print larger than a six's black ones and
         * their red bleeds: up to 1.6 times, off the end's middle; red
         * on the middle is a one's disc (2.5-3.4 times), a part of it
         * never whole */
        for (int e = 0; e < 2; e++)
            for (int i = 0; i < nb[e]; i++) {
                float most = !bl[e][i].red ? 1.25f : on_disc(&bl[e][i], e) ? 0 : 1.6f;
                if (bl[e][i].cut && bl[e][i].area >= 0.8f * typ && bl[e][i].area <= most * typ &&
                    !bl[e][i].thin && round_blob(&bl[e][i]))
                    bl[e][i].cut = 0;
                bl[e][i].big = bl[e][i].area > (bl[e][i].cut ? 1.4f : fmaxf(most, 1.4f)) * typ;
            }
    }
    /* what each end can be: fit[e][n] (1 + its evidence), n 7 the six
     * of 6:6 (a column red) */
    int fit[2][8];
    memset(fit, 0, sizeof fit);
    /* evidence: on a covered card's own quad, whole pips near their
     * places; on a fan's strip (its place searched) any in reach */
    float sure = clean ? SURE : INFINITY;
    for (int e = 0; e < 2; e++) {
        for (int n = 1; n <= 7; n++) {
            int s;
            if (explains(n == 7 ? 6 : n, n == 7, e, bl[e], nb[e], vis, bare, sure, &s))
                fit[e][n] = 1 + s;
        }
    }
    /* a one or a five whose middle does not show is only not ruled out;
     * where whole pips on another count's places show at that end, they
     * are that count's (a strip's column of whole pips is no clover's
     * corner), but on a fan's strip (!clean: its place searched, off by a
     * few px along) a six's whole pips that could be the clover's corners
     * leave the five: a six's column and the corners differ by as little */
    for (int e = 0; e < 2; e++) {
        int other = 0, six = fit[e][6] > 1 || fit[e][7] > 1;
        for (int n = 2; n <= 4; n++)
            other |= fit[e][n] > 1;
        for (int n = 1; n <= 5 && (other || six); n += 4)
            if (fit[e][n] == 1 && (n == 1 || other || clean || !clover_corners(bl[e], nb[e], e)))
                fit[e][n] = 0;
        six_or_five(fit[e], bl[e], nb[e]);
    }
    /* the deck's cards the two ends allow: 6:6 has a red column at each
     * end, every other six none; one card only, seen at both ends */
    int pips[2] = {0, 0}, ncards = 0, evidence = 0;
    for (int a = 1; a <= 6; a++)
        for (int b2 = a; b2 <= 6; b2++) {
            int heaven = a == 6 && b2 == 6;
            int na = heaven ? 7 : a, nb2 = heaven ? 7 : b2;
            int f0 = fit[0][na] && fit[1][nb2], f1 = fit[0][nb2] && fit[1][na];
            if (!f0 && !f1)
                continue;
            ncards++;
            pips[0] = a;
            pips[1] = b2;
            evidence = f0 ? fit[0][na] > 1 && fit[1][nb2] > 1 : 0;
            if (f1)
                evidence |= fit[0][nb2] > 1 && fit[1][na] > 1;
        }
    /* 6:6 alone prints a six with a red column: one end seen so is the
     * card, whatever of the other shows */
    if (ncards == 1 && pips[0] == 6 && pips[1] == 6)
        evidence |= fit[0][7] > 1 || fit[1][7] > 1;
    if (ncards != 1 || !evidence)
        return 0;
    int idx = ts_domino_index(pips[0], pips[1]);
    if (idx < 0)
        return 0;
    memset(r, 0, sizeof *r);
    r->is_card = 1;
    r->code = (ts_code){TS_FAM_DOMINO, (uint8_t)idx};
    r->nattr = 2;
    r->attr_conf[0] = r->attr_conf[1] = 0.9f;
    r->conf = 0.81f;
    return 1;
}

/* The part of card c that shows, as a quad from its free long side. */
static void strip_quad(const ts_pt c[4], const uint8_t *vis, ts_quad *out)
{
    /* which long side shows: x = 0 (c[0]-c[3]) or x = W-1 */
    int left = vis[(H / 2) * W + 1] >= vis[(H / 2) * W + W - 2];
    float ext[2];
    for (int e = 0; e < 2; e++) {
        int y = e ? H - 8 : 7, k = 0;
        while (k < W && vis[y * W + (left ? k : W - 1 - k)])
            k++;
        ext[e] = (float)(k < 6 ? 6 : k) / W;
    }
    float u[4][2] = {{0, 0}, {ext[0], 0}, {ext[1], 1}, {0, 1}};
    for (int k = 0; k < 4; k++) {
        float s = left ? u[k][0] : 1 - u[k][0], t = u[k][1];
        out->q[k].x = (1 - s) * (1 - t) * c[0].x + s * (1 - t) * c[1].x + s * t * c[2].x +
                      (1 - s) * t * c[3].x;
        out->q[k].y = (1 - s) * (1 - t) * c[0].y + s * (1 - t) * c[1].y + s * t * c[2].y +
                      (1 - s) * t * c[3].y;
    }
    float a2 = 0;
    for (int i = 0; i < 4; i++)
        a2 += out->q[i].x * out->q[(i + 1) & 3].y - out->q[(i + 1) & 3].x * out->q[i].y;
    out->area = fabsf(a2) / 2;
    out->score = 0.5f;
    ts_quad_order(out->q);
}

/* Paper level of a card: the 75th percentile of grey over a grid on it. */
static float card_paper(const ts_image *f, const ts_pt q[4])
{
    float v[60];
    int n = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 15; j++) {
            float s = 0.15f + 0.7f * i / 3, t = 0.05f + 0.9f * j / 14;
            float x = (1 - s) * (1 - t) * q[0].x + s * (1 - t) * q[1].x + s * t * q[2].x +
                      (1 - s) * t * q[3].x;
            float y = (1 - s) * (1 - t) * q[0].y + s * (1 - t) * q[1].y + s * t * q[2].y +
                      (1 - s) * t * q[3].y;
            float g = grey_at(f, x, y);
            if (g >= 0)
                v[n++] = g;
        }
    if (n < 20)
        return -1;
    /* partial selection is not worth it for 60 values */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            float t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[n * 3 / 4];
}

/* True if cards a and b lie apart (edge to edge at most): no corner of
 * either more than 3 px inside the other. */
static int apart(const ts_pt a[4], const ts_pt b[4])
{
    for (int k = 0; k < 4; k++)
        if (depth_in(a, b[k].x, b[k].y) > 3 || depth_in(b, a[k].x, a[k].y) > 3)
            return 0;
    return 1;
}

/* The long sides of top (bit 0: q[0]-q[3], bit 1: q[1]-q[2]) with paper
 * beside them (a card under it), at a third of its width out, in at least
 * 2 of 5 places; paper of another card found whole, lying apart from it,
 * is a neighbour, not a card under it. */
static int paper_beside(const ts_image *f, const ts_pt q[4], float paper, const ts_quad *tops,
                        int ntops)
{
    int sides = 0;
    for (int side = 0; side < 2; side++) {
        ts_pt a = side ? q[1] : q[0], b = side ? q[2] : q[3];
        ts_pt o = side ? q[0] : q[1]; /* across */
        int n = 0;
        for (int i = 0; i < 5; i++) {
            float t = 0.1f + 0.2f * i;
            float x = a.x + t * (b.x - a.x) + (a.x - o.x) / 3;
            float y = a.y + t * (b.y - a.y) + (a.y - o.y) / 3;
            int other = 0;
            for (int k = 0; k < ntops && !other; k++)
                other = depth_in(tops[k].q, x, y) > 0 && apart(tops[k].q, q);
            if (other)
                continue;
            float g = grey_at(f, x, y);
            n += g >= 0.8f * paper;
        }
        if (n >= 2)
            sides |= 1 << side;
    }
    return sides;
}

/* Where pivot lies along card q's axis: centre + t (end to end). */
static float axis_t(const ts_pt q[4], ts_pt pivot)
{
    ts_pt ctr = {(q[0].x + q[2].x) / 2, (q[0].y + q[2].y) / 2};
    float ax = (q[3].x + q[2].x - q[0].x - q[1].x) / 2;
    float ay = (q[3].y + q[2].y - q[0].y - q[1].y) / 2;
    return ((pivot.x - ctr.x) * ax + (pivot.y - ctr.y) * ay) / (ax * ax + ay * ay);
}

/* The card under card on (covered by lines[0..ncov), lines[0] on's):
 * turned the way p was about the same point, give or take; else about
 * points off on's axis (up to 0.8 of its width: a slanted camera moves
 * the hand's pivot off the axes it draws, and a turn about a point on the
 * axis then slides the card along); else wider (a hand's cards are not
 * held about one exact point, and the first card's turn is measured on a
 * short strip). */
static int next_card(const ts_image *f, const ts_pt on[4], const qlines *lines, int ncov,
                     float paper, const placement *p, placement *next)
{
    const float DEG = (float)M_PI / 180;
    float t = axis_t(on, p->pivot);
    const turns near = {p->angle, 1.0f * DEG, 3, t, 0.05f, 2, 0, 0};
    const turns off = {p->angle, 1.0f * DEG, 3, t, 0.05f, 2, 0.4f, 2};
    const turns wide = {p->angle, 2.0f * DEG, 4, t, 0.15f, 6, 0, 0};
    return search(f, on, lines, ncov, paper, &near, 3, next) ||
           search(f, on, lines, ncov, paper, &off, 3, next) ||
           search(f, on, lines, ncov, paper, &wide, 3, next);
}

/* vis (card px): 1 where card c shows, in the frame (fw x fh) and more
 * than 3 px clear of the cards cov[0..n) lying on it. Row by row, each
 * card on it hides one run (it is convex). */
static void visible(const ts_pt c[4], const qlines *cov, int n, int fw, int fh, uint8_t *vis)
{
    for (int y = 0; y < H; y++) {
        float t = (y + 0.5f) / H;
        float lx = (1 - t) * c[0].x + t * c[3].x, ly = (1 - t) * c[0].y + t * c[3].y;
        float dx = (1 - t) * c[1].x + t * c[2].x - lx, dy = (1 - t) * c[1].y + t * c[2].y - ly;
        uint8_t *row = vis + y * W;
        for (int x = 0; x < W; x++) {
            float s = (x + 0.5f) / W, fx = lx + s * dx, fy = ly + s * dy;
            row[x] = (uint8_t)((fx >= 1) & (fy >= 1) & (fx < fw - 1) & (fy < fh - 1));
        }
        for (int i = 0; i < n; i++) {
            float lo = -1e9f, hi = 1e9f;
            for (int k = 0; k < 4 && lo < hi; k++) {
                float u = cov[i].a[k] * lx + cov[i].b[k] * ly + cov[i].c[k] + MARGIN;
                float v = cov[i].a[k] * dx + cov[i].b[k] * dy;
                if (fabsf(v) < 1e-9f) {
                    if (u <= 0)
                        hi = lo;
                } else if (v > 0) {
                    lo = fmaxf(lo, -u / v);
                } else {
                    hi = fminf(hi, -u / v);
                }
            }
            if (lo >= hi)
                continue;
            /* pixel x at s = (x + 0.5) / W: hidden for lo < s < hi */
            int x0 = (int)ceilf(fmaxf(lo, -1.0f) * W - 0.5f);
            int x1 = (int)floorf(fminf(hi, 2.0f) * W - 0.5f);
            x0 = x0 < 0 ? 0 : x0;
            x1 = x1 > W - 1 ? W - 1 : x1;
            for (int x = x0; x <= x1; x++)
                row[x] = 0;
        }
    }
}

int domino_fan_strips(const ts_image *frame, const ts_quad *tops, int ntops, ts_image *work,
                      domino_strip *out, int max, char *err)
{
    int nout = 0;
    uint8_t vis[W * H];
    const float DEG = (float)M_PI / 180;
    /* cards already placed: a top inside one is that card again */
    enum { DONE_MAX = 64 };
    ts_pt done[DONE_MAX][4];
    int ndone = 0;
    for (int ti = 0; ti < ntops && nout < max; ti++) {
        const ts_pt *top = tops[ti].q;
        float tx = (top[0].x + top[1].x + top[2].x + top[3].x) / 4;
        float ty = (top[0].y + top[1].y + top[2].y + top[3].y) / 4;
        int again = 0;
        for (int k = 0; k < ndone && !again; k++)
            again = depth_in(done[k], tx, ty) > 0;
        if (again)
            continue;
        if (ndone < DONE_MAX)
            memcpy(done[ndone++], top, sizeof done[0]);
        float paper = card_paper(frame, top);
        int sides = paper < 60 ? 0 : paper_beside(frame, top, paper, tops, ntops);
        if (!sides)
            continue;
        for (int sign = -1; sign <= 1; sign += 2) {
            ts_pt cover[CHAIN + 1][4];
            qlines lines[CHAIN + 1]; /* the card just on the next one first */
            memcpy(cover[0], top, sizeof cover[0]);
            quad_lines(top, &lines[0]);
            int ncov = 1;
            placement p;
            /* turned 2-30 degrees about a point on the axis, out to
             * beyond either end; failing that, on a grid twice as fine
             * (a first card under the top one whose strip is narrow) */
            const turns coarse = {sign * 16 * DEG, 1.5f * DEG, 9, 0, 0.15f, 8, 0, 0};
            const turns fine = {sign * 16 * DEG, 0.75f * DEG, 18, 0, 0.075f, 16, 0, 0};
            if (!search(frame, top, lines, 1, 0.75f * paper, &coarse, sides, &p) &&
                !search(frame, top, lines, 1, 0.75f * paper, &fine, sides, &p))
                continue;
            while (ncov <= CHAIN && nout < max) {
                /* finer, about the best coarse placement */
                const ts_pt *on = cover[ncov - 1];
                float t0 = axis_t(on, p.pivot);
                const turns about = {p.angle, 0.25f * DEG, 2, t0, 0.025f, 2, 0, 0};
                placement finer;
                if (search(frame, on, lines, ncov, 0.75f * paper, &about, 3, &finer))
                    p = finer;
                /* its ends where they show (a slanted camera draws the cards
                 * of a hand at different lengths) */
                for (int e = 0; e < 2; e++)
                    for (int k = 0; k < 2; k++) {
                        ts_pt *c = &p.c[e ? 3 - k : k];
                        c->x += p.shift[e].x;
                        c->y += p.shift[e].y;
                    }
                /* read it */
                if (tscv_warp_quad(frame, p.c, work, W, H, err) < 0)
                    return -1;
                visible(p.c, lines, ncov, frame->w, frame->h, vis);
                domino_strip *o = &out[nout];
                int ok = read_strip(work, vis, 0, &o->r);
                if (ok) {
                    strip_quad(p.c, vis, &o->q);
                    memcpy(o->card.q, p.c, sizeof o->card.q);
                    nout++;
                }
                if (ndone < DONE_MAX)
                    memcpy(done[ndone++], p.c, sizeof done[0]);
                if (ncov >= CHAIN + 1)
                    break;
                /* p lies on the next card now: first in the lines */
                memcpy(cover[ncov], p.c, sizeof cover[0]);
                memmove(&lines[1], &lines[0], (size_t)ncov * sizeof lines[0]);
                quad_lines(p.c, &lines[0]);
                ncov++;
                /* the next card under it: turned the same way about the
                 * same point, give or take */
                placement next;
                if (!next_card(frame, p.c, lines, ncov, 0.75f * paper, &p, &next))
                    break;
                p = next;
            }
        }
    }
    return nout;
}

/* True if card c shows its outline where nothing lies on it: along each
 * side, the samples clear of the cards cov[0..ncov) are mostly edges
 * (paper inside, darker beyond, give or take 4 px), and enough show. A
 * quad run on past the card's end or off its side (a light cloth, a
 * neighbour's paper) fails at that side. */
static int outline_shows(const ts_image *f, const ts_pt c[4], const qlines *cov, int ncov,
                         float paper)
{
    enum { N = 10 };
    ts_pt ctr = ts_quad_centre(c);
    int shown = 0, depth = paper_depth((ts_dist(c[0], c[1]) + ts_dist(c[2], c[3])) / 2);
    for (int k = 0; k < 4; k++) {
        ts_pt a = c[k], b = c[(k + 1) & 3];
        float lx = b.x - a.x, ly = b.y - a.y, len = hypotf(lx, ly);
        if (len < 8)
            return 0;
        float nx = ly / len, ny = -lx / len;
        if (nx * (a.x + lx / 2 - ctr.x) + ny * (a.y + ly / 2 - ctr.y) < 0)
            nx = -nx, ny = -ny;
        int n = 0, hits = 0;
        for (int i = 0; i < N; i++) {
            float t = 0.1f + 0.8f * (i + 0.5f) / N;
            ts_pt p = {a.x + t * lx, a.y + t * ly};
            if (covered(cov, ncov, p.x, p.y, 4) || grey_at(f, p.x + 6 * nx, p.y + 6 * ny) < 0)
                continue;
            n++;
            int hit = 0;
            for (int d = -4; d <= 4 && !hit; d += 2)
                hit = edge_at(f, (ts_pt){p.x + d * nx, p.y + d * ny}, nx, ny, paper, depth) > 0;
            hits += hit;
        }
        if (n >= 3 && hits < 0.7f * n)
            return 0;
        shown += n;
    }
    return shown >= 8;
}

int domino_read_covered(const ts_image *frame, const ts_pt c[4], const ts_quad *cov, int ncov,
                        const ts_image *card, ts_reading *r)
{
    enum { MAX_COV = 24 };
    qlines lines[MAX_COV];
    if (ncov > MAX_COV) /* what lies on it not all known: no reading */
        return 0;
    for (int i = 0; i < ncov; i++)
        quad_lines(cov[i].q, &lines[i]);
    float paper = card_paper(frame, c);
    if (paper < 60 || !outline_shows(frame, c, lines, ncov, 0.75f * paper))
        return 0;
    uint8_t vis[W * H];
    visible(c, lines, ncov, frame->w, frame->h, vis);
    return read_strip(card, vis, 1, r);
}
