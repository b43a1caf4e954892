/* SET cards edge to edge (see set_find.h). */
#include "readers/set_find.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "median.h"

enum { MAX_FOUND = 64, MAX_BLOBS = 16, MAX_SYMBOLS = 160, NRING = 24, MAX_INK_BLOBS = 4096 };

/* A candidate the detector found must read as the pipeline would take it; a
 * card guessed here must read more surely, as it was guessed. */
#define SEED_CONF 0.5f
#define GUESS_CONF 0.8f
/* The real cards (measured on the shared crops, as the renderer's faces):
 * 57 x 89 mm, symbols about 41 mm across, stacked 26 mm apart. */
#define CARD_W_PER_SYMBOL (57.0f / 41.0f)
#define CARD_H_PER_SYMBOL (89.0f / 41.0f)
#define PITCH_PER_SYMBOL (26.0f / 41.0f)
/* Ink: this much darker than the mean around it (grey levels), or below
 * this percentage of the brightest paper near it. */
#define INK_CONTRAST 24
#define INK_OF_PAPER 72

struct ts_set_finder {
    ts_detector *det;
    ts_image card;      /* a hypothesis, rectified */
    ts_image grey, ink; /* symbol search scratch */
    int *labels;        /* ink components, grey's size */
    size_t nlabels;
    tscv_blob *blobs;   /* MAX_INK_BLOBS */
    float min_area;     /* the detector's smallest candidate, share of the frame */
};

/* A guessed card smaller than this part of the detector's typical
 * candidate is none (see try_card). */
#define SMALL_GUESS 0.3f
/* Nor one under this many times the detector's smallest candidate (which
 * bounds the guess when the detector found too few to tell a card's size):
 * symbol-sized "cards" read from a playing card's pips on a webcam's table
 * (0.0009-0.0014 of the frame), where rendered SET cards guessed are 0.0074
 * of it or more. */
#define TINY_GUESS 2.0f

/* A card this finder has read: its quad, count, and paper level. */
typedef struct {
    ts_quad q;
    int count;
    float paper;
} found;

typedef struct {
    found c[MAX_FOUND];
    int n;
    int reads; /* hypotheses read this frame (bounded) */
    float card_area; /* the detector's typical candidate (0: too few to tell) */
} found_list;

/* An ink symbol: centre, unit long axis, long and short extent (frame px). */
typedef struct {
    ts_pt c;
    float ux, uy, len, wid;
} symbol;

ts_set_finder *ts_set_finder_create(float min_aspect, float max_aspect)
{
    ts_set_finder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    ts_detect_params dp;
    ts_detect_defaults(&dp);
    dp.min_aspect = min_aspect;
    dp.max_aspect = max_aspect;
    f->min_area = dp.min_area;
    f->det = ts_detector_create(&dp);
    f->blobs = malloc(sizeof *f->blobs * MAX_INK_BLOBS);
    if (!f->det || !f->blobs || ts_image_alloc(&f->card, TS_CARD_W, TS_CARD_H, 3) < 0) {
        ts_set_finder_destroy(f);
        return NULL;
    }
    return f;
}

void ts_set_finder_destroy(ts_set_finder *f)
{
    if (!f)
        return;
    ts_detector_destroy(f->det);
    ts_image_free(&f->card);
    ts_image_free(&f->grey);
    ts_image_free(&f->ink);
    free(f->labels);
    free(f->blobs);
    free(f);
}

/* ---- Geometry ------------------------------------------------------------ */

/* The projective map of the unit square onto a quad: (0,0) -> q[0],
 * (1,0) -> q[1], (1,1) -> q[2], (0,1) -> q[3] (Heckbert). u runs across the
 * card (its short side), v along it. */
typedef struct {
    double a, b, c, d, e, f, g, h;
} proj;

static proj square_to_quad(const ts_pt q[4])
{
    proj p;
    double x0 = q[0].x, x1 = q[1].x, x2 = q[2].x, x3 = q[3].x;
    double y0 = q[0].y, y1 = q[1].y, y2 = q[2].y, y3 = q[3].y;
    double sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
    double dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
    double den = dx1 * dy2 - dx2 * dy1;
    if ((fabs(sx) < 1e-9 && fabs(sy) < 1e-9) || fabs(den) < 1e-12) {
        p.g = p.h = 0;
    } else {
        p.g = (sx * dy2 - dx2 * sy) / den;
        p.h = (dx1 * sy - sx * dy1) / den;
    }
    p.a = x1 - x0 + p.g * x1;
    p.b = x3 - x0 + p.h * x3;
    p.c = x0;
    p.d = y1 - y0 + p.g * y1;
    p.e = y3 - y0 + p.h * y3;
    p.f = y0;
    return p;
}

/* Returns 0 and the image of (u, v), or -1 if it lies beyond the horizon. */
static int map(const proj *p, double u, double v, ts_pt *out)
{
    double w = p->g * u + p->h * v + 1;
    if (w < 0.2)
        return -1;
    out->x = (float)((p->a * u + p->b * v + p->c) / w);
    out->y = (float)((p->d * u + p->e * v + p->f) / w);
    return 0;
}

/* The card next to q across side `side` (0 top, 1 right, 2 bottom, 3 left),
 * the same size in the plane of the table. Returns 0, or -1 if it makes no
 * sensible quad. */
