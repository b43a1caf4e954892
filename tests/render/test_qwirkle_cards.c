/* The Qwirkle reader (profile cards) on renders: every one of the 36 faces,
 * upright and turned half way round; and whole tables found and read
 * through the reader's own finder (seeds 70000.., never tuned on). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cv/cvwrap.h"
#include "geom.h"
#include "reader.h"
#include "render.h"

static void test_faces_read(void **state)
{
    (void)state;
    char err[256];
    const ts_reader_class *cls = ts_reader_class_by_name("qwirkle");
    assert_non_null(cls);
    void *r = cls->create(NULL, err, sizeof err);
    assert_non_null(r);
    int right = 0, wrong = 0;
    for (int idx = 0; idx < 36; idx++) {
        ts_image face = {0}, alpha = {0}, card = {0};
        ts_code code = {TS_FAM_QWIRKLE, (uint8_t)idx};
        assert_int_equal(ts_render_face(code, TS_DECK_CLASSIC, 4.0f, 7, (uint64_t)idx, &face,
                                        &alpha, err),
                         0);
        for (int turn = 0; turn < 2; turn++) {
            float w = (float)face.w, h = (float)face.h;
            ts_pt q[4] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
            ts_pt t[4] = {q[2], q[3], q[0], q[1]};
            assert_int_equal(tscv_warp_quad(&face, turn ? t : q, &card, cls->card_w, cls->card_h, err), 0);
            ts_reading rd;
            assert_int_equal(cls->read(r, &card, &rd, err), 0);
            if (rd.is_card && rd.conf >= cls->conf_floor) {
                right += rd.code.idx == idx;
                wrong += rd.code.idx != idx;
            }
        }
        ts_image_free(&face);
        ts_image_free(&alpha);
        ts_image_free(&card);
    }
    print_message("faces: %d of 72 read right, %d wrong\n", right, wrong);
    assert_true(right >= 70);
    assert_int_equal(wrong, 0);
    cls->destroy(r);
}

static void test_tables_read(void **state)
{
    (void)state;
    char err[256];
    const ts_reader_class *cls = ts_reader_class_by_name("qwirkle");
    void *r = cls->create(NULL, err, sizeof err);
    assert_non_null(r);
    int right = 0, total = 0, wrong = 0;
    for (uint64_t seed = 70000; seed < 70006; seed++) {
        ts_scene_spec s;
        memset(&s, 0, sizeof s);
        s.family = TS_FAM_QWIRKLE;
        s.w = 1280;
        s.h = 720;
        s.seed = seed;
        ts_render_deal(&s, 12, seed % 2 ? TS_LAYOUT_GRID : TS_LAYOUT_SCATTER);
        ts_scene sc;
        assert_int_equal(ts_render_scene(&s, &sc, err), 0);
        ts_quad q[256], taken[256];
        int nq = cls->find(r, &sc.img, q, 256, err), nt = 0;
        assert_true(nq >= 0);
        int read_idx[256];
        ts_image card = {0};
        for (int i = 0; i < nq; i++) {
            int skip_it = 0;
            for (int j = 0; j < nt && !skip_it; j++)
                skip_it = ts_quad_overlap(&taken[j], &q[i]);
            if (skip_it)
                continue;
            assert_int_equal(tscv_warp_quad(&sc.img, q[i].q, &card, cls->card_w, cls->card_h, err), 0);
            ts_reading rd;
            assert_int_equal(cls->read(r, &card, &rd, err), 0);
            if (!rd.is_card)
                continue;
            read_idx[nt] = rd.conf >= cls->conf_floor ? rd.code.idx : -1;
            taken[nt++] = q[i];
        }
        for (int c = 0; c < sc.ncards; c++) {
            if (sc.cards[c].visible < 0.999f)
                continue;
            total++;
            int hit = 0;
            for (int i = 0; i < nt && !hit; i++) {
                float cx = (taken[i].q[0].x + taken[i].q[2].x) / 2;
                float cy = (taken[i].q[0].y + taken[i].q[2].y) / 2;
                if (ts_point_in_quad(sc.cards[c].quad, cx, cy) && read_idx[i] >= 0) {
                    hit = 1;
                    right += read_idx[i] == sc.cards[c].code.idx;
                    wrong += read_idx[i] != sc.cards[c].code.idx;
                }
            }
            if (!hit)
                print_message("seed %d: card %d (%d) at %.0f %.0f not read\n", (int)seed, c,
                              sc.cards[c].code.idx, (sc.cards[c].quad[0].x + sc.cards[c].quad[2].x) / 2,
                              (sc.cards[c].quad[0].y + sc.cards[c].quad[2].y) / 2);
        }
        ts_image_free(&card);
        ts_scene_free(&sc);
    }
    print_message("tables: %d of %d fully visible cards read right, %d wrong\n", right, total, wrong);
    assert_true(total >= 60);
    /* a regression guard, not the floor (that is measured over 100 tables
     * with ts-qwirkle): one dim scatter here loses four cards to the finder */
    assert_true(right * 100 >= 90 * total);
    assert_true(wrong <= 1);
    cls->destroy(r);
}

int main(void)
{
    tscv_set_threads(1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_faces_read),
                                       cmocka_unit_test(test_tables_read)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
