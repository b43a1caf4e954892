/* Pip counting on one rectified domino (see domino_pips.h). */
#include "readers/domino_pips.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "median.h"

enum {
    W = DOMINO_CARD_W,
    H = DOMINO_CARD_H,
    MAX_BLOBS = 96,
    MARGIN_X = 4, /* the card's outline and a quad a few pixels off stay out */
    MARGIN_Y = 8,
};

/* One ink blob: moments for its size, shape and colour. */
typedef struct {
    int area, x0, y0, x1, y1;
    double sx, sy, sxx, syy, sxy;
    double red;  /* sum of (R - G) over the blob, clipped at 0 */
    double rsum; /* sum of R */
} blob;

/* How pips of one style look in the rectified card (pixels^2 / pixels). */
typedef struct {
    int band; /* half height of the middle band left out (bar, waist) */
    int pip_min, pip_max;
    int big_min; /* Chinese: the Hong Kong five's one blob */
    int chinese;
} style_geom;

static const style_geom GEOM[2] = {
    /* Chinese card 26 x 82 mm: pips r 2.5-2.9 mm ~ 120-150 px, the red one
     * ~400-650 with its ring, the Hong Kong five ~800 */
    {.band = 22, .pip_min = 40, .pip_max = 330, .big_min = 450, .chinese = 1},
    /* double-six tile: pips ~ 180 px; the bar sits right at the middle */
    {.band = 7, .pip_min = 45, .pip_max = 420, .big_min = 1 << 30, .chinese = 0},
};

/* Adds pixel p of the card to blob b (its box starts empty: x0 = W, x1 =
 * -1, y0 = H, y1 = -1). */
static inline void blob_add(blob *b, int p, const uint8_t *redv, const uint8_t *rv)
{
    int px = p % W, py = p / W;
    b->area++;
    b->sx += px;
    b->sy += py;
    b->sxx += (double)px * px;
    b->syy += (double)py * py;
    b->sxy += (double)px * py;
    b->red += redv[p];
    b->rsum += rv[p];
    if (px < b->x0)
        b->x0 = px;
    if (px > b->x1)
        b->x1 = px;
    if (py < b->y0)
        b->y0 = py;
    if (py > b->y1)
        b->y1 = py;
}

static void axes(const blob *b, double *major, double *minor);

enum { RUN_MAX = 3 }; /* pips run together in one blob: a column of a six */

/* A pip's dark heart: card's green at p at or below the threshold of its
 * half, core_t[0] or [1]. */
static int is_core(const ts_image *card, const int core_t[2], int p)
{
    return ts_image_row(card, p / W)[3 * (p % W) + 1] <= core_t[p / W >= H / 2];
}

/* The pips of a long blob px[0..n) (every pixel seen[] 1) that are run
 * together: a small card's blurred column of a six or a three's diagonal
 * is one blob, but each of its pips keeps a dark core (is_core, 4-connected
 * inside the blob, of 6 px or more). Two or three cores of about one size
 * share the blob's pixels out, each to the nearest, into out (<= room).
 * Returns the parts, or 0 where the blob stays whole: no deck prints a
 * long blob with two or three dark hearts that is not pips (its figure is
 * one stroke, the Hong Kong five's clover about round). stack: room for
 * n. */
static int split_run(const int *px, int n, const ts_image *card, const int core_t[2], uint8_t *seen,
                     int *stack,
                     const uint8_t *redv, const uint8_t *rv, blob *out, int room)
{
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    float cx[RUN_MAX], cy[RUN_MAX];
    int nc = 0, many = 0;
    for (int i = 0; i < n; i++) {
        if (seen[px[i]] != 1 || !is_core(card, core_t, px[i]))
            continue;
        int sp = 0, area = 0;
        long sx = 0, sy = 0;
        stack[sp++] = px[i];
        seen[px[i]] = 2;
        while (sp) {
            int p = stack[--sp], x = p % W, y = p / W;
            area++;
            sx += x;
            sy += y;
            for (int k = 0; k < 4; k++) {
                int qx = x + dx[k], qy = y + dy[k], q = qy * W + qx;
                if (qx >= 0 && qx < W && qy >= 0 && qy < H && seen[q] == 1 &&
                    is_core(card, core_t, q)) {
                    seen[q] = 2;
                    stack[sp++] = q;
                }
            }
        }
        if (area < 6)
            continue;
        if (nc == RUN_MAX) {
            many = 1;
            continue;
        }
        cx[nc] = (float)sx / area;
        cy[nc++] = (float)sy / area;
    }
    for (int i = 0; i < n; i++)
        seen[px[i]] = 1;
    if (many || nc < 2 || nc > room)
        return 0;
    blob part[RUN_MAX];
    memset(part, 0, sizeof part);
    for (int j = 0; j < nc; j++) {
        part[j].x0 = W;
        part[j].x1 = -1;
        part[j].y0 = H;
        part[j].y1 = -1;
    }
    for (int i = 0; i < n; i++) {
        float x = (float)(px[i] % W), y = (float)(px[i] / W), best = 1e30f;
        int k = 0;
        for (int j = 0; j < nc; j++) {
            float d = (x - cx[j]) * (x - cx[j]) + (y - cy[j]) * (y - cy[j]);
            if (d < best) {
                best = d;
                k = j;
            }
        }
        blob_add(&part[k], px[i], redv, rv);
    }
    int lo = n, hi = 0;
    for (int j = 0; j < nc; j++) {
        lo = part[j].area < lo ? part[j].area : lo;
        hi = part[j].area > hi ? part[j].area : hi;
    }
    if (2 * lo < hi)
        return 0;
    memcpy(out, part, sizeof(blob) * (size_t)nc);
    return nc;
}

