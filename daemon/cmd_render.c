/* tablesight render: synthetic card tables with exact ground truth. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "imageio.h"
#include "cv/cvwrap.h"
#include "json.h"
#include "profile.h"
#include "render.h"
#include "rng.h"
#include "set.h"

enum { MAX_FRAMES = 400 };

typedef struct {
    ts_family fam;
    ts_set_deck deck;
    const char *cards; /* explicit codes, or NULL */
    int random;        /* how many random cards when cards is NULL */
    uint64_t seed;
    int w, h, count, overlap;
    const char *sequence; /* deal | trick | mainline | NULL */
    int crops;            /* also write each card, rectified, as its own image */
    const char *out;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight render --game set|qwirkle|gof|domino|playing [OPTIONS] OUT_DIR\n"
            "\n"
            "Draws card tables as a camera would see them, with exact ground truth: each\n"
            "image OUT_DIR/NAME.jpg gets a line in OUT_DIR/labels.tsv ('image<TAB>codes',\n"
            "the shared label format) and OUT_DIR/NAME.json with every card's code, corners\n"
            "(clockwise from the printed top-left) and visible fraction. The same seed gives\n"
            "the same images.\n"
            "\n"
            "  --profile classic|seecards  SET deck to draw (default classic)\n"
            "  --cards 'CODES'    the cards on the table (default: --random 12)\n"
            "  --random N         N distinct random cards\n"
            "  --seed S           picks cards, table, camera, light, printing (default 1)\n"
            "  --size WxH         image size, 64..8192 (default 1280x720)\n"
            "  --count K          K scenes, seeds S, S+1, ... (default 1)\n"
            "  --overlap          lay the cards in an overlapping fan\n"
            "  --crops            write each card of each scene, cut out and rectified, as\n"
            "                     OUT_DIR/NAME_cK.jpg with its own label line (training\n"
            "                     data for ts-train-profile) instead of the scene\n"
            "  --sequence KIND    frames of play: deal (12 SET cards dealt, then a Set taken),\n"
            "                     trick (Gang of Four plays onto the centre), mainline (an\n"
            "                     Eleusis mainline growing); written as OUT_DIR/frame_0001.jpg...\n"
            "\n"
            "Exit status: 0 ok, 1 a file could not be written, 2 usage or a bad card code.\n");
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->fam = TS_FAM_COUNT;
    o->seed = 1;
    o->w = 1280;
    o->h = 720;
    o->count = 1;
    o->random = 12;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cmd_is_help(a)) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--game") == 0 && v) {
            int f = ts_family_from_name(v);
            if (f < 0) {
                fprintf(stderr, "tablesight render: unknown game '%s'\n", v);
                return -1;
            }
            o->fam = (ts_family)f;
            i++;
        } else if (strcmp(a, "--profile") == 0 && v) {
            if (strcmp(v, "classic") && strcmp(v, "seecards")) {
                fprintf(stderr, "tablesight render: --profile is classic or seecards\n");
                return -1;
            }
            o->deck = strcmp(v, "seecards") == 0 ? TS_DECK_SEECARDS : TS_DECK_CLASSIC;
            i++;
        } else if (strcmp(a, "--cards") == 0 && v) {
            o->cards = v;
            i++;
        } else if (strcmp(a, "--random") == 0 && v) {
            o->random = atoi(v);
            i++;
        } else if (strcmp(a, "--seed") == 0 && v) {
            o->seed = strtoull(v, NULL, 10);
            i++;
        } else if (strcmp(a, "--size") == 0 && v) {
            if (sscanf(v, "%dx%d", &o->w, &o->h) != 2 || o->w < 64 || o->h < 64 || o->w > 8192 ||
                o->h > 8192) {
                fprintf(stderr, "tablesight render: --size takes WxH, 64..8192\n");
                return -1;
            }
            i++;
        } else if (strcmp(a, "--count") == 0 && v) {
            o->count = atoi(v);
            i++;
        } else if (strcmp(a, "--overlap") == 0) {
            o->overlap = 1;
        } else if (strcmp(a, "--crops") == 0) {
            o->crops = 1;
        } else if (strcmp(a, "--sequence") == 0 && v) {
            o->sequence = v;
            i++;
        } else if (a[0] == '-' || o->out) {
            fprintf(stderr, "tablesight render: unexpected argument '%s'\n", a);
            return -1;
        } else {
            o->out = a;
        }
    }
    if (o->fam == TS_FAM_COUNT || !o->out) {
        usage(stderr);
        return -1;
    }
    if (o->count < 1 || o->count > 10000 || o->random < 0 || o->random > TS_RENDER_MAX_CARDS) {
        fprintf(stderr, "tablesight render: --count takes 1..10000, --random 0..%d\n",
                TS_RENDER_MAX_CARDS);
        return -1;
    }
    return 0;
}

