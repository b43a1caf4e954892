/* A growable text buffer, and the one JSON writer every output shares
 * (stdout lines, socket clients, eval and bench summaries, the rules CLI).
 * The document is built and encoded by libcjson, so escaping and syntax are
 * the library's; this file keeps the small streaming API callers use.
 *
 * Usage:  ts_json j; ts_json_init(&j);
 *         ts_json_obj(&j); ts_json_key(&j, "n"); ts_json_int(&j, 3); ts_json_end(&j);
 *         fputs(j.buf.data, stdout); ts_json_free(&j);
 * A document appears in buf (one line, no newline) when its outermost value
 * is complete. Strings that are not valid UTF-8 (a file name in another
 * encoding) have each bad byte replaced by U+FFFD, so every line is valid
 * JSON. Numbers are rounded to the decimals asked for; NaN and infinity are
 * null. Out-of-memory or misuse (a member without a key, too deep) makes the
 * buffer sticky-failed (buf.failed), checked once at the end.
 *
 * Reading: ts_json_parse (below) for anything that reads JSON.
 */
#ifndef TS_JSON_H
#define TS_JSON_H

#include <stddef.h>

typedef struct {
    char *data; /* NUL-terminated, owned */
    size_t len, cap;
    int failed;
} ts_buf;

void ts_buf_init(ts_buf *b);
void ts_buf_free(ts_buf *b);
void ts_buf_clear(ts_buf *b);
void ts_buf_add(ts_buf *b, const char *s, size_t n);
void ts_buf_printf(ts_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum { TS_JSON_MAX_DEPTH = 32 };

struct cJSON; /* the document under construction (libcjson) */

typedef struct {
    ts_buf buf;                               /* finished documents, appended */
    struct cJSON *open[TS_JSON_MAX_DEPTH];    /* open containers, [0] the root */
    int depth;
    char *key;                                /* member name waiting for its value */
} ts_json;

void ts_json_init(ts_json *j);
void ts_json_free(ts_json *j);
void ts_json_reset(ts_json *j); /* empty the buffer for the next document */
void ts_json_obj(ts_json *j);
void ts_json_arr(ts_json *j);
void ts_json_end(ts_json *j); /* closes the innermost object or array */
void ts_json_key(ts_json *j, const char *key);
void ts_json_str(ts_json *j, const char *s);
void ts_json_int(ts_json *j, long long v);
void ts_json_num(ts_json *j, double v, int decimals);
void ts_json_bool(ts_json *j, int v);
void ts_json_null(ts_json *j);

/* Parses one JSON text (len bytes; need not be NUL-terminated). Returns the
 * document (free with ts_json_doc_free) or NULL with a one-line reason (the
 * byte offset of the error) in err. Use cJSON's accessors on it
 * (cJSON_GetObjectItemCaseSensitive, cJSON_IsString, ...). */
struct cJSON *ts_json_parse(const char *text, size_t len, char *err, size_t errlen);
void ts_json_doc_free(struct cJSON *doc);

#endif
