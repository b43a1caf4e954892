/* The referee over rendered sequences of play (samples/render/sequence.c):
 * each frame is rendered and its cards (ground-truth codes and corners, as a
 * reader that reads everything right would give them) go through the tracker,
 * the zones and the referee frame by frame, every frame held a while as a
 * camera at 15 fps would see it. Verdicts must match the plays exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "eleusis_dealer.h"
#include "game.h"
#include "gof.h"
#include "referee.h"
#include "render.h"
#include "table_tracker.h"
#include "zones.h"

enum { HOLD = 20 }; /* camera frames per sequence frame at rest (1.3 s at 15 fps) */

typedef struct {
    ts_table_tracker *trk;
    ts_referee *ref;
    ts_zones zones;
    uint64_t frame;
    int n;
    ts_verdict v[64];
} session;

/* Renders frame f of seq and returns its visible cards as read cards. */
static int frame_cards(const ts_sequence *seq, int f, ts_card *out, int *w, int *h)
{
    ts_scene_spec spec;
    ts_scene sc;
    char err[TSCV_ERR_MAX];
    ts_sequence_frame(seq, f, &spec);
    assert_int_equal(ts_render_scene(&spec, &sc, err), 0);
    int n = 0;
    for (int i = 0; i < sc.ncards; i++) {
        if (sc.cards[i].visible < 0.3f)
            continue; /* covered: a camera would not see it */
        ts_card *c = &out[n++];
        memset(c, 0, sizeof *c);
        c->code = sc.cards[i].code;
        ts_code_format(c->code, c->text);
        c->conf = 0.99f;
        c->read = 1;
        memcpy(c->quad, sc.cards[i].quad, sizeof c->quad);
    }
    *w = sc.img.w;
    *h = sc.img.h;
    ts_scene_free(&sc);
    return n;
}

static void feed(session *s, const ts_card *cards, int n, int w, int h, int hold)
{
    for (int k = 0; k < hold; k++, s->frame++) {
        const ts_table_stable *st =
            ts_table_tracker_update(s->trk, cards, n, w, h, s->frame, (double)s->frame / 15);
        int zone[TS_MAX_CARDS], busy = st->tentative;
        for (int i = 0; i < st->ncards; i++) {
            zone[i] = ts_zones_card(&s->zones, &st->cards[i], w, h);
            busy += st->missing[i] > 0;
        }
        ts_verdict v;
        if (ts_referee_update(s->ref, st->cards, st->id, zone, st->ncards, w, h, busy,
                              (double)s->frame / 15, &v) &&
            v.kind != TS_VERDICT_NONE && s->n < 64)
            s->v[s->n++] = v;
    }
}

static void print_verdicts(const session *s)
{
    for (int i = 0; i < s->n; i++) {
        char cards[64];
        ts_game_codes_text(s->v[i].cards, s->v[i].ncards, cards, sizeof cards);
        print_message("  %d: %s '%s' [%s]: %s\n", i, ts_verdict_kind_name(s->v[i].kind),
                      s->v[i].verdict, cards, s->v[i].reason);
    }
}

static void play_through(session *s, const ts_sequence *seq)
{
    static ts_card cards[TS_MAX_CARDS];
    int w = 0, h = 0, n = 0;
    for (int f = 0; f < seq->nframes; f++) {
        n = frame_cards(seq, f, cards, &w, &h);
        /* a card sliding in is in motion: a camera sees it there for a moment only */
        feed(s, cards, n, w, h, seq->moving[f] ? 2 : HOLD);
    }
    feed(s, cards, n, w, h, HOLD); /* the last frame held: the last move settles */
    print_verdicts(s);
}

static void test_set_deal(void **state)
{
    (void)state;
    ts_scene_spec look = {.w = 640, .h = 360, .seed = 3};
    static ts_sequence seq;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_render_sequence(TS_SEQ_DEAL, &look, &seq, err), 0);
    session s = {0};
    s.trk = ts_table_tracker_create(NULL);
    s.ref = ts_referee_create(&TS_GAME_SET, NULL);
    ts_zones_default("set", &s.zones);
    play_through(&s, &seq);
    /* the deal is no verdict; the Set taken is a valid Set */
    assert_int_equal(s.n, 1);
    assert_int_equal(s.v[0].kind, TS_VERDICT_LEGAL);
    assert_string_equal(s.v[0].verdict, "valid Set");
    ts_referee_destroy(s.ref);
    ts_table_tracker_destroy(s.trk);
}

