/* Gang of Four tables (the gof reader) found and read on rendered tables as
 * the pipeline reads them, counted against the render's truth. Include
 * after <cmocka.h>. */
#ifndef TS_TEST_GOF_TABLES_H
#define TS_TEST_GOF_TABLES_H

#include <stdio.h>

#include "cv/cvwrap.h"
#include "reader.h"
#include "readers/readers.h"
#include "render_table.h"

static const ts_reader_class *cls = &ts_gof_reader_class;

/* The Gang of Four reader (caller destroys). */
static inline void *make_reader(void)
{
    char err[256];
    void *r = cls->create(NULL, err, sizeof err);
    if (!r)
        fprintf(stderr, "%s\n", err);
    assert_non_null(r);
    return r;
}

/* Finds and reads one rendered table as the pipeline does (ts_reader_take):
 * adds its cards at least vis visible to *n and those read right to *ok; a
 * sure reading on no card, on a card already read or with the wrong code
 * counts in *wrong. With jpeg, the table goes through the simulated
 * camera's JPEG, as ts-render-eval and a camera see it. */
static inline void read_table_vis(void *r, uint64_t seed, ts_layout layout, float vis, int jpeg,
                                  int *n, int *ok, int *wrong)
{
    static ts_quad cand[512], taken[512];
    static ts_reading reads[512];
    char err[TSCV_ERR_MAX];
    ts_scene scene, *sc = &scene;
    assert_int_equal(render_table(TS_FAM_GOF, seed, layout, jpeg, sc, err), 0);
    ts_image card = {0};
    int nc = cls->find(r, &sc->img, cand, 512, err);
    assert_true(nc >= 0);
    int nt = ts_reader_take(cls, r, &sc->img, cand, nc, &card, taken, reads, NULL, 512, err);
    assert_true(nt >= 0);
    ts_image_free(&card);
    int got[TS_RENDER_MAX_CARDS] = {0};
    for (int t = 0; t < nt; t++) {
        if (reads[t].conf < cls->conf_floor)
            continue;
        int on = ts_scene_card_under(sc, taken[t].q);
        if (on >= 0 && !got[on] && reads[t].code.idx == sc->cards[on].code.idx)
            got[on] = 1;
        else
            (*wrong)++;
    }
    for (int i = 0; i < sc->ncards; i++)
        if (sc->cards[i].visible >= vis) {
            (*n)++;
            *ok += got[i];
        }
    ts_scene_free(sc);
}

/* A rendered table: its seed and layout. */
typedef struct {
    uint64_t seed;
    ts_layout layout;
} table_ref;

/* Reads the k tables through the simulated camera's JPEG (as ts-render-eval
 * and a camera see them) with a fresh reader, tallying the cards at least
 * vis visible into n, ok and wrong, and prints the tally named what. */
static inline void read_camera_tables(const char *what, const table_ref *t, int k, float vis,
                                      int *n, int *ok, int *wrong)
{
    void *r = make_reader();
    for (int i = 0; i < k; i++)
        read_table_vis(r, t[i].seed, t[i].layout, vis, 1, n, ok, wrong);
    cls->destroy(r);
    fprintf(stderr, "%s: %d/%d cards read, %d wrong\n", what, *ok, *n, *wrong);
}

#endif
