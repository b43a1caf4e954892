/* tablesight eval: recognition accuracy against a label file.
 *
 * Labels give each image's cards as an unordered multiset, without positions,
 * so: card accuracy = |read codes ∩ label codes| / label cards (multiset);
 * detection recall = min(found, labelled) / labelled per image; false cards =
 * found beyond the labelled count. Per-attribute accuracy pairs each labelled
 * card with the found card that agrees with it on the most attributes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cmd.h"
#include "imageio.h"
#include "json.h"
#include "labels.h"
#include "overlay.h"
#include "stats.h"

enum { MAX_LABEL_CARDS = TS_LABEL_MAX_CARDS, MAX_WRONG_SHOWN = 200 };

typedef ts_label label;

typedef struct {
    int images, failed, cards, correct, found, matched, false_cards, unread, wrong_images;
    int attr_n, attr_ok[4];
    int confusion[4][4][4]; /* SET: attr, truth value, read value (3 = not read) */
    double *ms;             /* detect+classify+rules per image */
} tally;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tablesight eval [--json] [--report DIR] [--game GAME] [--profile NAME]\n"
            "                       [--max-pixels N] LABELS.tsv\n"
            "\n"
            "Scans every image of a label file (lines 'image<TAB>codes', paths relative\n"
            "to the file, '#' comments) and prints card accuracy (multiset match per\n"
            "image, unread cards count as wrong), detection recall, false cards,\n"
            "per-attribute accuracy and the images it got wrong.\n"
            "\n"
            "  --json          one summary object instead of text\n"
            "  --report DIR    write DIR/index.html: confusion matrices and annotated\n"
            "                  thumbnails of every wrong image\n"
            "  --game GAME     the cards to read (as scan; default: the profile's family,\n"
            "                  else set); labels are codes in the deck's own letters\n"
            "  --profile NAME  deck profile (as scan)\n"
            "  --max-pixels N  refuse images larger than N pixels (\"50M\"), before decoding\n"
            "\n"
            "A malformed label file is a fatal error (exit 2) naming the line; an image\n"
            "that cannot be read is reported and counted as failed.\n");
}

/* ---- Label file --------------------------------------------------------- */

/* A label code in the deck's letters, in the pipeline's family (any for auto). */
static int parse_label_code(void *ctx, const char *text, size_t len, ts_code *out)
{
    const ts_pipeline *pl = ctx;
    return ts_pipeline_parse_code(pl, ts_pipeline_family(pl), text, len, out);
}

static int load_labels(const char *file, const ts_pipeline *pl, label **out, int *nout,
                       char *err, size_t errlen)
{
    int fam = ts_pipeline_family(pl);
    return ts_labels_load(file, parse_label_code, (void *)pl,
                          fam >= 0 ? ts_family_name((ts_family)fam) : "known", out, nout, err,
                          errlen);
}

/* ---- Scoring ------------------------------------------------------------ */

/* A card's attributes (what a reader reads separately), for per-attribute
 * accuracy: returns how many, values in v. */
static int code_attrs(ts_code c, int v[4])
{
    switch (c.family) {
    case TS_FAM_SET:
        for (int a = 0; a < 4; a++)
            v[a] = ts_set_attr(c.idx, a);
        return 4;
    case TS_FAM_PLAYING: /* rank, suit */
        v[0] = c.idx % 13, v[1] = c.idx / 13;
        return 2;
    case TS_FAM_GOF: /* colour (M1 its own), number (phoenix 10, dragon 11) */
        if (c.idx < 30)
            v[0] = c.idx / 10, v[1] = c.idx % 10;
        else
            v[0] = c.idx == 60 ? 3 : c.idx == 63 ? 2 : c.idx - 61, v[1] = c.idx == 60 ? 0
                                                                   : c.idx == 63 ? 11 : 10;
        return 2;
    case TS_FAM_QWIRKLE: /* colour, shape */
        v[0] = c.idx / 6, v[1] = c.idx % 6;
        return 2;
    case TS_FAM_DOMINO: /* low and high end */
        ts_domino_pips(c.idx, &v[0], &v[1]);
        return 2;
    }
    return 0;
}

static const char *const ATTR_NAMES[TS_FAM_COUNT][4] = {
    [TS_FAM_SET] = {"count", "colour", "shape", "shading"},
    [TS_FAM_PLAYING] = {"rank", "suit"},
    [TS_FAM_GOF] = {"colour", "number"},
    [TS_FAM_QWIRKLE] = {"colour", "shape"},
    [TS_FAM_DOMINO] = {"low end", "high end"},
};

