/* The synthetic table renderer: card faces drawn from their real designs,
 * laid on a procedural table, seen by a camera model under varied light,
 * with exact ground truth (code, corners, visible fraction of every card).
 *
 * Everything is deterministic for a given seed (own PRNG, no global state).
 * Plain structs in, plain structs out: the caller owns every struct; images
 * inside results are allocated here and freed by the caller (ts_image_free
 * or ts_scene_free). Functions return 0, or -1 with a one-line reason in err
 * (capacity TSCV_ERR_MAX).
 *
 *   ts_scene_spec s = {.family = TS_FAM_SET, .w = 1280, .h = 720, .seed = 7};
 *   s.ncards = ts_render_draw_cards(TS_FAM_SET, 12, 7, codes);   (or your own codes)
 *   ... s.cards[i].code = codes[i] ...
 *   ts_render_layout(&s, TS_LAYOUT_AUTO);
 *   ts_scene sc; ts_render_scene(&s, &sc, err); ... ts_scene_free(&sc);
 */
#ifndef TS_RENDER_H
#define TS_RENDER_H

#include <stdint.h>

#include "codes.h"
#include "cv/cvwrap.h"
#include "image.h"

enum {
    TS_RENDER_MAX_CARDS = 64, /* cards in one scene (a sequence's cards fit one bitmask) */
    TS_RENDER_MIN_SIDE = 64,
    TS_RENDER_MAX_SIDE = 8192,
    TS_SEQ_MAX_FRAMES = 96
};

/* SET decks the renderer prints. */
typedef enum { TS_DECK_CLASSIC = 0, TS_DECK_SEECARDS = 1 } ts_set_deck;

/* ---- Card faces ---------------------------------------------------------- */

/* Physical card size of a family, mm (width, height; portrait). */
void ts_render_card_size(ts_family fam, float *w_mm, float *h_mm);

/* Draws one card face, upright, at px_per_mm (1..40), into *face (BGR) and
 * its outline as *alpha (grey: rounded corners, nicks), both allocated here.
 * deck_seed picks how the deck was printed (ink tone, line widths, stock
 * tint, wear), shared by all cards of a table; card_seed this card's own
 * variation. SET cards use deck; other families ignore it. */
int ts_render_face(ts_code code, ts_set_deck deck, float px_per_mm, uint64_t deck_seed,
                   uint64_t card_seed, ts_image *face, ts_image *alpha, char *err);

/* ---- Decks and layouts --------------------------------------------------- */

/* Copies of a card kind in a real deck: SET and playing cards 1, Gang of Four
 * numbers 2 and specials 1, Qwirkle Cards 3, domino cards 4; 0 = no such card. */
int ts_render_deck_copies(ts_code code);
/* Size of the real deck (81, 52, 64, 108, 84). */
int ts_render_deck_size(ts_family fam);
/* Deals n cards (at most the deck size) from a real deck shuffled by seed,
 * so duplicates appear only as often as the deck has them. Returns the count. */
int ts_render_draw_cards(ts_family fam, int n, uint64_t seed, ts_code *out);

typedef enum {
    TS_LAYOUT_AUTO = 0, /* chosen per seed from what the family's tables look like */
    TS_LAYOUT_GRID,     /* rows and columns with gaps (a SET deal) */
    TS_LAYOUT_TOUCHING, /* a grid with no gaps: edges touch, corners may overlap */
    TS_LAYOUT_SCATTER,  /* anywhere, any turn, not overlapping */
    TS_LAYOUT_PILE,     /* anywhere, any turn, overlapping */
    TS_LAYOUT_FAN,      /* a hand fanned out */
    TS_LAYOUT_ROW,      /* one row (a mainline) */
    TS_LAYOUT_COUNT
} ts_layout;

const char *ts_layout_name(ts_layout l);
int ts_layout_from_name(const char *name); /* -1 if unknown */

/* Where one card lies on the table. */
typedef struct {
    ts_code code;
    float x, y;     /* centre, table millimetres (y grows towards the camera's base) */
    float angle;    /* turn, radians clockwise seen from above; 0 = upright portrait */
    uint32_t print; /* which physical card: its wear and print offset (stable across frames) */
} ts_card_place;

