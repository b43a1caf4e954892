/* Card detection (see detect.h). */
#include "detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "imageio.h"
#include "distance.h"

#ifdef __SSE2__
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
/* An AVX2 decimation, chosen at run time (the build targets plain x86-64). */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define TS_DETECT_AVX2 1
#include <immintrin.h>
#endif

typedef struct {
    int x0, y0, x1, y1;
} box; /* a pixel box [x0, x1) x [y0, y1) of the work image */

enum { MAX_BOXES = 64 };

struct ts_detector {
    ts_detect_params p;
    ts_image white, bin, eroded, dist; /* scratch, reused across frames */
    ts_image fine, fine_closed, fine_bin; /* seam search at twice the resolution */
    ts_image plain;                    /* white with a printed cloth's pattern closed */
    double cloth_area;                 /* adaptive blobs that are not cards (work px^2) */
    double otsu;                       /* Otsu's split of white (ts_detect_unexplained) */
    uint8_t *rows;                     /* decimation scratch: two frame rows */
    size_t nrows;
    int avx2;                          /* the processor has AVX2 */
    box seams[MAX_BOXES];              /* where blobs may be cards edge to edge */
    int nseams;
    int k;                             /* the last frame's decimation */
    char debug_dir[256];
};

void ts_detect_defaults(ts_detect_params *p)
{
    p->work_size = 520;
    p->min_aspect = 1.0f; /* a card seen at a steep angle foreshortens to ~1.05 */
    p->max_aspect = 2.4f;
    p->min_area = 0.0015f;
    p->max_area = 0.6f;
    p->min_solidity = 0.88f;
    p->whole_fill = 2.0f;
}

ts_detector *ts_detector_create(const ts_detect_params *params)
{
    ts_detector *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (params)
        d->p = *params;
    else
        ts_detect_defaults(&d->p);
#ifdef TS_DETECT_AVX2
    d->avx2 = __builtin_cpu_supports("avx2");
#endif
    return d;
}

void ts_detector_destroy(ts_detector *d)
{
    if (!d)
        return;
    ts_image_free(&d->white);
    ts_image_free(&d->bin);
    ts_image_free(&d->eroded);
    ts_image_free(&d->dist);
    ts_image_free(&d->fine);
    ts_image_free(&d->fine_closed);
    ts_image_free(&d->fine_bin);
    ts_image_free(&d->plain);
    free(d->rows);
    free(d);
}

void ts_detector_debug_dir(ts_detector *d, const char *dir)
{
    snprintf(d->debug_dir, sizeof d->debug_dir, "%s", dir ? dir : "");
}

static void debug_write(const ts_detector *d, const char *name, const ts_image *img)
{
    if (!d->debug_dir[0])
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", d->debug_dir, name);
    ts_image_save(img, path, NULL, 0);
}

/* Reallocates a scratch image when the size changes. */
static int scratch(ts_image *img, int w, int h, int ch)
{
    if (img->buf && img->w == w && img->h == h && img->channels == ch)
        return 0;
    ts_image_free(img);
    return ts_image_alloc(img, w, h, ch);
}

/* Grows the decimation's row scratch to n bytes. */
static int row_scratch(ts_detector *d, size_t n)
{
    if (d->nrows >= n)
        return 0;
    uint8_t *r = realloc(d->rows, n);
    if (!r)
        return -1;
    d->rows = r;
    d->nrows = n;
    return 0;
}

/* ---- Geometry ----------------------------------------------------------- */

void ts_quad_order(ts_pt q[4])
{
    float cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4;
    float cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
    float ang[4];
    for (int i = 0; i < 4; i++)
        ang[i] = atan2f(q[i].y - cy, q[i].x - cx);
    for (int i = 1; i < 4; i++) /* insertion sort by angle = clockwise on screen */
        for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
            float ta = ang[j];
            ang[j] = ang[j - 1];
            ang[j - 1] = ta;
            ts_pt tp = q[j];
            q[j] = q[j - 1];
            q[j - 1] = tp;
        }
    if (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]) > ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) {
        ts_pt t = q[0];
        q[0] = q[1];
        q[1] = q[2];
        q[2] = q[3];
        q[3] = t;
    }
    /* Of the two short sides, start from the upper one so output is stable. */
    if (q[2].y + q[3].y < q[0].y + q[1].y) {
        ts_pt a = q[0], b = q[1];
        q[0] = q[2];
        q[1] = q[3];
        q[2] = a;
        q[3] = b;
    }
}

/* Total-least-squares line through points: centre (cx,cy), direction (dx,dy). */
typedef struct {
    double cx, cy, dx, dy;
} line2;

static int fit_line(const ts_ipt *pts, const int *idx, int n, line2 *l)
{
    if (n < 4)
        return -1;
    double sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        sx += pts[idx[i]].x;
        sy += pts[idx[i]].y;
    }
    l->cx = sx / n;
    l->cy = sy / n;
    double xx = 0, xy = 0, yy = 0;
    for (int i = 0; i < n; i++) {
        double x = pts[idx[i]].x - l->cx, y = pts[idx[i]].y - l->cy;
        xx += x * x;
        xy += x * y;
        yy += y * y;
    }
    double theta = 0.5 * atan2(2 * xy, xx - yy); /* principal direction */
    l->dx = cos(theta);
    l->dy = sin(theta);
    return 0;
}

static int intersect(const line2 *a, const line2 *b, ts_pt *p)
{
    double den = a->dx * b->dy - a->dy * b->dx;
    if (fabs(den) < 1e-6)
        return -1;
    double t = ((b->cx - a->cx) * b->dy - (b->cy - a->cy) * b->dx) / den;
    p->x = (float)(a->cx + t * a->dx);
    p->y = (float)(a->cy + t * a->dy);
    return 0;
}

/* Refines a rough quad by fitting a line to the contour points along each
 * side, away from the (rounded) corners. Leaves q unchanged on failure. */
