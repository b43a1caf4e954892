/* The frame pipeline: find, rectify, read (see pipeline.h). */
#include "pipeline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_family.h"
#include "clock.h"
#include "cv/cvwrap.h"
#include "detect.h"
#include "geom.h"
#include "median.h"
#include "reader.h"

/* Candidates a finder may offer, and candidates read per family and frame:
 * a frame of hundreds of card-like shapes (a chessboard, a bookshelf) costs
 * a bounded time, not one read per shape. */
enum { MAX_CANDIDATES = 4 * TS_MAX_CARDS, MAX_READS = 2 * TS_MAX_CARDS };

/* Readers a pipeline holds: one, or with "auto" one per family and deck
 * profile (a deck's pieces may differ in kind: Qwirkle cards and tiles,
 * Chinese domino cards and western tiles). */
enum { MAX_READERS = 12 };
/* auto: a finder's first candidates kept for the family chooser's face net. */
enum { AUTO_CANDS = 6 };

/* What one thread needs to read a family's cards. */
typedef struct {
    void *reader;
    ts_image card;               /* rectified card scratch */
    double ms_rectify, ms_read;  /* time spent, summed over a frame */
} slot;

/* One family with one deck profile: its class, a reader per thread, its
 * candidate finder. */
typedef struct {
    const ts_reader_class *cls;
    const char *profile; /* NULL: the class's default */
    float floor;
    slot slot[2]; /* [0] the caller's, [1] the helper's */
    ts_detector *det; /* the shared detector with the class's aspect range (no find) */
    ts_quad cand[AUTO_CANDS]; /* auto: the finder's first candidates of the frame */
    int ncand;
} family;

/* A candidate read ahead of the ordered pass (see read_ahead), or read by
 * the finder already (reader.h's read_found). */
typedef struct {
    int found;          /* the finder's reading of the quad is in r */
    ts_reading r;
    int state; /* 0 not read, 1 read */
    int rc;    /* read_detected's result */
    int closed; /* read_detected's *closed */
    ts_card c[2];
    char err[TSCV_ERR_MAX];
} early_read;

struct ts_pipeline {
    int nfam;
    family fam[MAX_READERS];
    int auto_mode;
    early_read *early;    /* per candidate, MAX_CANDIDATES */
    ts_frame_result trial[MAX_READERS]; /* auto: each reader's reading of the frame */
    ts_auto_weight weight[MAX_READERS];  /* auto: how each reading was weighed */
    ts_auto_family *chooser;             /* auto: picks the reading */
    int chosen;           /* auto: the reader the last frame's cards came from */
    /* auto with a hold (ts_pipeline_config.auto_hold) */
    int hold;             /* frames a choice may be held */
    int held;             /* the reader held, -1 none */
    int hold_left;        /* frames it may still read alone */
    int held_sure;        /* sure cards of its reading when chosen */
    int all;              /* auto: every reader on every frame (auto_all) */
    int nrun;             /* auto: readers that read the last frame */
    /* The helper thread (readers = 2) and the batch it shares. */
    int helper;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int quit, busy;       /* under mu */
    uint64_t batch;       /* under mu: bumped for each new batch */
    family *cur;          /* the family of the batch */
    const ts_image *frame;
    const ts_quad *quads;
    const int *todo;
    int ntodo;
    atomic_int next;      /* next index into todo */
};

/* ---- Reading one quad ---------------------------------------------------- */

/* Warps quad q to the family's card size and reads it; returns 1 and fills c
 * if it is a card, 0 if not, -1 on error. *turned (may be NULL) tells whether
 * the card's content ran across the quad, *foreign (may be NULL) whether its
 * marks are another deck's (ts_reading.foreign). */
