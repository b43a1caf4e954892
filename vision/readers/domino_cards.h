/* Finding Chinese domino cards by their pips.
 *
 * The cards are long and narrow, lie edge to edge in rows, fanned and
 * overlapped, often on patterned cloth: a white-blob detector merges them or
 * loses them. What every deck prints, whatever its maker, is pips: round
 * dark or red blobs on white paper, in a group near each end. So the finder
 * looks for pips (compact ink with paper all round), and from each pip casts
 * rays over the paper, where the pips themselves are see-through: the
 * shortest chord through a pip runs across the card (its width and short
 * axis), and rays along the card from the middle of that chord, on three
 * lines clear of any pip or middle picture, find its ends. A card whose far
 * end is covered (a fanned hand, a pile) is given the deck's length from the
 * end its pips show, and the reader then reads the ends that show.
 *
 * Nothing here depends on a printed outline, a waist or a picture between
 * the ends: decks differ there.
 */
#ifndef TS_DOMINO_CARDS_H
#define TS_DOMINO_CARDS_H

#include "detect.h"
#include "image.h"

typedef struct domino_card_finder domino_card_finder;

/* Returns a finder (caller destroys) or NULL if out of memory. */
domino_card_finder *domino_card_finder_create(void);
void domino_card_finder_destroy(domino_card_finder *f);

/* Card quads (clockwise, q[0]-q[1] a short side), cards seen whole first.
 * Returns the count (<= max) or -1 with err (TSCV_ERR_MAX). */
int domino_find_cards(domino_card_finder *f, const ts_image *frame, ts_quad *out, int max,
                      char *err);

/* True if the i-th quad the last domino_find_cards returned is a card found
 * whole (both ends where a card's would be). */
int domino_found_whole(const domino_card_finder *f, int i);

/* Cards partly under the cards known[0..nk) (found and read): the last
 * frame's pips that lie on none of them, each looked at again with the
 * known cards' outlines as edges (a card lying on another shows its own
 * edge over it, often faintly). Returns the quads found (<= max), as
 * domino_find_cards gives them. */
int domino_find_under(domino_card_finder *f, const ts_quad *known, int nk, ts_quad *out, int max);
/* Cards laid edge to edge with the cards known[0..nk) (a touching row or
 * block, whose paper runs on across the seams unseen): the last frame's pips
 * on none of them, each looked at again at the frame's card width across
 * the way the nearest known card lies, the known cards' outlines as edges,
 * then its sides and ends moved to the edges that show in frame (the
 * outlines lie a little over the seams); then the known cards moved by
 * their own width or length where pips on no known card show at both ends
 * of the moved card (seams too faint for any ray). Returns the quads found
 * (<= max), none the same as another or as one of tried[0..ntried). */
int domino_find_beside(domino_card_finder *f, const ts_image *frame, const ts_quad *known, int nk,
                       const ts_quad *tried, int ntried, ts_quad *out, int max);

/* Cards the last domino_find_cards found no quad for (their pips on no
 * card found whole with both ends straight: a fan's top card, its paper
 * running on into the cards under it; a card on a cloth as light as its
 * paper), each from two groups of its pips: every count is printed
 * centred in its end's square, the two squares' middles 54/82 of the
 * card's length apart. A pair is a card when each group's pips lie in its
 * square, plain pips of the card's size, no other pip lies on it, paper
 * beside its middle, one long side shows as an edge, no edge slants
 * across it, and neither group ends another such card. Returns the quads
 * (<= max), as domino_find_cards gives them. */
int domino_find_paired(domino_card_finder *f, ts_quad *out, int max);

enum { DOMINO_GROUP_PIPS = 8 };

/* A group of pips lying near each other (one end's, or ends' of cards
 * lying close): their mean centre, the median radius of its plain pips (0:
 * a one's disc or a five's clover alone), and the first DOMINO_GROUP_PIPS
 * pips' centres. */
typedef struct {
    float cx, cy, r;
    int n;
    float px[DOMINO_GROUP_PIPS], py[DOMINO_GROUP_PIPS];
} domino_group;

/* The groups of the last frame's pips that lie on none of the cards
 * known[0..nk) (as domino_find_paired groups them). Returns the count
 * (<= max). */
int domino_groups_off(domino_card_finder *f, const ts_quad *known, int nk, domino_group *out,
                      int max);

/* Card q (q[0]-q[1] an end) with both long sides moved to the edges that
 * show in frame, within a quarter of its width. Returns 1 and fills out if
 * both moved to a card of about its width, else 0. */
int domino_fit_sides(const ts_image *frame, const ts_quad *q, ts_quad *out);

#endif