static void refine_quad(const ts_ipt *pts, int n, ts_pt q[4])
{
    int *idx = malloc(sizeof(int) * (size_t)n * 4);
    if (!idx)
        return;
    /* Per side: start, direction, squared length; squared distances
     * throughout, as this runs for every outline point. */
    float ax[4], ay[4], vx[4], vy[4], l2[4];
    for (int s = 0; s < 4; s++) {
        ax[s] = q[s].x;
        ay[s] = q[s].y;
        vx[s] = q[(s + 1) & 3].x - ax[s];
        vy[s] = q[(s + 1) & 3].y - ay[s];
        l2[s] = vx[s] * vx[s] + vy[s] * vy[s];
    }
    int cnt[4] = {0};
#ifdef __SSE2__
    /* the four sides in the lanes, the same float steps as below */
    const __m128 vax = _mm_loadu_ps(ax), vay = _mm_loadu_ps(ay), vvx = _mm_loadu_ps(vx),
                 vvy = _mm_loadu_ps(vy), vl2 = _mm_loadu_ps(l2), zero = _mm_setzero_ps(),
                 one = _mm_set1_ps(1), has_len = _mm_cmpgt_ps(vl2, zero);
#endif
    for (int i = 0; i < n; i++) {
        float px = (float)pts[i].x, py = (float)pts[i].y;
        int best = 0;
        float bd = 1e30f, bt = 0;
#ifdef __SSE2__
        float ts[4], dds[4];
        const __m128 ux = _mm_sub_ps(_mm_set1_ps(px), vax), uy = _mm_sub_ps(_mm_set1_ps(py), vay);
        __m128 t = _mm_div_ps(_mm_add_ps(_mm_mul_ps(ux, vvx), _mm_mul_ps(uy, vvy)), vl2);
        t = _mm_min_ps(_mm_max_ps(_mm_and_ps(t, has_len), zero), one);
        const __m128 dx = _mm_sub_ps(ux, _mm_mul_ps(t, vvx)), dy = _mm_sub_ps(uy, _mm_mul_ps(t, vvy));
        _mm_storeu_ps(ts, t);
        _mm_storeu_ps(dds, _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)));
        for (int s = 0; s < 4; s++)
            if (dds[s] < bd) {
                bd = dds[s];
                best = s;
                bt = ts[s];
            }
#else
        for (int s = 0; s < 4; s++) { /* distance to the segment, squared */
            float t = l2[s] > 0 ? ((px - ax[s]) * vx[s] + (py - ay[s]) * vy[s]) / l2[s] : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            float dx = px - ax[s] - t * vx[s], dy = py - ay[s] - t * vy[s];
            float dd = dx * dx + dy * dy;
            if (dd < bd) {
                bd = dd;
                best = s;
                bt = t;
            }
        }
#endif
        /* Skip points near either corner (rounding pulls them off the line)
         * and points far off the side. t is the position along the side, so
         * the corner test is on t, the distance test on squares. */
        if (bt < 0.15f || bt > 0.85f || bd > 0.0064f * l2[best])
            continue;
        idx[best * n + cnt[best]++] = i;
    }
    line2 l[4];
    for (int s = 0; s < 4; s++)
        if (fit_line(pts, idx + s * n, cnt[s], &l[s]) < 0) {
            free(idx);
            return;
        }
    free(idx);
    ts_pt r[4];
    for (int c = 0; c < 4; c++) /* corner c joins side c-1 and side c */
        if (intersect(&l[(c + 3) & 3], &l[c], &r[c]) < 0)
            return;
    for (int c = 0; c < 4; c++)
        if (ts_dist(r[c], q[c]) > 0.15f * ts_dist(q[c], q[(c + 1) & 3]))
            return; /* a wild fit: keep the rough corners */
    memcpy(q, r, sizeof r);
}

/* ---- Candidates --------------------------------------------------------- */

/* Copies the points of a pixel outline where it turns (the ends of its
 * straight runs) to out; returns how many. Same hull, a third of the points. */
static int corners_only(const ts_ipt *p, int n, ts_ipt *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        const ts_ipt a = p[(i + n - 1) % n], b = p[i], c = p[(i + 1) % n];
        if (n < 3 || b.x - a.x != c.x - b.x || b.y - a.y != c.y - b.y)
            out[k++] = b;
    }
    return k;
}

/* Tests one contour; on success writes a quad (work-image pixels, grown by
 * `grow` px to undo erosion) and returns 1. */
static int contour_quad(const ts_detector *d, const ts_ipt *pts, int n, double frame_area,
                        float grow, ts_quad *out)
{
#define REJECT(...)                                                                               \
    do {                                                                                           \
        if (d->debug_dir[0])                                                                       \
            fprintf(stderr, "detect: reject at (%d,%d): " __VA_ARGS__), fputc('\n', stderr);        \
        return 0;                                                                                  \
    } while (0)
    const ts_detect_params *p = &d->p;
    double area = tscv_area(pts, n);
    if (area < p->min_area * frame_area || area > p->max_area * frame_area)
        return 0;
    ts_ipt *turns = malloc(sizeof *turns * 2 * (size_t)n);
    if (!turns)
        return 0;
    ts_ipt *hp = turns + n;
    int nh = tscv_hull(turns, corners_only(pts, n, turns), hp);
    double hull = nh > 2 ? tscv_area(hp, nh) : 0;
    if (hull <= 0 || area / hull < p->min_solidity) {
        free(turns);
        REJECT("solidity %.2f", pts[0].x, pts[0].y, hull > 0 ? area / hull : 0);
    }
    double perim = tscv_perimeter(pts, n);
    ts_ipt ap[16];
    int k = 0;
    for (double eps = 0.015; eps <= 0.08 && k != 4; eps += 0.01)
        k = tscv_approx(hp, nh, eps * perim, 0, ap, 16);
    free(turns);
    if (k != 4)
        REJECT("%d corners", pts[0].x, pts[0].y, k);
    ts_pt q[4];
    for (int i = 0; i < 4; i++)
        q[i] = (ts_pt){(float)ap[i].x, (float)ap[i].y};
    ts_quad_order(q);
    refine_quad(pts, n, q);
    double qa = ts_quad_area(q);
    if (qa <= 0)
        return 0;
    float s1 = (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3])) / 2;
    float s2 = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) / 2;
    float aspect = s2 / s1;
    if (aspect < p->min_aspect || aspect > p->max_aspect)
        REJECT("aspect %.2f", pts[0].x, pts[0].y, aspect);
    double fill = area / qa; /* a rectangle fills its quad; rounded corners cost ~2% */
    if (fill < 0.88 || fill > 1.15)
        REJECT("fill %.2f", pts[0].x, pts[0].y, fill);
    if (grow > 0) { /* push each corner away from the centre by `grow` px per side */
        float cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4;
        float cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
        for (int i = 0; i < 4; i++) {
            float dx = q[i].x - cx, dy = q[i].y - cy, l = hypotf(dx, dy);
            q[i].x += dx / l * grow * 1.41f;
            q[i].y += dy / l * grow * 1.41f;
        }
    }
    memcpy(out->q, q, sizeof q);
    out->score = (float)(fill > 1 ? 2 - fill : fill);
    out->area = (float)ts_quad_area(q);
    return 1;
}