/* ---- Cards -------------------------------------------------------------------- */

/* n distinct random cards of the family. */
static int random_cards(ts_family fam, int n, uint64_t *rng, ts_code *out)
{
    int size = ts_family_size(fam), k = 0;
    unsigned char used[256] = {0};
    if (n > size)
        n = size;
    while (k < n) {
        int idx = rng_int(rng, size);
        if (fam == TS_FAM_GOF && idx >= 30 && idx < 60)
            continue; /* no such cards (codes.h) */
        if (used[idx])
            continue;
        used[idx] = 1;
        out[k++] = (ts_code){(uint8_t)fam, (uint8_t)idx};
    }
    return n;
}

static int parse_cards(const options *o, ts_code *out)
{
    char err[128];
    int n = ts_code_parse_list(o->fam, o->cards, out, TS_RENDER_MAX_CARDS, err, sizeof err);
    if (n < 0)
        fprintf(stderr, "tablesight render: %s\n", err);
    return n;
}

/* ---- Output -------------------------------------------------------------------- */

typedef struct {
    const char *dir;
    FILE *labels;
    const ts_set_letters *letters; /* how SET codes are printed (the deck's own) */
    int crops;
} writer;

static void code_text(const writer *wr, ts_code c, char out[TS_CODE_MAXLEN])
{
    if (c.family == TS_FAM_SET)
        ts_set_format(wr->letters, c.idx, out);
    else
        ts_code_format(c, out);
}

/* Writes each card of sc, cut out of the image and rectified, with a label. */
static int write_crops(writer *wr, const char *name, const ts_scene *sc)
{
    char err[TSCV_ERR_MAX], path[4096], code[TS_CODE_MAXLEN];
    for (int i = 0; i < sc->ncards; i++) {
        if (sc->cards[i].visible < 0.98f)
            continue; /* covered or cut by the frame: not a whole card */
        ts_image crop = {0};
        if (tscv_warp_quad(&sc->img, sc->cards[i].quad, &crop, 160, 250, err) < 0)
            return -1;
        snprintf(path, sizeof path, "%s/%s_c%d.jpg", wr->dir, name, i);
        int rc = ts_image_save(&crop, path, err, sizeof err);
        ts_image_free(&crop);
        if (rc < 0) {
            fprintf(stderr, "tablesight render: %s\n", err);
            return -1;
        }
        code_text(wr, sc->cards[i].code, code);
        fprintf(wr->labels, "%s_c%d.jpg\t%s\n", name, i, code);
    }
    return 0;
}

