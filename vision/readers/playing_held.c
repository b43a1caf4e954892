/* Cards held up before a camera, found from their pips (see playing_held.h). */
#include "readers/playing_held.h"
#include "readers/playing.h"
#include "geom.h"
#include "median.h"
#include "union_find.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_COMP = 2048,  /* dark components looked at */
    MAX_CLUSTERS = 4, /* pip clusters turned into cards, most pips first */
    MAX_PIPS = 14,    /* a ten shows ten; a few more for index suits merged in */
    MAX_STEP = 256,   /* longest edge search (px) */
};
/* A pip is darker than its surroundings by this much (grey levels). */
#define PIP_DARK 15
/* Fitting a held card's quad to its face (ts_playing_held_fit): each side
 * moved along its neighbours by these shares of the card, a few rounds. */
enum { FIT_STEPS = 4, FIT_SIDE_VIEWS = 4 * FIT_STEPS + 1, FIT_ROUNDS = 4 };
static const float FIT_STEP[FIT_STEPS] = {-0.12f, -0.05f, 0.05f, 0.12f};
/* The first round also looks at the whole quad shrunk about its centre by
 * these: a quad whose sides ran on into a wall as light as the card, or
 * into the hand, is too loose for side moves alone to reach the card. */
enum { FIT_SCALES = 2, FIT_VIEWS = FIT_SIDE_VIEWS + FIT_SCALES };
static const float FIT_SCALE[FIT_SCALES] = {0.8f, 0.65f};
/* A quad none of whose first views the face net sees as much of a whole
 * card as this is not fitted: another game's tile or a hand (a Chinese
 * domino's 0.03-0.34; the webcam cards a fit read, 0.63 and up). */
#define FIT_MIN_CARD 0.5f
/* Pip area as a share of the work image, and of its box. */
#define PIP_MIN 0.0002f
#define PIP_MAX 0.01f
#define PIP_FILL 0.35f
/* Paper around a pip: the ring around its box (this share of its size,
 * at least 2 px) is mostly lighter than halfway from the pip to the ring's
 * light (its 90th percentile), and that light is among the frame's
 * brightest (above this percentile): eyes, beard and window bars are not
 * ringed by paper. */
#define RING 0.25f
#define RING_LIGHT 0.75f
#define PAPER_RANK 0.60f
/* Pips of one card: areas within this ratio, centres within this many pip
 * widths (a two's pips lie far apart). */
#define PIP_AREA_RATIO 1.8f
#define PIP_REACH 6.5f
/* A pip further from its nearest fellow than this many times the usual
 * spacing is not one of them. */
#define PIP_APART 2.0f
/* A card's side is a step in brightness of at least this much. */
#define SIDE_STEP 10.0f
/* The side is where the brightness has fallen this share below the paper's. */
#define SIDE_DROP 0.15f
/* Opposite margins further apart than this ratio are not both trusted. */
#define SIDE_AGREE 1.6f
/* A card's long side over its short one, as seen: 88 / 63 = 1.40 upright,
 * 2.48 in a 16:9 frame squeezed to a square (more when it is turned a
 * little about its long axis); a card turned sideways in such a frame,
 * 1.27; a card leaning back, less (1.0-1.1 measured on three webcam cards,
 * but 1.0 let a SET card's symbols make quads that read as sure playing
 * cards). In a squeezed frame (SQUEEZED: see squeeze()) a two's or a
 * three's sides beside its one column of pips are found a little short:
 * 3.4-3.6 (the fit then widens it); let elsewhere, such quads cost 6% more
 * on a domino table under --game playing. */
#define CARD_ASPECT_MIN 1.1f
/* In a square frame (a 16:9 webcam frame squeezed) a card held sideways
 * shows 1.27, and leaning back, 1.0 (a 3D held so: 1.00). Let elsewhere,
 * quads of domino tiles' pips (1.03-1.04) left two sure cards on domino
 * photos under --game playing. */
#define SQUARE_ASPECT_MIN 0.95f
#define CARD_ASPECT_MAX 3.0f
#define SQUEEZED 1.5f
#define SQUEEZED_ASPECT_MAX 3.7f

