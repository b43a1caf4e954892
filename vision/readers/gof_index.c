/* Gang of Four cards from their corner indices (see gof_index.h). */
#include "readers/gof_index.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cv/cvwrap.h"
#include "geom.h"
#include "readers/index_ink.h"

enum {
    WORK = 1280,       /* long side of the finest level (px): index numerals from 5 px */
    LEVELS = 2,        /* each half the size of the one before */
    MAX_GLYPHS = 4096, /* glyph-sized ones kept per level */
    MIN_EXT = 5,       /* numeral extent on a level (px) */
    MAX_EXT = 24,
    BLOCK = 25,        /* local mean window (px): a few glyphs wide */
    INK = 16,          /* how much darker than the local mean ink is */
    MAX_PAIRS = 8192,  /* numeral-symbol pairs gathered per frame */
    BEST_PAIRS = 512,  /* ... of which the clearest kept make cards */
    LOOK_PAIRS = 2048  /* ... looked at for them */
};

/* The geometry below is the rendered deck's (samples/render/faces_gof.c);
 * a printed deck whose index sits elsewhere gives cards a little off (the
 * edge snapping and the size check against the lone cards are all that
 * limit it: not measured on printed cards). */

/* The index on a card of 56 x 87 mm: the numeral's centre from the card's
 * top-left corner, and the step from it to the symbol's centre (the
 * numeral's half height, 2.6-3.5 mm, and a gap of about 3.2 mm). */
static const float CARD_W_MM = 56.0f, CARD_H_MM = 87.0f;
static const float NUM_X_MM = 7.0f, NUM_Y_MM = 7.0f, STEP_MM = 6.25f;

typedef struct {
    float cx, cy, ext;
    int area;
    int second; /* a part of a merged blob's second split (split_merged) */
} glyph;

typedef struct {
    ts_pt num, sym; /* frame pixels */
    float margin;
    int second; /* of a second split's part: after every other pair */
} pair;

static int by_x(const void *a, const void *b)
{
    const glyph *x = a, *y = b;
    return (x->cx > y->cx) - (x->cx < y->cx);
}

