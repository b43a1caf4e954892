/* Playing cards: the corner-index reader and the card finder behind
 * ts_playing_reader_class (readers/playing.c, readers/playing_find.c).
 * Exposed for the tests and the training tools; the pipeline only sees the
 * class. */
#ifndef TS_READERS_PLAYING_H
#define TS_READERS_PLAYING_H

#include <stddef.h>

#include "detect.h"
#include "image.h"
#include "readers/index_ink.h"

/* The rectified card (portrait, 63 x 88 mm) and the index patch cut from
 * each of two opposite corners, as fractions of the card's width and height.
 * models/train_playing.py cuts its training patches the same way: change
 * both together. */
enum { TS_PLAYING_CARD_W = 128, TS_PLAYING_CARD_H = 180 };
/* Index glyph components looked at per level (ts_index_ink_create). */
enum { TS_PLAYING_INK_BLOBS = 4096 };
#define TS_PLAYING_CORNER_W 0.24f
#define TS_PLAYING_CORNER_H 0.31f
#define TS_PLAYING_MODEL "playing.tsnet"
/* The small net (same heads, 24 x 40 input) that screens index patches found
 * by the corner-index finder; the card is then read by TS_PLAYING_MODEL. */
#define TS_PLAYING_FIND_MODEL "playing-find.tsnet"
/* A smaller net (same input and heads, distilled from TS_PLAYING_MODEL) that
 * reads every card's first corner; the shipped net reads again the corners
 * it is not sure of. */
#define TS_PLAYING_FAST_MODEL "playing-fast.tsnet"
/* The fast net's kind trained on index views too (a fanned card's index,
 * cut at the quad its glyph pair implies): reads a card others lie over
 * on its index alone (playing.c index_again). */
#define TS_PLAYING_VIEW_MODEL "playing-view.tsnet"
/* A first corner the fast net reads this surely (rank * suit * index) is
 * not read by the shipped net (the fast one costs about a quarter); above
 * the reader's one-corner floor (0.97), so the card is read from that
 * corner alone. */
#define TS_PLAYING_FAST_SURE 0.999f
/* Below this confidence a reading is no card at all (see ts_playing_read). */
#define TS_PLAYING_MIN_CONF 0.25f
/* Read upright this surely, the card is not tried the other way round. */
#define TS_PLAYING_SURE 0.5f

typedef struct ts_playing_reader ts_playing_reader;

typedef struct {
    int is_card;          /* a corner shows an index, read with conf >= MIN_CONF,
                             and an index's glyph pair shows at a corner; or
                             the face surely reads what the index does */
    int shape;            /* that glyph pair was found (checked only when the
                             net read an index); without it a card is one whose
                             two opposite corners read alike */
    int one_corner;       /* read from one corner alone (it was sure) */
    int rank, suit;       /* 0..12 (A 2..9 T J Q K), 0..3 (C D H S) */
    float rank_conf, suit_conf;
    float conf;           /* rank_conf * suit_conf * P(index) */
    int across;           /* the index was read lying on its side (top-right or
                             bottom-left corner): the quad was taken the other
                             way round */
    float index_conf[4];  /* P(index) at the top-left, the bottom-right (turned
                             180), the top-right and the bottom-left corner */
    int face;             /* ts_face_verdict (playing_face.h) on the index's
                             reading: agreement raised conf, disagreement
                             lowered it below the floor */
    float face_conf;      /* how sure the face was of its own reading */
} ts_playing_reading;

/* The class's confidence floor: a card read less surely is reported unread. */
#define TS_PLAYING_FLOOR 0.90f

/* Where a card found by its index alone is placed (its index corner; a fan's
 * cards under others show little more): its index view, a box about its
 * index (a fifth of the card's width square), in *view, scored as card and
 * weighing its whole area (ts_quad.area: the pipeline weighs the card). */
void ts_playing_index_view(const ts_quad *card, ts_quad *view);
/* Whether cards a and b are one place (one card): a card found by its
 * index (a_by_index, b_by_index) is placed by its index view, any other by
 * its whole quad; two places are one when either holds the other's middle
 * (ts_quad_overlap) and so do the two whole quads. Two found by their
 * index are one also when they face opposite ways about one middle (a
 * card's two indices). A fan's cards, each covering its neighbours'
 * middles, are so each a place of its own. */
int ts_playing_same_place(const ts_quad *a, int a_by_index, const ts_quad *b, int b_by_index);

/* Loads models_dir/playing.tsnet, playing-fast.tsnet, playing-find.tsnet and
 * playing-face.tsnet (NULL: the source tree's models/). Returns
 * a reader (caller destroys) or NULL with a one-line reason in err. */
ts_playing_reader *ts_playing_reader_create(const char *models_dir, char *err, size_t errlen);
void ts_playing_reader_destroy(ts_playing_reader *r);

/* Reads one rectified card (BGR or grey, borrowed, TS_PLAYING_CARD_W x
 * TS_PLAYING_CARD_H). Returns 0, or -1 with err (TSCV_ERR_MAX). */
