/* Playing cards in a fan, each read by its index corner (the place rule,
 * playing.c): a card found by its index alone is placed by that index, so
 * a fan's cards, each of whose whole quads covers its neighbours' middles,
 * are each a place of their own, and one under others is given as its
 * index view, where it shows. Before, the place pick and the pipeline kept
 * one card of every three or four.
 *
 * The place rule on quads laid as a fan's (ts_playing_same_place), and the
 * pipeline on rendered fans (--random 12 tables of the tuning seeds, as
 * the camera sends them): cards read right at the place that shows them,
 * none read surely wrong. And the view net (models/playing-view.tsnet) on
 * the index views of fans it never saw, cut at their true corners as the
 * reader cuts a view: more read right than by the fast net, none wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "cv/cvdnn.h"
#include "cv/cvwrap.h"
#include "game_pipeline.h"
#include "geom.h"
#include "pipeline.h"
#include "readers/playing.h"
#include "render_table.h"

/* A card 100 px wide (1.4 long) with its top-left corner at (x, y), turned
 * by angle (radians) about that corner. */
static ts_quad card_at(float x, float y, float angle)
{
    const float w = 100, h = 140, c = cosf(angle), s = sinf(angle);
    const float u[4] = {0, w, w, 0}, v[4] = {0, 0, h, h};
    ts_quad q = {.score = 1, .area = w * h};
    for (int k = 0; k < 4; k++)
        q.q[k] = (ts_pt){x + u[k] * c - v[k] * s, y + u[k] * s + v[k] * c};
    return q;
}

/* The card turned half a circle: the same card from its other index. */
static ts_quad turned(const ts_quad *c)
{
    ts_quad t = *c;
    for (int k = 0; k < 4; k++)
        t.q[k] = c->q[(k + 2) % 4];
    return t;
}

static void test_place_by_index_corner(void **state)
{
    (void)state;
    /* a fan's neighbours: indices a fifth of a card apart, each whole quad
     * over the other's middle */
    ts_quad a = card_at(100, 100, 0), b = card_at(120, 96, 0.08f);
    assert_true(ts_quad_overlap(&a, &b));
    assert_false(ts_playing_same_place(&a, 1, &b, 1));
    /* one index found twice, a few pixels off; the card's other index */
    ts_quad a2 = card_at(103, 102, 0.02f), at = turned(&a);
    assert_true(ts_playing_same_place(&a, 1, &a2, 1));
    assert_true(ts_playing_same_place(&a, 1, &at, 1));
    /* a whole card (an outline) over the fan: one place with a card whose
     * index it covers, not with one whose index shows beside it */
    ts_quad top = card_at(140, 92, 0.16f);
    assert_false(ts_playing_same_place(&b, 1, &top, 0));
    ts_quad over = card_at(110, 90, 0.05f);
    assert_true(ts_playing_same_place(&b, 1, &over, 0));
    /* quads not found by their index: as before */
    assert_int_equal(ts_playing_same_place(&a, 0, &b, 0), ts_quad_overlap(&a, &b));
    /* the view: about the index, inside the card, weighing the card */
    ts_quad v;
    ts_playing_index_view(&a, &v);
    ts_pt m = ts_quad_centre(v.q);
    assert_true(ts_point_in_quad(a.q, m.x, m.y));
    assert_true(m.x < 120 && m.y < 130);
    assert_true(ts_quad_area(v.q) < 0.1 * ts_quad_area(a.q));
    assert_true(v.area == a.area);
}

/* Whether code is one of the scene's cards. */
static int dealt(const ts_scene *sc, ts_code code)
{
    for (int i = 0; i < sc->ncards; i++)
        if (sc->cards[i].code.idx == code.idx)
            return 1;
    return 0;
}

/* Fan counts: cards read right where they show, read where another of the
 * table's cards shows, and read as no card of the table. */
typedef struct {
    int right, elsewhere, wrong;
} fan_tally;

/* Renders each fan table as the camera sends it (JPEG) and reads it with
 * the playing pipeline, adding up the cards read. */