/* The first of the glyphs (sorted by x) at or right of x. */
static int first_at(const glyph *gl, int n, float x)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (gl[mid].cx < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One part of a merged blob: the pixels of label lab in its box whose
 * place along the axis (ux, uy) from (mx, my) lies in [lo, hi). */
static int blob_part(const ts_index_ink *ix, const tscv_blob *b, int lab, float mx, float my,
                     float ux, float uy, float lo, float hi, glyph *g)
{
    int w = ix->grey.w, n = 0, x0 = b->x + b->w, y0 = b->y + b->h, x1 = -1, y1 = -1;
    float sx = 0, sy = 0;
    for (int y = b->y; y < b->y + b->h; y++)
        for (int x = b->x; x < b->x + b->w; x++) {
            float t = (x - mx) * ux + (y - my) * uy;
            if (ix->labels[(size_t)y * w + x] != lab || t < lo || t >= hi)
                continue;
            sx += x, sy += y, n++;
            x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
        }
    if (!n)
        return 0;
    int ext = x1 - x0 > y1 - y0 ? x1 - x0 + 1 : y1 - y0 + 1;
    *g = (glyph){sx / n, sy / n, (float)ext, n, 0};
    return 1;
}

/* Whether hist[best] is a neck between hist[lo..best) and (best..hi]:
 * however thick, the symbol is about as wide as its join to the numeral
 * (68000-68039 piles: a neck under half the smaller part's width read 3
 * fewer cards). */
static int is_neck(const int *hist, int lo, int hi, int best)
{
    int left = 0, right = 0;
    for (int t = lo; t < best; t++)
        left = hist[t] > left ? hist[t] : left;
    for (int t = best + 1; t <= hi; t++)
        right = hist[t] > right ? hist[t] : right;
    return 4 * hist[best] <= 3 * (left > right ? left : right);
}

/* The blob cut across its axis at cut into the numeral and the smaller
 * symbol (out[0], out[1]); 0 when a part is empty. */
static int split_at(const ts_index_ink *ix, const tscv_blob *b, int lab, float mx, float my,
                    float ux, float uy, float cut, glyph out[2])
{
    glyph g[2];
    if (!blob_part(ix, b, lab, mx, my, ux, uy, -1e9f, cut, &g[0]) ||
        !blob_part(ix, b, lab, mx, my, ux, uy, cut + 1, 1e9f, &g[1]))
        return 0;
    int big = g[1].area > g[0].area;
    out[0] = g[big], out[1] = g[!big];
    return 1;
}

/* A merged blob at least this long (px along its axis) is cut a second
 * time (split_merged). */
enum { SECOND_LEN = 16 };

/* A numeral and its symbol merged into one blob (a large or blurred index:
 * their gap is 1.5 mm, two or three pixels), split at the narrowest place
 * along its long axis into the numeral and the smaller symbol (out[0],
 * out[1]), and again at the narrowest place near the other end (out[2],
 * out[3]) when that is another neck. Returns the glyphs (0, 2 or 4): 0
 * when the blob is not elongated or has no clear neck in the part where
 * the symbol would end. */
static int split_merged(const ts_index_ink *ix, const tscv_blob *b, int lab, glyph out[4])
{
    enum { MAX_LEN = 3 * MAX_EXT }; /* the diagonal of a blob 2 MAX_EXT wide */
    int w = ix->grey.w, n = 0;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int y = b->y; y < b->y + b->h; y++)
        for (int x = b->x; x < b->x + b->w; x++)
            if (ix->labels[(size_t)y * w + x] == lab)
                sx += x, sy += y, sxx += (double)x * x, syy += (double)y * y,
                    sxy += (double)x * y, n++;
    if (n < 12)
        return 0;
    float mx = (float)(sx / n), my = (float)(sy / n);
    double cxx = sxx / n - (double)mx * mx, cyy = syy / n - (double)my * my,
           cxy = sxy / n - (double)mx * my;
    double tr = cxx + cyy, det = cxx * cyy - cxy * cxy, disc = sqrt(fmax(tr * tr / 4 - det, 0));
    double l1 = tr / 2 + disc, l2 = tr / 2 - disc;
    if (l1 < 4 * l2) /* at least twice as long as wide (numeral over symbol: 11 x 4 mm) */
        return 0;
    float th = 0.5f * atan2f((float)(2 * cxy), (float)(cxx - cyy));
    float ux = cosf(th), uy = sinf(th);
    /* pixels per step along the axis */
    int hist[MAX_LEN] = {0};
    float half = MAX_LEN / 2.0f;
    for (int y = b->y; y < b->y + b->h; y++)
        for (int x = b->x; x < b->x + b->w; x++)
            if (ix->labels[(size_t)y * w + x] == lab) {
                int t = (int)floorf((x - mx) * ux + (y - my) * uy + half);
                if (t >= 0 && t < MAX_LEN)
                    hist[t]++;
            }
    int lo = 0, hi = MAX_LEN - 1;
    while (lo < hi && !hist[lo])
        lo++;
    while (hi > lo && !hist[hi])
        hi--;
    int len = hi - lo + 1;
    if (len < 8)
        return 0;
    /* the symbol is a quarter to two fifths of the length, at either end:
     * the narrowest place on each side is a split (a 3's or an 8's waist
     * may be narrower than the gap to its symbol at the other end: 125017's
     * R3 top, its numeral cut in two and the pair read the wrong way) */
    int best[2];
    for (int end = 0; end < 2; end++) {
        best[end] = -1;
        for (int f = (len + 4) / 5; f <= (2 * len) / 5; f++) {
            int c = end ? hi - f : lo + f;
            if (best[end] < 0 || hist[c] < hist[best[end]])
                best[end] = c;
        }
    }
    /* the narrower first; the other after every other pair (by_margin),
     * on a blob long enough for two cuts to part different glyphs (on a
     * short one they are the first's a pixel off: 107036's R1 index made
     * a false R3) */
    int first = hist[best[1]] < hist[best[0]], got = 0;
    for (int k = 0; k < 2; k++) {
        int c = best[k ? !first : first];
        if ((k && (c == best[first] || len < SECOND_LEN)) || !is_neck(hist, lo, hi, c) ||
            !split_at(ix, b, lab, mx, my, ux, uy, c - half, out + got))
            continue;
        out[got].second = out[got + 1].second = k;
        got += 2;
    }
    return got;
}

