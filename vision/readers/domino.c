/* Dominoes behind the reader interface: the pips of each end, "low:high".
 *
 * Profiles: "chinese" (default; the 84-card deck of Sap Ng Wu: long narrow
 * cards, 1-6 pips an end, ones and fours red, half of 6:6 red, the Hong Kong
 * five as one blob) and "double-six" (western tiles, 0-6 black pips an end).
 * domino_pips.c counts the pips; Chinese cards are found by their pips
 * (domino_cards.c), western tiles by their middle bar (domino_find.c): both
 * lie edge to edge in rows and overlap, where a white-blob detector merges
 * them.
 *
 * One end is a partial reading, and a partial reading is unread. The
 * Chinese finder offers a card whose far end is covered (a fanned hand, a
 * pile) at the deck's length from the end its pips show; the reader reads
 * it as a card: the end that shows is in attr_conf, the other end gets
 * conf 0 and its pips are a guess (the code is the shown end twice), so the
 * whole reading falls under the floor and the card is reported unread,
 * never feeding a hint, while the screen can say which end it saw. A
 * reading with both ends shown that is unsure, an end of bare paper or a
 * middle that is not paper is no card at all: the quad is off the card,
 * and the next overlapping candidate gets the place.
 *
 * A fanned hand's cards under the top one show strips: domino_strips.c
 * finds them from the cards found whole and reads those whose pips fix
 * both ends; find() offers each strip read (the part that shows, so the
 * place is the card's own) after every other candidate, with its reading
 * (read_found).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "median.h"
#include "reader.h"
#include "readers/domino_cards.h"
#include "readers/domino_find.h"
#include "readers/domino_pips.h"
#include "readers/domino_strips.h"
#include "readers/readers.h"

enum {
    MAX_STRIPS = 32,
    MAX_TOPS = 24,
    MAX_FOUND = 128,
    MAX_COVERED = 24,
    MAX_COVERS = 64,
    MAX_UNDER = 64,
    MAX_BESIDE = 24, /* reads a frame looking beside the cards known */
    MAX_CLEAR = 16,  /* reads (and cuts) a frame telling a pile's cards apart (clear_middles) */
    MAX_KNOWN = MAX_TOPS + MAX_COVERED, /* a pile's cards known */
    MAX_GROUPS = 96, /* pip groups off a pile's cards known */
    MAX_PAIRS = 12,  /* reads a frame of pile cards from two pip groups */
};

/* A quad the last find read, and its reading; covered: read from the part
 * that shows from under the cards lying on it (domino_read_covered). */
typedef struct {
    ts_pt q[4];
    ts_reading r;
    int covered;
} found_read;

typedef struct {
    domino_style style;
    domino_finder *tiles;      /* double-six */
    domino_card_finder *cards; /* chinese */
    domino_strip strips[MAX_STRIPS];
    found_read found[MAX_FOUND]; /* quads the last find read: strips, piles */
    int nfound;
    ts_image work; /* a strip's card, warped */
} domino_reader;

static const char *const domino_profiles[] = {"chinese", "double-six", NULL};

static void *domino_create(const ts_reader_config *cfg, char *err, size_t errlen)
{
    const char *profile = cfg && cfg->profile ? cfg->profile : domino_profiles[0];
    domino_style style;
    if (strcmp(profile, "chinese") == 0)
        style = DOMINO_CHINESE;
    else if (strcmp(profile, "double-six") == 0)
        style = DOMINO_DOUBLE_SIX;
    else {
        snprintf(err, errlen, "unknown domino profile '%s' (chinese or double-six)", profile);
        return NULL;
    }
    domino_reader *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->style = style;
    if (style == DOMINO_DOUBLE_SIX) {
        d->tiles = domino_finder_create();
    } else {
        d->cards = domino_card_finder_create();
    }
    if (!d->tiles && !d->cards) {
        snprintf(err, errlen, "out of memory");
        free(d);
        return NULL;
    }
    return d;
}

static void domino_destroy(void *reader)
{
    domino_reader *d = reader;
    if (!d)
        return;
    domino_finder_destroy(d->tiles);
    domino_card_finder_destroy(d->cards);
    ts_image_free(&d->work);
    free(d);
}

/* How well the colours fit the Chinese deck: ones and fours red, 6:6 half
 * red (three pips of each six), every other pip black. */
static float chinese_colour_fit(const domino_end e[2])
{
    int heaven = e[0].pips == 6 && e[1].pips == 6;
    float fit = 1.0f;
    for (int k = 0; k < 2; k++) {
        int n = e[k].pips, want;
        if (n < 0)
            continue;
        if (n == 1 || n == 4)
            want = n;
        else if (heaven)
            want = 3;
        else
            want = 0;
        int off = abs(e[k].red - want);
        /* a four with one pip too dim or blurred to show red is still a
         * four (no deck prints a black four, and the count is checked as
         * a square); a six's half is less sure */
        if (off)
            fit *= off == 1 && n == 4 ? 0.6f : off == 1 && n >= 4 ? 0.4f : 0.1f;
    }
    return fit;
}


