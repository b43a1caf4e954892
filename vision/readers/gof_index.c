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
    MAX_PAIRS = 512    /* numeral-symbol pairs kept per frame */
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
} glyph;

typedef struct {
    ts_pt num, sym; /* frame pixels */
    float margin;
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

/* The numeral-symbol pairs of one level's nb glyph candidates, appended to
 * p (frame pixels). */
static int level_pairs(ts_index_ink *ix, int nb, glyph *gl, float back, pair *p, int np,
                       int max)
{
    int ng = 0;
    for (int i = 0; i < nb && ng < MAX_GLYPHS; i++) {
        const tscv_blob *b = &ix->blobs[i];
        int ext = b->w > b->h ? b->w : b->h;
        /* glyph-sized, a stroke figure rather than a line or a speck */
        if (ext > MAX_EXT || ext < 3 || b->area < 5 || b->w > 5 * b->h || b->h > 6 * b->w)
            continue;
        gl[ng++] = (glyph){b->cx, b->cy, (float)ext, b->area};
    }
    qsort(gl, (size_t)ng, sizeof *gl, by_x); /* pairs lie within a glyph or two in x */
    for (int i = 0; i < ng; i++) {
        const glyph *r = &gl[i];
        if (r->ext < MIN_EXT)
            continue;
        /* a two-digit numeral (10) is two glyphs side by side: its centre
         * is between them */
        float nx = r->cx, ny = r->cy;
        int from = first_at(gl, ng, r->cx - 1.6f * r->ext);
        for (int j = from; j < ng && gl[j].cx <= r->cx + 0.9f * r->ext; j++) {
            const glyph *t = &gl[j];
            if (j != i && fabsf(t->ext - r->ext) < 0.2f * r->ext &&
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
            float ink = 255 - ts_index_ink_grey(ix, r->cx, r->cy);
            float margin = (m0 < m1 ? m0 : m1) - ink;
            if (margin < INK || np >= max)
                continue;
            p[np++] = (pair){{(nx + 0.5f) * back - 0.5f, (ny + 0.5f) * back - 0.5f},
                             {(s->cx + 0.5f) * back - 0.5f, (s->cy + 0.5f) * back - 0.5f},
                             margin};
        }
    }
    return np;
}

static int by_margin(const void *a, const void *b)
{
    const pair *x = a, *y = b;
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

int ts_gof_index_cards(ts_index_ink *ix, const ts_image *full, const int roi[4], ts_quad *out,
                       int max, char *err)
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
    /* one card per place; the pairs that imply it (its two corners, two
     * levels) are its support */
    ts_pt *first = malloc(sizeof *first * (size_t)(max > 0 ? max : 1));
    if (!first) {
        free(gl);
        free(p);
        snprintf(err, TSCV_ERR_MAX, "gof index: out of memory");
        return -1;
    }
    for (int i = 0; i < np; i++) {
        ts_quad q;
        p[i].num.x += ox, p[i].num.y += oy, p[i].sym.x += ox, p[i].sym.y += oy;
        card_of(&p[i], &q);
        int dup = 0;
        for (int j = 0; j < n && !dup; j++)
            if (same_card(&out[j], &q)) {
                dup = 1;
                /* the card's other corner (not the same index on another
                 * level) confirms it */
                if (out[j].score < 2 && ts_dist(first[j], p[i].num) > 0.5f * ts_dist(q.q[0], q.q[1]))
                    out[j].score += 1;
            }
        if (!dup && n < max) {
            q.score = 1 + q.score / 1000;
            first[n] = p[i].num;
            out[n++] = q;
        }
    }
    free(first);
    free(gl);
    free(p);
    return n;
}