/* Labels the ink mask (4-connected flood fill on a small image) into
 * blobs; with core_t (Chinese cards), a long blob of pips run together is
 * labelled as its pips (split_run). */
static int label_blobs(const uint8_t *ink, const ts_image *card, const int *core_t,
                       const uint8_t *redv, const uint8_t *rv, blob *b, int max)
{
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    uint8_t seen[W * H];
    int queue[W * H];
    memset(seen, 0, sizeof seen);
    int n = 0;
    for (int y = MARGIN_Y; y < H - MARGIN_Y; y++)
        for (int x = MARGIN_X; x < W - MARGIN_X; x++) {
            int i = y * W + x;
            if (!ink[i] || seen[i])
                continue;
            blob cur = {0};
            cur.x0 = cur.x1 = x;
            cur.y0 = cur.y1 = y;
            int head = 0, tail = 0;
            queue[tail++] = i;
            seen[i] = 1;
            while (head < tail) {
                int p = queue[head++], px = p % W, py = p / W;
                blob_add(&cur, p, redv, rv);
                for (int k = 0; k < 4; k++) {
                    int qx = px + dx[k], qy = py + dy[k];
                    if (qx < MARGIN_X || qx >= W - MARGIN_X || qy < MARGIN_Y || qy >= H - MARGIN_Y)
                        continue;
                    int q = qy * W + qx;
                    if (ink[q] && !seen[q]) {
                        seen[q] = 1;
                        queue[tail++] = q;
                    }
                }
            }
            if (cur.area < 6 || n >= max)
                continue;
            /* two or three pips (each ~120-150 px, a 2.5 px deviation
             * across at least: an outline or an edge is thinner), long;
             * the queue's room after the blob is split_run's stack */
            int parts = 0;
            if (core_t && tail >= 80 && tail <= 1000) {
                double major, minor;
                axes(&cur, &major, &minor);
                if (major > 1.8 * minor && minor >= 2.5)
                    parts = split_run(queue, tail, card, core_t, seen, queue + tail, redv, rv,
                                      b + n, max - n);
            }
            if (parts)
                n += parts;
            else
                b[n++] = cur;
        }
    return n;
}

/* Long and short axis (standard deviations) of a blob. */
static void axes(const blob *b, double *major, double *minor)
{
    double mx = b->sx / b->area, my = b->sy / b->area;
    double cxx = b->sxx / b->area - mx * mx, cyy = b->syy / b->area - my * my;
    double cxy = b->sxy / b->area - mx * my;
    double t = (cxx + cyy) / 2, d = sqrt((cxx - cyy) * (cxx - cyy) / 4 + cxy * cxy);
    *major = sqrt(fmax(t + d, 0));
    *minor = sqrt(fmax(t - d, 0));
}

/* The smear a camera's motion (or a blur one way) gives every blob of a
 * card: the median, over its solid pip-sized blobs in the ends' rows (3
 * or more), of the part of their second moments that is not round (half the
 * difference of the variances along x and y, and the covariance), in
 * smear[0..1]; 0 and 0 if fewer. A round pip smeared along the motion is
 * that much longer one way; a pip's round core, blurred, is not. */
