/* Dominoes behind the reader interface: the pips of each end, "low:high".
 *
 * Profiles: "chinese" (default; the 84-card deck of Sap Ng Wu: long narrow
 * cards, 1-6 pips an end, ones and fours red, half of 6:6 red, the Hong Kong
 * five as one blob) and "double-six" (western tiles, 0-6 black pips an end).
 * domino_pips.c counts the pips; Chinese cards are found by their waist
 * (domino_cards.c), western tiles by their middle bar (domino_find.c): both
 * lie edge to edge in rows and overlap, where a white-blob detector merges
 * them.
 *
 * A card whose end does not show (covered in a fanned hand, cut off) still
 * reads as a card: the end that shows is in attr_conf, the other end gets
 * conf 0 and its pips are a guess, so the whole reading falls under the floor
 * and the card is reported unread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "readers/domino_cards.h"
#include "readers/domino_find.h"
#include "readers/domino_pips.h"
#include "readers/readers.h"

typedef struct {
    domino_style style;
    domino_finder *tiles;      /* double-six */
    domino_card_finder *cards; /* chinese */
    ts_detector *blobs;        /* chinese, cards too small to show their waist */
} domino_reader;

static const char *const domino_profiles[] = {"chinese", "double-six", NULL};

/* Chinese cards: long side / short side 82 / 26 = 3.15; seen at a slant, a
 * little either way. */
static const float CHINESE_MIN_ASPECT = 2.6f, CHINESE_MAX_ASPECT = 3.8f;

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
        ts_detect_params p;
        ts_detect_defaults(&p);
        p.min_aspect = CHINESE_MIN_ASPECT;
        p.max_aspect = CHINESE_MAX_ASPECT;
        p.min_area = 0.0005f;
        d->blobs = ts_detector_create(&p);
        if (!d->blobs) {
            domino_card_finder_destroy(d->cards);
            ts_detector_destroy(d->blobs);
            d->cards = NULL;
        }
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
    ts_detector_destroy(d->blobs);
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
        if (off)
            fit *= off == 1 && n >= 4 ? 0.4f : 0.1f;
    }
    return fit;
}

static int domino_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    domino_reader *d = reader;
    (void)err;
    memset(out, 0, sizeof *out);
    domino_pips p;
    domino_read_pips(d->style, card, &p);
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
    if (d->style == DOMINO_CHINESE && p.colour_ok)
        out->conf *= chinese_colour_fit(p.end);
    return 0;
}

static int domino_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    domino_reader *d = reader;
    if (d->tiles)
        return domino_find_tiles(d->tiles, frame, out, max, err);
    /* the waists first; then light blobs of a card's shape, for cards too
     * small (far from the camera) for their waist to be seen */
    int n = domino_find_cards(d->cards, frame, out, max, err);
    if (n < 0 || n >= max || frame->w < 64 || frame->h < 64) /* ts_detect needs some room */
        return n;
    int m = ts_detect(d->blobs, frame, out + n, max - n, err);
    return m < 0 ? -1 : n + m;
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
};