static ts_pt centre(const ts_quad *q)
{
    return (ts_pt){(q->q[0].x + q->q[1].x + q->q[2].x + q->q[3].x) / 4,
                   (q->q[0].y + q->q[1].y + q->q[2].y + q->q[3].y) / 4};
}

static int contains_centre(const ts_quad *outer, const ts_quad *inner)
{
    ts_pt c = centre(inner);
    return ts_point_in_quad(outer->q, c.x, c.y);
}

int ts_quad_overlap(const ts_quad *a, const ts_quad *b)
{
    return contains_centre(a, b) || contains_centre(b, a);
}

/* ---- Candidate pool ----------------------------------------------------- */

enum { NRADII = 4, MAX_CAND = 512 };
/* Candidate sources: the binarisations of ts_detect, then the seam search,
 * then the binarisation of a printed cloth's closed image (see cloth_regions). */
enum { SOURCE_ADAPTIVE, SOURCE_OTSU, SOURCE_EDGES, SOURCE_SEAMS, SOURCE_CLOTH };
/* The widest dark print (dots, stripes, checks: work pixels across, less
 * one) that closing fills; a card's marks wider than this stay. */
enum { CLOTH_CLOSE = 5 };
/* How much darker than its surroundings a seam between cards is (grey levels). */
enum { SEAM_CONTRAST = 12, SEAM_OPEN = 2 };

/* Erosion separates cards that touch (px on the work image). */
static const int RADII[NRADII] = {0, 2, 4, 7};

typedef struct {
    int n;
    ts_quad q[MAX_CAND];
    unsigned char source[MAX_CAND], depth[MAX_CAND];
} cand_list;

static box bounds(const ts_ipt *p, int len)
{
    box b = {p[0].x, p[0].y, p[0].x + 1, p[0].y + 1};
    for (int i = 1; i < len; i++) {
        b.x0 = p[i].x < b.x0 ? p[i].x : b.x0;
        b.y0 = p[i].y < b.y0 ? p[i].y : b.y0;
        b.x1 = p[i].x + 1 > b.x1 ? p[i].x + 1 : b.x1;
        b.y1 = p[i].y + 1 > b.y1 ? p[i].y + 1 : b.y1;
    }
    return b;
}

/* Two cards touching at a corner or edge form one blob with two deep dents
 * where they meet: cut the outline between the two deepest dents and offer
 * each half as a card. */
static void split_at_dents(ts_detector *d, const ts_ipt *pts, int n, double frame_area, int source,
                           cand_list *cl)
{
    int deepest[64];
    float depth[64];
    int nd = tscv_defects(pts, n, deepest, depth, 64);
    int a = -1, b = -1;
    for (int i = 0; i < nd; i++) {
        if (a < 0 || depth[i] > depth[a]) {
            b = a;
            a = i;
        } else if (b < 0 || depth[i] > depth[b]) {
            b = i;
        }
    }
    double area = tscv_area(pts, n);
    if (b < 0 || depth[b] < 0.08 * sqrt(area))
        return; /* no two real dents: not two cards */
    int i0 = deepest[a] < deepest[b] ? deepest[a] : deepest[b];
    int i1 = deepest[a] < deepest[b] ? deepest[b] : deepest[a];
    ts_ipt *half = malloc(sizeof *half * (size_t)n);
    if (!half)
        return;
    for (int h = 0; h < 2 && cl->n < MAX_CAND; h++) {
        int m = 0;
        if (h == 0)
            for (int i = i0; i <= i1; i++)
                half[m++] = pts[i];
        else
            for (int i = i1; i != i0 + 1; i = (i + 1) % n)
                half[m++] = pts[i];
        if (m >= 8 && contour_quad(d, half, m, frame_area, 0, &cl->q[cl->n])) {
            cl->source[cl->n] = (unsigned char)source;
            cl->depth[cl->n++] = 1; /* ranked with the first erosion: a cut outline */
        }
    }
    free(half);
}

/* Adds the box b, grown by margin, to boxes, merging boxes that overlap so
 * no area is searched twice. */
static void add_box(box *boxes, int *n, box b, int margin, int w, int h)
{
    b.x0 = b.x0 - margin < 0 ? 0 : b.x0 - margin;
    b.y0 = b.y0 - margin < 0 ? 0 : b.y0 - margin;
    b.x1 = b.x1 + margin > w ? w : b.x1 + margin;
    b.y1 = b.y1 + margin > h ? h : b.y1 + margin;
    for (int i = 0; i < *n;) {
        const box *o = &boxes[i];
        if (o->x0 < b.x1 && b.x0 < o->x1 && o->y0 < b.y1 && b.y0 < o->y1) {
            b.x0 = o->x0 < b.x0 ? o->x0 : b.x0; /* absorb it and look again */
            b.y0 = o->y0 < b.y0 ? o->y0 : b.y0;
            b.x1 = o->x1 > b.x1 ? o->x1 : b.x1;
            b.y1 = o->y1 > b.y1 ? o->y1 : b.y1;
            boxes[i] = boxes[--*n];
            i = 0;
        } else {
            i++;
        }
    }
    if (*n < MAX_BOXES)
        boxes[(*n)++] = b;
    else /* too many pieces: search everything */
        boxes[0] = (box){0, 0, w, h}, *n = 1;
}