static void motion_smear(const style_geom *g, const blob *b, int nb, double smear[2])
{
    double dx[MAX_BLOBS], dy[MAX_BLOBS];
    int n = 0;
    smear[0] = smear[1] = 0;
    for (int i = 0; i < nb; i++) {
        double cy = b[i].sy / b[i].area;
        int in_end = cy >= MARGIN_Y && cy < H - MARGIN_Y && (cy < H / 2 - g->band || cy >= H / 2 + g->band);
        int bw = b[i].x1 - b[i].x0 + 1, bh = b[i].y1 - b[i].y0 + 1;
        /* solid (a one's ring breaks into thin arcs of a pip's area) */
        if (!in_end || b[i].area < g->pip_min || b[i].area > g->pip_max ||
            b[i].area * 2 <= bw * bh)
            continue;
        double mx = b[i].sx / b[i].area, my = cy;
        double cxx = b[i].sxx / b[i].area - mx * mx, cyy = b[i].syy / b[i].area - my * my;
        dx[n] = (cxx - cyy) / 2;
        dy[n++] = b[i].sxy / b[i].area - mx * my;
    }
    if (n < 3)
        return;
    ts_sort_doubles(dx, (size_t)n);
    ts_sort_doubles(dy, (size_t)n);
    smear[0] = dx[n / 2];
    smear[1] = dy[n / 2];
}

/* Long and short axis (standard deviations) of a blob with the card's
 * motion smear (motion_smear) taken out. */
static void axes_unsmeared(const blob *b, const double smear[2], double *major, double *minor)
{
    double mx = b->sx / b->area, my = b->sy / b->area;
    double cxx = b->sxx / b->area - mx * mx - smear[0], cyy = b->syy / b->area - my * my + smear[0];
    double cxy = b->sxy / b->area - mx * my - smear[1];
    double t = (cxx + cyy) / 2, d = sqrt((cxx - cyy) * (cxx - cyy) / 4 + cxy * cxy);
    *major = sqrt(fmax(t + d, 0));
    *minor = sqrt(fmax(t - d, 0));
}

/* True if the blob fills the ellipse of its second moments as a solid
 * disc does (a printed spot of a cloth), where the Hong Kong five's clover
 * of five discs, spread out, fills well under it. */
static int disc_like(const blob *b, double major, double minor)
{
    return b->area > 0.88 * 4 * M_PI * major * minor;
}

/* Reads the end whose pips lie in rows [y0, y1). */
/* Pip centres of the Chinese deck's groups in their square (x, y in 0..1):
 * the printed layouts (the five is one blob, not checked). */
const float domino_layout[7][6][2] = {
    {{0}},
    {{0.5f, 0.5f}},
    {{0.28f, 0.22f}, {0.72f, 0.78f}},
    {{0.22f, 0.2f}, {0.5f, 0.5f}, {0.78f, 0.8f}},
    {{0.26f, 0.26f}, {0.74f, 0.26f}, {0.26f, 0.74f}, {0.74f, 0.74f}},
    {{0}},
    {{0.26f, 0.16f}, {0.74f, 0.16f}, {0.26f, 0.5f}, {0.74f, 0.5f}, {0.26f, 0.84f}, {0.74f, 0.84f}},
};

/* How far n pips (in their group's square, 0..1) lie from the printed
 * layout of n, in the best of the group's four turns and flips: the worst
 * distance of a pip to its layout place, or of a place to its pip. */
static float layout_misfit(const float (*at)[2], int n)
{
    float best = 1e9f;
    for (int t = 0; t < 4; t++) {
        float worst = 0;
        for (int dir = 0; dir < 2; dir++)
            for (int i = 0; i < n; i++) {
                float near = 1e9f;
                for (int j = 0; j < n; j++) {
                    float lx = domino_layout[n][dir ? i : j][0], ly = domino_layout[n][dir ? i : j][1];
                    if (t & 1)
                        lx = 1 - lx;
                    if (t & 2)
                        ly = 1 - ly;
                    float px = at[dir ? j : i][0], py = at[dir ? j : i][1];
                    float d = hypotf(px - lx, py - ly);
                    if (d < near)
                        near = d;
                }
                if (near > worst)
                    worst = near;
            }
        if (worst < best)
            best = worst;
    }
    return best;
}

/* True if blob i is hollow round another blob: a solid one whose centre
 * is near its own, inside its box. */
static int rings_a_blob(const blob *b, int nb, int i)
{
    double cx = b[i].sx / b[i].area, cy = b[i].sy / b[i].area;
    int bw = b[i].x1 - b[i].x0 + 1;
    for (int j = 0; j < nb; j++) {
        if (j == i || b[j].x0 < b[i].x0 || b[j].x1 > b[i].x1 || b[j].y0 < b[i].y0 ||
            b[j].y1 > b[i].y1)
            continue;
        double dx = b[j].sx / b[j].area - cx, dy = b[j].sy / b[j].area - cy;
        if (dx * dx + dy * dy < 0.15 * 0.15 * bw * bw)
            return 1;
    }
    return 0;
}

