/* Eleusis: the rule language, judging, and scoring (seed 003, DECISIONS.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eleusis.h"

/* ---- Helpers ----------------------------------------------------------------- */

enum { MAX_LINE = 64 };

static int cards(const char *text, ts_code *out)
{
    char err[128];
    int n = ts_code_parse_list(TS_FAM_PLAYING, text, out, MAX_LINE, err, sizeof err);
    if (n < 0)
        fail_msg("test data: %s", err);
    return n;
}

static ts_code card(const char *code)
{
    ts_code c;
    assert_int_equal(ts_code_parse(TS_FAM_PLAYING, code, strlen(code), &c), 0);
    return c;
}

static ts_eleusis_rule *compile_ok(const char *text)
{
    ts_eleusis_error err;
    ts_eleusis_rule *r = ts_eleusis_compile(text, &err);
    if (!r)
        fail_msg("rule '%s' did not compile: %s", text, err.msg);
    return r;
}

/* Judges `card_code` after the mainline in `line_text` under `rule_text`. */
static int judge(const char *rule_text, const char *line_text, const char *card_code)
{
    ts_code line[MAX_LINE];
    int n = cards(line_text, line);
    ts_eleusis_rule *r = compile_ok(rule_text);
    int v = ts_eleusis_judge(r, line, n, card(card_code));
    ts_eleusis_free(r);
    return v;
}

/* Checks a whole mainline (starter exempt); returns the 0-based mainline index
 * of the first wrong card, or -1 if every card is right. */
static int first_wrong_in_line(const char *rule_text, const char *line_text)
{
    ts_code line[MAX_LINE];
    int n = cards(line_text, line), wrong = -1;
    ts_eleusis_rule *r = compile_ok(rule_text);
    int v = ts_eleusis_judge_string(r, line, 1, line + 1, n - 1, &wrong);
    ts_eleusis_free(r);
    assert_true(v >= 0);
    return v ? -1 : wrong + 1;
}

/* ---- Seed 003: the three mainlines and their rules --------------------------- */

/* The seed's rows, suits over values, transcribed as codes (T = 10). */
static const char *const LINE1 = "8H JS 4H AC 2C 9S 8D 7C QS JH 6S AD 4S 5D TH 3S 4C 3D 6D 9H";
static const char *const LINE2 = "2D AC KH 9D 2H 4D 5S 7S 3C 2C AD JH 6S 8H 8S QH KC 9S 3S 6D";
static const char *const LINE3 = "7C 5S QS 4D 2C AH JC 5H 3C AS 8D 2D TS QH JD TC 9S 8C AD 6H";

/* 1: whatever the suit, odd and even values alternate. */
static const char *const RULE1 = "odd(value) != odd(prev.value)";
/* 2: previous two of one colour -> play 1-7; of different colours -> play 7-K. */
static const char *const RULE2 =
    "if prev.colour == prev2.colour then value in 1..7 else value in 7..K";
/* 3: after a club play value = 1 mod 4, diamond 2, heart 3, spade 0. */
static const char *const RULE3 =
    "value mod 4 == (if prev.suit == clubs then 1 else if prev.suit == diamonds then 2 "
    "else if prev.suit == hearts then 3 else 0)";

static void test_seed_rules_accept_their_mainlines(void **state)
{
    (void)state;
    assert_int_equal(first_wrong_in_line(RULE1, LINE1), -1);
    assert_int_equal(first_wrong_in_line(RULE2, LINE2), -1);
    assert_int_equal(first_wrong_in_line(RULE3, LINE3), -1);
}

static void test_seed_rules_reject_the_other_mainlines(void **state)
{
    (void)state;
    /* Rule 1: A (odd) then K (odd) in line 2; 7 then 5 in line 3. */
    assert_int_equal(first_wrong_in_line(RULE1, LINE2), 2);
    assert_int_equal(first_wrong_in_line(RULE1, LINE3), 1);
    /* Rule 2: 8H JS differ in colour, so 4H (below 7) is wrong; 7C 5S both black, QS too high. */
    assert_int_equal(first_wrong_in_line(RULE2, LINE1), 2);
    assert_int_equal(first_wrong_in_line(RULE2, LINE3), 2);
    /* Rule 3: after 4H (heart) AC is 1 mod 4, not 3; after 2D (diamond) AC is not 2. */
    assert_int_equal(first_wrong_in_line(RULE3, LINE1), 3);
    assert_int_equal(first_wrong_in_line(RULE3, LINE2), 1);
}

