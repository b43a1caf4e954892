/* Run statistics: counters and latency series of the live daemon, printed on
 * exit and on SIGUSR1. Thread-safe: the vision and display threads add samples
 * while another thread prints.
 *
 * Each series keeps its last TS_STATS_WINDOW samples (percentiles are over
 * those) and its all-time maximum, so memory stays flat however long it runs.
 */
#ifndef TS_STATS_H
#define TS_STATS_H

#include "clock.h"
#include "median.h"

#include <stdint.h>
#include <stdio.h>

enum { TS_STATS_WINDOW = 4096 };

typedef enum {
    TS_ST_QUEUE = 0, /* frame captured -> vision starts on it */
    TS_ST_DETECT,    /* process_frame stages */
    TS_ST_CLASSIFY,
    TS_ST_RULES,
    TS_ST_PROCESS,   /* process_frame in all */
    TS_ST_TRACK,     /* tracker update */
    TS_ST_READY,     /* frame captured -> its results published (the processing latency) */
    TS_ST_HINTS,     /* frame captured -> its results first drawn on screen */
    TS_ST_SCREEN,    /* frame captured -> that frame handed to the sinks */
    TS_ST_OVERLAY,   /* copy + overlay + sinks, per displayed frame */
    TS_ST_VERDICT,   /* referee: the frame a move settled in captured -> its verdict on screen */
    TS_ST_VERDICT_DRAW, /* referee: verdict decided -> on screen */
    TS_ST_WIN_FRAME, /* window: frame captured -> drawn on in the window's video (cairooverlay) */
    TS_ST_WIN_HINTS, /* window: frame captured -> its results first drawn there */
    TS_ST_COUNT
} ts_stat;

typedef struct ts_stats ts_stats;

/* Counters the caller owns (capture knows captured/dropped). */
typedef struct {
    uint64_t captured, processed, dropped, displayed;
    double seconds; /* wall time of the run so far */
} ts_stats_counts;

/* Returns NULL when memory is short. Caller destroys. */
ts_stats *ts_stats_create(void);
void ts_stats_destroy(ts_stats *s);

/* Adds one sample (milliseconds) to a series. */
void ts_stats_add(ts_stats *s, ts_stat which, double ms);

/* Percentile p (0..100, nearest rank) of a series' window; 0 when empty. */
double ts_stats_percentile(ts_stats *s, ts_stat which, double p);
/* All-time maximum of a series; 0 when empty. */
double ts_stats_max(ts_stats *s, ts_stat which);
/* Samples ever added to a series. */
uint64_t ts_stats_n(ts_stats *s, ts_stat which);

/* The report: counts and rates, latency p50/p95/max, per-stage medians. */
void ts_stats_print(ts_stats *s, const ts_stats_counts *c, FILE *f);



#endif
