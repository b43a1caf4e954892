/* SET cards laid edge to edge, found and read through the whole pipeline.
 *
 * Two rendered tables of twelve cards touching each other (the renderer's
 * "touching" layout, the first two seeds of the tuning range, 20000 and
 * 20001: what `tablesight render --game set --layout touching --seed S`
 * draws, before its JPEG). The detector alone reads about half of such
 * tables (of these two, as the CLI's JPEGs, 2 and 0 right); the SET finder
 * (vision/readers/set_find.c) locates the cards by their neighbours and
 * their symbols. The floor (8 of 12) is under what it reads (12 and 12 when
 * written), so the test catches regressions, not noise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline.h"
#include "render.h"

/* Renders the touching table of this seed; *labels gets its codes. */
static void render_touching(uint64_t seed, ts_scene *sc, ts_code *labels, int *nlabels)
{
    ts_scene_spec s;
    memset(&s, 0, sizeof s);
    s.family = TS_FAM_SET;
    s.deck = TS_DECK_CLASSIC;
    s.w = 1280;
    s.h = 720;
    s.seed = seed;
    ts_render_deal(&s, 12, TS_LAYOUT_TOUCHING);
    for (int i = 0; i < s.ncards; i++)
        labels[i] = s.cards[i].code;
    *nlabels = s.ncards;
    char err[TSCV_ERR_MAX] = "";
    if (ts_render_scene(&s, sc, err) != 0)
        fail_msg("render failed: %s", err);
}

static void check_table(uint64_t seed)
{
    ts_scene sc;
    ts_code labels[TS_RENDER_MAX_CARDS];
    int nlabels;
    render_touching(seed, &sc, labels, &nlabels);
    assert_int_equal(nlabels, 12);

    char err[256];
    ts_pipeline_config cfg = {.game = "set"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p)
        fail_msg("pipeline: %s", err);
    static ts_frame_result res;
    memset(&res, 0, sizeof res);
    if (ts_pipeline_process(p, &sc.img, &res, err, sizeof err) != 0)
        fail_msg("process: %s", err);

    /* Labels are a multiset: each read card uses up one label. */
    int used[TS_RENDER_MAX_CARDS] = {0}, right = 0, wrong = 0;
    for (int i = 0; i < res.ncards; i++) {
        if (!res.cards[i].read)
            continue;
        int k = 0;
        while (k < nlabels && (used[k] || labels[k].idx != res.cards[i].code.idx))
            k++;
        if (k < nlabels) {
            used[k] = 1;
            right++;
        } else {
            wrong++;
        }
    }
    printf("seed %llu: %d cards found, %d read right, %d read wrong\n", (unsigned long long)seed,
           res.ncards, right, wrong);
    assert_true(right >= 8);            /* most cards read */
    assert_true(res.ncards <= nlabels); /* no false card */
    assert_true(wrong <= 1);            /* and hardly a wrong one */
    ts_pipeline_destroy(p);
    ts_scene_free(&sc);
}

static void test_touching_20000(void **state)
{
    (void)state;
    check_table(20000);
}

static void test_touching_20001(void **state)
{
    (void)state;
    check_table(20001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_touching_20000),
        cmocka_unit_test(test_touching_20001),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