static void test_seed_rules_single_cards(void **state)
{
    (void)state;
    /* Line 1 ends 9H (odd): even cards are right, odd are wrong. */
    assert_int_equal(judge(RULE1, LINE1, "2S"), 1);
    assert_int_equal(judge(RULE1, LINE1, "QD"), 1);
    assert_int_equal(judge(RULE1, LINE1, "KD"), 0);
    /* Line 2 ends 3S 6D (different colours): 7..K. 7 belongs to both ranges. */
    assert_int_equal(judge(RULE2, LINE2, "7C"), 1);
    assert_int_equal(judge(RULE2, LINE2, "KC"), 1);
    assert_int_equal(judge(RULE2, LINE2, "6C"), 0);
    assert_int_equal(judge(RULE2, "KS 9S", "7H"), 1);
    assert_int_equal(judge(RULE2, "KS 9S", "AH"), 1);
    assert_int_equal(judge(RULE2, "KS 9S", "8H"), 0);
    /* Line 3 ends 6H (heart): 3, 7, J. */
    assert_int_equal(judge(RULE3, LINE3, "3S"), 1);
    assert_int_equal(judge(RULE3, LINE3, "7D"), 1);
    assert_int_equal(judge(RULE3, LINE3, "JC"), 1);
    assert_int_equal(judge(RULE3, LINE3, "4C"), 0);
    /* After a spade: values divisible by four. */
    assert_int_equal(judge(RULE3, "AS", "4H"), 1);
    assert_int_equal(judge(RULE3, "AS", "QH"), 1);
    assert_int_equal(judge(RULE3, "AS", "KH"), 0);
}

static void test_seed_rule3_as_suit_arithmetic(void **state)
{
    (void)state;
    /* The same rule written with suit order clubs < diamonds < hearts < spades. */
    const char *alt = "if prev.suit == spades then value mod 4 == 0 else "
                      "value mod 4 == (if prev.suit == clubs then 1 else if prev.suit < hearts "
                      "then 2 else 3)";
    assert_int_equal(first_wrong_in_line(alt, LINE3), -1);
    assert_int_equal(first_wrong_in_line(alt, LINE1), 3);
}

/* Seed rule 3 (of the game): "if the seed is black play red, if red play black". */
static void test_seed_colour_example(void **state)
{
    (void)state;
    const char *rule = "if prev.colour == black then colour == red else colour == black";
    assert_int_equal(judge(rule, "2S", "3H"), 1);
    assert_int_equal(judge(rule, "2S", "3C"), 0);
    assert_int_equal(judge(rule, "2D", "3C"), 1);
    assert_int_equal(judge(rule, "2D", "3D"), 0);
    assert_int_equal(judge("colour != prev.colour", "2D", "KS"), 1);
}

/* Seed note 2: a rule needing two cards accepts anything until two exist. */
static void test_seed_note2_history(void **state)
{
    (void)state;
    ts_eleusis_rule *r = compile_ok(RULE2);
    assert_int_equal(ts_eleusis_history_needed(r), 2);
    ts_code line[2] = {card("KS"), card("9S")};
    assert_int_equal(ts_eleusis_count_right(r, line, 0), 52);
    assert_int_equal(ts_eleusis_count_right(r, line, 1), 52);
    assert_int_equal(ts_eleusis_count_right(r, line, 2), 28); /* 1..7 in four suits */
    ts_eleusis_free(r);

    r = compile_ok("value == prev5.value or first.value == 1");
    assert_int_equal(ts_eleusis_history_needed(r), 5);
    ts_eleusis_free(r);
    r = compile_ok("first.suit == suit");
    assert_int_equal(ts_eleusis_history_needed(r), 1);
    ts_eleusis_free(r);
    r = compile_ok("colour == red");
    assert_int_equal(ts_eleusis_history_needed(r), 0);
    assert_int_equal(ts_eleusis_count_right(r, NULL, 0), 26);
    ts_eleusis_free(r);
}