/* v clamped to 0..n-1. */
static int clampi(int v, int n)
{
    return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* Grey (B + 2G + R) / 4 of a card pixel. */
static int card_grey(const ts_image *c, int x, int y)
{
    const uint8_t *p = ts_image_row(c, y) + 3 * x;
    return (p[0] + 2 * p[1] + p[2]) >> 2;
}

/* A Chinese card found a little wide or turned (a camera at a slant, the
 * finder's width from the waist's scale) shows table at one side and its
 * pips off their places. Its printed outline, along the pip-free rows
 * between the pip groups and the waist's rules, gives each long side: the
 * card is resampled to those sides (the ends are kept). Returns 1 and fills
 * out (W x H, buffer owned by the caller) if the sides moved enough to
 * matter, else 0. */
static int chinese_refit_sides(const ts_image *c, ts_image *out)
{
    const int w = c->w, h = c->h;
    /* paper level: the brightest of the middle column's pip-free rows */
    static const float ROWS[] = {27.5f, 30, 32.5f, 49.5f, 52, 54.5f}; /* mm of 82 */
    enum { NR = sizeof ROWS / sizeof ROWS[0] };
    float ys[NR], xl[NR], xr[NR];
    int n = 0;
    for (int k = 0; k < NR; k++) {
        int y = (int)lrintf(ROWS[k] / 82 * h);
        int ref = card_grey(c, w / 2, y);
        if (ref < 60)
            continue;
        int l = -1, r = -1;
        for (int x = w / 2; x >= 0 && l < 0; x--)
            if (card_grey(c, x, y) < ref * 80 / 100)
                l = x;
        for (int x = w / 2; x < w && r < 0; x++)
            if (card_grey(c, x, y) < ref * 80 / 100)
                r = x;
        if (l < 0 || r < 0 || r - l < w * 3 / 4) /* a pip, not the outline */
            continue;
        ys[n] = (float)y;
        xl[n] = (float)l;
        xr[n] = (float)r;
        n++;
    }
    if (n < 4)
        return 0;
    /* least squares x = a + b (y - h/2) for each side */
    float sy = 0, syy = 0, sl = 0, sr = 0, sly = 0, sry = 0;
    for (int i = 0; i < n; i++) {
        float d = ys[i] - h / 2.0f;
        sy += d;
        syy += d * d;
        sl += xl[i];
        sr += xr[i];
        sly += xl[i] * d;
        sry += xr[i] * d;
    }
    float det = n * syy - sy * sy;
    if (det < 1e-3f)
        return 0;
    float bl = (n * sly - sy * sl) / det, al = (sl - bl * sy) / n;
    float br = (n * sry - sy * sr) / det, ar = (sr - br * sy) / n;
    /* a real card's outline is about straight and about the card's width */
    if (ar - al < 0.7f * w || fabsf(bl) > 0.15f || fabsf(br) > 0.15f || fabsf(bl - br) > 0.06f)
        return 0;
    /* every row on the lines: an edge of a card lying over this one, or a
     * pip, is not the outline */
    for (int i = 0; i < n; i++) {
        float d = ys[i] - h / 2.0f;
        if (fabsf(xl[i] - al - bl * d) > 1.5f || fabsf(xr[i] - ar - br * d) > 1.5f)
            return 0;
    }
    /* the ends: the outline along columns 2.6 mm in from each side, where no
     * pip reaches, scanned from the pip-free rows out to each end */
    float end[2] = {0, (float)(h - 1)}, moved = 0;
    for (int s = 0; s < 2; s++) {
        float got[2];
        int ng = 0;
        for (int side = 0; side < 2; side++) {
            float f = side ? 1 - 1.4f / 23.6f : 1.4f / 23.6f; /* of the outline's width */
            int y = (int)lrintf((s ? 52.0f : 30.0f) / 82 * h), dir = s ? 1 : -1, hit = -1;
            float d = y - h / 2.0f;
            int ref = card_grey(c, (int)lrintf(al + bl * d + f * (ar + br * d - al - bl * d)), y);
            if (ref < 60)
                continue;
            for (; y >= 0 && y < h && hit < 0; y += dir) {
                d = y - h / 2.0f;
                int x = (int)lrintf(al + bl * d + f * (ar + br * d - al - bl * d));
                if (x < 0 || x >= w)
                    break;
                if (card_grey(c, x, y) < ref * 80 / 100)
                    hit = y;
            }
            if (hit >= 0)
                got[ng++] = (float)hit;
        }
        /* both columns agree and near where the crop puts the end */
        if (ng == 2 && fabsf(got[0] - got[1]) < 0.03f * h) {
            float o = (got[0] + got[1]) / 2;
            float want = s ? h - 1 - 1.2f / 82 * h : 1.2f / 82 * h;
            /* and a line right across: the outline, not a card lying over
             * this one (its edge slants) */
            int across = 0, yo = (int)lrintf(o);
            int ref = card_grey(c, w / 2, s ? 52 * h / 82 : 30 * h / 82);
            for (int k = 1; k <= 10; k++) {
                int x = (int)lrintf(al + (ar - al) * (k - 0.5f) / 10.5f), dark = 255;
                for (int yy = yo - 1; yy <= yo + 1; yy++)
                    if (yy >= 0 && yy < h && x >= 0 && x < w && card_grey(c, x, yy) < dark)
                        dark = card_grey(c, x, yy);
                across += dark < ref * 85 / 100;
            }
            if (fabsf(o - want) < 0.16f * h && across >= 9)
                end[s] = o + (s ? 1 : -1) * 1.2f / 82 * h;
        }
        moved = fmaxf(moved, fabsf(end[s] - (s ? h - 1 : 0)));
    }
    /* the outline runs 1.2 mm in from the card's sides, of 26 mm */
    float in = 1.2f / (26 - 2.4f);
    for (int e = 0; e < 2; e++) {
        float d = end[e] - h / 2.0f, l = al + bl * d, r = ar + br * d;
        float el = l - in * (r - l), er = r + in * (r - l);
        moved = fmaxf(moved, fmaxf(fabsf(el), fabsf(er - (w - 1))));
    }
    if (moved < 1.5f)
        return 0;
    for (int y = 0; y < h; y++) {
        float fy = end[0] + (end[1] - end[0]) * y / (h - 1), d = fy - h / 2.0f;
        float l = al + bl * d, r = ar + br * d;
        float el = l - in * (r - l), er = r + in * (r - l);
        int y0 = (int)floorf(fy);
        float ty = fy - y0;
        int ya = clampi(y0, h), yb = clampi(y0 + 1, h);
        const uint8_t *ra = ts_image_row(c, ya), *rb = ts_image_row(c, yb);
        uint8_t *o = ts_image_row(out, y);
        for (int x = 0; x < w; x++) {
            float fx = el + (er - el) * x / (w - 1);
            int x0 = (int)floorf(fx);
            float tx = fx - x0;
            int xa = clampi(x0, w), xb = clampi(x0 + 1, w);
            for (int ch = 0; ch < 3; ch++) {
                float v = (ra[3 * xa + ch] * (1 - tx) + ra[3 * xb + ch] * tx) * (1 - ty) +
                          (rb[3 * xa + ch] * (1 - tx) + rb[3 * xb + ch] * tx) * ty;
                o[3 * x + ch] = (uint8_t)lrintf(v);
            }
        }
    }
    return 1;
}

static int domino_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    domino_reader *d = reader;
    (void)err;
    memset(out, 0, sizeof *out);
    domino_pips p;
    domino_read_pips(d->style, card, &p);
    if (d->style == DOMINO_CHINESE && card->w == DOMINO_CARD_W && card->h == DOMINO_CARD_H &&
        card->channels == 3) {
        /* not sure at an end: perhaps the quad is off at the sides */
        uint8_t buf[DOMINO_CARD_W * DOMINO_CARD_H * 3];
        ts_image fit = {DOMINO_CARD_W, DOMINO_CARD_H, DOMINO_CARD_W * 3, 3, buf};
        if ((p.end[0].conf < 0.9f || p.end[1].conf < 0.9f) && chinese_refit_sides(card, &fit)) {
            domino_pips q;
            domino_read_pips(d->style, &fit, &q);
            float was = p.end[0].conf * p.end[1].conf, now = q.end[0].conf * q.end[1].conf;
            /* the same counts as first read, only surer: two samplings of the
             * card agree (a count that changes is a pip cut or uncovered) */
            if (q.is_card && now > was && q.end[0].pips == p.end[0].pips &&
                q.end[1].pips == p.end[1].pips)
                p = q;
        }
    }
    if (!p.is_card)
        return 0;
    /* a western tile is never covered: both ends unclean is not a tile
     * (the board's print, its logo), where a Chinese card may be covered */
    if (d->style == DOMINO_DOUBLE_SIX && p.end[0].conf < 0.2f && p.end[1].conf < 0.2f)
        return 0;
    int lo_pips = d->style == DOMINO_CHINESE ? 1 : 0;
    /* no pip at either end of a Chinese card: blank paper, not a card */
    if (d->style == DOMINO_CHINESE && p.end[0].pips < 1 && p.end[1].pips < 1)
        return 0;
    int a = p.end[0].pips, b = p.end[1].pips;
    /* an end that does not show: a placeholder the confidence disowns */
    if (a < lo_pips)
        a = b >= lo_pips ? b : lo_pips;
    if (b < lo_pips)
        b = a;
    /* Both ends show and still the reading is unsure, or an end shows
     * clean paper with no pip (every Chinese card has 1-6 at each end):
     * the quad is off the card (shifted along it, a middle taken for an
     * end), so it is no card here and an overlapping candidate gets the
     * place. So is a Chinese card with an end that does not show: its
     * reading never reaches the floor (that end's confidence is 0), and
     * the quad is often one run on past the card's end onto the paper of
     * a card lying end to end with it (their seam faint); holding the
     * place would keep out the overlapping candidate of the card's own
     * length (see frame_trims in domino_cards.c). */
    /* and a card is paper from end to end: a middle that is not (the
     * table between two cards' ends) is no card (a picture printed there
     * covers a small part of it) */
    if (d->style == DOMINO_CHINESE && p.middle_paper < 0.5f)
        return 0;
    if (d->style == DOMINO_CHINESE && (p.end[0].pips < 0 || p.end[1].pips < 0))
        return 0;
    if (d->style == DOMINO_CHINESE) {
        float both = p.end[0].conf * p.end[1].conf;
        if (p.end[0].pips == 0 || p.end[1].pips == 0 || both < 0.3f)
            return 0;
    }
    int idx = ts_domino_index(a, b);
    if (idx < 0)
        return 0;
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_DOMINO, (uint8_t)idx};
    out->nattr = 2;
    /* attributes: the low end, then the high end (the code's order) */
    float ca = p.end[0].pips >= lo_pips ? p.end[0].conf : 0;
    float cb = p.end[1].pips >= lo_pips ? p.end[1].conf : 0;
    out->attr_conf[0] = a <= b ? ca : cb;
    out->attr_conf[1] = a <= b ? cb : ca;
    out->conf = out->attr_conf[0] * out->attr_conf[1];
    if (d->style == DOMINO_CHINESE && p.colour_ok) {
        float fit = chinese_colour_fit(p.end);
        /* both ends shown in colours no card of the deck has (a spotted
         * cloth's dots, a quad across two cards): no card here, and an
         * overlapping candidate gets the place */
        if (fit < 0.05f && p.end[0].pips >= 0 && p.end[1].pips >= 0) {
            memset(out, 0, sizeof *out);
            return 0;
        }
        out->conf *= fit;
    }
    return 0;
}

/* Where find() kept quad q's reading (the same floats): its index, or
 * d->nfound if none. */
static int found_index(const domino_reader *d, const ts_pt q[4])
{
    int i = 0;
    while (i < d->nfound && memcmp(d->found[i].q, q, sizeof d->found[i].q) != 0)
        i++;
    return i;
}

/* Keeps q's reading (covered: read as a covered card) for read_found, the
 * latest for a quad read again (a candidate read whole, then read as
 * covered: found_reading gives the first); none kept past MAX_FOUND. */
static void keep_found(domino_reader *d, const ts_pt q[4], const ts_reading *r, int covered)
{
    int i = found_index(d, q);
    if (i == MAX_FOUND)
        return;
    if (i == d->nfound)
        memcpy(d->found[d->nfound++].q, q, sizeof d->found[0].q);
    d->found[i].r = *r;
    d->found[i].covered = covered;
}

/* A card quad's length (end to end) and width, q[0]-q[1] an end. */
static float card_len(const ts_pt q[4])
{
    return (ts_dist(q[0], q[3]) + ts_dist(q[1], q[2])) / 2;
}

static float card_wid(const ts_pt q[4])
{
    return (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3])) / 2;
}

/* True if q is a card of length len and width wid, give or take: each
 * long side within 5% of len (a quad with sides of different lengths puts
 * the pip places wrong), each end within 12% of wid. */
static int card_shaped(const ts_pt q[4], float len, float wid)
{
    for (int k = 0; k < 2; k++) {
        float l = ts_dist(q[k ? 1 : 0], q[k ? 2 : 3]), w = ts_dist(q[k ? 3 : 0], q[k ? 2 : 1]);
        if (fabsf(l / len - 1) > 0.05f || fabsf(w / wid - 1) > 0.12f)
            return 0;
    }
    return 1;
}

/* True if some of card c's pip groups lies under card t: one of the
 * groups' sample points (4 x 4 an end) inside it. */
static int covers_ends(const ts_quad *t, const ts_quad *c)
{
    for (int e = 0; e < 2; e++)
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                float u = (3 + 20 * a / 3.0f) / 26, v = (4 + 20 * b / 3.0f) / 82;
                ts_pt s = ts_quad_point(c->q, u, e ? 1 - v : v);
                if (ts_point_in_quad(t->q, s.x, s.y))
                    return 1;
            }
    return 0;
}

