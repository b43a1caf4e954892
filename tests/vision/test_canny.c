/* ts_canny (through tscv_canny) gives cv::Canny's bytes exactly (L2
 * gradient, 3 x 3 Sobel), with and without its AVX2 thinning: random
 * noise and smoothed noise of odd sizes down to one pixel, thresholds in
 * either order, zero and past 32767; grey
 * photos of a playing-card table and a SET board, blurred as the detector
 * blurs, at the detector's and the blob finder's thresholds; views with a
 * stride; and in place (left to OpenCV). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canny.h"
#include "shared_photo.h"

static const char *const PHOTOS[] = {TABLE_PHOTO, BOARD_PHOTO};
/* the detector's pair, the blob finder's two, and edge cases */
static const double PAIRS[][2] = {{40, 100}, {25, 70}, {10, 30}, {100, 40},
                                  {0, 0},    {-5, 3},  {1, 1},   {20000, 40000}};
enum { NPAIRS = sizeof PAIRS / sizeof PAIRS[0] };

/* Bytes that differ between cv::Canny's edges of src and ours, and the
 * edge pixels OpenCV found (so that a test shows it compared edges). */
static long compare(const ts_image *src, double lo, double hi, long *edges)
{
    ts_image a, b, c;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_image_alloc(&a, src->w, src->h, 1), 0);
    assert_int_equal(ts_image_alloc(&b, src->w, src->h, 1), 0);
    assert_int_equal(ts_image_alloc(&c, src->w, src->h, 1), 0);
    assert_int_equal(tscv_canny_opencv(src, &a, lo, hi, err), 0);
    assert_int_equal(ts_canny_v(src, &b, lo, hi, 1), 0);
    assert_int_equal(ts_canny_v(src, &c, lo, hi, 0), 0); /* without AVX2 */
    long diff = 0;
    for (int y = 0; y < src->h; y++)
        for (int x = 0; x < src->w; x++) {
            diff += (ts_image_row(&a, y)[x] != ts_image_row(&b, y)[x]) +
                    (ts_image_row(&a, y)[x] != ts_image_row(&c, y)[x]);
            *edges += ts_image_row(&a, y)[x] != 0;
        }
    ts_image_free(&a);
    ts_image_free(&b);
    ts_image_free(&c);
    return diff;
}

/* Noise, smoothed over a box of radius r (r 0: raw), with bright and dark
 * rectangles (card-like steps) on it. */
static void fill_random(ts_image *img, int r)
{
    int w = img->w, h = img->h;
    uint8_t *raw = malloc((size_t)w * h);
    assert_non_null(raw);
    for (int i = 0; i < w * h; i++)
        raw[i] = (uint8_t)(rand() % 256);
    for (int k = rand() % 4; k > 0; k--) {
        int x0 = rand() % w, y0 = rand() % h, x1 = x0 + rand() % w, y1 = y0 + rand() % h;
        uint8_t v = (uint8_t)(rand() % 2 ? 230 : 30);
        for (int y = y0; y < y1 && y < h; y++)
            for (int x = x0; x < x1 && x < w; x++)
                raw[y * w + x] = v;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int sum = 0, n = 0;
            for (int v = y - r; v <= y + r; v++)
                for (int u = x - r; u <= x + r; u++)
                    if (u >= 0 && v >= 0 && u < w && v < h)
                        sum += raw[v * w + u], n++;
            ts_image_row(img, y)[x] = (uint8_t)(sum / n);
        }
    free(raw);
}

static void test_random_images(void **state)
{
    (void)state;
    srand(47);
    long edges = 0;
    for (int round = 0; round < 120; round++) {
        ts_image img;
        int w = 1 + rand() % (round < 40 ? 12 : 160), h = 1 + rand() % (round < 40 ? 12 : 90);
        assert_int_equal(ts_image_alloc(&img, w, h, 1), 0);
        fill_random(&img, rand() % 4);
        for (int p = 0; p < NPAIRS; p++)
            assert_int_equal(compare(&img, PAIRS[p][0], PAIRS[p][1], &edges), 0);
        ts_image_free(&img);
    }
    assert_true(edges > 10000);
}

static void test_photos_and_views(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PHOTOS / sizeof PHOTOS[0]; i++) {
        ts_image grey = {0}, small = {0}, blurred = {0};
        char err[TSCV_ERR_MAX];
        load_grey_photo(PHOTOS[i], &grey, &small);
        int w = small.w, h = small.h;
        assert_int_equal(tscv_blur(&small, &blurred, 1.2, err), 0);
        const ts_image *srcs[] = {&grey, &small, &blurred};
        long edges = 0;
        for (int s = 0; s < 3; s++)
            for (int p = 0; p < 4; p++)
                assert_int_equal(compare(srcs[s], PAIRS[p][0], PAIRS[p][1], &edges), 0);
        assert_true(edges > 1000);
        /* views: a stride wider than the row, odd corners */
        ts_image view = ts_image_roi(&small, 37, 11, w - 80, h - 30);
        assert_int_equal(compare(&view, 40, 100, &edges), 0);
        /* in place: OpenCV's, as before */
        ts_image a = {0}, c = {0};
        assert_int_equal(tscv_canny_opencv(&blurred, &a, 40, 100, err), 0);
        assert_int_equal(tscv_grey(&blurred, &c, err), 0);
        assert_int_equal(tscv_canny(&c, &c, 40, 100, err), 0);
        assert_memory_equal(a.buf, c.buf, (size_t)w * h);
        ts_image_free(&a);
        ts_image_free(&c);
        ts_image_free(&grey);
        ts_image_free(&small);
        ts_image_free(&blurred);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_images),
        cmocka_unit_test(test_photos_and_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
