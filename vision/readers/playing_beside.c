/* Playing cards edge to edge, or in a row with gaps: the neighbours each
 * sure card offers (playing_beside.h), moved out of playing.c. */
#include <math.h>

#include "geom.h"
#include "median.h"
#include "readers/place_pick.h"
#include "readers/playing.h"
#include "readers/playing_beside.h"

/* Cards edge to edge, or in a row with gaps, whose outlines merged or
 * whose indices were not among the pairs read: each card read surely
 * offers its four neighbours edge to edge (its quad moved by a side along
 * and across it), and, for a row laid with gaps, the place as far past it
 * as a sure card beside it lies (BESIDE_GAP of that side, off its line
 * within BESIDE_ACROSS of the short side). A place is read when it lies in
 * the frame, holds no chosen card's middle nor they its, was not tried
 * (corners within BESIDE_NEAR of the short side) and shows as much card
 * white as its source card (BESIDE_STOCK of its share); kept when read
 * BESIDE_SURE, then it offers its own. */
#define BESIDE_SURE 0.97f /* the place pick's sure (playing.c RERANK_SURE) */
#define BESIDE_STOCK 0.85f
#define BESIDE_NEAR 0.05f
#define BESIDE_ACROSS 0.15f
static const float BESIDE_GAP[2] = {1.02f, 1.4f};
#define BESIDE_GAP_TRY 1.08f
#define BESIDE_LONG 1.2f
/* A card's size from a neighbour's index corner (sized_by_neighbour): at
 * this many of its side away, both facing within acos(BESIDE_ALIKE). */
static const float BESIDE_SIZE[2] = {0.95f, 1.5f};
#define BESIDE_ALIKE 0.95f
#define RESIZED 1.1f
enum { BESIDE_STEPS = 8, BESIDE_TRIED = 64, STOCK_GRID = 8 };

/* The whiteness of quad q at STOCK_GRID^2 points a tenth in from its
 * edges into v (-1 beyond the frame). */
enum { STOCK_N = STOCK_GRID * STOCK_GRID };
static void stock_samples(const ts_image *frame, const ts_pt q[4], int v[STOCK_N])
{
    for (int j = 0; j < STOCK_GRID; j++)
        for (int i = 0; i < STOCK_GRID; i++)
            v[j * STOCK_GRID + i] = ts_playing_whiteness(
                frame, ts_quad_point(q, 0.1f + 0.8f * (i + 0.5f) / STOCK_GRID,
                                     0.1f + 0.8f * (j + 0.5f) / STOCK_GRID));
}

/* The share of quad q's stock samples at least level white. */
static float white_share(const ts_image *frame, const ts_pt q[4], int level)
{
    int v[STOCK_N], in = 0;
    stock_samples(frame, q, v);
    for (int i = 0; i < STOCK_N; i++)
        in += v[i] >= level;
    return (float)in / STOCK_N;
}

/* The white level of card q: 0.8 of its median sample (a card is mostly
 * white paper). */
static int card_white_level(const ts_image *frame, const ts_pt q[4])
{
    int v[STOCK_N], hist[257] = {0}, acc = 0, m = 0;
    stock_samples(frame, q, v);
    for (int i = 0; i < STOCK_N; i++)
        hist[v[i] + 1]++;
    while (m < 256 && (acc += hist[m + 1]) < STOCK_N / 2)
        m++;
    return (int)(0.8f * m);
}

/* Whether chosen card q was read BESIDE_SURE. */
static int read_beside_sure(const ts_beside_reader *r, const ts_quad *q)
{
    return r->conf(r->ctx, q) >= BESIDE_SURE;
}

/* The steps from card out[j] to its neighbours' places into step: its
 * sides each way, and back from each sure card beside it in a row with
 * gaps. Returns the count. */
