/* Small plane geometry on ts_pt quads, shared by the detector, the pipeline
 * and the renderer. */
#ifndef TS_GEOM_H
#define TS_GEOM_H

#include <math.h>

#include "cv/cvwrap.h"

static inline float ts_dist(ts_pt a, ts_pt b)
{
    return hypotf(a.x - b.x, a.y - b.y);
}

static inline ts_pt ts_mid(ts_pt a, ts_pt b)
{
    return (ts_pt){(a.x + b.x) / 2, (a.y + b.y) / 2};
}

/* The point a share t of the way from a to b. */
static inline ts_pt ts_toward(ts_pt a, ts_pt b, float t)
{
    return (ts_pt){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

/* The unit normal to line ab on the side away from ctr (a side's outward
 * normal, ctr inside the shape); (0, 0) when a and b coincide. */
static inline ts_pt ts_outward(ts_pt a, ts_pt b, ts_pt ctr)
{
    float len = ts_dist(a, b);
    if (len <= 0)
        return (ts_pt){0, 0};
    ts_pt n = {(b.y - a.y) / len, -(b.x - a.x) / len};
    if (n.x * (a.x - ctr.x) + n.y * (a.y - ctr.y) < 0)
        n = (ts_pt){-n.x, -n.y};
    return n;
}

/* True if (x, y) lies inside the convex quadrilateral q (either winding). */
static inline int ts_point_in_quad(const ts_pt q[4], float x, float y)
{
    int sign = 0;
    for (int i = 0; i < 4; i++) {
        ts_pt a = q[i], b = q[(i + 1) & 3];
        float c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
        int s = c > 0 ? 1 : -1;
        if (sign && s != sign)
            return 0;
        sign = s;
    }
    return 1;
}

/* Area of a quadrilateral (either winding). */
static inline double ts_quad_area(const ts_pt q[4])
{
    double a = 0;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) & 3;
        a += (double)q[i].x * q[j].y - (double)q[j].x * q[i].y;
    }
    return fabs(a) / 2;
}

/* The mean of q's corners. */
static inline ts_pt ts_quad_centre(const ts_pt q[4])
{
    return (ts_pt){(q[0].x + q[1].x + q[2].x + q[3].x) / 4, (q[0].y + q[1].y + q[2].y + q[3].y) / 4};
}

/* q scaled by k about point c into out (out may be q). */
static inline void ts_quad_scale_about(const ts_pt q[4], ts_pt c, float k, ts_pt out[4])
{
    for (int j = 0; j < 4; j++)
        out[j] = (ts_pt){c.x + (q[j].x - c.x) * k, c.y + (q[j].y - c.y) * k};
}

/* q scaled by k about its centre (ts_quad_centre) into out. */
static inline void ts_quad_scale(const ts_pt q[4], float k, ts_pt out[4])
{
    ts_quad_scale_about(q, ts_quad_centre(q), k, out);
}

/* The point at (u, v) of q, bilinear: u along q[0]-q[1], v along q[0]-q[3]
 * (0..1 each: a place on a card given as fractions of its width and
 * length). */
static inline ts_pt ts_quad_point(const ts_pt q[4], float u, float v)
{
    ts_pt a = {q[0].x + (q[1].x - q[0].x) * u, q[0].y + (q[1].y - q[0].y) * u};
    ts_pt b = {q[3].x + (q[2].x - q[3].x) * u, q[3].y + (q[2].y - q[3].y) * u};
    return (ts_pt){a.x + (b.x - a.x) * v, a.y + (b.y - a.y) * v};
}

/* Whether every corner of q lies in a w x h frame widened by margin each
 * way. */
static inline int ts_quad_in_frame(const ts_pt q[4], int w, int h, float margin)
{
    for (int c = 0; c < 4; c++)
        if (q[c].x < -margin || q[c].y < -margin || q[c].x > w + margin || q[c].y > h + margin)
            return 0;
    return 1;
}

#endif