/* A held quad's index pairs (ts_playing_held_pairs): looked for in the quad
 * grown by this, their glyph step this share of its short side (an index's
 * step is 0.154 of a card's width; a quad found on the pips is up to twice
 * too wide, or too narrow in a squeezed frame). */
#define PAIR_GROW 1.5f
#define PAIR_STEP_MIN 0.04f
#define PAIR_STEP_MAX 0.6f

struct ts_playing_held {
    ts_image inv, bin;
    int *labels;
    int nlabels;
    tscv_blob *comp;
};

ts_playing_held *ts_playing_held_create(void)
{
    ts_playing_held *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->comp = malloc(sizeof *h->comp * MAX_COMP);
    if (!h->comp) {
        free(h);
        return NULL;
    }
    return h;
}

void ts_playing_held_destroy(ts_playing_held *h)
{
    if (!h)
        return;
    ts_image_free(&h->inv);
    ts_image_free(&h->bin);
    free(h->labels);
    free(h->comp);
    free(h);
}

static int by_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Mean grey along the segment a-b (nearest pixels), or -1 when most of it
 * lies off the image. */
static float line_mean(const ts_image *g, ts_pt a, ts_pt b)
{
    int n = (int)hypotf(b.x - a.x, b.y - a.y) + 2, in = 0;
    float sum = 0;
    for (int i = 0; i < n; i++) {
        float t = (float)i / (n - 1);
        int x = (int)lroundf(a.x + (b.x - a.x) * t), y = (int)lroundf(a.y + (b.y - a.y) * t);
        if (x < 0 || y < 0 || x >= g->w || y >= g->h)
            continue;
        sum += ts_image_row(g, y)[x];
        in++;
    }
    return in * 2 > n ? sum / in : -1;
}

/* The turn of the edges around a box (radians, modulo a quarter turn):
 * gradient directions summed at four times their angle, so a rectangle's
 * two sets of sides add up instead of cancelling. */
static float edge_turn(const ts_image *g, int x0, int y0, int x1, int y1)
{
    x0 = x0 < 1 ? 1 : x0, y0 = y0 < 1 ? 1 : y0;
    x1 = x1 > g->w - 2 ? g->w - 2 : x1, y1 = y1 > g->h - 2 ? g->h - 2 : y1;
    double c = 0, s = 0;
    for (int y = y0; y <= y1; y++) {
        const uint8_t *r = ts_image_row(g, y), *up = ts_image_row(g, y - 1),
                      *dn = ts_image_row(g, y + 1);
        for (int x = x0; x <= x1; x++) {
            float gx = (float)(r[x + 1] - r[x - 1]), gy = (float)(dn[x] - up[x]);
            float m2 = gx * gx + gy * gy;
            if (m2 < 400)
                continue;
            /* cos 4a and sin 4a from the double angle's, weighted by the magnitude */
            float c2 = (gx * gx - gy * gy) / m2, s2 = 2 * gx * gy / m2, m = sqrtf(m2);
            c += m * (c2 * c2 - s2 * s2);
            s += m * 2 * c2 * s2;
        }
    }
    return (float)(atan2(s, c) / 4);
}

/* How far beyond the pips (along n, from the line base + t*[t0, t1]) the
 * card's side lies: the first line clearly darker than the paper next to
 * the pips, from dmin to dmax; with keep > 0, the first that stays so dark
 * for keep lines more (a pip the cluster missed, or an index, darkens lines
 * for its own width only; the card's side for good). Returns the distance
 * or -1. */