static int beside_steps(const ts_beside_reader *r, const ts_quad *out, int n, int j,
                        const ts_pt w[4], ts_pt step[BESIDE_STEPS])
{
    int ns = 0;
    for (int d = 0; d < 4; d++) {
        ts_pt b = w[d < 2 ? 1 : 3];
        float s = d % 2 ? -1.0f : 1.0f;
        step[ns++] = (ts_pt){s * (b.x - w[0].x), s * (b.y - w[0].y)};
    }
    ts_pt c = ts_quad_centre(w);
    float short_side = fminf(ts_dist(w[0], w[1]), ts_dist(w[0], w[3]));
    for (int k = 0; k < n && ns < BESIDE_STEPS; k++) {
        if (k == j || !read_beside_sure(r, &out[k]))
            continue;
        ts_pt ck = ts_quad_centre(out[k].q);
        float vx = ck.x - c.x, vy = ck.y - c.y;
        for (int a = 1; a < 4 && ns < BESIDE_STEPS; a += 2) {
            float ax = w[a].x - w[0].x, ay = w[a].y - w[0].y, len = hypotf(ax, ay);
            float along = fabsf(vx * ax + vy * ay) / len, across = fabsf(vx * ay - vy * ax) / len;
            if (across < BESIDE_ACROSS * short_side && along > BESIDE_GAP[0] * len &&
                along < BESIDE_GAP[1] * len)
                step[ns++] = (ts_pt){-vx, -vy};
        }
    }
    return ns;
}

/* The median short side of the cards of out[0..n) read BESIDE_SURE that
 * were found whole (not by their index; card-shaped), or 0 if fewer than
 * SIDE_PEERS. */
enum { SIDE_PEERS = 2, SIDE_MAX = 64 };
static float sure_whole_side(const ts_beside_reader *r, const ts_quad *out, int n)
{
    double side[SIDE_MAX];
    int m = 0;
    for (int k = 0; k < n && m < SIDE_MAX; k++)
        if (read_beside_sure(r, &out[k]) && !r->paired(r->ctx, out[k].q) &&
            ts_playing_card_shaped(out[k].q))
            side[m++] = fminf(ts_dist(out[k].q[0], out[k].q[1]), ts_dist(out[k].q[1], out[k].q[2]));
    return m < SIDE_PEERS ? 0 : (float)ts_median(side, m);
}

/* Quad q scaled by f about its corner q[0] (a card found by its index:
 * its index corner) into w. */
static void scaled_from_index(const ts_pt q[4], float f, ts_quad *w)
{
    for (int c = 0; c < 4; c++)
        w->q[c] = (ts_pt){q[0].x + f * (q[c].x - q[0].x), q[0].y + f * (q[c].y - q[0].y)};
    w->area = (float)ts_quad_area(w->q);
}

/* Card out[j] in w; one found by its index sized by a sure card k beside
 * it facing the same way edge to edge: k's index corner lies BESIDE_SIZE
 * of j's side from j's along it (within BESIDE_ACROSS across), so that
 * distance is the side; with no such card beside it, by the sure cards
 * found whole (side: sure_whole_side, 0 none) when that is within
 * BESIDE_SIZE of its own. A card found by its index is sized by its glyph
 * step, 0.7-0.9 of the true card on touching tables, and its neighbours
 * offered from it miss their indices; an outline or blob is as found.
 * Returns the factor w was sized by (1 as found). */
static float sized_by_neighbour(const ts_beside_reader *r, const ts_quad *out, int n, int j,
                                float side, ts_quad *w)
{
    *w = out[j];
    const ts_pt *q = out[j].q;
    if (!r->paired(r->ctx, q))
        return 1;
    for (int k = 0; k < n; k++) {
        if (k == j || !read_beside_sure(r, &out[k]))
            continue;
        const ts_pt *o = out[k].q;
        float vx = o[0].x - q[0].x, vy = o[0].y - q[0].y;
        for (int a = 1; a < 4; a += 2) {
            float ax = q[a].x - q[0].x, ay = q[a].y - q[0].y, len = hypotf(ax, ay);
            float bx = o[a].x - o[0].x, by = o[a].y - o[0].y;
            if (len < 1 || ax * bx + ay * by < BESIDE_ALIKE * len * hypotf(bx, by))
                continue; /* k faces another way */
            float along = (vx * ax + vy * ay) / len, across = fabsf(vx * ay - vy * ax) / len;
            float f = fabsf(along) / len;
            if (across < BESIDE_ACROSS * len && f > BESIDE_SIZE[0] && f < BESIDE_SIZE[1]) {
                scaled_from_index(q, f, w);
                return f;
            }
        }
    }
    float own = fminf(ts_dist(q[0], q[1]), ts_dist(q[1], q[2]));
    float f = own > 0 ? side / own : 0;
    if (f > BESIDE_SIZE[0] && f < BESIDE_SIZE[1]) {
        scaled_from_index(q, f, w);
        return f;
    }
    return 1;
}

