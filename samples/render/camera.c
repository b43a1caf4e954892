/* A pinhole camera over the table (see camera.h). */
#include <math.h>

#include "camera.h"

static void invert3(const double m[9], double out[9])
{
    double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8];
    double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    double k = fabs(det) > 1e-300 ? 1 / det : 0;
    out[0] = A * k;
    out[1] = -(b * i - c * h) * k;
    out[2] = (b * f - c * e) * k;
    out[3] = B * k;
    out[4] = (a * i - c * g) * k;
    out[5] = -(a * f - c * d) * k;
    out[6] = C * k;
    out[7] = -(a * h - b * g) * k;
    out[8] = (a * e - b * d) * k;
}

/* Camera looking at table point (tx, ty) from cam->distance. */
static void build(ts_camera *cam, double tx, double ty)
{
    double st = sin(cam->tilt), ct = cos(cam->tilt);
    double u[3] = {sin(cam->azimuth), cos(cam->azimuth), 0};
    double D = cam->distance;
    cam->C[0] = tx + D * st * u[0];
    cam->C[1] = ty + D * st * u[1];
    cam->C[2] = -D * ct;
    double f[3] = {-st * u[0], -st * u[1], ct};
    double uf = u[0] * f[0] + u[1] * f[1] + u[2] * f[2];
    double y[3] = {u[0] - uf * f[0], u[1] - uf * f[1], u[2] - uf * f[2]};
    double ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    for (int k = 0; k < 3; k++)
        y[k] /= ly;
    double x[3] = {y[1] * f[2] - y[2] * f[1], y[2] * f[0] - y[0] * f[2], y[0] * f[1] - y[1] * f[0]};
    double cr = cos(cam->roll), sr = sin(cam->roll);
    for (int k = 0; k < 3; k++) {
        cam->R[k] = cr * x[k] + sr * y[k];
        cam->R[3 + k] = -sr * x[k] + cr * y[k];
        cam->R[6 + k] = f[k];
    }
    double t[3];
    for (int r = 0; r < 3; r++)
        t[r] = -(cam->R[3 * r] * cam->C[0] + cam->R[3 * r + 1] * cam->C[1] +
                 cam->R[3 * r + 2] * cam->C[2]);
    /* H = K [r1 r2 t]: the table plane z = 0 seen through K [R | t] */
    for (int c = 0; c < 3; c++) {
        double m0 = c < 2 ? cam->R[c] : t[0], m1 = c < 2 ? cam->R[3 + c] : t[1];
        double m2 = c < 2 ? cam->R[6 + c] : t[2];
        cam->H[c] = cam->f * m0 + cam->cx * m2;
        cam->H[3 + c] = cam->f * m1 + cam->cy * m2;
        cam->H[6 + c] = m2;
    }
    invert3(cam->H, cam->Hinv);
}

ts_pt ts_camera_project(const ts_camera *cam, double x, double y)
{
    const double *H = cam->H;
    double d = H[6] * x + H[7] * y + H[8];
    return (ts_pt){(float)((H[0] * x + H[1] * y + H[2]) / d),
                   (float)((H[3] * x + H[4] * y + H[5]) / d)};
}

ts_pt ts_camera_unproject(const ts_camera *cam, double u, double v)
{
    const double *H = cam->Hinv;
    double d = H[6] * u + H[7] * v + H[8];
    return (ts_pt){(float)((H[0] * u + H[1] * v + H[2]) / d),
                   (float)((H[3] * u + H[4] * v + H[5]) / d)};
}

double ts_camera_depth(const ts_camera *cam, double u, double v)
{
    ts_pt p = ts_camera_unproject(cam, u, v);
    return cam->R[6] * (p.x - cam->C[0]) + cam->R[7] * (p.y - cam->C[1]) +
           cam->R[8] * (0 - cam->C[2]);
}

/* Extent of the projected view box; 0 if part of it is behind the camera. */
static int extent(const ts_camera *cam, const float v[4], double box[4])
{
    const double xs[4] = {v[0], v[2], v[2], v[0]}, ys[4] = {v[1], v[1], v[3], v[3]};
    box[0] = box[1] = 1e300;
    box[2] = box[3] = -1e300;
    for (int k = 0; k < 4; k++) {
        const double *H = cam->H;
        double d = H[6] * xs[k] + H[7] * ys[k] + H[8];
        if (d <= 1e-9)
            return 0;
        ts_pt p = ts_camera_project(cam, xs[k], ys[k]);
        box[0] = fmin(box[0], p.x);
        box[1] = fmin(box[1], p.y);
        box[2] = fmax(box[2], p.x);
        box[3] = fmax(box[3], p.y);
    }
    return 1;
}

void ts_camera_fit(ts_camera *cam, const float view[4], int w, int h, double fill, double jx,
                   double jy)
{
    double tx = (view[0] + view[2]) / 2, ty = (view[1] + view[3]) / 2, box[4];
    cam->w = w;
    cam->h = h;
    cam->f = w / 2.0 / tan(cam->fov / 2);
    cam->cx = w / 2.0;
    cam->cy = h / 2.0;
    double lo = 1, hi = 1e6;
    for (int it = 0; it < 60; it++) { /* the nearest distance at which the box fits */
        cam->distance = sqrt(lo * hi);
        build(cam, tx, ty);
        int fits = extent(cam, view, box) && (box[2] - box[0]) <= fill * w &&
                   (box[3] - box[1]) <= fill * h;
        if (fits)
            hi = cam->distance;
        else
            lo = cam->distance;
    }
    cam->distance = hi;
    build(cam, tx, ty);
    extent(cam, view, box);
    /* centre the box, then move it by up to the jitter's share of the slack */
    double sx = w - (box[2] - box[0]), sy = h - (box[3] - box[1]);
    cam->cx += w / 2.0 - (box[0] + box[2]) / 2 + jx * sx / 2 * 0.8;
    cam->cy += h / 2.0 - (box[1] + box[3]) / 2 + jy * sy / 2 * 0.8;
    build(cam, tx, ty);
}