static float find_side(const ts_image *g, ts_pt base, ts_pt t, ts_pt n, float t0, float t1,
                       int dmin, int dmax, int keep)
{
    float p[MAX_STEP + 1];
    if (dmax > MAX_STEP)
        dmax = MAX_STEP;
    for (int d = 0; d <= dmax; d++) {
        ts_pt o = {base.x + n.x * d, base.y + n.y * d};
        p[d] = line_mean(g, (ts_pt){o.x + t.x * t0, o.y + t.y * t0},
                         (ts_pt){o.x + t.x * t1, o.y + t.y * t1});
    }
    /* the paper's level next to the pips, then the first line clearly
     * darker (the card is the lightest thing about; a finger over its side
     * or an index on it spans only part of the line) */
    int first = dmin < 1 ? 1 : dmin;
    float paper = -1;
    for (int d = 0; d <= first + 2 && d <= dmax; d++)
        paper = p[d] > paper ? p[d] : paper;
    if (paper < 0)
        return -1;
    float drop = SIDE_DROP * paper < SIDE_STEP ? SIDE_STEP : SIDE_DROP * paper;
    for (int d = first; d <= dmax; d++) {
        if (p[d] < 0)
            return -1; /* the frame's edge: the card may run past it */
        if (p[d] >= paper - drop)
            continue;
        int lasts = 1;
        for (int e = d + 1; e <= d + keep && e <= dmax && lasts; e++)
            lasts = p[e] >= 0 && p[e] < paper - drop / 2;
        if (lasts)
            return (float)d;
    }
    return -1;
}

/* The card around a cluster's pips (extent [u0, u1] x [v0, v1] along the
 * turn's axes u, v), its sides found with find_side's keep, no longer for
 * its width than aspect[0] to aspect[1]; 1 if found. */
static int card_around(const ts_image *g, ts_pt u, ts_pt v, float u0, float u1, float v0,
                       float v1, float pip, int keep, const float aspect[2], ts_pt q[4])
{
    /* each side, searched out to most of the pips' larger extent (a two's
     * pips make a narrow box far from the card's long sides) */
    float reach = 0.9f * ((u1 - u0) > (v1 - v0) ? (u1 - u0) : (v1 - v0)) + pip;
    int dmin = (int)(0.3f * pip) + 2;
    float side[4];
    const float sgn[4] = {-1, 1, -1, 1};
    for (int s = 0; s < 4; s++) {
        int along_u = s < 2; /* sides 0, 1 are across u at u0, u1 */
        ts_pt nrm = along_u ? (ts_pt){u.x * sgn[s], u.y * sgn[s]} : (ts_pt){v.x * sgn[s], v.y * sgn[s]};
        ts_pt t = along_u ? v : u;
        float at = along_u ? (s == 0 ? u0 : u1) : (s == 2 ? v0 : v1);
        ts_pt base = along_u ? (ts_pt){u.x * at, u.y * at} : (ts_pt){v.x * at, v.y * at};
        float t0 = along_u ? v0 : u0, t1 = along_u ? v1 : u1;
        side[s] = find_side(g, base, t, nrm, t0, t1, dmin, (int)reach, keep);
    }
    /* the pips sit in the card's middle: a side not found (the frame's edge,
     * a wall as light as the card) mirrors the opposite one, and of two
     * far apart the nearer is trusted (the other ran on into the wall) */
    for (int s = 0; s < 4; s += 2) {
        float *a = &side[s], *b = &side[s + 1];
        if (*a < 0 && *b < 0)
            return 0;
        if (*a < 0 || *b < 0)
            *a = *b = *a > *b ? *a : *b;
        else if (*a > SIDE_AGREE * *b || *b > SIDE_AGREE * *a)
            *a = *b = *a < *b ? *a : *b;
    }
    float cu0 = u0 - side[0], cu1 = u1 + side[1], cv0 = v0 - side[2], cv1 = v1 + side[3];
    float wu = cu1 - cu0, wv = cv1 - cv0;
    float as = wu > wv ? wu / wv : wv / wu;
    if (as < aspect[0] || as > aspect[1])
        return 0;
    const float cu[4] = {cu0, cu1, cu1, cu0}, cv[4] = {cv0, cv0, cv1, cv1};
    for (int k = 0; k < 4; k++)
        q[k] = (ts_pt){cu[k] * u.x + cv[k] * v.x, cu[k] * u.y + cv[k] * v.y};
    return 1;
}

/* One cluster of pips (indices into comp) to a card quad no longer for its
 * width than aspect[0] to aspect[1]; 1 if found. */
