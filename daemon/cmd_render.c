/* tablesight render: synthetic card tables with exact ground truth. The
 * renderer itself is samples/render/ (render.h); this file reads the
 * arguments and writes the images, labels and JSON. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch.h"
#include "cmd.h"
#include "cv/cvwrap.h"
#include "imageio.h"
#include "json.h"
#include "profile.h"
#include "render.h"

enum { CROP_H = 250 };

typedef struct {
    int fam; /* ts_family, -1 until given */
    ts_set_deck deck;
    const char *cards; /* explicit codes, or NULL */
    int random;        /* how many dealt cards when cards is NULL */
    unsigned long long seed;
    int w, h, count, quality, crops, quiet;
    int layout;   /* ts_layout */
    int sequence; /* ts_sequence_kind, -1 = none */
    const char *out;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight render --game set|qwirkle|gof|domino|playing [OPTIONS] OUT_DIR\n"
            "       tablesight render --sequence deal|trick|mainline [OPTIONS] OUT_DIR\n"
            "\n"
            "Draws card tables as a camera would see them, with exact ground truth: each\n"
            "image OUT_DIR/NAME.jpg gets a line in OUT_DIR/labels.tsv ('image<TAB>codes', the\n"
            "shared label format, appended) and OUT_DIR/NAME.json with every card's code,\n"
            "corners (clockwise from its printed top-left), visible fraction, and how the\n"
            "scene was made. The same arguments give the same bytes.\n"
            "\n"
            "  --profile classic|seecards  SET deck to print (default classic); SeeCards\n"
            "                     codes use the deck's letters (123 RGB HLS STD, e.g. 2BLS)\n"
            "  --cards 'CODES'    exactly these cards, in this order (later ones on top)\n"
            "  --random N         N cards dealt from a shuffled real deck (default 12)\n"
            "  --seed S           picks cards, layout, table, camera, light (default 1)\n"
            "  --size WxH         image size, %d..%d a side (default 1280x720)\n"
            "  --count K          K scenes with seeds S, S+1, ... (default 1)\n"
            "  --layout NAME      auto (default), grid, touching, scatter, pile, fan, row\n"
            "  --quality Q        JPEG quality 1..100 (default: the simulated camera's)\n"
            "  --crops            write each whole card of each scene, cut out and\n"
            "                     rectified, as NAME_cK.jpg with its own label line\n"
            "                     (training data for ts-train-profile), not the scene\n"
            "  --sequence KIND    numbered frames of play, OUT_DIR/frame_0001.jpg ...:\n"
            "                       deal      12 SET cards dealt one at a time, a Set taken\n"
            "                       trick     a Gang of Four trick played onto the centre\n"
            "                       mainline  an Eleusis mainline of playing cards growing\n"
            "  --quiet            no progress on stderr\n"
            "\n"
            "  -h, --help         this text\n"
            "      --version      the version\n"
            "\n"
            "Exit status: 0 ok, 1 a file could not be written, 2 usage or a bad card code.\n",
            TS_RENDER_MIN_SIDE, TS_RENDER_MAX_SIDE);
}

/* ---- Arguments ----------------------------------------------------------- */

