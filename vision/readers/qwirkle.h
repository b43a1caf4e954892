/* Qwirkle internals shared by the reader's files (not a public API):
 *
 *   qwirkle_profile.c  deck profiles (models/qwirkle_NAME.profile): letters,
 *                      which finder, colour and shape prototypes
 *   qwirkle_symbol.c   the symbol on one rectified piece: its colour and
 *                      contour features
 *   qwirkle_find.c     the tiles' own candidate finder (dark squares lying
 *                      edge to edge on a light board)
 *   qwirkle_cards_find.c  the cards' finder (black fields in a white border)
 *   qwirkle.c          the reader class that ties them together
 */
#ifndef TS_QWIRKLE_H
#define TS_QWIRKLE_H

#include <stddef.h>

#include "cv/cvwrap.h"
#include "detect.h"
#include "image.h"

enum {
    QW_NCOLOUR = 6,
    QW_NSHAPE = 6,
    QW_NCFEAT = 2, /* colour: saturation x (cos, sin) of hue */
    QW_NSFEAT = 4, /* shape: solidity, 4-fold phase, 8-fold strength, circularity */
    QW_MAX_MODES = 3,
    QW_CARD_W = 64, /* rectified piece the reader expects (portrait) */
    QW_CARD_H = 96,
    QW_MIN_CONTRAST = 40 /* symbol over field lightness, below: no symbol */
};

/* One attribute value: one or more prototypes (mean + spread per feature). */
typedef struct {
    int nmodes;
    float mean[QW_MAX_MODES][QW_NSFEAT];
    float spread[QW_MAX_MODES][QW_NSFEAT];
} qw_proto;

typedef struct {
    char name[32];
    char colour_letters[QW_NCOLOUR + 1]; /* "ROYGBP"; tiles "ROYGBW" */
    char shape_letters[QW_NSHAPE + 1];   /* "CXDSTL" */
    int tiles;                           /* 1: square tiles (own finder), 0: cards */
    float conf_floor;
    float max_dist;                      /* a feature farther (spreads) from every prototype: not ours */
    float outlier;                       /* distance of the "none of these" value (conf) */
    qw_proto colour[QW_NCOLOUR];         /* features QW_NCFEAT */
    qw_proto shape[QW_NSHAPE];           /* features QW_NSFEAT */
} qw_profile;

/* Parses profile text; 0, or -1 with "line N: problem" in err. */
int qw_profile_parse(const char *text, size_t len, qw_profile *out, char *err, size_t errlen);
/* Loads NAME (DIR/qwirkle_NAME.profile) or a path (contains '/'). dir NULL =
 * the project's models/. */
int qw_profile_load(const char *name_or_path, const char *dir, qw_profile *out, char *err,
                    size_t errlen);

/* What the symbol on one piece measures. */
typedef struct {
    int found;                /* a single centred symbol on a dark field */
    float colour[QW_NCFEAT];
    float shape[QW_NSFEAT];
    float ink_frac;           /* symbol area / analysed area */
    float contrast;           /* symbol minus field lightness, 0..255 */
} qw_measure;

typedef struct qw_symbol qw_symbol;

/* Scratch for measuring; one per reader. NULL if out of memory. */
qw_symbol *qw_symbol_create(void);
void qw_symbol_destroy(qw_symbol *s);
/* Measures the symbol on a rectified piece (BGR, QW_CARD_W x QW_CARD_H or
 * resized to it). square: the piece is a square tile stretched to portrait.
 * Returns 0 (see m->found) or -1 with err (TSCV_ERR_MAX). */
int qw_symbol_measure(qw_symbol *s, const ts_image *card, int square, qw_measure *m, char *err);

typedef struct qw_finder qw_finder;

qw_finder *qw_finder_create(void);
void qw_finder_destroy(qw_finder *f);
/* Finds square dark tiles with a symbol (ts_detect's contract). Returns the
 * count (<= max) or -1 with err (TSCV_ERR_MAX). */
int qw_find_tiles(qw_finder *f, const ts_image *frame, ts_quad *out, int max, char *err);

/* Finds Qwirkle Cards (black fields in a white border) in frame (ts_detect's
 * contract); scratch: three caller-owned images (allocated here, freed by
 * the caller). */
int qw_find_cards(ts_image scratch[3], const ts_image *frame, ts_quad *out, int max, char *err);

#endif
