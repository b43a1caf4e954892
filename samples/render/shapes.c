/* Unit shapes for the card faces (see shapes.h). Outlines were traced by eye
 * from photographs of the printed cards (SET) or from the designs the seeds
 * describe (the rest). */
#include <math.h>
#include <string.h>

#include "shapes.h"

#define PI 3.14159265358979323846f

static void add(ts_poly *p, float x, float y)
{
    if (p->n < TS_POLY_MAX)
        p->p[p->n++] = (ts_pt){x, y};
}

void ts_poly_bounds(const ts_poly *p, float *x0, float *x1, float *y0, float *y1)
{
    *x0 = *y0 = 1e9f;
    *x1 = *y1 = -1e9f;
    for (int i = 0; i < p->n; i++) {
        *x0 = fminf(*x0, p->p[i].x);
        *x1 = fmaxf(*x1, p->p[i].x);
        *y0 = fminf(*y0, p->p[i].y);
        *y1 = fmaxf(*y1, p->p[i].y);
    }
}

/* Scales and centres p to fill [-1, 1] on both axes. */
static void normalise(ts_poly *p)
{
    float x0, x1, y0, y1;
    ts_poly_bounds(p, &x0, &x1, &y0, &y1);
    for (int i = 0; i < p->n; i++) {
        p->p[i].x = (p->p[i].x - (x0 + x1) / 2) * 2 / (x1 - x0);
        p->p[i].y = (p->p[i].y - (y0 + y1) / 2) * 2 / (y1 - y0);
    }
}

/* A closed Catmull-Rom curve through c[0..n), per_seg points per span. */
static void smooth(ts_poly *p, const ts_pt *c, int n, int per_seg)
{
    p->n = 0;
    for (int i = 0; i < n; i++) {
        ts_pt a = c[(i + n - 1) % n], b = c[i], d = c[(i + 1) % n], e = c[(i + 2) % n];
        for (int k = 0; k < per_seg; k++) {
            float t = (float)k / per_seg, t2 = t * t, t3 = t2 * t;
            float wa = -0.5f * t3 + t2 - 0.5f * t, wb = 1.5f * t3 - 2.5f * t2 + 1;
            float wd = -1.5f * t3 + 2 * t2 + 0.5f * t, we = 0.5f * t3 - 0.5f * t2;
            add(p, wa * a.x + wb * b.x + wd * d.x + we * e.x,
                wa * a.y + wb * b.y + wd * d.y + we * e.y);
        }
    }
}

/* ---- SET ----------------------------------------------------------------- */

void ts_shape_diamond(ts_poly *p)
{
    p->n = 0;
    add(p, -1, 0);
    add(p, 0, -1);
    add(p, 1, 0);
    add(p, 0, 1);
}

void ts_shape_stadium(ts_poly *p, float aspect)
{
    p->n = 0;
    float r = 1.0f / aspect; /* end radius in x units */
    for (int half = 0; half < 2; half++)
        for (int i = 0; i <= 48; i++) {
            float a = PI / 2 + PI * i / 48 + PI * half;
            float cx = half ? (1 - r) : -(1 - r);
            add(p, cx + r * cosf(a), sinf(a));
        }
}

/* The classic squiggle, traced from photographed solid squiggles (outline
 * resampled by arc length, averaged over cards and over the half turn the
 * printed shape is symmetric under): from the left end along the bottom to
 * the bottom-right tip; the other half is the same turned. */
void ts_shape_squiggle(ts_poly *p)
{
    static const ts_pt half[10] = {
        {-1.00f, -0.50f}, {-0.97f, 0.06f}, {-0.85f, 0.55f}, {-0.63f, 0.84f}, {-0.37f, 0.91f},
        {-0.12f, 0.80f},  {0.13f, 0.61f},  {0.40f, 0.62f},  {0.64f, 0.83f},  {0.88f, 0.96f}};
    ts_pt c[20];
    for (int i = 0; i < 10; i++) {
        c[i] = half[i];
        c[10 + i] = (ts_pt){-half[i].x, -half[i].y};
    }
    smooth(p, c, 20, 10);
    normalise(p);
}

/* ---- SeeCards ------------------------------------------------------------ */

void ts_shape_hexagon(ts_poly *p)
{
    p->n = 0;
    add(p, -1, 0);
    add(p, -0.55f, -1);
    add(p, 0.55f, -1);
    add(p, 1, 0);
    add(p, 0.55f, 1);
    add(p, -0.55f, 1);
}

/* Two arcs meeting in points, fuller towards the stem end. */
void ts_shape_leaf(ts_poly *p)
{
    p->n = 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < 60; i++) {
            float x = -1 + 2.0f * i / 60;
            if (side)
                x = -x;
            float y = (1 - x * x) * (1 - 0.25f * x) * (side ? 1 : -1);
            add(p, x, y);
        }
    normalise(p);
}

/* A band following the wave amp * sin(pi * waves * x), half_w wide at the
 * head thinning by taper towards the tail, with round ends (and spikes on
 * its back). The wave's tightest bend must stay wider than half_w, or the
 * band's inner edge folds over itself. */