/* True if there are pips of colour red (at_red[i] == red) among the n (in
 * their group's square, 0..1) and every one lies within tol of a place of
 * its own in the printed layout of `of` (in one of its turns and flips):
 * *count is how many, *rows the layout's rows with both places taken. */
static int fits_layout(const float (*at)[2], const int *at_red, int n, int red, int of, float tol,
                       int *count, int *rows)
{
    int best = 0, best_rows = 0;
    for (int t = 0; t < 4; t++) {
        int taken[6] = {0}, ok = 1, m = 0;
        for (int i = 0; i < n && ok; i++) {
            if (at_red[i] != red)
                continue;
            int hit = -1;
            for (int j = 0; j < of; j++) {
                float lx = domino_layout[of][j][0], ly = domino_layout[of][j][1];
                if (t & 1)
                    lx = 1 - lx;
                if (t & 2)
                    ly = 1 - ly;
                if (!taken[j] && hypotf(at[i][0] - lx, at[i][1] - ly) <= tol)
                    hit = j;
            }
            if (hit < 0)
                ok = 0;
            else {
                taken[hit] = 1;
                m++;
            }
        }
        if (ok && m > best) {
            best = m;
            best_rows = 0;
            for (int j = 0; j + 1 < of; j += 2) /* the layouts of 4 and 6 list rows in pairs */
                best_rows += taken[j] && taken[j + 1];
        }
    }
    *count = best;
    *rows = best_rows;
    return best > 0;
}

/* An end partly under another card lying over it: the covering card's
 * paper looks like this card's, its pips and edge are extra ink. Only the
 * deck's colours tell what the pips that show are: three red pips of the
 * size of a four's (the one is a single large disc) on a four's places are
 * a four; black pips on a six's places in two whole rows of it are a six
 * (a two or a three has no two pips side by side). Both need pips in two
 * rows and two columns: a fanned card lying over this one, turned a little
 * and shifted by a column, brings one column of its own pips onto this
 * card's places. Anything else in the end is left to the covering card.
 * The one's disc and the five's clover on the group's middle are each a
 * one and a five. Not as sure as an end read whole. */
static void partly_covered(const style_geom *g, int colour_ok, const float (*at)[2],
                           const int *at_red, const int *at_one, int pips, int big,
                           const float *big_at, domino_end *e)
{
    enum { PARTLY_CONF = 70 }; /* percent */
    const float tol = 0.08f;
    if (!g->chinese || !colour_ok || pips > 8) /* only 8 are kept */
        return;
    int n = pips, reds, blacks, rows, nred = 0, none = 0, one_i = -1;
    for (int i = 0; i < n; i++) {
        nred += at_red[i];
        if (at_one[i]) {
            none++;
            one_i = i;
        }
    }
    /* the one's large red disc, or the Hong Kong five's clover, alone of
     * its kind and on the group's middle: no other card of the deck prints
     * either there (a card lying over the end brings its own pips and
     * edge, not this) */
    if (none == 1 && nred == 1 && !big &&
        hypotf(at[one_i][0] - 0.5f, at[one_i][1] - 0.5f) <= 0.1f) {
        e->pips = 1;
        e->red = 1;
        e->conf = PARTLY_CONF / 100.0f;
        return;
    }
    if (big == 1 && !nred && hypotf(big_at[0] - 0.5f, big_at[1] - 0.5f) <= 0.1f) {
        e->pips = 5;
        e->red = 0;
        e->conf = PARTLY_CONF / 100.0f;
        return;
    }
    if (big)
        return;
    /* every red pip on a four's place (black ones are the covering
     * card's), or every pip black and on a six's place */
    if (fits_layout(at, at_red, n, 1, 4, tol, &reds, &rows) && reds >= 3) {
        e->pips = 4;
        e->red = 4;
        e->conf = PARTLY_CONF / 100.0f;
    } else if (!nred && fits_layout(at, at_red, n, 0, 6, tol, &blacks, &rows) && blacks >= 4 &&
               rows >= 2) {
        e->pips = 6;
        e->red = 0;
        e->conf = PARTLY_CONF / 100.0f;
    }
}

int domino_ink_red(double red_sum, double r_sum, int area, double share, double paper_r)
{
    if (area <= 0 || red_sum / area <= 25 || red_sum <= share * r_sum)
        return 0;
    return !(paper_r > 0 && r_sum / area < 0.6 * paper_r);
}

