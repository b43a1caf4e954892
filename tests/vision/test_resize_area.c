/* vision/resize_area.c against OpenCV's cv::resize (INTER_AREA), byte for
 * byte (its vector and plain paths both): random images, grey and BGR,
 * views with padded rows, every shrinking size pair in a range (growing
 * sides are left to OpenCV and said so), whole-number scales and halving,
 * and a real photo to the sizes the readers ask for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cv/cvwrap.h"
#include "image.h"
#include "imageio.h"
#include "resize_area.h"
#include "shared_data.h"

static uint32_t rng = 7;

static uint8_t rbyte(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (uint8_t)(rng >> 24);
}

/* src to w x h both ways; returns 1 if resize_area covered it. */
static int compare(const ts_image *src, int w, int h)
{
    ts_image a, b;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_image_alloc(&a, w, h, src->channels), 0);
    assert_int_equal(ts_image_alloc(&b, w, h, src->channels), 0);
    int rc = ts_resize_area(src, &a);
    assert_true(rc == 0 || rc == 1);
    if (rc == 0) {
        /* the plain path first: the same bytes as the vector path */
        assert_int_equal(ts_resize_area_v(src, &b, 0), 0);
        for (int y = 0; y < h; y++)
            assert_memory_equal(ts_image_row(&a, y), ts_image_row(&b, y),
                                (size_t)w * src->channels);
        assert_int_equal(tscv_resize_area_opencv(src, &b, err), 0);
        for (int y = 0; y < h; y++)
            if (memcmp(ts_image_row(&a, y), ts_image_row(&b, y), (size_t)w * src->channels)) {
                fprintf(stderr, "%dx%dx%d -> %dx%d differs in row %d\n", src->w, src->h,
                        src->channels, w, h, y);
                fail();
            }
    }
    ts_image_free(&a);
    ts_image_free(&b);
    return rc == 0;
}

static void test_random_sizes(void **state)
{
    (void)state;
    int covered = 0, total = 0;
    for (int cn = 1; cn <= 3; cn += 2) {
        ts_image big;
        assert_int_equal(ts_image_alloc(&big, 90, 70, cn), 0);
        for (int y = 0; y < big.h; y++)
            for (int x = 0; x < big.w * cn; x++)
                ts_image_row(&big, y)[x] = (uint8_t)(y % 9 < 4 ? rbyte() : x * 5 + y);
        /* a view whose rows are further apart than its width */
        ts_image src = ts_image_roi(&big, 3, 2, 61, 53);
        for (int h = 1; h <= src.h; h++)
            for (int w = 1; w <= src.w; w += 1 + (w > 12)) {
                covered += compare(&src, w, h);
                total++;
            }
        /* whole-number scales are covered (a view too), halving too; a
         * growing side is not */
        assert_int_equal(compare(&big, 45, 35), 1);
        assert_int_equal(compare(&big, 30, 35), 1);
        assert_int_equal(compare(&big, 90, 35), 1);
        assert_int_equal(compare(&big, 18, 14), 1);
        assert_int_equal(compare(&big, 45, 7), 1);
        ts_image even = ts_image_roi(&big, 3, 2, 60, 52);
        assert_int_equal(compare(&even, 15, 13), 1);
        assert_int_equal(compare(&even, 20, 26), 1);
        assert_int_equal(compare(&even, 30, 26), 1);
        /* halving at every width, views from an odd byte: the vector
         * path's steps and the plain tail after them */
        for (int w = 1; w <= 44; w++) {
            ts_image part = ts_image_roi(&big, 1, 1, 2 * w, 2 * (1 + w % 5));
            assert_int_equal(compare(&part, w, 1 + w % 5), 1);
        }
        assert_int_equal(compare(&src, 70, 20), 0);
        assert_int_equal(compare(&src, src.w, src.h), 0);
        ts_image_free(&big);
    }
    printf("%d of %d size pairs through resize_area, all OpenCV's bytes\n", covered, total);
    assert_true(covered > total / 2);
}