/* Whether a glyph is a printed cloth's dot rather than a numeral: a
 * numeral is narrower than tall and of strokes, so it fills under 0.6 of
 * the square on its extent whichever way it turns (0.23-0.56 on 107001's
 * cards), where a dot fills 0.6-0.8 of it (a disc, 0.78; an ellipse when
 * the table is tilted). The dots pair with their neighbours by the
 * thousand (107001 scatter: 2161 pairs, the indices' after 1900 by
 * contrast). Below 7 px blur fills a numeral's strokes: it is kept. */
static int round_blob(const glyph *g)
{
    return g->ext >= 7 && 10 * g->area > 6 * g->ext * g->ext;
}

/* The numeral-symbol pairs of one level's nb glyph candidates, appended to
 * p (frame pixels). */
static int level_pairs(ts_index_ink *ix, int nb, glyph *gl, float back, pair *p, int np,
                       int max)
{
    int ng = 0;
    for (int i = 0; i < nb && ng < MAX_GLYPHS; i++) {
        const tscv_blob *b = &ix->blobs[i];
        int ext = b->w > b->h ? b->w : b->h;
        /* glyph-sized, a stroke figure rather than a line or a speck (label
         * i + 1: tscv_components) */
        if (ext > 2 * MAX_EXT || ext < 3 || b->area < 5 || b->w > 5 * b->h || b->h > 6 * b->w)
            continue;
        if (ext <= MAX_EXT)
            gl[ng++] = (glyph){b->cx, b->cy, (float)ext, b->area, 0};
        /* up to twice as large: a numeral and its symbol merged */
        glyph parts[4];
        int parts_n = ext >= MIN_EXT + 3 && ng + 4 <= MAX_GLYPHS ? split_merged(ix, b, i + 1, parts) : 0;
        for (int k = 0; k < parts_n; k += 2)
            if (parts[k].ext <= MAX_EXT)
                gl[ng++] = parts[k], gl[ng++] = parts[k + 1];
    }
    qsort(gl, (size_t)ng, sizeof *gl, by_x); /* pairs lie within a glyph or two in x */
    for (int i = 0; i < ng; i++) {
        const glyph *r = &gl[i];
        if (r->ext < MIN_EXT || round_blob(r))
            continue;
        /* a two-digit numeral (10) is two glyphs side by side: its centre
         * is between them (not a second split's part beside a first's
         * glyph: it would move the numeral of a pair that comes first) */
        float nx = r->cx, ny = r->cy;
        int from = first_at(gl, ng, r->cx - 1.6f * r->ext);
        for (int j = from; j < ng && gl[j].cx <= r->cx + 0.9f * r->ext; j++) {
            const glyph *t = &gl[j];
            if (j != i && t->second <= r->second && fabsf(t->ext - r->ext) < 0.2f * r->ext &&
                fabsf(t->cy - r->cy) < 0.25f * r->ext && fabsf(t->cx - r->cx) < 0.9f * r->ext &&
                fabsf(t->cx - r->cx) > 0.3f * r->ext) {
                nx = (r->cx + t->cx) / 2, ny = (r->cy + t->cy) / 2;
                break;
            }
        }
        for (int j = from; j < ng && gl[j].cx <= r->cx + 1.6f * r->ext; j++) {
            const glyph *s = &gl[j];
            /* the symbol: smaller than the numeral, about one numeral below */
            if (j == i || s->ext > 0.95f * r->ext || s->ext < 0.3f * r->ext ||
                2 * s->area > 3 * r->area)
                continue;
            float vx = s->cx - nx, vy = s->cy - ny, d = hypotf(vx, vy);
            if (d < 0.7f * r->ext || d > 1.6f * r->ext)
                continue;
            /* the card's stock left of the numeral and of the gap (ink is
             * bright in grey) */
            float ex = vy / d, ey = -vx / d;
            float m0 = 255 - ts_index_ink_grey(ix, nx - 0.6f * d * ex, ny - 0.6f * d * ey);
            float m1 = 255 - ts_index_ink_grey(ix, nx + 0.5f * vx - 0.6f * d * ex,
                                     ny + 0.5f * vy - 0.6f * d * ey);
            /* the numeral's ink about its centre: the centre of a 0, 6, 8
             * or 9 (or a 5 split from its symbol) is a hole */
            float ink = 255 - ts_index_ink_glyph(ix, r->cx, r->cy, r->ext);
            float margin = (m0 < m1 ? m0 : m1) - ink;
            if (margin < INK || np >= max)
                continue;
            p[np++] = (pair){{(nx + 0.5f) * back - 0.5f, (ny + 0.5f) * back - 0.5f},
                             {(s->cx + 0.5f) * back - 0.5f, (s->cy + 0.5f) * back - 0.5f},
                             margin, r->second || s->second};
        }
    }
    return np;
}