/* Seed note 1: A = 1 ... K = 13, or wrap around Q-K-A-2. */
static void test_seed_note1_values_and_wraparound(void **state)
{
    (void)state;
    assert_int_equal(judge("value == 1 and prev.value == 13", "KH", "AC"), 1);
    assert_int_equal(judge("value == jack and prev.value == Q", "QH", "JC"), 1);
    const char *next = "value == prev.value mod 13 + 1";
    assert_int_equal(first_wrong_in_line(next, "QH KS AD 2C 3C"), -1);
    assert_int_equal(first_wrong_in_line(next, "QH KS 2D"), 2);
}

/* Seed note 3: "one more than the table card" leaves too little of the deck. */
static void test_seed_note3_fair_share(void **state)
{
    (void)state;
    ts_code line[1] = {card("5H")};
    ts_eleusis_rule *r = compile_ok("value == prev.value + 1");
    assert_int_equal(ts_eleusis_count_right(r, line, 1), 4);
    assert_true(ts_eleusis_count_right(r, line, 1) * 5 < 52);
    ts_eleusis_free(r);
    r = compile_ok(RULE1);
    assert_int_equal(ts_eleusis_count_right(r, line, 1), 24); /* six even values x 4 */
    ts_eleusis_free(r);
}

/* Seed step 7: phase 2 ends once no remaining card can be right. */
static void test_seed_phase2_end(void **state)
{
    (void)state;
    ts_code line[MAX_LINE], left[MAX_LINE];
    int n = cards("9H", line);
    ts_eleusis_rule *r = compile_ok(RULE1); /* after 9 (odd) only even values */
    assert_int_equal(ts_eleusis_any_right(r, line, n, left, cards("3C KD 5S", left)), 0);
    assert_int_equal(ts_eleusis_any_right(r, line, n, left, cards("3C KD 4S", left)), 1);
    assert_int_equal(ts_eleusis_any_right(r, line, n, left, 0), 0);
    assert_int_equal(ts_eleusis_any_right(r, line, n, NULL, 2), -1);
    ts_eleusis_free(r);
}

/* ---- Judging ----------------------------------------------------------------- */

/* New Eleusis strings: right only if each card is right in turn. */
static void test_string_judging(void **state)
{
    (void)state;
    ts_code line[MAX_LINE], play[4];
    int n = cards("8H JS", line);
    ts_eleusis_rule *r = compile_ok(RULE1);
    int wrong = -9;
    assert_int_equal(ts_eleusis_judge_string(r, line, n, play, cards("2C 3C 4D 5D", play), &wrong),
                     1);
    assert_int_equal(wrong, -9);
    assert_int_equal(ts_eleusis_judge_string(r, line, n, play, cards("2C 3C 5D 6D", play), &wrong),
                     0);
    assert_int_equal(wrong, 2);
    assert_int_equal(ts_eleusis_judge_string(r, line, n, play, cards("3C", play), &wrong), 0);
    assert_int_equal(wrong, 0);
    assert_int_equal(ts_eleusis_judge_string(r, line, n, play, 0, &wrong), 1);
    ts_eleusis_free(r);

    /* The string extends the history seen by prev2 and length. */
    r = compile_ok("length < 3 or value == prev.value + prev2.value");
    n = cards("AC", line);
    assert_int_equal(ts_eleusis_judge_string(r, line, n, play, cards("AD 2H 3S 5C", play), NULL),
                     1);
    assert_int_equal(ts_eleusis_judge_string(r, line, n, play, cards("AD 2H 4S", play), &wrong), 0);
    assert_int_equal(wrong, 2);
    ts_eleusis_free(r);
}