static int read_quad(const family *f, slot *s, const ts_image *frame, const ts_pt q[4],
                     const ts_reading *found, ts_card *c, int *turned, int *foreign, char *err)
{
    ts_reading r = {0}; /* a reader may leave foreign unset */
    if (found) { /* the finder warped and read this quad already */
        r = *found;
    } else {
        double t0 = ts_now_ms();
        if (tscv_warp_quad(frame, q, &s->card, f->cls->card_w, f->cls->card_h, err) < 0)
            return -1;
        double t1 = ts_now_ms();
        int rc = f->cls->read(s->reader, &s->card, &r, err);
        s->ms_rectify += t1 - t0;
        s->ms_read += ts_now_ms() - t1;
        if (rc < 0)
            return -1;
    }
    if (turned)
        *turned = r.turned;
    if (foreign)
        *foreign = r.foreign;
    if (!r.is_card)
        return 0;
    memset(c, 0, sizeof *c);
    c->code = r.code;
    if (f->cls->format)
        f->cls->format(s->reader, r.code, c->text);
    else
        ts_code_format(r.code, c->text);
    c->conf = r.conf;
    c->read = r.conf >= f->floor;
    memcpy(c->quad, q, sizeof c->quad);
    return 1;
}

/* Reads the card(s) in a detected quad into c[0..2); returns how many. Two
 * cards lying side by side along a long edge look like one squat card
 * (aspect ~1.3) with their content turned on end: when such a quad does not
 * read as one upright card, its two halves are taken instead if both read
 * above the floor. *closed tells that no card was read but both halves hold
 * another deck's marks: no other quad at this place is worth reading. */