/* c's quad len long along it, keeping its end e (0: q[0]-q[1]). */
static void keep_end(const ts_quad *c, int e, float len, ts_quad *out)
{
    const ts_pt *q = c->q;
    float t = len / card_len(q);
    *out = *c;
    ts_pt *o = out->q;
    if (e == 0) {
        o[3] = (ts_pt){q[0].x + (q[3].x - q[0].x) * t, q[0].y + (q[3].y - q[0].y) * t};
        o[2] = (ts_pt){q[1].x + (q[2].x - q[1].x) * t, q[1].y + (q[2].y - q[1].y) * t};
    } else {
        o[0] = (ts_pt){q[3].x + (q[0].x - q[3].x) * t, q[3].y + (q[0].y - q[3].y) * t};
        o[1] = (ts_pt){q[2].x + (q[1].x - q[2].x) * t, q[2].y + (q[1].y - q[2].y) * t};
    }
    out->area = (float)ts_quad_area(o);
}

/* How large a card lies where on the table, from the tops: a slanted
 * camera draws the cards nearer it larger (a card's size, the square root
 * of its area, a plane over the image) and foreshortens them along one
 * way (the image's metric, the same everywhere: each top's length and
 * width across give it whatever way the top lies). */
typedef struct {
    float s0, sx, sy;  /* size at (x, y): s0 + sx x + sy y */
    float lo, hi;      /* the tops' sizes, less and more a tenth */
    float gi[3];       /* the metric inverted (xx, xy, yy), determinant 1 */
    float m[3];        /* its square root (xx, xy, yy) */
} table_view;

/* A pile's cards as far as they are known: the cards known (found whole
 * and read sure at both ends, the tops, or read here), the other
 * candidates of a card's size, and that size; and the cards found whole
 * that read with both ends shown, a fanned hand's tops. */
typedef struct {
    ts_quad known[MAX_KNOWN];
    ts_quad other[MAX_COVERS];
    ts_quad fan[MAX_TOPS];
    int nknown, ntops, nother, nfan;
    table_view view; /* from the tops */
} pile;

/* The tops among the candidates cand[0..n) (their readings kept for
 * read_found, the pipeline would read them again), and the fan's tops:
 * read as the pipeline reads them (a quad a little off at the sides is
 * refitted), not from the quad as found. Returns 0, or -1 with err. */
static int find_tops(domino_reader *d, const ts_image *frame, const ts_quad *cand, int n,
                     pile *p, char *err)
{
    ts_reading r;
    p->nknown = p->nfan = 0;
    for (int i = 0; i < n && p->nknown < MAX_TOPS; i++) {
        int seen = 0;
        for (int t = 0; t < p->nknown && !seen; t++)
            seen = ts_quad_overlap(&p->known[t], &cand[i]);
        if (seen || !domino_found_whole(d->cards, i))
            continue;
        if (tscv_warp_quad(frame, cand[i].q, &d->work, DOMINO_CARD_W, DOMINO_CARD_H, err) < 0 ||
            domino_read(d, &d->work, &r, err) < 0)
            return -1;
        keep_found(d, cand[i].q, &r, 0);
        if (r.is_card && r.attr_conf[0] >= 0.9f && r.attr_conf[1] >= 0.9f)
            p->known[p->nknown++] = cand[i];
        if (r.is_card && r.attr_conf[0] >= 0.5f && r.attr_conf[1] >= 0.5f && p->nfan < MAX_TOPS)
            p->fan[p->nfan++] = cand[i];
    }
    p->ntops = p->nknown;
    return 0;
}

/* A card's length vector (end to end) and width vector (across). */
static void card_axes(const ts_pt q[4], ts_pt *l, ts_pt *w)
{
    *l = (ts_pt){(q[3].x + q[2].x - q[0].x - q[1].x) / 2, (q[3].y + q[2].y - q[0].y - q[1].y) / 2};
    *w = (ts_pt){(q[1].x + q[2].x - q[0].x - q[3].x) / 2, (q[1].y + q[2].y - q[0].y - q[3].y) / 2};
}

/* Whether quad q is one of c[0..n): its middle within tol of its length
 * of theirs, lying within about 15 degrees of their way. */
static int same_card(const ts_quad *q, const ts_quad *c, int n, float tol)
{
    ts_pt m = ts_quad_centre(q->q), l, w;
    card_axes(q->q, &l, &w);
    float len = hypotf(l.x, l.y);
    for (int i = 0; i < n; i++) {
        ts_pt mc = ts_quad_centre(c[i].q), lc, wc;
        card_axes(c[i].q, &lc, &wc);
        float lenc = hypotf(lc.x, lc.y);
        if (ts_dist(m, mc) < tol * len && fabsf(l.x * lc.x + l.y * lc.y) > 0.966f * len * lenc)
            return 1;
    }
    return 0;
}

/* A card's length over its width (82 by 26 mm). */
#define CARD_ASPECT (82.0f / 26)

/* The determinant of the 3x3 in the first three columns of m, with column
 * k taken from column 3 when k is 0..2 (Cramer's rule), -1 for none. */
static double det3(const double m[3][4], int k)
{
    double a[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            a[i][j] = m[i][j == k ? 3 : j];
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* The plane s0 + sx x + sy y nearest the tops' sizes sz at their middles
 * c (least squares); 0 if they lie too near a line for it. */
static int size_plane(const ts_pt *c, const float *sz, int n, table_view *v)
{
    double m[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        double r[3] = {1, c[i].x, c[i].y};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++)
                m[a][b] += r[a] * r[b];
            m[a][3] += r[a] * sz[i];
        }
    }
    double det = det3(m, -1);
    /* the tops' spread: the determinant over n^3 is their scatter's area squared */
    if (n < 4 || det < 6.25e6 * (double)n * n * n)
        return 0;
    v->s0 = (float)(det3(m, 0) / det);
    v->sx = (float)(det3(m, 1) / det);
    v->sy = (float)(det3(m, 2) / det);
    return 1;
}

/* The view of the table from the tops (table_view): a covered card's pip
 * places are measured from its ends, so a quad of another size than the
 * card's there puts them wrong. */
static void pile_view(pile *p)
{
    const float K = CARD_ASPECT;
    ts_pt c[MAX_TOPS];
    float sz[MAX_TOPS], sorted[MAX_TOPS], g[3] = {0, 0, 0};
    for (int t = 0; t < p->ntops; t++) {
        ts_pt l, w;
        card_axes(p->known[t].q, &l, &w);
        float s = sqrtf(K * fabsf(l.x * w.y - l.y * w.x));
        c[t] = ts_quad_centre(p->known[t].q);
        sz[t] = sorted[t] = s;
        /* the metric: l l' + (K w)(K w)', at size 1 */
        g[0] += (l.x * l.x + K * K * w.x * w.x) / (s * s);
        g[1] += (l.x * l.y + K * K * w.x * w.y) / (s * s);
        g[2] += (l.y * l.y + K * K * w.y * w.y) / (s * s);
    }
    ts_sort_floats(sorted, (size_t)p->ntops);
    table_view *v = &p->view;
    v->lo = 0.9f * sorted[0];
    v->hi = 1.1f * sorted[p->ntops - 1];
    if (!size_plane(c, sz, p->ntops, v)) {
        v->s0 = sorted[p->ntops / 2];
        v->sx = v->sy = 0;
    }
    float det = g[0] * g[2] - g[1] * g[1];
    if (!(det > 0)) {
        g[0] = g[2] = 1;
        g[1] = 0;
        det = 1;
    }
    float k = 1 / sqrtf(det); /* determinant 1 */
    g[0] *= k, g[1] *= k, g[2] *= k;
    v->gi[0] = g[2], v->gi[1] = -g[1], v->gi[2] = g[0];
    float t = sqrtf(g[0] + g[2] + 2); /* the square root of a 2x2 of determinant 1 */
    v->m[0] = (g[0] + 1) / t, v->m[1] = g[1] / t, v->m[2] = (g[2] + 1) / t;
}

/* The length and width of a card lying as quad q does (its middle, its
 * way) on the table seen as v. */
static void card_size_at(const table_view *v, const ts_pt q[4], float *len, float *wid)
{
    const float K = CARD_ASPECT;
    ts_pt c = ts_quad_centre(q), l, w;
    card_axes(q, &l, &w);
    float n = hypotf(l.x, l.y);
    float dx = n > 0 ? l.x / n : 1, dy = n > 0 ? l.y / n : 0;
    float s = v->s0 + v->sx * c.x + v->sy * c.y;
    s = s < v->lo ? v->lo : s > v->hi ? v->hi : s;
    /* along d: s / |M^-1 d|; across, on the table: M R M^-1 d, as long */
    float q2 = v->gi[0] * dx * dx + 2 * v->gi[1] * dx * dy + v->gi[2] * dy * dy;
    float ux = v->m[2] * dx - v->m[1] * dy, uy = -v->m[1] * dx + v->m[0] * dy; /* M^-1 d */
    float rx = -uy, ry = ux;
    float ax = v->m[0] * rx + v->m[1] * ry, ay = v->m[1] * rx + v->m[2] * ry;
    *len = s / sqrtf(q2);
    *wid = s / K * hypotf(ax, ay) / sqrtf(q2);
}

