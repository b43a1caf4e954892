/* Card codes (rules/codes.h): round trips for every family, malformed input,
 * lists, and the ranked-list helper. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codes.h"

/* GoF indices 30..59 are no cards (codes.h). */
static int is_card(ts_family fam, int idx)
{
    return fam != TS_FAM_GOF || idx < 30 || idx >= 60;
}

static void test_round_trip_every_family(void **state)
{
    (void)state;
    for (int fam = 0; fam < TS_FAM_COUNT; fam++) {
        int size = ts_family_size((ts_family)fam), cards = 0;
        for (int idx = 0; idx < size; idx++) {
            if (!is_card((ts_family)fam, idx))
                continue;
            ts_code c = {(uint8_t)fam, (uint8_t)idx}, back;
            char text[TS_CODE_MAXLEN];
            int len = ts_code_format(c, text);
            assert_int_equal(len, (int)strlen(text));
            assert_int_equal(ts_code_parse((ts_family)fam, text, (size_t)len, &back), 0);
            assert_int_equal(back.family, fam);
            assert_int_equal(back.idx, idx);
            cards++;
        }
        static const int kinds[TS_FAM_COUNT] = {81, 52, 34, 36, 28};
        assert_int_equal(cards, kinds[fam]);
    }
}

static void test_examples_and_case(void **state)
{
    (void)state;
    static const struct {
        ts_family fam;
        const char *text;
        int idx;
    } ok[] = {
        {TS_FAM_SET, "2GST", ((1 * 3 + 1) * 3 + 2) * 3 + 1},
        {TS_FAM_SET, "1pdo", (2 * 3 + 0) * 3 + 2},
        {TS_FAM_PLAYING, "AS", 39},
        {TS_FAM_PLAYING, "TD", 22},
        {TS_FAM_PLAYING, "10D", 22},
        {TS_FAM_PLAYING, "kh", 38},
        {TS_FAM_GOF, "R7", 26},
        {TS_FAM_GOF, "Y10", 19},
        {TS_FAM_GOF, "M1", 60},
        {TS_FAM_GOF, "gp", 61},
        {TS_FAM_GOF, "YP", 62},
        {TS_FAM_GOF, "RD", 63},
        {TS_FAM_QWIRKLE, "BX", 4 * 6 + 1},
        {TS_FAM_QWIRKLE, "rl", 5},
        {TS_FAM_DOMINO, "1:3", 2},
        {TS_FAM_DOMINO, "6:6", 20},
        {TS_FAM_DOMINO, "3:1", 2},
        {TS_FAM_DOMINO, "0:0", 21},
        {TS_FAM_DOMINO, "0:6", 27},
        {TS_FAM_DOMINO, "4:0", 25},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        ts_code c;
        assert_int_equal(ts_code_parse(ok[i].fam, ok[i].text, strlen(ok[i].text), &c), 0);
        assert_int_equal(c.idx, ok[i].idx);
    }
}

