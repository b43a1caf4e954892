/* Which family's reading `--game auto` takes (see auto_family.h). */
#include "auto_family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdnn.h"
#include "datadir.h"
#include "geom.h"
#include "readers/gof.h"

/* The warp the face net's input is shrunk from (models/train_family.py). */
enum { FACE_W = 64, FACE_H = 96 };
/* Cards of one reading the net looks at: the rest count at their mean (a
 * Qwirkle board has 70 tiles; a dozen tell the family as well). */
enum { FACE_SAMPLE = 12, MAX_READINGS = 16 };

struct ts_auto_family {
    tscv_net *net;
    int nclass;
    /* per family, the net's classes that are its pieces (cards and tiles) */
    int mine[TS_FAM_COUNT][TSCV_NET_MAX_CLASSES];
    int nocard[TSCV_NET_MAX_CLASSES]; /* the class "no card" (X) */
    ts_image face[MAX_READINGS * FACE_SAMPLE];
    ts_image ink; /* a playing card's warp, for its inks (alien_ink) */
    float *probs;
};

/* The net's letters of each family's kinds of pieces. */
static const char *const family_letters[TS_FAM_COUNT] = {
    [TS_FAM_SET] = "S", [TS_FAM_PLAYING] = "P", [TS_FAM_GOF] = "G",
    [TS_FAM_QWIRKLE] = "QT", [TS_FAM_DOMINO] = "DW",
};

ts_auto_family *ts_auto_family_create(const char *models_dir, char *err, size_t errlen)
{
    char path[1024];
    ts_model_path(models_dir, "family.tsnet", path, sizeof path);
    ts_auto_family *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    a->net = tscv_net_load(path, err, errlen);
    if (!a->net) {
        free(a);
        return NULL;
    }
    const tscv_net_info *info = tscv_net_get_info(a->net);
    if (info->noutputs != 1 || info->in_c != 3) {
        snprintf(err, errlen, "%s: not a card-family net (one head, colour input)", path);
        ts_auto_family_destroy(a);
        return NULL;
    }
    a->nclass = info->out[0].nclass;
    for (int f = 0; f < TS_FAM_COUNT; f++)
        for (int k = 0; k < a->nclass; k++)
            a->mine[f][k] = strchr(family_letters[f], info->out[0].letters[k]) != NULL;
    for (int k = 0; k < a->nclass; k++)
        a->nocard[k] = info->out[0].letters[k] == 'X';
    a->probs = malloc(sizeof *a->probs * (size_t)a->nclass * MAX_READINGS * FACE_SAMPLE);
    if (!a->probs) {
        snprintf(err, errlen, "out of memory");
        ts_auto_family_destroy(a);
        return NULL;
    }
    return a;
}

void ts_auto_family_destroy(ts_auto_family *a)
{
    if (!a)
        return;
    tscv_net_destroy(a->net);
    for (int i = 0; i < MAX_READINGS * FACE_SAMPLE; i++)
        ts_image_free(&a->face[i]);
    ts_image_free(&a->ink);
    free(a->probs);
    free(a);
}

/* ---- Which cards count ---------------------------------------------------- */

/* True if quad in lies inside quad out and is clearly smaller: a part of
 * that card (a playing card's pips read as SET symbols, or its halves read
 * as two squat SET cards), not a card. A part may share the card's edges:
 * out is widened by a tenth about its centre for the test; and one corner
 * may lie outside, if its centre does not (a reader's quad over one half
 * of a long Chinese domino card and past its end, read as the playing
 * card 4D: 114016). */
static int inside(const ts_pt in[4], const ts_pt out[4])
{
    ts_pt wide[4];
    ts_quad_scale(out, 1.1f, wide);
    int n = 0;
    for (int k = 0; k < 4; k++)
        n += ts_point_in_quad(wide, in[k].x, in[k].y);
    ts_pt c = ts_quad_centre(in);
    if (n < 3 || !ts_point_in_quad(out, c.x, c.y))
        return 0;
    return ts_quad_area(in) < 0.7 * ts_quad_area(out);
}

/* Whether a quad is no longer than the class's cards (its largest aspect,
 * with some room for a slanted view): a finder may offer longer ones, and
 * a reader judges the content, not the outline. (Not the least aspect: a
 * profile's pieces may be squarer than the cards, as Qwirkle tiles are.) */
static int card_shaped(const ts_reader_class *cls, const ts_pt q[4])
{
    float aspect = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) /
                   (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
    return aspect <= cls->max_aspect * 1.15f;
}

/* The most copies of one card a family's deck holds (a game may shuffle two
 * decks of playing cards together). */
static int deck_copies(int family)
{
    switch (family) {
    case TS_FAM_SET: return 1;
    case TS_FAM_QWIRKLE: return 3;
    default: return 2;
    }
}

/* The most copies of one card a single deck holds. When every reading is
 * only a guess (likeliest_guess), a sure card repeating more copies than
 * one deck holds counts against its reading: two strips of a fan read as
 * one card (a Gang of Four fan's strips read as playing cards QS, QS,
 * rendered 113000; 3D 4D 4D, 111013). A game's second deck, which
 * deck_copies allows, does not outweigh that when no face backs it. */
static int single_deck_copies(int family)
{
    return family == TS_FAM_PLAYING ? 1 : deck_copies(family);
}

/* Sure cards of r before card i that bear its code. */
static int earlier_copies(const ts_frame_result *r, int i)
{
    int same = 0;
    for (int k = 0; k < i; k++)
        same += r->cards[k].read && r->cards[k].code.idx == r->cards[i].code.idx;
    return same;
}

/* True if sure card i of r repeats an earlier sure card's code as often
 * as a single deck holds it. */
static int beyond_one_deck(const ts_frame_result *r, int i)
{
    const ts_card *c = &r->cards[i];
    return c->read && earlier_copies(r, i) >= single_deck_copies(c->code.family);
}

/* What the face net makes of the read cards that hold another reading's
 * cards: big[g][j] = P(reading g's family) of its card j, or -1 when that
 * card holds none. */
typedef float bigs[MAX_READINGS][TS_MAX_CARDS];

/* Sure cards (counted, whatever the net makes of them) that a reading
 * with no card, or one read card's face, does not outweigh: a reader's
 * false sure cards on another family's table come one or two at a time,
 * while in a fan the net misplaces outlines of either deck (a playing
 * fan's three sure cards against two domino faces where the domino
 * reader read nothing, 104006; a Gang of Four fan's five sure strips
 * against its top card, read unsure by the playing reader, that the net
 * calls a playing card at 0.90, 104019). */
enum { MANY_SURE = 3 };

int ts_auto_family_sure_cards(const ts_frame_result *r)
{
    int n = 0;
    for (int i = 0; i < r->ncards; i++)
        n += r->cards[i].read;
    return n;
}

/* The sure cards of r its deck can hold: copies of a card beyond
 * deck_copies are no cards of that deck (a SET reader's "1RSS" on five
 * Gang of Four indices, numeral over a square: rendered 122001). */
static int deck_sure_cards(const ts_frame_result *r)
{
    int n = 0;
    for (int i = 0; i < r->ncards; i++)
        n += r->cards[i].read && earlier_copies(r, i) < deck_copies(r->cards[i].code.family);
    return n;
}

