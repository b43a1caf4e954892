/* The playing card's face read whole (see playing_face.h). */
#include "readers/playing_face.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdnn.h"
#include "datadir.h"

enum { NRANK = 13, NSUIT = 4, NOUT = NRANK + NSUIT + 2, JACK = 10 /* J Q K follow */ };
/* Faces read in one net run. */
enum { BATCH = 48 };
/* The face is looked at when the net takes it for a card this surely: a
 * loose quad, a card half covered or cut by the frame has no opinion. */
#define FACE_SEEN 0.5f
/* A rank the face reads this surely overrules the index's. */
#define FACE_SURE 0.9f
/* A rank the face gives less than this is ruled out. */
#define FACE_RULES_OUT 0.05f
/* How sure the face must be of the other suit of a colour to rule the
 * index's out (ts_playing_face_twin_suit). On the black and red pip cards
 * of 127000's six layouts read on their true corners (1,700) it was never
 * this sure of the wrong one; of a court card it reads the suit poorly. */
#define FACE_SUIT_SURE 0.9f

struct ts_playing_face {
    tscv_net *net;
    float probs[BATCH * NOUT];
};

tscv_net *ts_playing_net_load(const char *models_dir, const char *name, const char *kind,
                              const char *third, char *err, size_t errlen)
{
    char path[1024];
    ts_model_path(models_dir, name, path, sizeof path);
    tscv_net *net = tscv_net_load(path, err, errlen);
    if (!net)
        return NULL;
    const tscv_net_info *in = tscv_net_get_info(net);
    if (in->noutputs != 3 || in->out[0].nclass != NRANK || in->out[1].nclass != NSUIT ||
        in->out[2].nclass != 2) {
        snprintf(err, errlen, "%s: not a playing-card %s net (want rank 13, suit 4, %s 2)", path,
                 kind, third);
        tscv_net_destroy(net);
        return NULL;
    }
    return net;
}

ts_playing_face *ts_playing_face_create(const char *models_dir, char *err, size_t errlen)
{
    ts_playing_face *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    f->net = ts_playing_net_load(models_dir, TS_PLAYING_FACE_MODEL, "face", "card", err, errlen);
    if (!f->net) {
        free(f);
        return NULL;
    }
    return f;
}

void ts_playing_face_destroy(ts_playing_face *f)
{
    if (!f)
        return;
    tscv_net_destroy(f->net);
    free(f);
}

int ts_playing_face_read(ts_playing_face *f, const ts_image *card, ts_playing_face_reading *out,
                         char *err)
{
    return ts_playing_face_read_n(f, card, 1, out, err);
}

int ts_playing_face_read_n(ts_playing_face *f, const ts_image *cards, int n,
                           ts_playing_face_reading *out, char *err)
{
    for (int i = 0; i < n; i += BATCH) { /* one net run per BATCH cards */
        int m = n - i < BATCH ? n - i : BATCH;
        if (tscv_net_run(f->net, cards + i, m, f->probs, err) < 0)
            return -1;
        for (int k = 0; k < m; k++) {
            const float *p = f->probs + (size_t)k * NOUT;
            memcpy(out[i + k].rank, p, sizeof out->rank);
            memcpy(out[i + k].suit, p + NRANK, sizeof out->suit);
            out[i + k].card = p[NRANK + NSUIT + 1];
        }
    }
    return 0;
}

static int best_of(const float *p, int n)
{
    int arg = 0;
    for (int k = 1; k < n; k++)
        if (p[k] > p[arg])
            arg = k;
    return arg;
}

ts_face_verdict ts_playing_face_judge(const ts_playing_face_reading *f, int rank, int suit,
                                      float *face_conf)
{
    int fr = best_of(f->rank, NRANK), fs = best_of(f->suit, NSUIT);
    float court = f->rank[JACK] + f->rank[JACK + 1] + f->rank[JACK + 2];
    *face_conf = f->rank[fr] * f->suit[fs] * f->card;
    if (f->card < FACE_SEEN)
        return TS_FACE_SILENT;
    /* Court figures differ from deck to deck (one deck's jack is another's
     * king, and grey, a king's suit is a guess): of a court card the face
     * only tells that it is one. */
    if (rank >= JACK || fr >= JACK) {
        if ((rank >= JACK && 1.0f - court >= FACE_SURE) || (rank < JACK && court >= FACE_SURE))
            return TS_FACE_DISAGREES;
        return TS_FACE_SILENT;
    }
    /* The pips' count is what the face reads best; their shape in grey is
     * less sure (one unseen deck's diamonds read as spades): the suit may
     * confirm, never overrule. */
    if ((fr != rank && f->rank[fr] >= FACE_SURE) || f->rank[rank] < FACE_RULES_OUT)
        return TS_FACE_DISAGREES;
    if (fr == rank && fs == suit)
        return TS_FACE_AGREES;
    return TS_FACE_SILENT;
}

int ts_playing_face_twin_suit(const ts_playing_face_reading *f, int rank, int suit)
{
    int twin = NSUIT - 1 - suit; /* C D H S: clubs and spades, diamonds and hearts */
    return rank < JACK && f->card >= FACE_SEEN && best_of(f->rank, NRANK) == rank &&
           f->suit[twin] >= FACE_SUIT_SURE;
}
