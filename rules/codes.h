/* Card codes: the one text form used everywhere (CLI, JSON, label files).
 *
 * Every card is a (family, index) pair; the index is dense per family so tables
 * can be plain arrays.  See ARCHITECTURE.md "Card codes".
 *
 *   SET       idx = ((count*3 + colour)*3 + shape)*3 + shading, each 0..2   (0..80)
 *             classic letters: count 1 2 3, colour R G P, shape D O S, shading S T O
 *   playing   idx = suit*13 + rank; rank A 2..9 T J Q K (0..12), suit C D H S (0..51)
 *   gof       idx = colour*10 + number-1 with colour G Y R (0..29; the deck holds
 *             two of each); 30..59 are not cards (never parsed; format gives "?");
 *             60 = M1 (multicoloured 1), 61 = GP, 62 = YP (phoenixes), 63 = RD (dragon)
 *   qwirkle   idx = colour*6 + shape; colour R O Y G B P, shape C X D S T L (0..35)
 *   domino    "low:high", 0 <= low <= high <= 6: idx 0..20 are the 21 kinds with
 *             1 <= low (the Chinese deck, in (low, high) order), 21..27 are the
 *             western double-six tiles with a blank end, 0:0 .. 0:6
 *
 * Pure functions, no allocation, no global state.
 */
#ifndef TS_CODES_H
#define TS_CODES_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    TS_FAM_SET = 0,
    TS_FAM_PLAYING,
    TS_FAM_GOF,
    TS_FAM_QWIRKLE,
    TS_FAM_DOMINO,
    TS_FAM_COUNT
} ts_family;

typedef struct {
    uint8_t family; /* ts_family */
    uint8_t idx;    /* dense index within the family */
} ts_code;

enum { TS_CODE_MAXLEN = 8 }; /* longest text form plus NUL ("Y10", "2GST", "6:6") */

/* Number of distinct card kinds in a family (81, 52, 64, 36, 28). */
int ts_family_size(ts_family fam);
/* "set", "playing", "gof", "qwirkle", "domino". */
const char *ts_family_name(ts_family fam);
/* Returns the family for a name (also accepts "sapngwu" for domino), -1 if unknown. */
int ts_family_from_name(const char *name);

/* ---- SET ---------------------------------------------------------------- */

enum { TS_SET_NUM = 0, TS_SET_COLOUR = 1, TS_SET_SHAPE = 2, TS_SET_SHADING = 3 };

/* Letters a deck prints its attribute values with: v[attr][value]. */
typedef struct {
    char v[4][3];
} ts_set_letters;

extern const ts_set_letters TS_SET_CLASSIC_LETTERS; /* 123 RGP DOS STO (read-only) */

static inline int ts_set_attr(int idx, int attr)
{
    static const int div[4] = {27, 9, 3, 1};
    return (idx / div[attr]) % 3;
}
static inline int ts_set_make(int num, int colour, int shape, int shading)
{
    return ((num * 3 + colour) * 3 + shape) * 3 + shading;
}

/* Parse/format a SET code with the given letters (NULL = classic). Parsing is
 * case-insensitive. Returns 0 on success, -1 on a malformed code. */
int ts_set_parse(const ts_set_letters *letters, const char *text, size_t len, int *idx);
void ts_set_format(const ts_set_letters *letters, int idx, char out[TS_CODE_MAXLEN]);

/* ---- Generic ------------------------------------------------------------ */

/* Parses one code of the family from text[0..len). SET uses classic letters.
 * Returns 0 on success, -1 if malformed. */
int ts_code_parse(ts_family fam, const char *text, size_t len, ts_code *out);
/* Writes the canonical text form; returns its length. */
int ts_code_format(ts_code code, char out[TS_CODE_MAXLEN]);

/* Parses a list of codes separated by spaces, commas or tabs. Returns the number
 * parsed (<= max), or -1 with a message naming the bad token in err. */
int ts_code_parse_list(ts_family fam, const char *text, ts_code *out, int max,
                       char *err, size_t errlen);

/* Same, over text[0..len) (no NUL needed): for lists inside a larger string. */
int ts_code_parse_listn(ts_family fam, const char *text, size_t len, ts_code *out, int max,
                        char *err, size_t errlen);

/* Same as ts_code_parse_list, giving plain indices (what the game files take). */
int ts_code_parse_indices(ts_family fam, const char *text, int *idx, int max, char *err,
                          size_t errlen);

/* Domino helpers: low/high pips of an index and back. Indices below
 * TS_DOMINO_CHINESE have no blank end (the Chinese 21); a blank end (0 pips,
 * double-six tiles) is idx TS_DOMINO_BLANK0 + high. */
enum { TS_DOMINO_CHINESE = 21, TS_DOMINO_BLANK0 = 21 };
int ts_domino_index(int low, int high); /* either order; -1 if out of range */
void ts_domino_pips(int idx, int *low, int *high);

/* ---- Ranked lists (shared by the game files) ------------------------------ */

/* Inserts *item into list[0..*kept) of elements of `size` bytes kept sorted by
 * before(a, b) ("a ranks ahead of b"), holding at most max elements: the best
 * max of everything offered. Ties keep the order offered. */
void ts_rank_insert(void *list, size_t size, int *kept, int max, const void *item,
                    int (*before)(const void *a, const void *b));

#endif