/* Whether reading big_r, which holds sure card big around card c of
 * reading r, is of another family and has MANY_SURE sure cards and more
 * than r: a reader's false sure cards come one or two at a time, so its
 * card holds c as a part though the face net does not place it (a Gang
 * of Four fan's five sure corners, none of which the net places, one of
 * them around the one green "squiggle" a SET reader read on its numeral,
 * rendered 111035). */
static int outnumbers(const ts_frame_result *big_r, const ts_frame_result *r,
                      const ts_card *big, const ts_card *c)
{
    int nbig = deck_sure_cards(big_r);
    return big->code.family != c->code.family && nbig >= MANY_SURE && nbig > deck_sure_cards(r);
}

/* True if card c of reading f lies inside a read card of another reading
 * that looks like its family, or whose reading outnumbers f's (see
 * outnumbers): cards do not lie inside cards, so it is a part of a larger
 * card (a playing card's pips read as SET symbols). A "card" that does
 * not look like one (a whole table read as a playing card), read alone or
 * among few, holds nothing. */
static int part_of_other(const ts_frame_result *trial, int n, int f, const ts_card *c,
                         bigs big_face)
{
    const ts_frame_result *a = &trial[f];
    for (int g = 0; g < n; g++)
        for (int j = 0; g != f && j < trial[g].ncards; j++) {
            const ts_card *big = &trial[g].cards[j];
            if (!big->read || !inside(c->quad, big->quad) ||
                (big_face[g][j] < 0.2f && !outnumbers(&trial[g], a, big, c)))
                continue;
            /* A card holds a few such parts; one "card" around many
             * cards is itself the false reading (a whole frame), unless
             * its reader is sure of it and they cover little of it (a
             * court card's print read as Qwirkle tiles; cards laid out
             * cover much of the "card" around them). */
            int held = 0;
            double covered = 0;
            for (int k = 0; k < a->ncards; k++)
                if (a->cards[k].read && inside(a->cards[k].quad, big->quad)) {
                    held++;
                    covered += ts_quad_area(a->cards[k].quad);
                }
            if (held <= 3 || (big->conf >= 0.9f && covered < 0.3 * ts_quad_area(big->quad)))
                return 1;
        }
    return 0;
}

/* How a card of a reading counts: 0 left out (a part of another reading's
 * card, an unsure one longer than the family's cards), 1 sure, -1 unsure,
 * LONG_SURE a sure one longer than the family's cards: it counts only if
 * the face net, which sees it warped to a card's shape, places it in the
 * family (a frame stretched to another shape, as a webcam's 16:9 picture
 * squeezed to a square, makes every card longer than it is). More copies
 * of one card than a deck holds are not that deck's cards (one playing
 * card's four red diamonds read as four SET cards "1RDS"): the extra ones
 * count as unsure, COPY, however sure their reader was (see UNSURE_CARD). */
enum { LONG_SURE = 2, COPY = -2 };
static int counts(const ts_frame_result *trial, const ts_reader_class *const *cls, int n, int f,
                  int i, bigs big_face)
{
    const ts_frame_result *a = &trial[f];
    const ts_card *c = &a->cards[i];
    if (part_of_other(trial, n, f, c, big_face))
        return 0;
    int shaped = card_shaped(cls[f], c->quad);
    if (!c->read)
        return shaped ? -1 : 0;
    if (earlier_copies(a, i) >= deck_copies(c->code.family))
        return shaped ? COPY : 0;
    return shaped ? 1 : LONG_SURE;
}

/* How particular a family's reading is: what its reader needs to see
 * before it says "card". A playing card's corner index (rank over suit, in
 * two corners) is seldom seen on another card; Gang of Four's index is a
 * numeral over a dot, which a playing card's index also shows; domino pips
 * are dots in two halves; a SET card is coloured shapes on white, which a
 * playing card's pips or index also make; the Qwirkle reader measures one
 * coloured symbol on a field, which a SET card with one shape also shows.
 * Two readings that explain a frame equally well go to the more particular
 * one. */
static int specific(int family)
{
    switch (family) {
    case TS_FAM_PLAYING: return 4;
    case TS_FAM_GOF: return 3;
    case TS_FAM_DOMINO: return 2;
    case TS_FAM_SET: return 1;
    default: return 0;
    }
}

/* How much a reading tells when the face net backs no reading and places
 * no face (a held playing card it cannot place, against another reader's
 * "card" in the room that it calls no card): each reading is then only a
 * guess, and the guess of the family whose marks the others' cards do not
 * show is taken (specific: a SET or Qwirkle reader is sure of a playing
 * card's pips, not the reverse). Gang of Four and playing cards rank
 * equal here: each reader reads the other's corner index (a Gang of Four
 * fan's strips read as playing cards). */
static int guess_rank(int family)
{
    return family == TS_FAM_GOF ? specific(TS_FAM_PLAYING) : specific(family);
}

/* A sure card the net is this sure is no card at all (a part of a card, a
 * fan's strip, a table's pattern) counts NONE_VALUE, not 1: the reader saw
 * its marks, the net sees no card around them. Only a clear "no card":
 * a real card the net cannot place (a hand over it) keeps the reader's
 * word. */
#define NONE_SURE 0.9
#define NONE_VALUE 0.5
/* The same for a sure card the net is as sure is not of the reading's
 * family, split between no card and other families (a fan's strips read as
 * SET shapes that look half like a strip, half like another deck's card). */
#define NOT_MINE (1 - NONE_SURE)
/* A sure card the net places in the reading's own family this surely
 * counts twice: reader and face agree. Then a fan's top card, read by its
 * own family and recognised whole, outweighs another family's readings of
 * the strips under it, which the net cannot place (a Gang of Four fan's
 * corner indices read as playing cards; a domino fan's pips as SET
 * shapes). (0.9 until session 13: the net taught whole frames too is a
 * little less sure of a fan's top card, 0.89 on playing fan 92015.) */
#define AGREE_P 0.85
/* A reader's confidence in an unsure card from which on it is likelier
 * its family's card than not: it does not count against its reading. */
#define UNSURE_CARD 0.5
/* P(a family) that makes a face count for it (a candidate's vote, a read
 * card's face for its reading). */
#define VOTE_P 0.7
/* How much surer, in the mean P(its family) of its counted cards, the face
 * net must be of one of two near-equal readings to decide between them. */
#define FACE_TIE 0.5

/* ---- Inks a playing card does not print ------------------------------------ */

/* A playing card's pips and indices from ace to ten are printed in red or
 * black. A sure one whose coloured ink is mostly yellow or green is another
 * deck's card, whatever its reader made of the marks (a Gang of Four fan's
 * green 3 and its dot read as 3S, rendered 87038; its yellow 1 and 3 as 7D,
 * 115020). Courts are left out: their robes are yellow and blue. Inks are
 * judged against the card's own paper (the brightest fifth of its pixels),
 * so a warm or cold light does not tint them; yellow starts at 40 degrees,
 * past skin (15-40: fingers holding a card to a webcam), and green ends
 * before blue (170). At least ALIEN_MIN of the card must be such ink, on
 * paper at least PAPER_MIN bright: a dim webcam's noise has any hue. On
 * the 612 shared playing photos no sure card from ace to ten has such ink
 * (one had, a club on paper at 45 in a dark green-lit webcam frame); of
 * 1896 on the rendered playing tables 121000-129041 (six ranges) the most
 * is 11 pixels of 1536 (0.7%, 128030). 1%, not 2% (until session 29): a
 * Gang of Four fan's strips read 7D over a red 1 and a yellow 2 show 17
 * (1.1%, 129017). */
