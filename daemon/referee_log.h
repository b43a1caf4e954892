/* A referee session's log directory: one JSON line per verdict in
 * verdicts.jsonl (time, game, zone, cards, verdict, reason, and the evidence
 * files) and a before/after JPEG pair per verdict (move_NNNN_before.jpg,
 * move_NNNN_after.jpg, the after one with the verdict drawn on it).
 * `tablesight referee --replay DIR` reads it back. Used by one thread. */
#ifndef TS_REFEREE_LOG_H
#define TS_REFEREE_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "game.h"
#include "image.h"
#include "json.h"

typedef struct ts_referee_log ts_referee_log;

/* Creates dir (and verdicts.jsonl). NULL with a one-line reason. Caller closes. */
ts_referee_log *ts_referee_log_open(const char *dir, char *err, size_t errlen);
void ts_referee_log_close(ts_referee_log *l);

/* Logs one verdict: the images (BGR, borrowed; before may be NULL) are written
 * as JPEGs, the line goes to verdicts.jsonl and, without its newline, into j
 * (replacing j's content) for the live outputs. at: where the move was. */
int ts_referee_log_write(ts_referee_log *l, const ts_verdict *v, const char *game, double t,
                         const ts_image *before, const ts_image *after, float at_x, float at_y,
                         ts_json *j, char *err, size_t errlen);

/* Writes the verdict line only (no evidence) into j: the live JSON outputs. */
void ts_verdict_json(ts_json *j, const ts_verdict *v, const char *game, double t);

/* Prints a finished session from dir: one line per verdict with its evidence.
 * Returns the number of verdicts, -1 with err if the log cannot be read. */
int ts_referee_replay(const char *dir, FILE *out, char *err, size_t errlen);

#endif