/* parse() returns 0 to go on, 1 when --help or --version was answered, -1 on
 * a usage error (printed). */

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tablesight render: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return -1;
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->fam = -1;
    o->seed = 1;
    o->w = 1280;
    o->h = 720;
    o->count = 1;
    o->random = -1;
    o->sequence = -1;
    long long n;
    int count_given = 0;
    enum { O_GAME = CMD_OPT_LONG, O_PROFILE, O_CARDS, O_RANDOM, O_SEED, O_SIZE, O_COUNT,
           O_LAYOUT, O_QUALITY, O_SEQUENCE, O_CROPS, O_QUIET };
    static const struct option OPTS[] = {
        {"game", required_argument, NULL, O_GAME},
        {"profile", required_argument, NULL, O_PROFILE},
        {"cards", required_argument, NULL, O_CARDS},
        {"random", required_argument, NULL, O_RANDOM},
        {"seed", required_argument, NULL, O_SEED},
        {"size", required_argument, NULL, O_SIZE},
        {"count", required_argument, NULL, O_COUNT},
        {"layout", required_argument, NULL, O_LAYOUT},
        {"quality", required_argument, NULL, O_QUALITY},
        {"sequence", required_argument, NULL, O_SEQUENCE},
        {"crops", no_argument, NULL, O_CROPS},
        {"quiet", no_argument, NULL, O_QUIET},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("render", argc, argv, OPTS)) != -1;) {
        const char *v = optarg;
        switch (c) {
        case 'h':
            usage(stdout);
            return 1;
        case CMD_OPT_VERSION:
            cmd_version();
            return 1;
        case '?':
            return -1;
        case O_GAME:
            if ((o->fam = ts_family_from_name(v)) < 0)
                return bad("unknown game '%s' (set, qwirkle, gof, domino, playing)", v);
            break;
        case O_PROFILE:
            if (strcmp(v, "classic") && strcmp(v, "seecards"))
                return bad("--profile is classic or seecards, not '%s'", v);
            o->deck = strcmp(v, "seecards") == 0 ? TS_DECK_SEECARDS : TS_DECK_CLASSIC;
            break;
        case O_CARDS:
            o->cards = v;
            break;
        case O_RANDOM:
            if (cmd_whole("render", "--random", v, 0, TS_RENDER_MAX_CARDS, &n) < 0)
                return -1;
            o->random = (int)n;
            break;
        case O_SEED:
            if (cmd_whole("render", "--seed", v, 0, (long long)1 << 53, &n) < 0)
                return -1;
            o->seed = (unsigned long long)n;
            break;
        case O_SIZE: {
            char tail;
            if (sscanf(v, "%dx%d%c", &o->w, &o->h, &tail) != 2 || o->w < TS_RENDER_MIN_SIDE ||
                o->h < TS_RENDER_MIN_SIDE || o->w > TS_RENDER_MAX_SIDE ||
                o->h > TS_RENDER_MAX_SIDE) {
                fprintf(stderr, "tablesight render: --size takes WxH, %d..%d a side, not '%s'\n",
                        TS_RENDER_MIN_SIDE, TS_RENDER_MAX_SIDE, v);
                return -1;
            }
            break;
        }
        case O_COUNT:
            if (cmd_whole("render", "--count", v, 1, 100000, &n) < 0)
                return -1;
            o->count = (int)n;
            count_given = 1;
            break;
        case O_LAYOUT:
            if ((o->layout = ts_layout_from_name(v)) < 0)
                return bad("unknown layout '%s' (auto, grid, touching, scatter, pile, fan, row)",
                           v);
            break;
        case O_QUALITY:
            if (cmd_whole("render", "--quality", v, 1, 100, &n) < 0)
                return -1;
            o->quality = (int)n;
            break;
        case O_SEQUENCE:
            if ((o->sequence = ts_sequence_from_name(v)) < 0)
                return bad("unknown sequence '%s' (deal, trick, mainline)", v);
            break;
        case O_CROPS:
            o->crops = 1;
            break;
        case O_QUIET:
            o->quiet = 1;
            break;
        }
    }
    if (optind < argc)
        o->out = argv[optind];
    if (optind + 1 < argc)
        return bad("one OUT_DIR only ('%s' and '%s')", argv[optind], argv[optind + 1]);
    if (!o->out || (o->fam < 0 && o->sequence < 0))
        return bad("needs --game (or --sequence) and OUT_DIR; see --help");
    if (o->sequence >= 0) {
        int fam = ts_sequence_family((ts_sequence_kind)o->sequence);
        if (o->fam >= 0 && o->fam != fam)
            return bad("--sequence %s is played with %s cards", ts_sequence_name(o->sequence),
                       ts_family_name((ts_family)fam));
        if (o->cards || o->random >= 0 || count_given || o->layout || o->crops)
            return bad("--sequence plans its own cards: no --cards, --random, --count, --layout "
                       "or --crops");
        o->fam = fam;
    }
    if (o->cards && o->random >= 0)
        return bad("--cards and --random exclude each other");
    if (o->deck != TS_DECK_CLASSIC && o->fam != TS_FAM_SET)
        return bad("--profile picks a SET deck; %s has one design",
                   ts_family_name((ts_family)o->fam));
    if (o->random < 0)
        o->random = 12;
    return 0;
}

