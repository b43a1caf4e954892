/* Cards held up before a camera, found from their pips (readers/playing_held.c).
 *
 * A card held in a hand before a face, a window or a white wall is often
 * no brighter than what it touches, so no brightness level cuts it loose,
 * and fingers break its outline. Its pips do stand out: dark blobs of one
 * size in a small cluster. The cluster gives the card's place and, from
 * the edges around it, its turn; each side of the card is then the first
 * line beyond the pips, as long as their extent, clearly darker than the
 * paper beside them (so fingers over part of it do not hide it), or the
 * first that stays dark for a pip's width when that makes no card. A quad
 * whose card reads unsure is then fitted to its face (ts_playing_held_fit).
 * Used by the playing finder (playing_find.c) and reader (playing.c);
 * exposed for its tests. */
#ifndef TS_READERS_PLAYING_HELD_H
#define TS_READERS_PLAYING_HELD_H

#include "image.h"
#include "cv/cvwrap.h"
#include "reader.h"
#include "readers/playing.h"
#include "readers/playing_face.h"

typedef struct ts_playing_held ts_playing_held;

/* Returns a finder (caller destroys) or NULL when out of memory. */
ts_playing_held *ts_playing_held_create(void);
void ts_playing_held_destroy(ts_playing_held *h);

/* Finds up to max card quads (corners in grey's pixels, any order; the
 * caller orders them) in a small grey work image (borrowed, bright paper,
 * a few hundred px across). Returns the count, or -1 with err
 * (TSCV_ERR_MAX). */
int ts_playing_held_find(ts_playing_held *h, const ts_image *grey, ts_pt (*out)[4], int max,
                         char *err);

/* The playing finder's score of a held card's quad (playing_find.c); its
 * size variants score a little less, and every other candidate under 1.2. */
#define TS_PLAYING_HELD_SCORE 2.0f
#define TS_PLAYING_HELD_MIN_SCORE 1.7f

/* A held card whose corner index the reader could not make out (a drawn box
 * round it, a finger on it, blur) read from its face: only a pip card
 * (A-10, whose pips any deck lays out alike) whose rank the face net is
 * sure of (TS_PLAYING_HELD_FACE_SURE), seen as a whole face
 * (TS_PLAYING_HELD_FACE_SEEN: a finger over it or a loose quad lowers
 * that), and whose suit the face and the index's unsure reading (index:
 * the reader's reading of the card, borrowed; NULL or no card: the face
 * alone) are together that sure of. card: the rectified card (borrowed,
 * the reader's size). Fills out (a card or not, conf the product of the
 * three) and returns 0, or -1 with err (TSCV_ERR_MAX). */
#define TS_PLAYING_HELD_FACE_SURE 0.97f
#define TS_PLAYING_HELD_FACE_SEEN 0.9f
int ts_playing_held_face(ts_playing_face *face, const ts_image *card, const ts_reading *index,
                         ts_reading *out, char *err);

/* A held card's quad q (frame px, corners in the reader's order; updated)
 * fitted to its face: each side moved in or out, a few steps, to where the
 * face net (face) sees the most of a whole card's face in the warp (first,
 * when the whole quad shrunk about its centre looks more like one, from
 * there). For a held quad whose card reads unsure: a side found on the hand
 * or the wall behind cuts off pips or takes in the background. frame: the
 * colour frame (borrowed). Returns 0; 1, q unchanged, when the face net
 * sees no card in the first moves (not worth fitting: another game's
 * card); or -1 with err (TSCV_ERR_MAX). */
int ts_playing_held_fit(ts_playing_face *face, const ts_image *frame, ts_pt q[4], char *err);

/* The frame's glyph pairs (pairs[0..n), clearest first) that may be the
 * corner index of the held card whose quad is q (frame px): both glyphs
 * inside q grown by half (a quad found on the pips may stop short of the
 * index, or run on into the hand), their step of an index's size for a
 * card of q's size. For a held card neither the quad nor its fit reads:
 * its index is often crisp where its outline is not. Writes up to max of
 * their places in pairs to out, clearest first; returns the count. */
int ts_playing_held_pairs(const ts_playing_pair *pairs, int n, const ts_pt q[4], int *out, int max);

#endif
