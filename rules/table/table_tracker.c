/* The table tracker (see table_tracker.h). */
#include "table_tracker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const ts_table_tracker_config TS_TABLE_TRACKER_DEFAULTS = {
    .stable_frames = 4, .keep_frames = 8, .match_dist = 0.5f, .move_dist = 0.25f};

/* Twice the table: room for tentative tracks (a hand, a card being dealt). */
enum { MAX_TRACKS = 2 * TS_MAX_CARDS };

typedef struct {
    int id;
    ts_pt quad[4];
    ts_pt prev;      /* centre in the frame before, to tell a card at rest */
    ts_pt anchor;    /* centre last reported (added / moved) */
    int hits;        /* frames seen */
    int misses;      /* frames unseen in a row */
    int on_table;
    int has_code;    /* an agreed reading exists */
    ts_code code;
    char text[TS_CODE_MAXLEN];
    float conf;
    ts_code cand;    /* the reading being agreed on, and its run of agreeing frames */
    char cand_text[TS_CODE_MAXLEN];
    int cand_n;
    char guess[TS_CODE_MAXLEN]; /* latest best code of an unread card */
    float guess_conf;
} track;

typedef struct {
    float d;
    int track, card;
} pair;

struct ts_table_tracker {
    ts_table_tracker_config cfg;
    int ntracks;
    track tracks[MAX_TRACKS]; /* in creation order, so ids ascend */
    int next_id;
    pair pairs[MAX_TRACKS * TS_MAX_CARDS]; /* match() scratch */
    ts_table_stable out;
};

const char *ts_table_event_name(ts_table_event_type type)
{
    static const char *names[] = {"added", "removed", "moved", "reread"};
    return (unsigned)type < 4 ? names[type] : "?";
}

ts_table_tracker *ts_table_tracker_create(const ts_table_tracker_config *cfg)
{
    ts_table_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    ts_table_tracker_config c = cfg ? *cfg : TS_TABLE_TRACKER_DEFAULTS;
    const ts_table_tracker_config *d = &TS_TABLE_TRACKER_DEFAULTS;
    t->cfg.stable_frames = c.stable_frames > 0 ? c.stable_frames : d->stable_frames;
    t->cfg.keep_frames = c.keep_frames > 0 ? c.keep_frames : d->keep_frames;
    t->cfg.match_dist = c.match_dist > 0 ? c.match_dist : d->match_dist;
    t->cfg.move_dist = c.move_dist > 0 ? c.move_dist : d->move_dist;
    t->next_id = 1;
    return t;
}

void ts_table_tracker_destroy(ts_table_tracker *t)
{
    free(t);
}

/* ---- Geometry ----------------------------------------------------------- */

static ts_pt centre(const ts_pt q[4])
{
    return (ts_pt){(q[0].x + q[1].x + q[2].x + q[3].x) / 4, (q[0].y + q[1].y + q[2].y + q[3].y) / 4};
}

static float dist(ts_pt a, ts_pt b)
{
    return hypotf(a.x - b.x, a.y - b.y);
}

/* The longer diagonal: the card's size, whatever its rotation. */
static float diag(const ts_pt q[4])
{
    float a = dist(q[0], q[2]), b = dist(q[1], q[3]);
    return a > b ? a : b;
}

static int quad_finite(const ts_pt q[4])
{
    for (int i = 0; i < 4; i++)
        if (!isfinite(q[i].x) || !isfinite(q[i].y))
            return 0;
    return diag(q) > 0;
}

static int same_code(ts_code a, ts_code b)
{
    return a.family == b.family && a.idx == b.idx;
}

/* ---- Events ------------------------------------------------------------- */

static ts_table_event *event(ts_table_tracker *t, ts_table_event_type type, const track *k)
{
    ts_table_stable *o = &t->out;
    if (o->nevents >= TS_TABLE_MAX_EVENTS)
        return NULL; /* cannot happen with the track limit; never overflow */
    ts_table_event *e = &o->events[o->nevents++];
    memset(e, 0, sizeof *e);
    e->type = type;
    e->id = k->id;
    e->frame = o->frame;
    e->t = o->t;
    if (k->has_code)
        memcpy(e->code, k->text, sizeof e->code);
    e->at = centre(k->quad);
    return e;
}

/* ---- One frame ---------------------------------------------------------- */