/* The candidates of a card's size that are no top, one a place. */
static void pile_others(const ts_quad *cand, int n, pile *p)
{
    p->nother = 0;
    for (int i = 0; i < n && p->nother < MAX_COVERS; i++) {
        float len, wid;
        card_size_at(&p->view, cand[i].q, &len, &wid);
        if (!card_shaped(cand[i].q, len, wid))
            continue;
        int seen = 0;
        for (int t = 0; t < p->ntops && !seen; t++)
            seen = ts_quad_overlap(&p->known[t], &cand[i]);
        for (int t = 0; t < p->nother && !seen; t++)
            seen = ts_quad_overlap(&p->other[t], &cand[i]);
        if (!seen)
            p->other[p->nother++] = cand[i];
    }
}

/* The frame's green at the pixel nearest p (ink, red or black, is dark in
 * green), -1 off the frame. */
static int green_at(const ts_image *frame, ts_pt p)
{
    int x = (int)lrintf(p.x), y = (int)lrintf(p.y);
    if (x < 0 || y < 0 || x >= frame->w || y >= frame->h)
        return -1;
    return ts_image_row(frame, y)[3 * x + 1];
}

/* The paper level of card c: the upper quartile of green at 8 points
 * between the end e's pips and the waist, a quarter of its width in from
 * each side (no deck prints there); -1 if off the frame. */
static float paper_near(const ts_image *frame, const ts_quad *c, int e)
{
    float g[8];
    int n = 0;
    for (int k = 0; k < 4; k++)
        for (int side = 0; side < 2; side++) {
            float v = 0.33f + 0.03f * k;
            int x = green_at(frame, ts_quad_point(c->q, side ? 0.75f : 0.25f, e ? 1 - v : v));
            if (x >= 0)
                g[n++] = (float)x;
        }
    if (n < 8)
        return -1;
    ts_sort_floats(g, 8);
    return g[5];
}

/* Whether card c's outline shows inside quad q: at 6 or more of the
 * points along its sides that lie inside q, 3 or more of them, a line
 * or an edge darker than c's paper within 3 px of where c puts it, c's
 * own paper 4 px in. A card lying on c hides c's outline under its
 * paper; a card c lies on, or a quad across cards and table (a pile's
 * stray candidates), does not. */
static int outline_inside(const ts_image *frame, const ts_quad *c, const ts_quad *q)
{
    float paper = fmaxf(paper_near(frame, c, 0), paper_near(frame, c, 1));
    if (paper < 40)
        return 0;
    ts_pt ctr = ts_quad_centre(c->q);
    int n = 0, shown = 0;
    for (int k = 0; k < 4; k++) {
        ts_pt a = c->q[k], b = c->q[(k + 1) & 3];
        ts_pt o = ts_outward(a, b, ctr);
        for (int i = 0; i < 10; i++) {
            ts_pt s = ts_toward(a, b, 0.05f + 0.1f * i);
            ts_pt in = {s.x - 4 * o.x, s.y - 4 * o.y}, out = {s.x + 4 * o.x, s.y + 4 * o.y};
            if (!ts_point_in_quad(q->q, in.x, in.y) || !ts_point_in_quad(q->q, out.x, out.y))
                continue;
            int gin = green_at(frame, in);
            if (gin < 0 || gin < 0.85f * paper)
                continue; /* a pip or a picture of c's there: no evidence */
            n++;
            int line = 0;
            for (int d = -2; d <= 3 && !line; d++) {
                int g = green_at(frame, (ts_pt){s.x + d * o.x, s.y + d * o.y});
                line = g >= 0 && g < 0.8f * paper;
            }
            shown += line;
        }
    }
    return n >= 6 && shown >= 0.6f * n;
}

/* The cards of p (every card known, then every other candidate) but c
 * itself that lie on c by test covers and, given the frame, through which
 * c's own outline does not show (outline_inside), into on[] (room for
 * MAX_TOPS). Returns the count, -1 if more than MAX_TOPS. */
static int cards_on(const ts_image *frame, const pile *p, const ts_quad *c,
                    int (*covers)(const ts_quad *, const ts_quad *), ts_quad *on)
{
    int n = 0;
    for (int k = 0; k < p->nknown + p->nother; k++) {
        const ts_quad *q = k < p->nknown ? &p->known[k] : &p->other[k - p->nknown];
        if (same_card(q, c, 1, 0.2f) || !covers(q, c) || (frame && outline_inside(frame, c, q)))
            continue;
        if (n == MAX_TOPS)
            return -1;
        on[n++] = *q;
    }
    return n;
}

/* What may lie on card c's pip groups: every card known and every other
 * candidate there but c itself (over-covering leaves more unread, never a
 * card read wrong: the right count still fits what shows; a card lying on
 * it need not be known: one read unsure, or a covered card not yet read,
 * still hides what it hides; given the frame, none c's outline shows
 * through). Returns the count into on[], -1 if more than MAX_TOPS. */
static int lying_on(const ts_image *frame, const pile *p, const ts_quad *c, ts_quad *on)
{
    return cards_on(frame, p, c, covers_ends, on);
}

/* How a pile card was read: whole (its own reading sure), or covered
 * (domino_read_covered: from the part that shows). */
enum { READ_WHOLE = 1, READ_COVERED = 2 };


/* Reads quad c of a pile: its own reading if sure, else the part that
 * shows from under the cards lying on it (domino_read_covered). Returns
 * READ_WHOLE or READ_COVERED with r, 0, or -1 with err; *tried counts the
 * warps. */
static int read_covered(domino_reader *d, const ts_image *frame, const ts_quad *c,
                        const pile *p, ts_reading *r, int *tried, char *err)
{
    ts_quad on[MAX_TOPS];
    if (lying_on(NULL, p, c, on) <= 0)
        return 0;
    ++*tried;
    if (tscv_warp_quad(frame, c->q, &d->work, DOMINO_CARD_W, DOMINO_CARD_H, err) < 0 ||
        domino_read(d, &d->work, r, err) < 0)
        return -1;
    if (r->is_card && r->conf >= ts_domino_reader_class.conf_floor)
        return READ_WHOLE;
    /* what shows of it: under the cards its own outline does not show through */
    int nc = lying_on(frame, p, c, on);
    if (nc <= 0)
        return 0;
    int got = domino_read_covered(frame, c->q, on, nc, &d->work, r);
    return got ? READ_COVERED : 0;
}

/* Where card c's end far from its end e (0: q[0]-q[1]) shows as an edge
 * within reach px of where c puts it, along the card: at 5 points across
 * that end, paper (85% of the card's) two px before the step and the
 * table (under 80%) from two to five px past it; 3 or more of them within
 * 2 px of their median (a card lying over the end crosses it at a slant,
 * its own paper past its shadow). Returns the offset (px, outward), or
 * NAN. */
static float far_end_edge(const ts_image *frame, const ts_quad *c, int e, float reach)
{
    ts_pt n0 = ts_mid(c->q[0], c->q[1]), n1 = ts_mid(c->q[3], c->q[2]);
    float len = ts_dist(n0, n1), paper = paper_near(frame, c, e);
    if (len < 1 || paper < 40)
        return NAN;
    ts_pt a = {(n1.x - n0.x) / len, (n1.y - n0.y) / len};
    if (e)
        a = (ts_pt){-a.x, -a.y};
    float got[5];
    int ng = 0, r = (int)reach;
    for (int k = 0; k < 5; k++) {
        ts_pt s = ts_quad_point(c->q, 0.15f + 0.175f * k, e ? 0.0f : 1.0f);
        for (int d = -r; d <= r; d++) {
            int in = 1, out = 1;
            for (int j = -2; j <= -1 && in; j++) {
                int g = green_at(frame, (ts_pt){s.x + (d + j) * a.x, s.y + (d + j) * a.y});
                in = g >= 0.85f * paper;
            }
            for (int j = 2; j <= 5 && out; j++) {
                int g = green_at(frame, (ts_pt){s.x + (d + j) * a.x, s.y + (d + j) * a.y});
                out = g >= 0 && g < 0.8f * paper;
            }
            if (in && out) {
                got[ng++] = d + 0.5f;
                break;
            }
        }
    }
    if (ng < 3)
        return NAN;
    ts_sort_floats(got, (size_t)ng);
    float med = got[ng / 2];
    int near = 0;
    for (int k = 0; k < ng; k++)
        near += fabsf(got[k] - med) <= 2;
    return near >= 3 ? med : NAN;
}

/* Card q len long, its end nearer c kept, with its far end moved to the
 * edge it shows there (far_end_edge), if one does. */
static void snap_far_end(const ts_image *frame, ts_quad *q, ts_pt c, float len)
{
    int e = ts_dist(ts_mid(q->q[0], q->q[1]), c) > ts_dist(ts_mid(q->q[2], q->q[3]), c);
    float off = far_end_edge(frame, q, e, 0.06f * len);
    if (off == off && fabsf(off) >= 1.5f) {
        ts_quad was = *q;
        keep_end(&was, e, len + off, q);
    }
}

/* Reads candidate c of a pile (not a card known) as found, or (one end
 * covered, the other where the finder saw it) at the tops' length from
 * either end (the finder ran on or stopped short at the covered one): c
 * becomes the quad read. Returns as read_covered. */
