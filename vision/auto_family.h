/* Which family's reading of a frame `--game auto` takes (pipeline.c runs
 * every family's finder and reader on the frame; this picks one).
 *
 * Each reader judges a card by its own family's marks, and some are sure of
 * another family's cards (a playing-card index reader on a Gang of Four
 * corner, a Qwirkle symbol reader on a SET card with one shape). So besides
 * the readings, a small trained net (models/family.tsnet, rebuilt by
 * models/train_family.py) looks at each read card's whole face and says
 * which family it looks like: beige with one big coloured numeral, white
 * with black/red corner indices, white with one to three shapes, one symbol
 * on a dark tile, pips in two halves, or no card at all. A reading's sure
 * card counts for it unless the net recognises another family's card in
 * it; an unsure card counts against it unless the net recognises the
 * reading's family in it (or its reader holds it likelier right than not
 * and the net places it in no other family); a face the net cannot place (half in view, a hand
 * over it, a deck it never saw) leaves the reader's word as it is, one
 * it clearly calls no card at all (a part of a card, a fan's strip) counts
 * half, and one it clearly places in the reading's family counts twice
 * (reader and face agree: a fan's whole top card). A read
 * "card" holding another reading's cards takes them as its parts only if
 * it looks somewhat like its family (not a whole table read as one card).
 * When the readings say little (no more sure cards than unsure ones, or
 * none the net accepts: a family's finder lost on a busy table, one card
 * filling the frame, a false card in a room), the net's view of every
 * finder's first candidates, of the other readings' cards and of the
 * whole frame (as it stands and turned a quarter: one card lying across a
 * photo) may name the family instead. When the net backs no reading and
 * places no face at all (a webcam-held playing card it cannot place, and
 * another reader's "card" in the room), each reading is only a guess and
 * the most particular family's is taken (Gang of Four and playing equal:
 * the higher score, then the surer reading).
 * A read card the net places in another family than its reader's is a
 * face of that family too (a playing card only a Gang of Four reader read,
 * on a striped cloth no finder outlines it on). And a reading none of
 * whose sure cards the net clearly places in its family gives way to a
 * whole frame it clearly sees as one card of another family (a playing
 * card held up to a webcam, a spade of it read as a SET shape).
 * A sure card's inks speak too: a playing card from ace to ten prints red
 * and black alone, so one mostly yellow or green is another deck's card;
 * a green or yellow Gang of Four card showing none of its colour is too,
 * and one whose colour is most of its ink is backed by it, whatever the
 * net makes of an outline its reader cut short (no playing card there).
 *
 * Only the reader interface is used (reader.h): codes, confidences, read
 * flags and quads of each family's reading.
 */
#ifndef TS_AUTO_FAMILY_H
#define TS_AUTO_FAMILY_H

#include <stddef.h>

#include "detect.h"
#include "image.h"
#include "pipeline.h"
#include "reader.h"

typedef struct ts_auto_family ts_auto_family;

/* Loads the family net from models_dir (NULL: the data directory's models/).
 * Returns NULL with a one-line reason in err. Caller destroys. */
ts_auto_family *ts_auto_family_create(const char *models_dir, char *err, size_t errlen);
void ts_auto_family_destroy(ts_auto_family *a);

/* How one reading was weighed (for tools that show why auto chose). */
typedef struct {
    double score;  /* sure cards not like another family's, less unsure ones not like this one's */
    double conf;   /* summed confidence, weighed the same way: breaks near ties */
    double face;   /* mean of the face net's P(this family) over the counted cards */
    int counted;   /* cards counted (not parts of other readings' cards, not too long) */
    int votes;     /* faces the net places in this family (weak or thin choices only) */
    int backed;    /* sure cards the net calls neither no card, another family's nor
                      clearly (0.9) not this family's, or whose own inks back them */
    int agree;     /* sure cards the net clearly places in this family (reader and
                      face agree) */
} ts_auto_weight;

/* Picks the reading of frame that best explains it: readings[i] was made by
 * cls[i] (n of them). cand[0..ncand) (borrowed) are outlines the families'
 * finders offered, read or not, best first per finder: when the readers
 * find little (a finder lost on a busy table), the face net's view of them
 * is the frame's own evidence of what lies there, and a family whose faces
 * clearly outnumber the chosen one's is taken instead (its reading may then
 * hold few cards or none: then its faces must also outnumber the chosen
 * reading's score). Fills weights[0..n) when not NULL. Returns the
 * index, -1 when nothing tells a family, or -2 on an internal error (err,
 * TSCV_ERR_MAX). */
int ts_auto_family_choose(ts_auto_family *a, const ts_image *frame,
                          const ts_reader_class *const *cls, const ts_frame_result *readings,
                          int n, const ts_quad *cand, int ncand, ts_auto_weight *weights,
                          char *err);

/* Whether a choice made from the first readers' readings alone (the
 * others empty: not run yet) stands whatever the others read: its reading
 * w has MANY_SURE (3) or more sure cards the face net clearly places in
 * its family and scores twice that. A false reading's sure cards come one
 * or two at a time and the net seldom agrees with them, so the readers
 * that cost most on other games' tables (Gang of Four, playing) need not
 * run. Measured, not proven: the choices with and without the skip are
 * the same on every --game auto list (tests/tools/auto_family_why
 * --replay-staged). */
int ts_auto_family_settled(const ts_auto_weight *w);
/* Whether reading r has the sure cards a settled choice needs (a cheap
 * test before choosing on part of the readings). */
int ts_auto_family_may_settle(const ts_frame_result *r);
/* Sure cards (read above the floor) of reading r. */
int ts_auto_family_sure_cards(const ts_frame_result *r);

#endif
