/* Gang of Four behind the reader interface: number and colour from the
 * whole card and its two corner indices (see gof.h), through two small
 * trained nets. */
#include "readers/gof.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdnn.h"
#include "readers/gof_edges.h"
#include "readers/gof_find.h"
#include "readers/place_pick.h"
#include "datadir.h"
#include "geom.h"
#include "reader.h"
#include "readers/readers.h"


/* ---- Geometry and labels (shared with the training tool) ------------------ */

void ts_gof_corners(const ts_image *card, ts_image patch[2])
{
    for (int y = 0; y < TS_GOF_PATCH_H; y++) {
        const uint8_t *tl = ts_image_row(card, y);
        const uint8_t *br = ts_image_row(card, card->h - 1 - y);
        uint8_t *a = ts_image_row(&patch[0], y), *b = ts_image_row(&patch[1], y);
        memcpy(a, tl, 3 * TS_GOF_PATCH_W);
        for (int x = 0; x < TS_GOF_PATCH_W; x++)
            memcpy(b + 3 * x, br + 3 * (card->w - 1 - x), 3);
    }
}

int ts_gof_labels(int idx, int *num, int *col)
{
    if (idx >= 0 && idx < 30) {
        *num = idx % 10;
        *col = idx / 10;
        return 0;
    }
    switch (idx) {
    case 60: *num = 0, *col = TS_GOF_COL_MULTI; return 0;
    case 61: *num = TS_GOF_NUM_PHOENIX, *col = 0; return 0;
    case 62: *num = TS_GOF_NUM_PHOENIX, *col = 1; return 0;
    case 63: *num = TS_GOF_NUM_DRAGON, *col = 2; return 0;
    default: return -1;
    }
}

/* ---- The reader ------------------------------------------------------------ */

enum { NCODES = 34 }; /* 30 numbers + 4 specials */

/* A reading below this is no card at all: the quad lies off the card (a
 * block of cards, a cell of a wrong split), so the place is left to the
 * next candidate rather than taken by an unread card. */
static const float NOT_A_CARD = 0.5f;

/* A place whose first candidate reads below this goes to the surest of the
 * candidates overlapping it: the finder offers several quads around a card
 * (binarisations, splits of a block, its indices), and the first in order
 * is not always the one on the card's edges. */
static const float RERANK_SURE = 0.97f;

/* A view (the card net, a corner) whose own best card is this many times
 * likelier than the combined reading dissents: the reading is capped at
 * DISSENT_CONF (a card, below the floor). Chosen on seeds 20000-20019 (six
 * layouts, 1093 fully visible cards): at 0.003 confident wrong 4 -> 2 for 3
 * fewer read; at 0.1, 4 -> 1 for 15 fewer. */
static const double DISSENT = 0.003;
static const float DISSENT_CONF = 0.6f;
/* A 6 and a 9 are one numeral turned: the card net tells them by the layout
 * of the indices and the index net by the numeral over its symbol, and a
 * small or blurred card fools one of them. The product then follows the
 * surer, which was the wrong one as often as not (seeds 32000-32019: the
 * card net sure of a 6 at 0.72-0.81, both corners of a 9 at 0.27-0.69, read
 * a 9 at 0.94-0.99), so a 6 or 9 that a view takes for its twin at half
 * the odds of its own best is unread, except when that view is one corner
 * and the card net and the other corner hold the reading first: a small
 * yellow or red 6 or 9 (53-88 px wide) has one index the net reads either
 * way up (a Y9's turned corner read Y6 at 0.44-0.77, the card net Y9 at
 * 0.85-0.94 and the upright corner Y9 at 0.41-0.82). Seeds 105000-105039 (six layouts): fully
 * visible 2081 -> 2087 of 2176, at least half 2248 -> 2254 of 2393, wrong
 * 5/6 as before; 107000-107039 2048 -> 2049 of 2155, wrong 6/8 as before.
 * Letting two corners outvote the card net as well took a sure wrong R9
 * on 107018 (its quad a quarter card off: both corners on the R9 beside). */
static const double TWIN_DISSENT = 0.5;
/* An 8 the corners take for a 6, 9 or 3 (their numerals of 5-8 px merge
 * with the symbol) is read when the card net, which sees the big numeral,
 * is this sure of it: on seeds 65000-65039, 8 more of 2152 fully visible
 * cards read, none more wrong (0.999: 5 more). */
static const double EIGHT_SURE = 0.995;
enum { NUM_THREE = 2, NUM_SIX = 5, NUM_EIGHT = 7, NUM_NINE = 8 }; /* number classes 0..9 are 1..10 */

static int is_loop(int num)
{
    return num == NUM_SIX || num == NUM_EIGHT || num == NUM_NINE;
}
/* A card whose corners show no index (both cut off or covered) is read by
 * the card net alone, which a quad over half a card or a shifted one
 * fools (half an 8 read as a 1 at 0.98): it must be this sure. */
static const float LONE_SURE = 0.99f;

/* A card read from its index view (gof_find.h: a card in a pile, whose
 * whole quad runs under other cards, so the card net sees them) has only
 * its corners to go by, and must be this sure. */
static const float VIEW_SURE = 0.995f;

/* A quad after an index view on the rest of the view's card is a card of
 * its own only when this sure (gof_find): on 21007, a quad from R2's corner
 * across to the Y1 beside it read R1 at 0.993. */
static const float CLAIM_SURE = 0.999f;

/* A quad whose opposite sides are further from parallel than this after
 * snapping (the sine of 8 degrees, ts_gof_skew; true cards on renders stay
 * within 6) has a corner on something else, a neighbour's corner joined to
 * its blob, and shears the card: 100001's grid G5 read G3 at 0.998 by the
 * card net and the upright corner, the turned corner holding the 5 at 0.79
 * (G3 0.17). Such a quad is unread, leaving the place to a surer quad, when
 * a corner that shows an index gives the reading under SKEW_SHARE of its
 * own best card (read_fresh's share). Skewed quads that read right are
 * common (snapping moves one side, not the opposite one): capping them all
 * lost 19 cards for 3. Seeds 100000-100039 (six layouts): wrong 6 -> 3 of
 * 2171 fully visible, read 2098 -> 2100; 87000-87039 the same readings
 * (2087 of 2162, wrong 4). At a share of 0.5 the same on 100000 but one
 * fewer on 87000, and the callgrind grid frame read one card twice (127.6
 * -> 135.4 M instructions: a right G3 whose turned corner saw a 9). */
static const float SKEW_MAX = 0.14f;
static const double SKEW_SHARE = 0.25;

enum { MAX_RANKED = 384 }; /* 256 outline candidates and the index cards (gof_find.c) */
/* room after the finder's candidates for the views of pile corners (offer_views) */
enum { MAX_VIEWS = 64, MAX_CAND = MAX_RANKED + MAX_VIEWS };

/* A snapped quad whose corners all lie within NONE_NEAR of its short side
 * of a quad this frame read as no card is taken for no card too, unread:
 * a pile's corners, found by several binarisations (the finder keeps quads
 * 4% apart), snap to the same few places, 1-4 px apart on a card 90 px
 * wide in the callgrind pile frame, which read one such place five times
 * and another three, each time no card, at about 3 M instructions a read.
 * Callgrind pile 209.93 -> 196.60 M (0.06: 200.00, 0.10: 193.21), grid
 * 127.75 M as before. Seeds (six layouts, 40 each), fully and at least
 * half visible read the same: 109000 2122/2173, 2283/2398, wrong 5/9;
 * 107000 2063/2155, 2246/2401, wrong 7/9 -> 6/8 (a Y6 read Y9 at 0.98 now
 * Y6 unsure); 87000 2102/2162, 2278/2401, wrong 4/4; false as before. */
static const float NONE_NEAR = 0.08f;

/* pair_at: how near an index pair must lie to a corner, in its short side,
 * and how well their sides must agree (a cosine) */