static int read_pile_card(domino_reader *d, const ts_image *frame, ts_quad *c, const pile *p,
                          ts_reading *r, int *tried, char *err)
{
    ts_quad v[3];
    int nv = 0;
    float l = card_len(c->q), len, wid;
    card_size_at(&p->view, c->q, &len, &wid);
    if (fabsf(l / len - 1) <= 0.05f)
        v[nv++] = *c;
    if (fabsf(l / len - 1) > 0.02f)
        for (int e = 0; e < 2; e++) {
            keep_end(c, e, len, &v[nv]);
            /* the far end where it shows an edge: the table's view of the
             * length is a few percent off */
            float off = far_end_edge(frame, &v[nv], e, 0.06f * len);
            if (off == off && fabsf(off) >= 1.5f)
                keep_end(c, e, len + off, &v[nv]);
            nv++;
        }
    for (int k = 0; k < nv && *tried < MAX_COVERED; k++) {
        if (!card_shaped(v[k].q, len, wid))
            continue;
        int got = read_covered(d, frame, &v[k], p, r, tried, err);
        if (got > 0)
            *c = v[k];
        if (got)
            return got;
    }
    return 0;
}

/* Candidate i of a pile: read (read_pile_card) unless it lies on a card
 * known; a card read is known from then on, its reading kept for
 * read_found. Returns 1 if read, 0, or -1 with err. */
static int pile_candidate(domino_reader *d, const ts_image *frame, ts_quad *c, pile *p,
                          int *tried, char *err)
{
    float len, wid;
    card_size_at(&p->view, c->q, &len, &wid);
    if (fabsf(card_wid(c->q) / wid - 1) > 0.12f)
        return 0;
    for (int t = 0; t < p->nknown; t++)
        if (ts_quad_overlap(&p->known[t], c))
            return 0;
    ts_reading r;
    int got = read_pile_card(d, frame, c, p, &r, tried, err);
    if (got > 0) {
        keep_found(d, c->q, &r, got == READ_COVERED);
        p->known[p->nknown++] = *c;
    }
    return got;
}

/* The quad of a card len by wid whose end squares' middles (14/82 of its
 * length in from each end: every count is printed centred there) are a
 * and b. */
static void card_on_ends(ts_pt a, ts_pt b, float len, float wid, ts_quad *out)
{
    float d = ts_dist(a, b), ux = (b.x - a.x) / d, uy = (b.y - a.y) / d;
    float nx = -uy * wid / 2, ny = ux * wid / 2, h = len / 2;
    ts_pt m = ts_mid(a, b);
    ts_pt *q = out->q;
    q[0] = (ts_pt){m.x - h * ux - nx, m.y - h * uy - ny};
    q[1] = (ts_pt){m.x - h * ux + nx, m.y - h * uy + ny};
    q[2] = (ts_pt){m.x + h * ux + nx, m.y + h * uy + ny};
    q[3] = (ts_pt){m.x + h * ux - nx, m.y + h * uy - ny};
    ts_quad_order(q);
    out->area = len * wid;
    out->score = 1.0f;
}

/* Whether group g's pips all lie in an end's square (20 mm of the card's
 * 26 wide, give or take) about its mean, the card lying along u, and its
 * plain pips are of the card's size. */
static int group_in_square(const domino_group *g, float ux, float uy, float wid)
{
    if (g->n > 6 || (g->r > 0 && (wid < 4.5f * g->r || wid > 11.0f * g->r)))
        return 0;
    for (int i = 0; i < g->n; i++) {
        float dx = g->px[i] - g->cx, dy = g->py[i] - g->cy;
        if (fabsf(dx * ux + dy * uy) > 0.36f * wid || fabsf(dy * ux - dx * uy) > 0.36f * wid)
            return 0;
    }
    return 1;
}

/* Whether some of card c lies under card t: one of 5 x 13 points over it
 * inside t. */
static int covers_some(const ts_quad *t, const ts_quad *c)
{
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 13; b++) {
            ts_pt s = ts_quad_point(c->q, (0.5f + 6 * a) / 25, (0.5f + 6 * b) / 73);
            if (ts_point_in_quad(t->q, s.x, s.y))
                return 1;
        }
    return 0;
}

/* Whether quad q is one of c[0..n) already: each corner within tol px of
 * theirs (either way round: both are in ts_quad_order). */
static int offered(const ts_quad *q, const ts_quad *c, int n, float tol)
{
    for (int i = 0; i < n; i++)
        for (int turn = 0; turn <= 2; turn += 2) {
            int near = 1;
            for (int k = 0; k < 4 && near; k++)
                near = ts_dist(q->q[k], c[i].q[(k + turn) & 3]) <= tol;
            if (near)
                return 1;
        }
    return 0;
}

/* Whether paper as light as card c's (its warp, work) lies just beyond
 * either long side of c at two or more of 16 points along it. */
static int paper_beyond_sides(const ts_image *frame, const ts_quad *c, const ts_image *work)
{
    int hist[256] = {0}, total = 0;
    for (int y = 0; y < work->h; y++) {
        const uint8_t *r = ts_image_row(work, y);
        for (int x = 0; x < work->w; x++, total++)
            hist[r[3 * x + 1]]++;
    }
    int paper = domino_paper_level(hist, total);
    float wid = card_wid(c->q);
    for (int side = 0; side < 2; side++) {
        int light = 0;
        for (int k = 0; k < 16; k++) {
            float v = (k + 0.5f) / 16;
            ts_pt on = ts_quad_point(c->q, side ? 1.0f : 0.0f, v);
            ts_pt mid = ts_quad_point(c->q, 0.5f, v);
            float dx = on.x - mid.x, dy = on.y - mid.y, l = hypotf(dx, dy);
            if (l < 1)
                continue;
            int x = (int)lrintf(on.x + dx / l * (4 + 0.1f * wid));
            int y = (int)lrintf(on.y + dy / l * (4 + 0.1f * wid));
            if (x < 0 || y < 0 || x >= frame->w || y >= frame->h)
                continue;
            light += ts_image_row(frame, y)[3 * x + 1] >= 0.8f * paper;
        }
        if (light >= 2)
            return 1;
    }
    return 0;
}

/* Reads pile card c found from two pip groups from what shows from under
 * every card of p lying on any of it (domino_read_covered: its outline
 * shows there, and exactly one card of the deck fits). Returns 1 with r,
 * 0, or -1 with err. */
static int read_pair_card(domino_reader *d, const ts_image *frame, const ts_quad *c,
                          const pile *p, ts_reading *r, char *err)
{
    ts_quad on[MAX_TOPS];
    int n = cards_on(frame, p, c, covers_some, on);
    if (n < 0)
        return 0;
    if (tscv_warp_quad(frame, c->q, &d->work, DOMINO_CARD_W, DOMINO_CARD_H, err) < 0)
        return -1;
    /* no card known on it: a card the finder missed whole, or one card's
     * end and another's lying over it, unknown (its pips read as this
     * card's): that one's paper runs on beyond the long sides */
    if (!n && paper_beyond_sides(frame, c, &d->work))
        return 0;
    return domino_read_covered(frame, c->q, on, n, &d->work, r);
}

/* Reads a card offered at quad q from its pip groups (read_pair_card):
 * first with its long sides moved to the edges that show (the groups'
 * middles put it a little off where pips are cut), then as offered. A card
 * read is kept, known from then on, and q becomes the quad read. *reads
 * counts the reads. Returns 1, 0, or -1 with err. */
static int take_offered(domino_reader *d, const ts_image *frame, ts_quad *q, pile *p, int *reads,
                        char *err)
{
    ts_quad v[2];
    int nv = 0;
    if (domino_fit_sides(frame, q, &v[0])) {
        ts_quad_order(v[0].q);
        nv++;
    }
    v[nv++] = *q;
    for (int k = 0; k < nv; k++) {
        ++*reads;
        ts_reading r;
        int got = read_pair_card(d, frame, &v[k], p, &r, err);
        if (got < 0)
            return -1;
        if (got) {
            *q = v[k];
            keep_found(d, q->q, &r, 1);
            p->known[p->nknown++] = *q;
            return 1;
        }
    }
    return 0;
}

/* Pile cards no candidate found, from two groups of the pips on no card
 * known: groups as far apart as a card's end squares where they lie (the
 * table's view), each within its square, read (read_pair_card); each card
 * read is known from then on and added after the n candidates (out has
 * room for max). At most MAX_PAIRS reads. Returns the count now, or -1
 * with err. */
static int pair_cards(domino_reader *d, const ts_image *frame, ts_quad *cand, int n, int max,
                      pile *p, char *err)
{
    domino_group g[MAX_GROUPS];
    int ng = domino_groups_off(d->cards, p->known, p->nknown, g, MAX_GROUPS), reads = 0;
    for (int a = 0; a < ng && reads < MAX_PAIRS; a++)
        for (int b = a + 1; b < ng && reads < MAX_PAIRS && n < max && p->nknown < MAX_KNOWN;
             b++) {
            ts_pt ca = {g[a].cx, g[a].cy}, cb = {g[b].cx, g[b].cy};
            float dist = ts_dist(ca, cb), len, wid;
            /* a one's disc or a five's clover alone may end any card
             * lying there (two wrong readings on 87040, 120025) */
            if (dist < 8 || g[a].r <= 0 || g[b].r <= 0)
                continue;
            ts_quad q;
            card_on_ends(ca, cb, dist * 82 / 54, dist * 26 / 54, &q);
            card_size_at(&p->view, q.q, &len, &wid);
            float ux = (cb.x - ca.x) / dist, uy = (cb.y - ca.y) / dist;
            if (fabsf(dist / (len * 54 / 82) - 1) > 0.1f || !group_in_square(&g[a], ux, uy, wid) ||
                !group_in_square(&g[b], ux, uy, wid))
                continue;
            card_on_ends(ca, cb, len, wid, &q);
            if (same_card(&q, p->known, p->nknown, 0.2f) || offered(&q, cand, n, 0.1f * wid))
                continue;
            int got = take_offered(d, frame, &q, p, &reads, err);
            if (got < 0)
                return -1;
            if (got)
                cand[n++] = q;
        }
    return n;
}

