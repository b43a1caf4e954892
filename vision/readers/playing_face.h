/* The playing card's face as a second opinion on its corner index
 * (readers/playing_face.c). A small net (models/playing-face.tsnet, trained
 * by models/train_playing_face.py) reads the whole rectified card in grey:
 * the pips' count and layout or a court figure (rank), the pips' shape
 * (suit) and whether it is a card's face at all. Used by the playing reader
 * only; exposed for its tests. */
#ifndef TS_READERS_PLAYING_FACE_H
#define TS_READERS_PLAYING_FACE_H

#include <stddef.h>

#include "cv/cvdnn.h"
#include "image.h"

#define TS_PLAYING_FACE_MODEL "playing-face.tsnet"

typedef struct ts_playing_face ts_playing_face;

typedef struct {
    float rank[13]; /* A 2..9 T J Q K */
    float suit[4];  /* C D H S */
    float card;     /* P(a whole card's face) */
} ts_playing_face_reading;

/* Loads models_dir/name (NULL: the source tree's models/), a net with the
 * playing cards' heads: rank (13), suit (4) and a two-class third head
 * named third ("index", "card"); kind names the net in the error. Shared by
 * the index nets (playing.c) and the face net. Returns the net (caller
 * destroys) or NULL with a reason in err. */
tscv_net *ts_playing_net_load(const char *models_dir, const char *name, const char *kind,
                              const char *third, char *err, size_t errlen);

/* Loads models_dir/playing-face.tsnet (NULL: the source tree's models/).
 * Returns a face reader (caller destroys) or NULL with a reason in err. */
ts_playing_face *ts_playing_face_create(const char *models_dir, char *err, size_t errlen);
void ts_playing_face_destroy(ts_playing_face *f);

/* Reads one rectified card (borrowed, TS_PLAYING_CARD_W x _H, either way up).
 * Returns 0 or -1 with err (TSCV_ERR_MAX). */
int ts_playing_face_read(ts_playing_face *f, const ts_image *card, ts_playing_face_reading *out,
                         char *err);

/* Reads cards[0..n) (borrowed, as above) into out[0..n), in net runs of
 * many cards (a run's fixed cost shared). Returns 0 or -1 with err. */
int ts_playing_face_read_n(ts_playing_face *f, const ts_image *cards, int n,
                           ts_playing_face_reading *out, char *err);

/* What the face says of an index reading of rank and suit. */
typedef enum {
    TS_FACE_SILENT = 0, /* no face seen, or not sure of it */
    TS_FACE_AGREES,     /* a pip card: rank and suit both its best guess */
    TS_FACE_DISAGREES   /* it is sure of another rank of a pip card, or
                           sure the card is (not) a court card */
} ts_face_verdict;

/* The verdict on (rank, suit), and in *face_conf how sure the face is of
 * its own best reading (rank * suit * card). */
ts_face_verdict ts_playing_face_judge(const ts_playing_face_reading *f, int rank, int suit,
                                      float *face_conf);

/* Whether the face, reading a pip card of rank as the index does,
 * is at least FACE_SUIT_SURE sure its pips are the other suit of suit's
 * colour (a club for a spade, a heart for a diamond): on a small card the
 * index's suit glyph is a few pixels, where a club and a spade differ by
 * less than the pips in the middle do. */
int ts_playing_face_twin_suit(const ts_playing_face_reading *f, int rank, int suit);

#endif