static const float PAIR_NEAR = 0.25f, PAIR_TURN = 0.8f;

typedef struct {
    tscv_net *net, *card_net;
    ts_gof_finder *finder;
    int code_idx[NCODES], code_num[NCODES], code_col[NCODES];
    ts_image patch[2];
    ts_image warp;                 /* a candidate warped by find() */
    ts_reading_memo memo;          /* the cards find() read in this frame */
    ts_quad ranked[MAX_CAND];      /* the finder's candidates, then offer_views' */
    ts_quad whole[MAX_CAND];       /* ... the cards they stand for (gof_find.h) */
    uint8_t snapped[MAX_CAND];     /* ... snapped to the card's edges yet */
    uint8_t none[MAX_CAND];        /* ... read as no card (read_candidate) */
    uint8_t sure[MAX_CAND];        /* ... read as a card at the floor or above */
    ts_quad none_at[MAX_RANKED];   /* the snapped quads read as no card (NONE_NEAR) */
    int nnone;
    unsigned char kind[MAX_CAND];  /* ... what each is (ts_gof_kind) */
    int nranked;
    const ts_image *frame;         /* during find(): the frame (borrowed) */
} gof_reader;

static void gof_destroy(void *reader)
{
    gof_reader *g = reader;
    if (!g)
        return;
    tscv_net_destroy(g->net);
    tscv_net_destroy(g->card_net);
    ts_gof_finder_destroy(g->finder);
    for (int k = 0; k < 2; k++)
        ts_image_free(&g->patch[k]);
    ts_image_free(&g->warp);
    free(g);
}

/* The model must be the one this reader was written for: its input is the
 * patch and its heads are the classes above, in this order. */
static int check_model(const tscv_net_info *in, int w, int h, char *err, size_t errlen)
{
    if (in->in_w != w || in->in_h != h || in->in_c != 3 ||
        in->noutputs != 2 || in->out[0].nclass != TS_GOF_NUM_CLASSES ||
        in->out[1].nclass != TS_GOF_COL_CLASSES || strcmp(in->out[0].name, "number") != 0 ||
        strcmp(in->out[1].name, "colour") != 0) {
        snprintf(err, errlen, "gof model: expected input %dx%dx3 and heads number(%d) colour(%d)",
                 w, h, TS_GOF_NUM_CLASSES, TS_GOF_COL_CLASSES);
        return -1;
    }
    return 0;
}

static void *gof_create(const ts_reader_config *cfg, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    const char *profile = cfg && cfg->profile ? cfg->profile : "dow";
    if (strcmp(profile, "dow") != 0) {
        snprintf(err, errlen, "gof: unknown profile '%s' (known: dow)", profile);
        return NULL;
    }
    gof_reader *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char path[1024];
    ts_model_path(cfg ? cfg->models_dir : NULL, "gof-index.tsnet", path, sizeof path);
    g->net = tscv_net_load(path, err, errlen);
    ts_model_path(cfg ? cfg->models_dir : NULL, "gof-card.tsnet", path, sizeof path);
    g->card_net = g->net ? tscv_net_load(path, err, errlen) : NULL;
    g->finder = ts_gof_finder_create(ts_gof_reader_class.min_aspect,
                                     ts_gof_reader_class.max_aspect);
    if (!g->net || !g->card_net || !g->finder ||
        check_model(tscv_net_get_info(g->net), TS_GOF_PATCH_W, TS_GOF_PATCH_H, err, errlen) < 0 ||
        check_model(tscv_net_get_info(g->card_net), TS_GOF_NET_W, TS_GOF_NET_H, err, errlen) < 0 ||
        ts_image_alloc(&g->patch[0], TS_GOF_PATCH_W, TS_GOF_PATCH_H, 3) < 0 ||
        ts_image_alloc(&g->patch[1], TS_GOF_PATCH_W, TS_GOF_PATCH_H, 3) < 0) {
        if (g->net && g->card_net && !err[0])
            snprintf(err, errlen, "out of memory");
        gof_destroy(g);
        return NULL;
    }
    int n = 0;
    for (int idx = 0; idx < 64; idx++)
        if (ts_gof_labels(idx, &g->code_num[n], &g->code_col[n]) == 0)
            g->code_idx[n++] = idx;
    return g;
}

/* Each corner that shows an index gives a posterior over the 34 cards (its
 * two heads, restricted to combinations that exist); the card is the product
 * of the corners that show one. A corner covered by another card or out of
 * view says "none" and is left out, so half a card still reads. Both corners
 * go through the net in one batched call (about a third dearer than the one
 * corner that used to do when sure): the second opinion is what keeps a quad
 * a little off (5 read as 8) below the floor. */
/* A posterior over the 34 cards from one net's two heads (restricted to the
 * combinations that exist) into q; returns how sure the net is that it sees
 * a card (1 - P(none)). */
static float posterior(const gof_reader *g, const float *num, double q[NCODES])
{
    const float *col = num + TS_GOF_NUM_CLASSES;
    double sum = 0;
    for (int i = 0; i < NCODES; i++)
        sum += q[i] = (double)num[g->code_num[i]] * col[g->code_col[i]];
    for (int i = 0; i < NCODES; i++)
        q[i] = sum > 0 ? q[i] / sum : 0;
    return 1 - num[TS_GOF_NUM_NONE];
}

/* The card a view's posterior p holds first. */
static int top_card(const double *p)
{
    int t = 0;
    for (int i = 0; i < NCODES; i++)
        t = p[i] > p[t] ? i : t;
    return t;
}

/* A 6 or 9 that no corner holds first may still be read when both corners
 * show an index (a quad on the card: one shifted a tenth of a card off
 * shows one, and 119026's Y6 so read Y9 at 0.999 by the card net), the
 * card net holds it at CARD_SIX_NINE or more and no corner takes it for
 * its twin (holds a 6 or 9 of its colour first) nor any view at half the odds
 * (TWIN_DISSENT): a small yellow card's indices (yellow on beige, 3-4 px)
 * read as anything, a 1 or a 3 at 0.2-0.6, while the big numeral's brush
 * strokes tell a 6 from a 9 turned (117034's Y9: the card net 0.87-0.95).
 * Seeds (six layouts, 40 each) 117000: fully visible 2142 -> 2145 of 2174
 * (scatter 470 -> 472, row 477 -> 478), at least half 2320 -> 2323 of 2399;
 * 119000 the same readings (its lost 6s and 9s the card net holds under
 * 0.7, or a corner takes for the twin); wrong and false as before. Without
 * both corners: 117000 2147, but a false Y9 on 119026. */
static const double CARD_SIX_NINE = 0.7;

/* Whether a corner view among src[1..nsrc) holds first the twin of card
 * best (a 6 or 9 of its colour, or best itself turned). */
static int corner_twin(const gof_reader *g, double (*src)[NCODES], int nsrc, int best)
{
    for (int s = 1; s < nsrc; s++) {
        int t = top_card(src[s]);
        if (t != best && g->code_col[t] == g->code_col[best] &&
            (g->code_num[t] == NUM_SIX || g->code_num[t] == NUM_NINE))
            return 1;
    }
    return 0;
}

/* The reading of a card from its views' posteriors src[0..nsrc) and their
 * product post; seen: how sure the first view is that it sees a card. With
 * the card net, src[0] is its view and the corners follow; index_only: the
 * corners alone (an index view, gof_find.h). */
