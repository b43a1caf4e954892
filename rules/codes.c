/* Card code parsing and formatting for every family (see codes.h). */
#include "codes.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const ts_set_letters TS_SET_CLASSIC_LETTERS = {{{'1', '2', '3'},
                                                {'R', 'G', 'P'},
                                                {'D', 'O', 'S'},
                                                {'S', 'T', 'O'}}};

static const char PLAY_RANKS[] = "A23456789TJQK";
static const char PLAY_SUITS[] = "CDHS";
static const char GOF_COLOURS[] = "GYR";
static const char QW_COLOURS[] = "ROYGBP";
static const char QW_SHAPES[] = "CXDSTL";

static const char *const FAMILY_NAMES[TS_FAM_COUNT] = {"set", "playing", "gof", "qwirkle",
                                                       "domino"};

int ts_family_size(ts_family fam)
{
    static const int sizes[TS_FAM_COUNT] = {81, 52, 64, 36, 28};
    return (unsigned)fam < TS_FAM_COUNT ? sizes[fam] : 0;
}

const char *ts_family_name(ts_family fam)
{
    return (unsigned)fam < TS_FAM_COUNT ? FAMILY_NAMES[fam] : "?";
}

int ts_family_from_name(const char *name)
{
    for (int i = 0; i < TS_FAM_COUNT; i++)
        if (strcmp(name, FAMILY_NAMES[i]) == 0)
            return i;
    if (strcmp(name, "sapngwu") == 0)
        return TS_FAM_DOMINO;
    return -1;
}

/* Position of upper-cased c in set[0..n), or -1. */
static int find_letter(const char *set, int n, char c)
{
    c = (char)toupper((unsigned char)c);
    for (int i = 0; i < n; i++)
        if (set[i] == c)
            return i;
    return -1;
}

/* ---- SET ---------------------------------------------------------------- */

int ts_set_parse(const ts_set_letters *letters, const char *text, size_t len, int *idx)
{
    if (!letters)
        letters = &TS_SET_CLASSIC_LETTERS;
    if (len != 4)
        return -1;
    int v[4];
    for (int a = 0; a < 4; a++) {
        v[a] = find_letter(letters->v[a], 3, text[a]);
        if (v[a] < 0)
            return -1;
    }
    *idx = ts_set_make(v[0], v[1], v[2], v[3]);
    return 0;
}

void ts_set_format(const ts_set_letters *letters, int idx, char out[TS_CODE_MAXLEN])
{
    if (!letters)
        letters = &TS_SET_CLASSIC_LETTERS;
    for (int a = 0; a < 4; a++)
        out[a] = letters->v[a][ts_set_attr(idx, a)];
    out[4] = '\0';
}

/* ---- Domino ------------------------------------------------------------- */

int ts_domino_index(int low, int high)
{
    if (low > high) {
        int t = low;
        low = high;
        high = t;
    }
    if (low < 0 || high > 6)
        return -1;
    if (low == 0) /* blank ends come after the 21 Chinese kinds, so those keep 0..20 */
        return TS_DOMINO_BLANK0 + high;
    /* Tiles before row `low`: rows 1..low-1 hold 6, 5, ... tiles. */
    int before = 0;
    for (int l = 1; l < low; l++)
        before += 7 - l;
    return before + (high - low);
}

void ts_domino_pips(int idx, int *low, int *high)
{
    if (idx >= TS_DOMINO_BLANK0) {
        *low = 0;
        *high = idx - TS_DOMINO_BLANK0 <= 6 ? idx - TS_DOMINO_BLANK0 : 6;
        return;
    }
    int l = 1;
    while (idx >= 7 - l) {
        idx -= 7 - l;
        l++;
    }
    *low = l;
    *high = l + idx;
}

/* ---- Generic ------------------------------------------------------------ */

/* Parses "1".."10" in text[0..len); returns the number or -1. */
static int parse_number(const char *text, size_t len)
{
    if (len == 1 && text[0] >= '1' && text[0] <= '9')
        return text[0] - '0';
    if (len == 2 && text[0] == '1' && text[1] == '0')
        return 10;
    return -1;
}

