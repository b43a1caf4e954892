/* The index's suit glyph measured by its outline (see playing_suit.h).
 *
 * The patch's ink (255 - the darkest channel, so red is ink too) is
 * enlarged four times (the glyph is some 14 px high on the reader's card:
 * enlarged, its outline is smooth enough to measure), cut at Otsu's level,
 * and its components labelled. The rank glyph is the topmost of the four
 * largest components that do not touch the patch's border; the suit glyph
 * the next one below it, roughly under it. */
#include <math.h>
#include <stdlib.h>

#include "cv/cvwrap.h"
#include "readers/playing_suit.h"

/* Enlargement, and the largest patch side it is done for (the reader's
 * patches are 31 x 56 and 43 x 40). */
enum { UP = 4, MAX_SIDE = 64, ROOM = MAX_SIDE * UP, BIG = 4 };
/* A component smaller than this share of the patch is noise. */
#define MIN_SHARE 0.004f
/* A suit glyph lower than this share of the patch's height is too small for
 * its outline to show: a rendered deck's 8 px spade (0.18-0.19 of the patch
 * once cut) has no visible stem and measures as a diamond; the phone
 * photos' deck's glyphs are 0.25-0.29. */
#define MIN_GLYPH_H 0.22f
/* Colour: a pixel whose channels differ by more than CHROMA is coloured; a
 * card with fewer than GREY_SHARE of them shows no colour. */
enum { CHROMA = 24 };
#define GREY_SHARE 0.01f
/* The verdicts (phone photos, cards read right at 128 x 180: diamonds'
 * asymmetry 0.01-0.16, spades' 0.06-0.5, clubs' 0.10-0.29, hearts'
 * 0.16-0.47; the grey diamonds the net read as spades 0.015-0.035). */
#define DIAMOND_AT_MOST 0.05f
#define NOT_DIAMOND_ABOVE 0.25f

/* A glyph-sized ink component (tscv_components' box, in pixels) and
 * whether it touches the patch's border. */
typedef struct {
    int x0, y0, x1, y1, area, edge;
} comp;

enum { MAX_COMPS = ROOM * ROOM / 16 };

struct ts_playing_suit {
    uint8_t ink[ROOM * ROOM], bin[ROOM * ROOM];
    int label[ROOM * ROOM];
    tscv_blob blobs[MAX_COMPS];
    comp comps[MAX_COMPS];
    int rows[ROOM];
};

/* The enlarged ink cut at Otsu's level and labelled (8-connected) into
 * s->label (1-based) and s->comps; returns the count, or -1. */
static int label_ink(ts_playing_suit *s, int W, int H)
{
    char err[TSCV_ERR_MAX];
    ts_image ink = {W, H, W, 1, s->ink}, bin = {W, H, W, 1, s->bin};
    if (tscv_otsu(&ink, &bin, NULL, err) < 0)
        return -1;
    int n = tscv_components(&bin, s->label, s->blobs, MAX_COMPS, err);
    for (int i = 0; i < n; i++) {
        const tscv_blob *b = &s->blobs[i];
        s->comps[i] = (comp){b->x, b->y, b->x + b->w - 1, b->y + b->h - 1, b->area,
                             b->x == 0 || b->y == 0 || b->x + b->w == W || b->y + b->h == H};
    }
    return n;
}

ts_playing_suit *ts_playing_suit_create(void)
{
    return malloc(sizeof(ts_playing_suit));
}

void ts_playing_suit_destroy(ts_playing_suit *s)
{
    free(s);
}

int ts_playing_card_grey(const ts_image *card)
{
    if (card->channels != 3)
        return 1;
    long coloured = 0;
    const float enough = GREY_SHARE * (float)card->w * (float)card->h;
    for (int y = 0; y < card->h && coloured < enough; y++) { /* a coloured card stops early */
        const uint8_t *p = ts_image_row(card, y);
        for (int x = 0; x < card->w; x++, p += 3) {
            int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
            mx = p[2] > mx ? p[2] : mx;
            mn = p[2] < mn ? p[2] : mn;
            coloured += mx - mn > CHROMA;
        }
    }
    return coloured < enough;
}

static uint8_t ink_at(const ts_image *p, int x, int y)
{
    const uint8_t *q = ts_image_row(p, y) + (size_t)x * p->channels;
    uint8_t m = q[0];
    for (int c = 1; c < p->channels; c++)
        m = q[c] < m ? q[c] : m;
    return (uint8_t)(255 - m);
}

