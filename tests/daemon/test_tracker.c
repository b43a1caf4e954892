/* Tracker: from per-frame readings to a stable table, with events. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tracker.h"

/* ---- A scripted table --------------------------------------------------- */

static ts_frame_result frame; /* the frame being built */
static uint64_t frame_no;
static ts_tracker *tr;
static const ts_stable *st;

static int setup(void **state)
{
    (void)state;
    frame_no = 0;
    st = NULL;
    tr = ts_tracker_create(NULL);
    return tr ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ts_tracker_destroy(tr);
    return 0;
}

static void clear(void)
{
    memset(&frame, 0, sizeof frame);
    frame.w = 1280;
    frame.h = 720;
}

/* A card 100 x 150 centred at (cx, cy); code NULL or read 0 = unread. */
static void put(float cx, float cy, const char *code, int read)
{
    ts_card *c = &frame.cards[frame.ncards++];
    memset(c, 0, sizeof *c);
    c->quad[0] = (ts_pt){cx - 50, cy - 75};
    c->quad[1] = (ts_pt){cx + 50, cy - 75};
    c->quad[2] = (ts_pt){cx + 50, cy + 75};
    c->quad[3] = (ts_pt){cx - 50, cy + 75};
    if (code) {
        assert_int_equal(ts_code_parse(TS_FAM_SET, code, strlen(code), &c->code), 0);
        snprintf(c->text, sizeof c->text, "%s", code);
    }
    c->read = code && read;
    c->conf = c->read ? 0.9f : 0.2f;
}

static const ts_stable *step(void)
{
    frame_no++;
    st = ts_tracker_update(tr, &frame, frame_no, frame_no / 10.0);
    return st;
}

/* Feeds the current frame n times; returns the total events seen. */
static int steps(int n)
{
    int ev = 0;
    for (int i = 0; i < n; i++)
        ev += step()->nevents;
    return ev;
}

static int has_card(const char *code)
{
    for (int i = 0; i < st->table.frame.ncards; i++)
        if (st->table.frame.cards[i].read && strcmp(st->table.frame.cards[i].text, code) == 0)
            return 1;
    return 0;
}

static const ts_event *find_event(ts_event_type type)
{
    for (int i = 0; i < st->nevents; i++)
        if (st->events[i].type == type)
            return &st->events[i];
    return NULL;
}

/* Twelve cards in a 4 x 3 grid, codes from a list. */
static const char *TWELVE[12] = {"1RDS", "2RDS", "3RDS", "1GOT", "2GOT", "3GOT",
                                 "1PSO", "2PSO", "3PSO", "1RSS", "2GST", "3POS"};
static void deal_twelve(void)
{
    clear();
    for (int i = 0; i < 12; i++)
        put(150 + 250 * (i % 4), 120 + 220 * (i / 4), TWELVE[i], 1);
}

/* ---- Joining ------------------------------------------------------------ */

static void card_joins_after_stable_frames(void **state)
{
    (void)state;
    clear();
    put(300, 300, "2GST", 1);
    for (int i = 1; i < TS_TRACKER_DEFAULTS.stable_frames; i++) {
        step();
        assert_int_equal(st->table.frame.ncards, 0);
        assert_int_equal(st->nevents, 0);
        assert_int_equal(st->version, 0);
    }
    step();
    assert_int_equal(st->table.frame.ncards, 1);
    assert_int_equal(st->nevents, 1);
    const ts_event *e = &st->events[0];
    assert_int_equal(e->type, TS_EV_ADDED);
    assert_string_equal(e->code, "2GST");
    assert_int_equal(e->frame, TS_TRACKER_DEFAULTS.stable_frames);
    assert_true(fabs(e->t - TS_TRACKER_DEFAULTS.stable_frames / 10.0) < 1e-9);
    assert_true(fabsf(e->at.x - 300) < 1 && fabsf(e->at.y - 300) < 1);
    assert_int_equal(st->version, 1);
    assert_true(st->table.frame.cards[0].read);
    assert_string_equal(st->table.frame.cards[0].text, "2GST");
    assert_int_equal(st->id[0], e->id);
    /* Nothing more happens while the card lies still. */
    assert_int_equal(steps(20), 0);
    assert_int_equal(st->version, 1);
}

