/* The playing reader on other games' tables (--game playing, and so
 * --game auto, which runs every reader on every frame, live too). Their
 * cards are outlined as playing cards are and none reads as one, so each
 * place's outlines, blobs and held quads were read one by one: 3.7 to 5 G
 * instructions a frame against the playing grid's 0.17 G. A frame with
 * many outlines of one size in places of their own, no index read surely,
 * and none of the first few outlines a playing card above the floor (nor
 * all of them unsure ones) is another game's table (playing.c,
 * other_table): it gives no card, in about a playing table's time. The
 * test asserts what is seen (no sure card, the rule fired, the playing
 * grids read) and only prints the time.
 *
 * Rendered grids (jpeg, as the camera sends them) of seeds 80000-80002,
 * the speed frames' seed among them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include "game_pipeline.h"
#include "pipeline.h"
#include "render_table.h"

enum { FIRST_SEED = 80000, NSEEDS = 3 };

/* The playing pipeline on table fam/seed (grid): its cards found (read or
 * not) in *ncards and those read in *nread; returns the CPU seconds it
 * took, printed only (a slow or sanitised build must not fail). */
static double read_table(ts_pipeline *p, ts_family fam, uint64_t seed, int *ncards, int *nread)
{
    char err[TSCV_ERR_MAX];
    static ts_frame_result res;
    ts_scene sc;
    assert_int_equal(render_table(fam, seed, TS_LAYOUT_GRID, 1, &sc, err), 0);
    clock_t t0 = clock();
    assert_int_equal(ts_pipeline_process(p, &sc.img, &res, err, sizeof err), 0);
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    *ncards = res.ncards;
    *nread = 0;
    for (int k = 0; k < res.ncards; k++)
        *nread += res.cards[k].read;
    ts_scene_free(&sc);
    return s;
}

static void test_other_tables_give_no_card(void **state)
{
    (void)state;
    static const ts_family others[] = {TS_FAM_QWIRKLE, TS_FAM_DOMINO, TS_FAM_SET, TS_FAM_GOF};
    enum { NOTHERS = sizeof others / sizeof *others };
    ts_pipeline *p = game_pipeline("playing");
    assert_non_null(p);
    int n, nread, playing_read = 0;
    (void)read_table(p, TS_FAM_PLAYING, FIRST_SEED, &n, &nread); /* the nets loaded, warm */
    double playing = 0;
    for (int s = 0; s < NSEEDS; s++) {
        playing += read_table(p, TS_FAM_PLAYING, FIRST_SEED + s, &n, &nread);
        playing_read += nread;
    }
    int given_all = 0;
    for (int f = 0; f < NOTHERS; f++) {
        double t = 0;
        int sure = 0, given = 0;
        for (int s = 0; s < NSEEDS; s++) {
            t += read_table(p, others[f], FIRST_SEED + s, &n, &nread);
            sure += nread;
            given += n == 0; /* other_table fired: no place offered at all */
        }
        fprintf(stderr, "family %d: %d sure cards, %d/%d tables given as another game's, "
                "%.2f times the playing grids' CPU time\n",
                (int)others[f], sure, given, NSEEDS, t / playing);
        /* before: 9 sure playing cards on the Gang of Four grids */
        assert_int_equal(sure, 0);
        assert_true(given >= 1);
        given_all += given;
    }
    /* measured: Qwirkle 3, Chinese domino 1, SET 2 (80002 is read as
     * before), Gang of Four 3 */
    assert_true(given_all >= 9);
    ts_pipeline_destroy(p);
    fprintf(stderr, "playing grids: %d cards read\n", playing_read);
    assert_true(playing_read >= 35); /* 80002's KC is not found (test_playing_spared_face) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_tables_give_no_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
