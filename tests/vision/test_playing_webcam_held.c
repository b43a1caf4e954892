/* The held-card finder (readers/playing_held.c) on real frames: playing
 * cards held up to a webcam (../shared/data/playing, the cardcounter_webcam
 * frames, later half by UUID1 time: never trained on, all black cards), and
 * SET boards (cards with symbols that are not pips). Its quads are the ones
 * the playing finder scores TS_PLAYING_HELD_MIN_SCORE or more. Skips when
 * ../shared is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "imageio.h"
#include "readers/playing.h"
#include "readers/playing_face.h"
#include "readers/playing_held.h"
#include "shared_data.h"
#include "uuid1_time.h"

#define PLAYING_DIR TS_SHARED_DIR "/data/playing/"
#define SET_DIR TS_SHARED_DIR "/data/set/"

enum { MAX_FRAMES = 256, MAX_CAND = 256 };
static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";

typedef struct {
    ts_playing_reader *rd;
    ts_playing_face *face;
    ts_playing_finder *finder;
    ts_quad *cand;
    ts_image card;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    char err[256];
    memset(&fx, 0, sizeof fx);
    fx.rd = ts_playing_reader_create(NULL, err, sizeof err);
    fx.face = ts_playing_face_create(NULL, err, sizeof err);
    fx.finder = ts_playing_finder_create();
    fx.cand = malloc(sizeof *fx.cand * MAX_CAND);
    if (!fx.rd || !fx.face || !fx.finder || !fx.cand)
        return -1;
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    ts_playing_reader_destroy(fx->rd);
    ts_playing_face_destroy(fx->face);
    ts_playing_finder_destroy(fx->finder);
    free(fx->cand);
    ts_image_free(&fx->card);
    return 0;
}

/* Reads every held-card quad of one image as the reader's finder does (the
 * index; when it stays unread, the quad fitted to the face and the index
 * again; when it still does, the face with the index's suit). Writes the surest card's
 * code ("" if none) to best; returns the number of held quads. */
static int read_held(fixture *fx, const char *path, char best[4])
{
    char err[TSCV_ERR_MAX];
    ts_image img;
    assert_int_equal(ts_image_load(path, &img, err, sizeof err), 0);
    int no = ts_playing_outlines(fx->finder, &img, fx->cand, MAX_CAND, err);
    assert_true(no >= 0);
    int n = ts_playing_find(fx->finder, &img, NULL, 0, fx->cand, no, MAX_CAND, err);
    assert_true(n >= 0);
    int held = 0;
    float sure = 0;
    best[0] = 0;
    for (int i = 0; i < n; i++) {
        if (fx->cand[i].score < TS_PLAYING_HELD_MIN_SCORE)
            continue;
        held++;
        assert_int_equal(tscv_warp_quad(&img, fx->cand[i].q, &fx->card, TS_PLAYING_CARD_W,
                                        TS_PLAYING_CARD_H, err),
                         0);
        ts_playing_reading r;
        assert_int_equal(ts_playing_read(fx->rd, &fx->card, &r, err), 0);
        if ((!r.is_card || r.conf < TS_PLAYING_FLOOR) &&
            fx->cand[i].score >= TS_PLAYING_HELD_SCORE) {
            /* unsure: the quad fitted to the face (1: not worth it, q as
             * it was), and read again */
            assert_true(ts_playing_held_fit(fx->face, &img, fx->cand[i].q, err) >= 0);
            assert_int_equal(tscv_warp_quad(&img, fx->cand[i].q, &fx->card, TS_PLAYING_CARD_W,
                                            TS_PLAYING_CARD_H, err),
                             0);
            assert_int_equal(ts_playing_read(fx->rd, &fx->card, &r, err), 0);
        }
        ts_reading idx = {.is_card = r.is_card,
                          .code = {TS_FAM_PLAYING, (uint8_t)(r.suit * 13 + r.rank)},
                          .nattr = 2,
                          .attr_conf = {r.rank_conf, r.suit_conf}};
        int rank = r.rank, suit = r.suit;
        float conf = r.is_card ? r.conf : 0;
        if (conf < TS_PLAYING_FLOOR) {
            ts_reading f;
            assert_int_equal(ts_playing_held_face(fx->face, &fx->card, &idx, &f, err), 0);
            if (f.is_card) {
                rank = f.code.idx % 13, suit = f.code.idx / 13;
                conf = f.conf;
            }
        }
        if (conf >= TS_PLAYING_FLOOR && conf > sure) {
            sure = conf;
            snprintf(best, 4, "%c%c", RANKS[rank], SUITS[suit]);
        }
    }
    ts_image_free(&img);
    return held;
}

/* The later half of the webcam frames: the held finder puts a card's quad
 * where its reading is the labelled card on most, and a sure reading of
 * another card on none. */
static void test_held_out_webcam_frames(void **state)
{
    fixture *fx = *state;
    static webcam_frame fr[MAX_FRAMES];
    int h, n = webcam_frames(PLAYING_DIR "labels.tsv", fr, MAX_FRAMES, &h);
    if (n < 0)
        skip();
    int frames = 0, with_quad = 0, right = 0, wrong = 0;
    for (int i = h; i < n; i++) {
        char path[1200], best[4];
        snprintf(path, sizeof path, PLAYING_DIR "%s", fr[i].name);
        with_quad += read_held(fx, path, best) > 0;
        right += strcmp(best, fr[i].label) == 0;
        wrong += best[0] && strcmp(best, fr[i].label) != 0;
        frames++;
    }
    fprintf(stderr, "held-out webcam frames: %d, with a held card's quad %d, read right from one %d, "
                    "sure of another card %d\n",
            frames, with_quad, right, wrong);
    assert_int_equal(frames, 55);
    /* measured: 49 with a quad, 30 read right from one (the pipeline reads
     * 39: other candidates read the rest; it also fits the smaller sizes and
     * wants an index's shape for a face read), 0 wrong; before pips cut by
     * the frame's edge were dropped 51, 28; session 9 (no fit, a card no
     * longer than 2.4 times its width): 45, 19 */
    assert_true(with_quad >= 48);
    assert_true(right >= 24);
    assert_int_equal(wrong, 0);
}

/* SET boards: their symbols come in clusters of one size on white cards,
 * much like pips; whatever quads that gives, none reads as a sure playing
 * card from the face alone or the index. */
static void test_set_boards_no_held_cards(void **state)
{
    fixture *fx = *state;
    if (!shared_file_exists(SET_DIR "boards.tsv"))
        skip();
    FILE *f = fopen(SET_DIR "boards.tsv", "r");
    assert_non_null(f);
    char line[1024];
    int boards = 0, held = 0, sure = 0;
    while (fgets(line, sizeof line, f) && boards < 12) {
        if (line[0] == '#' || !strchr(line, '\t'))
            continue;
        *strchr(line, '\t') = 0;
        char path[1200], best[4];
        snprintf(path, sizeof path, SET_DIR "%s", line);
        held += read_held(fx, path, best);
        sure += best[0] != 0;
        boards++;
    }
    fclose(f);
    fprintf(stderr, "SET boards: %d, held quads %d, sure playing cards %d\n", boards, held, sure);
    assert_int_equal(boards, 12);
    assert_int_equal(sure, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_out_webcam_frames),
        cmocka_unit_test(test_set_boards_no_held_cards),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