#define ALIEN_SHARE 0.5
#define ALIEN_MIN 0.01
#define PAPER_MIN 80.0
enum { INK_W = 32, INK_H = 48, PLAYING_TEN = 9 /* rank index of the ten */ };

/* The hue (degrees) of a colour c[3] (BGR, any scale), chroma in *chroma. */
static double hue_of(const double c[3], double *chroma)
{
    double b = c[0], g = c[1], r = c[2];
    double mx = fmax(r, fmax(g, b)), mn = fmin(r, fmin(g, b));
    *chroma = mx - mn;
    if (*chroma <= 0)
        return 0;
    double h = mx == r ? fmod((g - b) / *chroma, 6.0) : mx == g ? (b - r) / *chroma + 2
                                                                  : (r - g) / *chroma + 4;
    h *= 60;
    return h < 0 ? h + 360 : h;
}

/* The mean colour of warp w's brightest fifth (its paper) into paper[3]. */
static void paper_of(const ts_image *w, double paper[3])
{
    int n = w->w * w->h, hist[3 * 255 + 1] = {0}, cut, seen = 0, np = 0;
    for (int y = 0; y < w->h; y++)
        for (int x = 0; x < w->w; x++) {
            const uint8_t *p = w->buf + (size_t)y * w->stride + 3 * x;
            hist[p[0] + p[1] + p[2]]++;
        }
    for (cut = 3 * 255; cut > 0 && (seen += hist[cut]) < n / 5; cut--)
        ;
    paper[0] = paper[1] = paper[2] = 0;
    for (int y = 0; y < w->h; y++)
        for (int x = 0; x < w->w; x++) {
            const uint8_t *p = w->buf + (size_t)y * w->stride + 3 * x;
            if (p[0] + p[1] + p[2] < cut)
                continue;
            for (int c = 0; c < 3; c++)
                paper[c] += p[c];
            np++;
        }
    for (int c = 0; c < 3; c++)
        paper[c] /= np ? np : 1;
}

/* Coloured ink of warp w, each pixel divided by the paper's colour (see
 * paper_of): ink is a tenth of the paper dark in some channel, coloured
 * when its channels spread 0.35 of the paper's. Returns how many such
 * pixels have a hue in [lo, hi) degrees, all of them in *inked; -1 when
 * the paper is too dark to tell (PAPER_MIN). */
static int ink_in_hues(const ts_image *w, double lo, double hi, int *inked)
{
    double paper[3];
    paper_of(w, paper);
    if ((paper[0] + paper[1] + paper[2]) / 3 < PAPER_MIN)
        return -1;
    int in = 0;
    *inked = 0;
    for (int y = 0; y < w->h; y++)
        for (int x = 0; x < w->w; x++) {
            const uint8_t *p = w->buf + (size_t)y * w->stride + 3 * x;
            double v[3], chroma;
            for (int c = 0; c < 3; c++)
                v[c] = p[c] / fmax(paper[c], 1.0);
            if (fmin(v[0], fmin(v[1], v[2])) >= 0.6)
                continue; /* paper, or too faint to tell */
            double h = hue_of(v, &chroma);
            if (chroma < 0.35)
                continue; /* black or grey */
            (*inked)++;
            in += h >= lo && h < hi;
        }
    return in;
}

/* Whether warp w's coloured ink is mostly of a hue in [lo, hi) degrees
 * (see ALIEN_SHARE, ALIEN_MIN). */
static int mostly_ink_in(const ts_image *w, double lo, double hi)
{
    int inked, in = ink_in_hues(w, lo, hi, &inked);
    return in >= 0 && in >= ALIEN_MIN * w->w * w->h && in >= ALIEN_SHARE * inked;
}

/* Whether a warped card's coloured ink is mostly yellow or green. */
static int yellow_green_ink(const ts_image *w)
{
    return mostly_ink_in(w, 40, 170);
}

/* The hues of a Gang of Four card's green and yellow inks (colour heads 0
 * and 1, gof.h), each band wide: their absence counts, and their being
 * most of a card's coloured ink (gof_inks). */
static const double GOF_HUES[2][2] = {{70, 170}, {30, 75}};
/* A green or yellow Gang of Four card shows at least this share of its
 * warp in its colour (a pixel or two: on a fan's strip a thin 1 or a 4
 * half hidden shows 4-5 pixels of 1536, rendered 115030 and 117032; the
 * clubs of a playing table read G4, 87018, none). */
#define OWN_INK_MIN 0.001

/* Whether card c, a sure green or yellow Gang of Four card (a phoenix
 * too), shows none of its colour's ink (OWN_INK_MIN): the marks its reader
 * read are another deck's, printed in red and black (a playing table's
 * clubs read G4 twice, rendered 87018). The reverse of a playing card's
 * alien inks. */
static int missing_gof_ink(const ts_image *w, int col)
{
    int inked, own = ink_in_hues(w, GOF_HUES[col][0], GOF_HUES[col][1], &inked);
    return own >= 0 && own < OWN_INK_MIN * w->w * w->h;
}

/* What a read card's inks say of its family (alien_ink). */
enum { INK_SILENT = 0, INK_ALIEN = 1, INK_OWN = 2 };

/* What the inks of sure Gang of Four card c (warp w) say: INK_ALIEN
 * when a green or yellow one shows none of its colour (missing_gof_ink),
 * INK_OWN when that colour is most of its coloured ink: no playing card
 * from ace to ten prints it, so the face net's word that the face is a
 * playing card is a misplaced outline (a Gang of Four fan's top card
 * read at its index, the reader's quad a third short of the card, rendered
 * 128012 and 128029). Red cards' inks say nothing: playing cards print
 * red too. */
static int gof_inks(const ts_image *w, const ts_card *c)
{
    int num, col;
    if (ts_gof_labels(c->code.idx, &num, &col) < 0 || col > 1)
        return INK_SILENT;
    if (missing_gof_ink(w, col))
        return INK_ALIEN;
    return mostly_ink_in(w, GOF_HUES[col][0], GOF_HUES[col][1]) ? INK_OWN : INK_SILENT;
}

/* What the inks of card c say (INK_*): a sure playing card from ace to
 * ten showing another deck's inks (yellow_green_ink) is INK_ALIEN, and a
 * sure Gang of Four card as gof_inks says; the middle nine tenths of its
 * quad are looked at (its edges may lie on the table). -1 on error. */
static int alien_ink(ts_auto_family *a, const ts_image *frame, const ts_card *c, char *err)
{
    int playing = c->code.family == TS_FAM_PLAYING && c->code.idx % 13 <= PLAYING_TEN;
    if (!c->read || (!playing && c->code.family != TS_FAM_GOF))
        return INK_SILENT;
    ts_pt in[4];
    ts_quad_scale(c->quad, 0.9f, in);
    if (tscv_warp_quad(frame, in, &a->ink, INK_W, INK_H, err) < 0)
        return -1;
    if (!playing)
        return gof_inks(&a->ink, c);
    return yellow_green_ink(&a->ink) ? INK_ALIEN : INK_SILENT;
}