static int neighbour(const ts_quad *q, int side, ts_quad *out)
{
    static const int DU[4] = {0, 1, 0, -1}, DV[4] = {-1, 0, 1, 0};
    static const double U[4] = {0, 1, 1, 0}, V[4] = {0, 0, 1, 1};
    proj p = square_to_quad(q->q);
    for (int c = 0; c < 4; c++)
        if (map(&p, U[c] + DU[side], V[c] + DV[side], &out->q[c]) < 0)
            return -1;
    out->area = (float)ts_quad_area(out->q);
    out->score = q->score;
    return out->area > 0.5f * q->area && out->area < 2.0f * q->area ? 0 : -1;
}

/* Makes corners run clockwise on screen (y down), keeping q[0]-q[1] a short
 * side: the reader tells a squiggle from its mirror image. */
static void clockwise(ts_pt q[4])
{
    float cross = (q[1].x - q[0].x) * (q[2].y - q[1].y) - (q[1].y - q[0].y) * (q[2].x - q[1].x);
    if (cross < 0) {
        ts_pt a = q[0], b = q[1], c = q[2], d = q[3];
        q[0] = b, q[1] = a, q[2] = d, q[3] = c;
    }
}

/* ---- Paper ----------------------------------------------------------------- */

static int min_channel(const ts_image *im, float x, float y)
{
    int ix = (int)x, iy = (int)y;
    if (ix < 0 || iy < 0 || ix >= im->w || iy >= im->h)
        return -1;
    const uint8_t *p = ts_image_row(im, iy) + (size_t)ix * (size_t)im->channels;
    if (im->channels < 3)
        return p[0];
    int m = p[0] < p[1] ? p[0] : p[1];
    return p[2] < m ? p[2] : m;
}

/* Samples the margin of a card (where a SET card has no ink) into v; returns
 * how many fell inside the frame. */
