/* The Qwirkle reader (profile cards) on rendered card faces: every one of the
 * 36 kinds, upright and turned half way round. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "cv/cvwrap.h"
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

int main(void)
{
    tscv_set_threads(1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_faces_read)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
