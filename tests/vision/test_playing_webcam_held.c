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

#include "geom.h"
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

/* Reads quad q (updated) of img as the reader's finder reads a held card's:
 * the index; when it stays unread and fit is set, the quad fitted to the face
 * and the index again (below the floor unless the face agrees); when it
 * still does, the face with the index's suit.
 * Returns the confidence (0: no card) and the card in code (suit * 13 + rank). */
static float read_quad(fixture *fx, const ts_image *img, ts_pt q[4], int fit, int *code)
{
    char err[TSCV_ERR_MAX];
    assert_int_equal(tscv_warp_quad(img, q, &fx->card, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err),
                     0);
    ts_playing_reading r;
    assert_int_equal(ts_playing_read(fx->rd, &fx->card, &r, err), 0);
    if ((!r.is_card || r.conf < TS_PLAYING_FLOOR) && fit) {
        /* unsure: the quad fitted to the face (1: not worth it, q as it
         * was), and read again */
        assert_true(ts_playing_held_fit(fx->face, img, q, err) >= 0);
        assert_int_equal(
            tscv_warp_quad(img, q, &fx->card, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err), 0);
        assert_int_equal(ts_playing_read(fx->rd, &fx->card, &r, err), 0);
        /* as the reader: a fitted quad's index reading is a card only
         * when the face agrees (the fit can frame an index's likeness) */
        if (r.face != TS_FACE_AGREES && r.conf >= TS_PLAYING_FLOOR)
            r.conf = TS_PLAYING_FLOOR / 2;
    }
    ts_reading idx = {.is_card = r.is_card,
                      .code = {TS_FAM_PLAYING, (uint8_t)(r.suit * 13 + r.rank)},
                      .nattr = 2,
                      .attr_conf = {r.rank_conf, r.suit_conf}};
    *code = r.suit * 13 + r.rank;
    float conf = r.is_card ? r.conf : 0;
    if (conf < TS_PLAYING_FLOOR) {
        ts_reading f;
        assert_int_equal(ts_playing_held_face(fx->face, &fx->card, &idx, &f, err), 0);
        if (f.is_card) {
            *code = f.code.idx;
            conf = f.conf;
        }
    }
    return conf;
}

/* The held-card quads of one image (the playing finder's candidates scored
 * TS_PLAYING_HELD_MIN_SCORE or more) into fx->cand; returns their count
 * there, first. img: loaded from path (caller frees). */
static int held_quads(fixture *fx, const char *path, ts_image *img)
{
    char err[TSCV_ERR_MAX];
    assert_int_equal(ts_image_load(path, img, err, sizeof err), 0);
    int no = ts_playing_outlines(fx->finder, img, fx->cand, MAX_CAND, err);
    assert_true(no >= 0);
    int n = ts_playing_find(fx->finder, img, NULL, 0, fx->cand, no, MAX_CAND, err);
    assert_true(n >= 0);
    int held = 0;
    for (int i = 0; i < n; i++)
        if (fx->cand[i].score >= TS_PLAYING_HELD_MIN_SCORE)
            fx->cand[held++] = fx->cand[i];
    return held;
}

/* The surest card (conf >= the floor) of the quads so read, as "RS" in best
 * ("" if none). */
static void keep_surest(float conf, int code, float *sure, char best[4])
{
    if (conf >= TS_PLAYING_FLOOR && conf > *sure) {
        *sure = conf;
        snprintf(best, 4, "%c%c", RANKS[code % 13], SUITS[code / 13]);
    }
}

/* Reads every held-card quad of one image as the reader's finder does
 * (read_quad; the quad's size variants, scored below TS_PLAYING_HELD_SCORE,
 * not fitted). Writes the surest card's code ("" if none) to best; returns
 * the number of held quads. */