static int margin_samples(const ts_image *frame, const ts_pt q[4], int v[NRING])
{
    proj p = square_to_quad(q);
    int n = 0;
    for (int i = 0; i < 6; i++) {
        double t = 0.12 + 0.76 * i / 5.0;
        const double uv[4][2] = {{0.07, t}, {0.93, t}, {t, 0.05}, {t, 0.95}};
        for (int k = 0; k < 4; k++) {
            ts_pt pt;
            int g;
            if (map(&p, uv[k][0], uv[k][1], &pt) == 0 && (g = min_channel(frame, pt.x, pt.y)) >= 0)
                v[n++] = g;
        }
    }
    return n;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static float paper_level(const ts_image *frame, const ts_pt q[4])
{
    int v[NRING];
    int n = margin_samples(frame, q, v);
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    return (float)v[n / 2];
}

/* A card next to one of paper level `paper` is worth reading only if its
 * margin is paper as well (not the table). */
static int mostly_paper(const ts_image *frame, const ts_pt q[4], float paper)
{
    int v[NRING];
    int n = margin_samples(frame, q, v), bright = 0;
    for (int i = 0; i < n; i++)
        bright += v[i] >= 0.72f * paper;
    return n >= NRING * 3 / 4 && bright >= n * 4 / 5;
}

/* ---- Reading hypotheses ------------------------------------------------- */

static int overlaps_found(const found_list *fl, const ts_quad *q)
{
    for (int i = 0; i < fl->n; i++)
        if (ts_quad_overlap(&fl->c[i].q, q))
            return 1;
    return 0;
}

/* The card a symbol would sit on, `off` pitches along the card from it. */
static void card_around(const symbol *s, float off, ts_quad *q)
{
    float hw = 0.5f * CARD_W_PER_SYMBOL * s->len, hh = 0.5f * CARD_H_PER_SYMBOL * s->len;
    float vx = -s->uy, vy = s->ux; /* along the card */
    float cx = s->c.x + off * PITCH_PER_SYMBOL * s->len * vx;
    float cy = s->c.y + off * PITCH_PER_SYMBOL * s->len * vy;
    q->q[0] = (ts_pt){cx - hw * s->ux - hh * vx, cy - hw * s->uy - hh * vy};
    q->q[1] = (ts_pt){cx + hw * s->ux - hh * vx, cy + hw * s->uy - hh * vy};
    q->q[2] = (ts_pt){cx + hw * s->ux + hh * vx, cy + hw * s->uy + hh * vy};
    q->q[3] = (ts_pt){cx - hw * s->ux + hh * vx, cy - hw * s->uy + hh * vy};
    clockwise(q->q);
    q->area = (float)ts_quad_area(q->q);
    q->score = 0.5f;
}

/* The symbols of one card inside quad q: the one nearest its centre and
 * those alike and in line with it along the card. Returns how many (into
 * idx, <= 8), and in *extra how many other symbols lie inside q (a quad
 * holding two cards' symbols is not one card). */
static int symbols_in(const symbol *sym, int nsym, const ts_pt q[4], int idx[8], int *extra)
{
    float cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4;
    float cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
    int in[MAX_SYMBOLS], nin = 0, best = -1;
    float bd = 1e30f;
    for (int i = 0; i < nsym; i++)
        if (ts_point_in_quad(q, sym[i].c.x, sym[i].c.y)) {
            float d = hypotf(sym[i].c.x - cx, sym[i].c.y - cy);
            if (d < bd)
                bd = d, best = i;
            in[nin++] = i;
        }
    *extra = 0;
    if (best < 0)
        return 0;
    const symbol *a = &sym[best];
    int n = 0;
    for (int k = 0; k < nin; k++) {
        const symbol *s = &sym[in[k]];
        float dx = s->c.x - a->c.x, dy = s->c.y - a->c.y;
        int alike = s->len > 0.8f * a->len && s->len < 1.25f * a->len &&
                    fabsf(dx * a->ux + dy * a->uy) < 0.3f * a->len &&
                    fabsf(s->ux * a->ux + s->uy * a->uy) > 0.9f;
        if (alike && n < 8)
            idx[n++] = in[k];
        else
            (*extra)++;
    }
    return n;
}

/* True if quad q is far larger than the card its symbols make: several
 * cards seen as one. */
static int bigger_than_symbols(const symbol *sym, int nsym, const ts_quad *q)
{
    float len[MAX_SYMBOLS];
    int n = 0;
    for (int i = 0; i < nsym; i++)
        if (ts_point_in_quad(q->q, sym[i].c.x, sym[i].c.y))
            len[n++] = sym[i].len;
    if (n == 0)
        return 0;
    ts_sort_floats(len, (size_t)n);
    float L = len[n / 2];
    return q->area > 1.7f * CARD_W_PER_SYMBOL * CARD_H_PER_SYMBOL * L * L;
}

/* True if a symbol in line with those of quad q, one pitch from one of
 * them, lies outside q: q cuts a card's symbols apart. */
static int cuts_symbols(const symbol *sym, int nsym, const ts_quad *q)
{
    int idx[8], extra;
    int n = symbols_in(sym, nsym, q->q, idx, &extra);
    if (n == 0)
        return 0;
    const symbol *a = &sym[idx[0]];
    float vx = -a->uy, vy = a->ux, pitch = PITCH_PER_SYMBOL * a->len;
    for (int j = 0; j < nsym; j++) {
        const symbol *s = &sym[j];
        if (ts_point_in_quad(q->q, s->c.x, s->c.y) || s->len < 0.8f * a->len ||
            s->len > 1.25f * a->len || fabsf(s->ux * a->ux + s->uy * a->uy) < 0.9f)
            continue;
        for (int k = 0; k < n; k++) {
            float dx = s->c.x - sym[idx[k]].c.x, dy = s->c.y - sym[idx[k]].c.y;
            float along = fabsf(dx * vx + dy * vy), across = fabsf(dx * a->ux + dy * a->uy);
            if (across < 0.3f * a->len && along > 0.8f * pitch && along < 1.2f * pitch)
                return 1;
        }
    }
    return 0;
}

/* Symbol length (mm) of each SET shape, the two decks' mean. */
static const float SHAPE_MM[3] = {42.5f, 41.0f, 39.5f};

/* The card that a group of symbols of a known shape makes: their centre,
 * their axis, and the size their length gives. */
static void card_of_group(const symbol *sym, const int *idx, int n, int shape, ts_quad *q)
{
    symbol g = sym[idx[0]];
    float sx = 0, sy = 0, sl = 0;
    for (int k = 0; k < n; k++) {
        sx += sym[idx[k]].c.x;
        sy += sym[idx[k]].c.y;
        sl += sym[idx[k]].len;
    }
    g.c = (ts_pt){sx / n, sy / n};
    g.len = sl / n * 41.0f / SHAPE_MM[shape];
    card_around(&g, 0, q);
}

/* Reads quad q into rd; returns 1 if it is an upright card, 0 if not, -1
 * on error. */
static int read_upright(ts_set_finder *f, const ts_set_read_with *r, const ts_image *frame,
                        const ts_quad *q, ts_set_reading *rd, char *err)
{
    if (tscv_warp_quad(frame, q->q, &f->card, TS_CARD_W, TS_CARD_H, err) < 0 ||
        r->fn(r->ctx, &f->card, rd, err) < 0)
        return -1;
    return rd->is_card && !rd->turned;
}

/* Reads quad q0; returns 1 and adds it to fl if it is an upright card read
 * above min_conf (with `count` symbols, unless count is 0) whose symbols
 * agree, 0 if not, -1 on error. A guessed quad (snap) holding all the
 * symbols it read, or more, and any quad holding more, is moved onto them
 * and read again: kept if the symbols then agree with the reading. */
static int try_card(ts_set_finder *f, const ts_set_read_with *r, const ts_image *frame,
                    const ts_quad *q0, float min_conf, int count, int snap, const symbol *sym,
                    int nsym, found_list *fl, char *err)
{
    if (fl->n >= MAX_FOUND)
        return 0;
    /* Cards on one table are one size: a guess far off the size of three or
     * more cards found is something else. */
    if (snap && fl->n >= 3) {
        float area[MAX_FOUND];
        for (int i = 0; i < fl->n; i++)
            area[i] = fl->c[i].q.area;
        ts_sort_floats(area, (size_t)fl->n);
        float typical = area[fl->n / 2];
        if (q0->area < 0.55f * typical || q0->area > 2.2f * typical)
            return 0;
    }
    /* Before, a guess far smaller than the detector's typical candidate (a
     * printed cloth's dot between two playing cards): that may be a fan's
     * strip or two cards as one, so only a third of it tells; or, with no
     * typical candidate, one far under the smallest the detector takes. */
    float tiny = TINY_GUESS * f->min_area * (float)frame->w * (float)frame->h;
    if (snap && fl->n < 3 && q0->area < fmaxf(SMALL_GUESS * fl->card_area, tiny))
        return 0;
    ts_quad q = *q0;
    ts_set_reading rd;
    int rc = read_upright(f, r, frame, &q, &rd, err);
    if (rc <= 0)
        return rc;
    int idx[8], extra;
    int ns = symbols_in(sym, nsym, q.q, idx, &extra);
    if ((snap && ns > 0 && ns >= rd.value[0] + 1) || ns > rd.value[0] + 1) {
        ts_quad moved;
        card_of_group(sym, idx, ns, rd.value[2], &moved);
        float shift = 0;
        for (int c = 0; c < 4; c++)
            shift = fmaxf(shift, ts_dist(moved.q[c], q.q[c]));
        ts_set_reading rd2;
        if (shift > 0.03f * ts_dist(q.q[0], q.q[1])) {
            int rc2 = read_upright(f, r, frame, &moved, &rd2, err);
            if (rc2 < 0)
                return -1;
            int idx2[8], extra2;
            if (rc2 == 1 && symbols_in(sym, nsym, moved.q, idx2, &extra2) == rd2.value[0] + 1) {
                q = moved;
                rd = rd2;
                ns = rd2.value[0] + 1;
                extra = extra2;
            }
        }
    }
    if (rd.conf_all < min_conf || (count && rd.value[0] + 1 != count))
        return 0;
    /* A guess must hold one card's symbols, all of them read; the
     * detector's quads are exact, only several cards as one are refused
     * (one that reads fewer symbols than it holds was moved above). */
    if (snap ? extra > 0 || ns > rd.value[0] + 1 : bigger_than_symbols(sym, nsym, &q))
        return 0;
    if (cuts_symbols(sym, nsym, &q))
        return 0;
    found *c = &fl->c[fl->n++];
    c->q = q;
    c->count = rd.value[0] + 1;
    c->paper = paper_level(frame, q.q);
    return 1;
}

/* Cards edge to edge: from each card found (those from index `from` on, and
 * the ones this adds), read the paper across each of its sides. */
static int grow(ts_set_finder *f, const ts_set_read_with *r, const ts_image *frame,
                const symbol *sym, int nsym, found_list *fl, int from, char *err)
{
    for (int i = from; i < fl->n; i++)
        for (int side = 0; side < 4 && fl->reads < 4 * MAX_FOUND; side++) {
            ts_quad h;
            if (neighbour(&fl->c[i].q, side, &h) < 0 ||
                !ts_quad_in_frame(h.q, frame->w, frame->h, 4) || overlaps_found(fl, &h) ||
                !mostly_paper(frame, h.q, fl->c[i].paper))
                continue;
            fl->reads++;
            if (try_card(f, r, frame, &h, GUESS_CONF, 0, 1, sym, nsym, fl, err) < 0)
                return -1;
        }
    return 0;
}

/* ---- Symbols ----------------------------------------------------------------- */

static int scratch(ts_image *img, int w, int h)
{
    if (img->buf && img->w == w && img->h == h)
        return 0;
    ts_image_free(img);
    return ts_image_alloc(img, w, h, 1);
}

/* Finds the ink symbols inside box b of the frame; returns how many (<= max)
 * or -1 with err. */
static int find_symbols(ts_set_finder *f, const ts_image *frame, const ts_box *b,
                        float card_area, symbol *sym, int max, char *err)
{
    /* Frame px per search px: a card about 70 search px across (symbols
     * about 50), or a guess from the frame's size when the cards' is not
     * known; never coarser than the detector's work image. */
    int side = frame->w > frame->h ? frame->w : frame->h;
    int step = card_area > 0 ? (int)lroundf(sqrtf(card_area / 1.56f) / 70.0f)
                             : (int)lroundf((float)side / 1040.0f);
    int coarsest = (int)lroundf((float)side / 520.0f);
    step = step > coarsest ? coarsest : step;
    step = step < 1 ? 1 : step;
    const int gw = (b->x1 - b->x0) / step, gh = (b->y1 - b->y0) / step;
    if (gw < 16 || gh < 16)
        return 0;
    if ((size_t)gw * gh > f->nlabels) {
        free(f->labels);
        f->nlabels = 0;
        if (!(f->labels = malloc(sizeof *f->labels * (size_t)gw * gh))) {
            snprintf(err, TSCV_ERR_MAX, "set find: out of memory");
            return -1;
        }
        f->nlabels = (size_t)gw * gh;
    }
    if (scratch(&f->grey, gw, gh) < 0 || scratch(&f->ink, gw, gh) < 0) {
        snprintf(err, TSCV_ERR_MAX, "set find: out of memory");
        return -1;
    }
    const int ch = frame->channels;
    for (int y = 0; y < gh; y++) { /* one sample per step, the darkest channel */
        const uint8_t *p = ts_image_row(frame, b->y0 + y * step + step / 2) +
                           (size_t)(b->x0 + step / 2) * (size_t)ch;
        uint8_t *o = ts_image_row(&f->grey, y);
        for (int x = 0; x < gw; x++, p += step * ch) {
            uint8_t m = p[0];
            if (ch >= 3) {
                m = p[1] < m ? p[1] : m;
                m = p[2] < m ? p[2] : m;
            }
            o[x] = m;
        }
    }
    /* Ink is darker than the mean around it, over a window of about a card
     * (a tenth of the frame; the sensor's noise averaged out first). */
    int block = side / step / 10;
    block = block < 15 ? 15 : block;
    if (tscv_blur(&f->grey, &f->grey, 1.0, err) < 0 ||
        tscv_adaptive(&f->grey, &f->ink, block, -INK_CONTRAST, err) < 0)
        return -1;
    /* Near the table's edge the mean is the table's too: ink is also what
     * is well below the brightest paper nearby (the maximum over cells, then
     * over the cells around, a window wider than a symbol is thick). */
    enum { CELL = 8, R = 3 };
    const int cw = (gw + CELL - 1) / CELL, chh = (gh + CELL - 1) / CELL;
    uint8_t *cmax = calloc((size_t)cw * chh * 2, 1);
    if (!cmax) {
        snprintf(err, TSCV_ERR_MAX, "set find: out of memory");
        return -1;
    }
    uint8_t *local = cmax + (size_t)cw * chh;
    for (int y = 0; y < gh; y++) {
        const uint8_t *g = ts_image_row(&f->grey, y);
        uint8_t *c = cmax + (size_t)(y / CELL) * cw;
        for (int x = 0; x < gw; x++)
            c[x / CELL] = g[x] > c[x / CELL] ? g[x] : c[x / CELL];
    }
    for (int cy = 0; cy < chh; cy++)
        for (int cx = 0; cx < cw; cx++) {
            int m = 0;
            for (int y = cy - R < 0 ? 0 : cy - R; y <= cy + R && y < chh; y++)
                for (int x = cx - R < 0 ? 0 : cx - R; x <= cx + R && x < cw; x++)
                    m = cmax[(size_t)y * cw + x] > m ? cmax[(size_t)y * cw + x] : m;
            local[(size_t)cy * cw + cx] = (uint8_t)m;
        }
    for (int y = 0; y < gh; y++) {
        const uint8_t *g = ts_image_row(&f->grey, y);
        const uint8_t *l = local + (size_t)(y / CELL) * cw;
        uint8_t *o = ts_image_row(&f->ink, y);
        for (int x = 0; x < gw; x++)
            o[x] = !o[x] || g[x] * 100 < l[x / CELL] * INK_OF_PAPER ? 255 : 0;
    }
    free(cmax);
    /* Dotted and broken outlines close up. */
    if (tscv_morph(&f->ink, &f->ink, 'c', 1, err) < 0)
        return -1;
    /* The table, seams and whatever the box cuts reach its border, or are
     * larger than symbols: what is left lies on paper. */
    /* A symbol is under three quarters of a card across, and a card under
     * a third of the frame (a card filling it is read whole). */
    int maxsym = (gw > gh ? gw : gh) / 2;
    int fside = (frame->w < frame->h ? frame->w : frame->h) / step / 3;
    maxsym = fside < maxsym ? fside : maxsym;
    int nblob = tscv_components(&f->ink, f->labels, f->blobs, MAX_INK_BLOBS, err);
    if (nblob < 0)
        return -1;
    for (int y = 0; y < gh; y++) {
        uint8_t *o = ts_image_row(&f->ink, y);
        const int *l = f->labels + (size_t)y * gw;
        for (int x = 0; x < gw; x++) {
            if (!o[x] || l[x] < 1 || l[x] > nblob)
                continue;
            const tscv_blob *bl = &f->blobs[l[x] - 1];
            if (bl->x == 0 || bl->y == 0 || bl->x + bl->w == gw || bl->y + bl->h == gh ||
                (bl->w > maxsym || bl->h > maxsym))
                o[x] = 0;
        }
    }
    tscv_contours cs;
    if (tscv_find_contours(&f->ink, 1, &cs, err) < 0)
        return -1;
    int n = 0;
    for (int i = 0; i < cs.n && n < max; i++) {
        const ts_ipt *p = cs.pts + cs.start[i];
        int len = cs.len[i];
        if (len < 20)
            continue;
        double sx = 0, sy = 0;
        int edge = 0;
        for (int j = 0; j < len; j++) {
            sx += p[j].x;
            sy += p[j].y;
            edge |= p[j].x == 0 || p[j].y == 0 || p[j].x == gw - 1 || p[j].y == gh - 1;
        }
        if (edge)
            continue; /* the table around the blob, or something cut by the box */
        double mx = sx / len, my = sy / len, xx = 0, xy = 0, yy = 0;
        for (int j = 0; j < len; j++) {
            double dx = p[j].x - mx, dy = p[j].y - my;
            xx += dx * dx;
            xy += dx * dy;
            yy += dy * dy;
        }
        /* The outline's principal axis: a diamond's long diagonal, an oval's
         * and a squiggle's length. */
        double th = 0.5 * atan2(2 * xy, xx - yy), ux = cos(th), uy = sin(th);
        double lo = 1e9, hi = -1e9, lo2 = 1e9, hi2 = -1e9;
        for (int j = 0; j < len; j++) {
            double a = p[j].x * ux + p[j].y * uy, c = -p[j].x * uy + p[j].y * ux;
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            lo2 = c < lo2 ? c : lo2;
            hi2 = c > hi2 ? c : hi2;
        }
        double L = hi - lo + 1, S = hi2 - lo2 + 1, area = tscv_area(p, len);
        if (L < 14 || S < 5 || L / S < 1.4 || L / S > 3.5 || area < 0.35 * L * S ||
            area > 1.05 * L * S)
            continue;
        double ca = (lo + hi) / 2, cb = (lo2 + hi2) / 2; /* the extent's centre */
        symbol *s = &sym[n++];
        s->c.x = (float)(b->x0 + (ca * ux - cb * uy + 0.5) * step);
        s->c.y = (float)(b->y0 + (ca * uy + cb * ux + 0.5) * step);
        s->ux = (float)ux;
        s->uy = (float)uy;
        s->len = (float)(L * step);
        s->wid = (float)(S * step);
    }
    tscv_contours_free(&cs);
    return n;
}

/* How many symbols like s lie one pitch from it along the card, on the side
 * of sign (+1 or -1). */
static int alike_at_pitch(const symbol *sym, int n, int i, int sign)
{
    const symbol *s = &sym[i];
    float vx = -s->uy, vy = s->ux, pitch = PITCH_PER_SYMBOL * s->len;
    int k = 0;
    for (int j = 0; j < n; j++) {
        if (j == i || sym[j].len < 0.8f * s->len || sym[j].len > 1.25f * s->len)
            continue;
        float dx = sym[j].c.x - s->c.x, dy = sym[j].c.y - s->c.y;
        float along = (dx * vx + dy * vy) * (float)sign, across = dx * s->ux + dy * s->uy;
        if (fabsf(across) < 0.3f * s->len && along > 0.8f * pitch && along < 1.2f * pitch)
            k++;
    }
    return k;
}

/* Cards around the symbols no card found so far explains: the symbols next
 * to a symbol tell where on its card it sits. */
static int cards_from_symbols(ts_set_finder *f, const ts_set_read_with *r, const ts_image *frame,
                              const symbol *sym, int n, found_list *fl, char *err)
{
    ts_pt tried[4 * MAX_FOUND]; /* centres of the guesses read in vain */
    int ntried = 0;
    for (int i = 0; i < n && fl->reads < 4 * MAX_FOUND; i++) {
        int explained = 0;
        for (int k = 0; k < fl->n && !explained; k++)
            explained = ts_point_in_quad(fl->c[k].q.q, sym[i].c.x, sym[i].c.y);
        if (explained)
            continue;
        int plus = alike_at_pitch(sym, n, i, 1), minus = alike_at_pitch(sym, n, i, -1);
        /* offsets (pitches) and the count each implies */
        float off[2];
        int count[2], nh = 0;
        if (plus && minus)
            off[nh] = 0, count[nh++] = 3;
        else if (plus)
            off[nh] = 0.5f, count[nh++] = 2, off[nh] = 1, count[nh++] = 3;
        else if (minus)
            off[nh] = -0.5f, count[nh++] = 2, off[nh] = -1, count[nh++] = 3;
        else
            off[nh] = 0, count[nh++] = 1;
        for (int h = 0; h < nh; h++) {
            ts_quad q;
            card_around(&sym[i], off[h], &q);
            if (!ts_quad_in_frame(q.q, frame->w, frame->h, 4) || overlaps_found(fl, &q))
                continue;
            /* The same card guessed from another of its symbols. */
            ts_pt c = {(q.q[0].x + q.q[2].x) / 2, (q.q[0].y + q.q[2].y) / 2};
            int again = 0;
            for (int k = 0; k < ntried && !again; k++)
                again = ts_dist(tried[k], c) < 0.1f * sym[i].len;
            if (again)
                continue;
            fl->reads++;
            int before = fl->n;
            int rc = try_card(f, r, frame, &q, GUESS_CONF, count[h], 1, sym, n, fl, err);
            if (rc < 0 || (rc == 1 && grow(f, r, frame, sym, n, fl, before, err) < 0))
                return -1;
            if (rc == 1)
                break;
            if (ntried < 4 * MAX_FOUND)
                tried[ntried++] = c;
        }
    }
    return 0;
}

/* ---- The finder ---------------------------------------------------------- */

static int in_box(const ts_box *b, ts_pt p)
{
    return p.x >= b->x0 && p.x < b->x1 && p.y >= b->y0 && p.y < b->y1;
}

static ts_pt centre_of(const ts_quad *q)
{
    return (ts_pt){(q->q[0].x + q->q[1].x + q->q[2].x + q->q[3].x) / 4,
                   (q->q[0].y + q->q[1].y + q->q[2].y + q->q[3].y) / 4};
}

/* Adds quad q's bounding box (grown by margin times its size) to boxes,
 * merged with any it overlaps. */
static void add_quad_box(ts_box *boxes, int *n, const ts_quad *q, const ts_image *frame,
                         float margin)
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int c = 0; c < 4; c++) {
        x0 = fminf(x0, q->q[c].x), x1 = fmaxf(x1, q->q[c].x);
        y0 = fminf(y0, q->q[c].y), y1 = fmaxf(y1, q->q[c].y);
    }
    float m = margin * fmaxf(x1 - x0, y1 - y0);
    ts_box b = {(int)fmaxf(0, x0 - m), (int)fmaxf(0, y0 - m), (int)fminf((float)frame->w, x1 + m),
                (int)fminf((float)frame->h, y1 + m)};
    for (int i = 0; i < *n;) {
        const ts_box *o = &boxes[i];
        if (o->x0 < b.x1 && b.x0 < o->x1 && o->y0 < b.y1 && b.y0 < o->y1) {
            b.x0 = o->x0 < b.x0 ? o->x0 : b.x0;
            b.y0 = o->y0 < b.y0 ? o->y0 : b.y0;
            b.x1 = o->x1 > b.x1 ? o->x1 : b.x1;
            b.y1 = o->y1 > b.y1 ? o->y1 : b.y1;
            boxes[i] = boxes[--*n];
            i = 0;
        } else {
            i++;
        }
    }
    if (*n < MAX_BLOBS)
        boxes[(*n)++] = b;
}