static int read_detected(const family *f, slot *s, const ts_image *frame, const ts_pt q[4],
                         const ts_reading *found, ts_card c[2], int *closed, char *err)
{
    int turned = 0;
    *closed = 0;
    int n = read_quad(f, s, frame, q, found, &c[0], &turned, NULL, err);
    if (n < 0)
        return -1;
    float aspect = (ts_dist(q[1], q[2]) + ts_dist(q[3], q[0])) /
                   (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
    if ((n == 1 && c[0].read && !turned) || !f->cls->split_squat || aspect < 1.1f ||
        aspect > 1.45f)
        return n;
    ts_pt m12 = ts_mid(q[1], q[2]), m30 = ts_mid(q[3], q[0]);
    ts_pt a[4] = {q[1], m12, m30, q[0]}, b[4] = {m12, q[2], q[3], m30};
    ts_card half[2];
    int fa = 0, fb = 0;
    int ra = read_quad(f, s, frame, a, NULL, &half[0], NULL, &fa, err);
    int rb = ra < 0 ? -1 : read_quad(f, s, frame, b, NULL, &half[1], NULL, &fb, err);
    if (ra < 0 || rb < 0)
        return -1;
    *closed = n == 0 && fa && fb;
    if (ra == 1 && rb == 1 && half[0].read && half[1].read) {
        c[0] = half[0];
        c[1] = half[1];
        return 2;
    }
    return n;
}

/* ---- Two readers at once ------------------------------------------------- */

/* Both threads take candidates from the shared list until it is empty. */
static void read_batch(ts_pipeline *p, slot *s)
{
    for (;;) {
        int k = atomic_fetch_add(&p->next, 1);
        if (k >= p->ntodo)
            return;
        early_read *e = &p->early[p->todo[k]];
        e->rc = read_detected(p->cur, s, p->frame, p->quads[p->todo[k]].q, NULL, e->c, &e->closed,
                              e->err);
        e->state = 1;
    }
}

static void *helper_thread(void *arg)
{
    ts_pipeline *p = arg;
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
        read_batch(p, &p->cur->slot[1]);
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
static void read_ahead(ts_pipeline *p, family *f, const ts_image *frame, const ts_quad *quads,
                       int nq)
{
    if (!p->helper)
        return;
    /* the first candidate of each place; those the finder read already
     * hold their place but need no reading */
    int todo[MAX_CANDIDATES], n = 0, place[TS_MAX_CARDS], np = 0;
    for (int i = 0; i < nq; i++) {
        int seen = 0;
        for (int k = 0; k < np && !seen; k++)
            seen = ts_quad_overlap(&quads[place[k]], &quads[i]);
        if (!seen && np < TS_MAX_CARDS) {
            place[np++] = i;
            if (!p->early[i].found)
                todo[n++] = i;
        }
    }
    if (n < 2)
        return;
    p->cur = f;
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
    read_batch(p, &f->slot[0]);
    pthread_mutex_lock(&p->mu);
    while (p->busy)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

/* ---- Table-level policies ------------------------------------------------ */

/* Cards on one table are one size, give or take perspective: a "card" far
 * smaller than the typical one is a bright patch of something else. The
 * typical size is the median of the confidently read cards when there are
 * three or more (a patterned cloth can give many small unsure ones), else of
 * all. Returns 0 below three cards, when there is no telling. */
static double typical_area(const ts_card *cards, const double *area, int n)
{
    if (n < 3)
        return 0;
    double ref[TS_MAX_CARDS];
    int nread = 0;
    for (int i = 0; i < n; i++)
        if (cards[i].read)
            ref[nread++] = area[i];
    if (nread < 3) {
        nread = 0;
        for (int i = 0; i < n; i++)
            ref[nread++] = area[i];
    }
    ts_sort_doubles(ref, (size_t)nread);
    return ref[nread / 2];
}

static int too_small(double area, double typical)
{
    return area < 0.35 * typical;
}

/* The area card c, read from found quad q, stands for: a quad marking only
 * the part of a card that shows (a playing card's index view) carries the
 * whole card's area (ts_quad.area, at least twice its own); else its own. */
static double card_area(const ts_card *c, const ts_quad *q)
{
    double a = ts_quad_area(c->quad);
    return memcmp(c->quad, q->q, sizeof c->quad) == 0 && q->area > 2 * a ? q->area : a;
}

/* Drops the cards of out far smaller (area[i]: card_area) than the typical. */
static void drop_small(ts_frame_result *out, const double *area)
{
    double typical = typical_area(out->cards, area, out->ncards);
    int k = 0;
    for (int i = 0; i < out->ncards; i++)
        if (!too_small(area[i], typical))
            out->cards[k++] = out->cards[i];
    out->ncards = k;
}

/* A photo of one card filling the frame (a crop) has no background to find
 * it by: when the frame has a card's shape, it is read whole. Returns 1 and
 * fills *c if it reads as an upright card, 0 if not, -1 on error. */
static int read_whole(const family *f, const ts_image *frame, ts_card *c, char *err)
{
    float aspect = frame->h > frame->w ? (float)frame->h / frame->w : (float)frame->w / frame->h;
    if (!(aspect >= f->cls->whole_min_aspect && aspect <= f->cls->whole_max_aspect))
        return 0;
    float W = (float)frame->w, H = (float)frame->h;
    ts_pt portrait[4] = {{0, 0}, {W, 0}, {W, H}, {0, H}};
    ts_pt landscape[4] = {{0, H}, {0, 0}, {W, 0}, {W, H}}; /* left side is the top */
    int turned = 0;
    int rc = read_quad(f, (slot *)&f->slot[0], frame, W > H ? landscape : portrait, NULL, c,
                       &turned, NULL, err);
    return rc < 0 ? -1 : rc && !turned;
}

/* Finds and reads one family's cards in frame. */
static int process_family(ts_pipeline *p, family *f, const ts_image *frame, ts_frame_result *out,
                          char *err, size_t errlen)
{
    char why[TSCV_ERR_MAX] = "";
    out->ncards = 0;
    f->ncand = 0;
    f->slot[0].ms_rectify = f->slot[0].ms_read = 0;
    f->slot[1].ms_rectify = f->slot[1].ms_read = 0;

    /* Keep a sure whole-frame reading; else look for cards on a table, and
     * fall back to it only if none is found. */
    ts_card whole;
    int have_whole = read_whole(f, frame, &whole, why);
    if (have_whole < 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    if (have_whole && whole.read) {
        out->cards[out->ncards++] = whole;
        goto done;
    }

    double t1 = ts_now_ms();
    ts_quad quads[MAX_CANDIDATES], taken[MAX_READS];
    int nq = f->cls->find ? f->cls->find(f->slot[0].reader, frame, quads, MAX_CANDIDATES, why)
                          : ts_detect(f->det, frame, quads, MAX_CANDIDATES, why);
    if (nq < 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    out->ms_detect += ts_now_ms() - t1;
    f->ncand = nq < AUTO_CANDS ? nq : AUTO_CANDS;
    memcpy(f->cand, quads, sizeof quads[0] * (size_t)f->ncand);
    for (int i = 0; i < nq; i++) {
        early_read *e = &p->early[i];
        e->state = 0;
        e->r = (ts_reading){0};
        e->found = f->cls->read_found && f->cls->read_found(f->slot[0].reader, quads[i].q, &e->r);
    }
    read_ahead(p, f, frame, quads, nq);
    /* Candidates in order; one overlapping a card already taken is the same
     * card again. One that is no card leaves the place to the next, unless
     * it holds another deck's marks (closed). */
    int ntaken = 0, reads = 0;
    double typical = 0, area[TS_MAX_CARDS];
    for (int i = 0, counted = 0; i < nq && out->ncards + 2 <= TS_MAX_CARDS && reads < MAX_READS;
         i++) {
        int seen = 0;
        for (int k = 0; k < ntaken && !seen; k++)
            seen = ts_quad_overlap(&taken[k], &quads[i]);
        if (counted != out->ncards) {
            typical = typical_area(out->cards, area, out->ncards);
            counted = out->ncards;
        }
        if (seen || too_small(quads[i].area, typical))
            continue; /* the same card again, or one drop_small() would drop */
        const early_read *e = &p->early[i];
        int rc, closed;
        reads++;
        if (e->state) { /* read ahead (read_ahead) */
            rc = e->rc;
            closed = e->closed;
            memcpy(&out->cards[out->ncards], e->c, sizeof e->c);
            snprintf(why, sizeof why, "%s", e->err);
        } else {
            rc = read_detected(f, &f->slot[0], frame, quads[i].q, e->found ? &e->r : NULL,
                               &out->cards[out->ncards], &closed, why);
        }
        if (rc < 0) {
            snprintf(err, errlen, "%s", why);
            return -1;
        }
        for (int k = out->ncards; k < out->ncards + rc; k++)
            area[k] = card_area(&out->cards[k], &quads[i]);
        out->ncards += rc;
        if (rc > 0 || closed)
            taken[ntaken++] = quads[i];
    }
    if (out->ncards == 0 && have_whole) { /* an unsure single card */
        area[0] = ts_quad_area(whole.quad);
        out->cards[out->ncards++] = whole;
    }
    drop_small(out, area);
done:;
    double rect = f->slot[0].ms_rectify + f->slot[1].ms_rectify;
    double rd = f->slot[0].ms_read + f->slot[1].ms_read;
    out->ms_rectify += rect;
    out->ms_read += rd;
    out->ms_read_by[f->cls->family] += rd;
    return 0;
}

/* auto: reader i reads frame into p->trial[i]; its stage times add to out's. */
static int read_trial(ts_pipeline *p, int i, const ts_image *frame, ts_frame_result *out,
                      char *err, size_t errlen)
{
    ts_frame_result *t = &p->trial[i];
    memset(t, 0, sizeof *t);
    if (process_family(p, &p->fam[i], frame, t, err, errlen) < 0)
        return -1;
    out->ms_detect += t->ms_detect;
    out->ms_rectify += t->ms_rectify;
    out->ms_read += t->ms_read;
    out->ms_read_by[p->fam[i].cls->family] += t->ms_read;
    return 0;
}

/* auto: reading i is the frame's. */
static void take_trial(ts_pipeline *p, int i, ts_frame_result *out)
{
    const ts_frame_result *t = &p->trial[i];
    out->family = p->fam[i].cls->family;
    p->chosen = i;
    out->ncards = t->ncards;
    memcpy(out->cards, t->cards, sizeof t->cards[0] * (size_t)t->ncards);
}

/* auto: the stage a family's reader runs in. The readers that cost most on
 * other games' tables run last (callgrind, --game auto on the seven speed
 * frames: the Gang of Four finder 0.4-0.7 G on the SET, Qwirkle, domino
 * and playing tables, the playing finder 2.5 G on a domino fan), and a
 * choice the earlier stages settle skips them (ts_auto_family_settled). */
enum { LAST_STAGE = 2 };
static int stage_of(const family *f)
{
    switch (f->cls->family) {
    case TS_FAM_PLAYING: return 1;
    case TS_FAM_GOF: return LAST_STAGE;
    default: return 0;
    }
}

/* auto: of the readings so far (a reader not run yet: none), reading *best
 * explains the frame best (-1: none does); -1 on error. */
static int choose_among(ts_pipeline *p, const ts_image *frame, int *best, char *err,
                        size_t errlen)
{
    const ts_reader_class *cls[MAX_READERS];
    for (int i = 0; i < p->nfam; i++)
        cls[i] = p->fam[i].cls;
    /* the finders' candidates, each finder's best first */
    ts_quad cand[MAX_READERS * AUTO_CANDS];
    int ncand = 0;
    for (int k = 0; k < AUTO_CANDS; k++)
        for (int i = 0; i < p->nfam; i++)
            if (k < p->fam[i].ncand)
                cand[ncand++] = p->fam[i].cand[k];
    char why[TSCV_ERR_MAX] = "";
    *best = ts_auto_family_choose(p->chooser, frame, cls, p->trial, p->nfam, cand, ncand,
                                  p->weight, why);
    if (*best == -2) {
        snprintf(err, errlen, "auto: %s", why);
        return -1;
    }
    return 0;
}

/* auto: the families read the frame stage by stage (reader done, -1 none,
 * has read it already) and the best explanation wins: when a stage's
 * readings settle the choice, the later readers do not run (their
 * readings stay empty). A choice with sure cards starts a hold. */
static int choose_family(ts_pipeline *p, const ts_image *frame, int done, ts_frame_result *out,
                         char *err, size_t errlen)
{
    for (int i = 0; i < p->nfam; i++)
        if (i != done)
            p->trial[i].ncards = 0, p->fam[i].ncand = 0;
    int best = -1;
    p->nrun = done >= 0;
    for (int stage = 0; stage <= LAST_STAGE; stage++) {
        int may_settle = 0;
        for (int i = 0; i < p->nfam; i++) {
            if (stage_of(&p->fam[i]) > stage)
                continue;
            if (stage_of(&p->fam[i]) == stage && i != done) {
                if (read_trial(p, i, frame, out, err, errlen) < 0)
                    return -1;
                p->nrun++;
            }
            may_settle |= ts_auto_family_may_settle(&p->trial[i]);
        }
        if (stage < LAST_STAGE && (p->all || !may_settle))
            continue;
        if (choose_among(p, frame, &best, err, errlen) < 0)
            return -1;
        if (best >= 0 && ts_auto_family_settled(&p->weight[best]))
            break;
    }
    if (best >= 0)
        take_trial(p, best, out);
    int sure = best >= 0 ? ts_auto_family_sure_cards(&p->trial[best]) : 0;
    p->held = p->hold > 0 && sure ? best : -1;
    p->hold_left = p->hold;
    p->held_sure = p->held >= 0 ? sure : 0;
    return 0;
}

/* auto with a hold: the held reader alone reads the frame. Returns 1 if
 * its reading holds (at least half the sure cards it had when chosen: a
 * few cards taken or covered keep it; another game's table, which its
 * reader reads little of, does not), 0 if every reader must run, -1 on
 * error; *done is the reader that has read the frame (-1 none). The
 * other readings are left empty. */
static int read_held(ts_pipeline *p, const ts_image *frame, ts_frame_result *out, int *done,
                     char *err, size_t errlen)
{
    *done = -1;
    if (p->held < 0 || p->hold_left <= 0)
        return 0;
    p->hold_left--;
    if (read_trial(p, p->held, frame, out, err, errlen) < 0)
        return -1;
    *done = p->held;
    p->nrun = 1;
    int sure = ts_auto_family_sure_cards(&p->trial[p->held]);
    if (sure == 0 || 2 * sure < p->held_sure)
        return 0;
    for (int i = 0; i < p->nfam; i++)
        if (i != p->held) {
            p->trial[i].ncards = 0, p->fam[i].ncand = 0;
            p->weight[i] = (ts_auto_weight){0};
        }
    take_trial(p, p->held, out);
    return 1;
}

int ts_pipeline_process(ts_pipeline *p, const ts_image *frame, ts_frame_result *out, char *err,
                        size_t errlen)
{
    double t0 = ts_now_ms();
    double decode = out->ms_decode;
    memset(out, 0, sizeof *out);
    out->ms_decode = decode;
    out->w = frame->w;
    out->h = frame->h;
    if (frame->channels != 3) {
        snprintf(err, errlen, "the pipeline reads BGR frames, not %d-channel ones",
                 frame->channels);
        return -1;
    }
    if (!p->auto_mode) {
        out->family = p->fam[0].cls->family;
        if (process_family(p, &p->fam[0], frame, out, err, errlen) < 0)
            return -1;
    } else {
        /* Stage times add up over the families read. */
        out->family = -1;
        int done;
        int held = read_held(p, frame, out, &done, err, errlen);
        if (held < 0)
            return -1;
        if (!held && choose_family(p, frame, done, out, err, errlen) < 0)
            return -1;
    }
    out->ms_total = ts_now_ms() - t0;
    return 0;
}

/* ---- Create and destroy ------------------------------------------------- */

static int family_init(family *f, const ts_reader_class *cls, const ts_pipeline_config *cfg,
                       const char *profile, int nslots, char *err, size_t errlen)
{
    f->cls = cls;
    f->profile = profile;
    f->floor = cfg->conf_floor > 0 ? cfg->conf_floor : cls->conf_floor;
    ts_reader_config rc = {profile, cfg->models_dir};
    for (int i = 0; i < nslots; i++) {
        f->slot[i].reader = cls->create(&rc, err, errlen);
        if (!f->slot[i].reader)
            return -1;
        if (ts_image_alloc(&f->slot[i].card, cls->card_w, cls->card_h, 3) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    if (!cls->find) {
        ts_detect_params dp;
        ts_detect_defaults(&dp);
        dp.min_aspect = cls->min_aspect;
        dp.max_aspect = cls->max_aspect;
        f->det = ts_detector_create(&dp);
        if (!f->det) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Profiles of pieces that are not the family's cards, which auto tries
 * besides each family's default: they need their own finder (black Qwirkle
 * tiles on a board; western domino tiles, short and with a bar). Another
 * print of the same cards (SET's SeeCards) finds the same cards as the
 * default and would only add false readings of other families' cards. */
static int other_pieces(const char *profile)
{
    static const char *const tiles[] = {"tiles", "double-six"};
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
        if (strcmp(profile, tiles[i]) == 0)
            return 1;
    return 0;
}

/* Whether cls knows this profile (a path counts for classes that parse one). */
static int knows_profile(const ts_reader_class *cls, const char *profile)
{
    for (int k = 0; cls->profiles[k]; k++)
        if (strcmp(cls->profiles[k], profile) == 0)
            return 1;
    return cls->family == TS_FAM_SET && (strchr(profile, '/') || strstr(profile, ".profile"));
}

ts_pipeline *ts_pipeline_create(const ts_pipeline_config *cfg, char *err, size_t errlen)
{
    ts_pipeline_config def = {0};
    if (!cfg)
        cfg = &def;
    const ts_reader_class *one = NULL;
    int auto_mode = cfg->game && strcmp(cfg->game, "auto") == 0;
    if (cfg->game && !auto_mode) {
        one = ts_reader_class_by_name(cfg->game);
        if (!one) {
            char known[256] = "";
            const ts_reader_class *const *all = ts_reader_classes();
            for (int i = 0; all[i]; i++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         i ? ", " : "", all[i]->name);
            snprintf(err, errlen, "game '%s' has no card reader (known: %s, auto)", cfg->game,
                     known);
            return NULL;
        }
    } else if (!auto_mode) {
        one = cfg->profile ? ts_reader_class_by_profile(cfg->profile) : NULL;
        if (!one)
            one = ts_reader_class_by_name("set");
    }
    if (one && cfg->profile && !knows_profile(one, cfg->profile)) {
        char known[256] = "";
        for (int k = 0; one->profiles[k]; k++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "",
                     one->profiles[k]);
        snprintf(err, errlen, "profile '%s' is not a %s profile (known: %s)", cfg->profile,
                 one->name, known);
        return NULL;
    }

    ts_pipeline *p = calloc(1, sizeof *p);
    if (!p || !(p->early = calloc(MAX_CANDIDATES, sizeof *p->early))) {
        free(p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->auto_mode = auto_mode;
    p->hold = auto_mode && cfg->auto_hold > 0 ? cfg->auto_hold : 0;
    p->held = -1;
    p->all = cfg->auto_all;
    if (auto_mode && !(p->chooser = ts_auto_family_create(cfg->models_dir, err, errlen))) {
        ts_pipeline_destroy(p);
        return NULL;
    }
    int nslots = cfg->readers >= 2 ? 2 : 1;
    if (one) {
        p->nfam = 1;
        if (family_init(&p->fam[0], one, cfg, cfg->profile, nslots, err, errlen) < 0) {
            ts_pipeline_destroy(p);
            return NULL;
        }
    } else {
        /* auto: every family with its default profile and the profiles of
         * its other kinds of pieces (or with the one given, for the family
         * that knows it). */
        const ts_reader_class *const *all = ts_reader_classes();
        for (int i = 0; all[i]; i++) {
            int given = cfg->profile && knows_profile(all[i], cfg->profile);
            for (int k = 0; given ? k == 0 : all[i]->profiles[k] != NULL; k++) {
                const char *prof = given ? cfg->profile : all[i]->profiles[k];
                if (!given && k > 0 && !other_pieces(prof))
                    continue;
                if (p->nfam == MAX_READERS) {
                    snprintf(err, errlen, "auto: more than %d family profiles", MAX_READERS);
                    ts_pipeline_destroy(p);
                    return NULL;
                }
                if (family_init(&p->fam[p->nfam++], all[i], cfg, prof, nslots, err, errlen) <
                    0) {
                    ts_pipeline_destroy(p);
                    return NULL;
                }
            }
        }
    }
    if (nslots == 2) {
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        p->helper = pthread_create(&p->thread, NULL, helper_thread, p) == 0;
        if (!p->helper) {
            pthread_mutex_destroy(&p->mu);
            pthread_cond_destroy(&p->cv);
        }
    }
    return p;
}

void ts_pipeline_destroy(ts_pipeline *p)
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
    for (int i = 0; i < p->nfam; i++) {
        family *f = &p->fam[i];
        for (int k = 0; k < 2; k++) {
            if (f->slot[k].reader)
                f->cls->destroy(f->slot[k].reader);
            ts_image_free(&f->slot[k].card);
        }
        ts_detector_destroy(f->det);
    }
    ts_auto_family_destroy(p->chooser);
    free(p->early);
    free(p);
}

int ts_pipeline_family(const ts_pipeline *p)
{
    return p->auto_mode ? -1 : (int)p->fam[0].cls->family;
}

int ts_pipeline_auto_readings(const ts_pipeline *p)
{
    return p->auto_mode ? p->nfam : 0;
}

const ts_frame_result *ts_pipeline_auto_reading(const ts_pipeline *p, int i, const char **name,
                                                const char **profile, double *score,
                                                double *face)
{
    if (!p->auto_mode || i < 0 || i >= p->nfam)
        return NULL;
    const family *f = &p->fam[i];
    *name = f->cls->name;
    *profile = f->profile ? f->profile : f->cls->profiles[0];
    *score = p->weight[i].score;
    *face = p->weight[i].face;
    return &p->trial[i];
}

int ts_pipeline_auto_run(const ts_pipeline *p)
{
    return p->auto_mode ? p->nrun : 0;
}

const ts_quad *ts_pipeline_auto_candidates(const ts_pipeline *p, int i, int *n)
{
    *n = 0;
    if (!p->auto_mode || i < 0 || i >= p->nfam)
        return NULL;
    *n = p->fam[i].ncand;
    return p->fam[i].cand;
}

/* The reader of family fam: with auto, the one the last frame was read by if
 * it is of that family (its deck's letters), else the family's default. */
static const family *family_of(const ts_pipeline *p, int fam)
{
    if ((int)p->fam[p->chosen].cls->family == fam)
        return &p->fam[p->chosen];
    for (int i = 0; i < p->nfam; i++)
        if ((int)p->fam[i].cls->family == fam)
            return &p->fam[i];
    return NULL;
}

int ts_pipeline_parse_code(const ts_pipeline *p, int fam, const char *text, size_t len,
                           ts_code *out)
{
    for (int i = 0; i < p->nfam; i++) {
        const family *f = &p->fam[i];
        if (fam >= 0 && (int)f->cls->family != fam)
            continue;
        int rc = f->cls->parse ? f->cls->parse(f->slot[0].reader, text, len, out)
                               : ts_code_parse(f->cls->family, text, len, out);
        if (rc == 0)
            return 0;
    }
    return -1;
}

void ts_pipeline_format_code(const ts_pipeline *p, ts_code code, char out[TS_CODE_MAXLEN])
{
    const family *f = family_of(p, code.family);
    if (f && f->cls->format)
        f->cls->format(f->slot[0].reader, code, out);
    else
        ts_code_format(code, out);
}
