/* Deck profiles: the shipped ones load, malformed text names its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profile.h"

static void test_shipped_profiles(void **state)
{
    (void)state;
    ts_profile p;
    char err[256];
    assert_int_equal(ts_profile_load("classic", NULL, &p, err, sizeof err), 0);
    assert_string_equal(p.name, "classic");
    assert_memory_equal(p.letters.v, TS_SET_CLASSIC_LETTERS.v, sizeof p.letters.v);
    assert_true(p.conf_floor > 0 && p.conf_floor < 1);
    for (int a = 0; a < TS_ATTR_COUNT; a++)
        assert_true(p.attr[a].nfeat >= 2);
    assert_int_equal(ts_profile_load("seecards", NULL, &p, err, sizeof err), 0);
    assert_int_equal(p.letters.v[TS_SET_COLOUR][2], 'B'); /* red, green, blue */
    assert_int_equal(p.letters.v[TS_SET_SHAPE][0], 'H');  /* hexagon */
}

static void test_round_trip(void **state)
{
    (void)state;
    ts_profile p, q;
    char err[256], buf[8192];
    assert_int_equal(ts_profile_load("classic", NULL, &p, err, sizeof err), 0);
    assert_true(ts_profile_format(&p, buf, sizeof buf) > 0);
    assert_int_equal(ts_profile_parse(buf, strlen(buf), &q, err, sizeof err), 0);
    for (int a = 0; a < TS_ATTR_COUNT; a++)
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < p.attr[a].nfeat; i++)
                for (int k = 0; k < p.attr[a].nmodes[v]; k++)
                    assert_float_equal(p.attr[a].proto[v][k][i], q.attr[a].proto[v][k][i], 1e-4);
}

static void expect_error(const char *text, const char *needle)
{
    ts_profile p;
    char err[256] = "";
    assert_int_equal(ts_profile_parse(text, strlen(text), &p, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error("", "empty");
    expect_error("name x\n", "line 1: expected 'profile 1'");
    expect_error("profile 2\n", "line 1");
    expect_error("profile 1\nletters 123 RGG DOS STO\n", "line 2: letters: 'RGG' repeats");
    expect_error("profile 1\nconf_floor 7\n", "line 2: conf_floor");
    expect_error("profile 1\nproto colour R 1 2\n", "line 2: proto colour before its scale");
    expect_error("profile 1\nscale colour 0.1 0.1\nproto colour X 1 2\n",
                 "line 3: proto: 'X' is not one of the colour letters");
    expect_error("profile 1\nscale colour 0.1 0.1\nproto colour R 1\n", "expected 2 features");
    expect_error("profile 1\nscale colour 0.1 -1\n", "positive");
    expect_error("profile 1\nfamily gof\n", "no reader");
    expect_error("profile 1\nwhatever\n", "line 2: unknown");
    expect_error("profile 1\nscale colour 0.1 0.1\n", "missing proto colour R");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_profiles),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