/* The distance between group g's two nearest pips. */
static float pip_spacing(const domino_group *g)
{
    float best = INFINITY;
    for (int i = 0; i < g->n && i < DOMINO_GROUP_PIPS; i++)
        for (int j = i + 1; j < g->n && j < DOMINO_GROUP_PIPS; j++)
            best = fminf(best, hypotf(g->px[j] - g->px[i], g->py[j] - g->py[i]));
    return best;
}

/* The ways a card may lie from group g of its pips, seen whole (a two's
 * or three's diagonal, a four's or six's rows and columns), as unit
 * vectors from this end toward the other into u (room for 4). Returns the
 * count: 0 for a one or five (one blob, no way), or a group of no count's
 * shape. */
static int ways_from_group(const domino_group *g, float wid, ts_pt *u)
{
    if (g->r <= 0 || g->n > DOMINO_GROUP_PIPS)
        return 0;
    float base;
    if (g->n == 2 || g->n == 3) {
        /* the diagonal, 52 (two) or 47 (three) degrees off across the card */
        int far = g->n - 1;
        float dx = g->px[far] - g->px[0], dy = g->py[far] - g->py[0];
        if (hypotf(dx, dy) < 0.3f * wid)
            return 0;
        float diag = atan2f(dy, dx), off = (g->n == 2 ? 38.2f : 43.0f) * (float)M_PI / 180;
        u[0] = (ts_pt){cosf(diag + off), sinf(diag + off)};
        u[1] = (ts_pt){cosf(diag - off), sinf(diag - off)};
        u[2] = (ts_pt){-u[0].x, -u[0].y};
        u[3] = (ts_pt){-u[1].x, -u[1].y};
        return 4;
    }
    if (g->n != 4 && g->n != 6)
        return 0;
    /* rows and columns: the neighbours' way, modulo a quarter turn; the
     * neighbours by the group's own spacing (a four's sides, a six's
     * rows), not the card's width where it lies: that is the table
     * view's guess, and a four's sides (0.41 of a width) passed for no
     * neighbours where the guess was 10% short (123015) */
    float sc = 0, ss = 0, near = fminf(1.2f * pip_spacing(g), 0.55f * wid);
    for (int i = 0; i < g->n; i++)
        for (int j = i + 1; j < g->n; j++) {
            float dx = g->px[j] - g->px[i], dy = g->py[j] - g->py[i];
            if (hypotf(dx, dy) > near)
                continue;
            float a = 4 * atan2f(dy, dx);
            sc += cosf(a);
            ss += sinf(a);
        }
    if (hypotf(sc, ss) < 2)
        return 0;
    base = atan2f(ss, sc) / 4;
    for (int k = 0; k < 4; k++)
        u[k] = (ts_pt){cosf(base + k * (float)M_PI / 2), sinf(base + k * (float)M_PI / 2)};
    return 4;
}

/* The size of a card lying with an end's group at c (the table's view
 * there, the way guessed across the frame). */
static void size_at_group(const pile *p, ts_pt c, float *len, float *wid)
{
    ts_quad q;
    card_on_ends(c, (ts_pt){c.x + 1, c.y}, 82.0f / 54, 26.0f / 54, &q);
    card_size_at(&p->view, q.q, len, wid);
}

/* The card whose end's group lies at c and that runs from it along unit
 * u, of the size the table's view gives there, into q; its length and
 * width into len, wid. */
static void card_from_end(const pile *p, ts_pt c, ts_pt u, float *len, float *wid, ts_quad *q)
{
    size_at_group(p, c, len, wid);
    ts_pt o = {c.x + u.x * *len * 54 / 82, c.y + u.y * *len * 54 / 82};
    card_on_ends(c, o, *len, *wid, q);
    card_size_at(&p->view, q->q, len, wid);
    o = (ts_pt){c.x + u.x * *len * 54 / 82, c.y + u.y * *len * 54 / 82};
    card_on_ends(c, o, *len, *wid, q);
}

/* The card of pip group g seen whole on no card known, each way u[0..nw)
 * it may lie (from this end toward the other), of the size the table's
 * view gives there, with pip off (if any) off it, read from what shows
 * (take_offered: its outline must show); the first read is known from
 * then on and added as cand[n]. *reads counts the reads (at most
 * MAX_PAIRS). Returns 1 if a card was added, 0, or -1 with err. */
static int card_from_group(domino_reader *d, const ts_image *frame, const domino_group *g,
                           const ts_pt *u, int nw, const ts_pt *off, ts_quad *cand, int n,
                           pile *p, int *reads, char *err)
{
    ts_pt c = {g->cx, g->cy};
    for (int k = 0; k < nw && *reads < MAX_PAIRS; k++) {
        float len, wid;
        ts_quad q;
        card_from_end(p, c, u[k], &len, &wid, &q);
        snap_far_end(frame, &q, c, len);
        if (!group_in_square(g, u[k].x, u[k].y, wid) ||
            same_card(&q, p->known, p->nknown, 0.2f) || offered(&q, cand, n, 0.1f * wid) ||
            (off && ts_point_in_quad(q.q, off->x, off->y)))
            continue;
        int got = take_offered(d, frame, &q, p, reads, err);
        if (got < 0)
            return -1;
        if (!got)
            continue;
        cand[n] = q;
        return 1;
    }
    return 0;
}

/* Whether point x lies on one of the quads q[0..n). */
static int on_any(const ts_quad *q, int n, ts_pt x)
{
    for (int k = 0; k < n; k++)
        if (ts_point_in_quad(q[k].q, x.x, x.y))
            return 1;
    return 0;
}

/* The share of card q's outline about its end e (that end and each long
 * side's first two fifths: 17 points) that shows as its edge: q's paper 3
 * px in, a darker edge or line within 3 px out (the table, or the rim and
 * shadow of the card over another); points whose outside lies on one of
 * the cards known near it, near[0..nn), are not judged (it hides the
 * outline there). 0 if fewer than 10 are judged, or as soon as too many
 * fail for the share to reach need. */
static float end_outline(const ts_image *frame, const ts_quad *q, int e, const ts_quad *near,
                         int nn, float need)
{
    float paper = paper_near(frame, q, e);
    if (paper < 40)
        return 0;
    const ts_pt *c = q->q;
    ts_pt ctr = ts_quad_centre(c);
    ts_pt side[3][2] = {{c[e ? 3 : 0], c[e ? 2 : 1]}, {c[e ? 3 : 0], c[e ? 0 : 3]},
                        {c[e ? 2 : 1], c[e ? 1 : 2]}};
    int n = 0, shown = 0;
    for (int k = 0; k < 3; k++) {
        ts_pt o = ts_outward(side[k][0], side[k][1], ctr);
        for (int i = 0; i < (k ? 6 : 5); i++) {
            float t = k ? 0.05f + 0.07f * i : 0.2f + 0.15f * i;
            ts_pt s = ts_toward(side[k][0], side[k][1], t);
            int gin = green_at(frame, (ts_pt){s.x - 3 * o.x, s.y - 3 * o.y});
            if (gin < 0 || on_any(near, nn, (ts_pt){s.x + 3 * o.x, s.y + 3 * o.y}))
                continue;
            n++;
            int edge = 0;
            for (int dd = 0; dd <= 3 && !edge && gin >= 0.85f * paper; dd++) {
                int g = green_at(frame, (ts_pt){s.x + dd * o.x, s.y + dd * o.y});
                edge = g >= 0 && g < 0.8f * paper;
            }
            shown += edge;
            if (17 - (n - shown) < need * 17) /* shown / n can no longer reach need */
                return 0;
        }
    }
    return n >= 10 ? (float)shown / n : 0;
}

/* The way a card whose end's group lies at c runs (unit, toward its other
 * end), from the outline about that end (end_outline), every 5 degrees:
 * 1 with the best into u if 65% of it shows, else 0. A one's disc or a
 * five's clover gives no way by its pips, nor does a group cut. */
static int way_from_outline(const ts_image *frame, ts_pt c, const pile *p, ts_pt *u)
{
    /* the cards known that may lie over its outline there: within a
     * card's length and a half */
    ts_quad near[MAX_KNOWN];
    int nn = 0;
    float len, wid;
    size_at_group(p, c, &len, &wid);
    for (int k = 0; k < p->nknown; k++)
        if (ts_dist(ts_quad_centre(p->known[k].q), c) < 1.5f * len)
            near[nn++] = p->known[k];
    float best = 0.65f;
    int got = 0;
    for (int k = 0; k < 72; k++) {
        float a = k * 5 * (float)M_PI / 180;
        ts_pt w = {cosf(a), sinf(a)};
        ts_quad q;
        card_from_end(p, c, w, &len, &wid, &q);
        int e = ts_dist(ts_mid(q.q[0], q.q[1]), c) > ts_dist(ts_mid(q.q[2], q.q[3]), c);
        float sc = end_outline(frame, &q, e, near, nn, best);
        if (sc >= best) {
            best = sc;
            *u = w;
            got = 1;
        }
    }
    return got;
}

