/* Label files: `image<TAB>codes` per line, codes of every card in the image,
 * space separated, in the deck profile's letters; '#' comment lines; a UTF-8
 * byte-order mark and CRLF line ends are accepted. Image paths are relative to
 * the label file unless absolute. */
#ifndef TS_LABELS_H
#define TS_LABELS_H

#include <stddef.h>

#include "card.h"
#include "codes.h"

enum { TS_LABEL_MAX_CARDS = TS_MAX_CARDS };

typedef struct {
    char *path; /* resolved image path (owned) */
    char *name; /* as written in the label file (owned) */
    int n;
    ts_code code[TS_LABEL_MAX_CARDS];
} ts_label;

/* Reads one code as the deck prints it: 0 with *out, or -1. */
typedef int (*ts_label_code_fn)(void *ctx, const char *text, size_t len, ts_code *out);

/* Parses len bytes of a label file named file (for messages and the base of
 * relative paths); codes are read by code(ctx, ...), `family` names them in
 * messages. Returns 0 with *out (caller frees with ts_labels_free) and
 * *nout >= 1, or -1 with "FILE:LINE: problem" in err and nothing to free. */
int ts_labels_parse(const char *text, size_t len, const char *file, ts_label_code_fn code,
                    void *ctx, const char *family, ts_label **out, int *nout, char *err,
                    size_t errlen);
/* Reads and parses a label file (a regular file of at most 64 MB). */
int ts_labels_load(const char *file, ts_label_code_fn code, void *ctx, const char *family,
                   ts_label **out, int *nout, char *err, size_t errlen);
void ts_labels_free(ts_label *ls, int n);

#endif