static int decide(const gof_reader *g, const double *post, double (*src)[NCODES],
                  const int *corner, int nsrc, float seen, int index_only, ts_reading *out,
                  int *held)
{
    *held = 0;
    double sum = 0;
    int best = 0;
    for (int i = 0; i < NCODES; i++) {
        sum += post[i];
        best = post[i] > post[best] ? i : best;
    }
    /* how sure: the combined posterior times how sure the card net is that
     * the quad is a card at all */
    float conf = sum > 0 ? (float)(post[best] / sum) * seen : 0;
    if (conf < NOT_A_CARD)
        return 0; /* a quad off the card: leave the place to the next */
    /* The product takes the views as independent, so one that is sure of
     * another card is outvoted: a quad sheared across a card (5 read 3 by
     * the card net and the upright corner, 7 by the turned one), the index
     * of one card and the numeral of another. A card must be what every
     * view that sees it says, or nearly: else it is a card, unread. */
    int twins = 0; /* views that take a 6 or 9 for its twin (TWIN_DISSENT) */
    for (int s = 0; s < nsrc; s++) {
        double top = 0;
        for (int i = 0; i < NCODES; i++)
            top = src[s][i] > top ? src[s][i] : top;
        if (src[s][best] < DISSENT * top)
            conf = fminf(conf, DISSENT_CONF);
        int twin = g->code_num[best] == NUM_SIX    ? NUM_NINE
                   : g->code_num[best] == NUM_NINE ? NUM_SIX
                                                   : -1;
        for (int i = 0; i < NCODES && twin >= 0; i++)
            if (g->code_num[i] == twin && g->code_col[i] == g->code_col[best] &&
                src[s][best] < TWIN_DISSENT * src[s][i])
                twins++;
    }
    if ((nsrc == 1 && conf < LONE_SURE) || (index_only && conf < VIEW_SURE))
        conf = fminf(conf, DISSENT_CONF);
    /* A reading no view holds first is a compromise between views that each
     * see another card (a quad across two cards: 1, 5 and 7 made a 3). A 6
     * and a 9 are one numeral turned, which the card net reads from the big
     * numeral and a font's slant on a card too small for its index (seeds
     * 60000-60039: a 6 read 9 at 0.98-0.99 with the corners on a 10, a 3, a
     * 2): one of them needs an index that holds it first. An 8 is a 6 or 9
     * closed (and a 3 half closed): it is unread when a corner holds one of
     * those first and none the 8 (unless the card net is EIGHT_SURE of it).
     * On those seeds, fully visible cards read 2038 -> 2026 of 2174, wrong
     * 16 -> 10 (requiring an index for every 6,
     * 8 and 9: 1979, 9; an index at least 0.5 sure of it: scatters 445 ->
     * 424 for no fewer wrong). */
    int first = 0, agree = 0, rival = 0;
    for (int s = 0; s < nsrc; s++) {
        int t = top_card(src[s]);
        first += t == best;
        if (t == best && corner[s] >= 0)
            *held |= 1 << corner[s];
        if (s > 0 || index_only) {
            agree += t == best;
            rival += t != best && g->code_col[t] == g->code_col[best] &&
                     (is_loop(g->code_num[t]) || g->code_num[t] == NUM_THREE);
        }
    }
    int card_holds = !index_only && top_card(src[0]) == best;
    if (twins > (card_holds && agree ? 1 : 0))
        conf = fminf(conf, DISSENT_CONF);
    int nb = g->code_num[best];
    int by_card = card_holds && nsrc == 3 && !twins && src[0][best] >= CARD_SIX_NINE &&
                  !corner_twin(g, src, nsrc, best);
    if (!first || ((nb == NUM_SIX || nb == NUM_NINE) && !agree && !by_card) ||
        (nb == NUM_EIGHT && !agree && rival && (index_only || src[0][best] < EIGHT_SURE)))
        conf = fminf(conf, DISSENT_CONF);
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_GOF, (uint8_t)g->code_idx[best]};
    out->conf = conf;
    /* per attribute: number, colour (marginals of the combined posterior) */
    out->nattr = 2;
    double pn = 0, pcol = 0;
    for (int i = 0; i < NCODES; i++) {
        pn += g->code_num[i] == g->code_num[best] ? post[i] : 0;
        pcol += g->code_col[i] == g->code_col[best] ? post[i] : 0;
    }
    out->attr_conf[0] = sum > 0 ? (float)(pn / sum) : 0;
    out->attr_conf[1] = sum > 0 ? (float)(pcol / sum) : 0;
    return 0;
}

/* The whole card through the card net (the big numeral, and which way up
 * the card lies from its indices' layout: what tells 6 from 9 on a card too
 * small in the frame for the index numeral to read), times each corner that
 * shows an index through the index net; a covered corner says "none" and is
 * left out. Both nets in one call each (the corners batched). held: which
 * corners (bit 0 the top-left, 1 the bottom-right) hold the reading first;
 * shown: how many show an index at all; share: the least any of those gives
 * the reading, as a share of its own best card (1 with none). */
static int read_fresh(gof_reader *g, const ts_image *card, ts_reading *out, int *held,
                      int *shown, double *share, char *err)
{
    *held = 0;
    *shown = 0;
    *share = 1;
    memset(out, 0, sizeof *out);
    if (card->w != TS_GOF_CARD_W || card->h != TS_GOF_CARD_H || card->channels != 3) {
        snprintf(err, TSCV_ERR_MAX, "gof: card must be %dx%d BGR", TS_GOF_CARD_W,
                 TS_GOF_CARD_H);
        return -1;
    }
    enum { TOTAL = TS_GOF_NUM_CLASSES + TS_GOF_COL_CLASSES };
    float pc[TOTAL], p[2 * TOTAL];
    if (tscv_net_run(g->card_net, card, 1, pc, err) < 0)
        return -1;
    double post[NCODES], q[NCODES], src[3][NCODES];
    int nsrc = 0, corner[3] = {-1, -1, -1};
    float seen = posterior(g, pc, post);
    memcpy(src[nsrc++], post, sizeof post);
    /* the confidence is at most seen: a quad the card net calls no card is
     * none whatever its corners say (most candidates a finder offers) */
    if (seen < NOT_A_CARD)
        return 0;
    ts_gof_corners(card, g->patch);
    if (tscv_net_run(g->net, g->patch, 2, p, err) < 0)
        return -1;
    for (int k = 0; k < 2; k++)
        if (posterior(g, p + k * TOTAL, q) >= 0.5f) {
            for (int i = 0; i < NCODES; i++)
                post[i] *= q[i];
            corner[nsrc] = k;
            memcpy(src[nsrc++], q, sizeof q);
        }
    *shown = nsrc - 1;
    if (decide(g, post, src, corner, nsrc, seen, 0, out, held) < 0)
        return -1;
    for (int b = 0; b < NCODES && out->is_card; b++)
        if (g->code_idx[b] == out->code.idx)
            for (int s = 1; s < nsrc; s++) {
                double top = 0;
                for (int i = 0; i < NCODES; i++)
                    top = src[s][i] > top ? src[s][i] : top;
                *share = fmin(*share, top > 0 ? src[s][b] / top : 1);
            }
    return 0;
}

/* A card from its corners alone (an index view, gof_find.h): the corner at
 * card's top-left is the index the finder saw and must read as one; the
 * other, under another card in a pile, counts when it shows an index (a
 * covering card's index there dissents). No card net: the whole quad runs
 * under the cards over it, whose numerals it would read. The other corner
 * goes through the net only when the first shows a card: most views a pile
 * offers show none (115000-115011 piles: 78 of 136), and the net reads a
 * patch alone to the same bits as in a batch of two. */
static int read_view(gof_reader *g, const ts_image *card, ts_reading *out, char *err)
{
    memset(out, 0, sizeof *out);
    enum { TOTAL = TS_GOF_NUM_CLASSES + TS_GOF_COL_CLASSES };
    float p[2 * TOTAL];
    ts_gof_corners(card, g->patch);
    if (tscv_net_run(g->net, g->patch, 1, p, err) < 0)
        return -1;
    double post[NCODES], q[NCODES], src[2][NCODES];
    int nsrc = 0, corner[2] = {0, 1}, held;
    float seen = posterior(g, p, post);
    if (seen < NOT_A_CARD)
        return 0;
    if (tscv_net_run(g->net, &g->patch[1], 1, p + TOTAL, err) < 0)
        return -1;
    memcpy(src[nsrc++], post, sizeof post);
    if (posterior(g, p + TOTAL, q) >= 0.5f) {
        for (int i = 0; i < NCODES; i++)
            post[i] *= q[i];
        memcpy(src[nsrc++], q, sizeof q);
    }
    return decide(g, post, src, corner, nsrc, seen, 1, out, &held);
}

