/* ts_components_find (vision/components.c) against OpenCV's
 * connectedComponentsWithStats (tscv_components): the same components,
 * statistics, numbering and labels, bit for bit, on masks of every density
 * and shape (specks, blobs, diagonal chains, a checkerboard, stripes),
 * sides odd and even, and with fewer blobs kept than there are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "components.h"
#include "cv/cvwrap.h"

enum { MAXB = 20000 };

static uint32_t seed = 7;

static uint32_t rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

/* A mask: pattern 0 noise of density d/100, 1 discs of that density, 2 a
 * checkerboard, 3 diagonal lines, 4 stripes with gaps. */
static void make_mask(ts_image *m, int pattern, int d)
{
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int v = 0;
            if (pattern == 0)
                v = (int)(rnd() % 100) < d;
            else if (pattern == 2)
                v = (x + y) % 2;
            else if (pattern == 3)
                v = (x + 2 * y) % 7 == 0 || (3 * x - y + 99) % 11 == 0;
            else if (pattern == 4)
                v = y % 3 != 0 && (x * 5 + y) % 17 != 0;
            ts_image_row(m, y)[x] = v ? (uint8_t)(1 + rnd() % 255) : 0;
        }
    if (pattern != 1)
        return;
    for (int k = 0; k < d; k++) { /* discs of radius 1 .. 8 */
        int cx = (int)(rnd() % (unsigned)m->w), cy = (int)(rnd() % (unsigned)m->h);
        int r = 1 + (int)(rnd() % 8);
        for (int y = cy - r; y <= cy + r; y++)
            for (int x = cx - r; x <= cx + r; x++)
                if (x >= 0 && y >= 0 && x < m->w && y < m->h &&
                    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                    ts_image_row(m, y)[x] = 255;
    }
}

static void check(ts_components *c, int w, int h, int pattern, int d, int max)
{
    ts_image m;
    assert_int_equal(ts_image_alloc(&m, w, h, 1), 0);
    make_mask(&m, pattern, d);
    static tscv_blob want[MAXB], got[MAXB];
    int *lw = malloc(sizeof *lw * (size_t)w * h), *lg = malloc(sizeof *lg * (size_t)w * h);
    assert_non_null(lw);
    assert_non_null(lg);
    char err[TSCV_ERR_MAX];
    int nw = tscv_components(&m, lw, want, max, err);
    int ng = ts_components_find(c, &m, lg, got, max);
    assert_int_equal(ng, nw);
    assert_memory_equal(got, want, sizeof *got * (size_t)ng);
    if (max == MAXB) /* all of them numbered: the labels too */
        assert_memory_equal(lg, lw, sizeof *lg * (size_t)w * h);
    assert_int_equal(ts_components_find(c, &m, NULL, got, max), nw);
    assert_memory_equal(got, want, sizeof *got * (size_t)ng);
    free(lw);
    free(lg);
    ts_image_free(&m);
}

static void test_equals_opencv(void **state)
{
    (void)state;
    ts_components *c = ts_components_create();
    assert_non_null(c);
    const int sizes[][2] = {{1, 1}, {7, 5}, {64, 36}, {129, 91}, {640, 360}};
    for (int s = 0; s < 5; s++)
        for (int p = 0; p < 5; p++) {
            const int dens[] = {1, 10, 30, 50, 70};
            for (int k = 0; k < (p < 2 ? 5 : 1); k++)
                check(c, sizes[s][0], sizes[s][1], p, p == 1 ? dens[k] * 4 : dens[k], MAXB);
        }
    check(c, 640, 360, 0, 10, 600); /* more components than kept */
    check(c, 129, 91, 1, 40, 7);
    ts_components_destroy(c);
    ts_components_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_opencv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