static fan_tally read_fans(const uint64_t *seeds, int n)
{
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    static ts_frame_result res;
    char err[TSCV_ERR_MAX];
    fan_tally t = {0};
    for (int s = 0; s < n; s++) {
        ts_scene sc;
        assert_int_equal(render_table(TS_FAM_PLAYING, seeds[s], TS_LAYOUT_AUTO, 1, &sc, err), 0);
        assert_int_equal(ts_pipeline_process(p, &sc.img, &res, err, sizeof err), 0);
        fan_tally f = {0};
        for (int k = 0; k < res.ncards; k++) {
            const ts_card *c = &res.cards[k];
            if (!c->read)
                continue;
            int on = ts_scene_card_read(&sc, c->quad); /* the card that shows there */
            if (on >= 0 && sc.cards[on].code.idx == c->code.idx)
                f.right++;
            else if (dealt(&sc, c->code))
                f.elsewhere++;
            else
                f.wrong++;
        }
        fprintf(stderr, "fan %llu: %d of %d read right where they show, %d elsewhere, %d wrong\n",
                (unsigned long long)seeds[s], f.right, sc.ncards, f.elsewhere, f.wrong);
        t.right += f.right;
        t.elsewhere += f.elsewhere;
        t.wrong += f.wrong;
        ts_scene_free(&sc);
    }
    ts_pipeline_destroy(p);
    return t;
}

/* Fanned tables of the tuning seeds (8 or more cards showing under 0.4),
 * on wood, carpet and felt. Measured: 9, 12, 9, 11 of 12 read right where
 * they show with playing.c fan_cards (7, 9, 6, 8 before; 7, 9, 6, 7 before
 * the view net), 2 more read right on a quad
 * whose middle lies on another card (a blob of the fan's paper: not an
 * index's card), none wrong; before session 23 4, 5, 3, 3 read right
 * anywhere (tests/tools/fanscore.py). */
static const uint64_t FANS[] = {111013, 111014, 115000, 113034};

static void test_fanned_cards_read_by_index(void **state)
{
    (void)state;
    fan_tally t = read_fans(FANS, sizeof FANS / sizeof *FANS);
    assert_int_equal(t.wrong, 0);
    assert_true(t.right >= 38); /* 41 measured with fan_cards (30 before; 29 with the fast net reading the views) */
}

/* A fanned card whose glyph pair the screening net doubts (0.2-0.9: its
 * neighbour's edge beside the index), or whose whole quad reads no card or
 * another card (its other corners and face lie under its neighbours), is
 * read on its index alone by the view net (playing.c fan_cards, give_view's
 * VIEW_OWN), and is a card only when that net is sure of it. Fans on wood,
 * felt, cloth and carpet where the start build of session 27 (102cd5a) read
 * 2, 6, 5 and 4 of 12 cards. */
static const uint64_t INDEX_FANS[] = {123017, 123024, 125000, 125019};

static void test_fanned_cards_read_where_index_shows(void **state)
{
    (void)state;
    fan_tally t = read_fans(INDEX_FANS, sizeof INDEX_FANS / sizeof *INDEX_FANS);
    assert_int_equal(t.wrong, 0);
    assert_true(t.elsewhere <= 1);
    assert_true(t.right >= 39); /* 42 measured (9, 12, 11, 10); the start build read 17 anywhere */
}

/* ---- Index views: the net that reads a fanned card on its index --------- */

enum { NOUT = 13 + 4 + 2, CUTS = 5 };
static const float CUT[CUTS] = {1, 0.9f, 1.1f, 0.8f, 1.2f}; /* playing.c INDEX_CUT */
#define STEADY 0.7f                                        /* playing.c INDEX_STEADY */

/* Card i's corners seen from its index (turned: the bottom-right one). */
static void index_corners(const ts_scene *sc, int i, int turned, ts_pt q[4])
{
    for (int k = 0; k < 4; k++)
        q[k] = sc->cards[i].quad[(k + 2 * turned) & 3];
}

/* Whether the index at corners q of card i shows: its glyphs' box (and
 * middle) in the frame and under no later card. */
static int index_shows(const ts_scene *sc, int i, const ts_pt q[4])
{
    static const float uv[5][2] = {{0.04f, 0.04f}, {0.18f, 0.04f}, {0.04f, 0.29f},
                                   {0.18f, 0.29f}, {0.11f, 0.16f}};
    for (int k = 0; k < 5; k++) {
        ts_pt p = ts_quad_point(q, uv[k][0], uv[k][1]);
        if (p.x < 0 || p.y < 0 || p.x >= sc->img.w || p.y >= sc->img.h)
            return 0;
        for (int j = i + 1; j < sc->ncards; j++)
            if (ts_point_in_quad(sc->cards[j].quad, p.x, p.y))
                return 0;
    }
    return 1;
}

