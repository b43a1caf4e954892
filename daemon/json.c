#include "json.h"

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

void ts_json_init(ts_json *j)
{
    memset(j, 0, sizeof *j);
    j->first[0] = 1;
}

void ts_json_free(ts_json *j)
{
    ts_buf_free(&j->buf);
}

void ts_json_reset(ts_json *j)
{
    ts_buf_clear(&j->buf);
    j->depth = 0;
    j->first[0] = 1;
    j->after_key = 0;
}

/* Comma before a value unless it is the first at its level or follows a key. */
static void sep(ts_json *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (!j->first[j->depth])
        ts_buf_add(&j->buf, ",", 1);
    j->first[j->depth] = 0;
}

static void open(ts_json *j, char c)
{
    sep(j);
    ts_buf_add(&j->buf, &c, 1);
    if (j->depth + 1 >= TS_JSON_MAX_DEPTH) { /* deeper than any document we write */
        j->buf.failed = 1;
        return;
    }
    j->depth++;
    j->first[j->depth] = 1;
    j->open[j->depth] = c;
}

void ts_json_obj(ts_json *j)
{
    open(j, '{');
}

void ts_json_arr(ts_json *j)
{
    open(j, '[');
}

void ts_json_end(ts_json *j)
{
    if (j->depth == 0)
        return;
    char close = j->open[j->depth] == '{' ? '}' : ']';
    ts_buf_add(&j->buf, &close, 1);
    j->depth--;
}

static void string(ts_buf *b, const char *s)
{
    ts_buf_add(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': ts_buf_add(b, "\\\"", 2); break;
        case '\\': ts_buf_add(b, "\\\\", 2); break;
        case '\n': ts_buf_add(b, "\\n", 2); break;
        case '\r': ts_buf_add(b, "\\r", 2); break;
        case '\t': ts_buf_add(b, "\\t", 2); break;
        default:
            if (*p < 0x20)
                ts_buf_printf(b, "\\u%04x", *p);
            else
                ts_buf_add(b, (const char *)p, 1);
        }
    }
    ts_buf_add(b, "\"", 1);
}

void ts_json_key(ts_json *j, const char *key)
{
    sep(j);
    string(&j->buf, key);
    ts_buf_add(&j->buf, ":", 1);
    j->after_key = 1;
}

void ts_json_str(ts_json *j, const char *s)
{
    sep(j);
    string(&j->buf, s);
}

void ts_json_int(ts_json *j, long long v)
{
    sep(j);
    ts_buf_printf(&j->buf, "%lld", v);
}

void ts_json_num(ts_json *j, double v, int decimals)
{
    sep(j);
    if (!isfinite(v))
        ts_buf_add(&j->buf, "null", 4);
    else
        ts_buf_printf(&j->buf, "%.*f", decimals, v);
}

void ts_json_bool(ts_json *j, int v)
{
    sep(j);
    ts_buf_add(&j->buf, v ? "true" : "false", v ? 4 : 5);
}

void ts_json_null(ts_json *j)
{
    sep(j);
    ts_buf_add(&j->buf, "null", 4);
}