/* Only mainline cards count: a wrong card goes to the sideline, unseen by the rule. */
static void test_sideline_is_invisible(void **state)
{
    (void)state;
    ts_eleusis_rule *r = compile_ok("suit == prev.suit");
    ts_code mainline[MAX_LINE], sideline[MAX_LINE], tries[MAX_LINE];
    int n = cards("2H", mainline), k = cards("3C 4H 5S 6D 7H", tries), side = 0;
    for (int i = 0; i < k; i++) {
        if (ts_eleusis_judge(r, mainline, n, tries[i]))
            mainline[n++] = tries[i];
        else
            sideline[side++] = tries[i];
    }
    assert_int_equal(n, 3);
    assert_int_equal(side, 3);
    assert_int_equal(mainline[1].idx, card("4H").idx);
    assert_int_equal(mainline[2].idx, card("7H").idx);
    assert_int_equal(sideline[0].idx, card("3C").idx);
    ts_eleusis_free(r);
}

static void test_bad_judge_input(void **state)
{
    (void)state;
    ts_eleusis_rule *r = compile_ok("true");
    ts_code c = card("AS"), domino = {TS_FAM_DOMINO, 3}, big = {TS_FAM_PLAYING, 52};
    assert_int_equal(ts_eleusis_judge(NULL, &c, 1, c), -1);
    assert_int_equal(ts_eleusis_judge(r, &c, -1, c), -1);
    assert_int_equal(ts_eleusis_judge(r, &c, 1, domino), -1);
    assert_int_equal(ts_eleusis_judge(r, &domino, 1, c), -1);
    assert_int_equal(ts_eleusis_judge(r, &c, 1, big), -1);
    assert_int_equal(ts_eleusis_judge_string(r, &c, 1, &domino, 1, NULL), -1);
    assert_int_equal(ts_eleusis_count_right(NULL, &c, 1), -1);
    assert_int_equal(ts_eleusis_judge(r, &c, 1, c), 1);
    ts_eleusis_free(r);
    ts_eleusis_free(NULL);
}

/* ---- The language ------------------------------------------------------------ */

typedef struct {
    const char *rule, *line, *card;
    int want;
} case_t;

static void test_language_features(void **state)
{
    (void)state;
    static const case_t CASES[] = {
        /* attributes */
        {"value == 10", "AS", "TD", 1},
        {"suit == hearts", "AS", "TH", 1},
        {"suit == heart and colour == red", "AS", "TH", 1},
        {"color == black", "AS", "TH", 0},
        {"face", "AS", "JD", 1},
        {"face", "AS", "TD", 0},
        {"card.value == value and card.suit == diamonds", "AS", "TD", 1},
        {"previous.value == 1 and previous2.value == 2 and prev3.value == 3", "3C 2C AC", "KD", 1},
        {"first.value == 3", "3C 2C AC", "KD", 1},
        {"length == 3", "3C 2C AC", "KD", 1},
        /* arithmetic, floor division and mod */
        {"value + prev.value == 14", "6C", "8D", 1},
        {"value - prev.value == -2", "TC", "8D", 1},
        {"value * 2 - 1 == 15", "TC", "8D", 1},
        {"value / 3 == 2", "TC", "8D", 1},
        {"-7 / 2 == -4 and -7 mod 2 == 1 and 7 mod -2 == -1 and 7 % 3 == 1", "TC", "8D", 1},
        {"value / (value - value) == 0 and value mod (value - value) == 0", "TC", "8D", 1},
        {"abs(prev.value - value) == 2 and min(value, 3) == 3 and max(value, 3) == 8", "TC", "8D",
         1},
        {"1 + 2 * 3 == 7 and (1 + 2) * 3 == 9 and 10 - 2 - 3 == 5", "TC", "8D", 1},
        {"- - 3 == 3", "TC", "8D", 1},
        /* comparisons, ranges, suit order */
        {"value in 1..7", "AS", "7D", 1},
        {"value in 1..7", "AS", "8D", 0},
        {"value in prev.value - 1..prev.value + 1", "9S", "TD", 1},
        {"suit > prev.suit", "AC", "AD", 1},
        {"suit >= spades", "AC", "AH", 0},
        {"clubs < diamonds and diamonds < hearts and hearts < spades", "AC", "AH", 1},
        {"value <> 3 and value != 4 and value = 5", "AC", "5H", 1},
        {"odd(value) == true and even(value) == false", "AC", "5H", 1},
        /* logic and precedence */
        {"not value == 5 or suit == hearts", "AC", "5H", 1},
        {"not (value == 5 or suit == hearts)", "AC", "5H", 0},
        {"true or false and false", "AC", "5H", 1},
        {"(true or false) and false", "AC", "5H", 0},
        {"not not true", "AC", "5H", 1},
        {"if value > 10 then colour == red else if value > 5 then suit == clubs else true", "AC",
         "7C", 1},
        {"if value > 10 then colour == red else if value > 5 then suit == clubs else true", "AC",
         "QS", 0},
        {"(if face then 10 else value) == 10", "AC", "KS", 1},
        /* constants and words */
        {"value == A or value == T or value == J or value == Q or value == K", "AC", "TS", 1},
        {"value == ace + king - queen", "AC", "2S", 1},
        {"VALUE == 2 AND Suit == SPADES", "AC", "2S", 1},
        {"value == 2 # a comment\n and suit == spades # another", "AC", "2S", 1},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int got = judge(CASES[i].rule, CASES[i].line, CASES[i].card);
        if (got != CASES[i].want)
            fail_msg("rule '%s' on %s after %s: got %d, want %d", CASES[i].rule, CASES[i].card,
                     CASES[i].line, got, CASES[i].want);
    }
}