/* True if a contour found in box b (its bounds c) runs along one of b's
 * sides that is not the image's edge: it belongs to something cut off by
 * the box. Its points lie in b, so it touches a side where its bounds do. */
static int cut_by_box(const box *c, const box *b, int w, int h)
{
    return (c->x0 == b->x0 && b->x0 > 0) || (c->x1 == b->x1 && b->x1 < w) ||
           (c->y0 == b->y0 && b->y0 > 0) || (c->y1 == b->y1 && b->y1 < h);
}

/* Offers each contour of cs, found at erosion depth r in box `in` (NULL:
 * the whole image), as a candidate. At depth 0, adds to boxes where deeper
 * erosion may find cards the contour hides: blobs that are not one card, and
 * squat "cards" that may be two side by side. */
static void offer(ts_detector *d, tscv_contours *cs, int r, int source, const box *in,
                  cand_list *cl, box *boxes, int *nboxes)
{
    const int w = d->bin.w, h = d->bin.h, margin = RADII[NRADII - 1] + 2;
    const double frame_area = (double)w * h;
    /* A pixel outline of len points (steps of at most sqrt 2) encloses at
     * most len^2 / (2 pi): shorter ones than this are under min_area, which
     * every use of a contour below asks for (6 < 2 pi keeps a margin). */
    const double min_len2 = 6.0 * d->p.min_area * frame_area;
    for (int i = 0; i < cs->n && cl->n < MAX_CAND; i++) {
        ts_ipt *p = cs->pts + cs->start[i];
        int len = cs->len[i];
        if ((double)len * len < min_len2)
            continue;
        if (in)
            for (int j = 0; j < len; j++) {
                p[j].x += in->x0;
                p[j].y += in->y0;
            }
        box b = bounds(p, len);
        if (in && cut_by_box(&b, in, w, h))
            continue;
        ts_quad *q = &cl->q[cl->n];
        if (contour_quad(d, p, len, frame_area, (float)RADII[r], q)) {
            cl->source[cl->n] = (unsigned char)source;
            cl->depth[cl->n++] = (unsigned char)r;
            float aspect = (ts_dist(q->q[1], q->q[2]) + ts_dist(q->q[3], q->q[0])) /
                           (ts_dist(q->q[0], q->q[1]) + ts_dist(q->q[2], q->q[3]));
            /* a squat outline may be two cards side by side, unless it
             * fills its quad like one card of a squat family */
            if (r == 0 && aspect < 1.45f && q->score < d->p.whole_fill)
                add_box(boxes, nboxes, b, margin, w, h);
        } else if (r == 0) {
            double area = tscv_area(p, len);
            if (source == SOURCE_ADAPTIVE)
                d->cloth_area += area;
            if (area > 2 * d->p.min_area * frame_area)
                split_at_dents(d, p, len, frame_area, source, cl);
            if (area > d->p.min_area * frame_area)
                add_box(boxes, nboxes, b, margin, w, h);
            if (area > 2 * d->p.min_area * frame_area && area < d->p.max_area * frame_area &&
                source < SOURCE_EDGES)
                add_box(d->seams, &d->nseams, b, 2, w, h);
        }
    }
}

/* Candidates from d->bin: its blobs, then deeper erosions (thresholds of the
 * distance transform) inside the boxes that need them. nested: also regions
 * inside other regions' holes (the regions between edges all lie inside the
 * background's). */
static int gather(ts_detector *d, int source, int nested, cand_list *cl, char *err)
{
    box boxes[MAX_BOXES];
    int nboxes = 0;
    tscv_contours cs;
    if (tscv_find_contours(&d->bin, !nested, &cs, err) < 0)
        return -1;
    offer(d, &cs, 0, source, NULL, cl, boxes, &nboxes);
    tscv_contours_free(&cs);
    for (int b = 0; b < nboxes; b++) {
        /* The box's margin exceeds the deepest radius, so distances up to it
         * are exact inside the box. */
        const box *bx = &boxes[b];
        const int bw = bx->x1 - bx->x0, bh = bx->y1 - bx->y0;
        ts_image bin = ts_image_roi(&d->bin, bx->x0, bx->y0, bw, bh);
        ts_image dist = ts_image_roi(&d->dist, bx->x0, bx->y0, bw, bh);
        ts_image eroded = ts_image_roi(&d->eroded, bx->x0, bx->y0, bw, bh);
        ts_distance_l1(&bin, &dist);
        for (int r = 1; r < NRADII; r++) {
            const int rad = RADII[r];
            for (int y = 0; y < bh; y++) {
                const uint8_t *restrict dr = ts_image_row(&dist, y);
                uint8_t *restrict o = ts_image_row(&eroded, y);
                int x = 0;
#ifdef __SSE2__
                /* sixteen a step, the last step overlapping the one before
                 * (the compiler's loop leaves up to 15 to scalar code) */
                const __m128i rv = _mm_set1_epi8((char)rad); /* distances <= 16 */
                for (; bw >= 16 && x < bw; x += 16) {
                    x = x > bw - 16 ? bw - 16 : x;
                    _mm_storeu_si128((__m128i *)(o + x),
                                     _mm_cmpgt_epi8(_mm_loadu_si128((const __m128i *)(dr + x)), rv));
                }
#endif
                for (; x < bw; x++)
                    o[x] = dr[x] > rad ? 255 : 0;
            }
            if (tscv_find_contours(&eroded, !nested, &cs, err) < 0)
                return -1;
            offer(d, &cs, r, source, bx, cl, boxes, &nboxes);
            tscv_contours_free(&cs);
        }
    }
    return 0;
}

/* A candidate is two or more cards if deeper erosion of the same binary
 * image split it into card-sized pieces (two cards side by side can look like
 * one foreshortened card; symbols inside a card are far smaller), or if the
 * seam search found cards making up most of it (a grid of cards edge to
 * edge has a card's outline too). */
