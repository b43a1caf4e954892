/* The overlay: what a player sees drawn over the table.
 *
 *   - SET: the hint ladder (nothing, one card of a Set, two, the Set, every
 *     Set) and the headline ("3 Sets", "no Set: deal three more");
 *   - climbing games and Qwirkle: the legal plays as rings on the hand cards,
 *     best first with its name, or "pass"; the trick outlined; Qwirkle table
 *     groups green when valid, red with the reason when not;
 *   - a referee verdict in large text near the move;
 *
 *   - every card outlined, its code in small text on a dark backing;
 *   - each Set outlined in its own colour, the outlines of a card that is in
 *     several Sets offset outward one ring per Set so every Set stays visible;
 *   - unread cards (below the confidence floor) as a grey dashed outline and "?"
 *     instead of a guess;
 *   - live extras: a status line and a "stale" marker when the source is lost.
 *
 * The same function draws `scan --annotate` (one photo, opts NULL) and the live
 * window, where the caller passes the tracker's stable table as the result so
 * that hints come only from stable cards.
 */
#ifndef TS_OVERLAY_H
#define TS_OVERLAY_H

#include "image.h"
#include "table.h"

/* Zeroed (or NULL) means: draw cards and Sets, no status, not stale. */
typedef struct {
    const char *status; /* one line drawn top-left on a dark band; NULL = none */
    int stale;          /* the frame is the last good one of a lost source: mark it */
    const char *stale_reason; /* shown with the stale marker; NULL = "source lost" */
    int hide_sets;      /* outline cards only (no hints) */
    int hide_codes;     /* no code text on the cards */
    int plain;          /* lines without anti-aliasing: live video, a third of the cost */
    int max_plays;      /* climbing games, Qwirkle: plays drawn on the hand (0 = 5) */
    const ts_zones *zones; /* drawn as thin dashed outlines with their names; NULL = none */
    /* A referee verdict, drawn large near the move (NULL = none). */
    const char *verdict;      /* "ILLEGAL: pair: it is lower than the trick" */
    int verdict_kind;         /* ts_verdict_kind: the colour of its box */
    float verdict_x, verdict_y; /* where the move was, frame pixels */
} ts_overlay_opts;

/* Draws r over frame (BGR, written in place; r's coordinates are frame pixels).
 * Line widths and text size scale with the frame. opts may be NULL.
 * Returns 0, or -1 if frame is not a BGR image or a drawing call failed. */
int ts_overlay_draw(ts_image *frame, const ts_table *t, const ts_overlay_opts *opts);

/* The colour Set number i is drawn in (B,G,R), so legends and tests agree. */
void ts_overlay_set_colour(int i, unsigned char bgr[3]);

#endif
