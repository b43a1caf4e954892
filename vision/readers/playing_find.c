/* Candidate finder for playing cards.
 *
 * First the shared detector (exact outlines of whole cards on a table), then
 * the caller's extra candidates (the cards found by their index), then
 * bright blobs the shared detector leaves out: a card held in a hand (the
 * fingers dent its outline), a card on a light desk (Otsu and a local
 * threshold see it differently), and a card cut by the frame's edge, whose
 * visible part is extended away from the edge to a whole card of the usual
 * shape, so its index corner lands where the reader looks; last the frame
 * itself (a close-up). The reader
 * decides which candidates are cards (its index head), so this finder errs
 * on the side of offering too many; the pipeline skips a candidate whose
 * centre lies in a card already taken.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "hull.h"
#include "readers/playing.h"
#include "readers/playing_held.h"

enum {
    WORK = 360,       /* long side of the blob search image (px) */
    MAX_BLOBS = 160,  /* blob candidates kept per frame */
};
#define HELD_SCORE TS_PLAYING_HELD_SCORE /* ahead of the blobs */
/* A printed cloth's pattern (drop_pattern): PATTERN_MIN outlines or more
 * under PATTERN_SQUAT aspect and PATTERN_AREA of the frame, of one size
 * (areas within PATTERN_SIZE). Gingham 116016 and 116031: 168 and 177; a
 * steep view of 12 scattered cards (115033, each 0.0048 of the frame,
 * aspect 1.08): 23 with their second outlines (at 16 three were lost). */
#define PATTERN_SQUAT 1.2f
#define PATTERN_AREA 0.006f
#define PATTERN_SIZE 2.0f
enum { PATTERN_MIN = 64 };
/* Cards leave a frame unexplained (ts_playing_unexplained) when more than
 * this share of it is paper outside them, each grown by UNEXPLAINED_GROW
 * (its blurred edge): a blob is at least 0.01 of the blob image. */
#define UNEXPLAINED_MOST 0.005f
#define UNEXPLAINED_GROW 1.08f

struct ts_playing_finder {
    ts_detector *det;
    ts_image grey, small, bin, opened;
    ts_quad *blobs;
    ts_playing_held *held; /* cards held up, found from their pips */
};

ts_playing_finder *ts_playing_finder_create(void)
{
    ts_playing_finder *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    ts_detect_params p;
    ts_detect_defaults(&p);
    p.min_aspect = 1.0f; /* phone photos stretched to a square: 1.05 .. 1.9 */
    p.max_aspect = 2.1f;
    /* a lone card (1.40) is squat: filling its quad within half a percent
     * (lone grid cards 0.998-1) it is one card, not cards for erosion to
     * split (the grid's 13 M); at 0.99 scattered and row cards were lost */
    p.whole_fill = 0.995f;
    f->det = ts_detector_create(&p);
    f->blobs = malloc(sizeof *f->blobs * MAX_BLOBS);
    f->held = ts_playing_held_create();
    if (!f->det || !f->blobs || !f->held) {
        ts_playing_finder_destroy(f);
        return NULL;
    }
    return f;
}

void ts_playing_finder_destroy(ts_playing_finder *f)
{
    if (!f)
        return;
    ts_detector_destroy(f->det);
    ts_image_free(&f->grey);
    ts_image_free(&f->small);
    ts_image_free(&f->bin);
    ts_image_free(&f->opened);
    free(f->blobs);
    ts_playing_held_destroy(f->held);
    free(f);
}

/* ---- Geometry ----------------------------------------------------------- */

static float quad_aspect(const ts_pt q[4])
{
    return (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) /
           (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]) + 1e-6f);
}

static int on_edge(ts_pt p, float w, float h)
{
    float m = 0.02f * (w > h ? w : h);
    return p.x < m || p.y < m || p.x > w - 1 - m || p.y > h - 1 - m;
}

/* ---- Blob candidates ---------------------------------------------------- */

typedef struct {
    ts_quad *q;
    int n, max;
    float sx, sy; /* work image -> frame */
    float w, h;   /* work image size */
} blob_list;

static void push(blob_list *bl, const ts_pt q[4], float area, float score)
{
    if (bl->n >= bl->max)
        return;
    ts_pt t[4];
    for (int i = 0; i < 4; i++)
        t[i] = (ts_pt){q[i].x * bl->sx, q[i].y * bl->sy};
    ts_quad_order(t);
    ts_quad *o = &bl->q[bl->n++];
    memcpy(o->q, t, sizeof t);
    o->area = area * bl->sx * bl->sy;
    o->score = score;
}

/* A card cut by the frame's edge: the side lying on the edge is moved out
 * until the card has the usual shape (1.4; either way round, since which
 * side is cut is unknown). */
