/* process_frame(): the one path from an image to an answered table, shared by
 * `scan`, `eval`, `bench` (files) and `run` (live video).
 *
 *   frame ─► detect card quads ─► rectify ─► read each card ─► rules (Sets)
 *
 * A ts_processor holds the loaded deck profile and scratch buffers; create one
 * per calling thread (with readers = 2 it runs one helper thread of its own).
 * Nothing here knows where the frame came from.
 */
#ifndef TS_PROCESS_H
#define TS_PROCESS_H

#include <stddef.h>

#include "codes.h"
#include "cv/cvwrap.h"
#include "image.h"

enum { TS_MAX_CARDS = 64, TS_MAX_SETS = 256 };

typedef struct {
    ts_code code;  /* best reading */
    char text[TS_CODE_MAXLEN]; /* code in the deck's own letters */
    float conf;    /* 0..1: confidence of the whole reading */
    int read;      /* conf >= the floor: the only cards hints are built on */
    ts_pt quad[4]; /* corners in frame pixels, clockwise, from the card's top-left */
} ts_card;

typedef struct {
    int w, h; /* frame size */
    int ncards;
    ts_card cards[TS_MAX_CARDS];
    int nsets;                  /* SET: every Set among read cards */
    int sets[TS_MAX_SETS][3];   /* indices into cards[], ascending */
    int conflict;               /* two read cards with the same code (one is misread) */
    double ms_decode, ms_detect, ms_classify, ms_rules; /* stage times; decode set by caller */
} ts_frame_result;

typedef struct {
    const char *game;    /* "set" (default) */
    const char *profile; /* deck profile name ("classic", "seecards") or path; NULL = classic */
    const char *models_dir; /* where profiles live; NULL = built-in default */
    float conf_floor;    /* below this a card is unread; <= 0 = the profile's default */
    int readers;         /* 2: a helper thread reads cards alongside the caller (the
                            live daemon, for latency); otherwise the caller alone.
                            The results are the same either way. */
} ts_processor_config;

typedef struct ts_processor ts_processor;

/* Returns a processor, or NULL with a one-line reason in err. Caller destroys. */
ts_processor *ts_processor_create(const ts_processor_config *cfg, char *err, size_t errlen);
void ts_processor_destroy(ts_processor *p);

/* Finds, reads and solves the table in frame (BGR, borrowed). Fills *out
 * (ms_decode is left as the caller set it). Returns 0, or -1 with err. */
int ts_process_frame(ts_processor *p, const ts_image *frame, ts_frame_result *out, char *err,
                     size_t errlen);

/* The letters the loaded deck profile prints codes with (borrowed). */
const ts_set_letters *ts_processor_letters(const ts_processor *p);

#endif
