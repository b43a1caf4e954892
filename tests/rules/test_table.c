/* The table over frames: zones, the game-neutral tracker, the referee and the
 * Eleusis dealer, fed with card tables frame by frame (the way the pipeline
 * will). Scripted plays of every game; verdicts must match exactly, and a hand
 * sweeping over the table is no move. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "eleusis_dealer.h"
#include "game.h"
#include "referee.h"
#include "set.h"
#include "table_tracker.h"
#include "zones.h"

enum { W = 1280, H = 720, CW = 60, CH = 90 };

/* ---- A scripted table ------------------------------------------------------ */

typedef struct {
    int n;
    ts_card cards[TS_MAX_CARDS];
} scene;

static void put(scene *s, ts_family fam, const char *code, float x, float y)
{
    ts_card *c = &s->cards[s->n++];
    memset(c, 0, sizeof *c);
    assert_int_equal(ts_code_parse(fam, code, strlen(code), &c->code), 0);
    ts_code_format(c->code, c->text);
    c->conf = 0.95f;
    c->read = 1;
    c->quad[0] = (ts_pt){x - CW / 2.0f, y - CH / 2.0f};
    c->quad[1] = (ts_pt){x + CW / 2.0f, y - CH / 2.0f};
    c->quad[2] = (ts_pt){x + CW / 2.0f, y + CH / 2.0f};
    c->quad[3] = (ts_pt){x - CW / 2.0f, y + CH / 2.0f};
}

/* Cards laid in a row from (x, y), `gap` apart. */
static void row(scene *s, ts_family fam, const char *codes, float x, float y, float gap)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", codes);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "), x += gap)
        put(s, fam, tok, x, y);
}

static int drop(scene *s, const char *code)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->cards[i].text, code) == 0) {
            s->cards[i] = s->cards[--s->n];
            return 1;
        }
    return 0;
}

static ts_card *find(scene *s, const char *code)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->cards[i].text, code) == 0)
            return &s->cards[i];
    return NULL;
}

/* The live loop without a camera: tracker -> zones -> referee. */
typedef struct {
    const ts_game *game;
    ts_table_tracker *trk;
    ts_referee *ref;
    ts_zones zones;
    uint64_t frame;
    int nverdicts;
    ts_verdict verdicts[32];
} table;

static void table_open(table *t, const char *game)
{
    memset(t, 0, sizeof *t);
    t->game = ts_game_find(game);
    assert_non_null(t->game);
    t->trk = ts_table_tracker_create(NULL);
    t->ref = ts_referee_create(t->game, NULL);
    ts_zones_default(game, &t->zones);
}

static void table_close(table *t)
{
    ts_referee_destroy(t->ref);
    ts_table_tracker_destroy(t->trk);
}

/* One frame: cards seen (extra unreadable blobs such as a hand included). */
static void feed(table *t, const ts_card *cards, int n)
{
    const ts_table_stable *st = ts_table_tracker_update(t->trk, cards, n, W, H, t->frame,
                                                        (double)t->frame / 30.0);
    int zone[TS_MAX_CARDS];
    for (int i = 0; i < st->ncards; i++)
        zone[i] = ts_zones_card(&t->zones, &st->cards[i], st->w, st->h);
    ts_verdict v;
    int busy = st->tentative;
    for (int i = 0; i < st->ncards; i++)
        busy += st->missing[i] > 0;
    if (ts_referee_update(t->ref, st->cards, st->id, zone, st->ncards, st->w, st->h, busy,
                          (double)t->frame / 30.0, &v) &&
        v.kind != TS_VERDICT_NONE && t->nverdicts < 32)
        t->verdicts[t->nverdicts++] = v;
    t->frame++;
}

static void hold(table *t, const scene *s, int frames)
{
    for (int f = 0; f < frames; f++)
        feed(t, s->cards, s->n);
}

static const ts_verdict *last(const table *t)
{
    for (int i = 0; i < t->nverdicts; i++)
        print_message("  verdict %d: %s '%s': %s\n", i, ts_verdict_kind_name(t->verdicts[i].kind),
                      t->verdicts[i].verdict, t->verdicts[i].reason);
    assert_true(t->nverdicts > 0);
    return &t->verdicts[t->nverdicts - 1];
}

static void expect(table *t, int nbefore, ts_verdict_kind kind, const char *verdict,
                   const char *reason)
{
    assert_int_equal(t->nverdicts, nbefore + 1);
    const ts_verdict *v = last(t);
    if (v->kind != kind || strcmp(v->verdict, verdict) != 0 ||
        (reason && strcmp(v->reason, reason) != 0))
        fail_msg("got %s '%s': %s", ts_verdict_kind_name(v->kind), v->verdict, v->reason);
}

/* ---- SET ----------------------------------------------------------------------- */

