/* A growable text buffer and a minimal JSON writer on top of it, so every
 * output (stdout lines, socket clients, reports) shares one encoder.
 *
 * Usage:  ts_json j; ts_json_init(&j);
 *         ts_json_obj(&j); ts_json_key(&j, "n"); ts_json_int(&j, 3); ts_json_end(&j);
 *         fputs(j.buf.data, stdout); ts_json_free(&j);
 * Commas are inserted automatically. Out-of-memory makes the buffer sticky-failed
 * (buf.failed), checked once at the end.
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

typedef struct {
    ts_buf buf;
    int depth;
    unsigned char first[TS_JSON_MAX_DEPTH]; /* no element written yet at this level */
    char open[TS_JSON_MAX_DEPTH];           /* '{' or '[' opened at this level */
    int after_key;
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

#endif