/* The paper (frame px^2) in box b that no candidate of one card's size
 * (first[0..nf) of cand, typical area `typical`) covers; paper is within
 * reach of the cards' own level. Sampled on a coarse grid. */
static float unexplained_paper(const ts_image *frame, const ts_box *b, const ts_quad *cand,
                               const int *first, int nf, float typical, float paper)
{
    int side = b->x1 - b->x0 > b->y1 - b->y0 ? b->x1 - b->x0 : b->y1 - b->y0;
    int g = side / 48 > 4 ? side / 48 : 4, count = 0;
    for (int y = b->y0 + g / 2; y < b->y1; y += g)
        for (int x = b->x0 + g / 2; x < b->x1; x += g) {
            if (min_channel(frame, (float)x, (float)y) < 0.72f * paper)
                continue;
            int covered = 0;
            for (int k = 0; k < nf && !covered; k++)
                covered = cand[first[k]].area < 1.8f * typical &&
                          ts_point_in_quad(cand[first[k]].q, (float)x, (float)y);
            count += !covered;
        }
    return (float)count * (float)g * (float)g;
}

/* Where to look again: the detector's boxes (blobs that are no card), and
 * candidates far larger than the table's others (or every candidate, when
 * there are too few to tell). Returns the count, and in *card_area the
 * typical candidate's area (0 when there are too few to tell). */