/* Board A of set.md (6 Sets): 3PSS 3PDO 2RDS 3PST 3GDO 1RST 2GSO 1PSS 3PSO 3ROO 3ROT 2ROT */
static const char *BOARD_A[12] = {"3PSS", "3PDO", "2RDS", "3PST", "3GDO", "1RST",
                                  "2GSO", "1PSS", "3PSO", "3ROO", "3ROT", "2ROT"};

static void deal_board(table *t, scene *s, const char *const *codes, int n)
{
    for (int i = 0; i < n; i++) { /* one card every two frames */
        put(s, TS_FAM_SET, codes[i], 200.0f + (float)(i % 4) * 120, 150.0f + (float)(i / 4) * 140);
        hold(t, s, 2);
    }
    hold(t, s, 20);
}

static void test_set_deal_and_claims(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "set");
    deal_board(&t, &s, BOARD_A, 12);
    assert_int_equal(t.nverdicts, 0); /* a deal is no verdict */

    /* live hints on the stable table */
    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    ts_game_state gs = {st->cards, st->ncards, NULL, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_int_equal(v.count, 6);
    assert_string_equal(v.headline, "6 Sets");
    ts_game_opts one = {.hint_level = 1};
    ts_game_analyse(t.game, &gs, &one, &v);
    assert_int_equal(v.show_groups, 1);
    assert_int_equal(v.show_cards, 1);

    /* a valid claim: {3PSS 3PST 3PSO} taken */
    drop(&s, "3PSS"), drop(&s, "3PST"), drop(&s, "3PSO");
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_LEGAL, "valid Set", NULL);
    assert_int_equal(last(&t)->ncards, 3);
    /* an invalid claim: 2RDS 3GDO 1RST (colour: two red, one green) */
    drop(&s, "2RDS"), drop(&s, "3GDO"), drop(&s, "1RST");
    hold(&t, &s, 25);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "not a Set", "colour: two are the same and one is different");
    table_close(&t);
}

/* Twelve cards without a Set (a cap): +3 is right; with a Set on the table it is the
 * seed's penalty. */
static void test_set_three_more(void **state)
{
    (void)state;
    /* no Set among these twelve (checked below) */
    static const char *NO_SET[12] = {"1RDS", "1RDT", "1RSS", "1RST", "1GDS", "1GDT",
                                     "1GSS", "1GST", "2RDS", "2RDT", "2RSS", "2RST"};
    int idx[12], set[3];
    for (int i = 0; i < 12; i++) {
        ts_code c;
        ts_code_parse(TS_FAM_SET, NO_SET[i], 4, &c);
        idx[i] = c.idx;
    }
    assert_false(ts_set_exists(idx, 12, set));
    table t;
    scene s = {0};
    table_open(&t, "set");
    deal_board(&t, &s, NO_SET, 12);
    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    ts_game_state gs = {st->cards, st->ncards, NULL, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_string_equal(v.headline, "no Set: deal three more");
    row(&s, TS_FAM_SET, "3PSO 3POO 3PDO", 700, 150, 120);
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_LEGAL, "three more", "there was no Set on the table");
    table_close(&t);

    table_open(&t, "set");
    scene a = {0};
    deal_board(&t, &a, BOARD_A, 12);
    row(&a, TS_FAM_SET, "1GOO 2GOO 1GDO", 700, 150, 120);
    hold(&t, &a, 25);
    expect(&t, 0, TS_VERDICT_ILLEGAL, "penalty", NULL);
    assert_non_null(strstr(last(&t)->reason, "1 point off"));
    table_close(&t);
}

/* A hand sweeping over the table hides cards and shows unreadable blobs that
 * move: no move, whatever the speed. */
static void test_hand_sweep_is_no_move(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "set");
    deal_board(&t, &s, BOARD_A, 12);
    for (int f = 0; f < 30; f++) {
        ts_card seen[TS_MAX_CARDS + 2];
        int n = 0;
        float hx = 100.0f + (float)f * 25; /* the hand's x */
        for (int i = 0; i < s.n; i++)
            if (fabsf(s.cards[i].quad[0].x + CW / 2.0f - hx) > 100)
                seen[n++] = s.cards[i]; /* not under the hand */
        ts_card hand = s.cards[0];
        hand.read = 0;
        hand.conf = 0.1f;
        for (int k = 0; k < 4; k++)
            hand.quad[k].x += hx - 200, hand.quad[k].y += 200;
        seen[n++] = hand;
        feed(&t, seen, n);
    }
    hold(&t, &s, 30);
    assert_int_equal(t.nverdicts, 0);
    table_close(&t);
}

/* ---- Gang of Four: a trick with a wrong play ----------------------------------------- */

static void play(table *t, scene *s, ts_family fam, const char *codes, float x)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", codes);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        assert_true(drop(s, tok));
    row(s, fam, codes, x, 200, 70);
    hold(t, s, 25);
}