/* ---- Cards --------------------------------------------------------------- */

/* Parses --cards: SET codes in the deck's own letters, others by codes.h. */
static int parse_cards(const options *o, const ts_set_letters *letters, ts_code *out)
{
    char err[128];
    if (o->fam != TS_FAM_SET) {
        int n = ts_code_parse_list((ts_family)o->fam, o->cards, out, TS_RENDER_MAX_CARDS, err,
                                   sizeof err);
        if (n < 0)
            fprintf(stderr, "tablesight render: %s\n", err);
        return n;
    }
    int n = 0;
    for (const char *p = o->cards;;) {
        p += strspn(p, " ,\t\n");
        size_t len = strcspn(p, " ,\t\n");
        if (!len)
            break;
        int idx;
        if (n == TS_RENDER_MAX_CARDS) {
            fprintf(stderr, "tablesight render: too many cards (at most %d)\n",
                    TS_RENDER_MAX_CARDS);
            return -1;
        }
        if (ts_set_parse(letters, p, len, &idx) < 0) {
            fprintf(stderr, "tablesight render: '%.*s' is not a %s SET card code\n",
                    (int)(len > 32 ? 32 : len), p,
                    o->deck == TS_DECK_SEECARDS ? "SeeCards" : "classic");
            return -1;
        }
        out[n++] = (ts_code){TS_FAM_SET, (uint8_t)idx};
        p += len;
    }
    return n;
}

/* ---- Output -------------------------------------------------------------- */

typedef struct {
    const options *o;
    FILE *labels;
    const ts_set_letters *letters; /* how SET codes are printed (the deck's own) */
    int written;
} writer;

static void code_text(const writer *wr, ts_code c, char out[TS_CODE_MAXLEN])
{
    if (c.family == TS_FAM_SET)
        ts_set_format(wr->letters, c.idx, out);
    else
        ts_code_format(c, out);
}

static int save(const writer *wr, const ts_image *img, const char *name, int quality)
{
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/%s", wr->o->out, name);
    if (ts_image_save_jpeg(img, path, quality, err, sizeof err) < 0) {
        fprintf(stderr, "tablesight render: %s\n", err);
        return -1;
    }
    return 0;
}

/* Each whole card of sc, cut out and rectified, with its own label line. */
static int write_crops(writer *wr, const char *name, const ts_scene *sc)
{
    char err[TSCV_ERR_MAX], file[128], code[TS_CODE_MAXLEN];
    for (int i = 0; i < sc->ncards; i++) {
        if (sc->cards[i].visible < 0.98f)
            continue; /* covered or cut by the frame: not a whole card */
        float cw, ch;
        ts_render_card_size((ts_family)sc->cards[i].code.family, &cw, &ch);
        ts_image crop = {0};
        if (tscv_warp_quad(&sc->img, sc->cards[i].quad, &crop, (int)(CROP_H * cw / ch + 0.5f),
                           CROP_H, err) < 0) {
            fprintf(stderr, "tablesight render: %s\n", err);
            return -1;
        }
        snprintf(file, sizeof file, "%s_c%d.jpg", name, i);
        int rc = save(wr, &crop, file, wr->o->quality ? wr->o->quality : 92);
        ts_image_free(&crop);
        if (rc < 0)
            return -1;
        code_text(wr, sc->cards[i].code, code);
        fprintf(wr->labels, "%s\t%s\n", file, code);
        wr->written++;
    }
    return 0;
}