static void test_gof_trick(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        ts_scene_spec look = {.w = 640, .h = 360, .seed = seed};
        static ts_sequence seq;
        char err[TSCV_ERR_MAX];
        assert_int_equal(ts_render_sequence(TS_SEQ_TRICK, &look, &seq, err), 0);
        int plays = 0;
        for (int f = 1; f < seq.nframes; f++)
            plays += (seq.present[f] & ~seq.present[f - 1]) != 0;
        session s = {0};
        s.trk = ts_table_tracker_create(NULL);
        s.ref = ts_referee_create(&TS_GAME_GOF, NULL);
        s.zones.n = 0;
        char why[96];
        assert_int_equal(ts_zones_add_spec(&s.zones, "trick:0,0,1,1", why, sizeof why), 0);
        play_through(&s, &seq);
        /* every play judged, each legal: the first leads, each later one beats the last */
        assert_int_equal(s.n, plays);
        for (int i = 0; i < s.n; i++) {
            if (s.v[i].kind != TS_VERDICT_LEGAL)
                fail_msg("seed %d play %d: %s: %s", (int)seed, i, s.v[i].verdict, s.v[i].reason);
            assert_non_null(strstr(s.v[i].reason, i == 0 ? " leads" : " beats "));
        }
        ts_referee_destroy(s.ref);
        ts_table_tracker_destroy(s.trk);
    }
}

/* The sequence's secret rule is one of these; the right one is the one its
 * layout agrees with (right cards extend the line, wrong ones go below). */
static const char *RULES[] = {"colour != prev.colour", "odd(value) != odd(prev.value)",
                              "suit == prev.suit or value == prev.value",
                              "value > prev.value or value == 1"};

static void test_eleusis_mainline(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        ts_scene_spec look = {.w = 960, .h = 540, .seed = seed};
        static ts_sequence seq;
        char err[TSCV_ERR_MAX];
        assert_int_equal(ts_render_sequence(TS_SEQ_MAINLINE, &look, &seq, err), 0);
        const ts_scene_spec *t = &seq.table;
        /* which rule: the one that judges every placement as laid out */
        int rule = -1;
        for (int r = 0; r < 4 && rule < 0; r++) {
            ts_eleusis_error e;
            ts_eleusis_rule *cr = ts_eleusis_compile(RULES[r], &e);
            ts_code line[64];
            int n = 1, ok = 1;
            line[0] = t->cards[0].code;
            for (int i = 1; i < t->ncards; i++) {
                int right = t->cards[i].y < 5; /* on the line (y = 0 give or take) */
                if (ts_eleusis_judge(cr, line, n, t->cards[i].code) != right)
                    ok = 0;
                if (right)
                    line[n++] = t->cards[i].code;
            }
            ts_eleusis_free(cr);
            if (ok)
                rule = r;
        }
        assert_true(rule >= 0);
        ts_eleusis_dealer *d = ts_eleusis_dealer_create(RULES[rule], 3, err, sizeof err);
        assert_non_null(d);
        session s = {0};
        s.trk = ts_table_tracker_create(NULL);
        s.ref = ts_referee_create(&TS_GAME_ELEUSIS, NULL);
        ts_referee_set_dealer(s.ref, d);
        /* zones: the mainline row (the quad spanning its first and last cards, a
         * little taller), the sideline everywhere else */
        ts_card last[TS_MAX_CARDS];
        int w, h, nlast = frame_cards(&seq, seq.nframes - 1, last, &w, &h);
        int a = -1, b = -1;
        for (int i = 0; i < nlast; i++)
            for (int k = 0; k < t->ncards; k++)
                if (t->cards[k].y < 5 && last[i].code.idx == t->cards[k].code.idx) {
                    if (a < 0 || last[i].quad[0].x < last[a].quad[0].x)
                        a = i;
                    if (b < 0 || last[i].quad[0].x > last[b].quad[0].x)
                        b = i;
                }
        assert_true(a >= 0 && b >= 0);
        ts_pt q[4] = {last[a].quad[0], last[b].quad[1], last[b].quad[2], last[a].quad[3]};
        float grow = 0.25f * (q[3].y - q[0].y);
        q[0].y -= grow, q[1].y -= grow, q[2].y += grow, q[3].y += grow;
        char spec[160], why[96];
        s.zones.n = 0;
        snprintf(spec, sizeof spec, "mainline:%f,%f,%f,%f,%f,%f,%f,%f", q[0].x / w, q[0].y / h,
                 q[1].x / w, q[1].y / h, q[2].x / w, q[2].y / h, q[3].x / w, q[3].y / h);
        assert_int_equal(ts_zones_add_spec(&s.zones, spec, why, sizeof why), 0);
        assert_int_equal(ts_zones_add_spec(&s.zones, "sideline:0,0,1,1", why, sizeof why), 0);
        play_through(&s, &seq);
        /* the starter, then every card: right on the line, wrong (laid aside) below */
        assert_int_equal(s.n, t->ncards);
        assert_string_equal(s.v[0].verdict, "starter");
        for (int i = 1; i < t->ncards; i++) {
            int right = t->cards[i].y < 5;
            if (s.v[i].kind != TS_VERDICT_LEGAL || strcmp(s.v[i].verdict, right ? "right" : "wrong"))
                fail_msg("seed %d card %d: %s: %s", (int)seed, i, s.v[i].verdict, s.v[i].reason);
        }
        ts_referee_destroy(s.ref);
        ts_table_tracker_destroy(s.trk);
        ts_eleusis_dealer_destroy(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_deal),
        cmocka_unit_test(test_gof_trick),
        cmocka_unit_test(test_eleusis_mainline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
