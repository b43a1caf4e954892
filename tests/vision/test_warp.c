/* ts_warp_affine_linear and ts_warp_perspective_linear give OpenCV's
 * warpAffine and warpPerspective bytes exactly: on a real board photo, for
 * card-sized maps that enlarge, shrink, turn, shear and tilt, for maps
 * reaching past every edge of the frame (the border repeated), and on a view
 * with a stride; with the AVX2 blend and without. */
#include <math.h>
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
#include "warp.h"

#define PHOTO TS_SHARED_DIR "/data/set/boards/pclewis_set-solver_resources_angle.jpg"

/* A 160 x 250 card's map: centre (cx, cy), turned by a, scaled by s (frame
 * pixels per card pixel), sheared by k. */
static void card_map(double cx, double cy, double a, double s, double k, double m[6])
{
    const double c = cos(a) * s, n = sin(a) * s;
    m[0] = c;
    m[1] = -n + k * c;
    m[3] = n;
    m[4] = c + k * n;
    m[2] = cx - m[0] * 80 - m[1] * 125;
    m[5] = cy - m[3] * 80 - m[4] * 125;
}

/* The card map m with a tilt: W = t0 x + t1 y + 1 over the card. */
static void tilt(const double m[6], double t0, double t1, double p[9])
{
    for (int i = 0; i < 6; i++)
        p[i] = m[i];
    p[6] = t0;
    p[7] = t1;
    p[8] = 1;
    for (int i = 0; i < 6; i++) /* keep the card's centre where it was */
        p[i] *= 1 + t0 * 80 + t1 * 125;
}

/* Returns how many bytes differ between OpenCV's warp of src by m (6
 * numbers: affine; 9: perspective) and ours, with the AVX2 blend allowed
 * (used where the processor has it) and without. */
static long compare_n(const ts_image *src, const double *m, int nm, int w, int h)
{
    ts_image a, b;
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_image_alloc(&a, w, h, 3), 0);
    assert_int_equal(ts_image_alloc(&b, w, h, 3), 0);
    if (nm == 6)
        assert_int_equal(tscv_warp_affine(src, m, &a, err), 0);
    else
        assert_int_equal(tscv_warp_perspective(src, m, &a, err), 0);
    long diff = 0;
    for (int vector = 0; vector < 2; vector++) {
        memset(b.buf, 0x5a, (size_t)b.stride * (size_t)h);
        if (nm == 6)
            assert_int_equal(ts_warp_affine_linear_v(src, m, &b, vector), 0);
        else
            assert_int_equal(ts_warp_perspective_linear_v(src, m, &b, vector), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < 3 * w; x++)
                diff += ts_image_row(&a, y)[x] != ts_image_row(&b, y)[x];
    }
    ts_image_free(&a);
    ts_image_free(&b);
    return diff;
}

static long compare(const ts_image *src, const double m[6], int w, int h)
{
    return compare_n(src, m, 6, w, h);
}

static int load_photo(ts_image *img)
{
    char err[256];
    if (ts_image_load(PHOTO, img, err, sizeof err) < 0) {
        fprintf(stderr, "shared photo not found: %s\n", err);
        return -1;
    }
    return 0;
}

static void test_card_maps(void **state)
{
    (void)state;
    ts_image img;
    if (load_photo(&img) < 0)
        skip();
    srand(11);
    for (int round = 0; round < 200; round++) {
        double m[6];
        double cx = 100 + rand() % (img.w - 200), cy = 100 + rand() % (img.h - 200);
        double a = (rand() % 6283) / 1000.0, s = 0.3 + (rand() % 2000) / 1000.0;
        double k = ((rand() % 200) - 100) / 1000.0;
        card_map(cx, cy, a, s, k, m);
        assert_int_equal(compare(&img, m, 160, 250), 0);
    }
    ts_image_free(&img);
}

/* The nearest-pixel warp against OpenCV's: card maps that shrink (as the
 * cards tscv_warp_quad shrinks 1.3-2.2 times), enlarge and reach past the
 * edges, BGR and grey, odd sizes. */