/* ---- Choosing ------------------------------------------------------------- */

/* P(family f) of face k of the net's last batch: its pieces' summed P. */
static double family_p(const ts_auto_family *a, int k, int f)
{
    const float *pk = &a->probs[(size_t)k * a->nclass];
    double pf = 0;
    for (int c = 0; c < a->nclass; c++)
        pf += a->mine[f][c] ? pk[c] : 0;
    return pf;
}

/* The family face k of the net's last batch is placed in (VOTE_P or more
 * of its P), or -1; that P in *p. */
static int placed_family(const ts_auto_family *a, int k, double *p)
{
    for (int f = 0; f < TS_FAM_COUNT; f++)
        if ((*p = family_p(a, k, f)) >= VOTE_P)
            return f;
    return -1;
}

/* P(family fam[k]) of card c[k]'s face for k < n, n at most
 * MAX_READINGS * FACE_SAMPLE, and (other, none: may be NULL) P(another
 * family's card) and P(no card). Returns 0 or -1 with err. */
static int faces(ts_auto_family *a, const ts_image *frame, const ts_card *const *c,
                 const int *fam, int n, double *p, double *other, double *none, char *err)
{
    for (int k = 0; k < n; k++)
        if (tscv_warp_quad(frame, c[k]->quad, &a->face[k], FACE_W, FACE_H, err) < 0)
            return -1;
    if (n && tscv_net_run(a->net, a->face, n, a->probs, err) < 0)
        return -1;
    for (int k = 0; k < n; k++) {
        p[k] = 0;
        double o = 0, x = 0;
        for (int c = 0; c < a->nclass; c++) {
            double pc = a->probs[(size_t)k * a->nclass + c];
            if (a->mine[fam[k]][c])
                p[k] += pc;
            else if (!a->nocard[c])
                o += pc;
            else
                x += pc;
        }
        if (other)
            other[k] = o;
        if (none)
            none[k] = x;
    }
    return 0;
}

/* Fills big_face (see bigs): the read cards with another reading's card
 * inside them, as many as one batch of the net takes (the rest, if ever,
 * count as not looking like a card). */
static int measure_bigs(ts_auto_family *a, const ts_image *frame,
                        const ts_reader_class *const *cls, const ts_frame_result *r, int n,
                        bigs big_face, char *err)
{
    enum { MAX_BIGS = MAX_READINGS * FACE_SAMPLE };
    const ts_card *q[MAX_BIGS] = {0};
    int fam[MAX_BIGS] = {0}, at[MAX_BIGS][2], nb = 0;
    for (int g = 0; g < n; g++)
        for (int j = 0; j < r[g].ncards; j++) {
            big_face[g][j] = -1;
            if (!r[g].cards[j].read || nb == MAX_BIGS)
                continue;
            int holds = 0;
            for (int f = 0; f < n && !holds; f++)
                for (int i = 0; f != g && i < r[f].ncards && !holds; i++)
                    holds = inside(r[f].cards[i].quad, r[g].cards[j].quad);
            if (holds) {
                q[nb] = &r[g].cards[j];
                fam[nb] = cls[g]->family;
                at[nb][0] = g, at[nb][1] = j;
                nb++;
            }
        }
    double p[MAX_BIGS];
    if (faces(a, frame, q, fam, nb, p, NULL, NULL, err) < 0)
        return -1;
    for (int k = 0; k < nb; k++)
        big_face[at[k][0]][at[k][1]] = (float)p[k];
    return 0;
}

/* ---- The frame's own evidence ------------------------------------------- */

/* Finders' candidates the face net looks at, told apart by overlap (a few
 * from each finder: its best first). */
enum { MAX_VOTERS = 48 }; /* and the whole frame */
/* A choice the readings make with no more than this score (no more sure
 * cards than unsure ones), or with no sure card the net accepts (each one
 * it calls no card or another family's: a false card in a room or on a
 * hand), is weak: then the candidates' faces may decide. Otherwise the
 * readers' own marks outweigh a face net that errs on other finders'
 * outlines (halves of cards, two cards as one) and on real photos it never
 * saw (a hand over a card, a phone's clutter). */
#define WEAK_SCORE 0.0
/* Faces another family needs against a weak reading (one is enough when
 * no reading has a card at all, or the chosen one has no sure card the
 * net accepts and either no sure card at all or the whole frame among the
 * faces: one finder's outline the net misplaces, a table's pattern, does
 * not outweigh a reader's sure cards; a whole frame showing a held-up or
 * close-up card does). */
enum { VOTE_MIN = 2 };

/* A candidate with a corner this near the frame's edge, or past it, is
 * cut by the frame: what the net sees of it past the edge is the edge's
 * pixels drawn out, so its face does not vote (a dark stripe of a cloth
 * cut by the frame's top, its outline closed along the edge, looks like
 * a Qwirkle card: gof 115030). */
#define EDGE_PX 3.0f

/* A read card's face the net places in a family, fam, with P(fam) p. */
typedef struct {
    ts_quad at;
    int fam;
    double p;
} read_face;

/* Whether one of r's sure cards lies at at (see ts_quad_overlap). */
static int on_sure_card(const ts_frame_result *r, const ts_quad *at)
{
    for (int i = 0; i < r->ncards; i++) {
        ts_quad q = {0};
        memcpy(q.q, r->cards[i].quad, sizeof q.q);
        if (r->cards[i].read && ts_quad_overlap(&q, at))
            return 1;
    }
    return 0;
}

/* Where read cards lie that count as parts of other readings' cards (see
 * part_of_other): a candidate there is that part's outline, no card, and
 * does not vote (a Gang of Four numeral's outline the net calls a SET
 * card, rendered 111035). */
typedef struct {
    ts_quad at[MAX_READINGS * FACE_SAMPLE];
    int n;
} parts;

/* Fills part with the read cards how[f][i] leaves out (counts: 0): parts
 * of other readings' cards (and copies beyond a deck longer than the
 * family's cards). */
static void find_parts(const ts_frame_result *readings, int n,
                       const signed char how[][TS_MAX_CARDS], parts *part)
{
    part->n = 0;
    for (int f = 0; f < n; f++)
        for (int i = 0; i < readings[f].ncards; i++)
            if (readings[f].cards[i].read && !how[f][i] &&
                part->n < MAX_READINGS * FACE_SAMPLE)
                memcpy(part->at[part->n++].q, readings[f].cards[i].quad, sizeof(ts_pt[4]));
}

/* Whether candidate q outlines part p: each holds the other's centre and
 * q is no larger than a card p is a part of (see inside): the card around
 * the part is no outline of it. */
static int outlines_part(const ts_quad *p, const ts_quad *q)
{
    ts_pt cp = ts_quad_centre(p->q), cq = ts_quad_centre(q->q);
    return ts_point_in_quad(p->q, cq.x, cq.y) && ts_point_in_quad(q->q, cp.x, cp.y) &&
           0.7 * ts_quad_area(q->q) < ts_quad_area(p->q);
}

/* What vote() notes beside the counts, per family: a candidate's face the
 * net places there clearly (AGREE_P; clear_at the first), and how many of
 * the votes are faces on a sure card of the chosen reading (on_chosen). */
