/* The SET card reader: count, colour, shape and shading of one rectified card.
 *
 * Works on the card's own paper: every pixel is divided by the paper colour
 * (estimated from the card's margin), which cancels the camera's white
 * balance; "ink" is how far a pixel falls below paper in its darkest channel.
 * Symbols are the filled outer contours of the ink; their geometry gives the
 * shape, the ink's absorption ratios give the colour, and how much ink fills a
 * symbol's interior gives the shading. Each attribute is matched to the deck
 * profile's prototypes; the margin between the best and second-best match is
 * its confidence.
 */
#ifndef TS_SET_READER_H
#define TS_SET_READER_H

#include "image.h"
#include "profile.h"

/* Rectified card size the reader expects (portrait; any BGR card image is resized). */
enum { TS_CARD_W = 160, TS_CARD_H = 250 };

typedef struct {
    int is_card;        /* paper and 1-3 consistent symbols were found */
    int value[4];       /* count, colour, shape, shading (0..2), codes.h order */
    float conf[4];      /* per attribute, 0..1 */
    float conf_all;     /* product over attributes: P(whole reading right) */
    int idx;            /* SET index (codes.h) */
    int turned;         /* the symbols run along the card, not across it: the
                           image is probably not one upright card */
    int foreign;        /* the symbols have no SET symbol's form (set_shaped):
                           another deck's marks, read below the floor */
    /* Measured features (for training and diagnostics). */
    float feat[TS_ATTR_COUNT][TS_PROFILE_MAX_FEAT];
} ts_set_reading;

typedef struct ts_set_reader ts_set_reader;

/* The profile is copied. Returns NULL if out of memory. Caller destroys. */
ts_set_reader *ts_set_reader_create(const ts_profile *profile);
void ts_set_reader_destroy(ts_set_reader *r);

/* Reads one card (BGR, borrowed; TS_CARD_W x TS_CARD_H or resized to it).
 * Returns 0 (see out->is_card), or -1 with err (TSCV_ERR_MAX) on an internal error. */
int ts_set_read(ts_set_reader *r, const ts_image *card, ts_set_reading *out, char *err);

/* Debug: write the reader's ink mask of the last card to this path (NULL = off). */
void ts_set_reader_debug(ts_set_reader *r, const char *path);

#endif