int ts_code_parse(ts_family fam, const char *text, size_t len, ts_code *out)
{
    int idx = -1;
    switch (fam) {
    case TS_FAM_SET:
        if (ts_set_parse(NULL, text, len, &idx) < 0)
            return -1;
        break;
    case TS_FAM_PLAYING: {
        if (len == 3 && text[0] == '1' && text[1] == '0') { /* "10H" reads as "TH" */
            text++;
            len--;
            int s = find_letter(PLAY_SUITS, 4, text[1]);
            if (s < 0)
                return -1;
            idx = s * 13 + 9;
            break;
        }
        if (len != 2)
            return -1;
        int r = find_letter(PLAY_RANKS, 13, text[0]);
        int s = find_letter(PLAY_SUITS, 4, text[1]);
        if (r < 0 || s < 0)
            return -1;
        idx = s * 13 + r;
        break;
    }
    case TS_FAM_GOF: {
        if (len == 2) {
            char a = (char)toupper((unsigned char)text[0]);
            char b = (char)toupper((unsigned char)text[1]);
            if (a == 'M' && b == '1')
                idx = 60;
            else if (a == 'G' && b == 'P')
                idx = 61;
            else if (a == 'Y' && b == 'P')
                idx = 62;
            else if (a == 'R' && b == 'D')
                idx = 63;
            if (idx >= 0)
                break;
        }
        if (len < 2)
            return -1;
        int c = find_letter(GOF_COLOURS, 3, text[0]);
        int n = parse_number(text + 1, len - 1);
        if (c < 0 || n < 0)
            return -1;
        idx = c * 10 + n - 1;
        break;
    }
    case TS_FAM_QWIRKLE: {
        if (len != 2)
            return -1;
        int c = find_letter(QW_COLOURS, 6, text[0]);
        int s = find_letter(QW_SHAPES, 6, text[1]);
        if (c < 0 || s < 0)
            return -1;
        idx = c * 6 + s;
        break;
    }
    case TS_FAM_DOMINO:
        if (len != 3 || text[1] != ':' || !isdigit((unsigned char)text[0]) ||
            !isdigit((unsigned char)text[2]))
            return -1;
        idx = ts_domino_index(text[0] - '0', text[2] - '0');
        if (idx < 0)
            return -1;
        break;
    default:
        return -1;
    }
    out->family = (uint8_t)fam;
    out->idx = (uint8_t)idx;
    return 0;
}

int ts_code_format(ts_code code, char out[TS_CODE_MAXLEN])
{
    int i = code.idx;
    switch ((ts_family)code.family) {
    case TS_FAM_SET:
        ts_set_format(NULL, i, out);
        break;
    case TS_FAM_PLAYING:
        out[0] = PLAY_RANKS[i % 13];
        out[1] = PLAY_SUITS[i / 13];
        out[2] = '\0';
        break;
    case TS_FAM_GOF: {
        static const char *const specials[4] = {"M1", "GP", "YP", "RD"};
        if (i >= 60)
            snprintf(out, TS_CODE_MAXLEN, "%s", specials[(i - 60) & 3]);
        else if (i < 30)
            snprintf(out, TS_CODE_MAXLEN, "%c%d", GOF_COLOURS[i / 10], i % 10 + 1);
        else
            snprintf(out, TS_CODE_MAXLEN, "?"); /* 30..59: no card */
        break;
    }
    case TS_FAM_QWIRKLE:
        out[0] = QW_COLOURS[i / 6];
        out[1] = QW_SHAPES[i % 6];
        out[2] = '\0';
        break;
    case TS_FAM_DOMINO: {
        int lo, hi;
        ts_domino_pips(i, &lo, &hi);
        out[0] = (char)('0' + lo);
        out[1] = ':';
        out[2] = (char)('0' + hi);
        out[3] = '\0';
        break;
    }
    default:
        snprintf(out, TS_CODE_MAXLEN, "?");
    }
    return (int)strlen(out);
}

static int is_separator(char c)
{
    return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r';
}

/* Parses the tokens of text[0..len) into codes[] or idx[] (whichever is not NULL). */
static int parse_tokens(ts_family fam, const char *text, size_t len, ts_code *codes, int *idx,
                        int max, char *err, size_t errlen)
{
    int n = 0;
    const char *p = text, *end = text + len;
    for (;;) {
        while (p < end && is_separator(*p))
            p++;
        if (p == end)
            break;
        const char *start = p;
        while (p < end && !is_separator(*p))
            p++;
        size_t toklen = (size_t)(p - start);
        ts_code code;
        if (n >= max) {
            snprintf(err, errlen, "too many cards (at most %d)", max);
            return -1;
        }
        if (ts_code_parse(fam, start, toklen, &code) < 0) {
            snprintf(err, errlen, "'%.*s' is not a %s card code", (int)(toklen > 32 ? 32 : toklen),
                     start, ts_family_name(fam));
            return -1;
        }
        if (codes)
            codes[n] = code;
        else
            idx[n] = code.idx;
        n++;
    }
    return n;
}

int ts_code_parse_listn(ts_family fam, const char *text, size_t len, ts_code *out, int max,
                        char *err, size_t errlen)
{
    return parse_tokens(fam, text, len, out, NULL, max, err, errlen);
}

int ts_code_parse_list(ts_family fam, const char *text, ts_code *out, int max, char *err,
                       size_t errlen)
{
    return parse_tokens(fam, text, strlen(text), out, NULL, max, err, errlen);
}

int ts_code_parse_indices(ts_family fam, const char *text, int *idx, int max, char *err,
                          size_t errlen)
{
    return parse_tokens(fam, text, strlen(text), NULL, idx, max, err, errlen);
}

/* ---- Ranked lists ----------------------------------------------------------- */

void ts_rank_insert(void *list, size_t size, int *kept, int max, const void *item,
                    int (*before)(const void *a, const void *b))
{
    char *base = list;
    int pos = *kept;
    while (pos > 0 && before(item, base + (size_t)(pos - 1) * size))
        pos--;
    if (pos >= max)
        return;
    int last = *kept < max ? *kept : max - 1; /* the element that falls off, if full */
    memmove(base + (size_t)(pos + 1) * size, base + (size_t)pos * size,
            (size_t)(last - pos) * size);
    memcpy(base + (size_t)pos * size, item, size);
    if (*kept < max)
        (*kept)++;
}
