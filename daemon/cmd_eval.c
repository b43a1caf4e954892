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
#include "render_truth.h"
#include "result_json.h"
#include "stats.h"

enum { MAX_LABEL_CARDS = TS_LABEL_MAX_CARDS, MAX_WRONG_SHOWN = 200 };

typedef ts_label label;

/* What a labelled card became: read as a code (maybe itself), found but
 * unread (below the confidence floor), or not found at all. */
enum { AS_READ, AS_UNREAD, AS_MISSED };

/* One kind of mistake, counted: label read as read (code-level confusion). */
typedef struct {
    ts_code label, read;
    int how; /* AS_READ (a different code), AS_UNREAD, AS_MISSED */
    int n;
} misread;

/* One image's pairing of labels with found cards (the scoring's). */
typedef struct {
    int card[MAX_LABEL_CARDS]; /* label i -> index in the result's cards, -1 none */
    int how[MAX_LABEL_CARDS];  /* AS_* */
    int extra[TS_MAX_CARDS];   /* found cards no label was paired with */
    int nextra;
} image_match;

/* Rendered cards by how much of them shows (the render's truth). */
typedef struct {
    int cards, correct, wrong; /* wrong: read above the floor as another code */
} vis_tally;

static const float VIS_MIN[2] = {0.99f, 0.5f};
static const char *const VIS_NAMES[2] = {"fully_visible", "half_visible"};