int domino_ink_coloured(double lift, double green, int area, double below)
{
    if (area <= 0 || below <= 1)
        return 0;
    return lift / area > 0.18 * below || green / area > 0.45 * below;
}

static void read_end(const style_geom *g, const blob *b, int nb, const double smear[2], int y0,
                     int y1, float paper_frac, double paper_rmean, int colour_ok, float sq_y0,
                     float sq_y1, domino_end *e)
{
    float at[8][2], big_at[2] = {0, 0};
    int at_red[8], at_one[8];
    e->pips = -1;
    e->red = 0;
    e->conf = 0;
    if (paper_frac < 0.45f) /* not this card's paper: covered, cut off, or no card */
        return;
    int pips = 0, red = 0, big = 0, stray = 0, stray_area = 0;
    int amin = 1 << 30, amax = 0;
    float conf = 0.98f;
    for (int i = 0; i < nb; i++) {
        double cy = b[i].sy / b[i].area, cx = b[i].sx / b[i].area;
        if (cy < y0 || cy >= y1)
            continue;
        /* the shape tests on the blob less the card's smear; a disc's fill
         * on its own ellipse */
        double major, minor, raw_major, raw_minor;
        axes_unsmeared(&b[i], smear, &major, &minor);
        axes(&b[i], &raw_major, &raw_minor);
        int bw = b[i].x1 - b[i].x0 + 1, bh = b[i].y1 - b[i].y0 + 1;
        double fill = (double)b[i].area / (bw * bh);
        /* red, for the light the card is under (under white light a
         * black pip has no red over green at all, so a blurred red one,
         * paler at its rim, may count with less; black ink under a warm
         * light read red took the five for a one) */
        int is_red = domino_ink_red(b[i].red, b[i].rsum, b[i].area, colour_ok ? 0.2 : 0.35,
                                    paper_rmean);
        /* the table or a neighbour showing at the card's rim (a quad a few
         * pixels off, rounded corners): cut by the margin, hugging it */
        int edge = (b[i].x0 <= MARGIN_X && (cx < MARGIN_X + 2.5 || bh > 3 * bw)) ||
                   (b[i].x1 >= W - MARGIN_X - 1 && (cx > W - MARGIN_X - 3.5 || bh > 3 * bw)) ||
                   (b[i].y0 <= MARGIN_Y && (cy < MARGIN_Y + 2.5 || bw > 3 * bh)) ||
                   (b[i].y1 >= H - MARGIN_Y - 1 && (cy > H - MARGIN_Y - 3.5 || bw > 3 * bh));
        /* the card's own printed outline, a quad a little long or wide */
        if ((bw > W / 2 && bh <= 5 && (cy < 0.1 * H || cy > 0.9 * H)) ||
            (bh > H / 8 && bw <= 5 && (cx < 0.18 * W || cx > 0.82 * W)))
            continue;
        /* a compact piece of a pip cut by the rim is not noise: the quad
         * is off and the count may be short */
        int along = bw > 3 * bh || bh > 3 * bw;
        if (edge && !along && b[i].area >= g->pip_min && major < 2.2 * minor) {
            stray++;
            stray_area += b[i].area;
            continue;
        }
        if (edge && b[i].area < 2 * g->pip_max)
            continue;
        if (b[i].area < g->pip_min) {
            /* specks; the ring round a Chinese one breaks into arcs */
            if (b[i].area >= g->pip_min / 2 && fill > 0.5 && major < 2.0 * minor) {
                stray++;
                stray_area += b[i].area;
            }
            continue;
        }
        /* a pip cut by the margin is a part of a disc: longer for its width */
        int cut = b[i].x0 <= MARGIN_X || b[i].x1 >= W - MARGIN_X - 1 || b[i].y0 <= MARGIN_Y ||
                  b[i].y1 >= H - MARGIN_Y - 1;
        /* the Chinese one is a big red disc (with its ring, blurred in) */
        int pip_max = g->chinese && is_red ? 3 * g->pip_max : g->pip_max;
        /* under a coloured light the one's red and the five's black both
         * look reddish: the one is the smaller disc (~400-650 px, the five
         * ~800), and between them nothing is sure */
        if (g->chinese && !colour_ok && b[i].area > g->pip_max) {
            /* the five's blob is a clover of five discs, not a solid
             * square (a check of the cloth); seen small (blurred, a
             * warm light) it is down to the one's size, but fills its
             * box as no disc does */
            if ((b[i].area >= 720 || (b[i].area >= 560 && fill < 0.76)) && fill < 0.85 &&
                major < 1.6 * minor && !disc_like(&b[i], raw_major, raw_minor)) {
                big++;
                big_at[0] = (float)((cx - 2.0 / 26 * W) / (22.0 / 26 * W));
                big_at[1] = (float)((cy - sq_y0) / (sq_y1 - sq_y0));
                continue;
            }
            pip_max = 3 * g->pip_max;
            /* (a red solid disc is the one even so: the five's clover,
             * spread out, never fills its ellipse as a disc does) */
            if (b[i].area > 620 && !(is_red && disc_like(&b[i], raw_major, raw_minor)))
                conf *= 0.2f;
            /* larger than a pip and not red even so: the five's clover
             * seen small (a quad too wide), as likely as a one */
            if (!is_red)
                conf *= 0.3f;
        }
        if (b[i].area <= pip_max && major < (cut ? 2.6 : 1.8) * minor && fill > 0.5) {
            if (pips < 8) {
                at[pips][0] = (float)((cx - 2.0 / 26 * W) / (22.0 / 26 * W));
                at[pips][1] = (float)((cy - sq_y0) / (sq_y1 - sq_y0));
                at_red[pips] = is_red;
                at_one[pips] = is_red && b[i].area > g->pip_max; /* the one's disc */
            }
            pips++;
            red += is_red;
            if (b[i].area < amin)
                amin = b[i].area;
            if (b[i].area > amax)
                amax = b[i].area;
            continue;
        }
        if (g->chinese && b[i].area >= g->big_min && !is_red && major < 1.6 * minor && bw > W / 3 &&
            fill > 0.45 && fill < 0.85 && !disc_like(&b[i], raw_major, raw_minor)) {
            big++;
            big_at[0] = (float)((cx - 2.0 / 26 * W) / (22.0 / 26 * W));
            big_at[1] = (float)((cy - sq_y0) / (sq_y1 - sq_y0));
            continue;
        }
        /* a ring round a red one, thin and hollow: not ink that counts
         * (pale where it is thin, it may not read red itself) */
        if (g->chinese && fill < 0.35 && (is_red || rings_a_blob(b, nb, i)))
            continue;
        stray++;
        stray_area += b[i].area;
    }
    /* the pips kept in at[]: a five's clover is big, not among them */
    int kept = pips;
    if (big) {
        if (big > 1 || pips) { /* a five and more: not one end of one card */
            e->pips = -1;
            partly_covered(g, colour_ok, at, at_red, at_one, pips, big, big_at, e);
            return;
        }
        pips = 5;
    } else if (pips >= 2 && amax > 2.6 * amin) {
        conf *= 0.3f; /* pips of different sizes: something else among them */
    }
    if (pips > 6) {
        e->pips = -1;
        partly_covered(g, colour_ok, at, at_red, at_one, pips, big, big_at, e);
        return;
    }
    /* Chinese pips where the deck prints them, or the count is not sure
     * (a pip lost at a cut end, one more from a neighbour) */
    if (g->chinese && !big && pips >= 1 && pips <= 6 && pips != 5 &&
        layout_misfit(at, pips) > 0.15f)
        conf *= 0.2f;
    /* a four is a square; four pips of a six (its far row covered by a
     * card lying over it) are a rectangle two thirds as tall as wide, which
     * the layout check lets by when the quad is a little long or short */
    if (g->chinese && pips == 4) {
        float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
        for (int i = 0; i < 4; i++) {
            x0 = fminf(x0, at[i][0]);
            x1 = fmaxf(x1, at[i][0]);
            y0 = fminf(y0, at[i][1]);
            y1 = fmaxf(y1, at[i][1]);
        }
        float sx = x1 - x0, sy = y1 - y0;
        if (fminf(sx, sy) < 0.78f * fmaxf(sx, sy))
            conf *= 0.2f;
    }
    /* the deck's five is one blob: five round pips are a six with one
     * covered or cut off, or five counted from something else */
    if (g->chinese && !big && pips == 5)
        conf *= 0.2f;
    if (stray)
        conf *= stray_area > g->pip_min ? 0.15f : 0.5f;
    e->pips = pips;
    e->red = red;
    e->conf = conf * (paper_frac < 0.6f ? 0.5f : 1.0f);
    if (e->conf < 0.5f)
        partly_covered(g, colour_ok, at, at_red, at_one, kept, big, big_at, e);
}