static void band(ts_poly *p, float amp, float waves, float half_w, float taper, int spikes)
{
    enum { N = 80 };
    ts_pt c[N + 1], nrm[N + 1];
    float w[N + 1];
    for (int i = 0; i <= N; i++) {
        float s = -1 + 2.0f * i / N;
        c[i] = (ts_pt){s, amp * sinf(PI * waves * s)};
        w[i] = half_w * (1 - taper * (s + 1) / 2);
    }
    for (int i = 0; i <= N; i++) {
        ts_pt a = c[i > 0 ? i - 1 : 0], b = c[i < N ? i + 1 : N];
        float dx = b.x - a.x, dy = b.y - a.y, l = hypotf(dx, dy);
        nrm[i] = (ts_pt){-dy / l, dx / l};
    }
    p->n = 0;
    for (int i = 0; i <= N; i++) { /* upper side, left to right */
        float k = (spikes && i % 8 == 4 && i > 8 && i < N - 4) ? 1.8f : 1.0f;
        add(p, c[i].x - nrm[i].x * w[i] * k, c[i].y - nrm[i].y * w[i] * k);
    }
    for (int k = 1; k < 12; k++) { /* round tail end */
        float a = PI * k / 12;
        ts_pt t = {nrm[N].y, -nrm[N].x}; /* along the band */
        add(p, c[N].x + (-nrm[N].x * cosf(a) + t.x * sinf(a)) * w[N],
            c[N].y + (-nrm[N].y * cosf(a) + t.y * sinf(a)) * w[N]);
    }
    for (int i = N; i >= 0; i--)
        add(p, c[i].x + nrm[i].x * w[i], c[i].y + nrm[i].y * w[i]);
    for (int k = 1; k < 12; k++) { /* round head end */
        float a = PI * k / 12;
        ts_pt t = {nrm[0].y, -nrm[0].x};
        add(p, c[0].x + (nrm[0].x * cosf(a) - t.x * sinf(a)) * w[0],
            c[0].y + (nrm[0].y * cosf(a) - t.y * sinf(a)) * w[0]);
    }
    normalise(p);
}

void ts_shape_snake(ts_poly *p)
{
    band(p, 0.3f, 0.9f, 0.32f, 0.3f, 0);
}

/* ---- General ------------------------------------------------------------- */

void ts_shape_star(ts_poly *p, int points, float inner, float turn)
{
    p->n = 0;
    for (int i = 0; i < 2 * points; i++) {
        float r = i % 2 ? inner : 1, a = PI * i / points - PI / 2 + turn;
        add(p, r * cosf(a), r * sinf(a));
    }
}

void ts_shape_round_square(ts_poly *p, float r)
{
    p->n = 0;
    const float cx[4] = {1 - r, 1 - r, -(1 - r), -(1 - r)},
                cy[4] = {-(1 - r), 1 - r, 1 - r, -(1 - r)};
    for (int q = 0; q < 4; q++)
        for (int i = 0; i <= 8; i++) {
            float a = -PI / 2 + PI / 2 * q + PI / 2 * i / 8;
            add(p, cx[q] + r * cosf(a), cy[q] + r * sinf(a));
        }
}

void ts_shape_heart(ts_poly *p)
{
    p->n = 0;
    for (int i = 0; i < 120; i++) {
        float t = 2 * PI * i / 120;
        float x = 16 * powf(sinf(t), 3);
        float y = 13 * cosf(t) - 5 * cosf(2 * t) - 2 * cosf(3 * t) - cosf(4 * t);
        add(p, x, -y);
    }
    normalise(p);
}

/* A heart turned point up, with a flared stem from the notch. */
void ts_shape_spade(ts_poly *p)
{
    p->n = 0;
    add(p, -0.9f, 5.5f);
    add(p, -4.5f, 19);
    add(p, 4.5f, 19);
    add(p, 0.9f, 5.5f);
    for (int i = 2; i < 119; i++) {
        float t = 2 * PI * i / 120;
        float x = 16 * powf(sinf(t), 3);
        float y = 13 * cosf(t) - 5 * cosf(2 * t) - 2 * cosf(3 * t) - cosf(4 * t);
        add(p, x, y);
    }
    normalise(p);
}

/* ---- Gang of Four -------------------------------------------------------- */

/* A bird in flight facing left: raised wing, long curling tail. */
void ts_shape_phoenix(ts_poly *p)
{
    static const ts_pt c[] = {
        {-1.00f, -0.28f}, {-0.86f, -0.42f}, {-0.72f, -0.36f}, {-0.55f, -0.30f}, {-0.45f, -0.70f},
        {-0.25f, -1.00f}, {0.05f, -0.98f},  {-0.05f, -0.62f}, {0.05f, -0.30f},  {0.35f, -0.35f},
        {0.70f, -0.55f},  {1.00f, -0.40f},  {0.80f, -0.18f},  {0.95f, 0.15f},   {0.75f, 0.45f},
        {0.90f, 0.85f},   {0.55f, 0.70f},   {0.40f, 0.30f},   {0.10f, 0.18f},   {-0.20f, 0.25f},
        {-0.45f, 0.55f},  {-0.50f, 0.10f},  {-0.70f, -0.10f}, {-0.85f, -0.18f}};
    smooth(p, c, (int)(sizeof c / sizeof c[0]), 8);
    normalise(p);
}

/* A serpent: a wave thick at the head, thin at the tail, spikes on its back. */
void ts_shape_dragon(ts_poly *p)
{
    band(p, 0.28f, 1.25f, 0.17f, 0.6f, 1);
}
