/* Gang of Four: candidate sides snapped to the card's edges (see gof_edges.h). */
#include "readers/gof_edges.h"

#include <math.h>
#include <stdlib.h>

#include "median.h"

enum {
    SAMPLES = 14,    /* places along a side's middle */
    MAX_REACH = 64,  /* px either way across a side */
    WIN = 3          /* px averaged on each side of an edge */
};

/* How far across a side to look, as a share of the card's short side: the
 * finder's corners are off by up to 15% of it (90th centile on renders). */
static const float REACH = 0.16f;
/* Where along a side to look (its ends are rounded corners). */
static const float FROM = 0.2f, TO = 0.8f;
/* A place's edge must drop the score by this much, and the place's inside
 * must be card stock: at least this share of the card's own score (a light
 * stripe of the table beyond a card is not stock). */
static const int MIN_STEP = 24;
static const float STOCK_SHARE = 0.7f;
/* The edge is the outermost step at least this share of the strongest: the
 * numeral's strokes inside the card step down too, but lie inward. */
static const float OUTERMOST = 0.6f;
/* Places that agree (px off the side's fitted line) and how many must. */
static const float AGREE = 2.5f;
static const int MIN_AGREE = 6;

static int score_at(const ts_image *f, float x, float y)
{
    int ix = (int)(x + 0.5f), iy = (int)(y + 0.5f);
    if (ix < 0 || iy < 0 || ix >= f->w || iy >= f->h)
        return -1;
    const uint8_t *p = ts_image_row(f, iy) + (size_t)ix * f->channels;
    return f->channels == 3 ? ts_gof_stock_score(p[0], p[1], p[2]) : p[0];
}

typedef struct {
    ts_pt a, u, n; /* start, unit direction, outward unit normal */
    float len;
} side_geo;

/* The profile of the score across side s at place t (0..1 along it), from
 * -reach (inside) to +reach: the mean of three lines a pixel apart along the
 * side. Returns 0, or -1 if it leaves the frame. */
static int profile(const ts_image *f, const side_geo *s, float t, int reach, float *v)
{
    /* each line's point on the side, once: a store to v may alias *s, so
     * the compiler recomputed them at every step (the same sums in the
     * same order: the same points) */
    const ts_pt n = s->n;
    float bx[3], by[3];
    for (int d = -1; d <= 1; d++) {
        bx[d + 1] = s->a.x + s->u.x * (t * s->len + d);
        by[d + 1] = s->a.y + s->u.y * (t * s->len + d);
    }
    for (int o = -reach; o <= reach; o++) {
        int sum = 0;
        for (int d = 0; d < 3; d++) {
            int sc = score_at(f, bx[d] + n.x * o, by[d] + n.y * o);
            if (sc < 0)
                return -1;
            sum += sc;
        }
        v[o + reach] = sum / 3.0f;
    }
    return 0;
}