int domino_paper_level(const int hist[256], int total)
{
    int paper = 255;
    for (int acc = 0; paper > 0; paper--) {
        acc += hist[paper];
        if (acc > total * 3 / 10)
            break;
    }
    return paper;
}

void domino_read_pips(domino_style style, const ts_image *card, domino_pips *out)
{
    memset(out, 0, sizeof *out);
    out->end[0].pips = out->end[1].pips = -1;
    if (card->w != W || card->h != H || card->channels != 3)
        return;
    const style_geom *g = &GEOM[style == DOMINO_DOUBLE_SIX];
    /* paper level: a high percentile of green (ink, red or black, is low in green) */
    int hist[256] = {0}, total = 0;
    for (int y = MARGIN_Y; y < H - MARGIN_Y; y++) {
        const uint8_t *p = ts_image_row(card, y);
        for (int x = MARGIN_X; x < W - MARGIN_X; x++, total++)
            hist[p[3 * x + 1]]++;
    }
    int paper = domino_paper_level(hist, total);
    if (paper < 60)
        return;
    /* and each end's own level, its median: a shadow across one end (a
     * hand, the lamp's falloff) darkens its paper but leaves it paper;
     * the table or a dark cloth over an end stays below the floor */
    int end_paper[2], end_dark[2];
    for (int k = 0; k < 2; k++) {
        int eh[256] = {0}, n = 0;
        for (int y = k ? H / 2 + g->band : MARGIN_Y; y < (k ? H - MARGIN_Y : H / 2 - g->band);
             y++) {
            const uint8_t *p = ts_image_row(card, y);
            for (int x = MARGIN_X; x < W - MARGIN_X; x++, n++)
                eh[p[3 * x + 1]]++;
        }
        int v = 255;
        for (int acc = 0; v > 0; v--) {
            acc += eh[v];
            if (acc > n / 2)
                break;
        }
        end_paper[k] = v < paper * 60 / 100 ? paper * 60 / 100 : v < paper ? v : paper;
        /* the end's darkest ink: its 1st percentile (a pip's core) */
        int d = 0;
        for (int acc = 0; d < 255; d++) {
            acc += eh[d];
            if (acc > n / 100)
                break;
        }
        end_dark[k] = d;
    }
    uint8_t ink[W * H], redv[W * H], rch[W * H];
    int paper_n[2] = {0, 0}, area_n[2] = {0, 0}, mid_paper = 0, mid_n = 0;
    double paper_r = 0, paper_g = 0;
    int paper_cnt = 0;
    /* ink: below 58% of the paper, or, where a small card's pips are
     * blurred grey, below half-way from the end's paper to its darkest
     * pixel (a blurred disc's half level is its printed edge); never above
     * 72% of the paper (its grain and shading stay paper), or 80% on an
     * end whose pips a glare washed out */
    int ink_end[2];
    for (int k = 0; k < 2; k++) {
        int t = paper * 58 / 100;
        if (g->chinese) {
            /* an end's darkest ink lighter than 45% of the paper: its
             * pips washed out by a glare, their cores at 55-70% */
            int faded = end_dark[k] * 100 > paper * 45;
            int mid = (end_paper[k] + end_dark[k]) / 2, cap = paper * (faded ? 80 : 72) / 100;
            mid = mid > cap ? cap : mid;
            t = mid > t ? mid : t;
        }
        ink_end[k] = t;
    }
    /* a pip's dark heart: a quarter of the way from the end's darkest ink
     * to its paper (the grey between blurred pips run together is lighter) */
    int core_t[2];
    for (int k = 0; k < 2; k++)
        core_t[k] = end_dark[k] + (end_paper[k] - end_dark[k]) / 4;
    int paper_t[2] = {end_paper[0] * 80 / 100, end_paper[1] * 80 / 100};
    for (int y = 0; y < H; y++) {
        const uint8_t *p = ts_image_row(card, y);
        int half = y < H / 2 ? 0 : 1;
        int in_end =
            y >= MARGIN_Y && y < H - MARGIN_Y && (y < H / 2 - g->band || y >= H / 2 + g->band);
        for (int x = 0; x < W; x++) {
            int b = p[3 * x], gr = p[3 * x + 1], r = p[3 * x + 2];
            int i = y * W + x;
            ink[i] = gr < ink_end[half];
            int rv = r - gr;
            redv[i] = (uint8_t)(rv < 0 ? 0 : rv > 255 ? 255 : rv);
            rch[i] = (uint8_t)r;
            if (!in_end && y >= MARGIN_Y && y < H - MARGIN_Y && x >= MARGIN_X && x < W - MARGIN_X) {
                int mx = b > gr ? b : gr, mn = b < gr ? b : gr;
                mx = r > mx ? r : mx;
                mn = r < mn ? r : mn;
                mid_paper += gr >= paper * 70 / 100 && mx - mn < mx * 45 / 100 + 10;
                mid_n++;
            }
            if (in_end && x >= MARGIN_X && x < W - MARGIN_X) {
                int mx = b > gr ? b : gr, mn = b < gr ? b : gr;
                if (r > mx)
                    mx = r;
                if (r < mn)
                    mn = r;
                /* paper: bright and grey (a felt or a board is coloured) */
                int is_paper = gr >= paper_t[half] && mx - mn < mx * 45 / 100 + 10;
                paper_n[half] += is_paper;
                if (is_paper) {
                    paper_r += r;
                    paper_cnt++;
                    paper_g += gr;
                }
                area_n[half] += 1;
                (void)b;
            }
        }
    }
    if (style == DOMINO_DOUBLE_SIX) {
        /* the bar across the middle: rows mostly ink, wiped so that a pip
         * touching it stays a pip */
        int wipe[H] = {0};
        for (int y = H / 2 - 14; y < H / 2 + 14; y++) {
            int n = 0;
            for (int x = MARGIN_X; x < W - MARGIN_X; x++)
                n += ink[y * W + x];
            if (n > (W - 2 * MARGIN_X) * 6 / 10)
                for (int j = y - 2; j <= y + 2; j++)
                    wipe[j] = 1;
        }
        for (int y = 0; y < H; y++)
            if (wipe[y])
                memset(ink + y * W, 0, W);
        /* and a tile has that bar, black: a quad across the seam of two
         * tiles laid end to end has the table there */
        int bar_rows = 0;
        for (int y = H / 2 - 14; y < H / 2 + 14; y++) {
            const uint8_t *p = ts_image_row(card, y);
            int n = 0;
            for (int x = MARGIN_X; x < W - MARGIN_X; x++) {
                const uint8_t *q = p + 3 * x;
                n += q[0] < paper / 2 && q[1] < paper / 2 && q[2] < paper / 2;
            }
            /* the bar stops short of the tile's sides, on paper; the seam
             * between two tiles runs out to the table */
            int open_ends = 0;
            for (int x = 1; x < 4; x++) {
                const uint8_t *l = p + 3 * x, *r = p + 3 * (W - 1 - x);
                int lm = l[0] < l[1] ? l[0] : l[1], rm = r[0] < r[1] ? r[0] : r[1];
                lm = lm < l[2] ? lm : l[2];
                rm = rm < r[2] ? rm : r[2];
                open_ends += lm > paper * 55 / 100; /* paper, not the table */
                open_ends += rm > paper * 55 / 100;
            }
            bar_rows += n > (W - 2 * MARGIN_X) / 2 && open_ends >= 2;
        }
        if (!bar_rows)
            return;
    }
    blob bl[MAX_BLOBS];
    int nb = label_blobs(ink, card, g->chinese ? core_t : NULL, redv, rch, bl, MAX_BLOBS);
    /* ink counts as covered paper too: an end's pips are part of it */
    float frac[2];
    for (int k = 0; k < 2; k++) {
        int inked = 0;
        for (int i = 0; i < nb; i++) {
            double cy = bl[i].sy / bl[i].area;
            if ((cy < H / 2) == (k == 0) && bl[i].area >= g->pip_min)
                inked += bl[i].area;
        }
        frac[k] = area_n[k] ? (float)(paper_n[k] + inked) / area_n[k] : 0;
    }
    out->middle_paper = mid_n ? (float)mid_paper / mid_n : 0;
    /* under a coloured light, black pips turn reddish as the paper does */
    out->colour_ok = paper_r > 0 && paper_r - paper_g < 0.12 * paper_r;
    /* the Chinese groups' squares: 22 mm, 3 mm in from each end (of 82) */
    double paper_rmean = paper_cnt ? paper_r / paper_cnt : 0;
    double smear[2];
    motion_smear(g, bl, nb, smear);
    read_end(g, bl, nb, smear, MARGIN_Y, H / 2 - g->band, frac[0], paper_rmean, out->colour_ok,
             3.0f / 82 * H, 25.0f / 82 * H, &out->end[0]);
    read_end(g, bl, nb, smear, H / 2 + g->band, H - MARGIN_Y, frac[1], paper_rmean,
             out->colour_ok, 57.0f / 82 * H, 79.0f / 82 * H, &out->end[1]);
    out->is_card = out->end[0].pips >= 0 || out->end[1].pips >= 0;
}