static int is_merged(const cand_list *cl, int i)
{
    for (int r = cl->depth[i] + 1; r < NRADII; r++) {
        int k = 0;
        for (int j = 0; j < cl->n; j++)
            if (cl->source[j] == cl->source[i] && cl->depth[j] == r &&
                cl->q[j].area > 0.25f * cl->q[i].area && contains_centre(&cl->q[i], &cl->q[j]))
                k++;
        if (k >= 2)
            return 1;
    }
    int k = 0;
    float pieces = 0;
    for (int j = 0; j < cl->n; j++)
        if (cl->source[j] == SOURCE_SEAMS && cl->q[j].area < 0.7f * cl->q[i].area &&
            contains_centre(&cl->q[i], &cl->q[j])) {
            k++;
            pieces += cl->q[j].area;
        }
    return k >= 2 && pieces > 0.5f * cl->q[i].area;
}

/* Where candidate i ranks: by depth, a printed cloth's after all others
 * (its closing also fills the gaps between cards that lie close). */
static int rank(const cand_list *cl, int i)
{
    return cl->depth[i] + (cl->source[i] == SOURCE_CLOTH ? NRADII : 0);
}

/* Shallow (exact outline) before deep, then the largest first (a shadow or
 * glare across a card cuts it into smaller card-like pieces); merged cards
 * left out. */
static int order_candidates(const cand_list *cl, ts_quad *out, int max)
{
    int order[MAX_CAND];
    for (int i = 0; i < cl->n; i++)
        order[i] = i;
    for (int i = 1; i < cl->n; i++)
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            if (rank(cl, a) < rank(cl, b) ||
                (rank(cl, a) == rank(cl, b) && cl->q[a].area >= cl->q[b].area))
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    int n = 0;
    for (int k = 0; k < cl->n && n < max; k++) {
        int i = order[k];
        if (is_merged(cl, i))
            continue;
        out[n++] = cl->q[i];
    }
    return n;
}

/* ---- Search ------------------------------------------------------------- */

/* t[i] = the least of bytes i, i+1, i+2 of p, for i < n: at i = 3x, pixel
 * x's darkest channel. A plain byte loop the compiler turns into vector
 * minima, where a per-pixel loop over three channels stays scalar. */
static void min3_bytes(const uint8_t *restrict p, int n, uint8_t *restrict t)
{
    for (int i = 0; i < n; i++) {
        uint8_t a = p[i] < p[i + 1] ? p[i] : p[i + 1];
        t[i] = p[i + 2] < a ? p[i + 2] : a;
    }
}

#ifdef TS_DETECT_AVX2
/* The darkest channel of 32 pixels from p (reads 98 bytes): two groups of 16,
 * one to a lane; in a lane, each of three 16-byte chunks' bytes i..i+2 at
 * once, then the chunks' pixel starts (bytes 0, 3, .. 45) gathered in
 * order. */
__attribute__((target("avx2"))) static inline __m256i min3_32px(const uint8_t *p)
{
    const __m256i pick0 = _mm256_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                           -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1,
                                           -1, -1);
    const __m256i pick1 = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1,
                                           -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1,
                                           -1, -1);
    const __m256i pick2 = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10,
                                           13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7,
                                           10, 13);
    const __m256i *pick[3] = {&pick0, &pick1, &pick2};
    __m256i out = _mm256_setzero_si256();
    for (int j = 0; j < 3; j++) {
        __m256i m = _mm256_setzero_si256();
        for (int s = 0; s < 3; s++) {
            const uint8_t *q = p + 16 * j + s;
            __m256i v = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)q)),
                _mm_loadu_si128((const __m128i *)(q + 48)), 1);
            m = s ? _mm256_min_epu8(m, v) : v;
        }
        out = _mm256_or_si256(out, _mm256_shuffle_epi8(m, *pick[j]));
    }
    return out;
}

/* decimate_min_channel's row y for k = 2 or 4 (samples at pixels k/4 and
 * 3k/4 of each block, of rows r0 and r1), 32 frame pixels a step while 98
 * bytes lie within the row's n bytes. Returns how many outputs it made. */
__attribute__((target("avx2"))) static int decimate_row_avx2(const uint8_t *r0,
                                                            const uint8_t *r1, int k, int w,
                                                            int n, uint8_t *o)
{
    const __m256i ones = _mm256_set1_epi8(1), odd = _mm256_set1_epi16(1 << 8);
    const __m256i ones16 = _mm256_set1_epi16(1);
    int x = 0;
    if (k == 2) { /* pixels 2x and 2x + 1: pairs of bytes */
        for (; x + 16 <= w && 6 * x + 98 <= n; x += 16) {
            __m256i a = _mm256_maddubs_epi16(min3_32px(r0 + 6 * x), ones);
            __m256i b = _mm256_maddubs_epi16(min3_32px(r1 + 6 * x), ones);
            __m256i v = _mm256_srli_epi16(
                _mm256_add_epi16(_mm256_add_epi16(a, b), _mm256_set1_epi16(2)), 2);
            v = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0x08);
            _mm_storeu_si128((__m128i *)(o + x), _mm256_castsi256_si128(v));
        }
    } else { /* pixels 4x + 1 and 4x + 3: odd bytes, then pairs of words */
        for (; x + 8 <= w && 12 * x + 98 <= n; x += 8) {
            __m256i a = _mm256_madd_epi16(_mm256_maddubs_epi16(min3_32px(r0 + 12 * x), odd), ones16);
            __m256i b = _mm256_madd_epi16(_mm256_maddubs_epi16(min3_32px(r1 + 12 * x), odd), ones16);
            __m256i v = _mm256_srli_epi32(
                _mm256_add_epi32(_mm256_add_epi32(a, b), _mm256_set1_epi32(2)), 2);
            v = _mm256_packus_epi16(_mm256_packs_epi32(v, v), v);
            /* lanes hold outputs 0-3 and 4-7 in their first four bytes */
            const int lo = _mm256_cvtsi256_si32(v), hi = _mm256_extract_epi32(v, 4);
            memcpy(o + x, &lo, 4);
            memcpy(o + x + 4, &hi, 4);
        }
    }
    return x;
}
#endif

