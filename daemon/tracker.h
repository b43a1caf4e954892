/* The live table for the daemon: the game-neutral tracker of rules/table/
 * (table_tracker.h: per-frame readings -> a stable table, events) with each
 * stable table solved by its game (table.h: zones, hints) on every change.
 * No GStreamer, no threads, no clock (the caller passes the time).
 */
#ifndef TS_TRACKER_H
#define TS_TRACKER_H

#include <stdint.h>

#include "table.h"
#include "table_tracker.h"

typedef ts_table_tracker_config ts_tracker_config;
#define TS_TRACKER_DEFAULTS TS_TABLE_TRACKER_DEFAULTS

typedef ts_table_event_type ts_event_type;
typedef ts_table_event ts_event;
#define TS_EV_ADDED TS_TEV_ADDED
#define TS_EV_REMOVED TS_TEV_REMOVED
#define TS_EV_MOVED TS_TEV_MOVED
#define TS_EV_REREAD TS_TEV_REREAD
enum { TS_TRACK_MAX_EVENTS = TS_TABLE_MAX_EVENTS };

/* A card of the stable table unseen for this many frames is gone for the
 * hints: the game solves the table without it (it stays in the cards, for the
 * referee and the JSON, until keep_frames), and the overlay draws it faded
 * (overlay.h). One missed frame is the detector's noise, not a card taken. */
enum { TS_TRACK_GONE_AFTER = 2 };

/* The stable table: what the overlay draws and the JSON reports. */
typedef struct {
    ts_table table; /* stable cards (smoothed corners, agreed readings), their zones
                       and the game's view; size and stage times of the last frame */
    int id[TS_MAX_CARDS];      /* track id of table.frame.cards[i] (cards in joining order) */
    int missing[TS_MAX_CARDS]; /* frames since table.frame.cards[i] was last seen */
    int busy;                  /* things in view not on the table + table cards unseen */
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

/* The game, zones and options the stable table is solved with (copied; the
 * zones pointer is borrowed). Re-solves the current table. */
void ts_tracker_set_rules(ts_tracker *t, const ts_table_rules *rules);

/* Feeds one processed frame (r is borrowed; frame numbers and times should
 * increase). Returns the updated stable table, owned by the tracker and valid
 * until the next update or destroy. */
const ts_stable *ts_tracker_update(ts_tracker *t, const ts_frame_result *r, uint64_t frame,
                                   double time);

/* "added", "removed", "moved", "reread". */
const char *ts_event_name(ts_event_type type);

#endif