/* Arithmetic wraps instead of overflowing (no undefined behaviour). */
static void test_arithmetic_wraps(void **state)
{
    (void)state;
    const char *rule = "1000000 * 1000000 * 1000000 * 1000000 != 0 or true";
    assert_int_equal(judge(rule, "AC", "2C"), 1);
    assert_int_equal(judge("(-1000000 * 1000000 * 1000000 * 10) / -1 != 0 or true", "AC", "2C"), 1);
}

static void test_format_round_trip(void **state)
{
    (void)state;
    static const char *const RULES[] = {
        "odd(value) != odd(prev.value)",
        "if prev.colour == prev2.colour then value in 1..7 else value in 7..K",
        "value mod 4 == (if prev.suit == clubs then 1 else 0)",
        "not face and -value < 3 * (2 + prev12.value) or first.suit >= hearts",
        "min(value, abs(prev.value - 10)) / 2 == length % 5 and color != red",
        "true",
    };
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++) {
        char a[512], b[512];
        ts_eleusis_rule *r = compile_ok(RULES[i]);
        size_t need = ts_eleusis_format(r, a, sizeof a);
        assert_true(need < sizeof a);
        assert_int_equal(ts_eleusis_format(r, NULL, 0), need);
        ts_eleusis_rule *again = compile_ok(a);
        ts_eleusis_format(again, b, sizeof b);
        assert_string_equal(a, b);
        assert_int_equal(ts_eleusis_history_needed(r), ts_eleusis_history_needed(again));
        ts_eleusis_free(again);
        ts_eleusis_free(r);
    }
    char small[8];
    ts_eleusis_rule *r = compile_ok("value == 10");
    assert_int_equal(ts_eleusis_format(r, small, sizeof small), strlen("(value == 10)"));
    assert_string_equal(small, "(value ");
    ts_eleusis_free(r);

    r = compile_ok(RULE2);
    char canon[256];
    ts_eleusis_format(r, canon, sizeof canon);
    assert_string_equal(canon, "(if (prev.colour == prev2.colour) then (value in 1..7) else "
                               "(value in 7..13))");
    ts_eleusis_free(r);
}

/* ---- Parser errors ----------------------------------------------------------- */

typedef struct {
    const char *rule;
    int pos;
    const char *msg; /* expected in the message */
} error_case;

