/* ts_hull_candidates against OpenCV: on every outline of real photos
 * binarised at several levels, convexHull and minAreaRect of the kept
 * points give the same hull (point for point, in the same order) and the
 * same rectangle (bit for bit) as of the whole outline; on random blobs
 * too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cv/cvwrap.h"
#include "hull.h"
#include "imageio.h"

static const char *const PHOTOS[] = {
    TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_angle.jpg",
    TS_SHARED_DIR "/data/qwirkle/images/tr1_00.jpg",
    TS_SHARED_DIR "/data/domino/images/g1_01.jpg",
};

/* Every outline (outer and hole) of bin with at least 3 points: the same
 * hull and rectangle from the candidates. Returns how many were checked. */
static int check_outlines(const ts_image *bin)
{
    char err[TSCV_ERR_MAX];
    tscv_contours c;
    assert_int_equal(tscv_find_contours(bin, 0, &c, err), 0);
    int checked = 0;
    for (int i = 0; i < c.n; i++) {
        const ts_ipt *pts = c.pts + c.start[i];
        int n = c.len[i];
        if (n < 3)
            continue;
        ts_ipt *cand = malloc(sizeof *cand * (size_t)n);
        ts_ipt *h1 = malloc(sizeof *h1 * (size_t)n), *h2 = malloc(sizeof *h2 * (size_t)n);
        assert_non_null(cand);
        assert_non_null(h1);
        assert_non_null(h2);
        int k = ts_hull_candidates(pts, n, cand);
        assert_true(k > 0 && k <= n);
        int n1 = tscv_hull(pts, n, h1), n2 = tscv_hull(cand, k, h2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, sizeof *h1 * (size_t)n1);
        ts_pt r1[4], r2[4];
        tscv_min_rect(pts, n, r1);
        tscv_min_rect(cand, k, r2);
        assert_memory_equal(r1, r2, sizeof r1);
        free(cand);
        free(h1);
        free(h2);
        checked++;
    }
    tscv_contours_free(&c);
    return checked;
}

static void test_photos(void **state)
{
    (void)state;
    char err[TSCV_ERR_MAX];
    int checked = 0;
    for (size_t p = 0; p < sizeof PHOTOS / sizeof PHOTOS[0]; p++) {
        ts_image img, grey, bin;
        assert_int_equal(ts_image_load(PHOTOS[p], &img, err, sizeof err), 0);
        assert_int_equal(ts_image_alloc(&grey, img.w, img.h, 1), 0);
        assert_int_equal(ts_image_alloc(&bin, img.w, img.h, 1), 0);
        assert_int_equal(tscv_grey(&img, &grey, err), 0);
        for (int t = 40; t < 240; t += 40) {
            for (int y = 0; y < grey.h; y++) {
                const uint8_t *g = ts_image_row(&grey, y);
                uint8_t *b = ts_image_row(&bin, y);
                for (int x = 0; x < grey.w; x++)
                    b[x] = g[x] < t ? 255 : 0;
            }
            checked += check_outlines(&bin);
        }
        ts_image_free(&img);
        ts_image_free(&grey);
        ts_image_free(&bin);
    }
    assert_true(checked > 1000);
}

/* Random blobs: discs, thin diagonal strokes and single pixels, lying over
 * each other (outlines that run back over themselves). */
static void test_random_blobs(void **state)
{
    (void)state;
    srand(11);
    ts_image bin;
    assert_int_equal(ts_image_alloc(&bin, 200, 150, 1), 0);
    int checked = 0;
    for (int round = 0; round < 40; round++) {
        for (int y = 0; y < bin.h; y++)
            memset(ts_image_row(&bin, y), 0, (size_t)bin.w);
        for (int b = 0; b < 12; b++) {
            int cx = rand() % bin.w, cy = rand() % bin.h, r = rand() % 20;
            int kind = rand() % 3;
            for (int y = 0; y < bin.h; y++)
                for (int x = 0; x < bin.w; x++) {
                    int dx = x - cx, dy = y - cy, on;
                    if (kind == 0)
                        on = dx * dx + dy * dy <= r * r;
                    else if (kind == 1)
                        on = abs(dx - dy) <= 1 && abs(dx) <= r;
                    else
                        on = dx == 0 && dy == 0;
                    if (on)
                        ts_image_row(&bin, y)[x] = 255;
                }
        }
        checked += check_outlines(&bin);
    }
    ts_image_free(&bin);
    assert_true(checked > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_photos),
        cmocka_unit_test(test_random_blobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