/* Group g less its pip k (its mean moved to the rest). */
static void group_without(const domino_group *g, int k, domino_group *out)
{
    *out = *g;
    out->n = 0;
    out->cx = out->cy = 0;
    for (int i = 0; i < g->n; i++) {
        if (i == k)
            continue;
        out->px[out->n] = g->px[i];
        out->py[out->n] = g->py[i];
        out->cx += g->px[i];
        out->cy += g->py[i];
        out->n++;
    }
    out->cx /= (float)out->n;
    out->cy /= (float)out->n;
}

/* Pile cards no candidate found, from one group of their pips seen whole
 * on no card known (card_from_group); a group none of whose ways reads
 * may hold a pip of a card lying beside (pips join within 5.5 radii, a
 * two's diagonal is 4.5): then it is tried less each of its pips in turn,
 * that pip off the card. Each card read is added after the n candidates
 * (out has room for max). At most MAX_PAIRS reads; then the groups still
 * on no card known the way the card's outline about them shows
 * (way_from_outline: a one's disc, a five's clover, a group cut), at most
 * MAX_PAIRS reads more. Returns the count now, or -1 with err. */
static int group_cards(domino_reader *d, const ts_image *frame, ts_quad *cand, int n, int max,
                       pile *p, char *err)
{
    domino_group g[MAX_GROUPS];
    int ng = domino_groups_off(d->cards, p->known, p->nknown, g, MAX_GROUPS), reads = 0;
    for (int a = 0; a < ng && reads < MAX_PAIRS && n < max && p->nknown < MAX_KNOWN; a++) {
        ts_pt u[4], c = {g[a].cx, g[a].cy};
        float len, wid;
        size_at_group(p, c, &len, &wid);
        int nw = ways_from_group(&g[a], wid, u);
        int got = card_from_group(d, frame, &g[a], u, nw, NULL, cand, n, p, &reads, err);
        int parts = g[a].n >= 3 && g[a].n <= DOMINO_GROUP_PIPS ? g[a].n : 0;
        for (int k = 0; k < parts && !got && reads < MAX_PAIRS; k++) {
            domino_group less;
            group_without(&g[a], k, &less);
            ts_pt pip = {g[a].px[k], g[a].py[k]};
            nw = ways_from_group(&less, wid, u);
            got = card_from_group(d, frame, &less, u, nw, &pip, cand, n, p, &reads, err);
        }
        if (got < 0)
            return -1;
        n += got;
    }
    reads = 0;
    for (int a = 0; a < ng && reads < MAX_PAIRS && n < max && p->nknown < MAX_KNOWN; a++) {
        ts_pt u, c = {g[a].cx, g[a].cy};
        if (g[a].n > 6 || on_any(p->known, p->nknown, c))
            continue;
        int nw = way_from_outline(frame, c, p, &u);
        int got = card_from_group(d, frame, &g[a], &u, nw, NULL, cand, n, p, &reads, err);
        if (got < 0)
            return -1;
        n += got;
    }
    return n;
}

/* Cards of a pile partly under other cards (p: its tops, find_tops):
 * each candidate of the tops' width that is no card known is read
 * (pile_candidate), only when exactly one card of the deck fits what
 * shows; then the pips on no card known are looked at again with the
 * known cards' outlines as edges (domino_find_under), and each card read
 * so is added after the n candidates (out has room for max), then the
 * cards offered from two pip groups (pair_cards; those from one group
 * come after the cards beside the known: group_cards). Returns the count
 * now, or -1 with err. */
static int covered_cards(domino_reader *d, const ts_image *frame, ts_quad *cand, int n, int max,
                         pile *p, char *err)
{
    if (p->ntops < 2)
        return n;
    pile_view(p);
    pile_others(cand, n, p);
    int tried = 0;
    for (int i = 0; i < n && tried < MAX_COVERED; i++)
        if (pile_candidate(d, frame, &cand[i], p, &tried, err) < 0)
            return -1;
    ts_quad under[MAX_UNDER];
    int nu = domino_find_under(d->cards, p->known, p->nknown, under, MAX_UNDER);
    for (int i = 0; i < nu && tried < MAX_COVERED && n < max; i++) {
        int got = pile_candidate(d, frame, &under[i], p, &tried, err);
        if (got < 0)
            return -1;
        if (got)
            cand[n++] = under[i];
    }
    return pair_cards(d, frame, cand, n, max, p, err);
}

/* Reads quad q of frame into *r and keeps the reading for read_found.
 * Returns 0, or -1 with err. */
static int read_and_keep(domino_reader *d, const ts_image *frame, const ts_quad *q, ts_reading *r,
                         char *err)
{
    if (tscv_warp_quad(frame, q->q, &d->work, DOMINO_CARD_W, DOMINO_CARD_H, err) < 0 ||
        domino_read(d, &d->work, r, err) < 0)
        return -1;
    keep_found(d, q->q, r, 0);
    return 0;
}

/* Whether quad q reads as a card of both ends sure (as a top), its
 * reading kept for read_found. Returns 1, 0, or -1 with err. */
static int reads_sure(domino_reader *d, const ts_image *frame, const ts_quad *q, char *err)
{
    ts_reading r;
    if (read_and_keep(d, frame, q, &r, err) < 0)
        return -1;
    return r.is_card && r.attr_conf[0] >= 0.9f && r.attr_conf[1] >= 0.9f;
}

/* Whether q overlaps a card of p known. */
static int on_known(const pile *p, const ts_quad *q)
{
    for (int t = 0; t < p->nknown; t++)
        if (ts_quad_overlap(&p->known[t], q))
            return 1;
    return 0;
}

/* The candidates cand[0..n) not found whole that read sure, known too
 * (the pipeline reads them anyway: their readings are kept), at most
 * MAX_BESIDE reads. Returns 0, or -1 with err. */
static int known_from_cands(domino_reader *d, const ts_image *frame, const ts_quad *cand, int n,
                            pile *p, char *err)
{
    for (int i = 0, reads = 0; i < n && reads < MAX_BESIDE && p->nknown < MAX_KNOWN; i++) {
        if (domino_found_whole(d->cards, i) || on_known(p, &cand[i]))
            continue;
        reads++;
        int got = reads_sure(d, frame, &cand[i], err);
        if (got < 0)
            return -1;
        if (got)
            p->known[p->nknown++] = cand[i];
    }
    return 0;
}

/* Cards laid edge to edge with the cards known (a touching row or block
 * whose seams the camera barely shows): looked for beside them
 * (domino_find_beside), each read sure (as a top) known from then on, so
 * the next round finds the card beyond it; added after the n candidates
 * (out has room for max), at most MAX_BESIDE reads a frame. Where there is
 * something to look at, the other candidates read sure are known first.
 * Returns the count now, or -1 with err. */
static int beside_cards(domino_reader *d, const ts_image *frame, ts_quad *cand, int n, int max,
                        pile *p, char *err)
{
    ts_quad tried[MAX_BESIDE];
    int reads = 0, added = 1, seeded = 0;
    while (added && p->nknown >= 2 && reads < MAX_BESIDE) {
        ts_quad near[MAX_UNDER];
        int nb = domino_find_beside(d->cards, frame, p->known, p->nknown, tried, reads, near,
                                    MAX_UNDER);
        if (nb && !seeded) {
            seeded = 1;
            int k0 = p->nknown;
            if (known_from_cands(d, frame, cand, n, p, err) < 0)
                return -1;
            if (p->nknown > k0)
                nb = domino_find_beside(d->cards, frame, p->known, p->nknown, tried, reads, near,
                                        MAX_UNDER);
        }
        added = 0;
        for (int i = 0; i < nb && reads < MAX_BESIDE && n < max && p->nknown < MAX_KNOWN; i++) {
            if (on_known(p, &near[i]))
                continue;
            tried[reads++] = near[i];
            int got = reads_sure(d, frame, &near[i], err);
            if (got < 0)
                return -1;
            if (!got)
                continue;
            p->known[p->nknown++] = near[i];
            cand[n++] = near[i];
            added++;
        }
    }
    return n;
}

/* The reading find() kept for quad q (the same floats), if q is one. */
static int found_reading(const domino_reader *d, const ts_pt q[4], ts_reading *out)
{
    int i = found_index(d, q);
    if (i == d->nfound)
        return 0;
    *out = d->found[i].r;
    return 1;
}

/* Whether find() kept a reading of quad q read as a covered card. */
static int found_covered(const domino_reader *d, const ts_pt q[4])
{
    int i = found_index(d, q);
    return i < d->nfound && d->found[i].covered;
}

/* q's reading (kept, or read now and kept: *reads counts those). Returns
 * 1 if it is a card read at or above the floor, 0, or -1 with err. */
static int sure_reading(domino_reader *d, const ts_image *frame, const ts_quad *q,
                        ts_reading *r, int *reads, char *err)
{
    if (!found_reading(d, q->q, r)) {
        if (*reads >= MAX_CLEAR)
            return 0;
        ++*reads;
        if (read_and_keep(d, frame, q, r, err) < 0)
            return -1;
    }
    return r->is_card && r->conf >= ts_domino_reader_class.conf_floor;
}

