/* --game auto on rendered tables: a pipeline per test and the check that
 * each table goes to its own family (test_auto_family.c, test_auto_fans.c).
 * Include after cmocka.h. */
#ifndef TS_TEST_AUTO_TABLES_H
#define TS_TEST_AUTO_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game_pipeline.h"
#include "pipeline.h"
#include "render_table.h"

/* A test's own --game auto pipeline (*state). */
static inline int pipeline_setup(void **state)
{
    char err[512];
    ts_pipeline_config cfg = {.game = "auto"};
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p)
        fprintf(stderr, "%s\n", err);
    *state = p;
    return p ? 0 : -1;
}

static inline int pipeline_teardown(void **state)
{
    ts_pipeline_destroy(*state);
    return 0;
}

static inline int family_of(ts_pipeline *p, const ts_image *img)
{
    char err[512];
    ts_frame_result out = {0};
    if (ts_pipeline_process(p, img, &out, err, sizeof err) < 0)
        fprintf(stderr, "%s\n", err);
    return out.family;
}

typedef struct {
    ts_family fam;
    uint64_t seed;
} seeded_table;

/* Each table (rendered as `render` saves it, layout as the renderer likes)
 * is given to its own family; a miss names the family taken. */
static inline void assert_families(ts_pipeline *p, const seeded_table *t, size_t n)
{
    char err[TSCV_ERR_MAX];
    for (size_t k = 0; k < n; k++) {
        ts_scene sc;
        assert_int_equal(render_table(t[k].fam, t[k].seed, TS_LAYOUT_AUTO, 1, &sc, err), 0);
        int got = family_of(p, &sc.img);
        if (got != (int)t[k].fam)
            fprintf(stderr, "%s %llu read as %s\n", ts_family_name(t[k].fam),
                    (unsigned long long)t[k].seed, got >= 0 ? ts_family_name(got) : "none");
        assert_int_equal(got, t[k].fam);
        ts_scene_free(&sc);
    }
}

#endif