static void test_photo(void **state)
{
    (void)state;
    const char *path = TS_SHARED_DIR "/data/playing/images/guillex7_template_AC.jpg";
    ts_image img;
    char err[256];
    if (!shared_file_exists(path) || ts_image_load(path, &img, err, sizeof err) < 0)
        skip();
    const int sizes[][2] = {{32, 50}, {28, 44}, {32, 56}, {24, 40}, {40, 56},
                             {104, 162}, {427, 240}, {333, 187}, {img.w / 4, img.h / 4},
                             {img.w / 2, img.h / 2}};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        if (sizes[k][0] < img.w && sizes[k][1] < img.h)
            compare(&img, sizes[k][0], sizes[k][1]);
    ts_image_free(&img);
}

/* ts_resize_area_halves of src against OpenCV's two shrinks. */
static void compare_halves(const ts_image *src)
{
    ts_image half, quarter, ref;
    char err[TSCV_ERR_MAX];
    const int cn = src->channels, w = src->w / 2, h = src->h / 2;
    assert_int_equal(ts_image_alloc(&half, w, h, cn), 0);
    assert_int_equal(ts_image_alloc(&quarter, w / 2, h / 2, cn), 0);
    assert_int_equal(ts_resize_area_halves(src, &half, &quarter), 0);
    const ts_image *mine[2] = {&half, &quarter};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(ts_image_alloc(&ref, mine[k]->w, mine[k]->h, cn), 0);
        assert_int_equal(tscv_resize_area_opencv(src, &ref, err), 0);
        for (int y = 0; y < ref.h; y++)
            assert_memory_equal(ts_image_row(mine[k], y), ts_image_row(&ref, y), (size_t)ref.w * cn);
        ts_image_free(&ref);
    }
    ts_image_free(&half);
    ts_image_free(&quarter);
}

/* The half and the quarter in one pass: OpenCV's bytes at every width (the
 * vector steps and the plain tail), on views, noise and flat grey levels
 * (sums on a half), grey and BGR; sizes that are not halves are refused. */
static void test_halves(void **state)
{
    (void)state;
    for (int cn = 1; cn <= 3; cn += 2) {
        ts_image big;
        assert_int_equal(ts_image_alloc(&big, 170, 26, cn), 0);
        for (int y = 0; y < big.h; y++)
            for (int x = 0; x < big.w * cn; x++)
                ts_image_row(&big, y)[x] = (uint8_t)(y < 13 ? rbyte() : (x / 7) % 2 ? 8 * y : 255 - y);
        for (int qw = 1; qw <= 41; qw++) {
            ts_image part = ts_image_roi(&big, 1, 1, 4 * qw, 4 * (1 + qw % 6));
            compare_halves(&part);
        }
        ts_image half, quarter;
        assert_int_equal(ts_image_alloc(&half, 40, 12, cn), 0);
        assert_int_equal(ts_image_alloc(&quarter, 20, 6, cn), 0);
        ts_image odd = ts_image_roi(&big, 0, 0, 80, 25);
        assert_int_equal(ts_resize_area_halves(&odd, &half, &quarter), 1);
        ts_image wide = ts_image_roi(&big, 0, 0, 80, 24);
        ts_image q2 = ts_image_roi(&quarter, 0, 0, 19, 6);
        assert_int_equal(ts_resize_area_halves(&wide, &half, &q2), 1);
        assert_int_equal(ts_resize_area_halves(&wide, &half, &quarter), 0);
        ts_image_free(&half);
        ts_image_free(&quarter);
        ts_image_free(&big);
    }
    const char *path = TS_SHARED_DIR "/data/playing/images/guillex7_template_AC.jpg";
    ts_image img;
    char err[256];
    if (!shared_file_exists(path) || ts_image_load(path, &img, err, sizeof err) < 0)
        skip();
    ts_image whole = ts_image_roi(&img, 0, 0, img.w / 4 * 4, img.h / 4 * 4);
    compare_halves(&whole);
    ts_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_sizes),
        cmocka_unit_test(test_photo),
        cmocka_unit_test(test_halves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