static int look_again(ts_set_finder *f, const ts_image *frame, const ts_quad *cand, int n,
                      ts_box *boxes, float *card_area)
{
    int first[MAX_FOUND], nf = 0;
    float area[MAX_FOUND];
    for (int i = 0; i < n && nf < MAX_FOUND; i++) {
        int seen = 0;
        for (int k = 0; k < nf && !seen; k++)
            seen = ts_quad_overlap(&cand[first[k]], &cand[i]);
        if (!seen)
            area[nf] = cand[i].area, first[nf++] = i;
    }
    float sorted[MAX_FOUND];
    memcpy(sorted, area, sizeof *area * (size_t)nf);
    ts_sort_floats(sorted, (size_t)nf);
    *card_area = nf >= 3 ? sorted[nf / 2] : 0; /* too few candidates to tell */
    /* The detector's boxes, unless their paper is already the cards it
     * found (a hand or a box lid beside the cards is no card). */
    ts_box blobs[MAX_BLOBS];
    int nblobs = ts_detect_blobs(f->det, blobs, MAX_BLOBS), nb = 0;
    float papers[MAX_FOUND];
    for (int k = 0; k < nf; k++)
        papers[k] = paper_level(frame, cand[first[k]].q);
    ts_sort_floats(papers, (size_t)nf);
    for (int b = 0; b < nblobs; b++)
        if (nf < 3 || unexplained_paper(frame, &blobs[b], cand, first, nf, sorted[nf / 2],
                                        papers[nf / 2]) > 1.2f * sorted[nf / 2])
            boxes[nb++] = blobs[b];
    for (int k = 0; k < nf; k++)
        if (nf < 3 || area[k] > 1.8f * sorted[nf / 2])
            add_quad_box(boxes, &nb, &cand[first[k]], frame, 0.1f);
    /* A card with paper across one of its sides where no other candidate
     * lies has a neighbour edge to edge that the detector missed. */
    for (int k = 0; k < nf; k++) {
        const ts_quad *q = &cand[first[k]];
        float paper = paper_level(frame, q->q);
        for (int side = 0; side < 4; side++) {
            ts_quad h;
            if (neighbour(q, side, &h) < 0 || !ts_quad_in_frame(h.q, frame->w, frame->h, 4) ||
                !mostly_paper(frame, h.q, paper))
                continue;
            int taken = 0;
            for (int j = 0; j < nf && !taken; j++)
                taken = ts_quad_overlap(&cand[first[j]], &h);
            if (!taken) {
                add_quad_box(boxes, &nb, q, frame, 0.1f);
                add_quad_box(boxes, &nb, &h, frame, 0.1f);
            }
        }
    }
    /* A blob of cards edge to edge reaches past the part the detector could
     * not cut: look a card further on every side. */
    int grow = nf ? (int)sqrtf(sorted[nf / 2] * 1.56f) : 0;
    ts_box grown[MAX_BLOBS];
    int ng = 0;
    for (int b = 0; b < nb; b++) {
        ts_quad q = {{{(float)(boxes[b].x0 - grow), (float)(boxes[b].y0 - grow)},
                      {(float)(boxes[b].x1 + grow), (float)(boxes[b].y0 - grow)},
                      {(float)(boxes[b].x1 + grow), (float)(boxes[b].y1 + grow)},
                      {(float)(boxes[b].x0 - grow), (float)(boxes[b].y1 + grow)}},
                     0, 0};
        add_quad_box(grown, &ng, &q, frame, 0);
    }
    memcpy(boxes, grown, sizeof *grown * (size_t)ng);
    return ng;
}