static int gof_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    int held, shown;
    double share;
    return read_fresh(reader, card, out, &held, &shown, &share, err);
}

/* The reading find() made of quad q in this frame (reader.h). */
static int gof_read_found(void *reader, const ts_pt q[4], ts_reading *out)
{
    return ts_reading_memo_found(&((gof_reader *)reader)->memo, q, out);
}

/* A card that may lie under others (TS_GOF_PART: a pile corner's, an
 * index's) whose reading no corner's index holds rests on the card net,
 * which sees the cards over the quad: with no index showing at all it is
 * unread (an index view reads no card net either, read_view), else it
 * must be as sure as a view. 46005: an M1 two-thirds covered, its corner
 * quad turned across the cards over it, read R3 at 0.997 (no index). On
 * seeds 68000-68039 (at least half visible): wrong 7 -> 4, false 1 -> 0,
 * 8 fewer of 2397 read (3 of them for the no-index rule, which took no
 * wrong card there but is what keeps 46005's R3 unread). An index that
 * shows and gives the reading under PART_DISSENT of its own best card is
 * a witness against it (share, read_fresh): 81011, a Y5 half under a Y9
 * read Y3 at 0.999 by the card net, its one index showing another card.
 * Session 14 (its index net), at 0.1: 81000-81039 false 1 -> 0, fully
 * visible read 2116 -> 2113 of 2176, at least half 2288 -> 2286; 87000-87039
 * 2087 and 2263 -> 2261 (at 0.3: 2113 / 2284 and 2085 / 2257). */
static const double PART_DISSENT = 0.1;

/* Whether a quad of kind (ts_gof_kind) may lie under others: a pile
 * corner's, an index's, or one a little off its blob (TS_GOF_ASIDE). */
static int part_kind(int kind)
{
    return kind == TS_GOF_PART || kind == TS_GOF_ASIDE;
}

static void part_unheld(ts_reading *out, int shown, double share)
{
    if (!shown || out->conf < VIEW_SURE || share < PART_DISSENT)
        out->conf = fminf(out->conf, DISSENT_CONF);
}

/* Reads quad q of kind (ts_gof_kind, not a view) in this frame into out, with
 * the caps of its shape and kind; held: read_fresh's. */
static int read_quad(gof_reader *g, const ts_quad *q, int kind, ts_reading *out, int *held,
                     char *err)
{
    int shown;
    double share;
    if (tscv_warp_quad(g->frame, q->q, &g->warp, TS_GOF_CARD_W, TS_GOF_CARD_H, err) < 0 ||
        read_fresh(g, &g->warp, out, held, &shown, &share, err) < 0)
        return -1;
    if (out->is_card && share < SKEW_SHARE && ts_gof_skew(q->q) > SKEW_MAX)
        out->conf = fminf(out->conf, DISSENT_CONF);
    if (part_kind(kind) && out->is_card && !*held)
        part_unheld(out, shown, share);
    return 0;
}

/* Reads quad q again at k[0] and k[1] of its size about point c: the surest
 * card reading above *out replaces it (and *cand its quad), a 6 or 9 only
 * when twins is set or when it is the card *out read unsure already
 * (OUTLINE_RESIZE). */
static int read_resized(gof_reader *g, const ts_quad *q, ts_pt c, const float k[2], int kind,
                        int twins, ts_quad *cand, ts_reading *out, int *held, char *err)
{
    const ts_quad base = *q; /* q may be cand */
    const int was = out->is_card ? out->code.idx : -1;
    for (int s = 0; s < 2; s++) {
        ts_quad t = base;
        ts_quad_scale_about(base.q, c, k[s], t.q);
        ts_reading r;
        int h;
        if (read_quad(g, &t, kind, &r, &h, err) < 0)
            return -1;
        int num = r.code.idx < 30 ? r.code.idx % 10 : -1; /* gof.h: 0..29 are numbers */
        if (!twins && (num == NUM_SIX || num == NUM_NINE) && r.code.idx != was)
            continue;
        if (r.is_card && r.conf > out->conf)
            *cand = t, *out = r, *held = h;
    }
    return 0;
}

/* An index card's size comes from its numeral-to-symbol step, a few pixels
 * (gof_index.c), and where the stock does not stand out (a pale table, a
 * pile) snapping does not set it right: 10-12% off, its far corner cuts
 * the other index or the card net's layout, and the card reads unsure (a
 * Y8 on beige cloth, its turned corner read as a phoenix). So an index card
 * read below the floor is read again at INDEX_RESIZE[] of its size about
 * its index (not snapped: on the tables it helps, the edges mislead).
 * Seeds 100000-100039 (six layouts): fully visible 2100 -> 2104 of 2171,
 * at least half 2266 -> 2274 of 2399, wrong 3/4 and false 1 as before;
 * 87000-87039 2087 -> 2088 of 2162 and 2261 -> 2262 of 2401, wrong 4/4,
 * false 0. None of the callgrind frames reads one (grid 127.6, pile 216.1
 * M). Snapping the resized quads: 1 more wrong, 2 fewer read. */
static const float INDEX_RESIZE[2] = {0.92f, 1.08f};

/* An index card's corner at its index is sure (the index sits there), and
 * snapping finds the card's two sides that meet there; the far sides may
 * snap to the edge of a card under it or over it, which gives a quad of
 * no card's shape (a pile top's long sides cut to 0.8 of a card, its R6
 * then read R9). Read unsure after INDEX_RESIZE, the snapped quad is read
 * again with its long sides made a card's length from its short side at
 * the index corner, when that side is within SHAPED_SIZE of the index
 * card's (a side snapped to a numeral's stroke makes a part of the card,
 * and half a 6 reads 8) and its long sides are under SHAPED_SHORT of a
 * card's (a card seen at a slant is shorter than a card's shape: at a card's
 * length 117039's R6, 1.43 long, read R8 at 0.99). The surer reading is
 * kept. With sure_in_stead, seeds (six layouts, 40 each) 117000: fully
 * visible 2141 -> 2142 of 2174, at least half 2319 -> 2320 of 2399 (117016's
 * R6); 119000 as before; wrong and false as before. */
static const float SHAPED_SIZE = 0.25f; /* how far its side may be from the index card's */
static const float SHAPED_SHORT = 0.9f; /* long sides under this share of a card's are cut */
static int read_shaped(gof_reader *g, const ts_quad *raw, ts_quad *cand, ts_reading *out,
                       int *held, char *err)
{
    float sd = ts_dist(cand->q[0], cand->q[1]), len = sd * TS_GOF_CARD_H / TS_GOF_CARD_W;
    float along = (ts_dist(cand->q[0], cand->q[3]) + ts_dist(cand->q[1], cand->q[2])) / 2;
    if (fabsf(sd / ts_dist(raw->q[0], raw->q[1]) - 1) > SHAPED_SIZE || along > SHAPED_SHORT * len)
        return 0;
    ts_quad t = *cand;
    for (int k = 0; k < 2; k++) { /* q[3] from q[0], q[2] from q[1] */
        ts_pt a = cand->q[k], b = cand->q[3 - k];
        float l = ts_dist(a, b);
        if (l <= 0)
            return 0;
        t.q[3 - k] = (ts_pt){a.x + (b.x - a.x) * len / l, a.y + (b.y - a.y) * len / l};
    }
    ts_reading r;
    int h;
    if (read_quad(g, &t, TS_GOF_PART, &r, &h, err) < 0)
        return -1;
    if (r.is_card && r.conf > out->conf)
        *cand = t, *out = r, *held = h;
    return 0;
}

