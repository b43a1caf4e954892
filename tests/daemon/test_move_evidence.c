/* The referee's evidence from the frames (daemon/move_evidence.h) on a real
 * board photo: a card under a shadow, or with the camera nudged, still lies in
 * its place; a card taken away (its place covered with bare table from
 * elsewhere in the photo) does not. Skips when ../shared is absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "imageio.h"
#include "move_evidence.h"
#include "pipeline.h"

#define BOARD TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_test1.jpg"

static void copy(ts_image *dst, const ts_image *src)
{
    assert_int_equal(ts_image_alloc(dst, src->w, src->h, 3), 0);
    for (int y = 0; y < src->h; y++)
        memcpy(ts_image_row(dst, y), ts_image_row(src, y), (size_t)src->w * 3);
}

/* The card's bounding box, grown by `grow` pixels. */
static void box(const ts_card *c, int grow, int *x0, int *y0, int *x1, int *y1)
{
    float a = 1e9f, b = 1e9f, e = -1e9f, f = -1e9f;
    for (int k = 0; k < 4; k++) {
        a = c->quad[k].x < a ? c->quad[k].x : a;
        b = c->quad[k].y < b ? c->quad[k].y : b;
        e = c->quad[k].x > e ? c->quad[k].x : e;
        f = c->quad[k].y > f ? c->quad[k].y : f;
    }
    *x0 = (int)a - grow, *y0 = (int)b - grow, *x1 = (int)e + grow, *y1 = (int)f + grow;
}

static void test_card_still_there(void **state)
{
    (void)state;
    if (access(BOARD, R_OK) != 0)
        skip();
    char err[256];
    ts_image photo, shadow, nudged, taken;
    assert_int_equal(ts_image_load(BOARD, &photo, err, sizeof err), 0);
    ts_pipeline_config cfg = {.game = "set"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    assert_non_null(p);
    ts_frame_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(ts_pipeline_process(p, &photo, &r, err, sizeof err), 0);
    ts_pipeline_destroy(p);
    assert_true(r.ncards >= 10);

    copy(&shadow, &photo);
    copy(&nudged, &photo);
    copy(&taken, &photo);
    /* the nudge: the whole view moved 14 px right and 9 px down */
    for (int y = photo.h - 1; y >= 9; y--)
        memcpy(ts_image_row(&nudged, y) + 14 * 3, ts_image_row(&photo, y - 9),
               (size_t)(photo.w - 14) * 3);
    int checked = 0;
    for (int i = 0; i < r.ncards; i++) {
        const ts_card *c = &r.cards[i];
        int x0, y0, x1, y1;
        box(c, 12, &x0, &y0, &x1, &y1);
        if (x0 < 0 || y0 < 0 || x1 >= photo.w || y1 >= photo.h || y1 - y0 >= y0)
            continue; /* a card at an edge, or no table above it to cover it with */
        /* a hand's shadow: a soft edge across the card, 30% of the light at
         * one corner, all of it at the other */
        for (int y = y0; y <= y1; y++) {
            uint8_t *row = ts_image_row(&shadow, y);
            for (int x = x0; x <= x1; x++) {
                int k = 30 + 70 * ((x - x0) + (y - y0)) / ((x1 - x0) + (y1 - y0));
                for (int ch = 0; ch < 3; ch++)
                    row[x * 3 + ch] = (uint8_t)(row[x * 3 + ch] * k / 100);
            }
        }
        /* taken: bare table from straight above the photo's cards */
        for (int y = y0; y <= y1; y++)
            memcpy(ts_image_row(&taken, y) + x0 * 3, ts_image_row(&photo, y - y0) + x0 * 3,
                   (size_t)(x1 - x0 + 1) * 3);
        float s_shadow = ts_quad_similarity(&photo, &shadow, c->quad);
        float s_nudged = ts_quad_similarity(&photo, &nudged, c->quad);
        float s_taken = ts_quad_similarity(&photo, &taken, c->quad);
        print_message("%s: shadow %.2f nudged %.2f taken %.2f\n", c->text, s_shadow, s_nudged,
                      s_taken);
        if (s_shadow == -2) /* a flat patch: no print to compare */
            continue;
        assert_true(s_shadow > TS_STILL_THERE);
        assert_true(s_nudged > TS_STILL_THERE);
        assert_true(s_taken < TS_STILL_THERE);
        checked++;
    }
    assert_true(checked >= 3);
    ts_image_free(&photo);
    ts_image_free(&shadow);
    ts_image_free(&nudged);
    ts_image_free(&taken);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_card_still_there)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