int ts_set_find(ts_set_finder *f, const ts_set_read_with *r, const ts_image *frame, ts_quad *out,
                int max, char *err)
{
    int n = ts_detect(f->det, frame, out, max, err);
    if (n < 0)
        return -1;
    ts_box boxes[MAX_BLOBS];
    float card_area;
    int nb = look_again(f, frame, out, n, boxes, &card_area);
    if (nb == 0)
        return n;
    found_list *fl = malloc(sizeof *fl);
    symbol *sym = calloc(MAX_SYMBOLS, sizeof *sym);
    unsigned char *drop = calloc((size_t)(n > 0 ? n : 1), 1);
    if (!fl || !sym || !drop) {
        free(fl);
        free(sym);
        free(drop);
        snprintf(err, TSCV_ERR_MAX, "set find: out of memory");
        return -1;
    }
    fl->n = fl->reads = 0;
    fl->card_area = card_area;
    int rc = 0, nsym = 0;
    for (int b = 0; b < nb && rc == 0; b++) {
        int ns = find_symbols(f, frame, &boxes[b], card_area, sym + nsym, MAX_SYMBOLS - nsym,
                              err);
        if (ns < 0)
            rc = -1;
        else
            nsym += ns;
    }
    /* The detector's cards inside the boxes, taken as the pipeline would;
     * one far larger than the card its symbols make, or cutting a card's
     * symbols apart, is left out (unless it is squat: the pipeline reads
     * its halves). */
    for (int i = 0; i < n && rc == 0; i++) {
        ts_pt c = centre_of(&out[i]);
        int inside = 0;
        for (int b = 0; b < nb && !inside; b++)
            inside = in_box(&boxes[b], c);
        if (!inside)
            continue;
        const ts_pt *q = out[i].q;
        float aspect = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) /
                       (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
        int squat = aspect >= 1.1f && aspect <= 1.45f;
        if (!squat && (bigger_than_symbols(sym, nsym, &out[i]) ||
                       cuts_symbols(sym, nsym, &out[i]))) {
            drop[i] = 1;
            continue;
        }
        if (overlaps_found(fl, &out[i]))
            continue;
        int got = try_card(f, r, frame, &out[i], SEED_CONF, 0, 0, sym, nsym, fl, err);
        if (got == 0 && squat) { /* as the pipeline: both halves, or neither */
            ts_pt m12 = ts_mid(q[1], q[2]), m30 = ts_mid(q[3], q[0]);
            ts_quad half[2] = {{{q[1], m12, m30, q[0]}, 0, 0}, {{m12, q[2], q[3], m30}, 0, 0}};
            int before = fl->n;
            for (int h = 0; h < 2 && got >= 0; h++) {
                half[h].area = (float)ts_quad_area(half[h].q);
                got = try_card(f, r, frame, &half[h], SEED_CONF, 0, 0, sym, nsym, fl, err);
                if (got == 0)
                    break;
            }
            if (got == 0)
                fl->n = before;
        }
        rc = got < 0 ? -1 : 0;
    }
    if (rc == 0)
        rc = grow(f, r, frame, sym, nsym, fl, 0, err);
    if (rc == 0)
        rc = cards_from_symbols(f, r, frame, sym, nsym, fl, err);
    if (rc == 0) {
        /* The cards read here first, then the rest of the detector's list. */
        int k = fl->n < max ? fl->n : max, m = 0;
        ts_quad *rest = malloc(sizeof *rest * (size_t)(n > 0 ? n : 1));
        if (!rest) {
            snprintf(err, TSCV_ERR_MAX, "set find: out of memory");
            rc = -1;
        } else {
            /* A candidate in a box far smaller than the cards read there is a
             * bright patch of something else (as the pipeline's drop_small,
             * which needs three cards to tell). */
            float area[MAX_FOUND];
            for (int i = 0; i < fl->n; i++)
                area[i] = fl->c[i].q.area;
            ts_sort_floats(area, (size_t)fl->n);
            float typical = fl->n ? area[fl->n / 2] : 0;
            for (int i = 0; i < n; i++) {
                ts_pt c = centre_of(&out[i]);
                int inside = 0;
                for (int b = 0; b < nb && !inside; b++)
                    inside = in_box(&boxes[b], c);
                if (!drop[i] && !(inside && out[i].area < 0.35f * typical))
                    rest[m++] = out[i];
            }
            for (int i = 0; i < k; i++)
                out[i] = fl->c[i].q;
            int keep = m < max - k ? m : max - k;
            memcpy(out + k, rest, sizeof *rest * (size_t)keep);
            n = k + keep;
            free(rest);
        }
    }
    free(fl);
    free(sym);
    free(drop);
    return rc < 0 ? -1 : n;
}
