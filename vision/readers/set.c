/* SET behind the reader interface: count, colour, shape, shading
 * (set_reader.h does the reading; the deck profile gives the letters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "reader.h"
#include "readers/readers.h"
#include "readers/set_find.h"
#include "set_reader.h"

typedef struct {
    ts_profile profile;
    ts_set_reader *r;
    ts_set_finder *find; /* made on first use */
} set_reader;

static void *set_create(const ts_reader_config *cfg, char *err, size_t errlen)
{
    set_reader *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (ts_profile_load(cfg && cfg->profile ? cfg->profile : "classic",
                        cfg ? cfg->models_dir : NULL, &s->profile, err, errlen) < 0) {
        free(s);
        return NULL;
    }
    s->r = ts_set_reader_create(&s->profile);
    if (!s->r) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    return s;
}

static void set_destroy(void *reader)
{
    set_reader *s = reader;
    if (!s)
        return;
    ts_set_reader_destroy(s->r);
    ts_set_finder_destroy(s->find);
    free(s);
}

static int set_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    set_reader *s = reader;
    ts_set_reading r;
    memset(out, 0, sizeof *out);
    if (ts_set_read(s->r, card, &r, err) < 0)
        return -1;
    out->turned = r.turned;
    if (!r.is_card)
        return 0;
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_SET, (uint8_t)r.idx};
    out->conf = r.conf_all;
    out->nattr = 4;
    for (int a = 0; a < 4; a++)
        out->attr_conf[a] = r.conf[a];
    return 0;
}

static void set_format(const void *reader, ts_code code, char out[TS_CODE_MAXLEN])
{
    const set_reader *s = reader;
    ts_set_format(&s->profile.letters, code.idx, out);
}

static int set_parse(const void *reader, const char *text, size_t len, ts_code *out)
{
    const set_reader *s = reader;
    int idx;
    if (ts_set_parse(&s->profile.letters, text, len, &idx) < 0)
        return -1;
    *out = (ts_code){TS_FAM_SET, (uint8_t)idx};
    return 0;
}

/* The shared detector, then cards edge to edge (set_find.h). */
static int set_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    set_reader *s = reader;
    if (!s->find && !(s->find = ts_set_finder_create(ts_set_reader_class.min_aspect,
                                                     ts_set_reader_class.max_aspect))) {
        snprintf(err, TSCV_ERR_MAX, "set find: out of memory");
        return -1;
    }
    return ts_set_find(s->find, s->r, frame, out, max, err);
}

static const char *const set_profiles[] = {"classic", "seecards", NULL};

const ts_reader_class ts_set_reader_class = {
    .family = TS_FAM_SET,
    .name = "set",
    .profiles = set_profiles,
    .min_aspect = 1.0f,
    .max_aspect = 2.4f,
    .card_w = TS_CARD_W,
    .card_h = TS_CARD_H,
    .conf_floor = 0.50f,
    .whole_min_aspect = 1.35f, /* not 4:3 or 16:9 frames */
    .whole_max_aspect = 1.72f,
    .split_squat = 1,
    .create = set_create,
    .destroy = set_destroy,
    .read = set_read,
    .format = set_format,
    .parse = set_parse,
    .find = set_find,
};
