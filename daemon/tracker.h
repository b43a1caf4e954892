/* The table tracker: turns per-frame readings into a stable table.
 *
 * Each processed frame's cards are matched to tracks by position. A track joins
 * the stable table once it has been seen in `stable_frames` frames with one
 * agreeing reading (or twice that many frames unread, then shown as unread); a
 * reading changes only when a new one agrees over `stable_frames` frames, so a
 * hand moving over the table does not make hints flicker. A card of the table
 * that goes unseen is kept for `keep_frames` frames before it is removed.
 *
 * Every change of the stable table is an event (added, removed, moved,
 * re-read) stamped with the frame number and time, and bumps `version`; the
 * Sets of the stable table are re-solved (rules/set.h) on every change.
 *
 * Pure C: no GStreamer, no threads, no clock (the caller passes the time).
 */
#ifndef TS_TRACKER_H
#define TS_TRACKER_H

#include <stdint.h>

#include "pipeline.h"
#include "table.h"

typedef struct {
    /* Frames a reading (and a new card) must agree over before it is shown.
     * More is steadier under a moving hand and slower to show a dealt card. */
    int stable_frames; /* default 4 */
    /* Frames a card of the table may go unseen (covered by a hand) before it
     * is removed. More rides out longer occlusions, shows a taken card longer. */
    int keep_frames; /* default 8 */
    /* A reading matches a track whose centre lies within this fraction of the
     * card's diagonal. Larger follows faster moves, risks swapping neighbours. */
    float match_dist; /* default 0.5 */
    /* A card of the table that settles this fraction of its diagonal away from
     * where it was last reported is "moved". */
    float move_dist; /* default 0.25 */
} ts_tracker_config;

extern const ts_tracker_config TS_TRACKER_DEFAULTS;

typedef enum { TS_EV_ADDED = 0, TS_EV_REMOVED, TS_EV_MOVED, TS_EV_REREAD } ts_event_type;

typedef struct {
    ts_event_type type;
    int id;            /* the card's track id: the same card keeps it across frames */
    uint64_t frame;    /* the frame that caused it */
    double t;          /* its time (the caller's clock, seconds) */
    char code[TS_CODE_MAXLEN]; /* reading now ("" if unread); removed: the last one */
    char from[TS_CODE_MAXLEN]; /* re-read: the reading before ("" if it was unread) */
    ts_pt at;          /* card centre now */
    ts_pt was;         /* moved: centre before */
} ts_event;

enum { TS_TRACK_MAX_EVENTS = 4 * TS_MAX_CARDS };

/* The stable table: what the overlay draws and the JSON reports. */
typedef struct {
    ts_table table; /* stable cards (smoothed corners, agreed readings) and their
                       Sets; size and stage times of the last frame */
    int id[TS_MAX_CARDS];      /* track id of table.frame.cards[i] (cards in joining order) */
    int missing[TS_MAX_CARDS]; /* frames since table.frame.cards[i] was last seen */
    uint64_t version;          /* bumped by every update that made events */
    uint64_t frame;            /* frame number of the last update */
    double t;                  /* its time */
    int nevents;               /* events of the last update */
    ts_event events[TS_TRACK_MAX_EVENTS];
} ts_stable;

typedef struct ts_tracker ts_tracker;

/* cfg NULL or zero fields = defaults. Returns NULL only when memory is short.
 * Caller destroys. */
ts_tracker *ts_tracker_create(const ts_tracker_config *cfg);
void ts_tracker_destroy(ts_tracker *t);

/* Feeds one processed frame (r is borrowed; frame numbers and times should
 * increase). Returns the updated stable table, owned by the tracker and valid
 * until the next update or destroy. */
const ts_stable *ts_tracker_update(ts_tracker *t, const ts_frame_result *r, uint64_t frame,
                                   double time);

/* "added", "removed", "moved", "reread". */
const char *ts_event_name(ts_event_type type);

#endif
