/* SET behind the reader interface: count, colour, shape, shading
 * (set_reader.h does the reading; the deck profile gives the letters). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "reader.h"
#include "readers/readers.h"
#include "readers/set_find.h"
#include "set_reader.h"

/* Readings of this frame's cards, by the rectified image's content: the
 * finder reads the cards it offers, and the pipeline reads them again.
 * Emptied at each frame's find. */
enum { READ_CACHE = 64 };

typedef struct {
    uint64_t key;
    ts_set_reading r;
} cached_read;

typedef struct {
    ts_profile profile;
    ts_set_reader *r;
    ts_set_finder *find; /* made on first use */
    cached_read cache[READ_CACHE];
    int ncache, next; /* filled entries; the one to overwrite next */
    int finding;      /* inside set_find: remember what is read */
} set_reader;

/* A 64-bit hash of an image's pixels (FNV-1a over 8-byte words, mixed). */
static uint64_t image_key(const ts_image *img)
{
    uint64_t h = 1469598103934665603ull ^ ((uint64_t)img->w << 32 | (uint64_t)img->h);
    const size_t row = (size_t)img->w * (size_t)img->channels;
    for (int y = 0; y < img->h; y++) {
        const uint8_t *p = ts_image_row(img, y);
        size_t x = 0;
        for (; x + 8 <= row; x += 8) {
            uint64_t v;
            memcpy(&v, p + x, 8);
            h = (h ^ v) * 1099511628211ull;
            h ^= h >> 29;
        }
        for (; x < row; x++)
            h = (h ^ p[x]) * 1099511628211ull;
    }
    return h;
}

/* ts_set_read, remembered: reading is a function of the image alone. */
static int cached_set_read(void *ctx, const ts_image *card, ts_set_reading *out, char *err)
{
    set_reader *s = ctx;
    if (!s->finding && s->ncache == 0) /* the finder read nothing this frame */
        return ts_set_read(s->r, card, out, err);
    uint64_t key = image_key(card);
    for (int i = 0; i < s->ncache; i++)
        if (s->cache[i].key == key) {
            *out = s->cache[i].r;
            return 0;
        }
    if (ts_set_read(s->r, card, out, err) < 0)
        return -1;
    cached_read *c = &s->cache[s->next];
    s->next = (s->next + 1) % READ_CACHE;
    if (s->ncache < READ_CACHE)
        s->ncache++;
    c->key = key;
    c->r = *out;
    return 0;
}

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
    if (cached_set_read(s, card, &r, err) < 0)
        return -1;
    out->turned = r.turned;
    out->foreign = r.foreign;
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
    s->ncache = s->next = 0; /* a new frame: remember its readings only */
    ts_set_read_with rw = {cached_set_read, s};
    s->finding = 1;
    int n = ts_set_find(s->find, &rw, frame, out, max, err);
    s->finding = 0;
    return n;
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