/* Decimates src by k into dst (grey), each output pixel the mean of four
 * samples spread over its k x k block of the per-pixel min over B,G,R: cards
 * are white in every channel, while wood, felt and carpet are dark in at least
 * one. Four samples instead of k*k: the blur that follows does the rest.
 * rows: scratch of 2 * 3 * dst->w * k bytes for a BGR src. */
static void decimate_min_channel(const ts_image *src, int k, ts_image *dst, uint8_t *rows,
                                 int avx2)
{
    const int o0 = k / 4, o1 = (3 * k) / 4, c = src->channels, w = dst->w, h = dst->h;
#ifdef TS_DETECT_AVX2
    if (avx2 && c == 3 && (k == 2 || k == 4)) {
        for (int y = 0; y < h; y++) {
            const uint8_t *r0 = ts_image_row(src, y * k + o0), *r1 = ts_image_row(src, y * k + o1);
            uint8_t *o = ts_image_row(dst, y);
            for (int x = decimate_row_avx2(r0, r1, k, w, 3 * src->w, o); x < w; x++) {
                const uint8_t *p[4] = {r0 + 3 * (x * k + o0), r0 + 3 * (x * k + o1),
                                       r1 + 3 * (x * k + o0), r1 + 3 * (x * k + o1)};
                int sum = 2;
                for (int i = 0; i < 4; i++) {
                    uint8_t m = p[i][0] < p[i][1] ? p[i][0] : p[i][1];
                    sum += p[i][2] < m ? p[i][2] : m;
                }
                o[x] = (uint8_t)(sum >> 2);
            }
        }
        return;
    }
#else
    (void)avx2;
#endif
    if (k == 1 && c == 3) { /* the four samples would be one pixel */
        for (int y = 0; y < h; y++) {
            const uint8_t *p = ts_image_row(src, y);
            uint8_t *o = ts_image_row(dst, y);
            for (int x = 0; x < w; x++, p += 3) {
                uint8_t m = p[0] < p[1] ? p[0] : p[1];
                o[x] = p[2] < m ? p[2] : m;
            }
        }
        return;
    }
    if (c == 3) {
        /* The two sample rows' darkest channels, then the four samples of each
         * block; the last byte read is the last sample pixel's red. */
        const int n = 3 * ((w - 1) * k + o1) + 1;
        uint8_t *t0 = rows, *t1 = rows + 3 * w * k;
        for (int y = 0; y < h; y++) {
            min3_bytes(ts_image_row(src, y * k + o0), n, t0);
            min3_bytes(ts_image_row(src, y * k + o1), n, t1);
            uint8_t *o = ts_image_row(dst, y);
            for (int x = 0; x < w; x++) {
                const int a = 3 * (x * k + o0), b = 3 * (x * k + o1);
                o[x] = (uint8_t)((t0[a] + t0[b] + t1[a] + t1[b] + 2) >> 2);
            }
        }
        return;
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *r0 = ts_image_row(src, y * k + o0);
        const uint8_t *r1 = ts_image_row(src, y * k + o1);
        uint8_t *o = ts_image_row(dst, y);
        for (int x = 0; x < w; x++)
            o[x] = (uint8_t)((r0[x * k + o0] + r0[x * k + o1] + r1[x * k + o0] +
                              r1[x * k + o1] + 2) / 4);
    }
}

/* bin = the pixels not on or next to a strong edge of d->white. */
static int edge_regions(ts_detector *d, char *err)
{
    if (tscv_canny(&d->white, &d->eroded, 40, 100, err) < 0 ||
        tscv_morph(&d->eroded, &d->eroded, 'd', 1, err) < 0)
        return -1;
    const int w = d->bin.w, h = d->bin.h;
    for (int y = 0; y < h; y++) {
        const uint8_t *e = ts_image_row(&d->eroded, y);
        uint8_t *b = ts_image_row(&d->bin, y);
        for (int x = 0; x < w; x++)
            b[x] = e[x] ? 0 : 255;
    }
    return 0;
}

/* Fills the holes of bin's blobs smaller than max_area: a card's marks, so
 * that erosion parts cards that touch without cutting each one up. */
static int fill_holes(ts_image *bin, double max_area, char *err)
{
    tscv_contours cs;
    if (tscv_find_contours(bin, 1, &cs, err) < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < cs.n && rc == 0; i++)
        if (tscv_area(cs.pts + cs.start[i], cs.len[i]) < max_area)
            rc = tscv_fill_contour(bin, cs.pts + cs.start[i], cs.len[i], err);
    tscv_contours_free(&cs);
    return rc;
}

/* bin = the adaptive binarisation of d->white with dark print narrower than
 * the closing filled: a printed cloth's light ground, as light as paper,
 * joins every card on it into one blob with holes; closed, the cloth is
 * one even grey a little darker than the cards. */
static int cloth_regions(ts_detector *d, int block, double offset, char *err)
{
    if (scratch(&d->plain, d->white.w, d->white.h, 1) < 0) {
        snprintf(err, TSCV_ERR_MAX, "detect: out of memory");
        return -1;
    }
    if (tscv_morph(&d->white, &d->plain, 'c', CLOTH_CLOSE, err) < 0)
        return -1;
    debug_write(d, "detect_plain.png", &d->plain);
    if (tscv_adaptive(&d->plain, &d->bin, block, offset, err) < 0)
        return -1;
    /* what the closing filled is no card: the print, and the cloth showing
     * between two cards that lie close */
    for (int y = 0; y < d->bin.h; y++) {
        const uint8_t *v = ts_image_row(&d->white, y), *c = ts_image_row(&d->plain, y);
        uint8_t *o = ts_image_row(&d->bin, y);
        for (int x = 0; x < d->bin.w; x++)
            o[x] = c[x] - v[x] < SEAM_CONTRAST ? o[x] : 0;
    }
    return fill_holes(&d->bin, d->p.max_area * d->bin.w * d->bin.h, err);
}

/* ---- Cards edge to edge -------------------------------------------------- */

/* Cards laid edge to edge merge into one blob on the work image: the seam
 * between two is a line a pixel or two wide in the frame, gone once
 * decimated. Inside the box of such a blob, look again at twice the
 * resolution: thin dark lines stand out of a closing of the image (a black
 * top hat); the bright area cut along them falls apart into the cards. k is
 * the work image's decimation. */