static void extend(blob_list *bl, const ts_pt r[4], float area)
{
    for (int s = 0; s < 4; s++) {
        ts_pt a = r[s], b = r[(s + 1) & 3];
        if (!on_edge(a, bl->w, bl->h) || !on_edge(b, bl->w, bl->h))
            continue;
        /* side a-b lies on the frame's edge: push it away from the opposite side */
        ts_pt c = r[(s + 2) & 3], d = r[(s + 3) & 3];
        float along = ts_dist(a, b), across = ts_dist(b, c);
        if (across < 1)
            continue;
        const float want[2] = {1.4f * along, along / 1.4f};
        for (int k = 0; k < 2; k++) {
            float g = want[k] / across;
            if (g < 1.15f || g > 3.0f)
                continue;
            ts_pt q[4] = {
                {c.x + (b.x - c.x) * g, c.y + (b.y - c.y) * g},
                c,
                d,
                {d.x + (a.x - d.x) * g, d.y + (a.y - d.y) * g},
            };
            push(bl, q, area * g, 0.3f);
        }
    }
}

/* Tests each outer contour of a binary work image as a card. */
static int offer_blobs(blob_list *bl, const ts_image *bin, int outer_only, char *err)
{
    tscv_contours cs;
    if (tscv_find_contours(bin, outer_only, &cs, err) < 0)
        return -1;
    double frame = (double)bl->w * bl->h;
    size_t most = 1; /* the longest outline */
    for (int i = 0; i < cs.n; i++)
        most = (size_t)cs.len[i] > most ? (size_t)cs.len[i] : most;
    ts_ipt *hull = malloc(sizeof *hull * 2 * most);
    if (!hull) {
        tscv_contours_free(&cs);
        return 0;
    }
    ts_ipt *cand = hull + most; /* the hull's candidate points, after it */
    for (int i = 0; i < cs.n; i++) {
        const ts_ipt *p = cs.pts + cs.start[i];
        int n = cs.len[i];
        double area = tscv_area(p, n);
        if (area < 0.01 * frame || area > 0.8 * frame) /* not a pip */
            continue;
        /* the same hull from the points that can be its corners (hull.h),
         * once: its area is its polygon's */
        int nc = ts_hull_candidates(p, n, cand);
        int nh = nc < 0 ? tscv_hull(p, n, hull) : tscv_hull(cand, nc, hull);
        double ha = nh > 2 ? tscv_area(hull, nh) : 0;
        if (ha <= 0 || area / ha < 0.7)
            continue;
        ts_pt r[4];
        ts_ipt ap[8];
        int k = 0;
        double perim = tscv_perimeter(hull, nh);
        for (double eps = 0.02; eps <= 0.08 && k != 4; eps += 0.02)
            k = tscv_approx(hull, nh, eps * perim, 0, ap, 8);
        if (k == 4) { /* the hull's four corners: follows perspective */
            for (int j = 0; j < 4; j++)
                r[j] = (ts_pt){(float)ap[j].x, (float)ap[j].y};
            ts_quad_order(r);
            double qa = ts_quad_area(r);
            float as = quad_aspect(r);
            if (qa > 0 && area / qa > 0.8 && as > 0.95f && as < 2.3f)
                push(bl, r, (float)qa, (float)(area / qa));
        }
        tscv_min_rect(hull, nh, r); /* fingers or a rounded outline: the box */
        ts_quad_order(r);
        float as = quad_aspect(r);
        double ra = ts_quad_area(r);
        if (as > 0.95f && as < 2.3f && ra > 0)
            push(bl, r, (float)ra, (float)(area / ra) * 0.9f);
        extend(bl, r, (float)ra);
    }
    free(hull);
    tscv_contours_free(&cs);
    return 0;
}

static int by_score_area(const void *a, const void *b)
{
    const ts_quad *x = a, *y = b;
    float kx = x->score * sqrtf(x->area), ky = y->score * sqrtf(y->area);
    return (kx < ky) - (kx > ky);
}

/* Brightness levels of a work image: Otsu's split, a local one (a card on a
 * light desk), and the levels above which the brightest 25, 12 and 5% of
 * the frame lie (a card held up before a white wall is a shade brighter);
 * each thresholded image's outlines are offered. */