int ts_playing_read(ts_playing_reader *r, const ts_image *card, ts_playing_reading *out,
                    char *err);

/* Candidate finder for playing cards (ts_detect's contract): white cards on
 * light or dark tables, also cards cut by the frame's edge. First
 * ts_playing_outlines writes the exact outlines of whole cards to out; then
 * ts_playing_find appends, after those n, the nextra candidates in extra
 * (borrowed), the rougher blob candidates and the frame itself. Both return
 * the count in out, or -1 with err (TSCV_ERR_MAX). */
typedef struct ts_playing_finder ts_playing_finder;

ts_playing_finder *ts_playing_finder_create(void);
void ts_playing_finder_destroy(ts_playing_finder *f);
int ts_playing_outlines(ts_playing_finder *f, const ts_image *frame, ts_quad *out, int max,
                        char *err);
int ts_playing_find(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra, int nextra,
                    ts_quad *out, int n, int max, char *err);
/* The same with the nlate candidates in late (borrowed) after the blob
 * candidates, before the frame itself. */
int ts_playing_find_late(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra,
                         int nextra, const ts_quad *late, int nlate, ts_quad *out, int n, int max,
                         char *err);
/* The same without the blob candidates (nor the held cards they include):
 * for a frame whose outlines may explain it (ts_playing_unexplained). */
int ts_playing_find_outlined(ts_playing_finder *f, const ts_image *frame, const ts_quad *extra,
                             int nextra, const ts_quad *late, int nlate, ts_quad *out, int n,
                             int max, char *err);
/* 1 if the cards[0..n) (frame pixels) chosen on the frame last given to
 * ts_playing_outlines leave paper the blobs might make a card of: a blob
 * the shared detector saw that is no card, or paper outside them. */
int ts_playing_unexplained(const ts_playing_finder *f, const ts_quad *cards, int n);

/* Corner-index glyph pairs (readers/playing_index.c): a rank glyph above a
 * suit glyph with the card's white around them, found without any card
 * outline. The reader turns each into index patches for its net. */
typedef struct {
    ts_pt rank, suit; /* glyph centres, frame px: the card's "down" runs rank -> suit */
    float margin;     /* how much brighter the white beside the index is than its ink */
} ts_playing_pair;

/* ix: scratch from ts_index_ink_create(TS_PLAYING_INK_BLOBS), reused across
 * frames. Writes up to max pairs, clearest first (by margin). Returns the count or -1
 * with err (TSCV_ERR_MAX). */
int ts_playing_index_pairs(ts_index_ink *ix, const ts_image *frame, ts_playing_pair *out,
                           int max, char *err);
/* The same on a table whose cards are card_w px wide (0: not known): where
 * that leaves their index glyphs too small for the finest level, a level
 * twice as fine (no finer than the frame) is looked at first. */
int ts_playing_index_pairs_sized(ts_index_ink *ix, const ts_image *frame, float card_w,
                                 ts_playing_pair *out, int max, char *err);
/* Whether cards card_w px wide on frame are that small. */
int ts_playing_index_small_cards(const ts_image *frame, float card_w);
/* The same with every glyph and pair compared with every other, not only
 * its neighbours (slow on a printed cloth; a check of the neighbours). */
int ts_playing_index_pairs_exhaustive(ts_index_ink *ix, const ts_image *frame,
                                      ts_playing_pair *out, int max, char *err);
/* The same a level coarser than those two (glyphs of about 50 to 100 px of
 * a 1280 px frame): a close-up, or a card cut by the frame's edge, whose
 * index is larger than a table's. Called after ts_playing_index_pairs on
 * the same frame and ix, it halves ix's last level (into scratch, the
 * caller's: zeroed at first, freed with ts_image_free) instead of the
 * frame. */
int ts_playing_index_pairs_coarse(ts_index_ink *ix, const ts_image *frame, ts_image *scratch,
                                  ts_playing_pair *out, int max, char *err);
/* The card a pair implies (corners clockwise from its top-left, the index
 * at the top-left) and that index's patch (the region the reader reads,
 * TS_PLAYING_CORNER_W x _H of the card), for one of TS_PLAYING_NSTRETCH ways
 * the frame may be stretched (0: not at all). */
enum { TS_PLAYING_NSTRETCH = 5 };
void ts_playing_index_card(const ts_playing_pair *p, int stretch, ts_pt card[4], ts_pt patch[4]);
/* True if the card a pair implies (as ts_playing_index_card's card) ends
 * where it should beside its index: the frame beyond each of the two edges
 * meeting at the index's corner that lies in the frame (at least one) is
 * clearly darker than the card's white there. Pips in the middle of a
 * card, which pair like an index, have more of the card about them. */
int ts_playing_index_corner(const ts_image *frame, const ts_pt card[4]);
/* Whiteness of frame at point at (its darkest channel: wood and skin are
 * dark in blue, a card's paper in none), or -1 beyond the frame. */
int ts_playing_whiteness(const ts_image *frame, ts_pt at);

#endif