static int same_attrs(ts_code a, ts_code b)
{
    if (a.family != b.family)
        return -1;
    int va[4], vb[4], n = code_attrs(a, va), k = 0;
    code_attrs(b, vb);
    for (int t = 0; t < n; t++)
        k += va[t] == vb[t];
    return k;
}

static int same_code(ts_code a, ts_code b)
{
    return a.family == b.family && a.idx == b.idx;
}

/* Scores one image; returns 1 if it was read perfectly. */
static int score_image(const label *l, const ts_frame_result *r, tally *t)
{
    ts_code read_idx[TS_MAX_CARDS];
    int nread = 0;
    for (int i = 0; i < r->ncards; i++)
        if (r->cards[i].read)
            read_idx[nread++] = r->cards[i].code;
        else
            t->unread++;
    t->cards += l->n;
    t->found += r->ncards;
    t->matched += r->ncards < l->n ? r->ncards : l->n;
    t->false_cards += r->ncards > l->n ? r->ncards - l->n : 0;

    /* Exact multiset matches first, then pair the rest by most attributes. */
    int used_found[TS_MAX_CARDS] = {0}, used_label[MAX_LABEL_CARDS] = {0}, correct = 0;
    int pair[MAX_LABEL_CARDS];
    for (int i = 0; i < l->n; i++) {
        pair[i] = -1;
        for (int k = 0; k < nread; k++)
            if (!used_found[k] && same_code(read_idx[k], l->code[i])) {
                used_found[k] = used_label[i] = 1;
                pair[i] = k;
                correct++;
                break;
            }
    }
    for (int i = 0; i < l->n; i++) {
        if (used_label[i])
            continue;
        int best = -1, bs = -1;
        for (int k = 0; k < nread; k++)
            if (!used_found[k] && same_attrs(read_idx[k], l->code[i]) > bs) {
                bs = same_attrs(read_idx[k], l->code[i]);
                best = k;
            }
        if (best >= 0) {
            used_found[best] = 1;
            pair[i] = best;
        }
    }
    for (int i = 0; i < l->n; i++) {
        int tv[4], rv[4] = {3, 3, 3, 3}, na = code_attrs(l->code[i], tv);
        if (pair[i] >= 0)
            code_attrs(read_idx[pair[i]], rv);
        for (int a = 0; a < na; a++) {
            if (l->code[i].family == TS_FAM_SET)
                t->confusion[a][tv[a]][rv[a]]++;
            if (pair[i] >= 0)
                t->attr_ok[a] += tv[a] == rv[a];
        }
        t->attr_n += pair[i] >= 0;
    }
    t->correct += correct;
    return correct == l->n && r->ncards == l->n;
}

/* ---- Report ------------------------------------------------------------- */

/* SET: per-attribute confusion, in the deck's letters. */
static void report_matrices(FILE *f, const tally *t, const ts_pipeline *p)
{
    char L[3][TS_CODE_MAXLEN]; /* L[v][a]: attribute a's letter for value v */
    for (int v = 0; v < 3; v++)
        ts_pipeline_format_code(p, (ts_code){TS_FAM_SET, (uint8_t)ts_set_make(v, v, v, v)}, L[v]);
    for (int a = 0; a < 4; a++) {
        fprintf(f, "<div class=m><h3>%s</h3><table><tr><th>label \\ read</th>",
                ATTR_NAMES[TS_FAM_SET][a]);
        for (int v = 0; v < 3; v++)
            fprintf(f, "<th>%c</th>", L[v][a]);
        fprintf(f, "<th>not read</th></tr>\n");
        for (int tv = 0; tv < 3; tv++) {
            fprintf(f, "<tr><th>%c</th>", L[tv][a]);
            for (int rv = 0; rv < 4; rv++) {
                int c = t->confusion[a][tv][rv];
                fprintf(f, "<td class=%s>%d</td>", rv == tv ? "ok" : c ? "bad" : "", c);
            }
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table></div>\n");
    }
}

/* Text into HTML (element content or a quoted attribute). */
static void html_text(ts_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': ts_buf_add(b, "&amp;", 5); break;
        case '<': ts_buf_add(b, "&lt;", 4); break;
        case '>': ts_buf_add(b, "&gt;", 4); break;
        case '"': ts_buf_add(b, "&quot;", 6); break;
        case '\'': ts_buf_add(b, "&#39;", 5); break;
        default: ts_buf_add(b, s, 1);
        }
    }
}

/* A file name as one URL path segment: everything but unreserved bytes
 * percent-encoded, so '#', '?', '%', quotes and spaces stay part of the name. */
static void url_segment(ts_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~')
            ts_buf_add(b, s, 1);
        else
            ts_buf_printf(b, "%%%02X", c);
    }
}