static void test_parser_errors(void **state)
{
    (void)state;
    static const error_case CASES[] = {
        {"", 1, "the rule is empty"},
        {"   # just a comment", 20, "the rule is empty"},
        {"valeu == 3", 1, "unknown word 'valeu' (did you mean 'value'?)"},
        {"x == 3", 1, "unknown word 'x'"},
        {"value ==", 9,
         "expected a value (number, attribute, constant, '(' or 'if') but found "
         "the end of the rule"},
        {"(value == 3", 12, "expected ')' but found the end of the rule"},
        {"value == 3)", 11, "expected an operator or the end of the rule but found ')'"},
        {"value == 3 3", 12, "expected an operator or the end of the rule but found '3'"},
        {"value @ 3", 7, "found '@'"},
        {"value == 3 \x01", 12, "found byte 0x01"},
        {"value", 1, "a rule must be a true/false condition, but this is a number"},
        {"value + true == 3", 7,
         "'+' needs a number on both sides, but its right side is true/false"},
        {"value and true", 7,
         "'and' needs true/false on both sides, but its left side is a number"},
        {"suit == 3", 6, "'==' cannot compare a suit with a number"},
        {"suit < red", 6, "'<' compares two numbers or two suits, not a suit with a colour"},
        {"not value", 1, "'not' needs true/false, but its argument is a number"},
        {"value < 3 < 4", 11, "comparisons do not chain; join them with 'and'"},
        {"value in 1 7", 12, "expected '..' (a range is written lo..hi) but found '7'"},
        {"prev == 3", 6,
         "expected '.' and an attribute after 'prev' (like prev.value) but found '=='"},
        {"prev.rank == 3", 6, "expected an attribute (value, suit, colour, face) but found 'rank'"},
        {"prev0.value == 1", 1, "'prev0' is not a card: count back from prev1 (= prev) to prev32"},
        {"prev33.value == 1", 1, "to prev32"},
        {"if value == 1 then true", 24, "expected 'else' (every 'if' needs one) but found the end"},
        {"if value then true else false", 4, "the condition of 'if' needs true/false"},
        {"if face then 1 else true", 21,
         "'if' branches differ: 'then' gives a number, 'else' "
         "gives true/false"},
        {"if face true else false", 9, "expected 'then' but found 'true'"},
        {"odd(1, 2)", 6, "expected ')' (one argument) but found ','"},
        {"min(1) == 1", 6, "expected ',' and a second argument but found ')'"},
        {"odd 1", 5, "expected '(' after 'odd' but found '1'"},
        {"odd(face)", 5, "'odd' needs a number, but its argument is true/false"},
        {"value mod 0 == 1", 7, "'mod' by zero"},
        {"value / 0 == 1", 7, "'/' by zero"},
        {"value == 1000001", 10, "number too large (at most 1000000)"},
        {"value == 99999999999999999999999", 10, "number too large"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        ts_eleusis_error err;
        ts_eleusis_rule *r = ts_eleusis_compile(CASES[i].rule, &err);
        if (r)
            fail_msg("rule '%s' compiled but should not", CASES[i].rule);
        if (err.pos != CASES[i].pos || !strstr(err.msg, CASES[i].msg))
            fail_msg("rule '%s': got pos %d '%s', want pos %d containing '%s'", CASES[i].rule,
                     err.pos, err.msg, CASES[i].pos, CASES[i].msg);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "position %d: ", err.pos);
        assert_int_equal(strncmp(err.msg, prefix, strlen(prefix)), 0);
    }
    assert_null(ts_eleusis_compile(NULL, NULL));
    assert_null(ts_eleusis_compile("value ==", NULL)); /* err is optional */
}

static void test_limits(void **state)
{
    (void)state;
    ts_eleusis_error err;
    char *text = malloc(TS_ELEUSIS_MAX_RULE_LEN + 16);
    assert_non_null(text);

    /* Deep parentheses. */
    memset(text, '(', 400);
    strcpy(text + 400, "true");
    assert_null(ts_eleusis_compile(text, &err));
    assert_non_null(strstr(err.msg, "nests too deeply"));

    /* A long left-leaning chain builds a tall tree. */
    size_t n = 0;
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(text + n, "1 + ");
    strcpy(text + n, "1 == 2");
    assert_null(ts_eleusis_compile(text, &err));
    assert_non_null(strstr(err.msg, "nests too deeply (more than 100 levels)"));

    /* Too long. */
    memset(text, ' ', TS_ELEUSIS_MAX_RULE_LEN + 1);
    text[TS_ELEUSIS_MAX_RULE_LEN + 1] = '\0';
    assert_null(ts_eleusis_compile(text, &err));
    assert_non_null(strstr(err.msg, "rule too long"));

    /* Wide but shallow is fine: 90 terms joined by 'or' stay within the height limit. */
    n = 0;
    for (int i = 0; i < 90; i++)
        n += (size_t)sprintf(text + n, "%svalue == %d", i ? " or " : "", i % 13 + 1);
    ts_eleusis_rule *r = compile_ok(text);
    assert_int_equal(judge(text, "AC", "5D"), 1);
    ts_eleusis_free(r);
    free(text);
}