/* Card out[j] found by its index, read above the floor and sized by a
 * neighbour (w, RESIZED times as large or more, in the frame: a card cut
 * by the frame's edge stays as read, phone photo 194259's 9H) is read
 * again at that size, which stands for it: sized by its glyph step its index patch is
 * cut small, a club's lobes cut off (read a spade surely: touching 119002,
 * 119017, 121021). Returns 0, or -1 with err. */
static int read_resized(const ts_beside_reader *r, const ts_image *frame, ts_quad *out, int j,
                        const ts_quad *w, char *err)
{
    ts_reading rd;
    if (r->read(r->ctx, frame, w, &rd, err) < 0)
        return -1;
    out[j] = *w;
    return 0;
}

/* The share of points just outside quad q's edges (RING_OUT of its sides
 * out, RING_N along each) at least level white. */
enum { RING_N = 8 };
#define RING_OUT 0.04f
static float ring_share(const ts_image *frame, const ts_pt q[4], int level)
{
    int in = 0;
    for (int i = 0; i < RING_N; i++) {
        float t = (i + 0.5f) / RING_N;
        const ts_pt p[4] = {ts_quad_point(q, t, -RING_OUT), ts_quad_point(q, t, 1 + RING_OUT),
                            ts_quad_point(q, -RING_OUT, t), ts_quad_point(q, 1 + RING_OUT, t)};
        for (int k = 0; k < 4; k++)
            in += ts_playing_whiteness(frame, p[k]) >= level;
    }
    return (float)in / (4 * RING_N);
}

/* Moves place c (offered from a card whose white is level) by up to
 * SNAP_STEPS steps of SNAP_STEP of its short side each way to where it
 * holds the most white and has the least just outside: a row's card lies
 * a gap past its neighbour's side, a chain of neighbours drifts. */
enum { SNAP_STEPS = 2 };
#define SNAP_STEP 0.03f
#define SNAP_STOCK 0.5f
static void snap_to_card(const ts_image *frame, ts_quad *c, int level)
{
    float side = fminf(ts_dist(c->q[0], c->q[1]), ts_dist(c->q[0], c->q[3]));
    ts_pt ax = {c->q[1].x - c->q[0].x, c->q[1].y - c->q[0].y};
    ts_pt ay = {c->q[3].x - c->q[0].x, c->q[3].y - c->q[0].y};
    float lx = hypotf(ax.x, ax.y), ly = hypotf(ay.x, ay.y), d = SNAP_STEP * side;
    ts_quad best = *c;
    float top = white_share(frame, c->q, level) - ring_share(frame, c->q, level);
    for (int j = -SNAP_STEPS; j <= SNAP_STEPS; j++)
        for (int i = -SNAP_STEPS; i <= SNAP_STEPS; i++) {
            if (!i && !j)
                continue;
            ts_quad m = *c;
            float dx = d * (i * ax.x / lx + j * ay.x / ly), dy = d * (i * ax.y / lx + j * ay.y / ly);
            for (int k = 0; k < 4; k++)
                m.q[k].x += dx, m.q[k].y += dy;
            float sc = white_share(frame, m.q, level) - ring_share(frame, m.q, level);
            if (sc > top + 1e-3f)
                top = sc, best = m;
        }
    *c = best;
}

