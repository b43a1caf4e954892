/* The table tracker: turns per-frame readings into a stable table, for any
 * game (it knows cards, not rules: the game interface, rules/game.h, says what
 * the stable table means).
 *
 * Each processed frame's cards are matched to tracks by position. A track joins
 * the stable table once it has been seen in `stable_frames` frames with one
 * agreeing reading (or twice that many frames unread, then shown as unread); a
 * reading changes only when a new one agrees over `stable_frames` frames, so a
 * hand moving over the table does not make hints flicker. A card of the table
 * that goes unseen is kept for `keep_frames` frames before it is removed.
 *
 * Every change of the stable table is an event (added, removed, moved,
 * re-read) stamped with the frame number and time, and bumps `version`.
 * `tentative` counts what is seen but not (yet) on the table: a hand or a card
 * on its way, so the referee waits for a quiet table.
 *
 * Pure C, libc only: no threads, no clock (the caller passes the time).
 */
#ifndef TS_TABLE_TRACKER_H
#define TS_TABLE_TRACKER_H

#include <stdint.h>

#include "card.h"

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
} ts_table_tracker_config;

extern const ts_table_tracker_config TS_TABLE_TRACKER_DEFAULTS;

typedef enum { TS_TEV_ADDED = 0, TS_TEV_REMOVED, TS_TEV_MOVED, TS_TEV_REREAD } ts_table_event_type;

typedef struct {
    ts_table_event_type type;
    int id;            /* the card's track id: the same card keeps it across frames */
    uint64_t frame;    /* the frame that caused it */
    double t;          /* its time (the caller's clock, seconds) */
    char code[TS_CODE_MAXLEN]; /* reading now ("" if unread); removed: the last one */
    char from[TS_CODE_MAXLEN]; /* re-read: the reading before ("" if it was unread) */
    ts_pt at;          /* card centre now */
    ts_pt was;         /* moved: centre before */
} ts_table_event;

enum { TS_TABLE_MAX_EVENTS = 4 * TS_MAX_CARDS };

/* The stable table: what the overlay draws and the JSON reports. */
typedef struct {
    int w, h;                  /* frame size of the last update */
    int ncards;
    ts_card cards[TS_MAX_CARDS]; /* stable cards (smoothed corners, agreed readings) */
    int id[TS_MAX_CARDS];      /* track id of cards[i] (cards in joining order) */
    int missing[TS_MAX_CARDS]; /* frames since table.cards[i] was last seen */
    uint64_t version;          /* bumped by every update that made events */
    uint64_t frame;            /* frame number of the last update */
    double t;                  /* its time */
    int tentative;             /* tracks seen but not on the table (a hand, a card
                                  being dealt): the table is not quiet */
    int nevents;               /* events of the last update */
    ts_table_event events[TS_TABLE_MAX_EVENTS];
} ts_table_stable;

typedef struct ts_table_tracker ts_table_tracker;

/* cfg NULL or zero fields = defaults. Returns NULL only when memory is short.
 * Caller destroys. */
ts_table_tracker *ts_table_tracker_create(const ts_table_tracker_config *cfg);
void ts_table_tracker_destroy(ts_table_tracker *t);

/* Feeds one processed frame: its cards[0..n) (borrowed) in a w x h frame;
 * frame numbers and times should increase. Returns the updated stable table,
 * owned by the tracker and valid until the next update or destroy. */
const ts_table_stable *ts_table_tracker_update(ts_table_tracker *t, const ts_card *cards, int n,
                                               int w, int h, uint64_t frame, double time);

/* "added", "removed", "moved", "reread". */
const char *ts_table_event_name(ts_table_event_type type);

#endif
