/* Sequences of play: the frames a camera over a game would see (see
 * render.h). The rules core decides what may be played, so every frame shows
 * a legal position. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eleusis.h"
#include "gof.h"
#include "place.h"
#include "render.h"
#include "rng.h"
#include "set.h"

enum { STREAM_SEQUENCE = 50 };

static const char *NAMES[TS_SEQ_COUNT] = {"deal", "trick", "mainline"};

const char *ts_sequence_name(ts_sequence_kind k)
{
    return k < TS_SEQ_COUNT ? NAMES[k] : "?";
}

int ts_sequence_from_name(const char *name)
{
    for (int i = 0; i < TS_SEQ_COUNT; i++)
        if (strcmp(name, NAMES[i]) == 0)
            return i;
    return -1;
}

ts_family ts_sequence_family(ts_sequence_kind k)
{
    return k == TS_SEQ_TRICK ? TS_FAM_GOF : k == TS_SEQ_MAINLINE ? TS_FAM_PLAYING : TS_FAM_SET;
}

/* Appends frames holding mask (with moving cards arriving) `hold` times. */
static void frames(ts_sequence *s, uint64_t mask, uint64_t moving, int hold)
{
    for (int i = 0; i < hold && s->nframes < TS_SEQ_MAX_FRAMES; i++, s->nframes++) {
        s->present[s->nframes] = mask;
        s->moving[s->nframes] = i == 0 ? moving : 0;
    }
}

/* ---- SET: a deal --------------------------------------------------------- */

/* Twelve cards holding a Set, dealt one a frame (each sliding in, then
 * resting), the full table held, the Set taken away card by card, the
 * remaining nine held: 40 frames. */
static int deal(ts_sequence *s, uint64_t *rng)
{
    ts_scene_spec *t = &s->table;
    int idx[12], set[3];
    ts_code c[12];
    for (int tries = 0;; tries++) {
        ts_render_draw_cards(TS_FAM_SET, 12, rng_next(rng), c);
        for (int i = 0; i < 12; i++)
            idx[i] = c[i].idx;
        if (ts_set_exists(idx, 12, set) || tries > 100)
            break;
    }
    t->ncards = 12;
    for (int i = 0; i < 12; i++)
        t->cards[i].code = c[i];
    ts_place_fitted_grid(t);
    uint64_t on = 0;
    frames(s, 0, 0, 1);
    for (int i = 0; i < 12; i++) {
        on |= 1ull << i;
        frames(s, on, 1ull << i, 2);
    }
    frames(s, on, 0, 3);
    for (int k = 0; k < 3; k++) {
        on &= ~(1ull << set[k]);
        frames(s, on, 0, 1);
    }
    frames(s, on, 0, 9);
    return 0;
}

/* ---- Gang of Four: a trick ----------------------------------------------- */

/* Takes k cards of `number` (1..10) of any colours still in the deck. */
static int take(int left[64], int number, int k, uint64_t *rng, int out[])
{
    int avail = 0;
    for (int col = 0; col < 3; col++)
        avail += left[col * 10 + number - 1];
    if (avail < k)
        return -1;
    for (int i = 0; i < k; i++) {
        int c;
        do
            c = rng_int(rng, 3) * 10 + number - 1;
        while (!left[c]);
        left[c]--;
        out[i] = c;
    }
    return 0;
}

/* A lead of one to three cards of a number, then plays of as many cards of
 * higher numbers, each checked to beat the last by the rules core, perhaps
 * ended by a gang of four; each play lands on the centre. */
static int trick(ts_sequence *s, uint64_t *rng, char *err)
{
    ts_scene_spec *t = &s->table;
    int left[64];
    for (int i = 0; i < 64; i++)
        left[i] = ts_gof_deck_copies(i);
    int k = 1 + rng_int(rng, 3), number = 1 + rng_int(rng, 4);
    ts_gof_combo last = {0};
    int nplays = 0;
    uint64_t on = 0;
    frames(s, 0, 0, 1);
    while (nplays < 6 && t->ncards + 4 <= TS_RENDER_MAX_CARDS) {
        int cards[4], n = k;
        int gang = nplays >= 3 && rng_unit(rng) < 0.5;
        if (gang) { /* four of a number beats any smaller combination */
            n = 4;
            number = 1 + rng_int(rng, 10);
        }
        if (number > 10 || take(left, number, n, rng, cards) < 0)
            break;
        ts_gof_combo play;
        if (ts_gof_classify(cards, n, &play) != TS_GOF_OK ||
            (nplays && !ts_gof_beats(&play, &last))) {
            snprintf(err, TSCV_ERR_MAX, "render: trick: a planned play does not beat the last");
            return -1;
        }
        /* the play lands near the centre, its cards overlapping to show their indices */
        float cx = rng_gauss(rng) * 12, cy = rng_gauss(rng) * 12,
              a = (float)rng_range(rng, -0.7, 0.7);
        uint64_t moving = 0;
        for (int m = 0; m < n; m++) {
            ts_card_place *c = &t->cards[t->ncards];
            float along = (m - (n - 1) / 2.0f) * 20;
            c->code = (ts_code){TS_FAM_GOF, (uint8_t)cards[m]};
            c->x = cx + along * cosf(a);
            c->y = cy + along * sinf(a);
            c->angle = a + rng_gauss(rng) * 0.06f;
            c->print = (uint32_t)t->ncards;
            on |= 1ull << t->ncards;
            moving |= 1ull << t->ncards;
            t->ncards++;
        }
        frames(s, on, moving, 3);
        last = play;
        nplays++;
        if (gang)
            break;
        number += 1 + rng_int(rng, 2);
    }
    frames(s, on, 0, 3);
    ts_place_view(t);
    return 0;
}

