/* Outer contours, OpenCV's points and order (see contours.h). */
#include "contours.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Marks on a traced border pixel, as OpenCV's (any nonzero mark but 1 does;
 * the scan only asks whether a pixel is marked and whether negatively): one
 * whose right neighbour is outside the region, and any other. */
#define MARK_RIGHT ((int8_t)(2 | -128))
#define MARK ((int8_t)2)

/* the eight steps, counterclockwise from east (y down) */
static const int STEP_X[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int STEP_Y[8] = {0, -1, -1, -1, 0, 1, 1, 1};

typedef struct {
    ts_ipt *pts; /* points of the contours kept, in the order found */
    size_t npts, cap;
    int *start; /* per contour kept: its first point, in the order found */
    int n, ncap;
} found;

static int add_point(found *f, int x, int y)
{
    if (f->npts == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 4096;
        ts_ipt *p = realloc(f->pts, sizeof *p * cap);
        if (!p)
            return -1;
        f->pts = p;
        f->cap = cap;
    }
    f->pts[f->npts++] = (ts_ipt){x, y};
    return 0;
}

static int add_contour(found *f)
{
    if (f->n == f->ncap) {
        int cap = f->ncap ? f->ncap * 2 : 256;
        int *s = realloc(f->start, sizeof *s * (size_t)cap);
        if (!s)
            return -1;
        f->start = s;
        f->ncap = cap;
    }
    f->start[f->n++] = (int)f->npts;
    return 0;
}

/* Follows the border through pixel i0 of the padded image (step bytes a
 * row; d: the eight steps' offsets, twice over; the pixel at x, y of the
 * caller's image), marking it (OpenCV's
 * icvFetchContour): an outer border clockwise from the west, a hole's from
 * the east. Its points go to f unless f is NULL. */
static int follow(int8_t *i0, const ptrdiff_t d[16], int x, int y, int is_hole, found *f)
{
    if (f && add_contour(f) < 0)
        return -1;
    int s, s_end;
    int8_t *i1, *i3 = i0, *i4 = i0;
    s_end = s = is_hole ? 0 : 4;
    do {
        s = (s - 1) & 7;
        i1 = i0 + d[s];
    } while (*i1 == 0 && s != s_end);
    if (s == s_end) { /* a single pixel */
        *i0 = MARK_RIGHT;
        return f ? add_point(f, x, y) : 0;
    }
    for (;;) {
        s_end = s;
        while (s < 15) {
            i4 = i3 + d[++s];
            if (*i4 != 0)
                break;
        }
        s &= 7;
        if ((unsigned)(s - 1) < (unsigned)s_end)
            *i3 = MARK_RIGHT;
        else if (*i3 == 1)
            *i3 = MARK;
        if (f && add_point(f, x, y) < 0)
            return -1;
        x += STEP_X[s];
        y += STEP_Y[s];
        if (i4 == i0 && i3 == i1)
            return 0;
        i3 = i4;
        s = (s + 4) & 7;
    }
}

/* bin's pixels as 0 and 1 inside a border of 0 (OpenCV's padded copy). */
static int8_t *padded(const ts_image *bin, ptrdiff_t *step)
{
    const int w = bin->w, h = bin->h;
    *step = w + 2;
    int8_t *img = malloc((size_t)(w + 2) * (size_t)(h + 2));
    if (!img)
        return NULL;
    memset(img, 0, (size_t)(w + 2));
    memset(img + (size_t)(h + 1) * (w + 2), 0, (size_t)(w + 2));
    for (int y = 0; y < h; y++) {
        const uint8_t *s = ts_image_row(bin, y);
        int8_t *o = img + (size_t)(y + 1) * (w + 2);
        o[0] = o[w + 1] = 0;
        for (int x = 0; x < w; x++)
            o[x + 1] = s[x] != 0;
    }
    return img;
}

/* The first x in [x, end) where row[x] differs from v, or end; sixteen
 * bytes a step (most of a mask is long runs). */
static inline int next_change(const int8_t *row, int x, int end, int8_t v)
{
#ifdef __SSE2__
    const __m128i vv = _mm_set1_epi8(v);
    for (; x + 16 <= end; x += 16) {
        int m = _mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(row + x)), vv));
        if (m != 0xffff)
            return x + __builtin_ctz(~m & 0xffff);
    }
#endif
    while (x < end && row[x] == v)
        x++;
    return x;
}

/* OpenCV's raster scan (cvFindNextContour, modes RETR_EXTERNAL and
 * RETR_CCOMP): a border starts where a row changes from 0 to an unmarked 1
 * (outer) or from 1 or a positive mark to 0 (a hole); lnbd is the last
 * marked pixel met on the row. External mode skips holes and borders met
 * inside a region. Holes are followed (their marks matter) but not kept. */
static int scan(int8_t *img, ptrdiff_t step, int w, int h, int outer_only, found *f)
{
    const ptrdiff_t d8[8] = {1, -step + 1, -step, -step - 1, -1, step - 1, step, step + 1};
    ptrdiff_t d[16];
    for (int k = 0; k < 16; k++)
        d[k] = d8[k & 7];
    for (int y = 1; y <= h; y++) {
        int8_t *row = img + y * step;
        int prev = 0, lnbd = 0;
        for (int x = 1; (x = next_change(row, x, w + 1, (int8_t)prev)) <= w; x++) {
            const int p = row[x];
            int is_hole = 0;
            if (!(prev == 0 && p == 1)) {
                if (p != 0 || prev < 1)
                    goto resume;
                if (prev & -2)
                    lnbd = x - 1;
                is_hole = 1;
            }
            if (outer_only && (is_hole || row[lnbd] > 0))
                goto resume;
            lnbd = x - is_hole;
            if (follow(row + x - is_hole, d, x - is_hole - 1, y - 1, is_hole,
                       is_hole ? NULL : f) < 0)
                return -1;
            prev = row[x]; /* as marked */
            continue;
        resume:
            prev = p;
            if (prev & -2)
                lnbd = x;
        }
    }
    return 0;
}

/* out = f's contours, the last found first (OpenCV's tree lists each new
 * one ahead of its siblings). */
static int last_first(const found *f, tscv_contours *out)
{
    out->start = malloc(sizeof *out->start * (size_t)(f->n + 1));
    out->len = malloc(sizeof *out->len * (size_t)(f->n + 1));
    out->pts = malloc(sizeof *out->pts * (f->npts + 1));
    if (!out->start || !out->len || !out->pts)
        return -1;
    size_t k = 0;
    for (int i = f->n - 1, j = 0; i >= 0; i--, j++) {
        const size_t end = i + 1 < f->n ? (size_t)f->start[i + 1] : f->npts;
        out->start[j] = (int)k;
        out->len[j] = (int)(end - (size_t)f->start[i]);
        memcpy(out->pts + k, f->pts + f->start[i], sizeof *out->pts * (end - (size_t)f->start[i]));
        k = end - (size_t)f->start[i] + k;
    }
    out->n = f->n;
    return 0;
}

int ts_find_contours(const ts_image *bin, int outer_only, tscv_contours *out)
{
    memset(out, 0, sizeof *out);
    if (bin->channels != 1 || bin->w < 1 || bin->h < 1)
        return 1;
    ptrdiff_t step;
    int8_t *img = padded(bin, &step);
    found f = {0};
    int rc = img ? scan(img, step, bin->w, bin->h, outer_only, &f) : -1;
    if (rc == 0)
        rc = last_first(&f, out);
    if (rc < 0)
        tscv_contours_free(out);
    free(img);
    free(f.pts);
    free(f.start);
    return rc;
}