/* The first pair that implied a card, and whether of a second split. */
typedef struct {
    ts_pt first;
    int second;
} support;

static int by_margin(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->second != y->second)
        return x->second - y->second;
    return (x->margin < y->margin) - (x->margin > y->margin);
}

/* The card an index pair implies. */
static void card_of(const pair *p, ts_quad *q)
{
    float vx = p->sym.x - p->num.x, vy = p->sym.y - p->num.y, len = hypotf(vx, vy) + 1e-6f;
    float dx = vx / len, dy = vy / len; /* the card's down */
    float ex = dy, ey = -dx;            /* its right, for an index at the top-left */
    float u = len / STEP_MM;            /* px per mm */
    float ox = p->num.x - u * (NUM_X_MM * ex + NUM_Y_MM * dx);
    float oy = p->num.y - u * (NUM_X_MM * ey + NUM_Y_MM * dy);
    float a = u * CARD_W_MM, b = u * CARD_H_MM;
    q->q[0] = (ts_pt){ox, oy};
    q->q[1] = (ts_pt){ox + a * ex, oy + a * ey};
    q->q[2] = (ts_pt){ox + a * ex + b * dx, oy + a * ey + b * dy};
    q->q[3] = (ts_pt){ox + b * dx, oy + b * dy};
    q->score = p->margin;
    q->area = a * b;
}

/* The same card from its other corner or another level: centres close and
 * sides alike. */
static int same_card(const ts_quad *a, const ts_quad *b)
{
    ts_pt ca = {0, 0}, cb = {0, 0};
    for (int k = 0; k < 4; k++)
        ca.x += a->q[k].x / 4, ca.y += a->q[k].y / 4, cb.x += b->q[k].x / 4, cb.y += b->q[k].y / 4;
    float sa = ts_dist(a->q[0], a->q[1]), sb = ts_dist(b->q[0], b->q[1]);
    return ts_dist(ca, cb) < 0.25f * sa && fabsf(sa - sb) < 0.25f * sa;
}