/* Long lists of conditions (issue 12: a chain of about 100 'and' terms was
 * refused as nesting too deeply): chains are balanced trees, so any chain that
 * fits in the length limit compiles, judges as written, and round-trips. */
static void test_long_chains(void **state)
{
    (void)state;
    enum { TERMS = 3000 };
    char *text = malloc(TERMS * 24);
    assert_non_null(text);
    int counts[] = {100, TERMS};
    for (int k = 0; k < 2; k++) {
        size_t n = 0;
        for (int i = 0; i < counts[k]; i++) /* true for every card but the 7s */
            n += (size_t)sprintf(text + n, "%svalue != %d", i ? " and " : "", i % 6 == 5 ? 7 : 14);
        assert_true(n < TS_ELEUSIS_MAX_RULE_LEN);
        assert_int_equal(judge(text, "AC", "5D"), 1);
        assert_int_equal(judge(text, "AC", "7D"), 0);
        n = 0; /* 'or' too: true only for the 7s */
        for (int i = 0; i < counts[k]; i++)
            n += (size_t)sprintf(text + n, "%svalue == %d", i ? " or " : "", i % 6 == 5 ? 7 : 14);
        assert_int_equal(judge(text, "AC", "7S"), 1);
        assert_int_equal(judge(text, "AC", "8S"), 0);
    }
    /* Round trip of a long mixed chain. */
    size_t n = 0;
    for (int i = 0; i < 120; i++)
        n += (size_t)sprintf(text + n, "%svalue != %d", i ? (i % 3 ? " and " : " or ") : "",
                             i % 13 + 1);
    ts_eleusis_rule *r = compile_ok(text);
    size_t need = ts_eleusis_format(r, NULL, 0);
    char *a = malloc(need + 1), *b = malloc(need + 1);
    assert_non_null(a);
    assert_non_null(b);
    ts_eleusis_format(r, a, need + 1);
    ts_eleusis_rule *again = compile_ok(a);
    assert_int_equal(ts_eleusis_format(again, b, need + 1), need);
    assert_string_equal(a, b);
    ts_eleusis_free(again);
    ts_eleusis_free(r);
    free(a);
    free(b);
    /* A type error deep in a chain is still found and placed. */
    ts_eleusis_error err;
    n = 0;
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(text + n, "%s%s", i ? " and " : "", i == 150 ? "value + 1" : "face");
    assert_null(ts_eleusis_compile(text, &err));
    assert_non_null(strstr(err.msg, "true/false"));
    assert_true(err.pos > 150 * 9 && err.pos < 152 * 9 + 16);
    free(text);
}

/* ---- Scoring ----------------------------------------------------------------- */

static void test_seed_dealer_score(void **state)
{
    (void)state;
    int three[] = {10, 5, 3};
    assert_int_equal(ts_eleusis_seed_dealer_score(three, 3), 9); /* (10+5) - 3x2 */
    int two[] = {7, 3};
    assert_int_equal(ts_eleusis_seed_dealer_score(two, 2), 4); /* the difference */
    int four[] = {6, 2, 5, 9};
    assert_int_equal(ts_eleusis_seed_dealer_score(four, 4), 6 + 5 + 9 - 3 * 2);
    int tie[] = {2, 2, 8};
    assert_int_equal(ts_eleusis_seed_dealer_score(tie, 3), 2 + 8 - 2 * 2);
    int neg[] = {1, -1};
    assert_int_equal(ts_eleusis_seed_dealer_score(neg, 2), -1);
    assert_int_equal(ts_eleusis_seed_dealer_score(three, 0), -1);
}