typedef struct {
    int clear[TS_FAM_COUNT];
    ts_quad clear_at[TS_FAM_COUNT];
    int on_chosen[TS_FAM_COUNT];
} face_notes;

/* Counts per family the distinct candidates whose face the net places in
 * it, the read cards' faces it places there (read[0..nread): a place no
 * candidate's face placed in that family, as a playing card another
 * family's reader read, which a striped cloth hides from every finder),
 * and the whole frame's (a photo of one card filling it has no
 * background for a finder to find it by): the frame as it stands and
 * turned a quarter (a card lying across a square photo), one vote for
 * a family either way places in it, frame_p its P; notes as above
 * (chosen: the chosen reading, or NULL). Returns 0 or -1 with err. */
static int vote(ts_auto_family *a, const ts_image *frame, const ts_quad *cand, int ncand,
                const read_face *read, int nread, const parts *part, int votes[TS_FAM_COUNT],
                double weight[TS_FAM_COUNT], int whole[TS_FAM_COUNT],
                double frame_p[TS_FAM_COUNT], const ts_frame_result *chosen,
                face_notes *notes, char *err)
{
    const ts_quad *v[MAX_VOTERS + 2];
    int nv = 0, vfam[MAX_VOTERS];
    for (int f = 0; f < TS_FAM_COUNT; f++)
        votes[f] = 0, weight[f] = 0;
    for (int i = 0; i < ncand && nv < MAX_VOTERS; i++) {
        int seen = !ts_quad_in_frame(cand[i].q, frame->w, frame->h, -EDGE_PX);
        for (int k = 0; k < part->n && !seen; k++)
            seen = outlines_part(&part->at[k], &cand[i]);
        for (int k = 0; k < nv && !seen; k++)
            seen = ts_quad_overlap(v[k], &cand[i]);
        if (!seen)
            v[nv++] = &cand[i];
    }
    float W = (float)frame->w, H = (float)frame->h;
    ts_quad upright = {.q = {{0, 0}, {W, 0}, {W, H}, {0, H}}, .area = W * H};
    ts_quad across = {.q = {{0, H}, {0, 0}, {W, 0}, {W, H}}, .area = W * H};
    v[nv++] = &upright;
    v[nv++] = &across;
    for (int k = 0; k < nv; k++)
        if (tscv_warp_quad(frame, v[k]->q, &a->face[k], FACE_W, FACE_H, err) < 0)
            return -1;
    if (tscv_net_run(a->net, a->face, nv, a->probs, err) < 0)
        return -1;
    for (int f = 0; f < TS_FAM_COUNT; f++)
        frame_p[f] = 0, notes->clear[f] = 0, notes->on_chosen[f] = 0;
    for (int k = 0; k < nv; k++) {
        if (k >= nv - 2) {
            for (int f = 0; f < TS_FAM_COUNT; f++)
                frame_p[f] = fmax(frame_p[f], family_p(a, k, f));
            continue;
        }
        double pf;
        vfam[k] = placed_family(a, k, &pf);
        if (vfam[k] < 0)
            continue;
        votes[vfam[k]]++, weight[vfam[k]] += pf;
        notes->on_chosen[vfam[k]] += chosen && on_sure_card(chosen, v[k]);
        if (pf >= AGREE_P && !notes->clear[vfam[k]])
            notes->clear[vfam[k]] = 1, notes->clear_at[vfam[k]] = *v[k];
    }
    for (int i = 0; i < nread; i++) {
        int seen = 0;
        for (int k = 0; k < nv - 2 && !seen; k++)
            seen = vfam[k] == read[i].fam && ts_quad_overlap(v[k], &read[i].at);
        for (int j = 0; j < i && !seen; j++)
            seen = read[j].fam == read[i].fam && ts_quad_overlap(&read[j].at, &read[i].at);
        if (seen)
            continue;
        votes[read[i].fam]++, weight[read[i].fam] += read[i].p;
        notes->on_chosen[read[i].fam] += chosen && on_sure_card(chosen, &read[i].at);
    }
    for (int f = 0; f < TS_FAM_COUNT; f++) {
        whole[f] = frame_p[f] >= VOTE_P;
        if (whole[f])
            votes[f]++, weight[f] += frame_p[f];
    }
    return 0;
}

/* The family the candidates' faces say against the readings' weak choice
 * chosen (-1: none), or -1 when they do not overrule it: it must be the
 * one family with the most faces (VOTE_MIN of them against a reading with
 * a sure card the net accepts, chosen_backed, or with sure cards,
 * chosen_sure, unless a strong face is among them: the whole frame, or,
 * against fewer than MANY_SURE sure cards the net places in no other
 * family, a card its family's reader read and the net clearly places
 * there, a playing card the reader was unsure of; nor when a clear face
 * is among them, even against backed cards: a candidate the net clearly
 * places where its family's reader read a sure card; equal counts go to
 * the surer faces, summed weight, if clearly surer), and the chosen family
 * must have none, among the candidates or the chosen reading's own cards
 * (own_faces: an unsure card the net places in its family, which no
 * finder's first outlines hold), unless the chosen reading has no sure
 * card that counts (chosen_sure false): then the faces alone decide, the
 * chosen family's as any other's (a Chinese domino fan's strip the net
 * places at 1.00 against one at 0.79 it calls a playing card, where the
 * playing reader read one unsure card and the domino reader none: 115020). */
static int overruling_family(const int votes[TS_FAM_COUNT], const double weight[TS_FAM_COUNT],
                             const int strong[TS_FAM_COUNT], const int clear[TS_FAM_COUNT],
                             int chosen, int chosen_backed, int chosen_sure, int own_faces)
{
    int top = 0, ties = 0;
    for (int f = 1; f < TS_FAM_COUNT; f++)
        if (votes[f] > votes[top] || (votes[f] == votes[top] && weight[f] > weight[top]))
            top = f;
    for (int f = 0; f < TS_FAM_COUNT; f++)
        ties += f != top && votes[f] == votes[top] && weight[top] - weight[f] < 0.05;
    int need = chosen >= 0 && !clear[top] && (chosen_backed || (chosen_sure && !strong[top]))
                   ? VOTE_MIN
                   : 1;
    if (top == chosen || ties || votes[top] < need ||
        (chosen >= 0 && chosen_sure && votes[chosen] + own_faces > 0))
        return -1;
    return top;
}

/* Whether the face net places any face (candidate, the whole frame,
 * another reading's card) in some family. */
static int any_face(const int votes[TS_FAM_COUNT])
{
    for (int f = 0; f < TS_FAM_COUNT; f++)
        if (votes[f])
            return 1;
    return 0;
}

/* Whether two readings' summed confidences (conf: each card's, less its
 * P(another family)) are too close to call one the surer: within a
 * fiftieth a counted card of the one, counted. */
static int conf_tie(double a, double b, int counted)
{
    return fabs(a - b) < 0.02 * (counted > 1 ? counted : 1);
}