static void json_scene(ts_json *j, const writer *wr, const char *image, const ts_scene_spec *spec,
                       const ts_scene *sc, int quality)
{
    const ts_scene_info *in = &sc->info;
    ts_json_obj(j);
    ts_json_key(j, "image");
    ts_json_str(j, image);
    ts_json_key(j, "game");
    ts_json_str(j, ts_family_name(spec->family));
    if (spec->family == TS_FAM_SET) {
        ts_json_key(j, "deck");
        ts_json_str(j, spec->deck == TS_DECK_SEECARDS ? "seecards" : "classic");
    }
    ts_json_key(j, "seed");
    ts_json_int(j, (long long)spec->seed);
    ts_json_key(j, "frame");
    ts_json_int(j, spec->frame);
    ts_json_key(j, "synthetic");
    ts_json_bool(j, 1);
    ts_json_key(j, "w");
    ts_json_int(j, sc->img.w);
    ts_json_key(j, "h");
    ts_json_int(j, sc->img.h);
    ts_json_key(j, "cards");
    ts_json_arr(j);
    for (int i = 0; i < sc->ncards; i++) {
        char code[TS_CODE_MAXLEN];
        code_text(wr, sc->cards[i].code, code);
        ts_json_obj(j);
        ts_json_key(j, "code");
        ts_json_str(j, code);
        ts_json_key(j, "quad");
        ts_json_arr(j);
        for (int k = 0; k < 4; k++) {
            ts_json_arr(j);
            ts_json_num(j, sc->cards[i].quad[k].x, 2);
            ts_json_num(j, sc->cards[i].quad[k].y, 2);
            ts_json_end(j);
        }
        ts_json_end(j);
        ts_json_key(j, "visible");
        ts_json_num(j, sc->cards[i].visible, 3);
        ts_json_end(j);
    }
    ts_json_end(j);
    ts_json_key(j, "scene");
    ts_json_obj(j);
    ts_json_key(j, "table");
    ts_json_str(j, in->table);
    ts_json_key(j, "camera");
    ts_json_str(j, in->camera);
    ts_json_key(j, "tilt_deg");
    ts_json_num(j, in->tilt_deg, 1);
    ts_json_key(j, "fov_deg");
    ts_json_num(j, in->fov_deg, 1);
    ts_json_key(j, "distance_mm");
    ts_json_num(j, in->distance_mm, 0);
    ts_json_key(j, "lens_k1");
    ts_json_num(j, in->lens_k1, 3);
    ts_json_key(j, "kelvin");
    ts_json_num(j, in->kelvin, 0);
    ts_json_key(j, "blur_px");
    ts_json_num(j, in->blur_px, 2);
    ts_json_key(j, "noise");
    ts_json_num(j, in->noise, 2);
    ts_json_key(j, "jpeg_quality");
    ts_json_int(j, quality);
    ts_json_end(j);
    ts_json_end(j);
}