/* A snapped outline a little off (a side on the table's print or on the
 * next card of a row: the quad 0.1-0.2 of a card too large, or a few
 * pixels in) reads unsure where the true quad reads sure; read below the
 * floor, it is read again at OUTLINE_RESIZE[] of its size about its
 * centre. Not a skewed one (SKEW_MAX: the sheared 5 read 3 again), and a 6
 * or 9 is not taken from a resized quad: three tries of a card whose index
 * barely shows are three chances for the twin (a G9 read G6 at 1.00, a Y6
 * read Y9 at 0.96). Seeds 100000-100039 (six layouts): fully visible 2104
 * -> 2113 of 2171, at least half 2274 -> 2283 of 2399, wrong 3/4, false 1
 * (6 and 9 taken too: 2117 and 2287, wrong 6/7; 0.96/1.04 or 0.91/1.09:
 * 2111; one side only: 2109-2110); 87000-87039 2088 -> 2099 of 2162, 2262
 * -> 2273 of 2401, wrong 4/4, false 0. Callgrind: grid 127.6 M and pile
 * 216.1 M as before (reading the skewed ones again too: pile 226.8 M).
 * A resized 6 or 9 is taken when the quad as found read that same card
 * unsure: a small 6 or 9 whose outline lies 0.02-0.07 of a card off cuts
 * its 3-4 px indices at the corner patches' edge, the card net holds the
 * card (0.7-0.9) and the corners read a 4 or a 2, so no index holds it and
 * it is capped; at another size an index holds it (the card read on its
 * true corners is sure). Its twin is still no second chance: a resized
 * reading of the twin is left out, and decide()'s twin rules hold for the
 * resized reading as for any. Seeds (six layouts, 40 each), fully
 * visible: 109000 2122 -> 2130 of 2173 (wrong 5 -> 4: a Y6 read Y4 at 1.00
 * by a quad 0.4 card off is now read right on its own outline), at least
 * half 2286 -> 2294 of 2398 (wrong 9 -> 8); 111000 2121 -> 2125 of 2174,
 * 2293 -> 2297 of 2397 (wrong 1/4 as before); 87000 2102 -> 2106 of 2162,
 * 2279 -> 2284 of 2401 (wrong 4/4 as before); false as before. */
static const float OUTLINE_RESIZE[2] = {0.94f, 1.06f};

/* Whether reading r of candidate i (of cand, this frame's) differs from a
 * card read on an outline it overlaps (the memo's). A corner card a little
 * off a blob of one card (TS_GOF_ASIDE) is a second look at the card that
 * blob is: it may confirm its outline's reading (a G9 read 0.6 on its
 * outline, 1.0 on such a corner: 105012), not overrule it. Off the card, a
 * small 6's or 9's index and the card net read half of its big numeral: a
 * Y6 read Y8, an R6 R9, a Y9 Y6, each sure, its outline right but unsure.
 * Where no outline was read (a pile's bottom card cut off its blob by a
 * binarisation: 87029) it stands alone, as a pile corner's card. */
static int overrules_outline(const gof_reader *g, const ts_quad *cand, int i,
                             const ts_reading *r)
{
    for (int j = 0; j < g->nranked; j++) {
        ts_reading rj;
        if (j != i && g->kind[j] == TS_GOF_OUTLINE && g->snapped[j] &&
            ts_quad_overlap(&cand[j], &cand[i]) &&
            ts_reading_memo_found(&g->memo, cand[j].q, &rj) && rj.code.idx != r->code.idx)
            return 1;
    }
    return 0;
}

/* Whether quad q lies within tol of one of list[0..n), corner by corner. */
static int near_one(const ts_quad *list, int n, const ts_quad *q, float tol)
{
    float tol2 = tol * tol;
    for (int k = 0; k < n; k++) {
        int near = 1;
        for (int c = 0; c < 4 && near; c++) {
            float dx = list[k].q[c].x - q->q[c].x, dy = list[k].q[c].y - q->q[c].y;
            near = dx * dx + dy * dy < tol2;
        }
        if (near)
            return 1;
    }
    return 0;
}

/* Whether quad q lies within NONE_NEAR of a quad read as no card in this
 * frame. */
static int read_as_none(const gof_reader *g, const ts_quad *q)
{
    return near_one(g->none_at, g->nnone, q, NONE_NEAR * ts_dist(q->q[0], q->q[1]));
}

/* Snaps candidate i to the card's edges (gof_find.h) once and reads it for
 * find(), keeping a card's reading for the pipeline's read of the same
 * quad. A card an index view stands for is read from its corners and
 * reported at the view. So is a card from a pile's corner or an index
 * (TS_GOF_PART) that a corner's index holds: the card over it may cover the
 * rest, its centre too, and the reading must go to the place that shows (a
 * 4 read from its own outline was reported on the 3 over its middle). Both
 * corners may show and hold it with its middle covered (81022: an R10
 * under a Y4, both indices clear, read at 0.998 on the Y4's place): its
 * top-left index is the place then (81000-81039 piles, with session 14's
 * index net: 361 -> 367 of 438 at least half visible read, wrong 6 -> 4). */
static int read_once(gof_reader *g, ts_quad *cand, int i, ts_reading *out, char *err)
{
    const ts_image *frame = g->frame;
    if (g->kind[i] == TS_GOF_VIEW) {
        if (tscv_warp_quad(frame, g->whole[i].q, &g->warp, TS_GOF_CARD_W, TS_GOF_CARD_H, err) <
                0 ||
            read_view(g, &g->warp, out, err) < 0)
            return -1;
        /* a card read already on another quad over it (an outline a little
         * off, so the index lies outside it) is not read twice */
        for (int k = 0; k < g->memo.n && out->is_card; k++) {
            ts_quad mq = {0};
            memcpy(mq.q, g->memo.quad[k], sizeof mq.q);
            if (g->memo.reading[k].code.idx == out->code.idx &&
                g->memo.reading[k].conf >= ts_gof_reader_class.conf_floor &&
                ts_quad_overlap(&mq, &g->whole[i]))
                out->is_card = 0;
        }
        ts_reading_memo_put(&g->memo, cand[i].q, out);
        return 0;
    }
    ts_quad raw = cand[i];
    int fresh = !g->snapped[i];
    if (fresh)
        ts_gof_snap_edges(frame, &cand[i]);
    g->snapped[i] = 1;
    if (read_as_none(g, &cand[i])) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    int held;
    if (read_quad(g, &cand[i], g->kind[i], out, &held, err) < 0)
        return -1;
    if (!out->is_card && g->nnone < MAX_RANKED)
        g->none_at[g->nnone++] = cand[i]; /* as read: no card is neither resized nor a view */
    /* read unsure: an index card (score >= 1: merge_index, gof_find.c) or
     * an outline at another size */
    int unsure = fresh && out->is_card && out->conf < ts_gof_reader_class.conf_floor;
    if (unsure && g->kind[i] == TS_GOF_PART && raw.score >= 1 &&
        read_resized(g, &raw, ts_quad_point(raw.q, 7.0f / 56, 7.0f / 87), INDEX_RESIZE,
                     TS_GOF_PART, 1, &cand[i], out, &held, err) < 0)
        return -1;
    if (unsure && g->kind[i] == TS_GOF_PART && raw.score >= 1 &&
        out->conf < ts_gof_reader_class.conf_floor &&
        read_shaped(g, &raw, &cand[i], out, &held, err) < 0)
        return -1;
    if (unsure && g->kind[i] == TS_GOF_OUTLINE && ts_gof_skew(cand[i].q) <= SKEW_MAX &&
        read_resized(g, &cand[i], ts_quad_centre(cand[i].q), OUTLINE_RESIZE, TS_GOF_OUTLINE, 0,
                     &cand[i], out, &held, err) < 0)
        return -1;
    if (g->kind[i] == TS_GOF_ASIDE && out->is_card && overrules_outline(g, cand, i, out)) {
        out->is_card = 0; /* its place is left to the next candidate */
        held = 0;
    }
    if (part_kind(g->kind[i]) && out->is_card && held) {
        /* the warp's top-left is q[0]; its bottom-right, turned, q[2] */
        ts_quad c = cand[i];
        if (held == 2)
            for (int k = 0; k < 4; k++)
                c.q[k] = cand[i].q[(k + 2) % 4];
        ts_gof_index_view(&c, &cand[i]);
        g->kind[i] = TS_GOF_VIEW;
        g->whole[i] = c;
    }
    ts_reading_memo_put(&g->memo, cand[i].q, out);
    return 0;
}

