/* Qwirkle deck profiles (models/qwirkle_NAME.profile). Text, one statement
 * per line, '#' comments:
 *
 *   qwirkle-profile 1              format version (first statement)
 *   name tiles
 *   letters ROYGBW CXDSTL          colour letters, shape letters (codes.h order)
 *   pieces tiles|cards             square tiles (own finder) or cards
 *   conf_floor 0.5                 below this a piece is unread
 *   max_dist 6                     farther (in spreads) from every prototype: not a piece
 *   outlier 4.5                    as far as this from every prototype: unsure (conf 1/2)
 *   colour R mean a b spread a b   a prototype (repeat for more modes)
 *   shape C mean f1 f2 f3 f4 spread f1 f2 f3 f4
 *
 * Colour features: (a, b) = saturation (1 - min/max) times (cos, sin) of
 * the hue angle (red 0, yellow 60 degrees, blue -120). Shape features: solidity, 4-fold radial harmonic (signed),
 * 8-fold harmonic strength, circularity (see qwirkle_symbol.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "profile.h"
#include "readers/qwirkle.h"

int qw_profile_parse(const char *text, size_t len, qw_profile *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "unnamed");
    strcpy(out->colour_letters, "ROYGBP");
    strcpy(out->shape_letters, "CXDSTL");
    out->conf_floor = 0.5f;
    out->max_dist = 6.0f;
    out->outlier = 4.5f;
    int version = 0, lineno = 0;
    size_t pos = 0;
    char line[512];
#define FAIL(msg)                                                                                  \
    do {                                                                                           \
        if (err)                                                                                   \
            snprintf(err, errlen, "line %d: %s", lineno, msg);                                     \
        return -1;                                                                                 \
    } while (0)
    while (pos < len) {
        lineno++;
        char *w[16];
        const char *why;
        int nw = ts_profile_line(text, len, &pos, line, sizeof line, w, 16, &why);
        if (nw < 0)
            FAIL(why);
        if (nw == 0)
            continue;
        if (!version) {
            if (strcmp(w[0], "qwirkle-profile") != 0 || nw != 2 || strcmp(w[1], "1") != 0)
                FAIL("expected 'qwirkle-profile 1' first");
            version = 1;
        } else if (strcmp(w[0], "name") == 0 && nw == 2) {
            snprintf(out->name, sizeof out->name, "%s", w[1]);
        } else if (strcmp(w[0], "letters") == 0 && nw == 3) {
            if (strlen(w[1]) != QW_NCOLOUR || strlen(w[2]) != QW_NSHAPE)
                FAIL("letters: six colour letters and six shape letters");
            strcpy(out->colour_letters, w[1]);
            strcpy(out->shape_letters, w[2]);
        } else if (strcmp(w[0], "pieces") == 0 && nw == 2) {
            if (strcmp(w[1], "tiles") != 0 && strcmp(w[1], "cards") != 0)
                FAIL("pieces: tiles or cards");
            out->tiles = strcmp(w[1], "tiles") == 0;
        } else if (strcmp(w[0], "conf_floor") == 0 && nw == 2) {
            if (ts_profile_float(w[1], &out->conf_floor) < 0)
                FAIL("conf_floor: a number");
        } else if (strcmp(w[0], "outlier") == 0 && nw == 2) {
            if (ts_profile_float(w[1], &out->outlier) < 0 || out->outlier <= 0)
                FAIL("outlier: a positive number");
        } else if (strcmp(w[0], "max_dist") == 0 && nw == 2) {
            if (ts_profile_float(w[1], &out->max_dist) < 0 || out->max_dist <= 0)
                FAIL("max_dist: a positive number");
        } else if (strcmp(w[0], "colour") == 0 || strcmp(w[0], "shape") == 0) {
            int is_colour = w[0][0] == 'c', nf = is_colour ? QW_NCFEAT : QW_NSFEAT;
            if (nw != 4 + 2 * nf || strcmp(w[2], "mean") != 0 || strcmp(w[3 + nf], "spread") != 0)
                FAIL("prototype: VALUE mean F.. spread F..");
            const char *letters = is_colour ? out->colour_letters : out->shape_letters;
            const char *hit = strlen(w[1]) == 1 ? strchr(letters, w[1][0]) : NULL;
            if (!hit || !*w[1])
                FAIL("prototype: unknown value letter");
            qw_proto *p = is_colour ? &out->colour[hit - letters] : &out->shape[hit - letters];
            if (p->nmodes >= QW_MAX_MODES)
                FAIL("prototype: too many modes");
            for (int k = 0; k < nf; k++) {
                if (ts_profile_float(w[3 + k], &p->mean[p->nmodes][k]) < 0 ||
                    ts_profile_float(w[4 + nf + k], &p->spread[p->nmodes][k]) < 0 ||
                    p->spread[p->nmodes][k] <= 0)
                    FAIL("prototype: numbers, spreads > 0");
            }
            p->nmodes++;
        } else {
            FAIL("unknown statement");
        }
    }
    lineno = 0;
    if (!version)
        FAIL("empty profile");
    for (int i = 0; i < QW_NCOLOUR; i++)
        if (!out->colour[i].nmodes)
            FAIL("a colour has no prototype");
    for (int i = 0; i < QW_NSHAPE; i++)
        if (!out->shape[i].nmodes)
            FAIL("a shape has no prototype");
#undef FAIL
    return 0;
}

int qw_profile_load(const char *name_or_path, const char *dir, qw_profile *out, char *err,
                    size_t errlen)
{
    char path[1024];
    if (strchr(name_or_path, '/'))
        snprintf(path, sizeof path, "%s", name_or_path);
    else { /* --models DIR, else the data directory's models/ (installed or source) */
        char file[300];
        snprintf(file, sizeof file, "qwirkle_%.200s.profile", name_or_path);
        ts_model_path(dir, file, path, sizeof path);
    }
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open", path);
        return -1;
    }
    char *buf = malloc(65536);
    size_t n = buf ? fread(buf, 1, 65536, fp) : 0;
    int big = buf && n == 65536;
    fclose(fp);
    if (!buf || big) {
        snprintf(err, errlen, "%s: %s", path, buf ? "too large" : "out of memory");
        free(buf);
        return -1;
    }
    char e2[160];
    int rc = qw_profile_parse(buf, n, out, e2, sizeof e2);
    free(buf);
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", path, e2);
    return rc;
}
