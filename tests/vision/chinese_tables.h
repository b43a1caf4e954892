/* Chinese domino cards (the domino reader, profile "chinese") found and
 * read on rendered tables as the pipeline reads them, counted against the
 * render's truth. Include after <cmocka.h>. */
#ifndef TS_TEST_CHINESE_TABLES_H
#define TS_TEST_CHINESE_TABLES_H

#include <stdio.h>

#include "cv/cvwrap.h"
#include "reader.h"
#include "render_table.h"

enum { CHINESE_MAX_CAND = 256 };

/* Cards fully visible and at least half visible, how many of each read
 * right, and the confident reads (and how many of them wrong). */
typedef struct {
    int full, right, half, half_ok, wrong, reads;
} tally;

/* The domino reader with the Chinese deck's profile (caller destroys). */
static inline void *chinese_reader(const ts_reader_class **cls)
{
    char err[256];
    *cls = ts_reader_class_by_name("domino");
    assert_non_null(*cls);
    void *r = (*cls)->create(&(ts_reader_config){"chinese", NULL}, err, sizeof err);
    assert_non_null(r);
    return r;
}

/* Found and read as the pipeline does: the candidates taken in order, a
 * quad read as no card leaving its place to the next; the table's cards
 * (through the camera's JPEG) added to *t. */
static inline void find_and_read(ts_layout layout, uint64_t seed, tally *t)
{
    static ts_quad cand[CHINESE_MAX_CAND], taken[CHINESE_MAX_CAND];
    static ts_reading reads[CHINESE_MAX_CAND];
    const ts_reader_class *cls;
    void *r = chinese_reader(&cls);
    char err[TSCV_ERR_MAX];
    ts_scene sc;
    assert_int_equal(render_table(TS_FAM_DOMINO, seed, layout, 1, &sc, err), 0);
    int n = cls->find(r, &sc.img, cand, CHINESE_MAX_CAND, err);
    assert_true(n >= 0);
    ts_image card = {0};
    int k = ts_reader_take(cls, r, &sc.img, cand, n, &card, taken, reads, NULL, CHINESE_MAX_CAND,
                           err);
    assert_true(k >= 0);
    ts_image_free(&card);
    int right[TS_RENDER_MAX_CARDS] = {0};
    for (int i = 0; i < k; i++) {
        if (reads[i].conf < cls->conf_floor)
            continue;
        t->reads++;
        int on = ts_scene_card_read(&sc, taken[i].q); /* a covered card: its own */
        if (on >= 0 && sc.cards[on].code.idx == reads[i].code.idx)
            right[on] = 1;
        else
            t->wrong++;
    }
    for (int j = 0; j < sc.ncards; j++) {
        if (sc.cards[j].visible >= 0.99f) {
            t->full++;
            t->right += right[j];
        }
        if (sc.cards[j].visible >= 0.5f) {
            t->half++;
            t->half_ok += right[j];
        }
    }
    ts_scene_free(&sc);
    cls->destroy(r);
}

/* find_and_read over the tables of layout at seeds[0..n). */
static inline void find_and_read_seeds(ts_layout layout, const uint64_t *seeds, size_t n,
                                       tally *t)
{
    for (size_t i = 0; i < n; i++)
        find_and_read(layout, seeds[i], t);
}

/* What t counted, on one line headed what. */
static inline void print_tally(const char *what, const tally *t)
{
    printf("%s (JPEG): fully visible %d/%d, at least half visible %d/%d, %d of %d confident "
           "reads wrong\n",
           what, t->right, t->full, t->half_ok, t->half, t->wrong, t->reads);
}

#endif
