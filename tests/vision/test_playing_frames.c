/* The playing index net's scene-photo patches (models/playing_frame_index.tsv)
 * come from the training halves only: webcam frames of the earlier half in
 * the time order of the UUID1 in their names, phone photos taken before
 * 19:50. This guards the held-out halves the README reports: no patch of a
 * held-out frame, and every card patch names a card the frame's label
 * holds. Skips when ../shared is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "uuid1_time.h"

#define LABELS TS_SHARED_DIR "/data/playing/labels.tsv"
#define PATCHES TS_SOURCE_DIR "/models/playing_frame_index.tsv"

enum { MAX_IMAGES = 1024 };

typedef struct {
    char name[512]; /* basename */
    char codes[64];
    int webcam, phone, train;
    uint64_t t;
} image;

static int by_time(const void *a, const void *b)
{
    const image *x = *(const image *const *)a, *y = *(const image *const *)b;
    return (x->t > y->t) - (x->t < y->t);
}

static image *find(image *im, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(im[i].name, name) == 0)
            return &im[i];
    return NULL;
}

static void test_patches_from_training_halves_only(void **state)
{
    (void)state;
    FILE *f = fopen(LABELS, "r");
    if (!f) {
        fprintf(stderr, "shared data not found at %s\n", LABELS);
        skip();
    }
    static image im[MAX_IMAGES];
    static image *web[MAX_IMAGES];
    int n = 0, nweb = 0;
    char line[1024];
    while (fgets(line, sizeof line, f) && n < MAX_IMAGES) {
        if (line[0] == '#')
            continue;
        char path[512], codes[64], kind[64];
        if (sscanf(line, "%511[^\t]\t%63[^\t]\t%63s", path, codes, kind) != 3)
            continue;
        image *m = &im[n++];
        const char *b = strrchr(path, '/');
        snprintf(m->name, sizeof m->name, "%s", b ? b + 1 : path);
        snprintf(m->codes, sizeof m->codes, "%s", codes);
        m->webcam = strcmp(kind, "webcam_held_card") == 0;
        m->phone = strcmp(kind, "phone_photo") == 0;
        if (m->webcam) {
            m->t = uuid1_time(m->name);
            assert_true(m->t != 0);
            web[nweb++] = m;
        }
        if (m->phone) { /* ..._IMG_YYYYMMDD_HHMMSS_... */
            const char *s = strstr(m->name, "IMG_");
            assert_non_null(s);
            m->train = strncmp(s + 13, "1950", 4) < 0;
        }
    }
    fclose(f);
    qsort(web, (size_t)nweb, sizeof *web, by_time);
    int h = nweb / 2;
    while (h > 0 && h < nweb && strcmp(web[h]->codes, web[h - 1]->codes) == 0)
        h++;
    for (int i = 0; i < h; i++)
        web[i]->train = 1;

    FILE *p = fopen(PATCHES, "r");
    assert_non_null(p);
    int cards = 0, other = 0, webcam = 0;
    while (fgets(line, sizeof line, p)) {
        if (line[0] == '#')
            continue;
        char name[512], code[8];
        float q[8];
        assert_int_equal(sscanf(line, "%511[^\t]\t%7[^\t]\t%f %f %f %f %f %f %f %f", name, code,
                                &q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]),
                         10);
        image *m = find(im, n, name);
        assert_non_null(m);
        assert_true(m->webcam || m->phone);
        assert_true(m->train); /* never a held-out frame */
        webcam += m->webcam;
        if (strcmp(code, "-") == 0) {
            other++;
            continue;
        }
        assert_non_null(strstr(m->codes, code));
        cards++;
    }
    fclose(p);
    fprintf(stderr, "%d training webcam frames of %d; patches: %d cards, %d not an index, %d "
            "from webcam frames\n", h, nweb, cards, other, webcam);
    assert_int_equal(nweb, 111);
    assert_true(cards > 0 && other > 0 && webcam > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patches_from_training_halves_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
