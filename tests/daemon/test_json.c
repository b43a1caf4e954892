/* The JSON writer (libcjson underneath): every document it writes parses back
 * with the library, names with quotes, control characters and bytes that are
 * not UTF-8 included; misuse fails the buffer instead of writing bad JSON. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "json.h"
#include "result_json.h"

static cJSON *parse_back(const ts_json *j)
{
    assert_false(j->buf.failed);
    assert_non_null(j->buf.data);
    assert_null(strchr(j->buf.data, '\n')); /* one line: a JSON-lines record */
    char err[128];
    cJSON *doc = ts_json_parse(j->buf.data, j->buf.len, err, sizeof err);
    if (!doc)
        fail_msg("%s: %s", err, j->buf.data);
    return doc;
}

static const char *str_of(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static void nested_values_round_trip(void **state)
{
    (void)state;
    ts_json j;
    ts_json_init(&j);
    ts_json_obj(&j);
    ts_json_key(&j, "n");
    ts_json_int(&j, -42);
    ts_json_key(&j, "big");
    ts_json_int(&j, 4000000000LL);
    ts_json_key(&j, "x");
    ts_json_num(&j, 0.98000001907348633, 2);
    ts_json_key(&j, "nan");
    ts_json_num(&j, NAN, 2);
    ts_json_key(&j, "list");
    ts_json_arr(&j);
    ts_json_bool(&j, 1);
    ts_json_null(&j);
    ts_json_arr(&j);
    ts_json_end(&j);
    ts_json_end(&j);
    ts_json_end(&j);
    cJSON *doc = parse_back(&j);
    assert_int_equal(cJSON_GetObjectItem(doc, "n")->valuedouble, -42);
    assert_true(cJSON_GetObjectItem(doc, "big")->valuedouble == 4e9);
    assert_non_null(strstr(j.buf.data, "\"x\":0.98,")); /* rounded as asked */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "nan")));
    const cJSON *list = cJSON_GetObjectItem(doc, "list");
    assert_int_equal(cJSON_GetArraySize(list), 3);
    assert_true(cJSON_IsTrue(cJSON_GetArrayItem(list, 0)));
    ts_json_doc_free(doc);

    /* reset: the next document replaces the last. */
    ts_json_reset(&j);
    ts_json_arr(&j);
    ts_json_end(&j);
    assert_string_equal(j.buf.data, "[]");
    ts_json_free(&j);
}

static void odd_names_stay_valid_json(void **state)
{
    (void)state;
    /* Quotes, a backslash, control characters, a lone continuation byte, a
     * Latin-1 e-acute, a truncated sequence, an overlong '/', a surrogate. */
    const char *name = "a\"b\\c\n\t\x01\x1f/\x80z\xe9t\xc3\xc0\xaf\xed\xa0\x80.jpg";
    const char *want = "a\"b\\c\n\t\x01\x1f/\xEF\xBF\xBDz\xEF\xBF\xBDt\xEF\xBF\xBD"
                       "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD.jpg";
    static ts_table t; /* large */
    memset(&t, 0, sizeof t);
    t.frame.w = 640, t.frame.h = 480, t.frame.family = 0, t.frame.ncards = 2;
    snprintf(t.frame.cards[0].text, sizeof t.frame.cards[0].text, "2GST");
    snprintf(t.frame.cards[1].text, sizeof t.frame.cards[1].text, "\"\x90");
    t.frame.cards[0].conf = 0.98f, t.frame.cards[0].read = 1;
    ts_json j;
    ts_json_init(&j);
    ts_result_json(&j, &t, name, 7, "set");
    cJSON *doc = parse_back(&j);
    assert_string_equal(str_of(doc, "source"), want);
    assert_string_equal(str_of(doc, "game"), "set");
    const cJSON *cards = cJSON_GetObjectItem(doc, "cards");
    assert_int_equal(cJSON_GetArraySize(cards), 2);
    assert_string_equal(str_of(cJSON_GetArrayItem(cards, 0), "code"), "2GST");
    assert_string_equal(str_of(cJSON_GetArrayItem(cards, 1), "code"), "\"\xEF\xBF\xBD");
    /* Valid UTF-8 is kept as it is (not escaped, not replaced). */
    ts_json_reset(&j);
    ts_json_str(&j, "caf\xc3\xa9 \xe2\x99\xa0 \xf0\x9f\x82\xa1");
    assert_string_equal(j.buf.data, "\"caf\xc3\xa9 \xe2\x99\xa0 \xf0\x9f\x82\xa1\"");
    ts_json_doc_free(doc);
    ts_json_free(&j);
}

static void misuse_fails_instead_of_writing(void **state)
{
    (void)state;
    ts_json j;
    ts_json_init(&j);
    ts_json_obj(&j);
    ts_json_int(&j, 1); /* a member without a key */
    ts_json_end(&j);
    assert_true(j.buf.failed);
    ts_json_free(&j);

    ts_json_init(&j);
    for (int i = 0; i < TS_JSON_MAX_DEPTH + 5; i++)
        ts_json_arr(&j);
    for (int i = 0; i < TS_JSON_MAX_DEPTH + 5; i++)
        ts_json_end(&j);
    assert_true(j.buf.failed);
    ts_json_free(&j); /* nothing leaks (ASan build) */
}

static void reader_refuses_bad_text(void **state)
{
    (void)state;
    char err[128];
    cJSON *doc = ts_json_parse("{\"cmd\":\"stats\"}  \n", 18, err, sizeof err);
    assert_non_null(doc);
    assert_string_equal(str_of(doc, "cmd"), "stats");
    ts_json_doc_free(doc);
    assert_null(ts_json_parse("{\"a\":1} x", 9, err, sizeof err)); /* trailing text */
    assert_non_null(strstr(err, "byte 8"));
    assert_null(ts_json_parse("{\"a\":", 5, err, sizeof err));
    assert_null(ts_json_parse("", 0, err, sizeof err));
    /* Length-bounded: bytes after len are never read. */
    doc = ts_json_parse("[1,2]garbage", 5, err, sizeof err);
    assert_non_null(doc);
    ts_json_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nested_values_round_trip),
        cmocka_unit_test(odd_names_stay_valid_json),
        cmocka_unit_test(misuse_fails_instead_of_writing),
        cmocka_unit_test(reader_refuses_bad_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
