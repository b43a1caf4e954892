/* ts_gauss_blur (through tscv_blur) gives cv::GaussianBlur's bytes exactly
 * on grey images, for the sigmas the readers blur with (0.8, 1.0, 1.2, 2.0)
 * and others: random noise and steps of odd sizes down to the kernel's,
 * a shared photo, views with a stride, and in place; an image smaller
 * than the kernel and a colour image are left to OpenCV (the same bytes
 * through tscv_blur). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "blur.h"
#include "shared_photo.h"

static const double SIGMAS[] = {0.8, 1.0, 1.2, 2.0, 0.5, 1.5, 3.0};
enum { NSIGMAS = sizeof SIGMAS / sizeof SIGMAS[0] };

/* Bytes that differ between OpenCV's blur of src and tscv_blur's, out of
 * place and in place; *own counts the cases ts_gauss_blur took itself. */
static long compare(const ts_image *src, double sigma, int *own)
{
    ts_image a = {0}, b = {0}, c = {0};
    char err[TSCV_ERR_MAX];
    assert_int_equal(tscv_blur_opencv(src, &a, sigma, err), 0);
    assert_int_equal(ts_image_alloc(&b, src->w, src->h, src->channels), 0);
    int rc = ts_gauss_blur(src, &b, sigma);
    assert_true(rc == 0 || rc == 1);
    *own += rc == 0;
    assert_int_equal(tscv_blur(src, &b, sigma, err), 0);
    assert_int_equal(ts_image_alloc(&c, src->w, src->h, src->channels), 0);
    const size_t row = (size_t)src->w * src->channels;
    for (int y = 0; y < src->h; y++)
        memcpy(ts_image_row(&c, y), ts_image_row(src, y), row);
    assert_int_equal(tscv_blur(&c, &c, sigma, err), 0);
    long diff = 0;
    for (int y = 0; y < src->h; y++)
        for (size_t x = 0; x < row; x++)
            diff += (ts_image_row(&a, y)[x] != ts_image_row(&b, y)[x]) +
                    (ts_image_row(&a, y)[x] != ts_image_row(&c, y)[x]);
    ts_image_free(&a);
    ts_image_free(&b);
    ts_image_free(&c);
    return diff;
}

static void test_random_images(void **state)
{
    (void)state;
    srand(61);
    int own = 0;
    for (int round = 0; round < 150; round++) {
        ts_image img;
        int w = 1 + rand() % (round < 50 ? 24 : 200), h = 1 + rand() % (round < 50 ? 24 : 120);
        int ch = round % 10 == 9 ? 3 : 1;
        assert_int_equal(ts_image_alloc(&img, w, h, ch), 0);
        int steps = rand() % 2;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w * ch; x++)
                ts_image_row(&img, y)[x] =
                    (uint8_t)(steps ? ((x / 7 + y / 5) % 2 ? 250 : 10) : rand() % 256);
        for (int s = 0; s < NSIGMAS; s++)
            assert_int_equal(compare(&img, SIGMAS[s], &own), 0);
        ts_image_free(&img);
    }
    assert_true(own > 300);
}

static void test_photo_and_views(void **state)
{
    (void)state;
    ts_image grey = {0};
    load_grey_photo(TABLE_PHOTO, &grey, NULL);
    int own = 0;
    for (int s = 0; s < 4; s++) {
        assert_int_equal(compare(&grey, SIGMAS[s], &own), 0);
        ts_image view = ts_image_roi(&grey, 41, 13, grey.w / 3, grey.h / 4);
        assert_int_equal(compare(&view, SIGMAS[s], &own), 0);
    }
    assert_int_equal(own, 8);
    ts_image_free(&grey);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_images),
        cmocka_unit_test(test_photo_and_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
