/* process_frame(): detect, rectify, read, solve (see process.h). */
#include "process.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "detect.h"
#include "geom.h"
#include "profile.h"
#include "set.h"
#include "set_reader.h"
#include "stats.h"

enum { MAX_CANDIDATES = 4 * TS_MAX_CARDS };

/* What one thread needs to read cards: a reader and a card image. */
typedef struct {
    ts_set_reader *reader;
    ts_image card; /* rectified card scratch */
} reader_slot;

/* A candidate read ahead of the ordered pass (see read_ahead). */
typedef struct {
    int state; /* 0 not read, 1 read */
    int rc;    /* read_detected's result */
    ts_card c[2];
    char err[TSCV_ERR_MAX];
} early_read;

struct ts_processor {
    ts_profile profile;
    float floor;
    ts_detector *det;
    reader_slot slot[2]; /* [0] the caller's, [1] the helper's */
    early_read *early;   /* per candidate, MAX_CANDIDATES */
    /* The helper thread (readers = 2) and the batch it shares. */
    int helper;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int quit, busy;       /* under mu */
    uint64_t batch;       /* under mu: bumped for each new batch */
    const ts_image *frame;
    const ts_quad *quads;
    const int *todo;
    int ntodo;
    atomic_int next;      /* next index into todo */
};

static int read_detected(ts_processor *p, reader_slot *s, const ts_image *frame, const ts_pt q[4],
                         ts_card c[2], char *err);

/* Both threads take candidates from the shared list until it is empty. */
static void read_batch(ts_processor *p, reader_slot *s)
{
    for (;;) {
        int k = atomic_fetch_add(&p->next, 1);
        if (k >= p->ntodo)
            return;
        early_read *e = &p->early[p->todo[k]];
        e->rc = read_detected(p, s, p->frame, p->quads[p->todo[k]].q, e->c, e->err);
        e->state = 1;
    }
}

static void *helper_thread(void *arg)
{
    ts_processor *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->batch == seen)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->quit)
            break;
        seen = p->batch;
        p->busy = 1;
        pthread_mutex_unlock(&p->mu);
        read_batch(p, &p->slot[1]);
        pthread_mutex_lock(&p->mu);
        p->busy = 0;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* With a helper, reads the first candidate of each place on the table (the
 * ones the ordered pass will surely read) on both threads at once. The
 * ordered pass then finds them read; reading is a pure function of frame and
 * quad, so the outcome is the same as reading them in turn. */