static int cluster_card(const ts_image *g, const tscv_blob *comp, const int *idx, int n,
                        const float aspect[2], ts_pt q[4])
{
    int x0 = g->w, y0 = g->h, x1 = 0, y1 = 0;
    float pip = 0;
    for (int i = 0; i < n; i++) {
        const tscv_blob *b = &comp[idx[i]];
        x0 = b->x < x0 ? b->x : x0, y0 = b->y < y0 ? b->y : y0;
        x1 = b->x + b->w > x1 ? b->x + b->w : x1, y1 = b->y + b->h > y1 ? b->y + b->h : y1;
        pip += sqrtf((float)b->area) / n;
    }
    int mx = (x1 - x0) / 2 + (int)pip, my = (y1 - y0) / 2 + (int)pip;
    float a = edge_turn(g, x0 - mx, y0 - my, x1 + mx, y1 + my);
    ts_pt u = {cosf(a), sinf(a)}, v = {-sinf(a), cosf(a)};
    /* the pips' extent along u and v (their boxes' corners) */
    float u0 = 1e9f, u1 = -1e9f, v0 = 1e9f, v1 = -1e9f;
    for (int i = 0; i < n; i++) {
        const tscv_blob *b = &comp[idx[i]];
        for (int k = 0; k < 4; k++) {
            float px = (float)(b->x + (k & 1 ? b->w : 0)), py = (float)(b->y + (k & 2 ? b->h : 0));
            float pu = px * u.x + py * u.y, pv = px * v.x + py * v.y;
            u0 = pu < u0 ? pu : u0, u1 = pu > u1 ? pu : u1;
            v0 = pv < v0 ? pv : v0, v1 = pv > v1 ? pv : v1;
        }
    }
    /* the first fall in brightness beyond the pips; when that makes no
     * card (a pip the cluster missed, dim in a dark frame, stopped a side
     * short), the first fall that lasts */
    return card_around(g, u, v, u0, u1, v0, v1, pip, 0, aspect, q) ||
           card_around(g, u, v, u0, u1, v0, v1, pip, (int)(pip + 1), aspect, q);
}

/* How much a square frame is squeezed across (>= 1): its pips' median
 * height over width (a 640 x 640 webcam frame is a 16:9 one squeezed: its
 * pips are half as wide as tall). 1 for any other frame: on a table seen
 * straight, SET's ovals and a domino's merged pip pairs are long too. */
static float squeeze(const tscv_blob *comp, const int *pips, int np, int w, int h)
{
    if (np == 0 || w != h)
        return 1.0f;
    float r[MAX_COMP];
    for (int i = 0; i < np; i++)
        r[i] = (float)comp[pips[i]].h / (float)comp[pips[i]].w;
    ts_sort_floats(r, (size_t)np);
    return r[np / 2] > 1.0f ? r[np / 2] : 1.0f;
}

/* Whether blob b touches the edge of a w x h image: its true shape is
 * unknown (hair, a shirt, the card's own side running out of the frame),
 * and a pip cut there would give a wrong cluster extent. */
static int cut_by_edge(const tscv_blob *b, int w, int h)
{
    return b->x <= 0 || b->y <= 0 || b->x + b->w >= w || b->y + b->h >= h;
}

/* Whether the pip blob b (label k) is ringed by paper at least as light as paper. */
static int ringed(const ts_image *g, const int *labels, const tscv_blob *b, int k, int paper)
{
    int m = (int)(RING * (b->w > b->h ? b->w : b->h) + 0.5f);
    m = m < 2 ? 2 : m;
    int x0 = b->x - m, y0 = b->y - m, x1 = b->x + b->w + m, y1 = b->y + b->h + m;
    x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > g->w ? g->w : x1, y1 = y1 > g->h ? g->h : y1;
    int hist[32] = {0}, nring = 0, nin = 0;
    long in = 0;
    for (int y = y0; y < y1; y++) {
        const uint8_t *r = ts_image_row(g, y);
        const int *l = labels + (size_t)y * g->w;
        for (int x = x0; x < x1; x++) {
            int inside = x >= b->x && x < b->x + b->w && y >= b->y && y < b->y + b->h;
            if (!inside) {
                hist[r[x] >> 3]++;
                nring++;
            } else if (l[x] == k) {
                in += r[x];
                nin++;
            }
        }
    }
    if (!nring || !nin)
        return 0;
    int light = 31;
    for (int acc = 0; light > 0 && (acc += hist[light]) < 0.1f * nring;)
        light--;
    int light_v = light * 8 + 4;
    if (light_v < paper)
        return 0;
    float half = ((float)in / nin + light_v) / 2;
    int above = 0;
    for (int v = 0; v < 32; v++)
        if (v * 8 + 4 > half)
            above += hist[v];
    return above >= RING_LIGHT * nring;
}

