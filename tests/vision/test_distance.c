/* The distance transform against brute force: exact up to TS_DISTANCE_MAX,
 * TS_DISTANCE_FAR beyond, on random blobs, on views with a stride, and at
 * the borders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "distance.h"

static int brute(const ts_image *bin, int x, int y)
{
    int best = TS_DISTANCE_FAR;
    for (int v = 0; v < bin->h; v++)
        for (int u = 0; u < bin->w; u++)
            if (!ts_image_row(bin, v)[u]) {
                int d = abs(u - x) + abs(v - y);
                best = d < best ? d : best;
            }
    return best;
}

static void check(const ts_image *bin)
{
    ts_image dist;
    assert_int_equal(ts_image_alloc(&dist, bin->w, bin->h, 1), 0);
    ts_distance_l1(bin, &dist);
    for (int y = 0; y < bin->h; y++)
        for (int x = 0; x < bin->w; x++)
            assert_int_equal(ts_image_row(&dist, y)[x], brute(bin, x, y));
    ts_image_free(&dist);
}

static void test_random_blobs(void **state)
{
    (void)state;
    srand(7);
    for (int round = 0; round < 20; round++) {
        ts_image img;
        int w = 8 + rand() % 60, h = 8 + rand() % 60;
        assert_int_equal(ts_image_alloc(&img, w, h, 1), 0);
        for (int i = 0; i < w * h; i++)
            img.buf[i] = 255;
        for (int k = rand() % 6; k > 0; k--) /* a few zero specks, or none */
            img.buf[rand() % (w * h)] = 0;
        check(&img);
        ts_image_free(&img);
    }
}

static void test_view_with_stride(void **state)
{
    (void)state;
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, 50, 40, 1), 0);
    for (int i = 0; i < 50 * 40; i++)
        img.buf[i] = (i % 50 == 20 && i / 50 == 25) ? 0 : 255;
    ts_image roi = ts_image_roi(&img, 5, 5, 30, 30); /* holds the zero at (15, 20) */
    check(&roi);
    ts_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_blobs),
        cmocka_unit_test(test_view_with_stride),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
