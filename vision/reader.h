/* One interface for every card family's reader.
 *
 * A reader class is a small constant table: which family it reads, the card
 * shape it expects, which deck profiles it knows, and create / read / destroy.
 * The pipeline (pipeline.h) warps each candidate quad to the class's
 * rectified size and hands it to read(); it never knows which family it is
 * running. Adding a family is adding a file under vision/readers/ and a line
 * in vision/readers/registry.c.
 *
 * Every reader gives a confidence: P(the whole reading is right). The
 * pipeline marks a card below the floor as unread, and nothing builds a hint
 * on an unread card.
 */
#ifndef TS_READER_H
#define TS_READER_H

#include <stddef.h>

#include "codes.h"
#include "cv/cvwrap.h"
#include "detect.h"
#include "image.h"

enum { TS_READING_MAX_ATTR = 4 };

/* What a reader makes of one rectified card image. */
typedef struct {
    int is_card;       /* a card of this family at all (else the rest is unset) */
    ts_code code;      /* best reading */
    float conf;        /* 0..1: P(the whole reading is right) */
    int nattr;         /* attributes read (SET 4: count colour shape shading) */
    float attr_conf[TS_READING_MAX_ATTR]; /* per attribute, 0..1 */
    int turned;        /* the card's content runs across the quad's long side:
                          the quad is probably two cards side by side */
    int foreign;       /* its marks have no form of this family's print (another
                          deck's card): no other quad over them reads better */
} ts_reading;

/* How a reader is made: the deck profile (a name from the class's list, or
 * for classes that read profile files, a path) and where models live. */
typedef struct {
    const char *profile;    /* NULL = the class's default (profiles[0]) */
    const char *models_dir; /* NULL = models/ of the data directory; files through
                               ts_model_path (datadir.h) */
} ts_reader_config;

typedef struct ts_reader_class {
    ts_family family;
    const char *name;               /* "set", "playing", ... (ts_family_name) */
    const char *const *profiles;    /* known profile names, NULL-terminated; [0] default */
    float min_aspect, max_aspect;   /* card long side / short side */
    int card_w, card_h;             /* rectified card size read() expects (portrait) */
    float conf_floor;               /* default: below this a card is unread */
    /* A frame of this shape (long/short side) may be one card filling it, a
     * crop with no table around it: it is read whole first. 0 = never. */
    float whole_min_aspect, whole_max_aspect;
    /* A squat quad (aspect 1.1-1.45) that does not read as one upright card
     * may be two cards side by side: try its halves (SET). */
    int split_squat;

    /* Returns a reader (caller destroys), or NULL with a one-line reason in err. */
    void *(*create)(const ts_reader_config *cfg, char *err, size_t errlen);
    void (*destroy)(void *reader);
    /* Reads one card (BGR, borrowed, card_w x card_h, portrait: the quad's
     * first side is a short side). Returns 0 (see out->is_card), or -1 with
     * err (TSCV_ERR_MAX) on an internal error. A reader must be usable from
     * one thread at a time; the pipeline makes one per thread. */
    int (*read)(void *reader, const ts_image *card, ts_reading *out, char *err);
    /* Optional: the code in the deck's own letters (SeeCards, Qwirkle tiles'
     * W). NULL = ts_code_format. */
    void (*format)(const void *reader, ts_code code, char out[TS_CODE_MAXLEN]);
    /* Optional: the inverse of format (label files in the deck's letters).
     * Returns 0 or -1. NULL = ts_code_parse. */
    int (*parse)(const void *reader, const char *text, size_t len, ts_code *out);
    /* Optional: a family-specific candidate finder, used instead of the
     * shared detector (ts_detect with this class's aspect range). Same
     * contract as ts_detect: candidates in the order to try them, overlaps
     * allowed. Returns the count (<= max) or -1 with err (TSCV_ERR_MAX). */
    int (*find)(void *reader, const ts_image *frame, ts_quad *out, int max, char *err);
    /* Optional, with find: the reading find() already made of exactly quad q
     * (the same floats) of the frame it was given, warped as the pipeline
     * warps (tscv_warp_quad to card_w x card_h), so the pipeline takes it
     * instead of warping and reading q again: the same reading, except
     * where q marks only the part of a card that shows (a Gang of Four
     * pile card's index view, a Chinese fan card's strip): its reading is
     * of the whole card find() saw, which only read_found gives. Returns 1
     * and fills out, or 0 when find() kept none for q. Asked only between a
     * find() and the next, of the quads that find() returned. */
    int (*read_found)(void *reader, const ts_pt q[4], ts_reading *out);
} ts_reader_class;

/* One reader alone on a frame, as tools and tests measure a family without
 * the pipeline's other policies (vision/reader_take.c): the finder's
 * candidates cand[0..nc) in order, each warped and read unless it overlaps
 * a card already taken (or the finder read it already: read_found), and
 * taken when the reader says it is a card. Fills
 * taken[] and reads[] (room for max) and, unless NULL, taken_as[c]: the card
 * candidate c became, or -1. rd NULL: the finder alone (every candidate free
 * of overlaps is taken, code 255, conf 1). card is the caller's work image.
 * Returns the number of cards, or -1 with err (TSCV_ERR_MAX). */
int ts_reader_take(const ts_reader_class *cls, void *rd, const ts_image *frame,
                   const ts_quad *cand, int nc, ts_image *card, ts_quad *taken,
                   ts_reading *reads, int *taken_as, int max, char *err);

/* The registry (vision/readers/registry.c). */

/* Every class, NULL-terminated, in the order --game auto tries them. */
const ts_reader_class *const *ts_reader_classes(void);
/* The class for a family or game name ("set", "gof", "sapngwu", "eleusis",
 * "playing", "qwirkle", "domino"...), or NULL. */
const ts_reader_class *ts_reader_class_by_name(const char *name);
/* The class that knows this profile name (e.g. "tiles" -> qwirkle), or NULL. */
const ts_reader_class *ts_reader_class_by_profile(const char *profile);

#endif
