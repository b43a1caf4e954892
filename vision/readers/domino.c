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

#include "reader.h"
#include "readers/domino_cards.h"
#include "readers/domino_find.h"
#include "readers/domino_pips.h"
#include "readers/domino_strips.h"
#include "readers/readers.h"

enum { MAX_STRIPS = 32, MAX_TOPS = 24 };

typedef struct {
    domino_style style;
    domino_finder *tiles;      /* double-six */
    domino_card_finder *cards; /* chinese */
    domino_strip strips[MAX_STRIPS]; /* fanned cards the last find read */
    int nstrips;
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

static int domino_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    domino_reader *d = reader;
    d->nstrips = 0;
    if (d->tiles)
        return domino_find_tiles(d->tiles, frame, out, max, err);
    int n = domino_find_cards(d->cards, frame, out, max, err);
    if (n < 0)
        return n;
    /* cards fanned under the cards found whole, read from the strips
     * that show, after every other candidate */
    ts_quad tops[MAX_TOPS];
    int nt = 0;
    for (int i = 0; i < n && nt < MAX_TOPS; i++)
        if (domino_found_whole(d->cards, i))
            tops[nt++] = out[i];
    int ns = domino_fan_strips(frame, tops, nt, &d->work, d->strips, MAX_STRIPS, err);
    if (ns < 0)
        return -1;
    for (int i = 0; i < ns && n < max; i++)
        out[n++] = d->strips[i].q;
    d->nstrips = ns;
    return n;
}

/* The reading of a strip find() read (the same floats), if q is one. */
static int domino_read_found(void *reader, const ts_pt q[4], ts_reading *out)
{
    domino_reader *d = reader;
    for (int i = 0; i < d->nstrips; i++)
        if (memcmp(d->strips[i].q.q, q, sizeof d->strips[i].q.q) == 0) {
            *out = d->strips[i].r;
            return 1;
        }
    return 0;
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