/* A reading of track k in this frame. */
static void observe(ts_table_tracker *t, track *k, const ts_card *c)
{
    if (!c->read) {
        memcpy(k->guess, c->text, sizeof k->guess);
        k->guess[sizeof k->guess - 1] = '\0';
        k->guess_conf = c->conf;
        return; /* an unread frame neither confirms nor breaks a reading */
    }
    if (k->cand_n > 0 && same_code(k->cand, c->code)) {
        k->cand_n++;
    } else {
        k->cand = c->code;
        memcpy(k->cand_text, c->text, sizeof k->cand_text);
        k->cand_text[sizeof k->cand_text - 1] = '\0';
        k->cand_n = 1;
    }
    if (k->has_code && same_code(k->code, c->code))
        k->conf = c->conf;
    if (k->cand_n >= t->cfg.stable_frames && (!k->has_code || !same_code(k->code, k->cand))) {
        char from[TS_CODE_MAXLEN];
        snprintf(from, sizeof from, "%s", k->has_code ? k->text : "");
        k->has_code = 1;
        k->code = k->cand;
        memcpy(k->text, k->cand_text, sizeof k->text);
        k->conf = c->conf;
        if (k->on_table) {
            ts_table_event *e = event(t, TS_TEV_REREAD, k);
            if (e)
                memcpy(e->from, from, sizeof e->from);
        }
    }
}

/* Moves track k to quad q: a shift under a tenth of the card is smoothed
 * (corner jitter), a larger one is taken at once (the card is being moved). */
static void place(track *k, const ts_pt q[4])
{
    k->prev = centre(k->quad);
    if (dist(centre(q), k->prev) > 0.1f * diag(q)) {
        memcpy(k->quad, q, sizeof k->quad);
        return;
    }
    for (int i = 0; i < 4; i++) {
        k->quad[i].x = (k->quad[i].x + q[i].x) / 2;
        k->quad[i].y = (k->quad[i].y + q[i].y) / 2;
    }
}

static int by_distance(const void *a, const void *b)
{
    float x = ((const pair *)a)->d, y = ((const pair *)b)->d;
    return (x > y) - (x < y);
}

/* Greedy nearest-first matching of tracks to this frame's cards:
 * card_of[track] = card index or -1. */
static void match(ts_table_tracker *t, const ts_card *cards, int n, const int *usable, int *card_of)
{
    int np = 0, taken[TS_MAX_CARDS] = {0};
    for (int i = 0; i < t->ntracks; i++) {
        card_of[i] = -1;
        ts_pt a = centre(t->tracks[i].quad);
        for (int j = 0; j < n; j++) {
            if (!usable[j])
                continue;
            float d = dist(a, centre(cards[j].quad));
            if (d < t->cfg.match_dist * diag(cards[j].quad))
                t->pairs[np++] = (pair){d, i, j};
        }
    }
    qsort(t->pairs, (size_t)np, sizeof *t->pairs, by_distance);
    for (int p = 0; p < np; p++)
        if (card_of[t->pairs[p].track] < 0 && !taken[t->pairs[p].card]) {
            card_of[t->pairs[p].track] = t->pairs[p].card;
            taken[t->pairs[p].card] = 1;
        }
}

static void remove_track(ts_table_tracker *t, int i)
{
    memmove(&t->tracks[i], &t->tracks[i + 1], sizeof(track) * (size_t)(t->ntracks - i - 1));
    t->ntracks--;
}

/* A card that joins with the reading of a table card that has gone unseen is
 * that card moved (picked up and put down elsewhere): returns its index or -1. */
static int moved_twin(const ts_table_tracker *t, const track *k)
{
    int best = -1;
    float bd = 0;
    for (int i = 0; i < t->ntracks; i++) {
        const track *o = &t->tracks[i];
        if (o == k || !o->on_table || o->misses == 0 || !o->has_code || !same_code(o->code, k->code))
            continue;
        float d = dist(centre(o->quad), centre(k->quad));
        if (best < 0 || d < bd)
            best = i, bd = d;
    }
    return best;
}

static int table_size(const ts_table_tracker *t)
{
    int n = 0;
    for (int i = 0; i < t->ntracks; i++)
        n += t->tracks[i].on_table;
    return n;
}