int ts_playing_held_find(ts_playing_held *h, const ts_image *grey, ts_pt (*out)[4], int max,
                         char *err)
{
    int w = grey->w, hh = grey->h;
    if (h->inv.w != w || h->inv.h != hh) {
        ts_image_free(&h->inv);
        ts_image_free(&h->bin);
        if (ts_image_alloc(&h->inv, w, hh, 1) < 0) {
            snprintf(err, TSCV_ERR_MAX, "out of memory");
            return -1;
        }
    }
    if (h->nlabels < w * hh) {
        free(h->labels);
        h->labels = malloc(sizeof *h->labels * (size_t)w * hh);
        h->nlabels = h->labels ? w * hh : 0;
        if (!h->labels) {
            snprintf(err, TSCV_ERR_MAX, "out of memory");
            return -1;
        }
    }
    /* dark against its surroundings: the inverse above its local mean */
    for (int y = 0; y < hh; y++) {
        const uint8_t *s = ts_image_row(grey, y);
        uint8_t *d = ts_image_row(&h->inv, y);
        for (int x = 0; x < w; x++)
            d[x] = (uint8_t)(255 - s[x]);
    }
    int block = (w > hh ? w : hh) / 14 | 1;
    if (tscv_adaptive(&h->inv, &h->bin, block, PIP_DARK, err) < 0)
        return -1;
    int nc = tscv_components(&h->bin, h->labels, h->comp, MAX_COMP, err);
    if (nc < 0)
        return -1;
    if (nc > MAX_COMP)
        nc = MAX_COMP;
    /* pips: blobs of a pip's size and solidity, ringed by paper, whole in
     * the image */
    float img = (float)w * hh;
    int hist[256] = {0};
    for (int y = 0; y < hh; y++) {
        const uint8_t *r = ts_image_row(grey, y);
        for (int x = 0; x < w; x++)
            hist[r[x]]++;
    }
    int paper = 0;
    for (int acc = 0; paper < 255 && (acc += hist[paper]) < PAPER_RANK * img;)
        paper++;
    int pips[MAX_COMP], np = 0;
    for (int i = 0; i < nc; i++) {
        const tscv_blob *b = &h->comp[i];
        float bw = (float)b->w, bh = (float)b->h;
        if (cut_by_edge(b, w, hh) || b->area < PIP_MIN * img || b->area > PIP_MAX * img ||
            b->area < PIP_FILL * bw * bh || bw > 2.2f * bh || bh > 2.2f * bw ||
            !ringed(grey, h->labels, b, i + 1, paper))
            continue;
        pips[np++] = i;
    }
    /* clusters: pips of one size near each other */
    float sq = squeeze(h->comp, pips, np, w, hh);
    int parent[MAX_COMP];
    for (int i = 0; i < np; i++)
        parent[i] = i;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) {
            const tscv_blob *a = &h->comp[pips[i]], *b = &h->comp[pips[j]];
            float ra = (float)a->area / b->area;
            if (ra > PIP_AREA_RATIO || ra < 1 / PIP_AREA_RATIO)
                continue;
            /* a pip's size: the side of a square of its area, the
             * squeeze undone (a squeezed two's pips, far apart along the
             * card, would otherwise seem too far apart for one card) */
            float size = sqrtf((float)(a->area > b->area ? a->area : b->area) * sq);
            if (hypotf(a->cx - b->cx, a->cy - b->cy) > PIP_REACH * size)
                continue;
            int ri = ts_find_root(parent, i), rj = ts_find_root(parent, j);
            if (ri != rj)
                parent[ri] = rj;
        }
    const float aspect[2] = {w == hh ? SQUARE_ASPECT_MIN : CARD_ASPECT_MIN,
                             sq >= SQUEEZED ? SQUEEZED_ASPECT_MAX : CARD_ASPECT_MAX};
    int count[MAX_COMP] = {0};
    for (int i = 0; i < np; i++)
        count[ts_find_root(parent, i)]++;
    int n = 0;
    for (int c = 0; c < MAX_CLUSTERS && n < max; c++) {
        int root = -1;
        for (int i = 0; i < np; i++)
            if (count[i] >= 2 && count[i] <= MAX_PIPS && (root < 0 || count[i] > count[root]))
                root = i;
        if (root < 0)
            break;
        int idx[MAX_PIPS], k = 0;
        for (int i = 0; i < np; i++)
            if (ts_find_root(parent, i) == root)
                idx[k++] = pips[i];
        count[root] = 0;
        /* one size: a chain of blobs may reach from pips to other things */
        int areas[MAX_PIPS];
        for (int i = 0; i < k; i++)
            areas[i] = h->comp[idx[i]].area;
        qsort(areas, (size_t)k, sizeof *areas, by_int);
        float med = (float)areas[k / 2];
        int kept = 0;
        for (int i = 0; i < k; i++)
            if (h->comp[idx[i]].area < PIP_AREA_RATIO * med && h->comp[idx[i]].area * PIP_AREA_RATIO > med)
                idx[kept++] = idx[i];
        k = kept;
        /* and one place: a pip far from all the others is something else */
        if (k >= 4) {
            float nn[MAX_PIPS], sorted[MAX_PIPS];
            for (int i = 0; i < k; i++) {
                nn[i] = 1e9f;
                for (int j = 0; j < k; j++)
                    if (j != i) {
                        float d = hypotf(h->comp[idx[i]].cx - h->comp[idx[j]].cx,
                                         h->comp[idx[i]].cy - h->comp[idx[j]].cy);
                        nn[i] = d < nn[i] ? d : nn[i];
                    }
                sorted[i] = nn[i];
            }
            ts_sort_floats(sorted, (size_t)k);
            float lim = PIP_APART * sorted[k / 2];
            kept = 0;
            for (int i = 0; i < k; i++)
                if (nn[i] <= lim)
                    idx[kept++] = idx[i];
            k = kept;
        }
        if (k < 2)
            continue;
        if (cluster_card(grey, h->comp, idx, k, aspect, out[n]))
            n++;
    }
    return n;
}