static void configurable_stable_frames(void **state)
{
    (void)state;
    ts_tracker_config c = {.stable_frames = 2};
    ts_tracker *t = ts_tracker_create(&c);
    clear();
    put(300, 300, "2GST", 1);
    assert_int_equal(ts_tracker_update(t, &frame, 1, 0.1)->table.frame.ncards, 0);
    assert_int_equal(ts_tracker_update(t, &frame, 2, 0.2)->table.frame.ncards, 1);
    ts_tracker_destroy(t);
}

static void brief_detections_never_show(void **state)
{
    (void)state;
    /* A hand sweeping over the table: card-like blobs that move and whose
     * readings never agree. */
    static const char *junk[] = {"1RDS", "3GOO", "2PST"};
    for (int i = 0; i < 30; i++) {
        clear();
        put(100 + 37 * i, 400, junk[i % 3], i % 4 != 0);
        if (i % 3 == 0)
            put(900, 100 + 40 * i, "3POS", 1);
        assert_int_equal(step()->nevents, 0);
        assert_int_equal(st->table.frame.ncards, 0);
    }
    /* Three frames in place then gone: still nothing. */
    clear();
    put(500, 500, "2PDO", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames - 1);
    clear();
    assert_int_equal(steps(10), 0);
    assert_int_equal(st->version, 0);
}

static void disagreeing_readings_stay_unread(void **state)
{
    (void)state;
    /* The card is there but its reading flips every frame: it joins late,
     * as unread, and no Set is built on it. */
    int N = TS_TRACKER_DEFAULTS.stable_frames, joined_at = -1;
    for (int i = 0; i < 3 * N; i++) {
        clear();
        put(300, 300, i % 2 ? "1RDS" : "1RDO", 1);
        step();
        if (joined_at < 0 && st->table.frame.ncards == 1)
            joined_at = i + 1;
    }
    assert_int_equal(joined_at, 2 * N);
    assert_false(st->table.frame.cards[0].read);
    assert_int_equal(st->table.nsets, 0);
}

static void unread_frames_do_not_break_agreement(void **state)
{
    (void)state;
    /* read, unread, read, unread ...: the reads agree, the card joins read. */
    for (int i = 0; i < 2 * TS_TRACKER_DEFAULTS.stable_frames; i++) {
        clear();
        put(300, 300, "3ROS", i % 2 == 0);
        step();
    }
    assert_int_equal(st->table.frame.ncards, 1);
    assert_true(has_card("3ROS"));
}

static void unread_card_joins_then_reread(void **state)
{
    (void)state;
    int N = TS_TRACKER_DEFAULTS.stable_frames;
    clear();
    put(300, 300, "2GST", 0);
    steps(2 * N);
    assert_int_equal(st->table.frame.ncards, 1);
    assert_false(st->table.frame.cards[0].read);
    assert_true(st->table.frame.cards[0].conf < 0.5f);
    const ts_event *e = &st->events[0];
    assert_int_equal(e->type, TS_EV_ADDED);
    assert_string_equal(e->code, "");
    clear();
    put(300, 300, "2GST", 1);
    steps(N - 1);
    assert_false(st->table.frame.cards[0].read);
    step();
    e = find_event(TS_EV_REREAD);
    assert_non_null(e);
    assert_string_equal(e->from, "");
    assert_string_equal(e->code, "2GST");
    assert_true(has_card("2GST"));
}

/* ---- Occlusion, removal ------------------------------------------------- */