static int level_passes(ts_playing_finder *f, const ts_image *src, blob_list *bl, char *err)
{
    int w = src->w, h = src->h;
    int hist[256] = {0};
    for (int y = 0; y < h; y++) {
        const uint8_t *p = ts_image_row(src, y);
        for (int x = 0; x < w; x++)
            hist[p[x]]++;
    }
    const float top[3] = {0.25f, 0.12f, 0.05f};
    int level[3];
    for (int k = 0, v = 255, acc = 0; k < 3; k++) {
        while (v > 0 && acc + hist[v] < top[k] * w * h)
            acc += hist[v--];
        level[k] = v;
    }
    double t;
    int block = (w > h ? w : h) / 3 | 1;
    for (int pass = 0; pass < 5; pass++) {
        if (pass == 0 && tscv_otsu(src, &f->bin, &t, err) < 0)
            return -1;
        if (pass == 1 && tscv_adaptive(src, &f->bin, block, 12, err) < 0)
            return -1;
        if (pass >= 2) {
            if (level[pass - 2] < t + 8 || (pass > 2 && level[pass - 2] < level[pass - 3] + 6))
                continue; /* no brighter than Otsu's split or the last level */
            for (int y = 0; y < h; y++) {
                const uint8_t *p = ts_image_row(src, y);
                uint8_t *b = ts_image_row(&f->bin, y);
                for (int x = 0; x < w; x++)
                    b[x] = p[x] > level[pass - 2] ? 255 : 0;
            }
        }
        /* a light opening keeps outlines; a deep one cuts a card loose from
         * thin bright things touching it (window frames, a sleeve) */
        for (int r = 2; r <= 5; r += 3)
            if (tscv_morph(&f->bin, &f->opened, 'o', r, err) < 0 ||
                offer_blobs(bl, &f->opened, 1, err) < 0)
                return -1;
    }
    return 0;
}

/* Regions walled in by edges: a card held before a wall as bright as
 * itself, or dented by the fingers holding it; then faint edges (a card on
 * a light desk) with the specks of a noisy photo smoothed away first and
 * small gaps in the outline closed. */
static int edge_passes(ts_playing_finder *f, const ts_image *small, blob_list *bl, char *err)
{
    int w = small->w, h = small->h;
    for (int pass = 0; pass < 2; pass++) {
        const ts_image *src = small;
        if (pass == 1) {
            if (tscv_morph(small, &f->opened, 'c', 1, err) < 0 ||
                tscv_morph(&f->opened, &f->opened, 'o', 1, err) < 0)
                return -1;
            src = &f->opened;
        }
        if (tscv_canny(src, &f->bin, pass ? 10 : 25, pass ? 30 : 70, err) < 0 ||
            tscv_morph(&f->bin, &f->bin, 'd', pass ? 2 : 1, err) < 0)
            return -1;
        for (int y = 0; y < h; y++) {
            uint8_t *b = ts_image_row(&f->bin, y);
            for (int x = 0; x < w; x++)
                b[x] = (uint8_t)~b[x];
        }
        if (offer_blobs(bl, &f->bin, 0, err) < 0)
            return -1;
    }
    return 0;
}

/* Makes f->grey (frame size) from a colour frame: whiteness, the darkest
 * channel (skin and wood are bright in red only, a card in all three). */
static int frame_grey(ts_playing_finder *f, const ts_image *frame, char *err)
{
    if (f->grey.buf && (f->grey.w != frame->w || f->grey.h != frame->h))
        ts_image_free(&f->grey);
    if (!f->grey.buf && ts_image_alloc(&f->grey, frame->w, frame->h, 1) < 0) {
        snprintf(err, TSCV_ERR_MAX, "out of memory");
        return -1;
    }
    for (int y = 0; y < frame->h; y++)
        ts_row_darkest(ts_image_row(frame, y), frame->w, 0, ts_image_row(&f->grey, y));
    return 0;
}

static int find_blobs(ts_playing_finder *f, const ts_image *frame, blob_list *bl, char *err)
{
    const ts_image *src = frame;
    if (frame->channels == 3) {
        if (frame_grey(f, frame, err) < 0)
            return -1;
        src = &f->grey;
    }
    float k = (float)WORK / (frame->w > frame->h ? frame->w : frame->h);
    if (k > 1)
        k = 1;
    int w = (int)lroundf(frame->w * k), h = (int)lroundf(frame->h * k);
    if (f->small.w != w || f->small.h != h) {
        ts_image_free(&f->small);
        ts_image_free(&f->bin);
        ts_image_free(&f->opened);
    }
    int rc = tscv_resize(src, &f->small, w, h, err);
    if (rc < 0 || tscv_blur(&f->small, &f->small, 1.0, err) < 0)
        return -1;
    bl->sx = (float)frame->w / w;
    bl->sy = (float)frame->h / h;
    bl->w = (float)w;
    bl->h = (float)h;
    /* cards held up (their pips' cluster), ahead of the blobs */
    ts_pt held[4][4];
    int nh = ts_playing_held_find(f->held, &f->small, held, 4, err);
    if (nh < 0)
        return -1;
    /* each also a little larger and smaller: the sides are found to a few
     * px, and the reader's index patch is cut near the corner */
    const float grow[3] = {1.0f, 1.06f, 0.95f};
    for (int i = 0; i < nh; i++)
        for (int k = 0; k < 3; k++) {
            ts_pt g[4];
            ts_quad_scale(held[i], grow[k], g);
            push(bl, g, (float)ts_quad_area(g), HELD_SCORE - 0.1f * k);
        }
    if (level_passes(f, &f->small, bl, err) < 0)
        return -1;
    if (edge_passes(f, &f->small, bl, err) < 0)
        return -1;
    qsort(bl->q, (size_t)bl->n, sizeof *bl->q, by_score_area);
    return 0;
}