/* Whether place c is worth snapping (snap_to_card): in the frame, free
 * (ts_place_taken) and half as white as its source card (stock), as a place
 * a gap off its card is; a grid's places between cards are table. */
static int worth_snap(const ts_image *frame, const ts_quad *out, int n, const ts_quad *c,
                      int level, float stock)
{
    return ts_quad_in_frame(c->q, frame->w, frame->h, 0) && !ts_place_taken(out, n, c) &&
           white_share(frame, c->q, level) >= SNAP_STOCK * stock;
}

/* (playing_beside.h) */
int ts_playing_card_shaped(const ts_pt q[4])
{
    float a = ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]), b = ts_dist(q[1], q[2]) + ts_dist(q[3], q[0]);
    return fmaxf(a, b) >= BESIDE_LONG * fminf(a, b);
}

/* Reads place c (a neighbour offered from a card whose stock samples are
 * stock share at least level white; tried[0..*nt) tried before) and adds
 * it to out[0..*n) when read BESIDE_SURE (see BESIDE_SURE). Returns 1 if
 * added, 0 if not, -1 with err. */
static int try_beside(const ts_beside_reader *r, const ts_image *frame, ts_quad *out, int *n,
                      ts_quad *tried, int *nt, const ts_quad *c, int level, float stock,
                      char *err)
{
    float short_side = fminf(ts_dist(c->q[0], c->q[1]), ts_dist(c->q[0], c->q[3]));
    if (*nt >= BESIDE_TRIED || !ts_quad_in_frame(c->q, frame->w, frame->h, 0) ||
        ts_place_taken(out, *n, c) || ts_place_tried(tried, *nt, c, BESIDE_NEAR * short_side) ||
        white_share(frame, c->q, level) < BESIDE_STOCK * stock)
        return 0;
    tried[(*nt)++] = *c;
    ts_reading rd;
    if (r->read(r->ctx, frame, c, &rd, err) < 0)
        return -1;
    if (!rd.is_card || rd.conf < BESIDE_SURE)
        return 0;
    out[(*n)++] = *c;
    return 1;
}

/* Adds to out[0..n) the neighbours of its sure cards read BESIDE_SURE;
 * one edge to edge not read so is tried again BESIDE_GAP_TRY as far (a
 * row laid with a small gap). Returns the new count or -1 with err. */
int ts_playing_offer_beside(const ts_beside_reader *r, const ts_image *frame, ts_quad *out, int n,
                            int max, char *err)
{
    ts_quad tried[BESIDE_TRIED];
    int nt = 0;
    float side = sure_whole_side(r, out, n);
    for (int j = 0; j < n && n < max; j++) {
        if (r->conf(r->ctx, &out[j]) < TS_PLAYING_FLOOR || r->paired(r->ctx, out[j].q) == 3 ||
            !ts_playing_card_shaped(out[j].q))
            continue;
        ts_quad w;
        if (sized_by_neighbour(r, out, n, j, side, &w) >= RESIZED &&
            ts_quad_in_frame(w.q, frame->w, frame->h, 0) &&
            read_resized(r, frame, out, j, &w, err) < 0)
            return -1;
        if (!read_beside_sure(r, &out[j]))
            continue;
        int level = card_white_level(frame, w.q);
        float stock = white_share(frame, w.q, level);
        ts_pt step[BESIDE_STEPS];
        int ns = beside_steps(r, out, n, j, w.q, step);
        for (int d = 0; d < ns && n < max; d++) {
            int kept = 0;
            for (int g = 0; g < (d < 4 ? 2 : 1) && !kept && n < max; g++) {
                float f = g ? BESIDE_GAP_TRY : 1.0f;
                ts_quad c = w;
                for (int k = 0; k < 4; k++)
                    c.q[k].x += f * step[d].x, c.q[k].y += f * step[d].y;
                if (!worth_snap(frame, out, n, &c, level, stock))
                    continue;
                snap_to_card(frame, &c, level);
                kept = try_beside(r, frame, out, &n, tried, &nt, &c, level, stock, err);
                if (kept < 0)
                    return -1;
            }
        }
    }
    return n;
}