static int read_held(fixture *fx, const char *path, char best[4])
{
    ts_image img;
    int held = held_quads(fx, path, &img);
    float sure = 0;
    best[0] = 0;
    for (int i = 0; i < held; i++) {
        int code = 0;
        float conf = read_quad(fx, &img, fx->cand[i].q, fx->cand[i].score >= TS_PLAYING_HELD_SCORE,
                               &code);
        keep_surest(conf, code, &sure, best);
    }
    ts_image_free(&img);
    return held;
}

/* As read_held, each held quad (its first size only) first made loose:
 * grown about its centre by LOOSE, as one whose sides ran on into a wall
 * as light as the card, or into the hand, then fitted. */
#define LOOSE 1.4f
static void read_loose(fixture *fx, const char *path, char best[4])
{
    ts_image img;
    int held = held_quads(fx, path, &img);
    float sure = 0;
    best[0] = 0;
    for (int i = 0; i < held; i++) {
        if (fx->cand[i].score < TS_PLAYING_HELD_SCORE)
            continue;
        ts_pt q[4];
        int code = 0;
        ts_quad_scale(fx->cand[i].q, LOOSE, q);
        float conf = read_quad(fx, &img, q, 1, &code);
        keep_surest(conf, code, &sure, best);
    }
    ts_image_free(&img);
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
    /* measured: 52 with a quad, 33 read right from one (session 14: a
     * squeezed frame's pips unsqueezed, longer cards let; before, 49 and
     * 31; session 12: 30;
     * the pipeline reads 41: other candidates read the rest; it also fits
     * the smaller sizes and wants an index's shape for a face read), 0
     * wrong; before pips cut by the frame's edge were dropped 51, 28;
     * session 9 (no fit, a card no longer than 2.4 times its width): 45, 19 */
    assert_true(with_quad >= 51);
    assert_true(right >= 26);
    assert_int_equal(wrong, 0);
}

/* Loose quads: the held-out frames' held quads grown 1.4 times are still
 * fitted to their cards (the fit's first round looks at the quad shrunk
 * too), and read as no other card. */
static void test_loose_quads_fitted(void **state)
{
    fixture *fx = *state;
    static webcam_frame fr[MAX_FRAMES];
    int h, n = webcam_frames(PLAYING_DIR "labels.tsv", fr, MAX_FRAMES, &h);
    if (n < 0)
        skip();
    int right = 0, wrong = 0;
    for (int i = h; i < n; i++) {
        char path[1200], best[4];
        snprintf(path, sizeof path, PLAYING_DIR "%s", fr[i].name);
        read_loose(fx, path, best);
        right += strcmp(best, fr[i].label) == 0;
        wrong += best[0] && strcmp(best, fr[i].label) != 0;
    }
    fprintf(stderr, "held-out webcam frames' held quads grown %.1f times: read right %d, sure of "
                    "another card %d\n",
            LOOSE, right, wrong);
    assert_int_equal(wrong, 0);
    /* measured 28 (session 13: 27; before the fit looked at the quad
     * shrunk: 13) */
    assert_true(right >= 24);
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

/* A card held sideways and leaning back in a square frame (a squeezed
 * 16:9 one) looks square: 3d-ba3de606's pips make a quad of 1.00, too
 * square for a held card before SQUARE_ASPECT_MIN (its index was then
 * read on no candidate). Its held quad is found, and read as no other
 * card. */
static void test_square_frame_sideways_card(void **state)
{
    fixture *fx = *state;
    const char *path =
        PLAYING_DIR "images/cardcounter_webcam_3d-ba3de606-3991-11ed-99a1-ec2e98cc7ff6_jpg.jpg";
    if (!shared_file_exists(path)) {
        skip();
        return;
    }
    char best[4];
    int held = read_held(fx, path, best);
    fprintf(stderr, "3D held sideways: held quads %d, surest card '%s'\n", held, best);
    assert_true(held >= 1);
    assert_true(best[0] == 0 || strcmp(best, "3D") == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_out_webcam_frames),
        cmocka_unit_test(test_loose_quads_fitted),
        cmocka_unit_test(test_set_boards_no_held_cards),
        cmocka_unit_test(test_square_frame_sideways_card),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
