/* tscv_adaptive (the box mean by running sums, adaptive.h, or OpenCV's
 * beyond its windows, then a vector comparison) gives cv::adaptiveThreshold's
 * bytes exactly: on a real board photo in grey, for windows small and larger
 * than a card, offsets above and below zero and fractional, odd widths and
 * views with a stride, and in place; and on noise and flat extremes (sums
 * nearest a half-way mean) of every size from a pixel up, windows wider
 * than the image included; its plain and vector (AVX2) steps alike. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adaptive.h"
#include "cv/cvwrap.h"
#include "imageio.h"

#define PHOTO TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_angle.jpg"

/* Bytes that differ between the two thresholdings of src. */
static long compare(const ts_image *src, int block, double offset)
{
    ts_image a, b;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_image_alloc(&a, src->w, src->h, 1), 0);
    assert_int_equal(ts_image_alloc(&b, src->w, src->h, 1), 0);
    assert_int_equal(tscv_adaptive_opencv(src, &a, block, offset, err), 0);
    assert_int_equal(tscv_adaptive(src, &b, block, offset, err), 0);
    long diff = 0;
    for (int y = 0; y < src->h; y++)
        for (int x = 0; x < src->w; x++)
            diff += ts_image_row(&a, y)[x] != ts_image_row(&b, y)[x];
    /* the plain (SSE2) steps give the vector (AVX2) steps' bytes */
    const int odd = block < 3 ? 3 : block | 1, t = -(int)ceil(-offset);
    if (ts_adaptive_mean_v(src, &a, odd, t, 0) == 0)
        for (int y = 0; y < src->h; y++)
            assert_memory_equal(ts_image_row(&a, y), ts_image_row(&b, y), (size_t)src->w);
    ts_image_free(&a);
    ts_image_free(&b);
    return diff;
}

static int load_grey(ts_image *grey)
{
    ts_image img;
    char err[256];
    if (ts_image_load(PHOTO, &img, err, sizeof err) < 0) {
        fprintf(stderr, "shared photo not found: %s\n", err);
        return -1;
    }
    assert_int_equal(tscv_grey(&img, grey, err), 0);
    ts_image_free(&img);
    return 0;
}

static void test_windows_and_offsets(void **state)
{
    (void)state;
    ts_image grey = {0};
    if (load_grey(&grey) < 0)
        skip();
    const int blocks[] = {1, 3, 4, 15, 31, 101, 255};
    const double offsets[] = {8, -8, 0, 12, 22, -4.5, 3.2, 300, -300};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        for (size_t j = 0; j < sizeof offsets / sizeof offsets[0]; j++)
            assert_int_equal(compare(&grey, blocks[i], offsets[j]), 0);
    ts_image_free(&grey);
}

static void test_views_and_in_place(void **state)
{
    (void)state;
    ts_image grey = {0};
    char err[TSCV_ERR_MAX];
    if (load_grey(&grey) < 0)
        skip();
    srand(21);
    for (int round = 0; round < 30; round++) {
        int w = 1 + rand() % 300, h = 1 + rand() % 200;
        ts_image view = ts_image_roi(&grey, rand() % (grey.w - w), rand() % (grey.h - h), w, h);
        assert_int_equal(compare(&view, 3 + rand() % 80, (rand() % 41) - 20), 0);
    }
    /* in place: the result over its own source */
    ts_image a, b;
    assert_int_equal(ts_image_alloc(&a, grey.w, grey.h, 1), 0);
    assert_int_equal(ts_image_alloc(&b, grey.w, grey.h, 1), 0);
    memcpy(b.buf, grey.buf, (size_t)grey.stride * (size_t)grey.h);
    assert_int_equal(tscv_adaptive_opencv(&grey, &a, 61, 8, err), 0);
    assert_int_equal(tscv_adaptive(&b, &b, 61, 8, err), 0);
    assert_memory_equal(a.buf, b.buf, (size_t)a.stride * (size_t)a.h);
    ts_image_free(&a);
    ts_image_free(&b);
    ts_image_free(&grey);
}

/* An image of w x h: noise, or (kind 1) bytes 0 and 255 only, or (kind 2)
 * two levels one apart, whose window means lie nearest a rounding step. */
static void fill(ts_image *img, int w, int h, int kind)
{
    assert_int_equal(ts_image_alloc(img, w, h, 1), 0);
    int lo = rand() % 255;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = rand();
            ts_image_row(img, y)[x] = (uint8_t)(kind == 0   ? v & 255
                                                : kind == 1 ? (v & 1) * 255
                                                            : lo + (v & 1));
        }
}

static void test_noise_every_size(void **state)
{
    (void)state;
    srand(2020);
    const int blocks[] = {3, 5, 15, 17, 31, 61, 121, 127, 129, 161, 163, 165};
    for (int round = 0; round < 300; round++) {
        int w = 1 + (round < 40 ? round : rand() % 400), h = 1 + rand() % (round < 40 ? 40 : 150);
        ts_image img;
        fill(&img, w, h, round % 3);
        int block = blocks[rand() % (int)(sizeof blocks / sizeof blocks[0])];
        assert_int_equal(compare(&img, block, (rand() % 21) - 10), 0);
        assert_int_equal(compare(&img, block, 0), 0);
        ts_image_free(&img);
    }
}

/* The float product of a sum and the scale rounds to the true nearest mean
 * for every window adaptive.h covers: checked at the sums nearest each
 * half (k + 0.5 +- 0.5 / area), the only ones the float's error (under
 * 255 * 2^-23) could carry across it. */
static void test_float_mean_rounds_true(void **state)
{
    (void)state;
    for (long b = 3; b <= TS_ADAPTIVE_MAX_BLOCK; b += 2) {
        long area = b * b;
        float inv = (float)(1.0 / (double)area);
        for (long k = 0; k < 255; k++)
            for (int side = -1; side <= 1; side += 2) {
                long s = ((2 * k + 1) * area + side) / 2;
                assert_int_equal(ts_adaptive_round((float)s, inv), side < 0 ? k : k + 1);
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows_and_offsets),
        cmocka_unit_test(test_views_and_in_place),
        cmocka_unit_test(test_noise_every_size),
        cmocka_unit_test(test_float_mean_rounds_true),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