static void covered_card_is_kept_briefly(void **state)
{
    (void)state;
    deal_twelve();
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    assert_int_equal(st->table.frame.ncards, 12);
    uint64_t v = st->version;
    int nsets = st->table.nsets;
    /* A hand covers two cards for keep_frames frames: the table is unchanged
     * (no events), but once they are gone (TS_TRACK_GONE_AFTER frames unseen)
     * no Set is built on them. */
    deal_twelve();
    frame.ncards = 10;
    for (int i = 0; i < TS_TRACKER_DEFAULTS.keep_frames; i++) {
        assert_int_equal(step()->nevents, 0);
        assert_int_equal(st->table.frame.ncards, 12);
        int gone = i + 1 >= TS_TRACK_GONE_AFTER;
        for (int k = 0; k < st->table.nsets; k++)
            for (int j = 0; j < 3; j++)
                assert_true(!gone || st->table.sets[k][j] < 10);
        if (!gone)
            assert_int_equal(st->table.nsets, nsets);
    }
    assert_true(st->table.nsets < nsets);
    assert_true(st->table.frame.cards[11].read); /* still read: only left out of hints */
    assert_int_equal(st->table.view.unread, 0);     /* and not counted as unread */
    assert_int_equal(st->version, v);
    assert_int_equal(st->missing[11], TS_TRACKER_DEFAULTS.keep_frames);
    assert_int_equal(st->missing[0], 0);
    /* They come back: still the same cards, same ids, no events, every Set again. */
    deal_twelve();
    assert_int_equal(steps(5), 0);
    assert_int_equal(st->missing[11], 0);
    assert_int_equal(st->table.nsets, nsets);
}

static void card_taken_away_is_removed(void **state)
{
    (void)state;
    deal_twelve();
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    int id = st->id[2];
    deal_twelve();
    frame.cards[2] = frame.cards[11];
    frame.ncards = 11; /* 3RDS taken */
    int removed_at = -1;
    for (int i = 0; i < 20 && removed_at < 0; i++) {
        step();
        if (find_event(TS_EV_REMOVED))
            removed_at = i + 1;
    }
    assert_int_equal(removed_at, TS_TRACKER_DEFAULTS.keep_frames + 1);
    const ts_event *e = find_event(TS_EV_REMOVED);
    assert_int_equal(e->id, id);
    assert_string_equal(e->code, "3RDS");
    assert_int_equal(st->table.frame.ncards, 11);
    assert_false(has_card("3RDS"));
}

static void empty_frames_clear_the_table(void **state)
{
    (void)state;
    deal_twelve();
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    clear();
    int ev = steps(TS_TRACKER_DEFAULTS.keep_frames + 1);
    assert_int_equal(ev, 12);
    assert_int_equal(st->table.frame.ncards, 0);
    assert_int_equal(st->table.nsets, 0);
}

/* ---- Moves -------------------------------------------------------------- */