/* ---- Eleusis: a mainline ------------------------------------------------- */

static const char *RULES[] = {"colour != prev.colour", "odd(value) != odd(prev.value)",
                              "suit == prev.suit or value == prev.value",
                              "value > prev.value or value == 1"};

/* A starter, then plays judged by a secret rule: right ones extend the
 * mainline to the right, wrong ones go in a column below the card they
 * followed. Each play is held two frames. */
static int mainline(ts_sequence *s, uint64_t *rng, char *err)
{
    ts_scene_spec *t = &s->table;
    ts_eleusis_error e;
    ts_eleusis_rule *rule = ts_eleusis_compile(RULES[rng_int(rng, 4)], &e);
    if (!rule) {
        snprintf(err, TSCV_ERR_MAX, "render: mainline rule: %.100s", e.msg);
        return -1;
    }
    float cw, ch;
    ts_render_card_size(TS_FAM_PLAYING, &cw, &ch);
    float step = cw + (float)rng_range(rng, 4, 10);
    ts_code deck[52], line[52];
    ts_render_draw_cards(TS_FAM_PLAYING, 52, rng_next(rng), deck);
    int n = 0, below = 0;
    uint64_t on = 0;
    for (int p = 0; p < 14; p++) {
        ts_card_place *c = &t->cards[t->ncards];
        c->code = deck[p];
        c->print = (uint32_t)t->ncards;
        c->angle = rng_gauss(rng) * 0.03f;
        if (p == 0 || ts_eleusis_judge(rule, line, n, deck[p]) == 1) {
            c->x = n * step;
            c->y = 0;
            line[n++] = deck[p];
            below = 0;
        } else {
            c->x = (n - 1) * step;
            c->y = ch * 0.9f + below++ * ch * 0.28f;
        }
        c->x += rng_gauss(rng) * 1.5f;
        c->y += rng_gauss(rng) * 1.5f;
        on |= 1ull << t->ncards;
        frames(s, on, 1ull << t->ncards, 2);
        t->ncards++;
    }
    frames(s, on, 0, 3);
    ts_eleusis_free(rule);
    ts_place_view(t);
    return 0;
}

/* ---- Plan and frames ----------------------------------------------------- */

int ts_render_sequence(ts_sequence_kind kind, const ts_scene_spec *look, ts_sequence *out,
                       char *err)
{
    memset(out, 0, sizeof *out);
    if (kind >= TS_SEQ_COUNT) {
        snprintf(err, TSCV_ERR_MAX, "render: unknown sequence %d", (int)kind);
        return -1;
    }
    ts_scene_spec *t = &out->table;
    t->family = ts_sequence_family(kind);
    t->deck = look->deck;
    t->w = look->w;
    t->h = look->h;
    t->seed = look->seed;
    uint64_t rng = rng_stream(look->seed, STREAM_SEQUENCE);
    int rc = kind == TS_SEQ_DEAL    ? deal(out, &rng)
             : kind == TS_SEQ_TRICK ? trick(out, &rng, err)
                                    : mainline(out, &rng, err);
    /* the camera also takes in the cards still sliding in from the player's side */
    float cw, ch;
    ts_render_card_size(t->family, &cw, &ch);
    t->view[0] -= 0.3f * cw;
    t->view[2] += 0.3f * cw;
    t->view[3] += 0.3f * ch;
    return rc;
}

void ts_sequence_frame(const ts_sequence *seq, int f, ts_scene_spec *out)
{
    const ts_scene_spec *t = &seq->table;
    float cw, ch;
    ts_render_card_size(t->family, &cw, &ch);
    *out = *t;
    out->frame = f;
    out->ncards = 0;
    if (f < 0 || f >= seq->nframes)
        return;
    for (int i = 0; i < t->ncards; i++) {
        if (!(seq->present[f] >> i & 1))
            continue;
        ts_card_place c = t->cards[i];
        if (seq->moving[f] >> i & 1) { /* still sliding in from the player's side */
            uint64_t r = rng_stream(t->seed, 900 + (uint64_t)i);
            c.x += rng_gauss(&r) * cw * 0.15f;
            c.y += ch * (float)rng_range(&r, 0.15, 0.3);
            c.angle += (float)rng_range(&r, -0.25, 0.25);
        }
        out->cards[out->ncards++] = c;
    }
}
