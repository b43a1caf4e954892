/* The pipeline takes a finder's own reading of a quad it returned
 * (reader.h's read_found) instead of warping and reading it again: each
 * card of a Gang of Four and a playing-card table must be exactly what a
 * fresh reader makes of that quad warped anew, and two readers (the live
 * daemon's) must give exactly one reader's result. Rendered tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "geom.h"
#include "pipeline.h"
#include "reader.h"
#include "render.h"

/* Whether quad q is about square (sides within 1.2 of each other): an
 * index view, never a card's shape (1.4 long); a fan's every card may be
 * one, its top card included (playing.c fan_cards). */
static int square(const ts_pt q[4])
{
    float a = ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]), b = ts_dist(q[1], q[2]) + ts_dist(q[3], q[0]);
    return fmaxf(a, b) < 1.2f * fminf(a, b);
}

/* Processes the rendered tables of family fam with game through one reader
 * and two; checks every card against a fresh warp and read. */
static void check_family(const char *game, ts_family fam, uint64_t seed0)
{
    char err[256];
    const ts_reader_class *cls = ts_reader_class_by_name(game);
    assert_non_null(cls);
    assert_non_null(cls->read_found);
    ts_pipeline_config c1 = {.game = game}, c2 = {.game = game, .readers = 2};
    ts_pipeline *one = ts_pipeline_create(&c1, err, sizeof err);
    ts_pipeline *two = ts_pipeline_create(&c2, err, sizeof err);
    void *fresh = cls->create(&(ts_reader_config){0}, err, sizeof err);
    assert_non_null(one);
    assert_non_null(two);
    assert_non_null(fresh);
    ts_image card;
    assert_int_equal(ts_image_alloc(&card, cls->card_w, cls->card_h, 3), 0);
    static const ts_layout layouts[] = {TS_LAYOUT_GRID, TS_LAYOUT_FAN, TS_LAYOUT_PILE};
    int checked = 0;
    for (int t = 0; t < 3; t++) {
        ts_scene_spec spec = {.family = fam, .w = 1280, .h = 720, .seed = seed0 + (uint64_t)t};
        ts_render_deal(&spec, 12, layouts[t]);
        ts_scene sc;
        assert_int_equal(ts_render_scene(&spec, &sc, err), 0);
        ts_frame_result a = {0}, b = {0};
        assert_int_equal(ts_pipeline_process(one, &sc.img, &a, err, sizeof err), 0);
        assert_int_equal(ts_pipeline_process(two, &sc.img, &b, err, sizeof err), 0);
        assert_true(a.ncards > 0);
        assert_int_equal(a.ncards, b.ncards);
        /* A Gang of Four card in a pile, or a playing card under others,
         * may be reported at its corner index (an index view: gof_find.h,
         * ts_playing_index_view), read from the whole card it stands for:
         * not what the view's own quad reads. */
        double areas[TS_MAX_CARDS], largest = 0;
        for (int i = 0; i < a.ncards; i++) {
            areas[i] = ts_quad_area(a.cards[i].quad);
            largest = areas[i] > largest ? areas[i] : largest;
        }
        for (int i = 0; i < a.ncards; i++) {
            const ts_card *c = &a.cards[i];
            assert_int_equal(c->code.idx, b.cards[i].code.idx);
            assert_true(c->conf == b.cards[i].conf);
            assert_memory_equal(c->quad, b.cards[i].quad, sizeof c->quad);
            if (areas[i] < 0.5 * largest || square(c->quad)) /* a view: most of a fan's cards */
                continue;
            ts_reading r;
            assert_int_equal(tscv_warp_quad(&sc.img, c->quad, &card, cls->card_w, cls->card_h,
                                            err),
                             0);
            assert_int_equal(cls->read(fresh, &card, &r, err), 0);
            assert_true(r.is_card);
            assert_int_equal(r.code.idx, c->code.idx);
            assert_true(r.conf == c->conf);
            checked++;
        }
        ts_scene_free(&sc);
    }
    assert_true(checked >= 12);
    ts_image_free(&card);
    cls->destroy(fresh);
    ts_pipeline_destroy(one);
    ts_pipeline_destroy(two);
}

static void test_gof(void **state)
{
    (void)state;
    check_family("gof", TS_FAM_GOF, 61000);
}

static void test_playing(void **state)
{
    (void)state;
    check_family("playing", TS_FAM_PLAYING, 61100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gof),
        cmocka_unit_test(test_playing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
