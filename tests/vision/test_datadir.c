/* The data directory lookup: $TABLESIGHT_DATA first, the source tree last
 * (the installed place between them is tested by tests/cli/install.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "datadir.h"

static void source_tree_when_nothing_else(void **state)
{
    (void)state;
    unsetenv("TABLESIGHT_DATA");
    char path[4096];
    assert_int_equal(ts_data_path("models/classic.profile", path, sizeof path), 0);
    assert_string_equal(path, TS_SOURCE_DIR "/models/classic.profile");
    assert_int_equal(ts_data_path("samples/clip", path, sizeof path), 0);
    assert_int_equal(ts_data_path("models/no-such.profile", path, sizeof path), -1);
    assert_non_null(strstr(path, "models/no-such.profile")); /* names where it looked */
}

static void environment_first_then_fallback(void **state)
{
    (void)state;
    char dir[] = "/tmp/ts_datadir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char models[256], file[300];
    snprintf(models, sizeof models, "%s/models", dir);
    assert_int_equal(mkdir(models, 0700), 0);
    snprintf(file, sizeof file, "%s/classic.profile", models);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    setenv("TABLESIGHT_DATA", dir, 1);
    char path[4096];
    assert_int_equal(ts_data_path("models/classic.profile", path, sizeof path), 0);
    assert_string_equal(path, file);
    /* What the override lacks still comes from further down. */
    assert_int_equal(ts_data_path("models/seecards.profile", path, sizeof path), 0);
    assert_string_equal(path, TS_SOURCE_DIR "/models/seecards.profile");
    char places[8192];
    ts_data_places(places, sizeof places);
    assert_ptr_equal(strstr(places, dir), places); /* listed first */
    /* --models DIR is taken as given. */
    assert_int_equal(ts_model_path(models, "classic.profile", path, sizeof path), 0);
    assert_string_equal(path, file);
    assert_int_equal(ts_model_path(models, "seecards.profile", path, sizeof path), -1);
    assert_int_equal(ts_model_path(NULL, "seecards.profile", path, sizeof path), 0);
    unsetenv("TABLESIGHT_DATA");
    unlink(file);
    rmdir(models);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(source_tree_when_nothing_else),
        cmocka_unit_test(environment_first_then_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
