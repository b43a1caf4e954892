/* The overlay: what a player sees drawn over the table.
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
} ts_overlay_opts;

/* Draws r over frame (BGR, written in place; r's coordinates are frame pixels).
 * Line widths and text size scale with the frame. opts may be NULL.
 * Returns 0, or -1 if frame is not a BGR image or a drawing call failed. */
int ts_overlay_draw(ts_image *frame, const ts_table *t, const ts_overlay_opts *opts);

/* The colour Set number i is drawn in (B,G,R), so legends and tests agree. */
void ts_overlay_set_colour(int i, unsigned char bgr[3]);

#endif