/* s->ink = the patch's ink enlarged UP times (bilinear, pixel centres). */
static void enlarge(ts_playing_suit *s, const ts_image *p, int W, int H)
{
    for (int Y = 0; Y < H; Y++) {
        float fy = (Y + 0.5f) / UP - 0.5f;
        fy = fy < 0 ? 0 : fy > p->h - 1 ? (float)(p->h - 1) : fy;
        int y0 = (int)fy, y1 = y0 + 1 < p->h ? y0 + 1 : y0;
        float ay = fy - (float)y0;
        for (int X = 0; X < W; X++) {
            float fx = (X + 0.5f) / UP - 0.5f;
            fx = fx < 0 ? 0 : fx > p->w - 1 ? (float)(p->w - 1) : fx;
            int x0 = (int)fx, x1 = x0 + 1 < p->w ? x0 + 1 : x0;
            float ax = fx - (float)x0;
            float top = (1 - ax) * ink_at(p, x0, y0) + ax * ink_at(p, x1, y0);
            float bot = (1 - ax) * ink_at(p, x0, y1) + ax * ink_at(p, x1, y1);
            s->ink[Y * W + X] = (uint8_t)lroundf((1 - ay) * top + ay * bot);
        }
    }
}

float ts_playing_suit_asym(ts_playing_suit *s, const ts_image *patch)
{
    if (patch->w > MAX_SIDE || patch->h > MAX_SIDE || patch->w < 2 || patch->h < 2)
        return -1;
    int W = patch->w * UP, H = patch->h * UP;
    enlarge(s, patch, W, H);
    int n = label_ink(s, W, H);
    /* the BIG largest glyph-sized components off the border, top first */
    int big[BIG], nb = 0;
    for (int i = 0; i < n; i++) {
        const comp *c = &s->comps[i];
        if (c->edge || c->area < MIN_SHARE * (float)(W * H))
            continue;
        int k;
        if (nb < BIG)
            k = nb++;
        else if (s->comps[big[BIG - 1]].area < c->area)
            k = BIG - 1;
        else
            continue;
        big[k] = i;
        for (; k > 0 && s->comps[big[k - 1]].area < s->comps[big[k]].area; k--) {
            int t = big[k];
            big[k] = big[k - 1], big[k - 1] = t;
        }
    }
    if (nb < 2)
        return -1;
    for (int a = 1; a < nb; a++)
        for (int b = a; b > 0 && s->comps[big[b - 1]].y0 > s->comps[big[b]].y0; b--) {
            int t = big[b];
            big[b] = big[b - 1], big[b - 1] = t;
        }
    const comp *rank = &s->comps[big[0]];
    int rw = rank->x1 - rank->x0 + 1, rh = rank->y1 - rank->y0 + 1;
    float rcx = 0.5f * (float)(rank->x0 + rank->x1);
    int suit = -1;
    for (int k = 1; k < nb && suit < 0; k++) {
        const comp *c = &s->comps[big[k]];
        int cw = c->x1 - c->x0 + 1;
        if (fabsf(0.5f * (float)(c->x0 + c->x1) - rcx) < (float)(rw > cw ? rw : cw) &&
            (float)c->y0 >= (float)rank->y0 + 0.6f * (float)rh)
            suit = big[k];
    }
    if (suit < 0)
        return -1;
    const comp *c = &s->comps[suit];
    int h = c->y1 - c->y0 + 1, widest = 0;
    if (h < MIN_GLYPH_H * (float)H)
        return -1;
    for (int y = 0; y < h; y++) {
        const int *l = s->label + (c->y0 + y) * W;
        int w = 0;
        for (int x = c->x0; x <= c->x1; x++)
            w += l[x] == suit + 1;
        s->rows[y] = w;
        widest = w > widest ? w : widest;
    }
    double diff = 0;
    for (int y = 0; y < h; y++)
        diff += abs(s->rows[y] - s->rows[h - 1 - y]);
    return (float)(diff / h / widest);
}

int ts_playing_suit_contradicts(int suit, float asym)
{
    if (asym < 0)
        return 0;
    return suit == TS_PLAYING_SUIT_D ? asym > NOT_DIAMOND_ABOVE : asym <= DIAMOND_AT_MOST;
}