/* The reading taken when no reading has a sure card the face net accepts
 * and no face speaks for the chosen one (see guess_rank): the one of the
 * highest rank with a counted card, then the one with more sure cards
 * (sure: those beyond one deck's copies not counted, nor those the net
 * or their inks give another family: a playing reader's five sure indexes
 * on a Gang of Four fan, four of them on green or yellow numerals, against
 * its own reader's four, rendered 126014) (a Gang of Four
 * fan's one sure card and four unsure ones on its strips, score -3.5,
 * against a playing reader's one unsure card there, -1: 109019; a Gang of
 * Four fan's two sure cards and one unsure, score 0, against a playing
 * reader's one sure strip, 0.5: 114040), then the higher score (score: its sure cards
 * beyond one deck's copies against it, see single_deck_copies), then, as near
 * ties are broken in the choice itself, the surer reading (conf, its
 * summed confidence as weighed there: a Gang of Four fan's three sure
 * cards against a playing reader's one on it, 87022), then the more
 * particular family; or best as it is when some reading is backed. */
static int likeliest_guess(const ts_reader_class *const *cls, const ts_frame_result *readings,
                           int n, const int *counted, const int *sure, const double *score,
                           const double *conf, const int *backed, int best)
{
    for (int f = 0; f < n; f++)
        if (backed[f])
            return best;
    for (int f = 0; f < n; f++) {
        if (!readings[f].ncards || !counted[f])
            continue;
        int ff = cls[f]->family, fb = cls[best]->family;
        int rf = guess_rank(ff), rb = guess_rank(fb);
        int tie = conf_tie(conf[f], conf[best], counted[f]);
        if (rf > rb || (rf == rb && sure[f] > sure[best]) ||
            (rf == rb && sure[f] == sure[best] && (score[f] > score[best] ||
                          (score[f] == score[best] &&
                           ((!tie && conf[f] > conf[best]) ||
                            (tie && specific(ff) > specific(fb)))))))
            best = f;
    }
    return best;
}

/* The reading taken instead of the chosen one, best, when none of its
 * sure cards is backed and no face speaks for it: the best scoring one
 * with a sure card the net accepts, as many sure cards and a family as
 * particular (guess_rank: a Gang of Four fan's three sure cards, one the
 * net accepts, against a Qwirkle reader's one on a strip that it calls no
 * card, 87017; not a Qwirkle reader's four on a playing fan, one of which
 * the net half accepts, against the playing reader's three, 87032), or
 * -1. Not one more of whose sure cards show another family's card (its
 * face or inks: claimed) than the net accepts: that family's cards lie
 * there, and the one card accepted is a misread of them too (a playing
 * reader's 7D on a Gang of Four fan's red 7, beside its 9S and 7S on
 * green numerals, rendered 127027). */
static int backed_instead(const ts_reader_class *const *cls, int n, const double *score,
                          const int *backed, const int *claimed, const int *sure, int best)
{
    int bb = -1, rank = guess_rank(cls[best]->family);
    for (int f = 0; f < n; f++)
        if (backed[f] && claimed[f] <= backed[f] && sure[f] >= sure[best] &&
            guess_rank(cls[f]->family) >= rank && (bb < 0 || score[f] > score[bb]))
            bb = f;
    return bb;
}

/* Whether sure cards of r repeat one code more often than its family's
 * deck holds it: at least one of them is a misread. */
static int repeats_beyond_deck(const ts_frame_result *r)
{
    for (int i = 0; i < r->ncards; i++)
        if (r->cards[i].read && earlier_copies(r, i) >= deck_copies(r->cards[i].code.family))
            return 1;
    return 0;
}

/* Whether a reading of family fam has a sure card at at, and no more
 * copies of a card than the deck holds: a reader that reads one card
 * twice reads a pattern (two SET cards 1PSS on a Gang of Four fan's
 * strips, the net sure of one at 0.94: 117032), not cards. */
static int read_there(const ts_reader_class *const *cls, const ts_frame_result *readings, int n,
                      int fam, const ts_quad *at)
{
    for (int f = 0; f < n; f++)
        if ((int)cls[f]->family == fam && on_sure_card(&readings[f], at) &&
            !repeats_beyond_deck(&readings[f]))
            return 1;
    return 0;
}

/* The faces of the read cards q[0..n) (families fam: the net's last
 * batch) that it places in another family than their reader's, as votes
 * for that family (see vote): a card lies there that its own family's
 * reader missed. (A reading's faces of its own family are counted apart:
 * many of one reader's outlines in a court card's print may look like
 * its pieces.) Returns how many are in out. */
static int read_faces(const ts_auto_family *a, const ts_card *const *q, const int *fam, int n,
                      read_face *out)
{
    int nout = 0;
    for (int k = 0; k < n; k++) {
        double p;
        int g = placed_family(a, k, &p);
        if (g < 0 || g == fam[k])
            continue;
        out[nout] = (read_face){.fam = g, .p = p};
        memcpy(out[nout].at.q, q[k]->quad, sizeof out[nout].at.q);
        nout++;
    }
    return nout;
}

/* A whole frame the net this surely places in one family is one card of it
 * held up or filling a close-up (a webcam-held playing card). */
#define HELD_P 0.8

/* The family other than chosen whose held card the whole frame is (its P,
 * frame_p, at least HELD_P), or -1. A reading none of whose cards the net
 * clearly places in its family gives way to it: its cards are marks on
 * the held card (a spade read as a SET shape, a finger's edge as a blank
 * domino end). */
static int held_card(const double frame_p[TS_FAM_COUNT], int chosen)
{
    if (frame_p[chosen] >= 1 - HELD_P)
        return -1; /* either view may be the chosen family's card */
    for (int f = 0; f < TS_FAM_COUNT; f++)
        if (f != chosen && frame_p[f] >= HELD_P)
            return f;
    return -1;
}

/* The best reading of family fam (the higher score, then more cards), or
 * -1 when no reading is of it. */
static int best_of_family(const ts_reader_class *const *cls, const ts_frame_result *readings,
                          int n, const double *score, int fam)
{
    int b = -1;
    for (int f = 0; f < n; f++) {
        if ((int)cls[f]->family != fam)
            continue;
        if (b < 0 || score[f] > score[b] ||
            (score[f] == score[b] && readings[f].ncards > readings[b].ncards))
            b = f;
    }
    return b;
}