/* Whether outline q is squat and small: a printed cloth's check or dot
 * as the detector outlines it (gingham's white checks: 0.001-0.004 of the
 * frame, aspect 1.0-1.2), or a card seen steeply (rendered cards: 1% under
 * 1.18, the smallest 0.0036 of the frame). */
static int squat_small(const ts_quad *q, float frame_area)
{
    return quad_aspect(q->q) < PATTERN_SQUAT && q->area < PATTERN_AREA * frame_area;
}

static int by_area(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Drops from out[0..n) the outlines of a printed cloth's pattern: when at
 * least PATTERN_MIN squat small ones (squat_small) have areas within
 * PATTERN_SIZE of each other, every squat small one up to the largest of
 * them. They are not cards, and on a
 * gingham cloth they filled the reader's 256 candidates (the fan's
 * index cards found no room) and were each read. Returns the count kept. */
static int drop_pattern(ts_quad *out, int n, const ts_image *frame)
{
    float fa = (float)frame->w * frame->h, area[n > 0 ? n : 1];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (squat_small(&out[i], fa))
            area[m++] = out[i].area;
    if (m < PATTERN_MIN)
        return n;
    qsort(area, (size_t)m, sizeof *area, by_area);
    float top = 0;
    for (int i = 0, j = 0; i < m; i++) { /* the window [j, i] of areas within PATTERN_SIZE */
        while (area[i] > PATTERN_SIZE * area[j])
            j++;
        if (i - j + 1 >= PATTERN_MIN)
            top = area[i];
    }
    if (top == 0)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!squat_small(&out[i], fa) || out[i].area > top)
            out[kept++] = out[i];
    return kept;
}

int ts_playing_outlines(ts_playing_finder *f, const ts_image *frame, ts_quad *out, int max,
                        char *err)
{
    int n = ts_detect(f->det, frame, out, max, err);
    return n < 0 ? n : drop_pattern(out, n, frame);
}

int ts_playing_find(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra, int nextra,
                    ts_quad *out, int n, int max, char *err)
{
    return ts_playing_find_late(f, frame, extra, nextra, NULL, 0, out, n, max, err);
}

/* The candidates after the outlines: extra, the blobs (if blobs), late,
 * the frame. */
static int append(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra, int nextra,
                  const ts_quad *late, int nlate, ts_quad *out, int n, int max, int blobs,
                  char *err)
{
    for (int i = 0; i < nextra && n < max - 2; i++) /* after whole outlines, before blobs */
        out[n++] = extra[i];
    blob_list bl = {.q = f->blobs, .max = MAX_BLOBS};
    if (blobs && find_blobs(f, frame, &bl, err) < 0)
        return -1;
    for (int i = 0; i < bl.n && n < max - 2 - nlate; i++) /* room for the late ones, the frame */
        out[n++] = bl.q[i];
    for (int i = 0; i < nlate && n < max - 2; i++)
        out[n++] = late[i];
    /* last: the frame itself, either way round (a close-up whose card runs
     * past the frame on three sides still shows its index) */
    float fw = (float)frame->w, fh = (float)frame->h;
    const ts_pt whole[2][4] = {{{0, 0}, {fw, 0}, {fw, fh}, {0, fh}},
                               {{fw, 0}, {fw, fh}, {0, fh}, {0, 0}}};
    for (int k = 0; k < 2 && n < max; k++) {
        memcpy(out[n].q, whole[k], sizeof whole[k]);
        out[n].area = fw * fh;
        out[n++].score = 0.1f;
    }
    return n;
}

int ts_playing_find_late(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra,
                         int nextra, const ts_quad *late, int nlate, ts_quad *out, int n, int max,
                         char *err)
{
    return append(f, frame, extra, nextra, late, nlate, out, n, max, 1, err);
}

int ts_playing_find_outlined(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra,
                             int nextra, const ts_quad *late, int nlate, ts_quad *out, int n,
                             int max, char *err)
{
    return append(f, frame, extra, nextra, late, nlate, out, n, max, 0, err);
}

int ts_playing_unexplained(const ts_playing_finder *f, const ts_quad *cards, int n)
{
    ts_box seam;
    return ts_detect_blobs(f->det, &seam, 1) > 0 ||
           ts_detect_unexplained(f->det, cards, n, UNEXPLAINED_GROW) >= UNEXPLAINED_MOST;
}