static int split_seams(ts_detector *d, const ts_image *frame, int k, const box *b, cand_list *cl,
                       char *err)
{
    const int f = k / 2; /* frame pixels per fine pixel */
    const int fw = (b->x1 - b->x0) * k / f, fh = (b->y1 - b->y0) * k / f;
    const int fx0 = b->x0 * k, fy0 = b->y0 * k;
    if (fw < 8 || fh < 8 || fx0 + fw * f > frame->w || fy0 + fh * f > frame->h)
        return 0;
    if (scratch(&d->fine, fw, fh, 1) < 0 || scratch(&d->fine_closed, fw, fh, 1) < 0 ||
        scratch(&d->fine_bin, fw, fh, 1) < 0) {
        snprintf(err, TSCV_ERR_MAX, "detect: out of memory");
        return -1;
    }
    ts_image roi = ts_image_roi(frame, fx0, fy0, fw * f, fh * f);
    decimate_min_channel(&roi, f, &d->fine, d->rows, d->avx2);
    if (tscv_morph(&d->fine, &d->fine_closed, 'c', 2, err) < 0)
        return -1;
    /* The blob is mostly cards: paper is its bright end. */
    int hist[256] = {0}, acc = 0, paper = 255;
    for (int y = 0; y < fh; y++) {
        const uint8_t *v = ts_image_row(&d->fine, y);
        for (int x = 0; x < fw; x++)
            hist[v[x]]++;
    }
    while (paper > 0 && (acc += hist[paper]) < fw * fh / 10)
        paper--;
    const int bright = paper * 7 / 8;
    for (int y = 0; y < fh; y++) {
        const uint8_t *v = ts_image_row(&d->fine, y), *c = ts_image_row(&d->fine_closed, y);
        uint8_t *o = ts_image_row(&d->fine_bin, y);
        for (int x = 0; x < fw; x++) /* paper, and not on a line darker than around it */
            o[x] = (v[x] >= bright && c[x] - v[x] < SEAM_CONTRAST) ? 255 : 0;
    }
    /* Opening cuts what bridges a seam's gaps, and the table's speckle. */
    if (tscv_morph(&d->fine_bin, &d->fine_bin, 'o', SEAM_OPEN, err) < 0)
        return -1;
    char name[32];
    snprintf(name, sizeof name, "detect_seams%d_%d.png", b->x0, b->y0);
    debug_write(d, name, &d->fine_bin);
    tscv_contours cs;
    if (tscv_find_contours(&d->fine_bin, 1, &cs, err) < 0)
        return -1;
    /* Fine pixels to work pixels, pixel centres kept (as ts_detect maps work
     * pixels to the frame's). */
    const float to_work = (float)f / (float)k;
    const double fine_area = (double)d->bin.w * d->bin.h / (to_work * to_work);
    for (int i = 0; i < cs.n && cl->n < MAX_CAND; i++) {
        ts_quad *q = &cl->q[cl->n];
        if (!contour_quad(d, cs.pts + cs.start[i], cs.len[i], fine_area, 0, q))
            continue;
        for (int c = 0; c < 4; c++) {
            q->q[c].x = (q->q[c].x + 0.5f) * to_work - 0.5f + (float)b->x0;
            q->q[c].y = (q->q[c].y + 0.5f) * to_work - 0.5f + (float)b->y0;
        }
        q->area *= to_work * to_work;
        cl->source[cl->n] = SOURCE_SEAMS;
        cl->depth[cl->n++] = 1; /* after exact outlines, with the first erosion */
    }
    tscv_contours_free(&cs);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A grid of cards edge to edge has a card's outline too: a quad far larger
 * than the table's others (or, when there are hardly any others, a large
 * part of the frame) gets a seam search as well. */
static void add_big_quads(ts_detector *d, const cand_list *cl)
{
    const int w = d->bin.w, h = d->bin.h;
    double area[MAX_CAND];
    int n = 0;
    for (int i = 0; i < cl->n; i++)
        if (cl->depth[i] == 0 && cl->source[i] < SOURCE_EDGES)
            area[n++] = cl->q[i].area;
    if (n == 0)
        return;
    qsort(area, (size_t)n, sizeof *area, cmp_double);
    const double big = n >= 3 ? 3 * area[n / 2] : 0.06 * w * h;
    for (int i = 0; i < cl->n; i++)
        if (cl->depth[i] == 0 && cl->source[i] < SOURCE_EDGES && cl->q[i].area > big) {
            ts_ipt corner[4];
            for (int c = 0; c < 4; c++)
                corner[c] = (ts_ipt){(int)cl->q[i].q[c].x, (int)cl->q[i].q[c].y};
            add_box(d->seams, &d->nseams, bounds(corner, 4), 2, w, h);
        }
}

