/* ts_morph_ellipse (through tscv_morph) gives cv::morphologyEx's bytes exactly
 * for the ellipses of radius 1, 2 and TS_MORPH_WIDE to TS_MORPH_MAX_RADIUS
 * (tscv_morph asks OpenCV for 3 and 4): erode, dilate, open, close, on
 * binary masks and grey images of a real board photo, odd sizes down to one
 * pixel, views with a stride, and in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cv/cvwrap.h"
#include "imageio.h"
#include "morph.h"

#define PHOTO TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_angle.jpg"

static const char OPS[] = {'e', 'd', 'o', 'c'};
/* The radii tried on every image: the two smallest, the ones the readers
 * use from TS_MORPH_WIDE (5, 7), and the largest. */
static const int RADII[] = {1, 2, TS_MORPH_WIDE, 6, 7, 8, 11, TS_MORPH_MAX_RADIUS};
enum { NRADII = sizeof RADII / sizeof RADII[0] };

/* Bytes that differ between OpenCV's result and ours, out of place and in place. */
static long compare(const ts_image *src, char op, int r)
{
    ts_image a, b, c;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_image_alloc(&a, src->w, src->h, 1), 0);
    assert_int_equal(ts_image_alloc(&b, src->w, src->h, 1), 0);
    assert_int_equal(ts_image_alloc(&c, src->w, src->h, 1), 0);
    assert_int_equal(tscv_morph_opencv(src, &a, op, r, err), 0);
    assert_int_equal(ts_morph_ellipse(src, &b, op, r), 0);
    for (int y = 0; y < src->h; y++)
        memcpy(ts_image_row(&c, y), ts_image_row(src, y), (size_t)src->w);
    assert_int_equal(tscv_morph(&c, &c, op, r, err), 0);
    long diff = 0;
    for (int y = 0; y < src->h; y++)
        for (int x = 0; x < src->w; x++)
            diff += (ts_image_row(&a, y)[x] != ts_image_row(&b, y)[x]) +
                    (ts_image_row(&a, y)[x] != ts_image_row(&c, y)[x]);
    ts_image_free(&a);
    ts_image_free(&b);
    ts_image_free(&c);
    return diff;
}

static void test_random_masks(void **state)
{
    (void)state;
    srand(31);
    for (int round = 0; round < 60; round++) {
        ts_image img;
        int w = 1 + rand() % (round < 20 ? 20 : 200), h = 1 + rand() % 60;
        assert_int_equal(ts_image_alloc(&img, w, h, 1), 0);
        int density = rand() % 100;
        for (int i = 0; i < w * h; i++)
            img.buf[i] = rand() % 100 < density ? 255 : 0;
        for (int r = 0; r < NRADII; r++)
            for (int i = 0; i < 4; i++)
                assert_int_equal(compare(&img, OPS[i], RADII[r]), 0);
        ts_image_free(&img);
    }
}

static void test_photo_grey_and_views(void **state)
{
    (void)state;
    ts_image img, grey = {0};
    char err[256];
    if (ts_image_load(PHOTO, &img, err, sizeof err) < 0) {
        fprintf(stderr, "shared photo not found: %s\n", err);
        skip();
    }
    assert_int_equal(tscv_grey(&img, &grey, err), 0);
    for (int r = 0; r < NRADII; r++)
        for (int i = 0; i < 4; i++)
            assert_int_equal(compare(&grey, OPS[i], RADII[r]), 0);
    srand(32);
    for (int round = 0; round < 40; round++) {
        int w = 1 + rand() % 300, h = 1 + rand() % 200;
        ts_image view = ts_image_roi(&grey, rand() % (grey.w - w), rand() % (grey.h - h), w, h);
        assert_int_equal(compare(&view, OPS[round % 4], RADII[round % NRADII]), 0);
    }
    ts_image_free(&img);
    ts_image_free(&grey);
}

static void test_what_it_leaves_to_opencv(void **state)
{
    (void)state;
    ts_image g, c;
    assert_int_equal(ts_image_alloc(&g, 20, 20, 1), 0);
    assert_int_equal(ts_image_alloc(&c, 20, 20, 3), 0);
    assert_int_equal(ts_morph_ellipse(&g, &g, 'c', TS_MORPH_MAX_RADIUS + 1), -1);
    assert_int_equal(ts_morph_ellipse(&g, &g, 'c', 0), -1);
    for (int r = 3; r < TS_MORPH_WIDE; r++)
        assert_int_equal(ts_morph_ellipse(&g, &g, 'o', r), -1);
    assert_int_equal(ts_morph_ellipse(&c, &c, 'c', 2), -1);
    assert_int_equal(ts_morph_ellipse(&g, &g, 'x', 1), -1);
    ts_image_free(&g);
    ts_image_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_masks),
        cmocka_unit_test(test_photo_grey_and_views),
        cmocka_unit_test(test_what_it_leaves_to_opencv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