/* read_once for the place pick, which may ask for a candidate twice (a
 * place read unsure asks every candidate overlapping it, and one of them
 * may lead a place of its own later): a candidate read as no card is no
 * card again without its nets. That reading does not change as the frame's
 * readings grow (a view's card read elsewhere stays read, an outline it
 * would overrule stays read). The callgrind pile frame read two corner
 * quads twice so: 216.24 -> 209.93 M instructions, the same readings. */
static int read_candidate(void *ctx, ts_quad *cand, int i, ts_reading *out, char *err)
{
    gof_reader *g = ctx;
    if (g->none[i]) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    int rc = read_once(g, cand, i, out, err);
    g->none[i] = rc == 0 && !out->is_card;
    g->sure[i] = rc == 0 && out->is_card && out->conf >= ts_gof_reader_class.conf_floor;
    return rc;
}

/* Whether an index pair the finder saw in this frame (ts_gof_find_pairs)
 * lies at card w's corner w.q[0], its top side the same way: within
 * PAIR_NEAR of w's short side, the sides within PAIR_TURN (a cosine). */
static int pair_at(const gof_reader *g, const ts_quad *w)
{
    const ts_quad *p;
    int np = ts_gof_find_pairs(g->finder, &p);
    float side = ts_dist(w->q[0], w->q[1]);
    float ux = (w->q[1].x - w->q[0].x) / side, uy = (w->q[1].y - w->q[0].y) / side;
    for (int i = 0; i < np; i++)
        for (int c = 0; c < 4; c += 2) {
            ts_pt a = p[i].q[c], b = p[i].q[(c + 1) % 4];
            float ps = ts_dist(a, b);
            if (ps > 0 && ts_dist(a, w->q[0]) < PAIR_NEAR * side &&
                ((b.x - a.x) * ux + (b.y - a.y) * uy) / ps > PAIR_TURN)
                return 1;
        }
    return 0;
}

/* The whole card of index view q among this frame's candidates, or NULL
 * when q is no view. */
static const ts_quad *view_whole(const gof_reader *g, const ts_quad *q)
{
    for (int i = 0; i < g->nranked; i++)
        if (g->kind[i] == TS_GOF_VIEW && memcmp(g->ranked[i].q, q->q, sizeof q->q) == 0)
            return &g->whole[i];
    return NULL;
}

/* A pile's corner quad (TS_GOF_PART, not an index card: score < 1) may
 * stand for a card under others whose index shows at the corner: the
 * place pick passes it over when a card over it took its place, or it
 * reads unsure (the card net sees the cards over it). Such quads, not one
 * read as a sure card nor as no card, are offered again after the pick as
 * index views at the two corners that may hold an index, when the view's
 * place is free, no view of this frame (the index finder's, a held
 * corner's, one tried here) lies within NONE_NEAR of it, and the corner is
 * likely to show an index: the quad's two edges there are a card's sides
 * (ts_gof_corner_whole), or the index finder saw a pair there (pair_at).
 * The views are appended to the candidates, read like theirs; those read
 * as cards join out[0..n). Returns the new count of out.
 * Seeds 109000-109039 piles: at least half visible 358 -> 361 of 438, wrong
 * and false as before; every such corner offered: 361 too, but the
 * callgrind pile frame read 32 views (196.6 -> 339.8 M; now 3). */
static int offer_views(gof_reader *g, ts_quad *out, int n, int max, char *err)
{
    ts_quad tried[MAX_CAND];
    int nt = 0, nc = g->nranked;
    for (int j = 0; j < nc; j++)
        if (g->kind[j] == TS_GOF_VIEW)
            tried[nt++] = g->ranked[j];
    for (int i = 0, found = g->nranked; i < found && n < max; i++) {
        if (g->kind[i] != TS_GOF_PART || g->ranked[i].score >= 1 || g->none[i] || g->sure[i])
            continue;
        int whole = ts_gof_corner_whole(&g->ranked[i]);
        for (int c = 0; c < 4 && nc < MAX_CAND && n < max; c += 2) {
            ts_quad w = g->ranked[i], v;
            for (int k = 0; k < 4; k++)
                w.q[k] = g->ranked[i].q[(k + c) % 4];
            ts_gof_index_view(&w, &v);
            if ((!whole && !pair_at(g, &w)) ||
                near_one(tried, nt, &v, NONE_NEAR * ts_dist(w.q[0], w.q[1])) ||
                ts_place_taken(out, n, &v))
                continue;
            tried[nt++] = v;
            g->ranked[nc] = v, g->whole[nc] = w, g->kind[nc] = TS_GOF_VIEW;
            g->snapped[nc] = 1, g->none[nc] = 0, g->sure[nc] = 0;
            g->nranked = ++nc;
            ts_reading r;
            if (read_candidate(g, g->ranked, nc - 1, &r, err) < 0)
                return -1;
            if (r.is_card)
                out[n++] = v;
        }
    }
    return n;
}

/* A card whose index is no numeral (a phoenix's or a dragon's creature),
 * or washed out by a glint, in a block of touching cards has no candidate
 * when the block's split fails: its neighbours are found from their
 * indices, the block's outline explains nothing. Each sure card found
 * (its whole card, for a view) offers its four neighbours edge to edge (a
 * card's side along and across it), as outlines to snap and read, when
 * the neighbour lies in the frame, its place is free (no quad found nor a
 * view's card holds its centre, nor it theirs) and as much card stock
 * lies round it as round the card (BESIDE_STOCK of its ring_stock): on a
 * table between spaced cards or past a block's edge that falls. Those
 * read sure join out[0..n) and offer their own neighbours. Returns the new
 * count of out. */
static const float BESIDE_STOCK = 0.85f;
/* Neighbours offered twice, their corners this near (of the short side),
 * are read once; farther, from another card's edges, again. */
static const float BESIDE_NEAR = 0.1f;
/* A card beside another along a side, its centre this far from it (of
 * that side) and off the side's line within BESIDE_ACROSS of the short
 * side: a row's next card with a gap. */
static const float BESIDE_GAP[2] = {1.02f, 1.4f}, BESIDE_ACROSS = 0.15f;

/* Whether quad q found in this frame was read as a card at the floor or
 * above. */
static int read_sure(const gof_reader *g, const ts_quad *q)
{
    ts_reading r;
    return ts_reading_memo_found(&g->memo, q->q, &r) && r.is_card &&
           r.conf >= ts_gof_reader_class.conf_floor;
}

/* The whole card of quad q: its view's card, or q. */
static const ts_quad *card_of(const gof_reader *g, const ts_quad *q)
{
    const ts_quad *w = view_whole(g, q);
    return w ? w : q;
}

/* Whether q's centre lies in one of out[0..n) read sure or its view's
 * card, or theirs in q (an unsure reading there gives way to a sure one:
 * drop_unsure_twins). */