int ts_playing_held_face(ts_playing_face *face, const ts_image *card, const ts_reading *index,
                         ts_reading *out, char *err)
{
    memset(out, 0, sizeof *out);
    ts_playing_face_reading f;
    if (ts_playing_face_read(face, card, &f, err) < 0)
        return -1;
    int rank = 0;
    for (int k = 1; k < 13; k++)
        rank = f.rank[k] > f.rank[rank] ? k : rank;
    /* the suit from the face (grey: spades and clubs look alike when
     * blurred) and the index's reading of it, two cues that err apart */
    float ps[4], sum = 0;
    for (int k = 0; k < 4; k++) {
        float q = 0.25f;
        if (index && index->is_card && index->nattr >= 2)
            q = k == index->code.idx / 13 ? index->attr_conf[1] : (1.0f - index->attr_conf[1]) / 3;
        ps[k] = f.suit[k] * q;
        sum += ps[k];
    }
    int suit = 0;
    for (int k = 1; k < 4; k++)
        suit = ps[k] > ps[suit] ? k : suit;
    float suit_conf = sum > 0 ? ps[suit] / sum : 0;
    const float sure = TS_PLAYING_HELD_FACE_SURE;
    if (rank >= 10 || f.rank[rank] < sure || suit_conf < sure || f.card < TS_PLAYING_HELD_FACE_SEEN)
        return 0; /* a court figure is one deck's own; or not sure */
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_PLAYING, (uint8_t)(suit * 13 + rank)};
    out->conf = f.rank[rank] * suit_conf * f.card;
    out->nattr = 2;
    out->attr_conf[0] = f.rank[rank];
    out->attr_conf[1] = suit_conf;
    return 0;
}

/* q with side k (q[k] to q[k+1]) moved out by the share d of the card,
 * along its two neighbouring sides. */