static void test_gof_trick(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "gof");
    row(&s, TS_FAM_GOF, "G5 Y5 Y4 R4 R7 R7 G9 M1", 150, 560, 80); /* the hand, near the camera */
    hold(&t, &s, 25);
    assert_int_equal(t.nverdicts, 0);

    /* hints while leading */
    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    int zone[TS_MAX_CARDS];
    for (int i = 0; i < st->ncards; i++)
        zone[i] = ts_zones_card(&t.zones, &st->cards[i], W, H);
    ts_game_state gs = {st->cards, st->ncards, zone, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_true(v.leading);
    assert_true(v.count > 0);

    play(&t, &s, TS_FAM_GOF, "G5 Y5", 300);
    expect(&t, 0, TS_VERDICT_LEGAL, "legal", "pair leads");
    play(&t, &s, TS_FAM_GOF, "Y4 R4", 500);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "illegal", "pair: it is lower than the trick");
    play(&t, &s, TS_FAM_GOF, "R7 R7", 700);
    expect(&t, 2, TS_VERDICT_LEGAL, "legal", "pair beats Y5 G5");

    /* hints against the trick now on the table: R7 R7 is the newest play but the
     * zone holds every play, so the hints follow the referee, not the zone */
    st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    for (int i = 0; i < st->ncards; i++)
        zone[i] = ts_zones_card(&t.zones, &st->cards[i], W, H);
    gs = (ts_game_state){st->cards, st->ncards, zone, W, H};
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_non_null(strstr(v.headline, "the trick is no combination"));
    const ts_game_memory *mem = ts_referee_memory(t.ref);
    ts_game_opts opts = TS_GAME_OPTS_DEFAULT;
    opts.ntrick = mem->nlast;
    memcpy(opts.trick, mem->last, sizeof(ts_code) * (size_t)mem->nlast);
    ts_game_analyse(t.game, &gs, &opts, &v);
    assert_string_equal(v.headline, "pass: nothing beats the pair"); /* G9 M1 left: no pair */
    assert_int_equal(v.group[0].n, 2);
    assert_string_equal(st->cards[v.group[0].card[0]].text, "R7");

    /* all pass, the trick is cleared: the last play wins */
    drop(&s, "G5"), drop(&s, "Y5"), drop(&s, "Y4"), drop(&s, "R4"), drop(&s, "R7"), drop(&s, "R7");
    hold(&t, &s, 25);
    expect(&t, 3, TS_VERDICT_INFO, "trick won",
           "all passed: the last play (R7 R7) wins the trick and leads next");
    table_close(&t);
}

/* Cards in a column from (x, y) downwards, `gap` apart. */
static void column(scene *s, ts_family fam, const char *codes, float x, float y, float gap)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", codes);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "), y += gap)
        put(s, fam, tok, x, y);
}

/* Three seats, each hand in its own zone: who played, the trick won by a
 * seat, and the hand over when seat 1 plays its last cards, scored by the seed. */
static void test_gof_seats_hand_end(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "gof");
    ts_zones_default_seats("gof", 3, &t.zones); /* hand1 below, hand2 right, hand3 left */
    row(&s, TS_FAM_GOF, "G5 Y5 R9 R9", 420, 620, 80);
    column(&s, TS_FAM_GOF, "Y4 R4 G2 G6", 1100, 80, 100);
    column(&s, TS_FAM_GOF, "G7 R7 G8 Y8", 60, 80, 100);
    column(&s, TS_FAM_GOF, "R1 G1 Y1 R2", 160, 80, 100);
    column(&s, TS_FAM_GOF, "G3 Y3 R3 Y6", 260, 80, 100);
    hold(&t, &s, 25);
    assert_int_equal(t.nverdicts, 0);
    play(&t, &s, TS_FAM_GOF, "G5 Y5", 380);
    expect(&t, 0, TS_VERDICT_LEGAL, "legal", "pair leads");
    assert_int_equal(last(&t)->seat, 1);
    play(&t, &s, TS_FAM_GOF, "Y4 R4", 540);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "illegal", "pair: it is lower than the trick");
    assert_int_equal(last(&t)->seat, 2);
    play(&t, &s, TS_FAM_GOF, "G7 R7", 700);
    expect(&t, 2, TS_VERDICT_LEGAL, "legal", "pair beats Y5 G5");
    assert_int_equal(last(&t)->seat, 3);
    drop(&s, "G5"), drop(&s, "Y5"), drop(&s, "Y4"), drop(&s, "R4"), drop(&s, "G7"), drop(&s, "R7");
    hold(&t, &s, 25);
    expect(&t, 3, TS_VERDICT_INFO, "trick won",
           "all passed: seat 3's last play (R7 G7) wins the trick; seat 3 leads next");
    assert_int_equal(last(&t)->seat, 3);
    play(&t, &s, TS_FAM_GOF, "G8 Y8", 380);
    expect(&t, 4, TS_VERDICT_LEGAL, "legal", "pair leads");
    assert_false(last(&t)->hand_over);
    play(&t, &s, TS_FAM_GOF, "R9 R9", 540); /* seat 1's last two cards */
    expect(&t, 5, TS_VERDICT_LEGAL, "legal",
           "pair beats Y8 G8; seat 1 is out: the hand is over, seat 2 2 points, seat 3 16 points");
    const ts_verdict *v = last(&t);
    assert_int_equal(v->seat, 1);
    assert_true(v->hand_over);
    assert_false(v->game_over);
    assert_int_equal(v->scores, TS_SCORES_PENALTY);
    assert_int_equal(v->nscores, 3);
    /* 0 cards: 0; 2 cards x1; 8 cards x2 (seed 001: 8-10 cards count double) */
    int want_left[3] = {0, 2, 8}, want_points[3] = {0, 2, 16};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(v->score[k].seat, k + 1);
        assert_int_equal(v->score[k].cards_left, want_left[k]);
        assert_int_equal(v->score[k].points, want_points[k]);
        assert_int_equal(v->score[k].total, want_points[k]);
    }
    assert_int_equal(ts_referee_memory(t.ref)->nlast, 0); /* the next hand leads afresh */
    table_close(&t);
}