int ts_auto_family_choose(ts_auto_family *a, const ts_image *frame,
                          const ts_reader_class *const *cls, const ts_frame_result *readings,
                          int n, const ts_quad *cand, int ncand, ts_auto_weight *weights,
                          char *err)
{
    if (n > MAX_READINGS)
        n = MAX_READINGS;
    /* Which cards count, and a sample of them for the face net. */
    bigs big_face;
    if (measure_bigs(a, frame, cls, readings, n, big_face, err) < 0)
        return -2;
    signed char how[MAX_READINGS][TS_MAX_CARDS];
    signed char alien[MAX_READINGS][TS_MAX_CARDS]; /* see alien_ink */
    int pick[MAX_READINGS][FACE_SAMPLE], npick[MAX_READINGS], nface = 0;
    int counted[MAX_READINGS], sure[MAX_READINGS]; /* cards counted, the sure ones */
    const ts_card *q[MAX_READINGS * FACE_SAMPLE] = {0};
    int fam[MAX_READINGS * FACE_SAMPLE] = {0};
    for (int f = 0; f < n; f++) {
        const ts_frame_result *r = &readings[f];
        counted[f] = sure[f] = 0;
        for (int i = 0; i < r->ncards; i++) {
            how[f][i] = (signed char)counts(readings, cls, n, f, i, big_face);
            int al = how[f][i] > 0 ? alien_ink(a, frame, &r->cards[i], err) : 0;
            if (al < 0)
                return -2;
            alien[f][i] = (signed char)al;
            counted[f] += how[f][i] != 0;
            sure[f] += how[f][i] > 0;
        }
        /* evenly spread over the counted cards */
        npick[f] = 0;
        for (int i = 0, k = 0; i < r->ncards; i++) {
            if (!how[f][i])
                continue;
            if ((long)k * FACE_SAMPLE / (counted[f] ? counted[f] : 1) >= npick[f] &&
                npick[f] < FACE_SAMPLE) {
                pick[f][npick[f]++] = i;
                q[nface] = &r->cards[i];
                fam[nface++] = cls[f]->family;
            }
            k++;
        }
    }
    double pface[MAX_READINGS * FACE_SAMPLE], pother[MAX_READINGS * FACE_SAMPLE],
        pnone[MAX_READINGS * FACE_SAMPLE];
    if (faces(a, frame, q, fam, nface, pface, pother, pnone, err) < 0)
        return -2;
    double pplaying[MAX_READINGS * FACE_SAMPLE]; /* P(a playing card), for gof_inks */
    for (int k = 0; k < nface; k++)
        pplaying[k] = family_p(a, k, TS_FAM_PLAYING);

    int best = -1;
    double bs = 0, bc = 0, bm = 0, score[MAX_READINGS], sumconf[MAX_READINGS];
    double guess_score[MAX_READINGS]; /* score, repeats beyond one deck against */
    /* sure cards counted, not beyond one deck, not another family's */
    int deck_sure[MAX_READINGS] = {0};
    int own[MAX_READINGS]; /* counted cards the net places in the reading's family */
    int own_agree[MAX_READINGS]; /* those it places there clearly (AGREE_P) */
    double own_p[MAX_READINGS] = {0}; /* their summed P(the family) */
    /* sure cards the net does not call no card, another family's or
     * clearly not this family's (a false card in a room: split between
     * no card and other decks) */
    int backed[MAX_READINGS] = {0};
    int agree[MAX_READINGS] = {0}; /* sure cards the net places in the family (AGREE_P) */
    /* sure cards the net does not place in another family: only these
     * hold a reading against another family's faces (see MANY_SURE) */
    int unclaimed[MAX_READINGS] = {0};
    int claimed[MAX_READINGS] = {0}; /* sure cards the net or their inks give another family */
    int refuted[MAX_READINGS] = {0}; /* counted cards, sure or not, it gives another family */
    /* sure cards and unsure ones likelier right than not, none it gives
     * another family */
    int trusted[MAX_READINGS] = {0};
    for (int f = 0, at = 0; f < n; f++) {
        const ts_frame_result *r = &readings[f];
        int fam = cls[f]->family;
        /* P(this family) and P(another family) of each sampled card; the
         * others at the mean */
        double face[TS_MAX_CARDS], other[TS_MAX_CARDS], none[TS_MAX_CARDS];
        double playing[TS_MAX_CARDS];
        double mean = 0, mother = 0, mnone = 0, mplaying = 0;
        for (int k = 0; k < npick[f]; k++, at++) {
            face[pick[f][k]] = pface[at];
            other[pick[f][k]] = pother[at];
            none[pick[f][k]] = pnone[at];
            playing[pick[f][k]] = pplaying[at];
            mean += pface[at] / npick[f];
            mother += pother[at] / npick[f];
            mnone += pnone[at] / npick[f];
            mplaying += pplaying[at] / npick[f];
        }
        /* A sure card counts unless it looks like another family's card
         * (twice if it clearly looks like this family's); an unsure one
         * counts against unless it looks like this family's, or its
         * reader holds it likelier right than not (UNSURE_CARD) and it
         * does not look like another family's card (a Gang of Four card
         * its views agree is a card but dissent on, capped at 0.6: gof
         * 115030; a playing fan's strips at 0.67-0.82: 115018). A face
         * the net cannot place (a card half in view, a hand over it)
         * leaves the reader's word as it is. */
        double s = 0, conf = 0, guess = 0;
        /* the faces of the sampled cards that count: a long card the net
         * does not place (a fan's strip) says nothing for or against the
         * family in a near tie, as it adds nothing to s */
        double seen_p = 0;
        int nseen = 0;
        own[f] = own_agree[f] = 0;
        for (int i = 0, k = 0; i < r->ncards; i++) {
            if (!how[f][i])
                continue;
            int sampled = k < npick[f] && pick[f][k] == i;
            double p = sampled ? face[i] : mean, o = sampled ? other[i] : mother;
            double x = sampled ? none[i] : mnone;
            double pl = sampled ? playing[i] : mplaying;
            k += sampled;
            int inked_own = alien[f][i] == INK_OWN;
            if (alien[f][i] == INK_ALIEN)
                o = 1; /* another deck's inks: as another family's face */
            else if (inked_own)
                o = fmax(0, o - pl); /* no playing card prints its inks */
            if (how[f][i] == LONG_SURE && (p < AGREE_P || o >= 0.5 || x >= NONE_SURE))
                continue;
            seen_p += sampled ? p : 0;
            nseen += sampled;
            if (p >= VOTE_P)
                own[f]++, own_p[f] += p, own_agree[f] += p >= AGREE_P;
            int likely = r->cards[i].conf >= UNSURE_CARD && o < 0.5 && how[f][i] != COPY;
            double v = how[f][i] < 0                    ? (p >= 0.5 || likely ? 0 : -1)
                       : o >= 0.5                       ? -1
                       : x >= NONE_SURE || p <= NOT_MINE ? NONE_VALUE
                       : p >= AGREE_P                   ? 2
                                                        : 1;
            s += v;
            guess += how[f][i] > 0 && beyond_one_deck(r, i) ? -1 : v;
            deck_sure[f] += how[f][i] > 0 && !beyond_one_deck(r, i) && o < 0.5;
            /* backed: what counts 1 or 2 above, not NONE_VALUE, or its own
             * inks (gof_inks); agree: 2 */
            backed[f] +=
                how[f][i] > 0 && o < 0.5 && ((x < NONE_SURE && p > NOT_MINE) || inked_own);
            agree[f] += how[f][i] > 0 && o < 0.5 && x < NONE_SURE && p >= AGREE_P;
            unclaimed[f] += how[f][i] > 0 && o < 0.5;
            claimed[f] += how[f][i] > 0 && o >= 0.5;
            refuted[f] += o >= 0.5;
            trusted[f] += o < 0.5 && (how[f][i] > 0 || likely);
            conf += r->cards[i].conf * (1 - o);
        }
        /* a reading more of whose sure cards are another family's than
         * not misreads that family's table: its other sure cards are
         * no better a guess (a playing reader's four sure indexes on a
         * Gang of Four fan, three of them on coloured numerals, against
         * its reader's one card at 0.6, rendered 122027) */
        if (claimed[f] > deck_sure[f])
            deck_sure[f] = 0;
        score[f] = s, sumconf[f] = conf, guess_score[f] = guess;
        if (weights)
            weights[f] = (ts_auto_weight){s, conf, mean, counted[f], 0, backed[f], agree[f]};
        if (!r->ncards)
            continue;
        /* near ties go to the reading whose cards look clearly more like
         * its family's, if it has a sure card the net accepts (two
         * families' readers each sure of a few cards: one reader's marks
         * seen on the other's cards), then to the one with more sure cards
         * (a domino fan's top card and a strip against a playing reader's
         * "AH" on the top card's ring, each reader with one card the net
         * agrees with: 114028), then to the surer reading, then to the
         * more particular family (see specific) */
        if (nseen)
            mean = seen_p / nseen;
        int near = fabs(s - bs) < 0.5;
        int looks = best >= 0 && near && fabs(mean - bm) >= FACE_TIE &&
                    (mean > bm ? backed[f] : backed[best]);
        int more = best >= 0 && near && !looks ? sure[f] - sure[best] : 0;
        int tie = near && !looks && !more && conf_tie(conf, bc, counted[f]);
        if (best < 0 || (!near && s > bs) || (looks && mean > bm) || more > 0 ||
            (near && !looks && !more && !tie && conf > bc) ||
            (tie && specific(fam) > specific(cls[best]->family)))
            best = f, bs = s, bc = conf, bm = mean;
    }

    /* What the finders' candidates look like may overrule a weak choice
     * or a thin one, whose sure cards the net does not clearly place in
     * its family (a Gang of Four fan's strips read as playing cards, its
     * top card's face clearly Gang of Four's), and the whole frame a thin
     * one (only then is the net run on them): then the best reading of
     * that family is taken. */
    int thin = best >= 0 && !agree[best];
    if (bs > WEAK_SCORE && best >= 0 && backed[best] && !thin)
        return best;
    read_face read[MAX_READINGS * FACE_SAMPLE];
    int nread = read_faces(a, q, fam, nface, read);
    int votes[TS_FAM_COUNT], whole[TS_FAM_COUNT];
    double vweight[TS_FAM_COUNT], frame_p[TS_FAM_COUNT];
    face_notes notes;
    parts part;
    find_parts(readings, n, how, &part);
    if (vote(a, frame, cand, ncand, read, nread, &part, votes, vweight, whole, frame_p,
             best >= 0 ? &readings[best] : NULL, &notes, err) < 0)
        return -2;
    if (weights)
        for (int f = 0; f < n; f++)
            weights[f].votes = votes[cls[f]->family];
    int held = thin ? held_card(frame_p, cls[best]->family) : -1;
    int held_reading = held >= 0 ? best_of_family(cls, readings, n, score, held) : -1;
    if (held_reading >= 0)
        return held_reading;
    /* Another reading's cards are candidates too: those the net places in
     * their reading's family are its faces (an unsure playing card the
     * net recognises, held in a hand no finder's outline holds). The
     * larger count of a family's faces counts, not both: they may be the
     * same places. */
    int strong[TS_FAM_COUNT];
    memcpy(strong, whole, sizeof strong);
    for (int f = 0; f < n; f++) {
        int g = cls[f]->family;
        if (f != best && own[f] > votes[g])
            votes[g] = own[f], vweight[g] = own_p[f];
        strong[g] |= f != best && own_agree[f] > 0 && (best < 0 || unclaimed[best] < MANY_SURE);
    }
    int chosen = best >= 0 ? (int)cls[best]->family : -1;
    /* A face the net clearly places in a family where that family's
     * reader read a sure card (a fan's top card, whole to a finder and to
     * the net, its corner read by its reader) outweighs, alone, a thin
     * reading's sure cards: reader and net agree on one card there, on
     * none of the thin reading's (a Gang of Four fan's top card at 0.88
     * against a playing reader's two sure cards on its strips, 105013);
     * not MANY_SURE sure cards the net places in no other family, as for
     * strong faces (a Gang of Four fan's five sure index cards, which the
     * net calls strips, against a playing reader's 9D on a red 9's strip
     * that it clearly calls a playing card: 123008). */
    int clear[TS_FAM_COUNT];
    for (int f = 0; f < TS_FAM_COUNT; f++)
        clear[f] = thin && unclaimed[best] < MANY_SURE && notes.clear[f] &&
                   read_there(cls, readings, n, f, &notes.clear_at[f]);
    int over = overruling_family(votes, vweight, strong, clear, chosen, best >= 0 && backed[best],
                                 best >= 0 && score[best] > 0, best >= 0 ? own[best] : 0);
    if (over >= 0) {
        int b = best_of_family(cls, readings, n, score, over);
        /* A reading with no card at all is taken on one face only if it
         * is the whole frame's (a card held up to a webcam), or against a
         * reading whose cards do not count for it (no sure card the net
         * accepts, no score above zero: cards its reader doubts or the net
         * places in another family; Gang of Four's or SET's reader on
         * small webcam-lit playing cards no reader reads, one outline the
         * net calls a playing card, rendered 104024, 107006, 87009): one
         * finder's outline in a fan the readers lose is too little against
         * cards that count, or against VOTE_MIN cards its reader holds
         * likelier right than not when the net gives none of the reading's
         * cards to another family (trusted, refuted: a Gang of Four fan's
         * two cards read at 0.6 against one strip the net calls a Chinese
         * domino card, rendered 125021; on 87009 the net calls the Gang of
         * Four reader's sure card a playing card). Nor on no more
         * faces than the chosen reading's score (a face is one card's
         * evidence): a Gang of Four fan's eight sure cards, read at their
         * corner indices, which the net calls no card (score 3), against
         * two outlines it calls Chinese domino cards where the domino
         * reader read nothing (gof 103034). Nor against MANY_SURE sure
         * cards the net does not place in another family (a Gang of Four
         * reader's four sure cards on a playing table whose finder lost
         * every card, each face the net calls a playing card, give way to
         * them: 119022). Faces on the chosen reading's sure cards do not count
         * here: they are strips of its cards (a playing fan's strips the
         * net calls Chinese domino cards, where the domino reader read
         * nothing, 105020). */
        if (b >= 0 && readings[b].ncards == 0)
            votes[over] -= notes.on_chosen[over];
        if (b >= 0 && readings[b].ncards == 0 && !whole[over] &&
            ((votes[over] < VOTE_MIN && (best < 0 || backed[best] || score[best] > 0 ||
                                         (trusted[best] >= VOTE_MIN && !refuted[best]))) ||
             (best >= 0 && (votes[over] <= score[best] || unclaimed[best] >= MANY_SURE))))
            b = -1;
        if (b >= 0)
            best = b;
        return best;
    }
    int instead = best >= 0 && !backed[best] && votes[chosen] + own[best] == 0
                      ? backed_instead(cls, n, score, backed, claimed, sure, best)
                      : -1;
    if (instead >= 0)
        return instead;
    if (best >= 0 && !any_face(votes) && own[best] == 0)
        best = likeliest_guess(cls, readings, n, counted, deck_sure, guess_score, sumconf,
                               backed, best);
    return best;
}

int ts_auto_family_settled(const ts_auto_weight *w)
{
    return w->agree >= MANY_SURE && w->score >= 2 * MANY_SURE;
}

int ts_auto_family_may_settle(const ts_frame_result *r)
{
    return ts_auto_family_sure_cards(r) >= MANY_SURE;
}