int ts_detect(ts_detector *d, const ts_image *frame, ts_quad *out, int max, char *err)
{
    /* Decimate by a whole factor, so samples fall on whole pixels. */
    int side = frame->w > frame->h ? frame->w : frame->h;
    int k = (int)lroundf((float)side / (float)d->p.work_size);
    if (k < 1)
        k = 1;
    d->k = k;
    d->nseams = 0;
    d->otsu = -1;
    d->cloth_area = 0;
    int w = frame->w / k, h = frame->h / k;
    if (w < 8 || h < 8)
        return 0;
    float scale = (float)w / (float)frame->w;
    if (scratch(&d->white, w, h, 1) < 0 ||
        scratch(&d->bin, w, h, 1) < 0 || scratch(&d->eroded, w, h, 1) < 0 ||
        scratch(&d->dist, w, h, 1) < 0 || row_scratch(d, (size_t)frame->w * 6) < 0) {
        snprintf(err, TSCV_ERR_MAX, "detect: out of memory");
        return -1;
    }
    decimate_min_channel(frame, k, &d->white, d->rows, d->avx2);
    if (tscv_blur(&d->white, &d->white, 1.2, err) < 0)
        return -1;
    debug_write(d, "detect_white.png", &d->white);

    /* Several binarisations, because no one threshold suits every table: a
     * card is brighter than its surroundings (adaptive, with windows larger
     * than a card so uneven light and shadows cancel) or simply bright on a
     * dark table (Otsu). Each gives candidates; the best survive. */
    cand_list cl = {0};
    side = w > h ? w : h;
    const struct {
        int block; /* 0 = Otsu, -1 = regions between strong edges */
        double offset;
    } sources[] = {{side / 5, 8}, {0, 0}, {-1, 0}};
    for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
        int rc;
        if (sources[s].block > 0)
            rc = tscv_adaptive(&d->white, &d->bin, sources[s].block, sources[s].offset, err);
        else if (sources[s].block == 0)
            rc = tscv_otsu(&d->white, &d->bin, &d->otsu, err);
        else /* a shadow across a card is a soft edge, the card's border a sharp one */
            rc = edge_regions(d, err);
        if (rc < 0 || gather(d, (int)s, sources[s].block < 0, &cl, err) < 0)
            return -1;
        char name[32];
        snprintf(name, sizeof name, "detect_bin%zu.png", s);
        debug_write(d, name, &d->bin);
    }
    /* blobs that are no card over most of the frame: a table's light parts
     * joined up, a printed cloth's ground as light as paper */
    if (d->cloth_area > d->p.max_area * w * h) {
        if (cloth_regions(d, sources[0].block, sources[0].offset, err) < 0 ||
            gather(d, SOURCE_CLOTH, 0, &cl, err) < 0)
            return -1;
        debug_write(d, "detect_bin_cloth.png", &d->bin);
    }
    add_big_quads(d, &cl);
    for (int b = 0; b < d->nseams && k >= 2; b++)
        if (split_seams(d, frame, k, &d->seams[b], &cl, err) < 0)
            return -1;
    int n = order_candidates(&cl, out, max);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
            out[i].q[c].x = (out[i].q[c].x + 0.5f) / scale - 0.5f;
            out[i].q[c].y = (out[i].q[c].y + 0.5f) / scale - 0.5f;
            /* Fitted lines may overshoot a card cut by the frame edge. */
            out[i].q[c].x = fminf(fmaxf(out[i].q[c].x, 0), (float)frame->w);
            out[i].q[c].y = fminf(fmaxf(out[i].q[c].y, 0), (float)frame->h);
            if (c == 3)
                out[i].area /= scale * scale;
        }
    return n;
}

int ts_detect_blobs(const ts_detector *d, ts_box *out, int max)
{
    int n = 0;
    for (int i = 0; i < d->nseams && n < max; i++)
        out[n++] = (ts_box){d->seams[i].x0 * d->k, d->seams[i].y0 * d->k, d->seams[i].x1 * d->k,
                            d->seams[i].y1 * d->k};
    return n;
}

/* Every STEP-th work pixel each way is looked at. */
enum { UNEXPLAINED_STEP = 2 };

/* Where white (work pixels) counts as paper: half-way from the mean of
 * the pixels below Otsu's split (the table) to that split, so a card in
 * shadow beside brighter ones still counts. */
static int paper_level(const ts_detector *d)
{
    long hist[256] = {0};
    for (int y = 0; y < d->white.h; y += UNEXPLAINED_STEP) {
        const uint8_t *p = ts_image_row(&d->white, y);
        for (int x = 0; x < d->white.w; x += UNEXPLAINED_STEP)
            hist[p[x]]++;
    }
    double sum = 0, n = 0;
    for (int v = 0; v <= (int)d->otsu && v < 256; v++)
        sum += (double)v * hist[v], n += hist[v];
    return (int)((d->otsu + (n > 0 ? sum / n : 0)) / 2);
}

/* Where the convex quad q crosses row y: [*x0, *x1], or 0 if it does not. */
static int quad_span(const ts_pt q[4], float y, float *x0, float *x1)
{
    float lo = INFINITY, hi = -INFINITY;
    for (int c = 0; c < 4; c++) {
        ts_pt a = q[c], b = q[(c + 1) & 3];
        if (y < fminf(a.y, b.y) || y > fmaxf(a.y, b.y))
            continue;
        float xa = a.x, xb = b.x; /* a side along the row: both ends */
        if (a.y != b.y)
            xa = xb = a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y);
        lo = fminf(lo, fminf(xa, xb));
        hi = fmaxf(hi, fmaxf(xa, xb));
    }
    *x0 = lo, *x1 = hi;
    return lo <= hi;
}

float ts_detect_unexplained(const ts_detector *d, const ts_quad *cards, int n, float grow)
{
    if (d->otsu < 0 || !d->white.buf)
        return 1;
    int level = paper_level(d), w = d->white.w;
    /* the cards in work pixels (ts_detect's mapping back, undone), grown */
    enum { MOST = 64 };
    ts_pt q[MOST][4];
    n = n < MOST ? n : MOST;
    for (int i = 0; i < n; i++) {
        ts_pt c[4];
        for (int j = 0; j < 4; j++)
            c[j] = (ts_pt){(cards[i].q[j].x + 0.5f) / d->k - 0.5f,
                           (cards[i].q[j].y + 0.5f) / d->k - 0.5f};
        ts_quad_scale(c, grow, q[i]);
    }
    uint8_t *in = malloc((size_t)w);
    if (!in)
        return 1;
    long seen = 0, out = 0;
    for (int y = 0; y < d->white.h; y += UNEXPLAINED_STEP) {
        memset(in, 0, (size_t)w); /* the row's pixels inside a card */
        for (int i = 0; i < n; i++) {
            float x0, x1;
            if (!quad_span(q[i], (float)y, &x0, &x1))
                continue;
            int a = (int)ceilf(x0), b = (int)floorf(x1);
            a = a < 0 ? 0 : a, b = b >= w ? w - 1 : b;
            if (a <= b)
                memset(in + a, 1, (size_t)(b - a + 1));
        }
        const uint8_t *p = ts_image_row(&d->white, y);
        for (int x = 0; x < w; x += UNEXPLAINED_STEP) {
            seen++;
            out += p[x] > level && !in[x];
        }
    }
    free(in);
    return seen ? (float)out / (float)seen : 1;
}