/* Hints from a hand against a trick of one play. */
static void test_gof_hints(void **state)
{
    (void)state;
    scene s = {0};
    row(&s, TS_FAM_GOF, "G8 Y8", 300, 200, 70);
    row(&s, TS_FAM_GOF, "G3 Y3 R9 R9 G7 Y7 Y7", 150, 560, 80);
    ts_zones z;
    ts_zones_default("gof", &z);
    int zone[TS_MAX_CARDS];
    for (int i = 0; i < s.n; i++)
        zone[i] = ts_zones_card(&z, &s.cards[i], W, H);
    ts_game_state gs = {s.cards, s.n, zone, W, H};
    ts_game_view v;
    ts_game_analyse(&TS_GAME_GOF, &gs, NULL, &v);
    assert_int_equal(v.count, 1); /* R9 R9 only */
    assert_string_equal(v.headline, "1 play (or pass)");
    assert_int_equal(v.group[1].n, 2);
    assert_string_equal(s.cards[v.group[1].card[0]].text, "R9");
    s.cards[0].code.idx = 29; /* the trick becomes R10 Y8: no combination */
    ts_game_analyse(&TS_GAME_GOF, &gs, NULL, &v);
    assert_non_null(strstr(v.headline, "the trick is no combination"));
    /* pass */
    scene p = {0};
    row(&p, TS_FAM_GOF, "R10 R10", 300, 200, 70);
    row(&p, TS_FAM_GOF, "G3 Y4", 150, 560, 80);
    for (int i = 0; i < p.n; i++)
        zone[i] = ts_zones_card(&z, &p.cards[i], W, H);
    gs = (ts_game_state){p.cards, p.n, zone, W, H};
    ts_game_analyse(&TS_GAME_GOF, &gs, NULL, &v);
    assert_true(v.pass);
    assert_string_equal(v.headline, "pass: nothing beats the pair");
}

/* ---- Sap Ng Wu: mixed plays -------------------------------------------------------- */

static void test_sapngwu_mixed(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "sapngwu");
    row(&s, TS_FAM_DOMINO, "1:3 2:3 2:3 1:1 3:5 3:5 4:4 3:4 2:5 6:6", 100, 560, 110);
    hold(&t, &s, 25);
    play(&t, &s, TS_FAM_DOMINO, "1:3 2:3 2:3", 250);
    expect(&t, 0, TS_VERDICT_LEGAL, "legal", NULL);
    assert_non_null(strstr(last(&t)->reason, "mixed fives"));
    /* same size, another composition: no beat */
    play(&t, &s, TS_FAM_DOMINO, "4:4 3:4 2:5", 600);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "illegal", NULL);
    assert_non_null(strstr(last(&t)->reason, "only the same number of cards from each suit"));
    play(&t, &s, TS_FAM_DOMINO, "1:1 3:5 3:5", 900);
    expect(&t, 2, TS_VERDICT_LEGAL, "legal", NULL);
    assert_non_null(strstr(last(&t)->reason, "beats mixed fives"));
    while (drop(&s, "1:3") || drop(&s, "2:3") || drop(&s, "1:1") || drop(&s, "3:5") ||
           drop(&s, "4:4") || drop(&s, "3:4") || drop(&s, "2:5"))
        ;
    hold(&t, &s, 25);
    expect(&t, 3, TS_VERDICT_INFO, "trick won", NULL);
    assert_non_null(strstr(last(&t)->reason, "3 wu"));
    table_close(&t);
}

