/* The renderer: determinism, ground truth that matches the picture, every
 * family, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"

static ts_scene_spec spec_for(ts_family fam, int n, uint64_t seed)
{
    ts_scene_spec s;
    memset(&s, 0, sizeof s);
    s.family = fam;
    s.w = 640;
    s.h = 400;
    s.seed = seed;
    s.ncards = n;
    for (int i = 0; i < n; i++) { /* distinct real cards of the family */
        int idx = fam == TS_FAM_GOF ? (i < 30 ? i : 60 + (i - 30) % 4) : i % ts_family_size(fam);
        s.cards[i].code = (ts_code){(uint8_t)fam, (uint8_t)idx};
    }
    uint64_t rng = seed;
    ts_render_layout(&s, &rng);
    return s;
}

static void test_deterministic(void **state)
{
    (void)state;
    ts_scene_spec s = spec_for(TS_FAM_SET, 12, 42);
    ts_scene a, b;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_render_scene(&s, &a, err), 0);
    assert_int_equal(ts_render_scene(&s, &b, err), 0);
    assert_int_equal(a.img.w, 640);
    assert_int_equal(a.img.h, 400);
    assert_memory_equal(a.img.buf, b.img.buf, (size_t)a.img.stride * a.img.h);
    assert_memory_equal(a.cards, b.cards, sizeof a.cards[0] * (size_t)a.ncards);
    /* Another frame of the same sequence: same cards and corners, new noise. */
    s.frame = 1;
    ts_scene_free(&b);
    assert_int_equal(ts_render_scene(&s, &b, err), 0);
    assert_memory_equal(a.cards, b.cards, sizeof a.cards[0] * (size_t)a.ncards);
    assert_memory_not_equal(a.img.buf, b.img.buf, (size_t)a.img.stride * a.img.h);
    ts_scene_free(&a);
    ts_scene_free(&b);
}

/* A card's pixels are card-coloured: inside its quad the picture is brighter
 * than the table just outside (the tables are darker than white stock or
 * patterned), and every quad lies in the frame. */
static void test_truth_matches_picture(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        ts_scene_spec s = spec_for(TS_FAM_SET, 9, seed * 7);
        ts_scene sc;
        char err[TSCV_ERR_MAX];
        assert_int_equal(ts_render_scene(&s, &sc, err), 0);
        assert_int_equal(sc.ncards, 9);
        for (int i = 0; i < sc.ncards; i++) {
            assert_int_equal(sc.cards[i].code.idx, s.cards[i].code.idx);
            assert_true(sc.cards[i].visible > 0.9f && sc.cards[i].visible <= 1.0f);
            float cx = 0, cy = 0;
            for (int k = 0; k < 4; k++) {
                assert_true(sc.cards[i].quad[k].x >= -1 && sc.cards[i].quad[k].x <= 641);
                assert_true(sc.cards[i].quad[k].y >= -1 && sc.cards[i].quad[k].y <= 401);
                cx += sc.cards[i].quad[k].x / 4;
                cy += sc.cards[i].quad[k].y / 4;
            }
            /* The card's top margin, between corner 0 and 1, is paper. */
            float mx = (sc.cards[i].quad[0].x + sc.cards[i].quad[1].x) / 2 * 0.8f + cx * 0.2f;
            float my = (sc.cards[i].quad[0].y + sc.cards[i].quad[1].y) / 2 * 0.8f + cy * 0.2f;
            const uint8_t *px = ts_image_row(&sc.img, (int)my) + 3 * (int)mx;
            int lo = px[0] < px[1] ? px[0] : px[1];
            lo = lo < px[2] ? lo : px[2];
            assert_true(lo > 90); /* white stock, whatever the light */
        }
        ts_scene_free(&sc);
    }
}

static void test_every_family(void **state)
{
    (void)state;
    const ts_family fams[] = {TS_FAM_SET, TS_FAM_PLAYING, TS_FAM_GOF, TS_FAM_QWIRKLE, TS_FAM_DOMINO};
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        int size = ts_family_size(fams[f]);
        /* Every card kind draws a face that is not blank. */
        for (int idx = 0; idx < size; idx++) {
            if (fams[f] == TS_FAM_GOF && idx >= 30 && idx < 60)
                continue;
            uint64_t rng = 5;
            ts_image face, alpha;
            char err[TSCV_ERR_MAX];
            ts_code c = {(uint8_t)fams[f], (uint8_t)idx};
            assert_int_equal(ts_render_face(c, TS_DECK_CLASSIC, 4, &rng, &face, &alpha, err), 0);
            long dark = 0;
            for (int y = 0; y < face.h; y++)
                for (int x = 0; x < face.w; x++) {
                    const uint8_t *p = ts_image_row(&face, y) + 3 * x;
                    dark += p[0] < 160 || p[1] < 160 || p[2] < 160;
                }
            assert_true(dark > 20); /* ink was printed */
            assert_int_equal(ts_image_row(&alpha, 0)[0], 0); /* rounded corner */
            assert_int_equal(ts_image_row(&alpha, face.h / 2)[face.w / 2], 255);
            ts_image_free(&face);
            ts_image_free(&alpha);
        }
        ts_scene_spec s = spec_for(fams[f], 6, 11);
        ts_scene sc;
        char err[TSCV_ERR_MAX];
        assert_int_equal(ts_render_scene(&s, &sc, err), 0);
        assert_int_equal(sc.ncards, 6);
        ts_scene_free(&sc);
    }
}

static void test_overlap_visibility(void **state)
{
    (void)state;
    ts_scene_spec s = spec_for(TS_FAM_PLAYING, 6, 3);
    s.overlap = 1;
    uint64_t rng = 3;
    ts_render_layout(&s, &rng);
    ts_scene sc;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_render_scene(&s, &sc, err), 0);
    /* In a fan every card but the last is partly covered by the next. */
    for (int i = 0; i < sc.ncards - 1; i++)
        assert_true(sc.cards[i].visible < 0.95f);
    assert_true(sc.cards[sc.ncards - 1].visible > 0.95f);
    ts_scene_free(&sc);
}

static void test_bad_input(void **state)
{
    (void)state;
    ts_scene_spec s = spec_for(TS_FAM_SET, 3, 1);
    ts_scene sc;
    char err[TSCV_ERR_MAX] = "";
    s.w = 10;
    assert_int_equal(ts_render_scene(&s, &sc, err), -1);
    assert_non_null(strstr(err, "out of range"));
    s.w = 640;
    s.ncards = TS_RENDER_MAX_CARDS + 1;
    assert_int_equal(ts_render_scene(&s, &sc, err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_truth_matches_picture),
        cmocka_unit_test(test_every_family),
        cmocka_unit_test(test_overlap_visibility),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