typedef struct {
    ts_family family;
    ts_set_deck deck;
    int w, h;      /* image size, TS_RENDER_MIN_SIDE..TS_RENDER_MAX_SIDE */
    uint64_t seed; /* picks table, camera, light, printing, noise */
    int frame;     /* frames of one sequence differ only in their cards and sensor noise */
    int ncards;
    ts_card_place cards[TS_RENDER_MAX_CARDS]; /* drawn in order: later cards lie on top */
    float view[4]; /* table box the camera frames (x0, y0, x1, y1 mm); all 0 = the cards' box */
} ts_scene_spec;

/* Lays spec->cards[0..ncards) out (their codes set by the caller): fills x, y,
 * angle and print, and view. Deterministic for spec->seed. Returns the
 * layout used (AUTO resolved). */
ts_layout ts_render_layout(ts_scene_spec *spec, ts_layout layout);
/* Deals n cards of spec->family from a deck shuffled by spec->seed
 * (ts_render_draw_cards) into spec->cards and lays them out
 * (ts_render_layout). Returns the layout used. */
ts_layout ts_render_deal(ts_scene_spec *spec, int n, ts_layout layout);

/* ---- Scenes -------------------------------------------------------------- */

typedef struct {
    ts_code code;
    ts_pt quad[4]; /* image corners, clockwise from the card's top-left as printed */
    float visible; /* fraction of the card in view and not covered by later cards */
} ts_scene_card;

/* How a scene was made (for the JSON beside each image). Strings are static. */
typedef struct {
    const char *table;  /* "dark cloth", "wood", "felt", ... */
    const char *camera; /* "webcam", "phone", "dslr" */
    float tilt_deg;     /* camera axis from straight down */
    float fov_deg;      /* horizontal field of view */
    float distance_mm;  /* camera to the point it looks at */
    float lens_k1;      /* radial distortion (barrel > 0) */
    float kelvin;       /* colour temperature of the lamp */
    float blur_px;      /* defocus sigma at the focus */
    float noise;        /* sensor noise sigma at mid grey, 8-bit levels */
    int jpeg_quality;   /* the quality to save it at (webcam-like unless told) */
} ts_scene_info;

typedef struct {
    ts_image img; /* BGR, owned: ts_scene_free */
    ts_scene_info info;
    int ncards;
    ts_scene_card cards[TS_RENDER_MAX_CARDS]; /* in spec order */
} ts_scene;

/* Renders spec. On failure *out is left empty (safe to ts_scene_free). */
int ts_render_scene(const ts_scene_spec *spec, ts_scene *out, char *err);
void ts_scene_free(ts_scene *s);
/* The scene card a found quad lies on: the topmost whose true outline holds
 * the quad's centre, or -1. */
int ts_scene_card_under(const ts_scene *sc, const ts_pt q[4]);
/* The worst corner distance of quad q from a card's true corners g, either
 * way up, in widths of the card (g[0]-g[1] a short side). */
float ts_scene_corner_error(const ts_pt q[4], const ts_pt g[4]);
/* The scene card a quad read lies on: as ts_scene_card_under, or a card
 * lying under that one there whose corners q fits (within a quarter of its
 * width, and at most half as far off as the top one's): a covered card
 * read on its own corners, its middle under the card on top. */
int ts_scene_card_read(const ts_scene *sc, const ts_pt q[4]);

/* ---- Sequences of play --------------------------------------------------- */

typedef enum {
    TS_SEQ_DEAL = 0, /* SET: 12 cards dealt one at a time, then a Set taken away */
    TS_SEQ_TRICK,    /* Gang of Four: a trick played onto the centre, each play beating the last */
    TS_SEQ_MAINLINE, /* Eleusis: a mainline of playing cards growing, wrong plays below it */
    TS_SEQ_COUNT
} ts_sequence_kind;

const char *ts_sequence_name(ts_sequence_kind k);
int ts_sequence_from_name(const char *name); /* -1 if unknown */
ts_family ts_sequence_family(ts_sequence_kind k);

typedef struct {
    ts_scene_spec table; /* every card ever on the table, at rest; the camera frames them all */
    int nframes;
    uint64_t present[TS_SEQ_MAX_FRAMES]; /* bit i: table.cards[i] lies on the table in frame f */
    uint64_t moving[TS_SEQ_MAX_FRAMES]; /* bit i: ...still sliding into place (drawn short of it) */
} ts_sequence;

/* Plans a sequence. look gives deck, w, h and seed (its cards are ignored). */
int ts_render_sequence(ts_sequence_kind kind, const ts_scene_spec *look, ts_sequence *out,
                       char *err);
/* The scene of frame f (0-based) of seq. */
void ts_sequence_frame(const ts_sequence *seq, int f, ts_scene_spec *out);

#endif
