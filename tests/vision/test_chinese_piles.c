/* Chinese domino cards in piles, read as the pipeline reads them (the
 * domino class's find, then ts_reader_take) on rendered tables through the
 * camera's JPEG, against the renderer's truth: cards at least half visible
 * read right, and no confident reading wrong.
 *
 * A covered card no candidate of the finder lies on is offered from one
 * group of its pips seen whole (domino.c group_cards): a four's or six's
 * rows and columns give the ways it may lie. Those rows were the pairs of
 * pips nearer than 0.45 of the card's width as the table's view guesses it
 * there; a four's sides lie 0.41 of a width apart, so where the guess was
 * short (a slanted camera, the tops' sizes off) the four gave no way and
 * its card was never offered. The neighbours are now found by the group's
 * own spacing, and such cards are offered after the cards beside the
 * known (domino_find_beside), which read whole there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "cv/cvwrap.h"
#include "geom.h"
#include "reader.h"
#include "render_table.h"

enum { MAX_CAND = 256, OWN_SPACING_MIN = 30 };

typedef struct {
    int half, half_ok, wrong, reads;
} tally;

/* Finds and reads one rendered table as the pipeline does; counts the
 * cards at least half visible read right and the confident reads wrong. */
static void scan_table(const ts_reader_class *cls, void *r, const ts_scene *sc, tally *t)
{
    static ts_quad cand[MAX_CAND], taken[MAX_CAND];
    static ts_reading reads[MAX_CAND];
    char err[TSCV_ERR_MAX];
    int n = cls->find(r, &sc->img, cand, MAX_CAND, err);
    assert_true(n >= 0);
    ts_image card = {0};
    int k = ts_reader_take(cls, r, &sc->img, cand, n, &card, taken, reads, NULL, MAX_CAND, err);
    assert_true(k >= 0);
    ts_image_free(&card);
    int right[TS_RENDER_MAX_CARDS] = {0};
    for (int i = 0; i < k; i++) {
        if (reads[i].conf < cls->conf_floor)
            continue;
        t->reads++;
        int on = ts_scene_card_read(sc, taken[i].q); /* a covered card: its own */
        if (on >= 0 && sc->cards[on].code.idx == reads[i].code.idx)
            right[on] = 1;
        else
            t->wrong++;
    }
    for (int j = 0; j < sc->ncards; j++)
        if (sc->cards[j].visible >= 0.5f) {
            t->half++;
            t->half_ok += right[j];
        }
}

typedef struct {
    uint64_t seed;
    ts_layout layout;
} table;

/* The tables[0..n) (12 Chinese cards each, JPEG). */
static tally scan_tables(const table *tables, size_t n)
{
    const ts_reader_class *cls = ts_reader_class_by_name("domino");
    char err[TSCV_ERR_MAX];
    void *r = cls->create(&(ts_reader_config){"chinese", NULL}, err, sizeof err);
    assert_non_null(r);
    tally t = {0};
    for (size_t i = 0; i < n; i++) {
        ts_scene sc;
        assert_int_equal(
            render_table(TS_FAM_DOMINO, tables[i].seed, tables[i].layout, 1, &sc, err), 0);
        scan_table(cls, r, &sc, &t);
        ts_scene_free(&sc);
    }
    cls->destroy(r);
    return t;
}

/* Tables of session 27's tuning seeds with a card offered only from a
 * four seen whole whose sides the table's view made too far apart: a
 * pile's 1:4 (123010, 0.93 visible) and a touching row's 4:5 (125028,
 * fully visible); and a touching row (124001, a check seed) where a card
 * offered so before the cards beside the known were looked for took the
 * place of one read whole, and the card beyond it (1:6) was never found:
 * cards from one group now come last. Measured 31/35 at least half
 * visible, 0 of 31 confident reads wrong (main 102cd5a: 29/35, 0 wrong;
 * the groups' spacing without the order: 30/35). */
static void test_chinese_groups_by_own_spacing_last(void **state)
{
    (void)state;
    static const table tables[] = {
        {123010, TS_LAYOUT_PILE}, {125028, TS_LAYOUT_TOUCHING}, {124001, TS_LAYOUT_TOUCHING}};
    tally t = scan_tables(tables, sizeof tables / sizeof tables[0]);
    printf("groups by their own spacing, last (JPEG): at least half visible %d/%d, %d of %d "
           "confident reads wrong\n",
           t.half_ok, t.half, t.wrong, t.reads);
    assert_int_equal(t.wrong, 0);
    assert_true(t.half_ok >= OWN_SPACING_MIN);
}

int main(void)
{
    tscv_set_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chinese_groups_by_own_spacing_last),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
