/* Deck profiles (models/NAME.profile): everything deck-specific the SET reader
 * needs — the letters the deck prints, and one prototype feature vector per
 * attribute value — so no deck is hard-coded in C.
 *
 * Text format, one statement per line, '#' comments:
 *   profile 1                      format version (required, first statement)
 *   name classic
 *   family set
 *   letters 123 RGP DOS STO        count, colour, shape, shading letters
 *   conf_floor 0.30                below this a card is unread
 *   min_chroma 0.015               optional: how far from grey the ink's colour
 *                                  features lie at least (a patterned cloth is not a card)
 *   scale colour 0.040 0.040       per-feature scale of an attribute's distance
 *   proto colour R 0.06 0.47       a prototype of value R (features in that order);
 *                                  repeat for more modes of the same value
 *   spread colour R 0.03 0.05      optional: the spread of R's latest prototype
 */
#ifndef TS_PROFILE_H
#define TS_PROFILE_H

#include <stddef.h>

#include "codes.h"

enum { TS_PROFILE_MAX_FEAT = 4, TS_PROFILE_MAX_MODES = 3 };

/* Attributes with learned prototypes (count is read directly). */
enum { TS_ATTR_COLOUR = 0, TS_ATTR_SHAPE = 1, TS_ATTR_SHADING = 2, TS_ATTR_COUNT = 3 };

/* Each value 0..2 of an attribute is one or more prototypes ("modes": the
 * same ink looks different through a webcam and a DSLR), each a mean feature
 * vector with its own spread. */
typedef struct {
    int nfeat;                        /* features per prototype */
    float scale[TS_PROFILE_MAX_FEAT]; /* default spread per feature */
    int nmodes[3];                    /* prototypes per value (>= 1 once parsed) */
    float proto[3][TS_PROFILE_MAX_MODES][TS_PROFILE_MAX_FEAT];
    float spread[3][TS_PROFILE_MAX_MODES][TS_PROFILE_MAX_FEAT]; /* 0 = use scale[] */
} ts_attr_model;

typedef struct {
    char name[32];
    ts_set_letters letters;
    float conf_floor;
    float min_chroma; /* ink greyer than this is not the deck's (0 = any) */
    ts_attr_model attr[TS_ATTR_COUNT];
} ts_profile;

/* Parses profile text. Returns 0, or -1 with "line N: problem" in err. */
int ts_profile_parse(const char *text, size_t len, ts_profile *out, char *err, size_t errlen);
/* Loads a profile by name (looked up as DIR/NAME.profile) or by path (contains
 * '/' or ends in .profile). dir NULL = models/ of the data directory (datadir.h). */
int ts_profile_load(const char *name_or_path, const char *dir, ts_profile *out, char *err,
                    size_t errlen);
/* Helpers for the readers' own text profiles: split a line into at most max
 * whitespace-separated words (in place; returns how many), and parse a
 * finite float of at most 1e6 in size (returns 0 or -1). */
int ts_profile_words(char *line, char **w, int max);
int ts_profile_float(const char *s, float *v);
/* The next line of text[*pos..len) (call while *pos < len) copied into
 * line[cap], its '#' comment cut, split into at most maxw words. Returns the
 * number of words (0: a blank line), or -1 with *why ("line too long", "NUL
 * byte"). */
int ts_profile_line(const char *text, size_t len, size_t *pos, char *line, size_t cap, char **w,
                    int maxw, const char **why);

/* Writes a profile in the text format (for the training tool). */
int ts_profile_format(const ts_profile *p, char *buf, size_t len);

#endif
