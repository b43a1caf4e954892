/* Rendered playing tables read through the pipeline, for the tests of the
 * playing reader's table finding (test_playing_touching.c,
 * test_playing_table_cloth.c). Include after cmocka.h. */
#ifndef TS_TEST_PLAYING_TABLES_H
#define TS_TEST_PLAYING_TABLES_H

#include <stdint.h>
#include <stdio.h>

#include "game_pipeline.h"
#include "geom.h"
#include "pipeline.h"
#include "render_table.h"

typedef struct {
    uint64_t seed;
    ts_layout layout;
} table_ref;

/* Reads table t through pipeline p: adds its cards showing at least
 * min_visible of themselves to *n, those read right where they lie to *ok,
 * the cards read that are not the card lying there (or lie on none) to
 * *wrong. */
static inline void read_table_seen(ts_pipeline *p, const table_ref *t, float min_visible, int *n,
                                   int *ok, int *wrong)
{
    static ts_frame_result res;
    char err[TSCV_ERR_MAX];
    ts_scene sc;
    assert_int_equal(render_table(TS_FAM_PLAYING, t->seed, t->layout, 1, &sc, err), 0);
    assert_int_equal(ts_pipeline_process(p, &sc.img, &res, err, sizeof err), 0);
    int whole = 0, right = 0, bad = 0;
    for (int i = 0; i < sc.ncards; i++)
        whole += sc.cards[i].visible >= min_visible;
    for (int k = 0; k < res.ncards; k++) {
        const ts_card *c = &res.cards[k];
        if (!c->read)
            continue;
        int on = ts_scene_card_read(&sc, c->quad);
        if (on < 0 || sc.cards[on].code.idx != c->code.idx)
            bad++;
        else if (sc.cards[on].visible >= min_visible)
            right++;
    }
    fprintf(stderr, "%s %llu: %d of %d showing %.2f read right, %d wrong\n",
            ts_layout_name(t->layout), (unsigned long long)t->seed, right, whole, min_visible, bad);
    *n += whole;
    *ok += right;
    *wrong += bad;
    ts_scene_free(&sc);
}

/* read_table_seen of the fully visible cards. */
static inline void read_table(ts_pipeline *p, const table_ref *t, int *n, int *ok, int *wrong)
{
    read_table_seen(p, t, 0.99f, n, ok, wrong);
}

/* Reads tables t[0..k) (read_table_seen, min_visible) with one pipeline. */
static inline void read_tables_seen(const char *what, const table_ref *t, int k,
                                    float min_visible, int *n, int *ok, int *wrong)
{
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    for (int i = 0; i < k; i++)
        read_table_seen(p, &t[i], min_visible, n, ok, wrong);
    ts_pipeline_destroy(p);
    fprintf(stderr, "%s: %d/%d read right, %d wrong\n", what, *ok, *n, *wrong);
}

static inline void read_tables(const char *what, const table_ref *t, int k, int *n, int *ok,
                               int *wrong)
{
    read_tables_seen(what, t, k, 0.99f, n, ok, wrong);
}

#endif
