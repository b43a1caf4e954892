/* The whole image-to-cards pipeline in one call, shared by `scan`, `eval`,
 * `bench` (files) and `run` (live video), the way zbar_process_image is the
 * whole of ZBar for both zbarimg and zbarcam:
 *
 *   frame ─► find card quads ─► rectify each ─► read it (the family's reader)
 *
 * The family's reader comes from the registry (reader.h); with game "auto"
 * every family is tried (with each deck profile whose pieces need their own
 * finder: Qwirkle tiles, double-six dominoes) and the reading that best
 * explains the frame wins, frame by frame (auto_family.h): its sure cards
 * less its unsure ones, as a small net that judges each card's face agrees
 * or not, not counting parts of another reading's cards,
 * copies beyond what a deck holds, or outlines longer than the family's
 * cards. What a game makes of the cards (Sets, plays, verdicts) is the
 * rules core's business, not this one's: a frame result holds cards only.
 *
 * A ts_pipeline holds the readers and scratch buffers; create one per calling
 * thread (with readers = 2 it runs one helper thread of its own). Nothing here
 * knows where the frame came from.
 */
#ifndef TS_PIPELINE_H
#define TS_PIPELINE_H

#include <stddef.h>

#include "card.h"
#include "codes.h"
#include "detect.h" /* ts_quad: auto's candidates */
#include "image.h"

typedef struct {
    int w, h;      /* frame size */
    int family;    /* ts_family the cards were read as; -1 when auto found none */
    int ncards;
    ts_card cards[TS_MAX_CARDS];
    /* Stage times (ms). ms_decode is the caller's (files); the rest are
     * stamped inside the pipeline. ms_read_by[f] is family f's reader alone
     * (several are non-zero only with game "auto"). */
    double ms_decode, ms_detect, ms_rectify, ms_read, ms_total;
    double ms_read_by[TS_FAM_COUNT];
} ts_frame_result;

typedef struct {
    /* Family or game name ("set", "playing", "eleusis", "gof", "qwirkle",
     * "domino", "sapngwu") or "auto"; NULL = the profile's family, else set. */
    const char *game;
    /* Deck profile: a name the family's reader knows ("classic", "seecards",
     * "tiles", "double-six", ...) or, for SET, a path; NULL = the family's
     * default. With game NULL the profile picks the family. */
    const char *profile;
    const char *models_dir; /* where profiles and models live; NULL = built-in */
    float conf_floor;       /* below this a card is unread; <= 0 = the reader's */
    int readers;            /* 2: a helper thread reads cards alongside the caller
                               (the live daemon, for latency); otherwise the
                               caller alone. The results are the same either way. */
    int auto_hold;          /* game "auto" on a stream of frames (live video): after
                               a frame that ran every reader, up to this many frames
                               are read by the chosen family's reader alone while
                               its reading holds (sure cards, at least half as many
                               as when chosen); then, or when it drops, every reader
                               runs again. 0: every frame runs every reader (files
                               given to scan stay independent). */
    int auto_all;           /* game "auto": every reader reads every frame, none
                               skipped when the first ones settle the choice (tools
                               that keep every reading, and the skip's tests) */
} ts_pipeline_config;

typedef struct ts_pipeline ts_pipeline;

/* Returns a pipeline, or NULL with a one-line reason in err. Caller destroys. */
ts_pipeline *ts_pipeline_create(const ts_pipeline_config *cfg, char *err, size_t errlen);
void ts_pipeline_destroy(ts_pipeline *p);

/* Finds and reads the cards in frame (BGR, borrowed). Fills *out (ms_decode
 * is kept as the caller set it). Returns 0, or -1 with a reason in err. */
int ts_pipeline_process(ts_pipeline *p, const ts_image *frame, ts_frame_result *out, char *err,
                        size_t errlen);

/* The family this pipeline reads, or -1 for "auto". */
int ts_pipeline_family(const ts_pipeline *p);

/* With game "auto", for tools that show why it chose: how many readings
 * each frame gets (0 without auto), and reading i of the last frame (NULL
 * past the end): its class's name, deck profile, how it scored and the
 * face net's mean P(its family) over its cards (auto_family.h). Borrowed
 * until the next frame. */
int ts_pipeline_auto_readings(const ts_pipeline *p);
const ts_frame_result *ts_pipeline_auto_reading(const ts_pipeline *p, int i, const char **name,
                                                const char **profile, double *score,
                                                double *face);
/* With game "auto": the first candidates reading i's finder offered on the
 * last frame (*n of them, best first; the family chooser's evidence when
 * the readings say little). Borrowed until the next frame; NULL past the
 * end. */
const ts_quad *ts_pipeline_auto_candidates(const ts_pipeline *p, int i, int *n);
/* With game "auto": how many readers read the last frame (1: the held
 * family's alone, see auto_hold; fewer than ts_pipeline_auto_readings when
 * a choice was settled before the last stage). */
int ts_pipeline_auto_run(const ts_pipeline *p);

/* Parses one code as the deck prints it (the profile's letters: "WX" with the
 * Qwirkle tiles, "2BLS" with SeeCards), in the family given (for "auto",
 * any family, tried in registry order). Returns 0 or -1. */
int ts_pipeline_parse_code(const ts_pipeline *p, int family, const char *text, size_t len,
                           ts_code *out);

/* Formats a code as the deck in use prints it (see parse). */
void ts_pipeline_format_code(const ts_pipeline *p, ts_code code, char out[TS_CODE_MAXLEN]);

#endif