/* Sap Ng Wu with seats: a trick's wu go to the seat that won it; the payment
 * ladder's first step (15 wu: 1 chip) is said when crossed; four identical
 * cards won unbeaten make the others pay that seat; a hand emptied with its
 * trick won ends the hand. */
static void test_sapngwu_seats_wu(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "sapngwu");
    ts_zones_default_seats("sapngwu", 3, &t.zones);
    row(&s, TS_FAM_DOMINO, "1:2 1:4", 420, 620, 110);
    column(&s, TS_FAM_DOMINO, "1:1 3:5 3:5 6:6 6:6", 1000, 60, 100);
    column(&s, TS_FAM_DOMINO, "6:6 6:6 4:5 4:5 4:5", 1100, 60, 100);
    column(&s, TS_FAM_DOMINO, "4:5 3:6 3:6 3:6 3:6", 1200, 60, 100);
    column(&s, TS_FAM_DOMINO, "2:4 5:6", 100, 100, 100);
    hold(&t, &s, 25);
    play(&t, &s, TS_FAM_DOMINO, "1:1 3:5 3:5", 400);
    expect(&t, 0, TS_VERDICT_LEGAL, "legal", NULL);
    assert_int_equal(last(&t)->seat, 2);
    while (drop(&s, "1:1") || drop(&s, "3:5"))
        ;
    hold(&t, &s, 25);
    expect(&t, 1, TS_VERDICT_INFO, "trick won", "seat 2's play (mixed eights (1 civil, 0 military 1, 2 military 2)) wins: 3 wu, "
           "3 this hand");
    assert_int_equal(last(&t)->scores, TS_SCORES_WU);
    assert_false(last(&t)->hand_over);
    /* twelve cards: four 6:6, four 4:5, four 3:6 - seat 2's whole hand */
    while (drop(&s, "6:6") || drop(&s, "4:5") || drop(&s, "3:6"))
        ;
    row(&s, TS_FAM_DOMINO, "6:6 6:6 6:6 6:6 4:5 4:5", 380, 150, 100);
    row(&s, TS_FAM_DOMINO, "4:5 4:5 3:6 3:6 3:6 3:6", 380, 350, 100);
    hold(&t, &s, 25);
    expect(&t, 2, TS_VERDICT_LEGAL, "legal", NULL);
    assert_int_equal(last(&t)->seat, 2);
    while (drop(&s, "6:6") || drop(&s, "4:5") || drop(&s, "3:6"))
        ;
    hold(&t, &s, 25);
    expect(&t, 3, TS_VERDICT_INFO, "trick won", NULL);
    const ts_verdict *v = last(&t);
    assert_non_null(strstr(v->reason, "wins: 12 wu, 15 this hand"));
    assert_non_null(strstr(v->reason, "four identical cards (x3): every other player pays seat 2 3 chips"));
    assert_non_null(strstr(v->reason, "seat 2 may declare: 1 chip from each other player"));
    assert_non_null(strstr(v->reason, "seat 2 has no cards left: the hand is over"));
    assert_true(v->hand_over);
    assert_int_equal(v->nscores, 3);
    assert_int_equal(v->score[1].seat, 2);
    assert_int_equal(v->score[1].total, 15);
    assert_int_equal(v->score[1].chips, 1);
    assert_int_equal(v->score[0].cards_left, 2);
    assert_int_equal(v->score[2].chips, 0);
    table_close(&t);
}

/* ---- Qwirkle with tiles on a board: turns, lines and points ------------------------- */

static void test_qwirkle_tiles_turns(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "qwtiles");
    row(&s, TS_FAM_QWIRKLE, "RC RS", 400, 300, 64); /* the board as found */
    put(&s, TS_FAM_QWIRKLE, "GS", 464, 394);         /* under RS: a column of two */
    hold(&t, &s, 25);
    assert_int_equal(t.nverdicts, 0);
    row(&s, TS_FAM_QWIRKLE, "RT RL", 528, 300, 64);
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_LEGAL, "legal", "2 tiles in one line: 4 points");
    assert_int_equal(last(&t)->points, 4);
    put(&s, TS_FAM_QWIRKLE, "RS", 656, 300);
    hold(&t, &s, 25);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "illegal", "RC RS RT RL RS: two identical tiles in a line");
    s.n--; /* the wrong RS (the last laid) taken back */
    hold(&t, &s, 25);
    assert_int_equal(t.nverdicts, 3); /* a tile taken off the board: cannot judge */
    assert_int_equal(last(&t)->kind, TS_VERDICT_CANNOT);
    /* a column under RC, and a row GC GS: both lines score */
    put(&s, TS_FAM_QWIRKLE, "GC", 400, 394);
    put(&s, TS_FAM_QWIRKLE, "YC", 400, 488);
    hold(&t, &s, 25);
    expect(&t, 3, TS_VERDICT_LEGAL, "legal", "2 tiles in one line: 5 points"); /* RC GC YC, GC GS */
    put(&s, TS_FAM_QWIRKLE, "BD", 900, 600);
    put(&s, TS_FAM_QWIRKLE, "BX", 964, 600);
    hold(&t, &s, 25);
    expect(&t, 4, TS_VERDICT_ILLEGAL, "illegal", "the tiles laid touch no tile of the board");
    put(&s, TS_FAM_QWIRKLE, "OL", 1100, 100);
    put(&s, TS_FAM_QWIRKLE, "OC", 1100, 600);
    hold(&t, &s, 25);
    expect(&t, 5, TS_VERDICT_ILLEGAL, "illegal",
           "the tiles of a turn go in one line, touching each other or the board");
    /* the board's lines as the live view shows them */
    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 99);
    ts_game_state gs = {st->cards, st->ncards, NULL, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_string_equal(v.headline, "11 tiles, 5 lines, all valid");
    table_close(&t);
}

