/* The points of an outline that can be corners of its hull (hull.h). */
#include "hull.h"

#include <limits.h>
#include <stdlib.h>

int ts_hull_candidates(const ts_ipt *pts, int n, ts_ipt *out)
{
    if (n <= 0)
        return 0;
    int x0 = pts[0].x, x1 = pts[0].x, y0 = pts[0].y, y1 = pts[0].y;
    for (int i = 1; i < n; i++) {
        x0 = pts[i].x < x0 ? pts[i].x : x0;
        x1 = pts[i].x > x1 ? pts[i].x : x1;
        y0 = pts[i].y < y0 ? pts[i].y : y0;
        y1 = pts[i].y > y1 ? pts[i].y : y1;
    }
    size_t rows = (size_t)y1 - (size_t)y0 + 1, cols = (size_t)x1 - (size_t)x0 + 1;
    /* each row's smallest and largest x, each column's smallest and largest y */
    int *ext = malloc(sizeof *ext * 2 * (rows + cols));
    if (!ext)
        return -1;
    int *rlo = ext, *rhi = ext + rows, *clo = ext + 2 * rows, *chi = clo + cols;
    for (size_t r = 0; r < rows; r++)
        rlo[r] = INT_MAX, rhi[r] = INT_MIN;
    for (size_t c = 0; c < cols; c++)
        clo[c] = INT_MAX, chi[c] = INT_MIN;
    for (int i = 0; i < n; i++) {
        size_t r = (size_t)(pts[i].y - y0), c = (size_t)(pts[i].x - x0);
        rlo[r] = pts[i].x < rlo[r] ? pts[i].x : rlo[r];
        rhi[r] = pts[i].x > rhi[r] ? pts[i].x : rhi[r];
        clo[c] = pts[i].y < clo[c] ? pts[i].y : clo[c];
        chi[c] = pts[i].y > chi[c] ? pts[i].y : chi[c];
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        ts_ipt p = pts[i];
        size_t r = (size_t)(p.y - y0), c = (size_t)(p.x - x0);
        if ((p.x == rlo[r] || p.x == rhi[r]) && (p.y == clo[c] || p.y == chi[c]))
            out[k++] = p;
    }
    free(ext);
    return k;
}
