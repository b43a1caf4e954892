/* Deck profile parsing (see profile.h). */
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "imageio.h"

static const char *const ATTR_NAMES[TS_ATTR_COUNT] = {"colour", "shape", "shading"};
/* Profile attribute -> codes.h attribute (for letters). */
static const int ATTR_CODE[TS_ATTR_COUNT] = {TS_SET_COLOUR, TS_SET_SHAPE, TS_SET_SHADING};

static int attr_by_name(const char *s)
{
    for (int i = 0; i < TS_ATTR_COUNT; i++)
        if (strcmp(s, ATTR_NAMES[i]) == 0)
            return i;
    return -1;
}

int ts_profile_words(char *line, char **w, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(line, " \t\r", &save); p && n < max;
         p = strtok_r(NULL, " \t\r", &save))
        w[n++] = p;
    return n;
}

int ts_profile_line(const char *text, size_t len, size_t *pos, char *line, size_t cap, char **w,
                    int maxw, const char **why)
{
    size_t e = *pos;
    while (e < len && text[e] != '\n')
        e++;
    size_t n = e - *pos;
    if (n >= cap) {
        *why = "line too long";
        return -1;
    }
    memcpy(line, text + *pos, n);
    line[n] = '\0';
    *pos = e + 1;
    if (memchr(line, '\0', n)) {
        *why = "NUL byte";
        return -1;
    }
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    return ts_profile_words(line, w, maxw);
}

int ts_profile_float(const char *s, float *v)
{
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end || !(d > -1e6 && d < 1e6))
        return -1;
    *v = (float)d;
    return 0;
}

int ts_profile_parse(const char *text, size_t len, ts_profile *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->letters = TS_SET_CLASSIC_LETTERS;
    out->conf_floor = 0.3f;
    snprintf(out->name, sizeof out->name, "unnamed");
    int version = 0, lineno = 0;
    size_t pos = 0;
    char line[512];
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (err) {                                                                                 \
            int k_ = snprintf(err, errlen, "line %d: ", lineno);                                   \
            if (k_ > 0 && (size_t)k_ < errlen)                                                     \
                snprintf(err + k_, errlen - (size_t)k_, __VA_ARGS__);                              \
        }                                                                                          \
        return -1;                                                                                 \
    } while (0)
    while (pos < len) {
        lineno++;
        char *w[8];
        const char *why;
        int nw = ts_profile_line(text, len, &pos, line, sizeof line, w, 8, &why);
        if (nw < 0)
            FAIL("%s", why);
        if (nw == 0)
            continue;
        if (!version) {
            if (strcmp(w[0], "profile") != 0 || nw != 2 || strcmp(w[1], "1") != 0)
                FAIL("expected 'profile 1' as the first statement");
            version = 1;
            continue;
        }
        if (strcmp(w[0], "name") == 0 && nw == 2) {
            snprintf(out->name, sizeof out->name, "%s", w[1]);
        } else if (strcmp(w[0], "family") == 0 && nw == 2) {
            if (strcmp(w[1], "set") != 0)
                FAIL("family '%s' has no reader (only 'set')", w[1]);
        } else if (strcmp(w[0], "letters") == 0 && nw == 5) {
            for (int a = 0; a < 4; a++) {
                if (strlen(w[a + 1]) != 3)
                    FAIL("letters: '%s' must be three letters", w[a + 1]);
                for (int v = 0; v < 3; v++) {
                    char c = w[a + 1][v];
                    if (c <= ' ' || c > '~')
                        FAIL("letters: bad character");
                    out->letters.v[a][v] = c;
                }
                if (w[a + 1][0] == w[a + 1][1] || w[a + 1][1] == w[a + 1][2] ||
                    w[a + 1][0] == w[a + 1][2])
                    FAIL("letters: '%s' repeats a letter", w[a + 1]);
            }
        } else if (strcmp(w[0], "conf_floor") == 0 && nw == 2) {
            if (ts_profile_float(w[1], &out->conf_floor) < 0 || out->conf_floor < 0 ||
                out->conf_floor > 1)
                FAIL("conf_floor must be a number in 0..1");
        } else if (strcmp(w[0], "min_chroma") == 0 && nw == 2) {
            if (ts_profile_float(w[1], &out->min_chroma) < 0 || out->min_chroma < 0 ||
                out->min_chroma > 1)
                FAIL("min_chroma must be a number in 0..1");
        } else if (strcmp(w[0], "scale") == 0 && nw >= 3) {
            int a = attr_by_name(w[1]);
            if (a < 0)
                FAIL("unknown attribute '%s'", w[1]);
            ts_attr_model *m = &out->attr[a];
            if (nw - 2 > TS_PROFILE_MAX_FEAT)
                FAIL("at most %d features", TS_PROFILE_MAX_FEAT);
            m->nfeat = nw - 2;
            for (int i = 0; i < m->nfeat; i++)
                if (ts_profile_float(w[2 + i], &m->scale[i]) < 0 || m->scale[i] <= 0)
                    FAIL("scale: '%s' is not a positive number", w[2 + i]);
        } else if ((strcmp(w[0], "proto") == 0 || strcmp(w[0], "spread") == 0) && nw >= 4) {
            int is_spread = w[0][0] == 's';
            int a = attr_by_name(w[1]);
            if (a < 0)
                FAIL("unknown attribute '%s'", w[1]);
            ts_attr_model *m = &out->attr[a];
            if (!m->nfeat)
                FAIL("%s %s before its scale line", w[0], w[1]);
            if (strlen(w[2]) != 1)
                FAIL("%s: '%s' is not one letter", w[0], w[2]);
            const char *vals = out->letters.v[ATTR_CODE[a]];
            const char *hit = memchr(vals, w[2][0], 3);
            if (!hit)
                FAIL("%s: '%s' is not one of the %s letters", w[0], w[2], ATTR_NAMES[a]);
            int v = (int)(hit - vals);
            if (nw - 3 != m->nfeat)
                FAIL("%s %s %s: expected %d features", w[0], w[1], w[2], m->nfeat);
            if (is_spread && m->nmodes[v] == 0)
                FAIL("spread %s %s before its proto line", w[1], w[2]);
            if (!is_spread && m->nmodes[v] == TS_PROFILE_MAX_MODES)
                FAIL("more than %d protos for %s %s", TS_PROFILE_MAX_MODES, w[1], w[2]);
            int k = is_spread ? m->nmodes[v] - 1 : m->nmodes[v];
            for (int i = 0; i < m->nfeat; i++) {
                float *dst = is_spread ? &m->spread[v][k][i] : &m->proto[v][k][i];
                if (ts_profile_float(w[3 + i], dst) < 0 || (is_spread && *dst <= 0))
                    FAIL("%s: '%s' is not a%s number", w[0], w[3 + i],
                         is_spread ? " positive" : "");
            }
            if (!is_spread)
                m->nmodes[v]++;
        } else {
            FAIL("unknown or malformed statement '%s'", w[0]);
        }
    }
    if (!version)
        FAIL("empty profile");
    for (int a = 0; a < TS_ATTR_COUNT; a++)
        for (int v = 0; v < 3; v++)
            if (!out->attr[a].nmodes[v])
                FAIL("missing proto %s %c", ATTR_NAMES[a], out->letters.v[ATTR_CODE[a]][v]);
    return 0;
