/* Qwirkle behind the reader interface: colour and shape of the symbol on a
 * black piece, Qwirkle Cards (profile "cards", the default) or the tiles
 * (profile "tiles", whose set has white for purple and prints it 'W').
 * The deck profile holds the letters and the colour and shape prototypes;
 * tiles and cards each bring their own finder (qwirkle_find.c,
 * qwirkle_cards_find.c): black pieces are what the shared detector, made
 * for white cards, does not see.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "readers/qwirkle.h"
#include "readers/readers.h"

typedef struct {
    qw_profile prof;
    qw_symbol *sym;
    qw_finder *finder;     /* tiles */
    ts_image scratch[3];   /* cards: the card finder's scratch */
} qwirkle_reader;

static void qwirkle_destroy(void *reader)
{
    qwirkle_reader *r = reader;
    if (!r)
        return;
    qw_symbol_destroy(r->sym);
    qw_finder_destroy(r->finder);
    ts_image_free(&r->scratch[0]);
    ts_image_free(&r->scratch[1]);
    ts_image_free(&r->scratch[2]);
    free(r);
}

static void *qwirkle_create(const ts_reader_config *cfg, char *err, size_t errlen)
{
    qwirkle_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (qw_profile_load(cfg && cfg->profile ? cfg->profile : "cards", cfg ? cfg->models_dir : NULL,
                        &r->prof, err, errlen) < 0) {
        free(r);
        return NULL;
    }
    r->sym = qw_symbol_create();
    if (r->prof.tiles)
        r->finder = qw_finder_create();
    if (!r->sym || (r->prof.tiles && !r->finder)) {
        snprintf(err, errlen, "out of memory");
        qwirkle_destroy(r);
        return NULL;
    }
    return r;
}

/* Squared distance (in spreads) of f to the nearest mode of p. */
static float proto_dist(const qw_proto *p, const float *f, int nf)
{
    float best = 1e30f;
    for (int m = 0; m < p->nmodes; m++) {
        float d = 0;
        for (int k = 0; k < nf; k++) {
            float z = (f[k] - p->mean[m][k]) / p->spread[m][k];
            d += z * z;
        }
        best = d < best ? d : best;
    }
    return best;
}

/* The nearest value and its posterior among the six (equal priors) and
 * "none of them", a value at distance `outlier` from everything: a piece
 * unlike every prototype is unsure, not confidently the least unlike. */
static int classify(const qw_proto *protos, int nvalues, const float *f, int nf, float outlier,
                    float *conf, float *dist)
{
    float d[8], best = 1e30f;
    int bi = 0;
    for (int v = 0; v < nvalues; v++) {
        d[v] = proto_dist(&protos[v], f, nf);
        if (d[v] < best) {
            best = d[v];
            bi = v;
        }
    }
    double sum = exp(-0.5 * (outlier * outlier - best));
    for (int v = 0; v < nvalues; v++)
        sum += exp(-0.5 * (d[v] - best));
    *conf = (float)(1.0 / sum);
    *dist = sqrtf(best);
    return bi;
}

static int qwirkle_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    qwirkle_reader *r = reader;
    memset(out, 0, sizeof *out);
    qw_measure m;
    if (qw_symbol_measure(r->sym, card, r->prof.tiles, &m, err) < 0)
        return -1;
    if (!m.found || m.contrast < QW_MIN_CONTRAST || m.ink_frac < 0.04f || m.ink_frac > 0.85f)
        return 0;
    float cc, cs, dc, ds;
    int colour = classify(r->prof.colour, QW_NCOLOUR, m.colour, QW_NCFEAT, r->prof.outlier, &cc,
                          &dc);
    int shape = classify(r->prof.shape, QW_NSHAPE, m.shape, QW_NSFEAT, r->prof.outlier, &cs, &ds);
    if (dc > r->prof.max_dist || ds > r->prof.max_dist)
        return 0;
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_QWIRKLE, (uint8_t)(colour * QW_NSHAPE + shape)};
    out->nattr = 2;
    out->attr_conf[0] = cc;
    out->attr_conf[1] = cs;
    out->conf = cc * cs;
    return 0;
}

static void qwirkle_format(const void *reader, ts_code code, char out[TS_CODE_MAXLEN])
{
    const qwirkle_reader *r = reader;
    if (code.idx >= QW_NCOLOUR * QW_NSHAPE) {
        snprintf(out, TS_CODE_MAXLEN, "?");
        return;
    }
    out[0] = r->prof.colour_letters[code.idx / QW_NSHAPE];
    out[1] = r->prof.shape_letters[code.idx % QW_NSHAPE];
    out[2] = 0;
}

static int qwirkle_parse(const void *reader, const char *text, size_t len, ts_code *out)
{
    const qwirkle_reader *r = reader;
    if (len != 2)
        return -1;
    int c = -1, sh = -1;
    for (int i = 0; i < QW_NCOLOUR; i++)
        if (toupper((unsigned char)text[0]) == r->prof.colour_letters[i])
            c = i;
    for (int i = 0; i < QW_NSHAPE; i++)
        if (toupper((unsigned char)text[1]) == r->prof.shape_letters[i])
            sh = i;
    if (c < 0 || sh < 0)
        return -1;
    *out = (ts_code){TS_FAM_QWIRKLE, (uint8_t)(c * QW_NSHAPE + sh)};
    return 0;
}

static int qwirkle_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    qwirkle_reader *r = reader;
    if (r->finder)
        return qw_find_tiles(r->finder, frame, out, max, err);
    return qw_find_cards(r->scratch, frame, out, max, err);
}

static const char *const qwirkle_profiles[] = {"cards", "tiles", NULL};

const ts_reader_class ts_qwirkle_reader_class = {
    .family = TS_FAM_QWIRKLE,
    .name = "qwirkle",
    .profiles = qwirkle_profiles,
    .min_aspect = 1.25f,
    .max_aspect = 1.85f,
    .card_w = QW_CARD_W,
    .card_h = QW_CARD_H,
    .conf_floor = 0.5f,
    .whole_min_aspect = 1.40f, /* a crop of one card */
    .whole_max_aspect = 1.70f,
    .create = qwirkle_create,
    .destroy = qwirkle_destroy,
    .read = qwirkle_read,
    .format = qwirkle_format,
    .parse = qwirkle_parse,
    .find = qwirkle_find,
};
