/* The shared detector's erosion boxes and a family whose own card is squat:
 * a playing card (aspect 1.40) is under the squat bound (1.45) that sends
 * outlines to deeper erosion in case they are two cards side by side, so
 * every lone playing card paid for a box (12.4 M of the playing grid's
 * 17.6 M contour tracing). With whole_fill (ts_detect_params) an outline
 * filling its quad like a lone card gets none. Rendered playing tables,
 * laid out in a grid (lone cards) and touching (cards side by side): the
 * same whole cards found, each by its first candidate not overlapping one
 * before, and fewer candidates on the grid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "detect.h"
#include "geom.h"
#include "render_table.h"

enum { MAXQ = 512 };

/* Takes candidates in order, each unless it overlaps one taken (as the
 * detector's callers do); returns how many whole cards of sc a taken
 * candidate lies on. */
static int whole_cards_taken(const ts_scene *sc, const ts_quad *q, int n)
{
    static ts_quad taken[MAXQ];
    int nt = 0, found = 0;
    for (int i = 0; i < n; i++) {
        int free_ = 1;
        for (int j = 0; j < nt && free_; j++)
            free_ = !ts_quad_overlap(&q[i], &taken[j]);
        if (free_)
            taken[nt++] = q[i];
    }
    for (int c = 0; c < sc->ncards; c++) {
        if (sc->cards[c].visible < 0.99f)
            continue;
        for (int k = 0; k < nt; k++)
            if (on_corners(taken[k].q, sc->cards[c].quad)) {
                found++;
                break;
            }
    }
    return found;
}

/* Detects on sc with the playing finder's aspect range and whole_fill;
 * writes the candidate count to *n and returns the whole cards taken. */
static int detect_playing(const ts_scene *sc, float whole_fill, int *n)
{
    static ts_quad q[MAXQ];
    ts_detect_params p;
    ts_detect_defaults(&p);
    p.min_aspect = 1.0f;
    p.max_aspect = 2.1f;
    p.whole_fill = whole_fill;
    ts_detector *d = ts_detector_create(&p);
    assert_non_null(d);
    char err[TSCV_ERR_MAX];
    *n = ts_detect(d, &sc->img, q, MAXQ, err);
    assert_true(*n >= 0);
    ts_detector_destroy(d);
    return whole_cards_taken(sc, q, *n);
}

static void check_layout(ts_layout layout, uint64_t seed0, int fewer)
{
    char err[TSCV_ERR_MAX];
    int saved = 0;
    for (uint64_t s = seed0; s < seed0 + 4; s++) {
        ts_scene sc;
        assert_int_equal(render_table(TS_FAM_PLAYING, s, layout, 1, &sc, err), 0);
        int n_all, n_whole;
        int f_all = detect_playing(&sc, 2.0f, &n_all);
        int f_whole = detect_playing(&sc, 0.995f, &n_whole);
        fprintf(stderr, "seed %llu: every squat outline boxed %d cards (%d candidates), "
                        "lone cards not %d (%d)\n",
                (unsigned long long)s, f_all, n_all, f_whole, n_whole);
        assert_int_equal(f_whole, f_all);
        assert_true(n_whole <= n_all);
        saved += n_all - n_whole;
        ts_scene_free(&sc);
    }
    if (fewer)
        assert_true(saved > 0);
}

static void test_grid(void **state)
{
    (void)state;
    check_layout(TS_LAYOUT_GRID, 61300, 1);
}

static void test_touching(void **state)
{
    (void)state;
    check_layout(TS_LAYOUT_TOUCHING, 61300, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_touching),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