/* ---- Qwirkle: a turn with a rearrangement ------------------------------------------ */

static void test_qwirkle_rearrangement(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "qwirkle");
    row(&s, TS_FAM_QWIRKLE, "RC RX RD RS", 100, 120, 65);
    row(&s, TS_FAM_QWIRKLE, "OC OX OD OS", 700, 120, 65);
    row(&s, TS_FAM_QWIRKLE, "YC BC PL", 300, 560, 100);
    hold(&t, &s, 25);
    assert_int_equal(t.nverdicts, 0);

    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    int zone[TS_MAX_CARDS];
    for (int i = 0; i < st->ncards; i++)
        zone[i] = ts_zones_card(&t.zones, &st->cards[i], W, H);
    ts_game_state gs = {st->cards, st->ncards, zone, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_string_equal(v.headline, "2 groups valid | 3 plays");

    /* RC and OC move down to join YC and BC from the hand: a circles group */
    drop(&s, "YC"), drop(&s, "BC");
    ts_card *rc = find(&s, "RC"), *oc = find(&s, "OC");
    for (int k = 0; k < 4; k++)
        rc->quad[k].x += 300 - 100, rc->quad[k].y += 200, oc->quad[k].x += 365 - 700,
            oc->quad[k].y += 200;
    row(&s, TS_FAM_QWIRKLE, "YC BC", 430, 320, 65);
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_LEGAL, "valid", "every group on the table is valid");

    /* PL laid on the circles: invalid */
    drop(&s, "PL");
    put(&s, TS_FAM_QWIRKLE, "PL", 560, 320);
    hold(&t, &s, 25);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "invalid", NULL);
    assert_non_null(strstr(last(&t)->reason, "one colour with all shapes different"));
    table_close(&t);
}

/* ---- Eleusis: the dealer ---------------------------------------------------------------- */

static void test_eleusis_dealer_mainline(void **state)
{
    (void)state;
    char err[160];
    ts_eleusis_dealer *d = ts_eleusis_dealer_create("colour != prev.colour", 2, err, sizeof err);
    assert_non_null(d);
    table t;
    scene s = {0};
    table_open(&t, "eleusis");
    ts_referee_set_dealer(t.ref, d);
    put(&s, TS_FAM_PLAYING, "8H", 100, 150);
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_INFO, "starter", "8H starts the mainline");
    put(&s, TS_FAM_PLAYING, "3C", 180, 150);
    hold(&t, &s, 25);
    expect(&t, 1, TS_VERDICT_LEGAL, "right", "3C is right (player 1)");
    put(&s, TS_FAM_PLAYING, "5S", 260, 150);
    hold(&t, &s, 25);
    expect(&t, 2, TS_VERDICT_ILLEGAL, "wrong", "5S is wrong: to the sideline (player 2, 1 wrong)");
    /* the player takes it to the sideline: no verdict */
    drop(&s, "5S");
    put(&s, TS_FAM_PLAYING, "5S", 260, 560);
    hold(&t, &s, 25);
    assert_int_equal(t.nverdicts, 3);
    put(&s, TS_FAM_PLAYING, "QD", 260, 150);
    hold(&t, &s, 25);
    expect(&t, 3, TS_VERDICT_LEGAL, "right", "QD is right (player 1)");
    /* two cards at once: cannot judge */
    put(&s, TS_FAM_PLAYING, "2S", 340, 150);
    put(&s, TS_FAM_PLAYING, "4H", 420, 150);
    hold(&t, &s, 25);
    expect(&t, 4, TS_VERDICT_CANNOT, "cannot judge", NULL);

    assert_int_equal(ts_eleusis_dealer_end_phase1(d), 1); /* wrong 0,1: (0+1) - 2 x 0 */
    assert_int_equal(ts_eleusis_dealer_phase(d), 3);      /* player 1 holds none: over */
    char rule[128];
    ts_eleusis_dealer_reveal(d, rule, sizeof rule);
    assert_non_null(strstr(rule, "colour"));
    table_close(&t);
    ts_eleusis_dealer_destroy(d);
}