static void move_side(const ts_pt q[4], int k, float d, ts_pt out[4])
{
    memcpy(out, q, sizeof *out * 4);
    int a = k, b = (k + 1) & 3, pa = (k + 3) & 3, pb = (k + 2) & 3;
    out[a].x += d * (q[a].x - q[pa].x), out[a].y += d * (q[a].y - q[pa].y);
    out[b].x += d * (q[b].x - q[pb].x), out[b].y += d * (q[b].y - q[pb].y);
}

/* Whether any of a fit's n views f looks enough like a whole card's face. */
static int some_card(const ts_playing_face_reading *f, int n)
{
    for (int i = 0; i < n; i++)
        if (f[i].card >= FIT_MIN_CARD)
            return 1;
    return 0;
}

/* The view of f[0..n) that looks most like a whole card. */
static int best_view(const ts_playing_face_reading *f, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        best = f[i].card > f[best].card ? i : best;
    return best;
}

int ts_playing_held_fit(ts_playing_face *face, const ts_image *frame, ts_pt q[4], char *err)
{
    ts_image view[FIT_VIEWS];
    ts_playing_face_reading f[FIT_VIEWS];
    ts_pt var[FIT_VIEWS][4];
    memset(view, 0, sizeof view);
    int rc = 0;
    for (int round = 0; round < FIT_ROUNDS && rc == 0; round++) {
        memcpy(var[0], q, sizeof var[0]);
        for (int k = 0; k < 4; k++)
            for (int s = 0; s < FIT_STEPS; s++)
                move_side(q, k, FIT_STEP[s], var[1 + k * FIT_STEPS + s]);
        int nv = FIT_SIDE_VIEWS;
        if (round == 0)
            for (int s = 0; s < FIT_SCALES; s++)
                ts_quad_scale(q, FIT_SCALE[s], var[nv++]);
        for (int i = 0; i < nv && rc == 0; i++)
            rc = tscv_warp_quad(frame, var[i], &view[i], TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err);
        if (rc < 0 || (rc = ts_playing_face_read_n(face, view, nv, f, err)) < 0)
            break;
        if (round == 0 && !some_card(f, nv)) {
            rc = 1;
            break;
        }
        /* a shrunk quad that looks more like a card than any side move:
         * the fit goes on from there */
        int shrunk = best_view(f, nv);
        if (shrunk >= FIT_SIDE_VIEWS) {
            memcpy(q, var[shrunk], sizeof var[shrunk]);
            continue;
        }
        /* each side where the face looks most like a whole card's, all at once */
        ts_pt next[4];
        memcpy(next, q, sizeof next);
        int moved = 0;
        for (int k = 0; k < 4; k++) {
            int best = -1;
            float card = f[0].card;
            for (int s = 0; s < FIT_STEPS; s++)
                if (f[1 + k * FIT_STEPS + s].card > card)
                    card = f[1 + k * FIT_STEPS + s].card, best = s;
            if (best >= 0) {
                ts_pt m[4];
                move_side(next, k, FIT_STEP[best], m);
                memcpy(next, m, sizeof next);
                moved = 1;
            }
        }
        if (!moved)
            break;
        memcpy(q, next, sizeof next);
    }
    for (int i = 0; i < FIT_VIEWS; i++)
        ts_image_free(&view[i]);
    return rc;
}

int ts_playing_held_pairs(const ts_playing_pair *pairs, int n, const ts_pt q[4], int *out, int max)
{
    ts_pt g[4];
    ts_quad_scale(q, PAIR_GROW, g);
    float a = 0.5f * (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
    float b = 0.5f * (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0]));
    float side = a < b ? a : b;
    int k = 0;
    for (int i = 0; i < n && k < max; i++) {
        const ts_playing_pair *p = &pairs[i];
        float step = ts_dist(p->rank, p->suit);
        if (step >= PAIR_STEP_MIN * side && step <= PAIR_STEP_MAX * side &&
            ts_point_in_quad(g, p->rank.x, p->rank.y) && ts_point_in_quad(g, p->suit.x, p->suit.y))
            out[k++] = i;
    }
    return k;
}