/* ---- Command ------------------------------------------------------------ */

int cmd_eval(int argc, char **argv)
{
    int json = 0;
    const char *report = NULL, *labels_file = NULL;
    ts_pipeline_config cfg = {0};
    ts_decode_limits lim = {0};
    for (int i = 1; i < argc; i++) {
        if (cmd_is_help(argv[i])) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) {
            report = argv[++i];
        } else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
            cfg.profile = argv[++i];
        } else if (strcmp(argv[i], "--game") == 0 && i + 1 < argc) {
            cfg.game = argv[++i];
        } else if (strcmp(argv[i], "--max-pixels") == 0 && i + 1 < argc) {
            if (batch_parse_pixels(argv[++i], &lim.max_pixels) < 0) {
                fprintf(stderr, "tablesight eval: --max-pixels takes a number of pixels (1 to "
                                "4000M), not '%s'\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-' || labels_file) {
            fprintf(stderr, "tablesight eval: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            labels_file = argv[i];
        }
    }
    if (!labels_file) {
        usage(stderr);
        return 2;
    }
    char err[512];
    ts_pipeline *p = ts_pipeline_create(&cfg, err, sizeof err);
    if (!p) {
        fprintf(stderr, "tablesight eval: %s\n", err);
        return 2;
    }
    label *ls;
    int nl;
    if (load_labels(labels_file, p, &ls, &nl, err, sizeof err) < 0) {
        fprintf(stderr, "tablesight eval: %s\n", err);
        ts_pipeline_destroy(p);
        return 2;
    }
    FILE *html = NULL;
    char imgdir[4096];
    if (report) {
        char path[4096];
        snprintf(imgdir, sizeof imgdir, "%s/wrong", report);
        snprintf(path, sizeof path, "%s/index.html", report);
        if (batch_mkdir(report, err, sizeof err) < 0 || batch_mkdir(imgdir, err, sizeof err) < 0 ||
            !(html = fopen(path, "w"))) {
            fprintf(stderr, "tablesight eval: %s\n", html ? err : path);
            ts_pipeline_destroy(p);
            return 2;
        }
    }
    batch_names names = {0};
    tally t = {0};
    t.ms = calloc((size_t)nl, sizeof *t.ms);
    int nms = 0;
    ts_buf wrong, figures; /* text list and HTML thumbnails of wrong images */
    ts_buf_init(&wrong);
    ts_buf_init(&figures);
    batch_progress prog;
    batch_progress_start(&prog, "eval", nl);
    for (int i = 0; i < nl; i++) {
        ts_image img;
        ts_table tab;
        const ts_frame_result *r = &tab.frame;
        t.images++;
        int rc = batch_process_file(p, ls[i].path, &lim, &img, &tab, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "tablesight eval: %s\n", err);
        if (rc < 0) {
            t.failed++;
            t.cards += ls[i].n;
            continue;
        }
        t.ms[nms++] = r->ms_total + tab.ms_rules;
        if (!score_image(&ls[i], r, &t)) {
            t.wrong_images++;
            ts_buf_printf(&wrong, "  %s: labelled", ls[i].name);
            for (int k = 0; k < ls[i].n; k++) {
                char c[TS_CODE_MAXLEN];
                ts_pipeline_format_code(p, ls[i].code[k], c);
                ts_buf_printf(&wrong, " %s", c);
            }
            ts_buf_printf(&wrong, "; read");
            for (int k = 0; k < r->ncards; k++)
                ts_buf_printf(&wrong, " %s%s", r->cards[k].text, r->cards[k].read ? "" : "?");
            ts_buf_printf(&wrong, "\n");
            if (html && t.wrong_images <= MAX_WRONG_SHOWN) {
                char out[4096];
                if (batch_annotate(&img, &tab, imgdir, ls[i].name, &names, NULL, out, sizeof out,
                                   err, sizeof err) == 0) {
                    ts_buf_printf(&figures, "<figure><img src=\"wrong/");
                    url_segment(&figures, strrchr(out, '/') + 1);
                    ts_buf_printf(&figures, "\" loading=lazy><figcaption>");
                    html_text(&figures, ls[i].name);
                    ts_buf_printf(&figures, "</figcaption></figure>\n");
                } else {
                    fprintf(stderr, "tablesight eval: %s\n", err);
                }
            }
        }
        ts_image_free(&img);
        batch_progress_tick(&prog, i + 1);
    }
    batch_progress_end(&prog);

    double acc = t.cards ? (double)t.correct / t.cards : 0;
    double recall = t.cards ? (double)t.matched / t.cards : 0;
    double med = ts_median(t.ms, nms);
    /* Attributes are those of the labelled family (with --game auto, the
     * first label's). */
    int fam = ls[0].n ? ls[0].code[0].family : TS_FAM_SET, vals[4];
    int nattr = code_attrs((ts_code){(uint8_t)fam, 0}, vals);
    if (json) {
        ts_json j;
        ts_json_init(&j);
        ts_json_obj(&j);
        ts_json_key(&j, "labels");
        ts_json_str(&j, labels_file);
        ts_json_key(&j, "images");
        ts_json_int(&j, t.images);
        ts_json_key(&j, "failed_images");
        ts_json_int(&j, t.failed);
        ts_json_key(&j, "wrong_images");
        ts_json_int(&j, t.wrong_images);
        ts_json_key(&j, "cards");
        ts_json_int(&j, t.cards);
        ts_json_key(&j, "correct");
        ts_json_int(&j, t.correct);
        ts_json_key(&j, "card_accuracy");
        ts_json_num(&j, acc, 4);
        ts_json_key(&j, "detect_recall");
        ts_json_num(&j, recall, 4);
        ts_json_key(&j, "false_cards");
        ts_json_int(&j, t.false_cards);
        ts_json_key(&j, "unread");
        ts_json_int(&j, t.unread);
        ts_json_key(&j, "attribute_accuracy");
        ts_json_obj(&j);
        for (int a = 0; a < nattr; a++) {
            ts_json_key(&j, ATTR_NAMES[fam][a]);
            ts_json_num(&j, t.attr_n ? (double)t.attr_ok[a] / t.attr_n : 0, 4);
        }
        ts_json_end(&j);
        ts_json_key(&j, "median_ms");
        ts_json_num(&j, med, 2);
        ts_json_end(&j);
        puts(j.buf.data);
        ts_json_free(&j);
    } else {
        printf("%s: %d images (%d unreadable), %d labelled cards\n", labels_file, t.images,
               t.failed, t.cards);
        printf("card accuracy   %.2f%% (%d/%d; %d cards below the confidence floor)\n",
               100 * acc, t.correct, t.cards, t.unread);
        printf("detect recall   %.2f%%\n", 100 * recall);
        printf("false cards     %d (%.2f per 20 images)\n", t.false_cards,
               t.images ? 20.0 * t.false_cards / t.images : 0);
        printf("attributes      ");
        for (int a = 0; a < nattr; a++)
            printf("%s %.2f%%%s", ATTR_NAMES[fam][a],
                   t.attr_n ? 100.0 * t.attr_ok[a] / t.attr_n : 0, a < nattr - 1 ? ", " : "");
        printf("\nmedian ms       %.2f (detect + rectify + read + rules, decode excluded)\n",
               med);
        printf("wrong images    %d\n%s", t.wrong_images, wrong.data ? wrong.data : "");
    }
    if (html) {
        fputs(
                "<!doctype html><meta charset=utf-8><title>tablesight eval</title>\n"
                "<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}"
                "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                "td.ok{background:#dfd}td.bad{background:#fdd}.m{display:inline-block;"
                "margin:0 2em 1em 0;vertical-align:top}figure{display:inline-block;margin:4px}"
                "img{max-width:480px;max-height:360px}figcaption{font-size:11px;max-width:480px;"
                "word-break:break-all}</style>\n"
                "<h1>",
            html);
        ts_buf title;
        ts_buf_init(&title);
        html_text(&title, labels_file);
        fputs(title.data ? title.data : "", html);
        ts_buf_free(&title);
        fprintf(html,
                "</h1><p>%d images, %d cards: card accuracy <b>%.2f%%</b>, detection "
                "recall %.2f%%, false cards %d, unread %d, median %.2f ms.</p>\n"
                "<h2>Per-attribute confusion (label rows, reading columns)</h2>\n",
                t.images, t.cards, 100 * acc, 100 * recall, t.false_cards, t.unread, med);
        if (fam == TS_FAM_SET)
            report_matrices(html, &t, p);
        fprintf(html, "<h2>Wrong images (%d%s)</h2>\n", t.wrong_images,
                t.wrong_images > MAX_WRONG_SHOWN ? ", first 200 shown" : "");
        fputs(figures.data ? figures.data : "", html);
        fclose(html);
    }
    for (int i = 0; i < nl; i++) {
        free(ls[i].name);
        free(ls[i].path);
    }
    free(ls);
    batch_names_free(&names);
    free(t.ms);
    ts_buf_free(&wrong);
    ts_buf_free(&figures);
    ts_pipeline_destroy(p);
    return t.failed ? 1 : 0;
}