static void test_malformed_codes(void **state)
{
    (void)state;
    static const struct {
        ts_family fam;
        const char *text;
    } bad[] = {
        {TS_FAM_SET, ""},        {TS_FAM_SET, "4RDS"},    {TS_FAM_SET, "1XDS"},
        {TS_FAM_SET, "1RDSX"},   {TS_FAM_SET, "1RD"},     {TS_FAM_PLAYING, "1H"},
        {TS_FAM_PLAYING, "XH"},  {TS_FAM_PLAYING, "AX"},  {TS_FAM_PLAYING, "10X"},
        {TS_FAM_PLAYING, "11H"}, {TS_FAM_GOF, "G0"},      {TS_FAM_GOF, "G11"},
        {TS_FAM_GOF, "M2"},      {TS_FAM_GOF, "B5"},      {TS_FAM_GOF, "R"},
        {TS_FAM_GOF, "RP"},      {TS_FAM_GOF, "G01"},     {TS_FAM_QWIRKLE, "RZ"},
        {TS_FAM_QWIRKLE, "R"},   {TS_FAM_QWIRKLE, "RCX"}, {TS_FAM_QWIRKLE, "WC"},
        {TS_FAM_DOMINO, "7:1"},  {TS_FAM_DOMINO, "0:9"},  {TS_FAM_DOMINO, "1-2"},
        {TS_FAM_DOMINO, "12"},   {TS_FAM_DOMINO, "1:2:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ts_code c;
        assert_int_equal(ts_code_parse(bad[i].fam, bad[i].text, strlen(bad[i].text), &c), -1);
    }
    ts_code c;
    assert_int_equal(ts_code_parse(TS_FAM_COUNT, "AS", 2, &c), -1);
}

static void test_parse_list(void **state)
{
    (void)state;
    ts_code out[8];
    char err[80];
    assert_int_equal(ts_code_parse_list(TS_FAM_GOF, " R7,Y10\tM1\n", out, 8, err, sizeof err), 3);
    assert_int_equal(out[2].idx, 60);
    assert_int_equal(ts_code_parse_list(TS_FAM_GOF, "", out, 8, err, sizeof err), 0);
    assert_int_equal(ts_code_parse_list(TS_FAM_GOF, "R7 Q9 Y1", out, 8, err, sizeof err), -1);
    assert_non_null(strstr(err, "'Q9'"));
    assert_non_null(strstr(err, "gof"));
    assert_int_equal(ts_code_parse_list(TS_FAM_GOF, "R7 R7 R7", out, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "too many"));
    int idx[8];
    assert_int_equal(ts_code_parse_indices(TS_FAM_QWIRKLE, "BX rl", idx, 8, err, sizeof err), 2);
    assert_int_equal(idx[0], 4 * 6 + 1);
    assert_int_equal(idx[1], 5);
    assert_int_equal(ts_code_parse_indices(TS_FAM_QWIRKLE, "BX ZZ", idx, 8, err, sizeof err), -1);
    assert_non_null(strstr(err, "'ZZ'"));
    /* the length-bounded form stops at len */
    assert_int_equal(ts_code_parse_listn(TS_FAM_QWIRKLE, "RC RX;junk", 5, out, 8, err, sizeof err),
                     2);
    /* a long bad token is cut in the message, never overflowing err */
    char longtok[200];
    memset(longtok, 'Z', sizeof longtok - 1);
    longtok[sizeof longtok - 1] = '\0';
    assert_int_equal(ts_code_parse_list(TS_FAM_SET, longtok, out, 8, err, sizeof err), -1);
    assert_true(strlen(err) < sizeof err);
}

static void test_family_names(void **state)
{
    (void)state;
    for (int fam = 0; fam < TS_FAM_COUNT; fam++)
        assert_int_equal(ts_family_from_name(ts_family_name((ts_family)fam)), fam);
    assert_int_equal(ts_family_from_name("sapngwu"), TS_FAM_DOMINO);
    assert_int_equal(ts_family_from_name("poker"), -1);
    assert_string_equal(ts_family_name(TS_FAM_COUNT), "?");
    assert_int_equal(ts_family_size(TS_FAM_COUNT), 0);
}

static void test_domino_index(void **state)
{
    (void)state;
    int seen = 0;
    for (int lo = 1; lo <= 6; lo++)
        for (int hi = lo; hi <= 6; hi++) {
            int idx = ts_domino_index(lo, hi), l, h;
            assert_int_equal(idx, seen++);
            ts_domino_pips(idx, &l, &h);
            assert_int_equal(l, lo);
            assert_int_equal(h, hi);
        }
    /* blank ends (double-six) follow the Chinese 21, which keep their indices */
    for (int hi = 0; hi <= 6; hi++) {
        int idx = ts_domino_index(0, hi), l, h;
        assert_int_equal(idx, seen++);
        assert_int_equal(ts_domino_index(hi, 0), idx);
        ts_domino_pips(idx, &l, &h);
        assert_int_equal(l, 0);
        assert_int_equal(h, hi);
    }
    assert_int_equal(seen, ts_family_size(TS_FAM_DOMINO));
    assert_int_equal(ts_domino_index(-1, 3), -1);
    assert_int_equal(ts_domino_index(2, 7), -1);
    assert_int_equal(ts_domino_index(0, 7), -1);
}

static void test_domino_blank_codes(void **state)
{
    (void)state;
    ts_code c[4];
    char err[128];
    assert_int_equal(ts_code_parse_list(TS_FAM_DOMINO, "0:0 6:0 1:2 0:5", c, 4, err, sizeof err), 4);
    char text[TS_CODE_MAXLEN];
    ts_code_format(c[1], text);
    assert_string_equal(text, "0:6");
    ts_code_format(c[3], text);
    assert_string_equal(text, "0:5");
    assert_true(c[2].idx < TS_DOMINO_CHINESE);
    assert_true(c[0].idx >= TS_DOMINO_BLANK0);
    assert_int_equal(ts_code_parse_list(TS_FAM_DOMINO, "0:7", c, 4, err, sizeof err), -1);
    assert_int_equal(ts_code_parse_list(TS_FAM_DOMINO, "7:1", c, 4, err, sizeof err), -1);
}

static void test_set_letters(void **state)
{
    (void)state;
    /* a deck profile with its own letters (seed 000: hexagon/leaf/snake, R G B) */
    const ts_set_letters seecards = {
        {{'1', '2', '3'}, {'R', 'G', 'B'}, {'H', 'L', 'N'}, {'F', 'S', 'D'}}};
    int idx;
    assert_int_equal(ts_set_parse(&seecards, "2BLS", 4, &idx), 0);
    assert_int_equal(idx, ts_set_make(1, 2, 1, 1));
    char out[TS_CODE_MAXLEN];
    ts_set_format(&seecards, idx, out);
    assert_string_equal(out, "2BLS");
    ts_set_format(NULL, idx, out);
    assert_string_equal(out, "2POT");
    assert_int_equal(ts_set_parse(&seecards, "2POT", 4, &idx), -1);
}

/* ---- Ranked lists --------------------------------------------------------------------------- */

static int int_before(const void *a, const void *b)
{
    return *(const int *)a > *(const int *)b;
}

static void test_rank_insert_keeps_the_best(void **state)
{
    (void)state;
    int list[4], kept = 0;
    static const int offered[] = {5, 1, 9, 7, 3, 9, 8, 0};
    for (size_t i = 0; i < sizeof offered / sizeof offered[0]; i++)
        ts_rank_insert(list, sizeof list[0], &kept, 4, &offered[i], int_before);
    assert_int_equal(kept, 4);
    static const int want[4] = {9, 9, 8, 7};
    assert_memory_equal(list, want, sizeof want);
    kept = 0;
    ts_rank_insert(list, sizeof list[0], &kept, 0, &offered[0], int_before); /* no room */
    assert_int_equal(kept, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_family),
        cmocka_unit_test(test_examples_and_case),
        cmocka_unit_test(test_malformed_codes),
        cmocka_unit_test(test_parse_list),
        cmocka_unit_test(test_family_names),
        cmocka_unit_test(test_domino_index),
        cmocka_unit_test(test_domino_blank_codes),
        cmocka_unit_test(test_set_letters),
        cmocka_unit_test(test_rank_insert_keeps_the_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