static int place_held(const gof_reader *g, const ts_quad *out, int n, const ts_quad *q)
{
    for (int k = 0; k < n; k++)
        if ((ts_quad_overlap(&out[k], q) || ts_quad_overlap(card_of(g, &out[k]), q)) &&
            read_sure(g, &out[k]))
            return 1;
    return 0;
}

/* The steps from card w (out[j]'s) to its neighbours' places, into step
 * (room for MAX_STEPS): its sides each way (edge to edge), and back from
 * each sure card beside it along a side, 1.02-1.4 of that side away (a row
 * laid with gaps: 115017's dragon between two cards read). Returns the
 * count. */
enum { MAX_STEPS = 8 };
static int beside_steps(const gof_reader *g, const ts_quad *out, int n, int j, const ts_quad *w,
                        ts_pt step[MAX_STEPS])
{
    int ns = 0;
    for (int d = 0; d < 4; d++) {
        ts_pt b = w->q[d < 2 ? 1 : 3];
        float s = d % 2 ? -1.0f : 1.0f;
        step[ns++] = (ts_pt){s * (b.x - w->q[0].x), s * (b.y - w->q[0].y)};
    }
    ts_pt c = ts_quad_centre(w->q);
    float across_max = BESIDE_ACROSS * ts_dist(w->q[0], w->q[1]);
    for (int k = 0; k < n && ns < MAX_STEPS; k++) {
        if (k == j || !read_sure(g, &out[k]))
            continue;
        ts_pt ck = ts_quad_centre(card_of(g, &out[k])->q);
        float vx = ck.x - c.x, vy = ck.y - c.y;
        for (int a = 1; a < 4 && ns < MAX_STEPS; a += 2) {
            float ax = w->q[a].x - w->q[0].x, ay = w->q[a].y - w->q[0].y, len = hypotf(ax, ay);
            float along = fabsf(vx * ax + vy * ay) / len, across = fabsf(vx * ay - vy * ax) / len;
            if (across < across_max && along > BESIDE_GAP[0] * len && along < BESIDE_GAP[1] * len)
                step[ns++] = (ts_pt){-vx, -vy};
        }
    }
    return ns;
}

static int offer_beside(gof_reader *g, ts_quad *out, int n, int max, char *err)
{
    const float floor = ts_gof_reader_class.conf_floor;
    ts_quad tried[MAX_VIEWS];
    int nt = 0;
    for (int j = 0; j < n && n < max; j++) {
        if (!read_sure(g, &out[j]))
            continue;
        ts_quad w = *card_of(g, &out[j]);
        int stock = ts_gof_ring_stock(g->frame, &w);
        ts_pt step[MAX_STEPS];
        int ns = beside_steps(g, out, n, j, &w, step);
        for (int d = 0; d < ns && n < max && nt < MAX_VIEWS && g->nranked < MAX_CAND; d++) {
            ts_quad c = w;
            for (int k = 0; k < 4; k++)
                c.q[k].x += step[d].x, c.q[k].y += step[d].y;
            c.score = 0;
            if (!ts_quad_in_frame(c.q, g->frame->w, g->frame->h, 0) || place_held(g, out, n, &c) ||
                ts_place_tried(tried, nt, &c, BESIDE_NEAR * ts_dist(c.q[0], c.q[1])) ||
                ts_gof_ring_stock(g->frame, &c) < BESIDE_STOCK * stock)
                continue;
            tried[nt++] = c;
            int i = g->nranked++;
            g->ranked[i] = c, g->whole[i] = c, g->kind[i] = TS_GOF_OUTLINE;
            g->snapped[i] = 0, g->none[i] = 0, g->sure[i] = 0;
            ts_reading r;
            if (read_candidate(g, g->ranked, i, &r, err) < 0)
                return -1;
            if (r.is_card && r.conf >= floor && !place_held(g, out, n, &g->ranked[i]))
                out[n++] = g->ranked[i];
        }
    }
    return n;
}

/* A view whose place lies on a card taken before it is passed over by the
 * pipeline (one card per place), though its card may show whole: a pile's
 * top card read from one corner, its index lying over the card under it.
 * When out[j] is such a view and its whole card's place is on none of the
 * other quads taken (out[0..n)) nor holds their places, out[j] becomes that
 * card (81000-81039 piles: 3 more of 438 at least half visible read). */
static void whole_if_shown(gof_reader *g, ts_quad *out, int n, int j)
{
    int on = 0;
    for (int v = 0; v < j && !on; v++)
        on = ts_quad_overlap(&out[v], &out[j]);
    const ts_quad *whole = on ? view_whole(g, &out[j]) : NULL;
    ts_reading r;
    /* the pipeline must find the card's reading in the memo */
    if (!whole || g->memo.n >= TS_MEMO_MAX || !ts_reading_memo_found(&g->memo, out[j].q, &r))
        return;
    for (int v = 0; v < n; v++)
        if (v != j && ts_quad_overlap(&out[v], whole))
            return;
    out[j] = *whole;
    ts_reading_memo_put(&g->memo, out[j].q, &r);
}

/* Whether quads a and b (or the whole cards of the views among them) hold
 * each other's centre: one card. */
static int one_card(const gof_reader *g, const ts_quad *a, const ts_quad *b)
{
    const ts_quad *wa = view_whole(g, a), *wb = view_whole(g, b);
    wa = wa ? wa : a, wb = wb ? wb : b;
    ts_pt ca = ts_quad_centre(a->q), cb = ts_quad_centre(b->q);
    return ts_point_in_quad(wa->q, cb.x, cb.y) || ts_point_in_quad(wb->q, ca.x, ca.y);
}

/* Whether quads a and b each hold the other's centre. */
static int hold_centres(const ts_quad *a, const ts_quad *b)
{
    ts_pt ca = ts_quad_centre(a->q), cb = ts_quad_centre(b->q);
    return ts_point_in_quad(a->q, cb.x, cb.y) && ts_point_in_quad(b->q, ca.x, ca.y);
}

/* Whether the whole cards of quads a and b (views' cards, gof_find.h) each
 * hold the other's centre: one place, whatever each was read as. */
static int one_place(const gof_reader *g, const ts_quad *a, const ts_quad *b)
{
    const ts_quad *wa = view_whole(g, a), *wb = view_whole(g, b);
    return hold_centres(wa ? wa : a, wb ? wb : b);
}

/* A card reported twice, first unsure (a pile card's index view below the
 * floor) and then sure from another quad on the same card, is reported
 * once, where it is sure: the unsure place would stand for the card, the
 * sure one for a second of it (81000-81039 piles: 2 such on 81006, 81011).
 * So is one read sure twice on one card (a pile top from its index view and
 * from a corner's quad), and an unsure one of another code on the sure
 * one's place (one_place: a pile top's foreshortened corner read G1 at 0.6
 * on 113024's G6, read sure from its index): 113000-113039 and
 * 115000-115039 piles, false 1 and 2 -> 0 and 1 (as main), 1 more half
 * visible card read on each. Any unsure quad near a sure one: the same, but
 * playing 105020 went to domino under --game auto (the Gang of Four
 * reader's unsure cards count there). Returns the quads kept. */
static int drop_unsure_twins(const gof_reader *g, ts_quad *out, int n)
{
    const float floor = ts_gof_reader_class.conf_floor;
    unsigned char gone[MAX_RANKED] = {0};
    for (int j = 0; j < n; j++) {
        ts_reading rj, rv;
        if (!ts_reading_memo_found(&g->memo, out[j].q, &rj) || !rj.is_card || rj.conf < floor)
            continue;
        for (int v = 0; v < n; v++)
            if (v != j && !gone[j] && !gone[v] &&
                ts_reading_memo_found(&g->memo, out[v].q, &rv) && rv.is_card &&
                (rv.code.idx == rj.code.idx ? rv.conf < floor || v > j
                                            : rv.conf < floor && one_place(g, &out[v], &out[j])) &&
                one_card(g, &out[v], &out[j]))
                gone[v] = 1;
    }
    int kept = 0;
    for (int j = 0; j < n; j++)
        if (!gone[j])
            out[kept++] = out[j];
    return kept;
}