/* How net reads the index at corners q as index_again reads a view: the
 * mean of its CUTS cuts; the card code index in *code, rank * suit * index
 * returned. */
static float read_view(tscv_net *net, const ts_image *img, const ts_pt q[4], ts_image *cut,
                       int *code)
{
    const float u[4] = {0, TS_PLAYING_CORNER_W, TS_PLAYING_CORNER_W, 0};
    const float v[4] = {0, 0, TS_PLAYING_CORNER_H, TS_PLAYING_CORNER_H};
    int pw = (int)lroundf(TS_PLAYING_CARD_W * TS_PLAYING_CORNER_W);
    int ph = (int)lroundf(TS_PLAYING_CARD_H * TS_PLAYING_CORNER_H);
    char err[TSCV_ERR_MAX];
    float probs[CUTS * NOUT], mean[NOUT] = {0};
    for (int k = 0; k < CUTS; k++) {
        ts_pt p[4];
        for (int c = 0; c < 4; c++)
            p[c] = ts_quad_point(q, u[c] * CUT[k], v[c] * CUT[k]);
        assert_int_equal(tscv_warp_quad(img, p, &cut[k], pw, ph, err), 0);
    }
    assert_int_equal(tscv_net_run(net, cut, CUTS, probs, err), 0);
    for (int k = 0; k < CUTS * NOUT; k++)
        mean[k % NOUT] += probs[k] / CUTS;
    int rank = 0, suit = 0;
    for (int k = 1; k < 13; k++)
        rank = mean[k] > mean[rank] ? k : rank;
    for (int k = 1; k < 4; k++)
        suit = mean[13 + k] > mean[13 + suit] ? k : suit;
    *code = suit * 13 + rank;
    return mean[rank] * mean[13 + suit] * mean[18];
}

/* Fanned tables (the fan layout) of the tuning seeds, never trained on (the
 * view net's fans are seeds 40000-40449, its piles 41000-41149). */
enum { VIEW_FIRST = 117000, VIEW_TABLES = 12 };

static void test_view_net_reads_fan_indices(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    tscv_net *nets[2] = {
        tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_FAST_MODEL, err, sizeof err),
        tscv_net_load(TS_SOURCE_DIR "/models/" TS_PLAYING_VIEW_MODEL, err, sizeof err)};
    assert_non_null(nets[0]);
    assert_non_null(nets[1]);
    ts_image cut[CUTS] = {0};
    int shown = 0, right[2] = {0}, wrong[2] = {0};
    for (int s = 0; s < VIEW_TABLES; s++) {
        ts_scene sc;
        assert_int_equal(render_table(TS_FAM_PLAYING, VIEW_FIRST + s, TS_LAYOUT_FAN, 1, &sc, err),
                         0);
        for (int i = 0; i < sc.ncards; i++)
            for (int turned = 0; turned < 2; turned++) {
                ts_pt q[4];
                index_corners(&sc, i, turned, q);
                if (!index_shows(&sc, i, q))
                    continue;
                shown++;
                for (int n = 0; n < 2; n++) {
                    int code;
                    if (read_view(nets[n], &sc.img, q, cut, &code) < STEADY)
                        continue;
                    right[n] += code == sc.cards[i].code.idx;
                    wrong[n] += code != sc.cards[i].code.idx;
                }
            }
        ts_scene_free(&sc);
    }
    fprintf(stderr, "fan index views: %d shown; fast net %d right, %d wrong; view net %d right, "
                    "%d wrong\n", shown, right[0], wrong[0], right[1], wrong[1]);
    for (int k = 0; k < CUTS; k++)
        ts_image_free(&cut[k]);
    tscv_net_destroy(nets[0]);
    tscv_net_destroy(nets[1]);
    assert_true(right[1] >= 110); /* 115 measured; the fast net 98 */
    assert_int_equal(wrong[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place_by_index_corner),
        cmocka_unit_test(test_fanned_cards_read_by_index),
        cmocka_unit_test(test_fanned_cards_read_where_index_shows),
        cmocka_unit_test(test_view_net_reads_fan_indices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