/* The seed's scoring through the dealer: phase 1 wrong counts, phase 2 plays. */
static void test_eleusis_dealer_phases(void **state)
{
    (void)state;
    char err[160];
    ts_eleusis_dealer *d = ts_eleusis_dealer_create("odd(value) != odd(prev.value)", 3, err,
                                                    sizeof err);
    assert_non_null(d);
    ts_verdict v;
    static const char *PLAYS[] = {"2H", "3C", "5D", "4S", "7H", "9C", "6D", "8S", "TC"};
    for (size_t i = 0; i < sizeof PLAYS / sizeof PLAYS[0]; i++) {
        ts_code c;
        ts_code_parse(TS_FAM_PLAYING, PLAYS[i], 2, &c);
        ts_eleusis_dealer_place(d, c, &v);
    }
    /* starter 2H; then p1 3C right, p2 5D wrong, p3 4S right, p1 7H right, p2 9C wrong,
     * p3 6D right, p1 8S wrong, p2 TC wrong */
    assert_int_equal(ts_eleusis_dealer_wrong(d, 0), 1);
    assert_int_equal(ts_eleusis_dealer_wrong(d, 1), 3);
    assert_int_equal(ts_eleusis_dealer_wrong(d, 2), 0);
    assert_int_equal(ts_eleusis_dealer_end_phase1(d), 4); /* (1+3+0) - 3 x 0 */
    assert_int_equal(ts_eleusis_dealer_phase(d), 3);      /* player 3 holds none: over */
    ts_eleusis_scores sc;
    assert_int_equal(ts_eleusis_dealer_scores(d, &sc), 0);
    assert_true(sc.player[2] == 4 + 6); /* (1+3+0) - 0, the best: +6 */
    ts_eleusis_dealer_destroy(d);
    assert_null(ts_eleusis_dealer_create("value >", 2, err, sizeof err));
}

/* ---- SET connection grid ----------------------------------------------------------------- */

static void test_set_grid_placements(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "setgrid");
    row(&s, TS_FAM_SET, "1RDS 2GOT", 400, 150, 100); /* the grid: row 0, columns 0 and 1 */
    row(&s, TS_FAM_SET, "3PSO 1GDO", 400, 560, 100); /* the hand */
    hold(&t, &s, 25);
    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    int zone[TS_MAX_CARDS];
    for (int i = 0; i < st->ncards; i++)
        zone[i] = ts_zones_card(&t.zones, &st->cards[i], W, H);
    ts_game_state gs = {st->cards, st->ncards, zone, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_int_equal(v.count, 2); /* 3PSO at either end of the row */
    assert_string_equal(v.headline, "2 placements, best +1");
    assert_string_equal(v.group[0].label, "+1: row 0 col -1");
    assert_string_equal(st->cards[v.group[0].card[0]].text, "3PSO");

    drop(&s, "3PSO");
    put(&s, TS_FAM_SET, "3PSO", 600, 150);
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_LEGAL, "legal", "+1: 1 Set completed");
    drop(&s, "1GDO");
    put(&s, TS_FAM_SET, "1GDO", 400, 250);
    hold(&t, &s, 25);
    expect(&t, 1, TS_VERDICT_ILLEGAL, "illegal", "the placement completes no Set: draw a card instead");
    table_close(&t);
}

/* ---- Zones, unread cards, too many changes ------------------------------------------ */

