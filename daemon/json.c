#include "json.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ts_buf_init(ts_buf *b)
{
    memset(b, 0, sizeof *b);
}

void ts_buf_free(ts_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void ts_buf_clear(ts_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static int reserve(ts_buf *b, size_t extra)
{
    if (b->failed)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = 1;
        return -1;
    }
    b->data = d;
    b->cap = cap;
    return 0;
}

void ts_buf_add(ts_buf *b, const char *s, size_t n)
{
    if (reserve(b, n) < 0)
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void ts_buf_printf(ts_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(b, (size_t)n) < 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* ---- JSON writer (libcjson) ---------------------------------------------- */

void ts_json_init(ts_json *j)
{
    memset(j, 0, sizeof *j);
}

/* Drops a document under construction. */
static void drop_open(ts_json *j)
{
    if (j->depth > 0)
        cJSON_Delete(j->open[0]);
    j->depth = 0;
    free(j->key);
    j->key = NULL;
}

void ts_json_free(ts_json *j)
{
    drop_open(j);
    ts_buf_free(&j->buf);
}

void ts_json_reset(ts_json *j)
{
    drop_open(j);
    ts_buf_clear(&j->buf);
}

/* The root is complete: its text goes to buf. */
static void finish(ts_json *j, cJSON *root)
{
    char *text = cJSON_PrintUnformatted(root);
    if (text)
        ts_buf_add(&j->buf, text, strlen(text));
    else
        j->buf.failed = 1;
    cJSON_free(text);
    cJSON_Delete(root);
}

/* Places a new value (NULL = out of memory) in the open container, or as
 * the root. Containers stay open until ts_json_end. */
static void add(ts_json *j, cJSON *item)
{
    if (!item || j->buf.failed) {
        j->buf.failed = 1;
        cJSON_Delete(item);
        return;
    }
    int container = cJSON_IsObject(item) || cJSON_IsArray(item);
    if (j->depth == 0) {
        if (!container) {
            finish(j, item);
            return;
        }
    } else {
        cJSON *parent = j->open[j->depth - 1];
        int ok;
        if (cJSON_IsObject(parent))
            ok = j->key && cJSON_AddItemToObject(parent, j->key, item);
        else
            ok = !j->key && cJSON_AddItemToArray(parent, item);
        free(j->key);
        j->key = NULL;
        if (!ok) {
            j->buf.failed = 1;
            cJSON_Delete(item);
            return;
        }
    }
    if (!container)
        return;
    if (j->depth == TS_JSON_MAX_DEPTH) { /* deeper than any document we write */
        j->buf.failed = 1;
        return; /* owned by its parent, freed with the root */
    }
    j->open[j->depth++] = item;
}

void ts_json_obj(ts_json *j)
{
    add(j, cJSON_CreateObject());
}

void ts_json_arr(ts_json *j)
{
    add(j, cJSON_CreateArray());
}

void ts_json_end(ts_json *j)
{
    if (j->depth == 0)
        return;
    cJSON *closed = j->open[--j->depth];
    if (j->depth == 0) {
        if (j->buf.failed)
            cJSON_Delete(closed);
        else
            finish(j, closed);
    }
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    size_t len;
    unsigned min;
    unsigned cp;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        len = 2, min = 0x80, cp = p[0] & 0x1F;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        len = 3, min = 0x800, cp = p[0] & 0x0F;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        len = 4, min = 0x10000, cp = p[0] & 0x07;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* s as valid UTF-8: each byte that starts no valid sequence becomes U+FFFD.
 * Returns s itself when it is valid (nothing to free), else a malloc'd copy. */
static char *valid_utf8(const char *s, int *copied)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), bad = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(p + i, n - i);
        bad += k == 0;
        i += k ? k : 1;
    }
    *copied = bad > 0;
    if (!bad)
        return (char *)s;
    char *out = malloc(n + 2 * bad + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(p + i, n - i);
        if (k) {
            memcpy(o, p + i, k);
            o += k, i += k;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3, i++;
        }
    }
    *o = '\0';
    return out;
}

void ts_json_key(ts_json *j, const char *key)
{
    int copied;
    char *k = valid_utf8(key, &copied);
    free(j->key);
    j->key = k ? (copied ? k : strdup(k)) : NULL;
    if (!j->key)
        j->buf.failed = 1;
}

void ts_json_str(ts_json *j, const char *s)
{
    int copied;
    char *v = valid_utf8(s ? s : "", &copied);
    add(j, v ? cJSON_CreateString(v) : NULL);
    if (copied)
        free(v);
}

void ts_json_int(ts_json *j, long long v)
{
    add(j, cJSON_CreateNumber((double)v));
}

void ts_json_num(ts_json *j, double v, int decimals)
{
    if (!isfinite(v)) {
        add(j, cJSON_CreateNull());
        return;
    }
    /* Rounded to the decimals asked for: cJSON prints the shortest form. */
    double scale = pow(10, decimals < 0 ? 0 : decimals > 12 ? 12 : decimals);
    double r = round(v * scale) / scale;
    add(j, cJSON_CreateNumber(isfinite(r) ? r : v));
}

void ts_json_bool(ts_json *j, int v)
{
    add(j, cJSON_CreateBool(v));
}

void ts_json_null(ts_json *j)
{
    add(j, cJSON_CreateNull());
}

/* ---- JSON reader --------------------------------------------------------- */

cJSON *ts_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t at = end && end >= text ? (size_t)(end - text) : 0;
    while (doc && at < len && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' ||
                               text[at] == '\r'))
        at++;
    if (doc && at < len) { /* one value and nothing after it */
        cJSON_Delete(doc);
        doc = NULL;
    }
    if (!doc)
        snprintf(err, errlen, "not valid JSON at byte %zu", at);
    return doc;
}

void ts_json_doc_free(cJSON *doc)
{
    cJSON_Delete(doc);
}
