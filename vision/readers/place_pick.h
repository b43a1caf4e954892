/* For readers whose find() reads its own candidates (playing cards, Gang of
 * Four): which quad each place gets, and the readings made on the way.
 *
 * The candidates go in the order the pipeline takes them (one per place; a
 * quad that is no card leaves the place to the next), except that a place
 * whose first card reads unsure goes to the surest card among the
 * candidates overlapping it: a loose quad round a card no longer hides a
 * good one behind it. The readings are kept by the quad they were warped
 * from: the pipeline (and ts_reader_take) takes the reading of a quad the
 * finder returned (reader.h's read_found) without warping it again.
 */
#ifndef TS_PLACE_PICK_H
#define TS_PLACE_PICK_H

#include "image.h"
#include "reader.h"

enum { TS_MEMO_MAX = 96 }; /* readings kept per frame (a pile reads many) */

/* Zeroed = empty; a plain value, nothing to free. */
typedef struct {
    ts_pt quad[TS_MEMO_MAX][4]; /* the quad each card was warped from */
    ts_reading reading[TS_MEMO_MAX];
    int n;
} ts_reading_memo;

/* Forgets the readings (a new frame). */
void ts_reading_memo_clear(ts_reading_memo *m);
/* 1 with the reading kept for the card warped from exactly quad q (the
 * same floats) in out, else 0. */
int ts_reading_memo_found(const ts_reading_memo *m, const ts_pt q[4], ts_reading *out);
/* Keeps the reading r of the card warped from quad q of this frame at the
 * class's card size; nothing when r is no card or the memo is full. */
void ts_reading_memo_put(ts_reading_memo *m, const ts_pt q[4], const ts_reading *r);
/* The reading kept for quad from is kept as r for quad to instead (a card
 * given at another quad than the one it was read from: the part that
 * shows). Returns 1, or 0 when none was kept for from. */
int ts_reading_memo_move(ts_reading_memo *m, const ts_pt from[4], const ts_pt to[4],
                         const ts_reading *r);

/* Reads candidate i (it may refine cand[i] first, e.g. snap it to edges). */
typedef int (*ts_place_read_fn)(void *ctx, ts_quad *cand, int i, ts_reading *out, char *err);

/* The chosen quads of cand[0..n) in out (room for max): a place's first
 * card unless it reads below sure, then the surest overlapping one. Returns
 * their count, or -1 with err. */
int ts_place_pick(ts_quad *cand, int n, float sure, ts_place_read_fn read, void *ctx,
                  ts_quad *out, int max, char *err);

/* Whether candidates a and b are one place (ts_place_pick's rule:
 * ts_quad_overlap). */
typedef int (*ts_place_same_fn)(void *ctx, const ts_quad *a, const ts_quad *b);

/* ts_place_pick with the reader's own rule for one place (same, given ctx
 * too): a reader that places some cards by a part of them (a playing card
 * by its index corner) says when two are one place. */
int ts_place_pick_by(ts_quad *cand, int n, float sure, ts_place_read_fn read,
                     ts_place_same_fn same, void *ctx, ts_quad *out, int max, char *err);

/* Whether q overlaps one of out[0..n) (ts_quad_overlap: a place taken). */
int ts_place_taken(const ts_quad *out, int n, const ts_quad *q);

/* Whether each corner of q lies within tol of a corner of one of
 * list[0..n), in any order: a neighbour's place offered again (from cards
 * on either side of it, which run its corners round differently). */
int ts_place_tried(const ts_quad *list, int n, const ts_quad *q, float tol);

#endif
