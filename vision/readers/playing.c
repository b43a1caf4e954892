/* Playing cards (the Eleusis deck, standard 52) behind the reader interface.
 *
 * A card is read from its corner index only (rank above suit), so a card in a
 * fan or half under another one reads as long as one index corner shows, and
 * court cards of any design read alike. Both index corners are cut out - the
 * top-left one and the bottom-right one turned half a circle - and one small
 * net (models/playing.tsnet, trained by models/train_playing.py) reads each:
 * rank (13), suit (4) and whether the patch is an index at all. The two
 * corners' readings are pooled, each weighted by how sure the net is that it
 * shows an index, so a card upside down reads the same and a covered corner
 * does not vote.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdnn.h"
#include "reader.h"
#include "readers/playing.h"
#include "readers/readers.h"

enum { NRANK = 13, NSUIT = 4 };

struct ts_playing_reader {
    tscv_net *net;
    ts_playing_finder *finder; /* for the class's find() */
    int corner_w, corner_h; /* index patch size on the rectified card (px) */
    ts_image turned;        /* the bottom-right patch turned 180 degrees */
    float probs[2][NRANK + NSUIT + 2];
};

ts_playing_reader *ts_playing_reader_create(const char *models_dir, char *err, size_t errlen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", models_dir ? models_dir : TS_SOURCE_DIR "/models",
             TS_PLAYING_MODEL);
    ts_playing_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->net = tscv_net_load(path, err, errlen);
    if (!r->net) {
        free(r);
        return NULL;
    }
    const tscv_net_info *in = tscv_net_get_info(r->net);
    if (in->noutputs != 3 || in->out[0].nclass != NRANK || in->out[1].nclass != NSUIT ||
        in->out[2].nclass != 2) {
        snprintf(err, errlen, "%s: not a playing-card index net (want rank 13, suit 4, index 2)",
                 path);
        ts_playing_reader_destroy(r);
        return NULL;
    }
    r->finder = ts_playing_finder_create();
    if (!r->finder) {
        snprintf(err, errlen, "out of memory");
        ts_playing_reader_destroy(r);
        return NULL;
    }
    r->corner_w = (int)lroundf(TS_PLAYING_CARD_W * TS_PLAYING_CORNER_W);
    r->corner_h = (int)lroundf(TS_PLAYING_CARD_H * TS_PLAYING_CORNER_H);
    if (ts_image_alloc(&r->turned, r->corner_w, r->corner_h, 3) < 0) {
        snprintf(err, errlen, "out of memory");
        ts_playing_reader_destroy(r);
        return NULL;
    }
    return r;
}

void ts_playing_reader_destroy(ts_playing_reader *r)
{
    if (!r)
        return;
    tscv_net_destroy(r->net);
    ts_playing_finder_destroy(r->finder);
    ts_image_free(&r->turned);
    free(r);
}

/* Copies the w x h patch at the card's bottom-right corner, turned 180
 * degrees, into dst (w x h, 3 channels). */
static void turn_corner(const ts_image *card, ts_image *dst)
{
    int w = dst->w, h = dst->h, ch = card->channels;
    for (int y = 0; y < h; y++) {
        const uint8_t *s = ts_image_row(card, card->h - 1 - y);
        uint8_t *d = ts_image_row(dst, y);
        for (int x = 0; x < w; x++) {
            const uint8_t *p = s + (size_t)(card->w - 1 - x) * ch;
            if (ch == 3) {
                d[3 * x] = p[0];
                d[3 * x + 1] = p[1];
                d[3 * x + 2] = p[2];
            } else {
                d[3 * x] = d[3 * x + 1] = d[3 * x + 2] = p[0];
            }
        }
    }
}

/* Pools the two corners' distributions over n classes: a weighted sum of
 * log-probabilities (weight = P(the patch is an index)), renormalised. */
