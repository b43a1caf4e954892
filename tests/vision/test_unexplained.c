/* ts_detect_unexplained, the gate of the playing finder's pass without
 * blobs: on a drawn table of white cards, the cards ts_detect outlines
 * leave nothing unexplained; leaving one out leaves about its share of the
 * frame; a white sheet no outline covers is unexplained; before any frame
 * everything is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "detect.h"

enum { W = 1280, H = 720, CW = 126, CH = 176, NCARDS = 6 };

static void fill_rect(ts_image *img, int x0, int y0, int w, int h, uint8_t v)
{
    for (int y = y0; y < y0 + h; y++)
        memset(ts_image_row(img, y) + (size_t)x0 * 3, v, (size_t)w * 3);
}

/* A dark table with NCARDS white cards in a row (and, if sheet, a large
 * white sheet below them no card outline fits). */
static void draw_table(ts_image *img, int sheet)
{
    assert_int_equal(ts_image_alloc(img, W, H, 3), 0);
    fill_rect(img, 0, 0, W, H, 40);
    for (int i = 0; i < NCARDS; i++)
        fill_rect(img, 100 + i * 180, 120, CW, CH, 235);
    if (sheet) /* irregular: an L no quad of card shape outlines */
        fill_rect(img, 100, 420, 700, 90, 235), fill_rect(img, 100, 420, 90, 280, 235);
}

static int detect(ts_detector *d, const ts_image *img, ts_quad *q)
{
    char err[TSCV_ERR_MAX];
    int n = ts_detect(d, img, q, 64, err);
    assert_true(n >= 0);
    return n;
}

static void test_outlined_cards_explain_the_table(void **state)
{
    (void)state;
    ts_detector *d = ts_detector_create(NULL);
    assert_non_null(d);
    assert_true(ts_detect_unexplained(d, NULL, 0, 1.08f) == 1.0f);
    ts_image img;
    draw_table(&img, 0);
    ts_quad q[64];
    int n = detect(d, &img, q);
    assert_true(n >= NCARDS);
    assert_true(ts_detect_unexplained(d, q, n, 1.08f) < 0.005f);
    /* without the first card (the others are elsewhere): its share is left */
    ts_quad rest[64];
    int m = 0;
    for (int i = 0; i < n; i++) {
        ts_pt c = {(q[i].q[0].x + q[i].q[2].x) / 2, (q[i].q[0].y + q[i].q[2].y) / 2};
        if (c.x > 100 + CW)
            rest[m++] = q[i];
    }
    float share = ts_detect_unexplained(d, rest, m, 1.08f);
    float card = (float)(CW * CH) / (W * H);
    assert_true(share > 0.8f * card && share < 1.2f * card);
    ts_image_free(&img);
    ts_detector_destroy(d);
}

static void test_sheet_unexplained(void **state)
{
    (void)state;
    ts_detector *d = ts_detector_create(NULL);
    assert_non_null(d);
    ts_image img;
    draw_table(&img, 1);
    ts_quad q[64];
    int n = detect(d, &img, q);
    assert_true(ts_detect_unexplained(d, q, n, 1.08f) > 0.02f);
    ts_image_free(&img);
    ts_detector_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outlined_cards_explain_the_table),
        cmocka_unit_test(test_sheet_unexplained),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