static void test_zones(void **state)
{
    (void)state;
    ts_zones z;
    char err[128];
    ts_zones_default("gof", &z);
    assert_int_equal(ts_zones_at(&z, 640, 100, W, H), TS_ZONE_TRICK);
    assert_int_equal(ts_zones_at(&z, 640, 700, W, H), TS_ZONE_HAND);
    ts_zones_default("set", &z);
    assert_int_equal(ts_zones_at(&z, 640, 700, W, H), TS_ZONE_TABLE);
    assert_int_equal(ts_zones_parse("# two zones\nhand 0 0.6 1 1\ntrick: 0.2,0,0.8,0.5\n", &z,
                                    err, sizeof err),
                     2);
    assert_int_equal(ts_zones_at(&z, 640, 700, W, H), TS_ZONE_HAND);
    assert_int_equal(ts_zones_at(&z, 640, 100, W, H), TS_ZONE_TRICK);
    assert_int_equal(ts_zones_at(&z, 50, 100, W, H), TS_ZONE_OFF);
    assert_int_equal(ts_zones_parse("pocket 0 0 1 1\n", &z, err, sizeof err), -1);
    assert_string_equal(err, "line 1: 'pocket' is not a zone (table, hand, hand1-hand4, trick, "
                             "mainline, sideline)");
    /* seated hands: their names, the seat in the zone value, the seats' default layout */
    assert_int_equal(ts_zones_parse("hand2 0 0 1 0.3\nhand1 0 0.7 1 1\ntrick 0 0.3 1 0.7\n", &z,
                                    err, sizeof err),
                     3);
    int top = ts_zones_at(&z, 640, 100, W, H);
    assert_int_equal(ts_zone_kind_of(top), TS_ZONE_HAND);
    assert_int_equal(ts_zone_seat(top), 2);
    assert_string_equal(ts_zone_name(top), "hand2");
    assert_string_equal(ts_zone_name(ts_zones_at(&z, 640, 400, W, H)), "trick");
    assert_int_equal(ts_zones_parse("hand5 0 0 1 1\n", &z, err, sizeof err), -1);
    ts_zones_default_seats("sapngwu", 4, &z);
    assert_string_equal(ts_zone_name(ts_zones_at(&z, 640, 700, W, H)), "hand1");
    assert_string_equal(ts_zone_name(ts_zones_at(&z, 1250, 360, W, H)), "hand2");
    assert_string_equal(ts_zone_name(ts_zones_at(&z, 640, 20, W, H)), "hand3");
    assert_string_equal(ts_zone_name(ts_zones_at(&z, 20, 360, W, H)), "hand4");
    assert_string_equal(ts_zone_name(ts_zones_at(&z, 640, 360, W, H)), "trick");
    ts_zones_default_seats("set", 4, &z); /* no seats outside the climbing games */
    assert_int_equal(ts_zones_at(&z, 640, 700, W, H), TS_ZONE_TABLE);
    assert_int_equal(ts_zones_add_spec(&z, "hand:0,0,1", err, sizeof err), -1);
    assert_int_equal(ts_zones_add_spec(&z, "mainline:0,0,1,0,1,0.5,0,0.5", err, sizeof err), 0);
}

static void test_cannot_judge(void **state)
{
    (void)state;
    table t;
    scene s = {0};
    table_open(&t, "set");
    for (int i = 0; i < 12; i++) {
        put(&s, TS_FAM_SET, BOARD_A[i], 200.0f + (float)(i % 4) * 120, 150.0f + (float)(i / 4) * 140);
        if (i == 0) { /* 3PSS is never read */
            s.cards[0].read = 0;
            s.cards[0].conf = 0.2f;
        }
    }
    hold(&t, &s, 30);
    assert_int_equal(t.nverdicts, 0);
    const ts_table_stable *st = ts_table_tracker_update(t.trk, s.cards, s.n, W, H, t.frame++, 9);
    ts_game_state gs = {st->cards, st->ncards, NULL, W, H};
    ts_game_view v;
    ts_game_analyse(t.game, &gs, NULL, &v);
    assert_int_equal(v.unread, 1);
    assert_int_equal(v.count, 3); /* the Sets of the 11 read cards */
    assert_string_equal(v.headline, "3 Sets | 1 unread");
    drop(&s, "3PSS"), drop(&s, "3PST"), drop(&s, "3PSO");
    hold(&t, &s, 25);
    expect(&t, 0, TS_VERDICT_CANNOT, "cannot judge", "a card taken was not read");
    table_close(&t);

    /* everything swept off at once */
    table_open(&t, "gof");
    scene g = {0};
    row(&g, TS_FAM_GOF, "G5 Y5 Y4 R4 R7 R7 G9 M1 G1 Y1 R1 G2 Y2 R2", 60, 560, 85);
    hold(&t, &g, 25);
    g.n = 0;
    row(&g, TS_FAM_GOF, "G3 Y3", 300, 200, 70);
    hold(&t, &g, 25);
    expect(&t, 0, TS_VERDICT_CANNOT, "cannot judge", "16 cards changed at once: too many for one move");
    table_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_deal_and_claims),
        cmocka_unit_test(test_set_three_more),
        cmocka_unit_test(test_hand_sweep_is_no_move),
        cmocka_unit_test(test_gof_trick),
        cmocka_unit_test(test_gof_hints),
        cmocka_unit_test(test_gof_seats_hand_end),
        cmocka_unit_test(test_sapngwu_seats_wu),
        cmocka_unit_test(test_sapngwu_mixed),
        cmocka_unit_test(test_qwirkle_rearrangement),
        cmocka_unit_test(test_qwirkle_tiles_turns),
        cmocka_unit_test(test_eleusis_dealer_mainline),
        cmocka_unit_test(test_eleusis_dealer_phases),
        cmocka_unit_test(test_set_grid_placements),
        cmocka_unit_test(test_zones),
        cmocka_unit_test(test_cannot_judge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