/* Whether a's middle lies under b while b's does not lie under a: a is a
 * card partly under b, not b seen again. */
static int middle_under(const ts_quad *a, const ts_quad *b)
{
    ts_pt ca = ts_quad_centre(a->q), cb = ts_quad_centre(b->q);
    return ts_point_in_quad(b->q, ca.x, ca.y) && !ts_point_in_quad(a->q, cb.x, cb.y);
}

/* Whether out[a] is a card partly under out[b] that the pipeline would
 * take for b (ts_quad_overlap): a's middle under b, or a read as covered
 * (its reading from the part that shows) lying across b or under b's
 * middle, not b seen again. */
static int partly_under(const domino_reader *d, const ts_quad *a, const ts_quad *b)
{
    if (middle_under(a, b))
        return 1;
    return ts_quad_overlap(a, b) && found_covered(d, a->q) && !same_card(a, b, 1, 0.2f);
}

/* Whether the middle of cut (its centre and four points a quarter of its
 * width and a tenth of its length about it) lies on none of out[0..n)
 * but out[a] read sure (a reading kept), and none of their middles on the
 * cut: the cut of a shows there, no other card seen again, with room for
 * a quad a little off. */
static int clear_of_sure(const domino_reader *d, const ts_quad *out, int n, int a,
                         const ts_quad *cut)
{
    static const float U[5] = {0.5f, 0.25f, 0.75f, 0.25f, 0.75f},
                       V[5] = {0.5f, 0.4f, 0.4f, 0.6f, 0.6f};
    for (int k = 0; k < n; k++) {
        ts_reading r;
        int on = 0;
        for (int s = 0; s < 5 && !on && k != a; s++) {
            ts_pt c = ts_quad_point(cut->q, U[s], V[s]);
            on = ts_point_in_quad(out[k].q, c.x, c.y);
        }
        /* nor a sure card's middle on the cut: the pipeline would take
         * one for the other */
        ts_pt m = ts_quad_centre(out[k].q);
        on = on || (k != a && ts_point_in_quad(cut->q, m.x, m.y));
        if (on && found_reading(d, out[k].q, &r) && r.is_card &&
            r.conf >= ts_domino_reader_class.conf_floor)
            return 0;
    }
    return 1;
}

/* Card out[a] cut to an end that shows from under out[b] (the one that
 * keeps more when both show), at the longest length down to a third of
 * the card (its end's square and a little: the reading is kept, the cut
 * only holds its place) whose middle lies on no card read sure
 * (clear_of_sure). Returns 1 with cut, or 0. */
static int cut_clear(const domino_reader *d, const ts_quad *out, int n, int a, int b,
                     ts_quad *cut)
{
    float len = card_len(out[a].q);
    for (float t = 0.95f; t >= 0.34f; t -= 0.05f) /* 0.95 .. 0.35 */
        for (int e = 0; e < 2; e++) {
            ts_pt end = ts_quad_point(out[a].q, 0.5f, e ? 0.9f : 0.1f);
            if (ts_point_in_quad(out[b].q, end.x, end.y))
                continue;
            keep_end(&out[a], e, len * t, cut);
            if (clear_of_sure(d, out, n, a, cut))
                return 1;
        }
    return 0;
}

/* Two candidates read sure as two cards of a pile, one partly under the
 * other (partly_under): the pipeline takes only the first (ts_quad_overlap:
 * either's middle inside the other is the same card). The one partly under is cut
 * to its end that shows (cut_clear), its reading kept for the cut, so both
 * are taken; the same card found again is left whole (it lies on the
 * cut: not taken). At most MAX_CLEAR quads read and cut here. Returns 0,
 * or -1 with err. */
static int clear_middles(domino_reader *d, const ts_image *frame, ts_quad *out, int n, char *err)
{
    ts_quad was[MAX_CLEAR]; /* the cards cut, as found: one cut a card */
    int reads = 0, ncut = 0;
    for (int a = 0; a < n && ncut < MAX_CLEAR; a++)
        for (int b = 0; b < n; b++) {
            ts_reading ra, rb;
            ts_quad cut;
            int again = 0;
            for (int k = 0; k < ncut && !again; k++)
                again = ts_quad_overlap(&was[k], &out[a]);
            if (again)
                break;
            if (b == a || !partly_under(d, &out[a], &out[b]))
                continue;
            int sa = sure_reading(d, frame, &out[a], &ra, &reads, err);
            int sb = sa > 0 ? sure_reading(d, frame, &out[b], &rb, &reads, err) : sa;
            if (sa < 0 || sb < 0)
                return -1;
            /* the cut needs its reading kept: read afresh, half a card may read wrong */
            if (sa && sb && ra.code.idx != rb.code.idx && d->nfound < MAX_FOUND &&
                cut_clear(d, out, n, a, b, &cut)) {
                was[ncut++] = out[a];
                out[a] = cut;
                keep_found(d, cut.q, &ra, 0);
                break;
            }
        }
    return 0;
}

/* How quad q reads (its kept reading, or read now and kept: *reads counts
 * those, at most MAX_CLEAR): no card, a card under the floor, one at or
 * above it, or not known (no reads left). Returns -1 with err. */
enum { READS_NO_CARD, READS_UNSURE, READS_SURE, READS_UNKNOWN };

static int reads_as(domino_reader *d, const ts_image *frame, const ts_quad *q, int *reads,
                    char *err)
{
    ts_reading r;
    if (!found_reading(d, q->q, &r) && *reads >= MAX_CLEAR)
        return READS_UNKNOWN;
    int sure = sure_reading(d, frame, q, &r, reads, err);
    if (sure < 0)
        return -1;
    return sure ? READS_SURE : r.is_card ? READS_UNSURE : READS_NO_CARD;
}

/* Each card of out[0..n) read sure after candidates read as cards under
 * the floor that the pipeline would take for it (ts_quad_overlap: a quad
 * of the same card a little off, or of a card it lies across): the
 * pipeline takes the first, unread, and drops the sure one. It is moved
 * before the first of them, unless a candidate between that reads sure (or
 * is not read: no reads left) lies there too. At most MAX_CLEAR reads.
 * Returns 0, or -1 with err. */
static int sure_before_unsure(domino_reader *d, const ts_image *frame, ts_quad *out, int n,
                              char *err)
{
    int reads = 0;
    for (int i = 1; i < n; i++) {
        ts_reading r;
        if (!found_reading(d, out[i].q, &r) || !r.is_card ||
            r.conf < ts_domino_reader_class.conf_floor)
            continue;
        int j = -1;
        for (int k = i - 1; k >= 0; k--) {
            if (!ts_quad_overlap(&out[k], &out[i]))
                continue;
            int as = reads_as(d, frame, &out[k], &reads, err);
            if (as < 0)
                return -1;
            if (as == READS_SURE || as == READS_UNKNOWN)
                break;
            if (as == READS_UNSURE)
                j = k;
        }
        if (j < 0)
            continue;
        ts_quad q = out[i];
        memmove(&out[j + 1], &out[j], (size_t)(i - j) * sizeof *out);
        out[j] = q;
    }
    return 0;
}

static int domino_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    domino_reader *d = reader;
    d->nfound = 0;
    if (d->tiles)
        return domino_find_tiles(d->tiles, frame, out, max, err);
    int n = domino_find_cards(d->cards, frame, out, max, err);
    if (n < 0)
        return n;
    pile p;
    if (find_tops(d, frame, out, n, &p, err) < 0)
        return -1;
    /* cards fanned under the cards found whole and read whole, read from
     * the strips that show, after every other candidate */
    int ns = domino_fan_strips(frame, p.fan, p.nfan, &d->work, d->strips, MAX_STRIPS, err);
    if (ns < 0)
        return -1;
    for (int i = 0; i < ns; i++)
        keep_found(d, d->strips[i].q.q, &d->strips[i].r, 0);
    n = covered_cards(d, frame, out, n, max, &p, err);
    if (n >= 0)
        n = beside_cards(d, frame, out, n, max, &p, err);
    /* a pile's cards from one group of pips last: a card beside the known
     * is read whole there, and the card beyond it found from it (124001) */
    if (n >= 0 && p.ntops >= 2)
        n = group_cards(d, frame, out, n, max, &p, err);
    if (n < 0)
        return -1;
    for (int i = 0; i < ns && n < max; i++)
        out[n++] = d->strips[i].q;
    if (clear_middles(d, frame, out, n, err) < 0)
        return -1;
    if (sure_before_unsure(d, frame, out, n, err) < 0)
        return -1;
    /* cards no ray found, from their two pip groups, after everything
     * (read as found: no pile's cover nor fan's chain is built on them) */
    return n + domino_find_paired(d->cards, out + n, max - n);
}

/* The reading of a quad find() read (the same floats), if q is one. */
static int domino_read_found(void *reader, const ts_pt q[4], ts_reading *out)
{
    return found_reading(reader, q, out);
}

const ts_reader_class ts_domino_reader_class = {
    .family = TS_FAM_DOMINO,
    .name = "domino",
    .profiles = domino_profiles,
    .min_aspect = 1.6f,
    .max_aspect = 3.9f,
    .card_w = DOMINO_CARD_W,
    .card_h = DOMINO_CARD_H,
    .conf_floor = 0.50f,
    .create = domino_create,
    .destroy = domino_destroy,
    .read = domino_read,
    .find = domino_find,
    .read_found = domino_read_found,
};