/* Tentative tracks that have agreed long enough join the table. */
static void join(ts_table_tracker *t)
{
    int N = t->cfg.stable_frames;
    for (int i = 0; i < t->ntracks; i++) {
        track *k = &t->tracks[i];
        if (k->on_table || k->misses > 0 || k->hits < N)
            continue;
        /* Something unreadable shows only when it lies still (not a moving hand). */
        if (!k->has_code && (k->hits < 2 * N || dist(centre(k->quad), k->prev) > 0.05f * diag(k->quad)))
            continue;
        int twin = k->has_code ? moved_twin(t, k) : -1;
        if (twin >= 0) {
            track *o = &t->tracks[twin];
            ts_pt was = o->anchor;
            memcpy(o->quad, k->quad, sizeof o->quad);
            o->prev = o->anchor = centre(o->quad);
            o->misses = 0;
            ts_table_event *e = event(t, TS_TEV_MOVED, o);
            if (e)
                e->was = was;
            remove_track(t, i--);
            continue;
        }
        if (table_size(t) >= TS_MAX_CARDS)
            continue;
        k->on_table = 1;
        k->anchor = centre(k->quad);
        event(t, TS_TEV_ADDED, k);
    }
}

/* Table cards that settled away from where they were reported have moved. */
static void settle(ts_table_tracker *t)
{
    for (int i = 0; i < t->ntracks; i++) {
        track *k = &t->tracks[i];
        if (!k->on_table || k->misses > 0)
            continue;
        float d = diag(k->quad);
        ts_pt c = centre(k->quad);
        int at_rest = dist(c, k->prev) < 0.05f * d;
        if (at_rest && dist(c, k->anchor) > t->cfg.move_dist * d) {
            ts_table_event *e = event(t, TS_TEV_MOVED, k);
            if (e)
                e->was = k->anchor;
            k->anchor = c;
        }
    }
}

/* Unseen cards: tentative ones go after a second miss, table cards after
 * keep_frames. */
static void expire(ts_table_tracker *t)
{
    for (int i = 0; i < t->ntracks; i++) {
        track *k = &t->tracks[i];
        if (k->on_table ? k->misses <= t->cfg.keep_frames : k->misses <= 1)
            continue;
        if (k->on_table)
            event(t, TS_TEV_REMOVED, k);
        remove_track(t, i--);
    }
}

/* Rebuilds the table from the tracks (corners move every frame; the card list
 * and Sets change only with events). */
static void publish(ts_table_tracker *t, int w, int h, int changed)
{
    ts_table_stable *o = &t->out;
    o->w = w;
    o->h = h;
    o->ncards = 0;
    o->tentative = 0;
    for (int i = 0; i < t->ntracks; i++) {
        const track *k = &t->tracks[i];
        if (!k->on_table) {
            o->tentative++;
            continue;
        }
        int j = o->ncards++;
        ts_card *c = &o->cards[j];
        memset(c, 0, sizeof *c);
        memcpy(c->quad, k->quad, sizeof c->quad);
        c->read = k->has_code;
        c->code = k->has_code ? k->code : k->cand;
        memcpy(c->text, k->has_code ? k->text : k->guess, sizeof c->text);
        c->conf = k->has_code ? k->conf : k->guess_conf;
        o->id[j] = k->id;
        o->missing[j] = k->misses;
    }
    if (changed)
        o->version++;
}

const ts_table_stable *ts_table_tracker_update(ts_table_tracker *t, const ts_card *cards, int ncards,
                                               int w, int h, uint64_t frame, double time)
{
    ts_table_stable *o = &t->out;
    o->nevents = 0;
    o->frame = frame;
    o->t = time;
    int n = ncards < 0 ? 0 : ncards > TS_MAX_CARDS ? TS_MAX_CARDS : ncards;
    int usable[TS_MAX_CARDS], card_of[MAX_TRACKS], seen[TS_MAX_CARDS] = {0};
    for (int j = 0; j < n; j++)
        usable[j] = quad_finite(cards[j].quad);

    match(t, cards, n, usable, card_of);
    int before = t->ntracks;
    for (int i = 0; i < before; i++) {
        track *k = &t->tracks[i];
        if (card_of[i] < 0) {
            k->misses++;
            continue;
        }
        const ts_card *c = &cards[card_of[i]];
        seen[card_of[i]] = 1;
        place(k, c->quad);
        k->hits++;
        k->misses = 0;
        observe(t, k, c);
    }
    for (int j = 0; j < n && t->ntracks < MAX_TRACKS; j++) {
        if (!usable[j] || seen[j])
            continue;
        track *k = &t->tracks[t->ntracks++];
        memset(k, 0, sizeof *k);
        k->id = t->next_id++;
        memcpy(k->quad, cards[j].quad, sizeof k->quad);
        k->prev = k->anchor = centre(k->quad);
        k->hits = 1;
        observe(t, k, &cards[j]);
    }
    settle(t);
    join(t);
    expire(t);
    publish(t, w, h, o->nevents > 0);
    return o;
}