/* Whether quad b, read rb, is the place of quad a, read ra, read sure
 * where a was unsure: the quads (not their cards: on 119019 a sure R4
 * view beside an unsure one made a false card) hold each other's centre (a
 * pile top's index view read R6 0.6, then the same view from its other
 * index's card at 0.998). drop_unsure_twins then keeps b in a's stead. */
static int sure_in_stead(const ts_quad *a, const ts_reading *ra, const ts_quad *b,
                         const ts_reading *rb)
{
    const float floor = ts_gof_reader_class.conf_floor;
    return rb->conf >= floor && ra->conf < floor && hold_centres(a, b);
}

/* How far apart (in short sides) two views' whole cards lie at least to be
 * two cards (lies_over): a card's other index misread gives nearly the same
 * whole card (125036's G6 read G4 0.994 from a whole card 10 px off, a
 * sixth of a side), a pile's top over a card 0.8 of a side away. */
static const float APART = 0.5f;

/* Whether the memo holds code rj read sure on a quad whose centre lies off
 * whole card wj: the card is read elsewhere (87021's G9 index read G2 at
 * 0.999 beside the G5 under it, in a block where the G2 was read). */
static int sure_elsewhere(const gof_reader *g, const ts_reading *rj, const ts_quad *wj)
{
    for (int k = 0; k < g->memo.n; k++) {
        const ts_reading *r = &g->memo.reading[k];
        ts_pt c = ts_quad_centre(g->memo.quad[k]);
        if (r->is_card && r->code.idx == rj->code.idx &&
            r->conf >= ts_gof_reader_class.conf_floor && !ts_point_in_quad(wj->q, c.x, c.y))
            return 1;
    }
    return 0;
}

/* Whether a sure view's card, read rj over whole card wj and not read
 * elsewhere (sure_elsewhere), lies over the card of the sure view v, read
 * rv, whole card w (its index at w's first corner): another card, APART
 * from it, that leaves v's index uncovered
 * but covers v's far corner, where v's other index would show, and shows
 * its own other index (the index finder saw a pair at wj's far corner:
 * pair_at). So a pile's top lies over the card under it: 123010's G4, read
 * 0.986 at its index, which lay on the whole card of the R8 under it, was
 * dropped as a second card on the R8. A misread index shows no such pair
 * (87004's Y2 read Y7 at 0.98 over a Y5); a view's whole card run the
 * wrong way from its index leaves the far corner of the card it lies on
 * (124003's Y4 over R2). */
static int lies_over(const gof_reader *g, const ts_reading *rj, const ts_quad *wj,
                     const ts_reading *rv, const ts_quad *w, const ts_quad *v)
{
    if (!wj || !rj->is_card || rj->conf < ts_gof_reader_class.conf_floor ||
        rj->code.idx == rv->code.idx || sure_elsewhere(g, rj, wj))
        return 0;
    ts_pt c = ts_quad_centre(v->q), cj = ts_quad_centre(wj->q), cw = ts_quad_centre(w->q);
    if (ts_point_in_quad(wj->q, c.x, c.y) || !ts_point_in_quad(wj->q, w->q[2].x, w->q[2].y) ||
        ts_dist(cj, cw) < APART * ts_dist(wj->q[0], wj->q[1]))
        return 0;
    ts_quad far;
    for (int k = 0; k < 4; k++)
        far.q[k] = wj->q[(k + 2) % 4];
    return pair_at(g, &far);
}

static int gof_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    gof_reader *g = reader;
    ts_reading_memo_clear(&g->memo); /* a new frame */
    int n = ts_gof_find(g->finder, frame, g->ranked, g->whole, g->kind, MAX_RANKED, err);
    if (n < 0)
        return -1;
    g->nranked = n;
    memset(g->snapped, 0, sizeof g->snapped);
    memset(g->none, 0, sizeof g->none);
    memset(g->sure, 0, sizeof g->sure);
    g->nnone = 0;
    g->frame = frame;
    n = ts_place_pick(g->ranked, n, RERANK_SURE, read_candidate, g, out, max, err);
    if (n >= 0)
        n = offer_views(g, out, n, max, err);
    if (n >= 0)
        n = offer_beside(g, out, n, max, err);
    g->frame = NULL;
    if (n < 0)
        return -1;
    /* An index view claims less of the table than its card: a later quad
     * on the rest of that card is the same card again (its other index) or,
     * when the view read a sure card, no card of its own unless sure (a Y1
     * in a block taken at its index, then a quad over it and an R9 read Y7
     * at 0.94), or a sure view's card lying over it (lies_over). A view
     * below the floor is reported unread and claims no other card: on
     * 68003 an R9 at 0.68 dropped the G2 on top of it read at 0.995
     * (68000-68039: 1 more of 2168 fully visible cards read). */
    int kept = 0;
    for (int j = 0; j < n; j++) {
        ts_reading rj, rv;
        int drop = 0;
        /* a view the memo could not keep would be read again from its own
         * quad (reader.h's read_found), which is not its card: dropped */
        if (!ts_reading_memo_found(&g->memo, out[j].q, &rj))
            drop = view_whole(g, &out[j]) != NULL;
        else {
            float cx = (out[j].q[0].x + out[j].q[1].x + out[j].q[2].x + out[j].q[3].x) / 4;
            float cy = (out[j].q[0].y + out[j].q[1].y + out[j].q[2].y + out[j].q[3].y) / 4;
            const ts_quad *wj = view_whole(g, &out[j]);
            for (int v = 0; v < kept && !drop; v++) {
                const ts_quad *w = view_whole(g, &out[v]);
                int on = w && ts_point_in_quad(w->q, cx, cy);
                if (!w || !(on || (wj && ts_quad_overlap(w, wj))))
                    continue; /* no view, or not on its card: the memo is not asked */
                int seen = ts_reading_memo_found(&g->memo, out[v].q, &rv);
                int same = seen && rv.code.idx == rj.code.idx &&
                           !sure_in_stead(&out[v], &rv, &out[j], &rj);
                /* only a quad on that card: a view beside it whose card
                 * merely overlaps it is another card (a pile's top R5 at
                 * 0.998, its index beside the G7 under it, was dropped) */
                int sure = on && seen && rv.is_card && rv.conf >= ts_gof_reader_class.conf_floor;
                drop = (sure && rj.conf < CLAIM_SURE && !lies_over(g, &rj, wj, &rv, w, &out[v])) ||
                       same;
            }
        }
        if (!drop)
            out[kept++] = out[j];
    }
    for (int j = 1; j < kept; j++)
        whole_if_shown(g, out, kept, j);
    if (kept > MAX_RANKED)
        return kept;
    return drop_unsure_twins(g, out, kept);
}

static const char *const gof_profiles[] = {"dow", NULL};

const ts_reader_class ts_gof_reader_class = {
    .family = TS_FAM_GOF,
    .name = "gof",
    .profiles = gof_profiles,
    .min_aspect = 1.3f,
    .max_aspect = 1.9f,
    .card_w = TS_GOF_CARD_W,
    .card_h = TS_GOF_CARD_H,
    /* Chosen on seeds 20000-20019 (all six layouts, 1096 fully visible
     * cards): from 0.5 to 0.9 the wrong readings fall 13 -> 6 for 13 fewer
     * read; above 0.9 little changes (0.98: 4 wrong, 4 fewer read). */
    .conf_floor = 0.9f,
    .whole_min_aspect = 1.35f, /* a photo of one card (56 x 87 mm) */
    .whole_max_aspect = 1.8f,
    .create = gof_create,
    .destroy = gof_destroy,
    .read = gof_read,
    .find = gof_find,
    .read_found = gof_read_found,
};