static void read_ahead(ts_processor *p, const ts_image *frame, const ts_quad *quads, int nq)
{
    for (int i = 0; i < nq; i++)
        p->early[i].state = 0;
    if (!p->helper)
        return;
    int todo[MAX_CANDIDATES], n = 0;
    for (int i = 0; i < nq; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = ts_quad_overlap(&quads[todo[k]], &quads[i]);
        if (!seen && n < TS_MAX_CARDS)
            todo[n++] = i;
    }
    if (n < 2)
        return;
    p->frame = frame;
    p->quads = quads;
    p->todo = todo;
    p->ntodo = n;
    atomic_store(&p->next, 0);
    pthread_mutex_lock(&p->mu);
    p->batch++;
    p->busy = 1; /* until the helper has taken and finished this batch */
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    read_batch(p, &p->slot[0]);
    pthread_mutex_lock(&p->mu);
    while (p->busy)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

ts_processor *ts_processor_create(const ts_processor_config *cfg, char *err, size_t errlen)
{
    ts_processor_config def = {0};
    if (!cfg)
        cfg = &def;
    if (cfg->game && strcmp(cfg->game, "set") != 0) {
        snprintf(err, errlen, "game '%s' has no card reader yet (only 'set')", cfg->game);
        return NULL;
    }
    ts_processor *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (ts_profile_load(cfg->profile ? cfg->profile : "classic", cfg->models_dir, &p->profile,
                        err, errlen) < 0) {
        free(p);
        return NULL;
    }
    p->floor = cfg->conf_floor > 0 ? cfg->conf_floor : p->profile.conf_floor;
    p->det = ts_detector_create(NULL);
    p->early = calloc(MAX_CANDIDATES, sizeof *p->early);
    int ok = p->det && p->early;
    for (int i = 0; i < (cfg->readers >= 2 ? 2 : 1) && ok; i++) {
        p->slot[i].reader = ts_set_reader_create(&p->profile);
        ok = p->slot[i].reader && ts_image_alloc(&p->slot[i].card, TS_CARD_W, TS_CARD_H, 3) == 0;
    }
    if (ok && cfg->readers >= 2) {
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        p->helper = pthread_create(&p->thread, NULL, helper_thread, p) == 0;
        if (!p->helper) {
            pthread_mutex_destroy(&p->mu);
            pthread_cond_destroy(&p->cv);
        }
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        ts_processor_destroy(p);
        return NULL;
    }
    return p;
}

void ts_processor_destroy(ts_processor *p)
{
    if (!p)
        return;
    if (p->helper) {
        pthread_mutex_lock(&p->mu);
        p->quit = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
    }
    ts_detector_destroy(p->det);
    for (int i = 0; i < 2; i++) {
        ts_set_reader_destroy(p->slot[i].reader);
        ts_image_free(&p->slot[i].card);
    }
    free(p->early);
    free(p);
}

/* Reads the card inside quad q; returns 1 and fills c if it is a card.
 * *turned (may be NULL) tells whether its symbols ran the wrong way. */
static int read_quad(const ts_processor *p, reader_slot *s, const ts_image *frame,
                     const ts_pt q[4], ts_card *c, int *turned, char *err)
{
    if (tscv_warp_quad(frame, q, &s->card, TS_CARD_W, TS_CARD_H, err) < 0)
        return -1;
    ts_set_reading r;
    if (ts_set_read(s->reader, &s->card, &r, err) < 0)
        return -1;
    if (turned)
        *turned = r.turned;
    if (!r.is_card)
        return 0;
    c->code = (ts_code){TS_FAM_SET, (uint8_t)r.idx};
    ts_set_format(&p->profile.letters, r.idx, c->text);
    c->conf = r.conf_all;
    c->read = r.conf_all >= p->floor;
    memcpy(c->quad, q, sizeof c->quad);
    return 1;
}

/* Reads the card(s) in a detected quad into c[0..2); returns how many. Two
 * cards lying side by side along a long edge look like one squat card
 * (aspect ~1.3) with its symbols turned on end: when such a quad does not
 * read as one upright card, its two halves are taken instead if both read
 * above the floor. */
static int read_detected(ts_processor *p, reader_slot *s, const ts_image *frame, const ts_pt q[4],
                         ts_card c[2], char *err)
{
    int turned = 0;
    int n = read_quad(p, s, frame, q, &c[0], &turned, err);
    if (n < 0)
        return -1;
    float aspect = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) /
                   (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
    if ((n == 1 && c[0].read && !turned) || aspect < 1.1f || aspect > 1.45f)
        return n;
    ts_pt m12 = ts_mid(q[1], q[2]), m30 = ts_mid(q[3], q[0]);
    ts_pt a[4] = {q[1], m12, m30, q[0]}, b[4] = {m12, q[2], q[3], m30};
    ts_card half[2];
    int ra = read_quad(p, s, frame, a, &half[0], NULL, err);
    int rb = ra < 0 ? -1 : read_quad(p, s, frame, b, &half[1], NULL, err);
    if (ra < 0 || rb < 0)
        return -1;
    if (ra == 1 && rb == 1 && half[0].read && half[1].read) {
        c[0] = half[0];
        c[1] = half[1];
        return 2;
    }
    return n;
}

/* Cards on one table are one size, give or take perspective: a "card" far
 * smaller than the typical one is a bright patch of something else. The
 * typical size is the median of the confidently read cards when there are
 * three or more (a patterned cloth can give many small unsure ones), else of
 * all. Returns 0 below three cards, when there is no telling. */
static double typical_area(const ts_card *cards, int n)
{
    if (n < 3)
        return 0;
    double ref[TS_MAX_CARDS];
    int nread = 0;
    for (int i = 0; i < n; i++)
        if (cards[i].read)
            ref[nread++] = ts_quad_area(cards[i].quad);
    if (nread < 3) {
        nread = 0;
        for (int i = 0; i < n; i++)
            ref[nread++] = ts_quad_area(cards[i].quad);
    }
    ts_sort_doubles(ref, (size_t)nread);
    return ref[nread / 2];
}

static int too_small(double area, double typical)
{
    return area < 0.35 * typical;
}

static void drop_small(ts_frame_result *out)
{
    double typical = typical_area(out->cards, out->ncards);
    int k = 0;
    for (int i = 0; i < out->ncards; i++)
        if (!too_small(ts_quad_area(out->cards[i].quad), typical))
            out->cards[k++] = out->cards[i];
    out->ncards = k;
}

/* The Sets among read cards, as indices into out->cards. */
static void solve(ts_frame_result *out)
{
    int idx[TS_MAX_CARDS], pos[TS_MAX_CARDS], n = 0;
    for (int i = 0; i < out->ncards; i++)
        if (out->cards[i].read) {
            idx[n] = out->cards[i].code.idx;
            pos[n++] = i;
        }
    int a, b;
    out->conflict = ts_set_has_duplicates(idx, n, &a, &b);
    int sets[TS_MAX_SETS][3];
    int ns = ts_set_find_all(idx, n, sets, TS_MAX_SETS);
    out->nsets = ns < TS_MAX_SETS ? ns : TS_MAX_SETS;
    for (int s = 0; s < out->nsets; s++)
        for (int k = 0; k < 3; k++)
            out->sets[s][k] = pos[sets[s][k]];
}

int ts_process_frame(ts_processor *p, const ts_image *frame, ts_frame_result *out, char *err,
                     size_t errlen)
{
    double decode = out->ms_decode;
    memset(out, 0, sizeof *out);
    out->ms_decode = decode;
    out->w = frame->w;
    out->h = frame->h;
    char why[TSCV_ERR_MAX] = "";

    /* A photo of one card filling the frame (a crop) has no background to
     * find it by: when the frame has a card's shape, read it whole first, and
     * keep that reading if it is sure (else look for cards on a table, and
     * fall back to it only if none is found). */
    double t0 = ts_now_ms();
    float aspect = frame->h > frame->w ? (float)frame->h / frame->w : (float)frame->w / frame->h;
    ts_card whole;
    int have_whole = 0, turned = 0;
    if (aspect > 1.35f && aspect < 1.72f) { /* 16:9 frames are not card-shaped */
        float W = (float)frame->w, H = (float)frame->h;
        ts_pt portrait[4] = {{0, 0}, {W, 0}, {W, H}, {0, H}};
        ts_pt landscape[4] = {{0, H}, {0, 0}, {W, 0}, {W, H}}; /* left side is the top */
        have_whole =
            read_quad(p, &p->slot[0], frame, W > H ? landscape : portrait, &whole, &turned, why);
        if (have_whole < 0) {
            snprintf(err, errlen, "%s", why);
            return -1;
        }
        have_whole = have_whole && !turned;
        if (have_whole && whole.read) {
            out->cards[0] = whole;
            out->ncards = 1;
            out->ms_classify = ts_now_ms() - t0;
            return 0;
        }
    }

    double t1 = ts_now_ms();
    ts_quad quads[MAX_CANDIDATES], taken[TS_MAX_CARDS];
    int nq = ts_detect(p->det, frame, quads, MAX_CANDIDATES, why), ntaken = 0;
    if (nq < 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    double t2 = ts_now_ms();
    read_ahead(p, frame, quads, nq);
    /* Candidates in order; one overlapping a card already taken is the same
     * card again. One that is no card leaves the place to the next. */
    double typical = 0;
    for (int i = 0, counted = 0; i < nq && out->ncards + 2 <= TS_MAX_CARDS; i++) {
        int seen = 0;
        for (int k = 0; k < ntaken && !seen; k++)
            seen = ts_quad_overlap(&taken[k], &quads[i]);
        if (counted != out->ncards) {
            typical = typical_area(out->cards, out->ncards);
            counted = out->ncards;
        }
        if (seen || too_small(quads[i].area, typical))
            continue; /* the same card again, or one drop_small() would drop */
        const early_read *e = &p->early[i];
        int rc;
        if (e->state) { /* read ahead (read_ahead) */
            rc = e->rc;
            memcpy(&out->cards[out->ncards], e->c, sizeof e->c);
            snprintf(why, sizeof why, "%s", e->err);
        } else {
            rc = read_detected(p, &p->slot[0], frame, quads[i].q, &out->cards[out->ncards], why);
        }
        if (rc < 0) {
            snprintf(err, errlen, "%s", why);
            return -1;
        }
        out->ncards += rc;
        if (rc > 0)
            taken[ntaken++] = quads[i];
    }
    if (out->ncards == 0 && have_whole) /* an unsure single card */
        out->cards[out->ncards++] = whole;
    drop_small(out);
    double t3 = ts_now_ms();
    solve(out);
    out->ms_detect = t2 - t1;
    out->ms_classify = (t1 - t0) + (t3 - t2);
    out->ms_rules = ts_now_ms() - t3;
    return 0;
}

const ts_set_letters *ts_processor_letters(const ts_processor *p)
{
    return &p->profile.letters;
}