static void slid_card_reports_one_move_when_it_settles(void **state)
{
    (void)state;
    clear();
    put(300, 300, "1PDS", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    int id = st->id[0];
    /* Slide 200 px right in 20 px steps (a card at rest never moves by 20 px). */
    int moves = 0;
    for (int x = 320; x <= 500; x += 20) {
        clear();
        put((float)x, 300, "1PDS", 1);
        step();
        moves += find_event(TS_EV_MOVED) != NULL;
    }
    clear();
    put(500, 300, "1PDS", 1);
    for (int i = 0; i < 10; i++) {
        step();
        moves += find_event(TS_EV_MOVED) != NULL;
    }
    assert_int_equal(moves, 1);
    assert_int_equal(st->table.frame.ncards, 1);
    assert_int_equal(st->id[0], id);
    assert_true(fabsf(st->table.frame.cards[0].quad[0].x - 450) < 2);
}

static void jitter_is_not_a_move(void **state)
{
    (void)state;
    clear();
    put(300, 300, "1PDS", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    for (int i = 0; i < 50; i++) {
        clear();
        put(300 + (float)((i * 7) % 5) - 2, 300 + (float)((i * 3) % 5) - 2, "1PDS", 1);
        assert_int_equal(step()->nevents, 0);
    }
}

static void picked_up_and_put_down_elsewhere_is_a_move(void **state)
{
    (void)state;
    clear();
    put(300, 300, "2RSO", 1);
    put(700, 300, "1GDT", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    int id = st->id[0];
    /* Gone for two frames (in the hand), then far away. */
    clear();
    put(700, 300, "1GDT", 1);
    steps(2);
    put(300, 600, "2RSO", 1);
    int added = 0, removed = 0, moved = 0;
    for (int i = 0; i < 15; i++) {
        step();
        added += find_event(TS_EV_ADDED) != NULL;
        removed += find_event(TS_EV_REMOVED) != NULL;
        if (find_event(TS_EV_MOVED)) {
            const ts_event *e = find_event(TS_EV_MOVED);
            moved++;
            assert_int_equal(e->id, id);
            assert_true(fabsf(e->was.y - 300) < 1);
            assert_true(fabsf(e->at.y - 600) < 1);
        }
    }
    assert_int_equal(moved, 1);
    assert_int_equal(added, 0);
    assert_int_equal(removed, 0);
    assert_int_equal(st->table.frame.ncards, 2);
}

static void neighbours_keep_their_ids(void **state)
{
    (void)state;
    clear();
    put(300, 300, "1RDS", 1);
    put(410, 300, "2RDS", 1); /* touching */
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    int a = st->id[0], b = st->id[1];
    for (int i = 0; i < 10; i++) { /* both drift right together */
        clear();
        put(300 + 4.0f * i, 300, "1RDS", 1);
        put(410 + 4.0f * i, 300, "2RDS", 1);
        step();
    }
    assert_int_equal(st->table.frame.ncards, 2);
    assert_int_equal(st->id[0], a);
    assert_int_equal(st->id[1], b);
    assert_string_equal(st->table.frame.cards[0].text, "1RDS");
    assert_string_equal(st->table.frame.cards[1].text, "2RDS");
}

/* ---- Readings ----------------------------------------------------------- */

static void reread_needs_agreement(void **state)
{
    (void)state;
    int N = TS_TRACKER_DEFAULTS.stable_frames;
    clear();
    put(300, 300, "2GST", 1);
    steps(N);
    /* A single misread (a finger over the card) changes nothing. */
    clear();
    put(300, 300, "2GSO", 1);
    assert_int_equal(steps(N - 1), 0);
    clear();
    put(300, 300, "2GST", 1);
    assert_int_equal(steps(N), 0);
    assert_true(has_card("2GST"));
    /* A new reading held for N frames is a re-read (the card was swapped). */
    clear();
    put(300, 300, "3PDO", 1);
    assert_int_equal(steps(N - 1), 0);
    step();
    const ts_event *e = find_event(TS_EV_REREAD);
    assert_non_null(e);
    assert_string_equal(e->from, "2GST");
    assert_string_equal(e->code, "3PDO");
    assert_true(has_card("3PDO"));
    assert_false(has_card("2GST"));
}

static void unread_frames_keep_a_stable_reading(void **state)
{
    (void)state;
    clear();
    put(300, 300, "2GST", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    clear();
    put(300, 300, "2GST", 0);
    assert_int_equal(steps(30), 0);
    assert_true(has_card("2GST"));
}

/* ---- The Sets of the stable table --------------------------------------- */

static void sets_are_solved_on_the_stable_table(void **state)
{
    (void)state;
    deal_twelve();
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    /* Known Sets among TWELVE: rows of counts 1-2-3 in one colour/shape/shading. */
    const ts_table *tab = &st->table;
    assert_true(tab->nsets >= 3);
    for (int s = 0; s < tab->nsets; s++) {
        int i = tab->sets[s][0], j = tab->sets[s][1], k = tab->sets[s][2];
        assert_true(i < j && j < k && k < tab->frame.ncards);
        int a = tab->frame.cards[i].code.idx, b = tab->frame.cards[j].code.idx, c = tab->frame.cards[k].code.idx;
        for (int at = 0; at < 4; at++)
            assert_int_equal((ts_set_attr(a, at) + ts_set_attr(b, at) + ts_set_attr(c, at)) % 3, 0);
    }
    int found = 0; /* 1RDS 2RDS 3RDS */
    for (int s = 0; s < tab->nsets; s++)
        found += strcmp(tab->frame.cards[tab->sets[s][0]].text, "1RDS") == 0 &&
                 strcmp(tab->frame.cards[tab->sets[s][1]].text, "2RDS") == 0 &&
                 strcmp(tab->frame.cards[tab->sets[s][2]].text, "3RDS") == 0;
    assert_int_equal(found, 1);
    assert_false(tab->conflict);
}

static void hints_ignore_unstable_cards(void **state)
{
    (void)state;
    /* Two stable cards; the third of their Set is only just dealt. */
    clear();
    put(200, 300, "1RDS", 1);
    put(400, 300, "2RDS", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    put(600, 300, "3RDS", 1);
    for (int i = 1; i < TS_TRACKER_DEFAULTS.stable_frames; i++) {
        step();
        assert_int_equal(st->table.nsets, 0);
    }
    step();
    assert_int_equal(st->table.nsets, 1);
}

static void unread_table_cards_are_not_in_sets(void **state)
{
    (void)state;
    clear();
    put(200, 300, "1RDS", 1);
    put(400, 300, "2RDS", 1);
    put(600, 300, "3RDS", 0);
    steps(2 * TS_TRACKER_DEFAULTS.stable_frames);
    assert_int_equal(st->table.frame.ncards, 3);
    assert_int_equal(st->table.nsets, 0);
}

static void duplicate_readings_are_a_conflict(void **state)
{
    (void)state;
    clear();
    put(200, 300, "1RDS", 1);
    put(500, 300, "1RDS", 1);
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    assert_int_equal(st->table.frame.ncards, 2);
    assert_true(st->table.conflict);
}

static void version_bumps_only_on_change(void **state)
{
    (void)state;
    deal_twelve();
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    assert_int_equal(st->version, 1); /* all twelve joined in one update */
    assert_int_equal(st->nevents, 12);
    steps(10);
    assert_int_equal(st->version, 1);
    assert_int_equal(st->frame, frame_no);
    assert_int_equal(st->table.frame.w, 1280);
}

/* ---- Limits and bad input ----------------------------------------------- */

static void full_table_and_bad_quads(void **state)
{
    (void)state;
    clear();
    for (int i = 0; i < TS_MAX_CARDS; i++) {
        char code[8];
        ts_set_format(NULL, i, code);
        put(60 + 120 * (i % 10), 80 + 160 * (i / 10), code, 1);
    }
    frame.ncards = TS_MAX_CARDS + 50; /* a bogus count is clamped */
    steps(TS_TRACKER_DEFAULTS.stable_frames);
    assert_int_equal(st->table.frame.ncards, TS_MAX_CARDS);
    assert_true(st->table.nsets > 0 && st->table.nsets <= TS_MAX_SETS);

    ts_tracker *t = ts_tracker_create(NULL);
    clear();
    put(300, 300, "1RDS", 1);
    frame.cards[0].quad[1].x = NAN;
    put(500, 300, "2RDS", 1);
    for (int i = 0; i < 3; i++)
        frame.cards[1].quad[i] = frame.cards[1].quad[3]; /* degenerate: a point */
    frame.ncards = -3;
    ts_tracker_update(t, &frame, 1, 0);
    frame.ncards = 2;
    const ts_stable *s = NULL;
    for (int i = 0; i < 10; i++)
        s = ts_tracker_update(t, &frame, (uint64_t)i + 2, i);
    assert_int_equal(s->table.frame.ncards, 0);
    ts_tracker_destroy(t);
}

static void event_names(void **state)
{
    (void)state;
    assert_string_equal(ts_event_name(TS_EV_ADDED), "added");
    assert_string_equal(ts_event_name(TS_EV_REMOVED), "removed");
    assert_string_equal(ts_event_name(TS_EV_MOVED), "moved");
    assert_string_equal(ts_event_name(TS_EV_REREAD), "reread");
    assert_string_equal(ts_event_name((ts_event_type)42), "?");
}

/* A long random-ish game: deals, takes, hands, misreads. The table must never
 * exceed what lies on it, ids never repeat, and it ends with what is there. */
static void long_game_settles_on_the_truth(void **state)
{
    (void)state;
    unsigned seed = 12345;
    int present[12] = {0};
    for (int round = 0; round < 200; round++) {
        seed = seed * 1103515245u + 12345u;
        int slot = (int)((seed >> 8) % 12);
        present[slot] = !present[slot];
        for (int f = 0; f < 15; f++) {
            seed = seed * 1103515245u + 12345u;
            clear();
            for (int i = 0; i < 12; i++) {
                if (!present[i])
                    continue;
                int hidden = (seed >> (i % 16)) % 9 == 0; /* a hand over it */
                int misread = (seed >> ((i + 5) % 16)) % 11 == 0;
                if (hidden)
                    continue;
                put(150 + 250 * (i % 4), 120 + 220 * (i / 4), misread ? "1GDO" : TWELVE[i], 1);
            }
            step();
            assert_true(st->table.frame.ncards <= 12);
            for (int a = 0; a < st->table.frame.ncards; a++)
                for (int b = 0; b < a; b++)
                    assert_true(st->id[a] > st->id[b]);
        }
    }
    /* The hands leave: after keep + stable frames the table is exactly what lies there. */
    clear();
    int n = 0;
    for (int i = 0; i < 12; i++)
        if (present[i]) {
            put(150 + 250 * (i % 4), 120 + 220 * (i / 4), TWELVE[i], 1);
            n++;
        }
    steps(TS_TRACKER_DEFAULTS.keep_frames + TS_TRACKER_DEFAULTS.stable_frames + 1);
    assert_int_equal(st->table.frame.ncards, n);
    for (int i = 0; i < 12; i++)
        assert_int_equal(has_card(TWELVE[i]), present[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(card_joins_after_stable_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(configurable_stable_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(brief_detections_never_show, setup, teardown),
        cmocka_unit_test_setup_teardown(disagreeing_readings_stay_unread, setup, teardown),
        cmocka_unit_test_setup_teardown(unread_frames_do_not_break_agreement, setup, teardown),
        cmocka_unit_test_setup_teardown(unread_card_joins_then_reread, setup, teardown),
        cmocka_unit_test_setup_teardown(covered_card_is_kept_briefly, setup, teardown),
        cmocka_unit_test_setup_teardown(card_taken_away_is_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(empty_frames_clear_the_table, setup, teardown),
        cmocka_unit_test_setup_teardown(slid_card_reports_one_move_when_it_settles, setup, teardown),
        cmocka_unit_test_setup_teardown(jitter_is_not_a_move, setup, teardown),
        cmocka_unit_test_setup_teardown(picked_up_and_put_down_elsewhere_is_a_move, setup, teardown),
        cmocka_unit_test_setup_teardown(neighbours_keep_their_ids, setup, teardown),
        cmocka_unit_test_setup_teardown(reread_needs_agreement, setup, teardown),
        cmocka_unit_test_setup_teardown(unread_frames_keep_a_stable_reading, setup, teardown),
        cmocka_unit_test_setup_teardown(sets_are_solved_on_the_stable_table, setup, teardown),
        cmocka_unit_test_setup_teardown(hints_ignore_unstable_cards, setup, teardown),
        cmocka_unit_test_setup_teardown(unread_table_cards_are_not_in_sets, setup, teardown),
        cmocka_unit_test_setup_teardown(duplicate_readings_are_a_conflict, setup, teardown),
        cmocka_unit_test_setup_teardown(version_bumps_only_on_change, setup, teardown),
        cmocka_unit_test_setup_teardown(full_table_and_bad_quads, setup, teardown),
        cmocka_unit_test(event_names),
        cmocka_unit_test_setup_teardown(long_game_settles_on_the_truth, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