typedef struct {
    int images, failed, cards, correct, found, matched, false_cards, unread, wrong_images;
    int attr_n, attr_ok[4];
    int confusion[4][4][4]; /* SET: attr, truth value, read value (3 = not read) */
    double *ms;             /* detect+classify+rules per image */
    misread *mis;           /* every kind of mistake, most frequent first at the end */
    int nmis, capmis;
    int truth_images;  /* renders: images with the renderer's truth beside them */
    vis_tally vis[2];  /* their cards fully visible, at least half visible */
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
            "per-attribute accuracy and the images it got wrong. Rendered images\n"
            "(tablesight render writes NAME.json beside NAME.jpg: each card's code,\n"
            "corners and visible fraction) are also scored card by card: fully\n"
            "visible and at least half visible cards read right, and read wrong.\n"
            "\n"
            "  --json          one summary object instead of text\n"
            "  --report DIR    write DIR/index.html: confusion matrices and annotated\n"
            "                  thumbnails of every wrong image\n"
            "  --game GAME     the cards to read (as scan; default: the profile's family,\n"
            "                  else set); labels are codes in the deck's own letters\n"
            "  --profile NAME  deck profile (as scan)\n"
            "  --max-pixels N  refuse images larger than N pixels (\"50M\"), before decoding\n"
            "  -h, --help      this text\n"
            "      --version   the version\n"
            "\n"
            "LABELS.tsv of '-' reads the label file from standard input, image paths\n"
            "relative to the working directory. Options may follow the file.\n"
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
    const char *family = fam >= 0 ? ts_family_name((ts_family)fam) : "known";
    if (strcmp(file, "-") != 0)
        return ts_labels_load(file, parse_label_code, (void *)pl, family, out, nout, err,
                              errlen);
    /* "-": labels on standard input, image paths relative to the working directory. */
    uint8_t *data;
    size_t len;
    *out = NULL;
    *nout = 0;
    if (cmd_read_stdin(64 << 20, &data, &len, err, errlen) < 0)
        return -1;
    int rc = ts_labels_parse((const char *)data, len, "-", parse_label_code, (void *)pl, family,
                             out, nout, err, errlen);
    free(data);
    return rc;
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

static void count_misread(tally *t, ts_code label, ts_code read, int how)
{
    for (int i = 0; i < t->nmis; i++)
        if (same_code(t->mis[i].label, label) && t->mis[i].how == how &&
            (how != AS_READ || same_code(t->mis[i].read, read))) {
            t->mis[i].n++;
            return;
        }
    if (t->nmis == t->capmis) {
        int cap = t->capmis ? 2 * t->capmis : 64;
        misread *grown = realloc(t->mis, sizeof *grown * (size_t)cap);
        if (!grown)
            return;
        t->mis = grown;
        t->capmis = cap;
    }
    t->mis[t->nmis++] = (misread){label, read, how, 1};
}

/* Pairs label cards still unpaired with found cards not yet taken (cand[k]
 * indexes r->cards, used[k] marks taken ones): the pair with the most
 * attributes in common first, so a card is not given to an earlier label it
 * merely resembles while its own label goes without. */
static void pair_by_attrs(const label *l, const ts_frame_result *r, const int *cand, int ncand,
                          int *used, image_match *m, int how)
{
    for (;;) {
        int bi = -1, bk = -1, bs = -1;
        for (int i = 0; i < l->n; i++) {
            if (m->card[i] >= 0)
                continue;
            for (int k = 0; k < ncand; k++) {
                int same = used[k] ? -1 : same_attrs(r->cards[cand[k]].code, l->code[i]);
                if (same > bs)
                    bs = same, bi = i, bk = k;
            }
        }
        if (bi < 0)
            return;
        used[bk] = 1;
        m->card[bi] = cand[bk];
        m->how[bi] = how;
    }
}

/* Scores one image and fills m (label order); returns 1 if it was read
 * perfectly. */
static int score_image(const label *l, const ts_frame_result *r, tally *t, image_match *m)
{
    int read_at[TS_MAX_CARDS], unread_at[TS_MAX_CARDS], nread = 0, nunread = 0;
    for (int i = 0; i < r->ncards; i++)
        if (r->cards[i].read)
            read_at[nread++] = i;
        else
            unread_at[nunread++] = i;
    t->unread += nunread;
    t->cards += l->n;
    t->found += r->ncards;
    t->matched += r->ncards < l->n ? r->ncards : l->n;
    t->false_cards += r->ncards > l->n ? r->ncards - l->n : 0;

    /* Exact multiset matches first, then pair the rest by most attributes;
     * for the report only, labels still unpaired go with unread cards. */
    int used_read[TS_MAX_CARDS] = {0}, used_unread[TS_MAX_CARDS] = {0}, correct = 0;
    for (int i = 0; i < l->n; i++) {
        m->card[i] = -1;
        m->how[i] = AS_MISSED;
        for (int k = 0; k < nread; k++)
            if (!used_read[k] && same_code(r->cards[read_at[k]].code, l->code[i])) {
                used_read[k] = 1;
                m->card[i] = read_at[k];
                m->how[i] = AS_READ;
                correct++;
                break;
            }
    }
    pair_by_attrs(l, r, read_at, nread, used_read, m, AS_READ);
    int scored[MAX_LABEL_CARDS]; /* paired with a read card: what accuracy counts */
    for (int i = 0; i < l->n; i++)
        scored[i] = m->card[i];
    pair_by_attrs(l, r, unread_at, nunread, used_unread, m, AS_UNREAD);
    m->nextra = 0;
    for (int k = 0; k < nread; k++)
        if (!used_read[k])
            m->extra[m->nextra++] = read_at[k];
    for (int k = 0; k < nunread; k++)
        if (!used_unread[k])
            m->extra[m->nextra++] = unread_at[k];

    for (int i = 0; i < l->n; i++) {
        int tv[4], rv[4] = {3, 3, 3, 3}, na = code_attrs(l->code[i], tv);
        if (scored[i] >= 0)
            code_attrs(r->cards[scored[i]].code, rv);
        for (int a = 0; a < na; a++) {
            if (l->code[i].family == TS_FAM_SET)
                t->confusion[a][tv[a]][rv[a]]++;
            if (scored[i] >= 0)
                t->attr_ok[a] += tv[a] == rv[a];
        }
        t->attr_n += scored[i] >= 0;
        ts_code got = m->card[i] >= 0 ? r->cards[m->card[i]].code : l->code[i];
        if (m->how[i] != AS_READ || !same_code(got, l->code[i]))
            count_misread(t, l->code[i], got, m->how[i]);
    }
    t->correct += correct;
    return correct == l->n && r->ncards == l->n;
}

/* One wrong image in words, label order: "2GST as 2GSO", "1RDS unread (1RDO?
 * 0.31)", "3POT missed", then "extra 1GDS". Into b as a list of items
 * separated by sep. */
/* A rendered image scored card by card against the renderer's truth: each
 * found card goes to the topmost card under its centre. */
static void score_truth(const ts_truth_card *truth, int nt, const ts_frame_result *r, tally *t)
{
    int got[TS_RENDER_TRUTH_MAX];
    for (int i = 0; i < nt; i++)
        got[i] = -1;
    for (int c = 0; c < r->ncards; c++) {
        int on = ts_render_truth_under(truth, nt, r->cards[c].quad);
        if (on >= 0 && got[on] < 0)
            got[on] = c;
    }
    for (int i = 0; i < nt; i++) {
        const ts_card *c = got[i] >= 0 ? &r->cards[got[i]] : NULL;
        int read = c && c->read, ok = read && same_code(c->code, truth[i].code);
        for (int k = 0; k < 2; k++)
            if (truth[i].visible >= VIS_MIN[k]) {
                t->vis[k].cards++;
                t->vis[k].correct += ok;
                t->vis[k].wrong += read && !ok;
            }
    }
    t->truth_images++;
}

static void describe_misreads(ts_buf *b, const ts_pipeline *p, const label *l,
                              const ts_card *cards, const image_match *m, const char *sep)
{
    int first = 1;
    for (int i = 0; i < l->n; i++) {
        char want[TS_CODE_MAXLEN];
        ts_pipeline_format_code(p, l->code[i], want);
        const ts_card *c = m->card[i] >= 0 ? &cards[m->card[i]] : NULL;
        if (m->how[i] == AS_READ && same_code(c->code, l->code[i]))
            continue;
        ts_buf_printf(b, "%s", first ? "" : sep);
        first = 0;
        if (m->how[i] == AS_READ)
            ts_buf_printf(b, "%s read as %s", want, c->text);
        else if (m->how[i] == AS_UNREAD)
            ts_buf_printf(b, "%s unread (best guess %s, conf %.2f)", want, c->text, c->conf);
        else
            ts_buf_printf(b, "%s missed", want);
    }
    for (int k = 0; k < m->nextra; k++) {
        const ts_card *c = &cards[m->extra[k]];
        ts_buf_printf(b, "%sextra card %s%s", first ? "" : sep, c->text, c->read ? "" : "?");
        first = 0;
    }
}

/* A wrong image kept for the reports. */
typedef struct {
    int label;        /* index in the label file's lines */
    image_match m;
    int ncards;
    ts_card cards[TS_MAX_CARDS];
    char *annotated;  /* file name in DIR/wrong/ (owned), or NULL */
} wrong_image;

/* ---- Report ------------------------------------------------------------- */

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
 * percent-encoded. */
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

/* The found cards in label order: the card paired with each label ('?' when
 * unread, '-' when missed), then '+' each extra card. */
static void read_in_label_order(ts_buf *b, const label *l, const wrong_image *w)
{
    for (int i = 0; i < l->n; i++) {
        const ts_card *c = w->m.card[i] >= 0 ? &w->cards[w->m.card[i]] : NULL;
        ts_buf_printf(b, "%s%s%s", i ? " " : "", c ? c->text : "-", c && !c->read ? "?" : "");
    }
    for (int k = 0; k < w->m.nextra; k++) {
        const ts_card *c = &w->cards[w->m.extra[k]];
        ts_buf_printf(b, " +%s%s", c->text, c->read ? "" : "?");
    }
}

static void labelled_codes(ts_buf *b, const ts_pipeline *p, const label *l)
{
    for (int k = 0; k < l->n; k++) {
        char c[TS_CODE_MAXLEN];
        ts_pipeline_format_code(p, l->code[k], c);
        ts_buf_printf(b, "%s%s", k ? " " : "", c);
    }
}

/* One figure: the annotated thumbnail, opening the full image, and a caption
 * that says what was misread as what. */
static void report_figure(ts_buf *out, const ts_pipeline *p, const label *l, const wrong_image *w)
{
    ts_buf t;
    ts_buf_init(&t);
    ts_buf_printf(out, "<figure><a href=\"wrong/");
    url_segment(out, w->annotated);
    ts_buf_printf(out, "\"><img src=\"wrong/");
    url_segment(out, w->annotated);
    ts_buf_printf(out, "\" loading=lazy alt=\"\"></a><figcaption><b>");
    html_text(out, l->name);
    ts_buf_printf(out, "</b><br>labelled ");
    labelled_codes(&t, p, l);
    html_text(out, t.data ? t.data : "");
    ts_buf_clear(&t);
    ts_buf_printf(out, "<br>read ");
    read_in_label_order(&t, l, w);
    html_text(out, t.data ? t.data : "");
    ts_buf_clear(&t);
    describe_misreads(&t, p, l, w->cards, &w->m, "\n");
    ts_buf_printf(out, "<ul class=mis>");
    for (char *line = t.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        ts_buf_printf(out, "<li>");
        html_text(out, line);
    }
    ts_buf_printf(out, "</ul></figcaption></figure>\n");
    ts_buf_free(&t);
}

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

/* Mistakes, most frequent first. */
static int by_count(const void *a, const void *b)
{
    const misread *x = a, *y = b;
    return y->n - x->n;
}

static const char *const HOW_NAMES[] = {"read", "unread", "missed"};

/* Code-level confusion: [{"label":"2GST","as":"2GSO","how":"read","n":3},
 * {"label":"1RDS","as":null,"how":"missed","n":1}, ...]. */
static void json_misreads(ts_json *j, tally *t, const ts_pipeline *p)
{
    qsort(t->mis, (size_t)t->nmis, sizeof *t->mis, by_count);
    ts_json_arr(j);
    for (int i = 0; i < t->nmis; i++) {
        char a[TS_CODE_MAXLEN], b[TS_CODE_MAXLEN];
        ts_pipeline_format_code(p, t->mis[i].label, a);
        ts_pipeline_format_code(p, t->mis[i].read, b);
        ts_json_obj(j);
        ts_json_key(j, "label");
        ts_json_str(j, a);
        ts_json_key(j, "as");
        if (t->mis[i].how == AS_MISSED)
            ts_json_null(j);
        else
            ts_json_str(j, b);
        ts_json_key(j, "how");
        ts_json_str(j, HOW_NAMES[t->mis[i].how]);
        ts_json_key(j, "n");
        ts_json_int(j, t->mis[i].n);
        ts_json_end(j);
    }
    ts_json_end(j);
}

/* SET: {"count":{"values":["1","2","3"],"matrix":[[..,..,..,not read],...]},...},
 * rows the labelled value, columns the value read, the last "not read". */
static void json_matrices(ts_json *j, const tally *t, const ts_pipeline *p)
{
    char L[3][TS_CODE_MAXLEN];
    for (int v = 0; v < 3; v++)
        ts_pipeline_format_code(p, (ts_code){TS_FAM_SET, (uint8_t)ts_set_make(v, v, v, v)}, L[v]);
    ts_json_obj(j);
    for (int a = 0; a < 4; a++) {
        ts_json_key(j, ATTR_NAMES[TS_FAM_SET][a]);
        ts_json_obj(j);
        ts_json_key(j, "values");
        ts_json_arr(j);
        for (int v = 0; v < 3; v++) {
            char letter[2] = {L[v][a], '\0'};
            ts_json_str(j, letter);
        }
        ts_json_end(j);
        ts_json_key(j, "matrix");
        ts_json_arr(j);
        for (int tv = 0; tv < 3; tv++) {
            ts_json_arr(j);
            for (int rv = 0; rv < 4; rv++)
                ts_json_int(j, t->confusion[a][tv][rv]);
            ts_json_end(j);
        }
        ts_json_end(j);
        ts_json_end(j);
    }
    ts_json_end(j);
}

/* {"image":..,"labelled":[..],"read":[{"code","conf","read"} or null per
 * label],"extra":[..],"misreads":["2GST read as 2GSO",..],"annotated":..} */
static void json_wrong(ts_json *j, const ts_pipeline *p, const label *l, const wrong_image *w)
{
    ts_json_obj(j);
    ts_json_key(j, "image");
    ts_json_str(j, l->name);
    ts_json_key(j, "labelled");
    ts_json_arr(j);
    for (int i = 0; i < l->n; i++) {
        char c[TS_CODE_MAXLEN];
        ts_pipeline_format_code(p, l->code[i], c);
        ts_json_str(j, c);
    }
    ts_json_end(j);
    ts_json_key(j, "read");
    ts_json_arr(j);
    for (int i = 0; i < l->n; i++) {
        const ts_card *c = w->m.card[i] >= 0 ? &w->cards[w->m.card[i]] : NULL;
        if (!c) {
            ts_json_null(j);
            continue;
        }
        ts_json_obj(j);
        ts_result_json_card(j, c);
        ts_json_end(j);
    }
    ts_json_end(j);
    ts_json_key(j, "extra");
    ts_json_arr(j);
    for (int k = 0; k < w->m.nextra; k++)
        ts_json_str(j, w->cards[w->m.extra[k]].text);
    ts_json_end(j);
    ts_json_key(j, "misreads");
    ts_json_arr(j);
    ts_buf b;
    ts_buf_init(&b);
    describe_misreads(&b, p, l, w->cards, &w->m, "\n");
    for (char *line = b.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        ts_json_str(j, line);
    }
    ts_buf_free(&b);
    ts_json_end(j);
    if (w->annotated) {
        char path[4200];
        snprintf(path, sizeof path, "wrong/%s", w->annotated);
        ts_json_key(j, "annotated");
        ts_json_str(j, path);
    }
    ts_json_end(j);
}

/* The code-level list in the report: the 30 most frequent mistakes. */
static void report_misreads(FILE *f, tally *t, const ts_pipeline *p)
{
    qsort(t->mis, (size_t)t->nmis, sizeof *t->mis, by_count);
    fprintf(f, "<h2>Misread as (most frequent first)</h2>\n<table><tr><th>label</th>"
               "<th>became</th><th>times</th></tr>\n");
    for (int i = 0; i < t->nmis && i < 30; i++) {
        char a[TS_CODE_MAXLEN], b[TS_CODE_MAXLEN];
        ts_pipeline_format_code(p, t->mis[i].label, a);
        ts_pipeline_format_code(p, t->mis[i].read, b);
        ts_buf row;
        ts_buf_init(&row);
        html_text(&row, a);
        ts_buf_printf(&row, "</td><td>");
        if (t->mis[i].how == AS_READ)
            html_text(&row, b);
        else if (t->mis[i].how == AS_UNREAD) {
            ts_buf_printf(&row, "unread (");
            html_text(&row, b);
            ts_buf_printf(&row, "?)");
        } else
            ts_buf_printf(&row, "missed");
        fprintf(f, "<tr><td>%s</td><td>%d</td></tr>\n", row.data ? row.data : "", t->mis[i].n);
        ts_buf_free(&row);
    }
    fprintf(f, "</table>\n");
}

/* ---- Command ------------------------------------------------------------ */

int cmd_eval(int argc, char **argv)
{
    int json = 0;
    const char *report = NULL, *labels_file = NULL;
    ts_pipeline_config cfg = {0};
    ts_decode_limits lim = {0};
    static const struct option OPTS[] = {
        {"json", no_argument, NULL, 'j'},
        {"report", required_argument, NULL, 'r'},
        {"profile", required_argument, NULL, 'p'},
        {"game", required_argument, NULL, 'g'},
        {"max-pixels", required_argument, NULL, 'm'},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("eval", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'j': json = 1; break;
        case 'r': report = optarg; break;
        case 'p': cfg.profile = optarg; break;
        case 'g': cfg.game = optarg; break;
        case 'm':
            if (batch_parse_pixels(optarg, &lim.max_pixels) < 0)
                return cmd_usage_error("eval", "--max-pixels takes a number of pixels (1 to "
                                               "4000M), not '%s'", optarg);
            break;
        case 'h': usage(stdout); return 0;
        case CMD_OPT_VERSION: return cmd_version();
        default: return 2;
        }
    }
    if (optind >= argc)
        return cmd_usage_error("eval", "no label file given (LABELS.tsv, or - for standard input)");
    if (optind + 1 < argc)
        return cmd_usage_error("eval", "one label file only ('%s' and '%s')", argv[optind],
                               argv[optind + 1]);
    labels_file = argv[optind];
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
    wrong_image *wrong = NULL; /* the wrong images, for the reports */
    int nwrong = 0, capwrong = 0;
    ts_truth_card *truth = malloc(sizeof *truth * TS_RENDER_TRUTH_MAX);
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
        int nt = ts_render_truth_load(ls[i].path, parse_label_code, p, truth, TS_RENDER_TRUTH_MAX,
                                      err, sizeof err);
        if (nt < 0)
            fprintf(stderr, "tablesight eval: %s\n", err);
        else if (nt > 0)
            score_truth(truth, nt, r, &t);
        image_match m;
        if (!score_image(&ls[i], r, &t, &m)) {
            t.wrong_images++;
            if (nwrong == capwrong) {
                int cap = capwrong ? 2 * capwrong : 32;
                wrong_image *grown = realloc(wrong, sizeof *grown * (size_t)cap);
                if (!grown) {
                    fprintf(stderr, "tablesight eval: out of memory\n");
                    ts_image_free(&img);
                    break;
                }
                wrong = grown, capwrong = cap;
            }
            wrong_image *w = &wrong[nwrong++];
            w->label = i;
            w->m = m;
            w->ncards = r->ncards;
            memcpy(w->cards, r->cards, sizeof(ts_card) * (size_t)r->ncards);
            w->annotated = NULL;
            char out[4096];
            if (html && t.wrong_images <= MAX_WRONG_SHOWN) {
                if (batch_annotate(&img, &tab, imgdir, ls[i].name, &names, NULL, out, sizeof out,
                                   err, sizeof err) == 0)
                    w->annotated = strdup(strrchr(out, '/') + 1);
                else
                    fprintf(stderr, "tablesight eval: %s\n", err);
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
        ts_json_key(&j, "attribute_counts");
        ts_json_obj(&j);
        for (int a = 0; a < nattr; a++) {
            ts_json_key(&j, ATTR_NAMES[fam][a]);
            ts_json_obj(&j);
            ts_json_key(&j, "paired");
            ts_json_int(&j, t.attr_n);
            ts_json_key(&j, "correct");
            ts_json_int(&j, t.attr_ok[a]);
            ts_json_end(&j);
        }
        ts_json_end(&j);
        if (fam == TS_FAM_SET) {
            ts_json_key(&j, "confusion");
            json_matrices(&j, &t, p);
        }
        if (t.truth_images) {
            ts_json_key(&j, "by_visibility");
            ts_json_obj(&j);
            for (int k = 0; k < 2; k++) {
                ts_json_key(&j, VIS_NAMES[k]);
                ts_json_obj(&j);
                ts_json_key(&j, "cards");
                ts_json_int(&j, t.vis[k].cards);
                ts_json_key(&j, "correct");
                ts_json_int(&j, t.vis[k].correct);
                ts_json_key(&j, "wrong");
                ts_json_int(&j, t.vis[k].wrong);
                ts_json_end(&j);
            }
            ts_json_end(&j);
        }
        ts_json_key(&j, "misread_as");
        json_misreads(&j, &t, p);
        ts_json_key(&j, "median_ms");
        ts_json_num(&j, med, 2);
        ts_json_key(&j, "wrong");
        ts_json_arr(&j);
        for (int w = 0; w < nwrong; w++)
            json_wrong(&j, p, &ls[wrong[w].label], &wrong[w]);
        ts_json_end(&j);
        ts_json_end(&j);
        puts(j.buf.failed ? "{}" : j.buf.data);
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
        for (int k = 0; k < 2 && t.truth_images; k++)
            printf("\n%-15s %.2f%% (%d/%d cards %s visible in %d renders; %d read wrong)",
                   k ? "half visible" : "fully visible",
                   t.vis[k].cards ? 100.0 * t.vis[k].correct / t.vis[k].cards : 0,
                   t.vis[k].correct, t.vis[k].cards, k ? "at least half" : "fully",
                   t.truth_images, t.vis[k].wrong);
        printf("\nmedian ms       %.2f (detect + rectify + read + rules, decode excluded)\n",
               med);
        printf("wrong images    %d (labelled cards; read in label order, ? unread, - missed,\n"
               "                + extra)\n",
               t.wrong_images);
        ts_buf line;
        ts_buf_init(&line);
        for (int w = 0; w < nwrong; w++) {
            const label *l = &ls[wrong[w].label];
            ts_buf_clear(&line);
            labelled_codes(&line, p, l);
            ts_buf_printf(&line, "; read ");
            read_in_label_order(&line, l, &wrong[w]);
            ts_buf_printf(&line, ": ");
            describe_misreads(&line, p, l, wrong[w].cards, &wrong[w].m, ", ");
            printf("  %s: %s\n", l->name, line.data ? line.data : "");
        }
        ts_buf_free(&line);
    }
    if (html) {
        ts_buf b;
        ts_buf_init(&b);
        html_text(&b, labels_file);
        fprintf(html,
                "<!doctype html><meta charset=utf-8><title>tablesight eval</title>\n"
                "<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}"
                "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                "td.ok{background:#dfd}td.bad{background:#fdd}.m{display:inline-block;"
                "margin:0 2em 1em 0;vertical-align:top}figure{display:inline-block;margin:4px;"
                "vertical-align:top}img{max-width:480px;max-height:360px}figcaption{font-size:"
                "12px;max-width:480px;word-break:break-all}ul.mis{margin:2px 0;padding-left:"
                "1.2em;color:#a00}</style>\n"
                "<h1>%s</h1><p>%d images, %d cards: card accuracy <b>%.2f%%</b>, detection "
                "recall %.2f%%, false cards %d, unread %d, median %.2f ms.</p>\n",
                b.data ? b.data : "", t.images, t.cards, 100 * acc, 100 * recall, t.false_cards,
                t.unread, med);
        if (fam == TS_FAM_SET) {
            fprintf(html, "<h2>Per-attribute confusion (label rows, reading columns)</h2>\n");
            report_matrices(html, &t, p);
        }
        report_misreads(html, &t, p);
        fprintf(html,
                "<h2>Wrong images (%d%s)</h2>\n<p>Each thumbnail opens the annotated image. "
                "Read cards are listed in label order (? unread, - missed, + extra).</p>\n",
                t.wrong_images, t.wrong_images > MAX_WRONG_SHOWN ? ", first 200 shown" : "");
        for (int w = 0; w < nwrong; w++)
            if (wrong[w].annotated) {
                ts_buf_clear(&b);
                report_figure(&b, p, &ls[wrong[w].label], &wrong[w]);
                fputs(b.data ? b.data : "", html);
            }
        ts_buf_free(&b);
        fclose(html);
    }
    for (int i = 0; i < nl; i++) {
        free(ls[i].name);
        free(ls[i].path);
    }
    free(ls);
    batch_names_free(&names);
    free(t.ms);
    free(t.mis);
    free(truth);
    for (int w = 0; w < nwrong; w++)
        free(wrong[w].annotated);
    free(wrong);
    ts_pipeline_destroy(p);
    return t.failed ? 1 : 0;
}