#undef FAIL
}

int ts_profile_load(const char *name, const char *dir, ts_profile *out, char *err, size_t errlen)
{
    char path[1024];
    size_t n = strlen(name);
    if (strchr(name, '/') || (n > 8 && strcmp(name + n - 8, ".profile") == 0))
        snprintf(path, sizeof path, "%s", name);
    else {
        char file[300];
        snprintf(file, sizeof file, "%.280s.profile", name);
        ts_model_path(dir, file, path, sizeof path);
    }
    uint8_t *data;
    size_t len;
    if (ts_read_file(path, 1 << 20, &data, &len, err, errlen) < 0)
        return -1;
    char why[200];
    int rc = ts_profile_parse((const char *)data, len, out, why, sizeof why);
    free(data);
    if (rc < 0 && err)
        snprintf(err, errlen, "%s: %s", path, why);
    return rc;
}

int ts_profile_format(const ts_profile *p, char *buf, size_t len)
{
    size_t k = 0;
#define OUT(...)                                                                                   \
    do {                                                                                           \
        int r_ = snprintf(buf + k, k < len ? len - k : 0, __VA_ARGS__);                            \
        if (r_ < 0)                                                                                \
            return -1;                                                                             \
        k += (size_t)r_;                                                                           \
    } while (0)
    OUT("profile 1\nname %s\nfamily set\nletters", p->name);
    for (int a = 0; a < 4; a++)
        OUT(" %.3s", p->letters.v[a]);
    OUT("\nconf_floor %.2f\n", p->conf_floor);
    if (p->min_chroma > 0)
        OUT("min_chroma %.3f\n", p->min_chroma);
    for (int a = 0; a < TS_ATTR_COUNT; a++) {
        const ts_attr_model *m = &p->attr[a];
        OUT("scale %s", ATTR_NAMES[a]);
        for (int i = 0; i < m->nfeat; i++)
            OUT(" %.4f", m->scale[i]);
        OUT("\n");
        for (int v = 0; v < 3; v++)
            for (int mode = 0; mode < m->nmodes[v]; mode++) {
                char letter = p->letters.v[ATTR_CODE[a]][v];
                OUT("proto %s %c", ATTR_NAMES[a], letter);
                for (int i = 0; i < m->nfeat; i++)
                    OUT(" %.4f", m->proto[v][mode][i]);
                OUT("\n");
                if (m->spread[v][mode][0] <= 0)
                    continue;
                OUT("spread %s %c", ATTR_NAMES[a], letter);
                for (int i = 0; i < m->nfeat; i++)
                    OUT(" %.4f", m->spread[v][mode][i]);
                OUT("\n");
            }
    }
    return k < len ? (int)k : -1;
#undef OUT
}