int ts_gof_index_cards(ts_index_ink *ix, const ts_image *full, const int roi[4],
                       ts_gof_index_keep keep, void *ctx, ts_quad *out, int max, char *err)
{
    int ox = roi ? roi[0] : 0, oy = roi ? roi[1] : 0;
    ts_image view = roi ? ts_image_roi(full, roi[0], roi[1], roi[2], roi[3]) : *full;
    const ts_image *frame = &view;
    glyph *gl = malloc(sizeof *gl * MAX_GLYPHS);
    pair *p = malloc(sizeof *p * MAX_PAIRS);
    if (!gl || !p) {
        free(gl);
        free(p);
        snprintf(err, TSCV_ERR_MAX, "gof index: out of memory");
        return -1;
    }
    int np = 0, n = 0;
    /* levels by the whole frame's size: glyphs are as large in a part */
    float k = (float)WORK / (full->w > full->h ? full->w : full->h);
    if (k > 1)
        k = 1;
    for (int lv = 0; lv < LEVELS; lv++, k /= 2) {
        int w = (int)lroundf(frame->w * k), h = (int)lroundf(frame->h * k);
        if (w < 2 * BLOCK || h < 2 * BLOCK)
            break;
        int nb = ts_index_ink_level(ix, frame, w, h, BLOCK, INK, err);
        if (nb < 0) {
            free(gl);
            free(p);
            return -1;
        }
        np = level_pairs(ix, nb, gl, (float)frame->w / w, p, np, MAX_PAIRS);
    }
    qsort(p, (size_t)np, sizeof *p, by_margin);
    /* a grained or speckled table pairs its specks by the thousand, all
     * fainter than print: the clearest BEST_PAIRS make cards. A printed
     * cloth's dots pair too, each contrasting more than a yellow index on
     * the stock (107001 row: 1462 pairs, the dots' clearest 512 above 106
     * grey levels, the cards' indices 40-80): a pair whose card keep
     * refuses (not on stock) takes no place among them. */
    np = np < LOOK_PAIRS ? np : LOOK_PAIRS;
    /* one card per place; the pairs that imply it (its two corners, two
     * levels) are its support */
    support *sp = malloc(sizeof *sp * (size_t)(max > 0 ? max : 1));
    if (!sp) {
        free(gl);
        free(p);
        snprintf(err, TSCV_ERR_MAX, "gof index: out of memory");
        return -1;
    }
    for (int i = 0, used = 0; i < np && used < BEST_PAIRS; i++) {
        ts_quad q;
        p[i].num.x += ox, p[i].num.y += oy, p[i].sym.x += ox, p[i].sym.y += oy;
        card_of(&p[i], &q);
        int dup = 0;
        for (int j = 0; j < n && !dup; j++)
            if (same_card(&out[j], &q)) {
                dup = 1;
                /* the card's other corner (not the same index on another
                 * level) confirms it; a second split's pair only a card
                 * of its kind (its cut numeral may lie near a true card) */
                if (out[j].score < 2 && p[i].second <= sp[j].second &&
                    ts_dist(sp[j].first, p[i].num) > 0.5f * ts_dist(q.q[0], q.q[1]))
                    out[j].score += 1;
            }
        if (!dup && keep && !keep(&q, ctx))
            continue;
        used++;
        if (!dup && n < max) {
            q.score = 1 + q.score / 1000;
            sp[n] = (support){p[i].num, p[i].second};
            out[n++] = q;
        }
    }
    /* a card of second splits only where both its indices show: one such
     * index may be a numeral cut at its waist, its card a corner off (a 6
     * read G1 at 0.996 on 127014, a 3 read R1 on 127021); and offered with
     * the one-index cards, last (gof_find.c merge_index), not before the
     * outlines of a printed cloth's cards */
    int kept = 0;
    for (int j = 0; j < n; j++)
        if (!sp[j].second || out[j].score >= 2) {
            out[kept] = out[j];
            out[kept++].score -= sp[j].second;
        }
    n = kept;
    free(sp);
    free(gl);
    free(p);
    return n;
}