static int write_scene(writer *wr, const char *name, const ts_scene_spec *spec, const ts_scene *sc)
{
    char image[128], path[4096];
    int quality = wr->o->quality ? wr->o->quality : sc->info.jpeg_quality;
    snprintf(image, sizeof image, "%s.jpg", name);
    if (save(wr, &sc->img, image, quality) < 0)
        return -1;
    ts_json j;
    ts_json_init(&j);
    json_scene(&j, wr, image, spec, sc, quality);
    snprintf(path, sizeof path, "%s/%s.json", wr->o->out, name);
    FILE *f = fopen(path, "w");
    int ok = f && !j.buf.failed && fprintf(f, "%s\n", j.buf.data) > 0;
    if (f && fclose(f) != 0)
        ok = 0;
    ts_json_free(&j);
    if (!ok) {
        fprintf(stderr, "tablesight render: %s: cannot write: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(wr->labels, "%s\t", image);
    for (int i = 0; i < sc->ncards; i++) {
        char code[TS_CODE_MAXLEN];
        code_text(wr, sc->cards[i].code, code);
        fprintf(wr->labels, "%s%s", i ? " " : "", code);
    }
    fprintf(wr->labels, "\n");
    wr->written++;
    return 0;
}

static int render_one(writer *wr, const ts_scene_spec *spec, const char *name)
{
    ts_scene sc;
    char err[TSCV_ERR_MAX];
    if (ts_render_scene(spec, &sc, err) < 0) {
        fprintf(stderr, "tablesight render: %s\n", err);
        return -1;
    }
    int rc = wr->o->crops ? write_crops(wr, name, &sc) : write_scene(wr, name, spec, &sc);
    ts_scene_free(&sc);
    return rc;
}

/* ---- Command ------------------------------------------------------------- */

static int run_scenes(writer *wr, const ts_code *fixed, int nfixed)
{
    const options *o = wr->o;
    batch_progress pr;
    batch_progress_start(&pr, "render", o->count);
    for (int k = 0; k < o->count; k++) {
        ts_scene_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.family = (ts_family)o->fam;
        spec.deck = o->deck;
        spec.w = o->w;
        spec.h = o->h;
        spec.seed = o->seed + (uint64_t)k;
        ts_code codes[TS_RENDER_MAX_CARDS];
        spec.ncards =
            nfixed ? nfixed : ts_render_draw_cards(spec.family, o->random, spec.seed, codes);
        for (int i = 0; i < spec.ncards; i++)
            spec.cards[i].code = nfixed ? fixed[i] : codes[i];
        ts_render_layout(&spec, (ts_layout)o->layout);
        char name[64];
        snprintf(name, sizeof name, "%s_%llu", ts_family_name(spec.family),
                 (unsigned long long)spec.seed);
        if (render_one(wr, &spec, name) < 0)
            return 1;
        if (!o->quiet)
            batch_progress_tick(&pr, k + 1);
    }
    if (!o->quiet)
        batch_progress_end(&pr);
    return 0;
}

static int run_sequence(writer *wr)
{
    const options *o = wr->o;
    ts_scene_spec look = {.deck = o->deck, .w = o->w, .h = o->h, .seed = o->seed};
    static ts_sequence seq;
    char err[TSCV_ERR_MAX];
    if (ts_render_sequence((ts_sequence_kind)o->sequence, &look, &seq, err) < 0) {
        fprintf(stderr, "tablesight render: %s\n", err);
        return 1;
    }
    batch_progress pr;
    batch_progress_start(&pr, "render", seq.nframes);
    for (int f = 0; f < seq.nframes; f++) {
        ts_scene_spec spec;
        ts_sequence_frame(&seq, f, &spec);
        char name[32];
        snprintf(name, sizeof name, "frame_%04d", f + 1);
        if (render_one(wr, &spec, name) < 0)
            return 1;
        if (!o->quiet)
            batch_progress_tick(&pr, f + 1);
    }
    if (!o->quiet)
        batch_progress_end(&pr);
    return 0;
}

int cmd_render(int argc, char **argv)
{
    options o;
    int pr = parse(argc, argv, &o);
    if (pr != 0)
        return pr < 0 ? 2 : 0;
    static ts_profile seecards;
    const ts_set_letters *letters = &TS_SET_CLASSIC_LETTERS;
    if (o.fam == TS_FAM_SET && o.deck == TS_DECK_SEECARDS) {
        char err[256];
        if (ts_profile_load("seecards", NULL, &seecards, err, sizeof err) < 0) {
            fprintf(stderr, "tablesight render: %s\n", err);
            return 2;
        }
        letters = &seecards.letters;
    }
    ts_code fixed[TS_RENDER_MAX_CARDS];
    int nfixed = 0;
    if (o.cards && (nfixed = parse_cards(&o, letters, fixed)) <= 0) {
        if (nfixed == 0)
            fprintf(stderr, "tablesight render: --cards names no card\n");
        return 2;
    }
    char path[4096];
    if (batch_mkdir(o.out, path, sizeof path) < 0) {
        fprintf(stderr, "tablesight render: %s\n", path);
        return 1;
    }
    snprintf(path, sizeof path, "%s/labels.tsv", o.out);
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    writer wr = {&o, fopen(path, "a"), letters, 0};
    if (!wr.labels) {
        fprintf(stderr, "tablesight render: %s: cannot write: %s\n", path, strerror(errno));
        return 1;
    }
    if (fresh)
        fprintf(wr.labels,
                "# image\tcards (synthetic: drawn by tablesight render, not photographed)\n");
    int rc = o.sequence >= 0 ? run_sequence(&wr) : run_scenes(&wr, fixed, nfixed);
    if (fclose(wr.labels) != 0) {
        fprintf(stderr, "tablesight render: %s: cannot write: %s\n", path, strerror(errno));
        rc = 1;
    }
    return rc;
}