static int write_scene(writer *wr, const char *name, const ts_scene *sc, const char *game)
{
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/%s.jpg", wr->dir, name);
    if (ts_image_save_jpeg(&sc->img, path, sc->jpeg_quality, err, sizeof err) < 0) {
        fprintf(stderr, "tablesight render: %s\n", err);
        return -1;
    }
    ts_json j;
    ts_json_init(&j);
    ts_json_obj(&j);
    ts_json_key(&j, "image");
    snprintf(path, sizeof path, "%s.jpg", name);
    ts_json_str(&j, path);
    ts_json_key(&j, "game");
    ts_json_str(&j, game);
    ts_json_key(&j, "w");
    ts_json_int(&j, sc->img.w);
    ts_json_key(&j, "h");
    ts_json_int(&j, sc->img.h);
    ts_json_key(&j, "cards");
    ts_json_arr(&j);
    fprintf(wr->labels, "%s.jpg\t", name);
    for (int i = 0; i < sc->ncards; i++) {
        char code[TS_CODE_MAXLEN];
        code_text(wr, sc->cards[i].code, code);
        fprintf(wr->labels, "%s%s", i ? " " : "", code);
        ts_json_obj(&j);
        ts_json_key(&j, "code");
        ts_json_str(&j, code);
        ts_json_key(&j, "quad");
        ts_json_arr(&j);
        for (int k = 0; k < 4; k++) {
            ts_json_arr(&j);
            ts_json_num(&j, sc->cards[i].quad[k].x, 1);
            ts_json_num(&j, sc->cards[i].quad[k].y, 1);
            ts_json_end(&j);
        }
        ts_json_end(&j);
        ts_json_key(&j, "visible");
        ts_json_num(&j, sc->cards[i].visible, 3);
        ts_json_end(&j);
    }
    fprintf(wr->labels, "\n");
    ts_json_end(&j);
    ts_json_end(&j);
    snprintf(path, sizeof path, "%s/%s.json", wr->dir, name);
    FILE *jf = fopen(path, "w");
    int ok = jf && fprintf(jf, "%s\n", j.buf.data) > 0;
    if (jf && fclose(jf) != 0)
        ok = 0;
    ts_json_free(&j);
    if (!ok) {
        fprintf(stderr, "tablesight render: %s: cannot write: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int render_one(writer *wr, const ts_scene_spec *spec, const char *name, const char *game)
{
    ts_scene sc;
    char err[TSCV_ERR_MAX];
    if (ts_render_scene(spec, &sc, err) < 0) {
        fprintf(stderr, "tablesight render: %s\n", err);
        return -1;
    }
    int rc = wr->crops ? write_crops(wr, name, &sc) : write_scene(wr, name, &sc, game);
    ts_scene_free(&sc);
    return rc;
}

/* ---- Sequences ------------------------------------------------------------------ */

/* Frames of play on one table under one camera: present[f][i] says whether
 * laid-out card i is on the table in frame f. */
static int sequence(writer *wr, const ts_scene_spec *full, const unsigned char *present,
                    int frames, const char *game)
{
    for (int f = 0; f < frames; f++) {
        ts_scene_spec s = *full; /* every card placed, so the camera stays put */
        s.frame = f;
        for (int i = 0; i < full->ncards; i++)
            s.cards[i].hidden = !present[f * TS_RENDER_MAX_CARDS + i];
        char name[32];
        snprintf(name, sizeof name, "frame_%04d", f + 1);
        if (render_one(wr, &s, name, game) < 0)
            return -1;
    }
    return 0;
}

static int run_sequence(writer *wr, const options *o, uint64_t *rng)
{
    static unsigned char present[MAX_FRAMES * TS_RENDER_MAX_CARDS];
    memset(present, 0, sizeof present);
    ts_scene_spec spec = {0};
    spec.w = o->w;
    spec.h = o->h;
    spec.seed = o->seed;
    spec.deck = o->deck;
    int frames = 0;
    const char *game;
    if (strcmp(o->sequence, "deal") == 0) {
        /* 12 SET cards holding at least one Set, dealt one a frame (each
         * held two frames), then a Set taken away. */
        game = "set";
        spec.family = TS_FAM_SET;
        int idx[12], set[3];
        ts_code c[12];
        do {
            random_cards(TS_FAM_SET, 12, rng, c);
            for (int i = 0; i < 12; i++)
                idx[i] = c[i].idx;
        } while (!ts_set_exists(idx, 12, set));
        spec.ncards = 12;
        for (int i = 0; i < 12; i++)
            spec.cards[i].code = c[i];
        ts_render_layout(&spec, rng);
        frames = 1 + 12 * 2 + 4 + 6;
        for (int f = 0; f < frames; f++)
            for (int i = 0; i < 12; i++) {
                int dealt = f >= 1 + 2 * i;
                int taken = f >= 1 + 24 + 4 && (i == set[0] || i == set[1] || i == set[2]);
                present[f * TS_RENDER_MAX_CARDS + i] = (unsigned char)(dealt && !taken);
            }
    } else if (strcmp(o->sequence, "trick") == 0) {
        /* A Gang of Four trick: singles then higher singles onto the centre. */
        game = "gof";
        spec.family = TS_FAM_GOF;
        spec.overlap = 1;
        int n = 6;
        for (int i = 0; i < n; i++) /* rising numbers, mixed colours */
            spec.cards[i].code = (ts_code){TS_FAM_GOF, (uint8_t)(rng_int(rng, 3) * 10 + 2 + i)};
        spec.ncards = n;
        ts_render_layout(&spec, rng);
        frames = 1 + n * 3;
        for (int f = 0; f < frames; f++)
            for (int i = 0; i < n; i++)
                present[f * TS_RENDER_MAX_CARDS + i] = (unsigned char)(f >= 1 + 3 * i);
    } else if (strcmp(o->sequence, "mainline") == 0) {
        /* An Eleusis mainline of playing cards growing left to right. */
        game = "playing";
        spec.family = TS_FAM_PLAYING;
        int n = 10;
        ts_code c[10];
        random_cards(TS_FAM_PLAYING, n, rng, c);
        for (int i = 0; i < n; i++)
            spec.cards[i].code = c[i];
        spec.ncards = n;
        ts_render_layout(&spec, rng);
        for (int i = 0; i < n; i++) { /* one row */
            spec.cards[i].x = i * 70.0f;
            spec.cards[i].y = 0;
        }
        frames = 1 + n * 2;
        for (int f = 0; f < frames; f++)
            for (int i = 0; i < n; i++)
                present[f * TS_RENDER_MAX_CARDS + i] = (unsigned char)(f >= 1 + 2 * i);
    } else {
        fprintf(stderr, "tablesight render: --sequence is deal, trick or mainline\n");
        return 2;
    }
    return sequence(wr, &spec, present, frames, game) < 0 ? 1 : 0;
}

/* ---- Command ---------------------------------------------------------------------- */

int cmd_render(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o) < 0)
        return 2;
    ts_code fixed[TS_RENDER_MAX_CARDS];
    int nfixed = 0;
    if (o.cards && (nfixed = parse_cards(&o, fixed)) < 0)
        return 2;
    if (mkdir(o.out, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "tablesight render: %s: cannot create: %s\n", o.out, strerror(errno));
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/labels.tsv", o.out);
    struct stat st;
    int fresh = stat(path, &st) != 0;
    ts_profile seecards;
    const ts_set_letters *letters = &TS_SET_CLASSIC_LETTERS;
    if (o.fam == TS_FAM_SET && o.deck == TS_DECK_SEECARDS) {
        char err[256];
        if (ts_profile_load("seecards", NULL, &seecards, err, sizeof err) < 0) {
            fprintf(stderr, "tablesight render: %s\n", err);
            return 2;
        }
        letters = &seecards.letters;
    }
    writer wr = {o.out, fopen(path, "a"), letters, o.crops};
    if (!wr.labels) {
        fprintf(stderr, "tablesight render: %s: cannot write: %s\n", path, strerror(errno));
        return 1;
    }
    if (fresh)
        fprintf(wr.labels, "# image\tcards (synthetic: tablesight render)\n");
    const char *game = ts_family_name(o.fam);
    uint64_t rng = o.seed * 0xA24BAED4963EE407ull + 3;
    int rc = 0;
    if (o.sequence) {
        rc = run_sequence(&wr, &o, &rng);
    } else {
        for (int k = 0; k < o.count && rc == 0; k++) {
            ts_scene_spec spec = {0};
            spec.family = o.fam;
            spec.deck = o.deck;
            spec.w = o.w;
            spec.h = o.h;
            spec.seed = o.seed + (uint64_t)k;
            spec.overlap = o.overlap;
            uint64_t crng = spec.seed * 0x94D049BB133111EBull + 5;
            ts_code codes[TS_RENDER_MAX_CARDS];
            spec.ncards = nfixed ? nfixed : random_cards(o.fam, o.random, &crng, codes);
            for (int i = 0; i < spec.ncards; i++)
                spec.cards[i].code = nfixed ? fixed[i] : codes[i];
            ts_render_layout(&spec, &crng);
            char name[64];
            snprintf(name, sizeof name, "%s_%llu", game, (unsigned long long)spec.seed);
            rc = render_one(&wr, &spec, name, game) < 0 ? 1 : 0;
            if (o.count > 20 && (k + 1) % 20 == 0)
                fprintf(stderr, "render: %d/%d\n", k + 1, o.count);
        }
    }
    if (fclose(wr.labels) != 0)
        rc = 1;
    return rc;
}