int ts_gof_snap_edges(const ts_image *frame, ts_quad *q)
{
    side_geo sg[4];
    ts_pt g = {0, 0};
    for (int k = 0; k < 4; k++)
        g.x += q->q[k].x / 4, g.y += q->q[k].y / 4;
    float shortest = 1e9f;
    for (int k = 0; k < 4; k++) {
        ts_pt a = q->q[k], b = q->q[(k + 1) % 4];
        float dx = b.x - a.x, dy = b.y - a.y, l = hypotf(dx, dy);
        if (l < 8)
            return -1;
        sg[k].a = a, sg[k].len = l;
        sg[k].u = (ts_pt){dx / l, dy / l};
        sg[k].n = (ts_pt){dy / l, -dx / l};
        float mx = (a.x + b.x) / 2 - g.x, my = (a.y + b.y) / 2 - g.y;
        if (sg[k].n.x * mx + sg[k].n.y * my < 0)
            sg[k].n = (ts_pt){-sg[k].n.x, -sg[k].n.y};
        shortest = fminf(shortest, l);
    }
    int reach = (int)(REACH * shortest + 2);
    reach = reach > MAX_REACH ? MAX_REACH : reach < WIN + 2 ? WIN + 2 : reach;

    /* Every profile first: the card's own score is the median of their
     * inner ends (well inside the card whichever way the quad is off). */
    static const int NP = 4 * SAMPLES;
    float prof[4 * SAMPLES][2 * MAX_REACH + 1], inner[4 * SAMPLES];
    int ok[4 * SAMPLES], ni = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < SAMPLES; i++) {
            int p = k * SAMPLES + i;
            float t = FROM + (TO - FROM) * (i + 0.5f) / SAMPLES;
            ok[p] = profile(frame, &sg[k], t, reach, prof[p]) == 0;
            if (ok[p]) {
                float m = 0;
                for (int o = 0; o < WIN; o++)
                    m += prof[p][o] / WIN;
                inner[ni++] = m;
            }
        }
    if (ni < NP / 2)
        return -1;
    ts_sort_floats(inner, (size_t)ni);
    float stock = inner[ni / 2];

    /* Each side: the edge at each place, then a line through the places
     * that agree with their median (a stroke of the numeral, a shadow, a
     * neighbour's edge disagree). */
    float lx[4], ly[4], dxs[4], dys[4];
    int moved = 0;
    for (int k = 0; k < 4; k++) {
        float off[SAMPLES], ts[SAMPLES];
        int m = 0;
        for (int i = 0; i < SAMPLES; i++) {
            int p = k * SAMPLES + i;
            if (!ok[p])
                continue;
            const float *v = prof[p];
            float best = 0, step[2 * MAX_REACH + 1];
            for (int o = WIN; o <= 2 * reach - WIN; o++) {
                float in = 0, out = 0;
                for (int w = 1; w <= WIN; w++)
                    in += v[o - w], out += v[o + w];
                in /= WIN, out /= WIN;
                step[o] = in >= STOCK_SHARE * stock ? in - out : 0;
                best = fmaxf(best, step[o]);
            }
            if (best < MIN_STEP)
                continue;
            for (int o = 2 * reach - WIN; o >= WIN; o--)
                if (step[o] >= OUTERMOST * best) {
                    off[m] = (float)(o - reach) + 0.5f; /* the edge: between o and o+1 */
                    ts[m++] = FROM + (TO - FROM) * (i + 0.5f) / SAMPLES;
                    break;
                }
        }
        /* default: the side as it was */
        lx[k] = sg[k].a.x, ly[k] = sg[k].a.y;
        dxs[k] = sg[k].u.x, dys[k] = sg[k].u.y;
        if (m < MIN_AGREE)
            continue;
        float sorted[SAMPLES];
        for (int i = 0; i < m; i++)
            sorted[i] = off[i];
        ts_sort_floats(sorted, (size_t)m);
        float med = sorted[m / 2];
        /* least squares of offset against place, on the agreeing places */
        double s1 = 0, st = 0, so = 0, stt = 0, sto = 0;
        for (int i = 0; i < m; i++)
            if (fabsf(off[i] - med) <= AGREE) {
                s1 += 1, st += ts[i], so += off[i], stt += ts[i] * ts[i], sto += ts[i] * off[i];
            }
        if (s1 < MIN_AGREE)
            continue;
        double den = s1 * stt - st * st;
        double slope = den > 1e-9 ? (s1 * sto - st * so) / den : 0;
        double icpt = (so - slope * st) / s1;
        /* offset(t) = icpt + slope t along the normal: the line through the
         * offsets at t = 0 and t = 1 */
        ts_pt n = sg[k].n;
        ts_pt p0 = {sg[k].a.x + n.x * (float)icpt, sg[k].a.y + n.y * (float)icpt};
        ts_pt p1 = {sg[k].a.x + sg[k].u.x * sg[k].len + n.x * (float)(icpt + slope),
                    sg[k].a.y + sg[k].u.y * sg[k].len + n.y * (float)(icpt + slope)};
        float dx = p1.x - p0.x, dy = p1.y - p0.y, l = hypotf(dx, dy);
        lx[k] = p0.x, ly[k] = p0.y, dxs[k] = dx / l, dys[k] = dy / l;
        moved++;
    }
    if (!moved)
        return 0;
    /* corner k: sides k-1 and k */
    ts_pt nq[4];
    for (int k = 0; k < 4; k++) {
        int a = (k + 3) % 4, b = k;
        float det = dxs[a] * dys[b] - dys[a] * dxs[b];
        if (fabsf(det) < 0.3f)
            return -1;
        float t = ((lx[b] - lx[a]) * dys[b] - (ly[b] - ly[a]) * dxs[b]) / det;
        nq[k] = (ts_pt){lx[a] + dxs[a] * t, ly[a] + dys[a] * t};
        if (hypotf(nq[k].x - q->q[k].x, nq[k].y - q->q[k].y) > 2.5f * reach)
            return -1;
    }
    for (int k = 0; k < 4; k++)
        q->q[k] = nq[k];
    return moved;
}

float ts_gof_skew(const ts_pt q[4])
{
    float worst = 0;
    for (int k = 0; k < 2; k++) {
        /* q[0]-q[1] against q[3]-q[2], then q[1]-q[2] against q[0]-q[3] */
        ts_pt a0 = q[k], a1 = q[k + 1], b0 = q[k ? 0 : 3], b1 = q[k ? 3 : 2];
        float ux = a1.x - a0.x, uy = a1.y - a0.y, vx = b1.x - b0.x, vy = b1.y - b0.y;
        float l = hypotf(ux, uy) * hypotf(vx, vy);
        float s = l > 0 && ux * vx + uy * vy > 0 ? fabsf(ux * vy - uy * vx) / l : 1;
        worst = fmaxf(worst, s);
    }
    return worst;
}