static int pool(const float *a, const float *b, float wa, float wb, int n, float *best)
{
    double lp[NRANK], mx = -1e30, sum = 0;
    for (int k = 0; k < n; k++) {
        lp[k] = wa * log(a[k] + 1e-6) + wb * log(b[k] + 1e-6);
        mx = lp[k] > mx ? lp[k] : mx;
    }
    int arg = 0;
    for (int k = 0; k < n; k++) {
        lp[k] = exp(lp[k] - mx);
        sum += lp[k];
        if (lp[k] > lp[arg])
            arg = k;
    }
    *best = (float)(lp[arg] / sum);
    return arg;
}

int ts_playing_read(ts_playing_reader *r, const ts_image *card, ts_playing_reading *out,
                    char *err)
{
    memset(out, 0, sizeof *out);
    if (card->w != TS_PLAYING_CARD_W || card->h != TS_PLAYING_CARD_H) {
        snprintf(err, TSCV_ERR_MAX, "playing reader wants %dx%d cards, got %dx%d",
                 TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, card->w, card->h);
        return -1;
    }
    ts_image patch[2];
    patch[0] = ts_image_roi(card, 0, 0, r->corner_w, r->corner_h);
    turn_corner(card, &r->turned);
    patch[1] = r->turned;
    if (tscv_net_run(r->net, patch, 2, &r->probs[0][0], err) < 0)
        return -1;
    const float *p0 = r->probs[0], *p1 = r->probs[1];
    /* head order: rank[13] suit[4] index[2] (index[1] = it is an index) */
    float w0 = p0[NRANK + NSUIT + 1], w1 = p1[NRANK + NSUIT + 1];
    out->index_conf[0] = w0;
    out->index_conf[1] = w1;
    float w = w0 > w1 ? w0 : w1;
    if (w < 0.5f)
        return 0; /* neither corner shows an index: no playing card */
    /* a corner far less sure than the other is covered or blurred: no vote */
    float v0 = w0 < 0.5f * w ? 0 : w0, v1 = w1 < 0.5f * w ? 0 : w1;
    float pr, ps;
    out->rank = pool(p0, p1, v0, v1, NRANK, &pr);
    out->suit = pool(p0 + NRANK, p1 + NRANK, v0, v1, NSUIT, &ps);
    out->is_card = 1;
    out->rank_conf = pr;
    out->suit_conf = ps;
    out->conf = pr * ps * w;
    return 0;
}

/* ---- The reader class ---------------------------------------------------- */

static void *playing_create(const ts_reader_config *cfg, char *err, size_t errlen)
{
    if (cfg && cfg->profile && strcmp(cfg->profile, "standard") != 0) {
        snprintf(err, errlen, "playing cards: unknown profile '%s' (known: standard)",
                 cfg->profile);
        return NULL;
    }
    return ts_playing_reader_create(cfg ? cfg->models_dir : NULL, err, errlen);
}

static void playing_destroy(void *reader)
{
    ts_playing_reader_destroy(reader);
}

static int playing_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    ts_playing_reading r;
    memset(out, 0, sizeof *out);
    if (ts_playing_read(reader, card, &r, err) < 0)
        return -1;
    if (!r.is_card)
        return 0;
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_PLAYING, (uint8_t)(r.suit * NRANK + r.rank)};
    out->conf = r.conf;
    out->nattr = 2;
    out->attr_conf[0] = r.rank_conf;
    out->attr_conf[1] = r.suit_conf;
    return 0;
}

static int playing_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    ts_playing_reader *r = reader;
    return ts_playing_find(r->finder, frame, out, max, err);
}

static const char *const playing_profiles[] = {"standard", NULL};

const ts_reader_class ts_playing_reader_class = {
    .family = TS_FAM_PLAYING,
    .name = "playing",
    .profiles = playing_profiles,
    .min_aspect = 1.0f,
    .max_aspect = 2.0f,
    .card_w = TS_PLAYING_CARD_W,
    .card_h = TS_PLAYING_CARD_H,
    .conf_floor = 0.50f,
    .whole_min_aspect = 1.25f, /* crops of one card (63 x 88 mm, 1.40) */
    .whole_max_aspect = 1.6f,
    .create = playing_create,
    .destroy = playing_destroy,
    .read = playing_read,
    .find = playing_find,
};