static void test_seed_player_scores(void **state)
{
    (void)state;
    int left[] = {2, 3, 10, 0};
    double s[4];
    assert_int_equal(ts_eleusis_seed_player_scores(left, 4, s), 0);
    assert_true(s[0] == 7 && s[1] == 3 && s[2] == 0 && s[3] == 21);

    int tied[] = {0, 0, 5}; /* two best players share the 6 */
    assert_int_equal(ts_eleusis_seed_player_scores(tied, 3, s), 0);
    assert_true(s[0] == 8 && s[1] == 8 && s[2] == 0);
    int four_tied[] = {1, 1, 1, 1}; /* all tie: 1.5 each, base 0 */
    assert_int_equal(ts_eleusis_seed_player_scores(four_tied, 4, s), 0);
    assert_true(s[0] == 1.5 && s[3] == 1.5);
    assert_int_equal(ts_eleusis_seed_player_scores(left, 0, s), -1);
}

static void test_score_round_both_systems(void **state)
{
    (void)state;
    ts_eleusis_round r = {.players = 3, .wrong = {10, 5, 3}, .left = {4, 0, 2}, .prophet = -1};
    ts_eleusis_scores s;
    assert_int_equal(ts_eleusis_score(&r, TS_ELEUSIS_SCORE_SEED, &s), 0);
    assert_true(s.dealer == 9);
    assert_true(s.player[0] == 0 && s.player[1] == 6 + 6 && s.player[2] == 0);

    /* New Eleusis, blazeva1's worked example: hands 13, prophet 11, 2, 0. */
    ts_eleusis_round n = {.players = 4,
                          .left = {13, 11, 2, 0},
                          .prophet = 1,
                          .prophet_right = 11,
                          .prophet_wrong = 4,
                          .before_marker = 21};
    assert_int_equal(ts_eleusis_score(&n, TS_ELEUSIS_SCORE_NEW, &s), 0);
    assert_true(s.player[0] == 0 && s.player[1] == 21 && s.player[2] == 11 && s.player[3] == 17);
    assert_true(s.dealer == 21);
    n.before_marker = 5; /* the dealer's cap: twice the cards before the marker */
    assert_int_equal(ts_eleusis_score(&n, TS_ELEUSIS_SCORE_NEW, &s), 0);
    assert_true(s.dealer == 10);
    n.prophet = -1; /* no prophet: the dealer scores the best player's score */
    assert_int_equal(ts_eleusis_score(&n, TS_ELEUSIS_SCORE_NEW, &s), 0);
    assert_true(s.player[1] == 2 && s.dealer == 17);

    n.prophet = 4;
    assert_int_equal(ts_eleusis_score(&n, TS_ELEUSIS_SCORE_NEW, &s), -1);
    n.prophet = 0;
    n.players = TS_ELEUSIS_MAX_PLAYERS + 1;
    assert_int_equal(ts_eleusis_score(&n, TS_ELEUSIS_SCORE_NEW, &s), -1);
    r.wrong[1] = -3;
    assert_int_equal(ts_eleusis_score(&r, TS_ELEUSIS_SCORE_SEED, &s), -1);
    assert_int_equal(ts_eleusis_score(NULL, TS_ELEUSIS_SCORE_SEED, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_rules_accept_their_mainlines),
        cmocka_unit_test(test_seed_rules_reject_the_other_mainlines),
        cmocka_unit_test(test_seed_rules_single_cards),
        cmocka_unit_test(test_seed_rule3_as_suit_arithmetic),
        cmocka_unit_test(test_seed_colour_example),
        cmocka_unit_test(test_seed_note2_history),
        cmocka_unit_test(test_seed_note1_values_and_wraparound),
        cmocka_unit_test(test_seed_note3_fair_share),
        cmocka_unit_test(test_seed_phase2_end),
        cmocka_unit_test(test_string_judging),
        cmocka_unit_test(test_sideline_is_invisible),
        cmocka_unit_test(test_bad_judge_input),
        cmocka_unit_test(test_language_features),
        cmocka_unit_test(test_arithmetic_wraps),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_long_chains),
        cmocka_unit_test(test_parser_errors),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_seed_dealer_score),
        cmocka_unit_test(test_seed_player_scores),
        cmocka_unit_test(test_score_round_both_systems),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
