/* ts_find_contours (through tscv_find_contours) gives cv::findContours'
 * contours exactly, point for point and in its order, for both modes
 * tscv_find_contours has (RETR_EXTERNAL; the outer boundaries of
 * RETR_CCOMP): random masks of odd sizes down to one pixel (speckle, blobs
 * with holes and islands in them, regions touching the border), masks of
 * values other than 255; binarisations of two shared photos (Otsu, an
 * adaptive threshold, the regions between Canny edges, as the detector
 * makes them); views with a stride. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contours.h"
#include "shared_photo.h"

static const char *const PHOTOS[] = {TABLE_PHOTO, BOARD_PHOTO};

/* Asserts both give the same contours of bin in mode outer_only; returns
 * their points' count. */
static long compare(const ts_image *bin, int outer_only)
{
    tscv_contours a, b;
    char err[TSCV_ERR_MAX];
    assert_int_equal(tscv_find_contours_opencv(bin, outer_only, &a, err), 0);
    assert_int_equal(ts_find_contours(bin, outer_only, &b), 0);
    assert_int_equal(a.n, b.n);
    long pts = 0;
    for (int i = 0; i < a.n; i++) {
        assert_int_equal(a.len[i], b.len[i]);
        assert_memory_equal(a.pts + a.start[i], b.pts + b.start[i], sizeof *a.pts * a.len[i]);
        pts += a.len[i];
    }
    tscv_contours_free(&a);
    tscv_contours_free(&b);
    return pts;
}

/* Speckle of the given density, with filled rectangles and rings (holes,
 * islands inside them) drawn over it, in value v. */
static void fill_random(ts_image *img, int density, uint8_t v)
{
    const int w = img->w, h = img->h;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            ts_image_row(img, y)[x] = rand() % 100 < density ? v : 0;
    for (int k = rand() % 6; k > 0; k--) {
        int x0 = rand() % w, y0 = rand() % h, x1 = x0 + rand() % w, y1 = y0 + rand() % h;
        int ring = rand() % 3, on = rand() % 4 != 0;
        for (int y = y0; y < y1 && y < h; y++)
            for (int x = x0; x < x1 && x < w; x++) {
                int edge = x - x0 < ring || y - y0 < ring || x1 - 1 - x < ring || y1 - 1 - y < ring;
                ts_image_row(img, y)[x] = (uint8_t)((ring ? edge : on) ? v : 0);
            }
    }
}

static void test_random_masks(void **state)
{
    (void)state;
    srand(53);
    long pts = 0;
    for (int round = 0; round < 400; round++) {
        ts_image img;
        int w = 1 + rand() % (round < 150 ? 9 : 120), h = 1 + rand() % (round < 150 ? 9 : 80);
        assert_int_equal(ts_image_alloc(&img, w, h, 1), 0);
        fill_random(&img, rand() % 100, (uint8_t)(round % 5 ? 255 : 1 + rand() % 255));
        pts += compare(&img, 1);
        pts += compare(&img, 0);
        ts_image_free(&img);
    }
    assert_true(pts > 100000);
}

static void test_photo_binarisations(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PHOTOS / sizeof PHOTOS[0]; i++) {
        ts_image grey = {0}, small = {0}, bin = {0};
        char err[TSCV_ERR_MAX];
        load_grey_photo(PHOTOS[i], &grey, &small);
        int w = small.w, h = small.h;
        assert_int_equal(tscv_blur(&small, &small, 1.2, err), 0);
        long pts = 0;
        for (int k = 0; k < 3; k++) {
            double t;
            if (k == 0)
                assert_int_equal(tscv_otsu(&small, &bin, &t, err), 0);
            if (k == 1)
                assert_int_equal(tscv_adaptive(&small, &bin, w / 5 | 1, 8, err), 0);
            if (k == 2) { /* the regions between strong edges */
                assert_int_equal(tscv_canny(&small, &bin, 40, 100, err), 0);
                assert_int_equal(tscv_morph(&bin, &bin, 'd', 1, err), 0);
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        ts_image_row(&bin, y)[x] = (uint8_t)~ts_image_row(&bin, y)[x];
            }
            pts += compare(&bin, 1) + compare(&bin, 0);
            ts_image view = ts_image_roi(&bin, 29, 17, w / 2, h / 2);
            pts += compare(&view, 1) + compare(&view, 0);
        }
        assert_true(pts > 10000);
        ts_image_free(&grey);
        ts_image_free(&small);
        ts_image_free(&bin);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_masks),
        cmocka_unit_test(test_photo_binarisations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