static void test_nearest(void **state)
{
    (void)state;
    ts_image img, grey;
    if (load_photo(&img) < 0)
        skip();
    assert_int_equal(ts_image_alloc(&grey, img.w, img.h, 1), 0);
    for (int y = 0; y < img.h; y++)
        for (int x = 0; x < img.w; x++)
            ts_image_row(&grey, y)[x] = ts_image_row(&img, y)[3 * x + 1];
    srand(17);
    char err[TSCV_ERR_MAX];
    for (int round = 0; round < 300; round++) {
        double m[6];
        double cx = rand() % img.w, cy = rand() % img.h; /* some reach past an edge */
        card_map(cx, cy, (rand() % 6283) / 1000.0, 0.3 + (rand() % 2500) / 1000.0,
                 ((rand() % 200) - 100) / 1000.0, m);
        const ts_image *src = round % 3 ? &img : &grey;
        int w = round % 4 ? 160 : 1 + rand() % 300, h = round % 4 ? 250 : 1 + rand() % 300;
        ts_image a, b;
        assert_int_equal(ts_image_alloc(&a, w, h, src->channels), 0);
        assert_int_equal(ts_image_alloc(&b, w, h, src->channels), 0);
        assert_int_equal(tscv_warp_affine_nearest(src, m, &a, err), 0);
        assert_int_equal(ts_warp_affine_nearest(src, m, &b), 0);
        for (int y = 0; y < h; y++)
            assert_memory_equal(ts_image_row(&a, y), ts_image_row(&b, y),
                                (size_t)w * (size_t)src->channels);
        ts_image_free(&a);
        ts_image_free(&b);
    }
    ts_image_free(&grey);
    ts_image_free(&img);
}

static void test_tilted_card_maps(void **state)
{
    (void)state;
    ts_image img;
    if (load_photo(&img) < 0)
        skip();
    srand(14);
    for (int round = 0; round < 200; round++) {
        double m[6], p[9];
        double cx = 100 + rand() % (img.w - 200), cy = 100 + rand() % (img.h - 200);
        card_map(cx, cy, (rand() % 6283) / 1000.0, 0.3 + (rand() % 2000) / 1000.0, 0, m);
        tilt(m, ((rand() % 200) - 100) / 1e5, ((rand() % 200) - 100) / 1e5, p);
        /* odd sizes too: OpenCV maps in blocks of columns */
        int w = round % 4 ? 160 : 1 + rand() % 300, h = round % 4 ? 250 : 1 + rand() % 300;
        assert_int_equal(compare_n(&img, p, 9, w, h), 0);
    }
    /* past the edges, and a map whose W reaches 0 */
    double m[6], p[9];
    card_map(-40, img.h + 30, 0.7, 1.2, 0, m);
    tilt(m, 0.0008, -0.0009, p);
    assert_int_equal(compare_n(&img, p, 9, 160, 250), 0);
    card_map(img.w / 2.0, img.h / 2.0, 0.2, 1.0, 0, m);
    tilt(m, -1.0 / 80, 0, p);
    assert_int_equal(compare_n(&img, p, 9, 160, 250), 0);
    ts_image_free(&img);
}

static void test_past_the_edges(void **state)
{
    (void)state;
    ts_image img;
    if (load_photo(&img) < 0)
        skip();
    srand(12);
    const double xs[] = {-60, 0, 1, 0.5, -0.3}, ys[] = {-80, 0, 1, 0.7, -0.2};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            /* a card centred near each corner and edge, and beyond them */
            double cx = xs[i] < 2 && xs[i] > -1 ? xs[i] * img.w : xs[i];
            double cy = ys[j] < 2 && ys[j] > -1 ? ys[j] * img.h : ys[j];
            double m[6];
            card_map(cx, cy, (rand() % 6283) / 1000.0, 0.5 + (rand() % 1000) / 1000.0, 0, m);
            assert_int_equal(compare(&img, m, 160, 250), 0);
        }
    ts_image_free(&img);
}

static void test_view_and_odd_sizes(void **state)
{
    (void)state;
    ts_image img;
    if (load_photo(&img) < 0)
        skip();
    /* a view: rows farther apart than its width, the frame's last bytes near */
    ts_image view = ts_image_roi(&img, img.w - 301, img.h - 203, 301, 203);
    srand(13);
    for (int round = 0; round < 50; round++) {
        double m[6];
        card_map(rand() % 301, rand() % 203, (rand() % 6283) / 1000.0,
                 0.2 + (rand() % 1500) / 1000.0, 0, m);
        assert_int_equal(compare(&view, m, 1 + rand() % 200, 1 + rand() % 200), 0);
    }
    /* a tiny frame: every tap near an edge */
    ts_image tiny = ts_image_roi(&img, 500, 400, 2, 3);
    double m[6];
    card_map(1, 1, 0.3, 0.02, 0, m);
    assert_int_equal(compare(&tiny, m, 20, 30), 0);
    ts_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_card_maps),
        cmocka_unit_test(test_nearest),
        cmocka_unit_test(test_tilted_card_maps),
        cmocka_unit_test(test_past_the_edges),
        cmocka_unit_test(test_view_and_odd_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
