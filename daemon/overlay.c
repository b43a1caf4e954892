/* The overlay (see overlay.h): the design as a draw list, and its OpenCV
 * renderer for BGR frames. All pixel drawing here goes through vision/cv/cvdraw.h. */
#include "overlay.h"

#include "cv/cvwrap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hint group colours, B,G,R: the Okabe-Ito palette (told apart with the
 * common colour-vision deficiencies) without its black, plus white. No pure
 * red: a red mark vanishes on a red cloth and reads as "wrong". Badges carry
 * numbers, so colours may repeat after eight groups without confusion. */
static const ts_bgr GROUP_COLOURS[] = {
    {0, 159, 230},   /* orange */
    {233, 180, 86},  /* sky blue */
    {115, 158, 0},   /* bluish green */
    {66, 228, 240},  /* yellow */
    {178, 114, 0},   /* blue */
    {0, 94, 213},    /* vermillion */
    {167, 121, 204}, /* reddish purple */
    {255, 255, 255}, /* white */
};
enum { NCOLOURS = sizeof GROUP_COLOURS / sizeof GROUP_COLOURS[0] };

static const ts_bgr WHITE = {255, 255, 255}, BLACK = {0, 0, 0}, DARK = {24, 24, 24},
                    GREY = {170, 170, 170}, FADED = {140, 140, 140}, RED = {40, 40, 230},
                    GREEN = {60, 200, 60}, BLUE = {200, 120, 40}, CYAN = {255, 200, 0};

void ts_overlay_set_colour(int i, unsigned char bgr[3])
{
    ts_bgr c = GROUP_COLOURS[(unsigned)i % NCOLOURS];
    bgr[0] = c.b;
    bgr[1] = c.g;
    bgr[2] = c.r;
}

static ts_bgr group_colour(int number)
{
    return GROUP_COLOURS[(unsigned)(number - 1) % NCOLOURS];
}

/* ---- The list ------------------------------------------------------------ */

void ts_overlay_list_init(ts_overlay_list *l)
{
    memset(l, 0, sizeof *l);
}

void ts_overlay_list_free(ts_overlay_list *l)
{
    free(l->item);
    memset(l, 0, sizeof *l);
}

static int reserve(ts_overlay_list *l, int n)
{
    if (n <= l->cap)
        return 0;
    int cap = l->cap ? l->cap : 256;
    while (cap < n)
        cap *= 2;
    ts_ov_item *p = realloc(l->item, sizeof *p * (size_t)cap);
    if (!p)
        return -1;
    l->item = p;
    l->cap = cap;
    return 0;
}

int ts_overlay_list_copy(ts_overlay_list *dst, const ts_overlay_list *src)
{
    if (reserve(dst, src->n) < 0)
        return -1;
    if (src->n)
        memcpy(dst->item, src->item, sizeof *src->item * (size_t)src->n);
    dst->n = src->n;
    dst->w = src->w, dst->h = src->h, dst->plain = src->plain, dst->stamp = src->stamp;
    return 0;
}

/* ---- Building: one drawing pass over the table ----------------------------- */

typedef struct {
    ts_overlay_list *l;
    int failed;
} builder;

static ts_ov_item *add(builder *b, ts_ov_shape shape, ts_ov_role role, int card)
{
    if (reserve(b->l, b->l->n + 1) < 0) {
        b->failed = 1;
        return NULL;
    }
    ts_ov_item *it = &b->l->item[b->l->n++];
    memset(it, 0, sizeof *it);
    it->shape = shape;
    it->role = role;
    it->card = card;
    it->alpha = 1;
    return it;
}

static ts_ov_item *poly(builder *b, ts_ov_role role, int card, const ts_pt *q, int n, int closed,
                        ts_bgr c, float width, int dashed)
{
    ts_ov_item *it = add(b, TS_OV_POLY, role, card);
    if (!it)
        return NULL;
    for (int i = 0; i < n && i < 4; i++)
        it->pt[i] = q[i];
    it->npt = n < 4 ? n : 4;
    it->closed = closed;
    it->colour = c;
    it->width = width;
    it->dashed = dashed;
    return it;
}

static ts_ov_item *text(builder *b, ts_ov_role role, int card, float x, float y, int align,
                        const char *s, float size, ts_bgr c, ts_bgr bg, float bg_alpha)
{
    ts_ov_item *it = add(b, TS_OV_TEXT, role, card);
    if (!it)
        return NULL;
    it->pt[0] = (ts_pt){x, y};
    it->npt = 1;
    it->align = align;
    it->size = size;
    it->colour = c;
    it->bg = bg;
    it->bg_alpha = bg_alpha;
    snprintf(it->text, sizeof it->text, "%s", s);
    return it;
}

static ts_ov_item *row(builder *b, ts_ov_role role, int corner, int group, const char *s,
                       float size, ts_bgr bg, int full_width)
{
    ts_ov_item *it = add(b, TS_OV_ROW, role, -1);
    if (!it)
        return NULL;
    it->corner = corner;
    it->group = group;
    it->size = size;
    it->colour = group > 0 ? group_colour(group) : WHITE;
    it->bg = bg;
    it->bg_alpha = 0.75f;
    it->full_width = full_width;
    snprintf(it->text, sizeof it->text, "%s", s);
    return it;
}

/* ---- Geometry ----------------------------------------------------------- */

static int quad_ok(int w, int h, const ts_pt q[4])
{
    float lim = 4.0f * (float)(w > h ? w : h);
    for (int i = 0; i < 4; i++)
        if (!isfinite(q[i].x) || !isfinite(q[i].y) || fabsf(q[i].x) > lim || fabsf(q[i].y) > lim)
            return 0;
    return 1;
}

static ts_pt centroid(const ts_pt q[4])
{
    ts_pt c = {0, 0};
    for (int i = 0; i < 4; i++) {
        c.x += q[i].x / 4;
        c.y += q[i].y / 4;
    }
    return c;
}

/* The quad grown outward so each edge moves by d pixels (corners slide along
 * their bisectors), so nested rings keep an even gap on any card angle. */
static void grow_quad(const ts_pt q[4], double d, ts_pt out[4])
{
    ts_pt c = centroid(q);
    for (int i = 0; i < 4; i++) {
        ts_pt p = q[i], a = q[(i + 3) % 4], b = q[(i + 1) % 4];
        double ux = a.x - p.x, uy = a.y - p.y, vx = b.x - p.x, vy = b.y - p.y;
        double lu = hypot(ux, uy), lv = hypot(vx, vy);
        double bx, by, k = d;
        if (lu > 1e-6 && lv > 1e-6) {
            ux /= lu, uy /= lu, vx /= lv, vy /= lv;
            bx = ux + vx, by = uy + vy;
            double lb = hypot(bx, by);
            if (lb > 1e-6) {
                bx /= lb, by /= lb;
                double sinh = fabs(ux * by - uy * bx); /* sin of half the corner angle */
                k = d / (sinh < 0.3 ? 0.3 : sinh);
            }
        } else {
            bx = c.x - p.x, by = c.y - p.y;
            double lb = hypot(bx, by);
            bx = lb > 1e-6 ? bx / lb : 0, by = lb > 1e-6 ? by / lb : 0;
        }
        /* The bisector points inward on a convex quad; fall back on the
         * centroid direction when the quad is not convex at this corner. */
        if (bx * (c.x - p.x) + by * (c.y - p.y) < 0)
            bx = -bx, by = -by;
        out[i].x = (float)(p.x - bx * k);
        out[i].y = (float)(p.y - by * k);
    }
}

/* Where a card's badges start: the corner nearest the image's top-left,
 * along the edge that runs most to the right; the other edge points inward.
 * out[3] holds the two edges' lengths (along, inward). */
static void badge_edge(const ts_pt q[4], ts_pt out[4])
{
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (q[i].x + q[i].y < q[k].x + q[k].y)
            k = i;
    ts_pt a = q[(k + 1) % 4], b = q[(k + 3) % 4], p = q[k];
    float ax = a.x - p.x, ay = a.y - p.y, bx = b.x - p.x, by = b.y - p.y;
    float la = hypotf(ax, ay), lb = hypotf(bx, by);
    if (la < 1e-3f || lb < 1e-3f) {
        out[0] = p, out[1] = (ts_pt){1, 0}, out[2] = (ts_pt){0, 1}, out[3] = (ts_pt){0, 0};
        return;
    }
    ax /= la, ay /= la, bx /= lb, by /= lb;
    float len = la, across = lb;
    if (bx > ax) { /* b runs more to the right: it is the edge */
        float tx = ax, ty = ay;
        ax = bx, ay = by, bx = tx, by = ty;
        len = lb, across = la;
    }
    out[0] = p;
    out[1] = (ts_pt){ax, ay};
    out[2] = (ts_pt){bx, by};
    out[3] = (ts_pt){len, across};
}

/* ---- The design ------------------------------------------------------------ */

enum { MAX_LEGEND = 12 }; /* legend rows of Sets at most ... */

/* ... and no more than fill 40% of the frame's height (a row is about 27 px at 720). */
static int legend_rows(int w, int h)
{
    double u = (w < h ? w : h) / 720.0;
    int n = (int)(0.4 * (h / (u > 0 ? u : 1)) / 27);
    return n < 3 ? 3 : n > MAX_LEGEND ? MAX_LEGEND : n;
}

typedef struct {
    const ts_table *t;
    int n;
    int ok[TS_MAX_CARDS];   /* drawable quad */
    int gone[TS_MAX_CARDS]; /* kept by the tracker, not seen */
    int badges[TS_MAX_CARDS];
    int rings[TS_MAX_CARDS];
} scene;

/* Whether every card of a group can carry a hint (no gone card, none skipped). */
static int group_shown(const scene *sc, const int *cards, int n)
{
    for (int k = 0; k < n; k++) {
        int i = cards[k];
        if (i < 0 || i >= sc->n || !sc->ok[i] || sc->gone[i])
            return 0;
    }
    return 1;
}

/* One group: a badge numbered `number` on each card (and a ring when `ring`),
 * and a legend row "N  code code code  label"; in the number's colour, or in
 * *mark (a table group: green valid, red invalid, cyan the trick). */
static void hint_group(builder *b, scene *sc, const int *cards, int n, int number, int ring,
                       const char *label, int legend, const ts_bgr *mark)
{
    ts_bgr c = mark ? *mark : group_colour(number);
    ts_ov_role role = mark ? TS_OVR_GROUP : TS_OVR_HINT;
    char codes[TS_OV_TEXT_MAX] = "";
    for (int k = 0; k < n; k++) {
        int i = cards[k];
        const ts_card *cd = &sc->t->frame.cards[i];
        if (ring) {
            ts_pt g[4];
            grow_quad(cd->quad, 6.0 * (1 + sc->rings[i]++), g);
            ts_ov_item *it = poly(b, role, i, g, 4, 1, c, 3, 0);
            if (it)
                it->group = number;
        }
        ts_ov_item *it = add(b, TS_OV_BADGE, role, i);
        if (it) {
            badge_edge(cd->quad, it->pt);
            it->npt = 4;
            it->group = number;
            it->slot = sc->badges[i]++;
            it->colour = c;
            it->size = 13;
            snprintf(it->text, sizeof it->text, "%d", number);
        }
        size_t len = strlen(codes);
        snprintf(codes + len, sizeof codes - len, "%s%s", len ? " " : "", cd->text);
    }
    if (legend) {
        char s[2 * TS_OV_TEXT_MAX]; /* row() keeps what fits */
        snprintf(s, sizeof s, "%s%s%.60s", codes, label && label[0] ? "  " : "",
                 label ? label : "");
        ts_ov_item *it = row(b, TS_OVR_LEGEND, -1, number, s, 15, DARK, 0);
        if (it)
            it->colour = c;
    }
}

/* SET: the Sets the hint ladder shows (how many, how many cards of the last). */
static int set_groups(builder *b, scene *sc, int *shown_sets)
{
    const ts_table *t = sc->t;
    int max_rows = legend_rows(b->l->w, b->l->h);
    int sets = t->nsets, cards = 3;
    if (t->game == &TS_GAME_SET) {
        if (t->view.show_groups >= 0 && t->view.show_groups < sets)
            sets = t->view.show_groups;
        if (t->view.show_cards >= 0)
            cards = t->view.show_cards;
    }
    if (sets > TS_MAX_SETS)
        sets = TS_MAX_SETS;
    int shown[TS_MAX_SETS], nshown = 0;
    for (int k = 0; k < sets; k++)
        if (group_shown(sc, t->sets[k], 3))
            shown[nshown++] = k;
    for (int s = 0; s < nshown; s++) {
        int k = shown[s], nc = k == sets - 1 ? cards : 3;
        hint_group(b, sc, t->sets[k], nc, s + 1, nshown <= 2, NULL,
                   nshown >= 2 && nc == 3 && s < max_rows, NULL);
    }
    if (nshown > max_rows) {
        char more[64];
        snprintf(more, sizeof more, "... Sets %d-%d: see the numbers on the cards",
                 max_rows + 1, nshown);
        row(b, TS_OVR_LEGEND, -1, 0, more, 13, DARK, 0);
    }
    *shown_sets = nshown;
    return nshown;
}

/* Other games: plays on the hand (numbered, best first, the best ringed),
 * then the table's groups and the trick (numbered on, ringed green, red or
 * cyan), each with a legend row naming its cards and what it is. Returns the
 * number of legend rows. */
static int play_groups(builder *b, scene *sc, int max_plays)
{
    const ts_game_view *v = &sc->t->view;
    int number = 0;
    for (int g = 0, plays = 0; g < v->ngroups && plays < max_plays; g++) {
        const ts_view_group *vg = &v->group[g];
        if (vg->mark != TS_MARK_HINT || !group_shown(sc, vg->card, vg->n))
            continue;
        char label[64];
        snprintf(label, sizeof label, "%s%s", plays == 0 ? "best: " : "", vg->label);
        hint_group(b, sc, vg->card, vg->n, ++number, plays == 0, label, 1, NULL);
        plays++;
    }
    for (int g = 0; g < v->ngroups; g++) {
        const ts_view_group *vg = &v->group[g];
        if (vg->mark == TS_MARK_HINT || !group_shown(sc, vg->card, vg->n))
            continue;
        ts_bgr c = vg->mark == TS_MARK_GOOD ? GREEN : vg->mark == TS_MARK_BAD ? RED : CYAN;
        hint_group(b, sc, vg->card, vg->n, ++number, 1, vg->label, 1, &c);
    }
    return number;
}

static void zones(builder *b, const ts_zones *z, int w, int h)
{
    for (int i = 0; i < z->n; i++) {
        ts_pt q[4];
        for (int k = 0; k < 4; k++)
            q[k] = (ts_pt){z->z[i].q[k].x * (float)(w - 1), z->z[i].q[k].y * (float)(h - 1)};
        poly(b, TS_OVR_ZONE, -1, q, 4, 1, GREY, 1, 1);
        float u = (float)(w < h ? w : h) / 720.0f;
        text(b, TS_OVR_ZONE, -1, q[0].x + 50 * u, q[0].y + 40 * u, TS_OVA_CENTRE,
             ts_zone_name(z->z[i].kind), 12, GREY, DARK, 0.7f);
    }
}

/* The corner whose panel (about pw x ph frame px) covers the least card area;
 * ties go to the bottom-right, then the other corners in turn. */
static int quiet_corner(const scene *sc, int w, int h, float pw, float ph, int avoid)
{
    static const int ORDER[4] = {2, 1, 3, 0};
    int best = 2;
    double best_cover = -1;
    for (int o = 0; o < 4; o++) {
        int c = ORDER[o];
        if (c == avoid)
            continue;
        float x0 = c == 1 || c == 2 ? (float)w - pw : 0, y0 = c >= 2 ? (float)h - ph : 0;
        double cover = 0;
        for (int i = 0; i < sc->n; i++) {
            if (!sc->ok[i])
                continue;
            const ts_pt *q = sc->t->frame.cards[i].quad;
            float minx = q[0].x, maxx = q[0].x, miny = q[0].y, maxy = q[0].y;
            for (int k = 1; k < 4; k++) {
                minx = fminf(minx, q[k].x), maxx = fmaxf(maxx, q[k].x);
                miny = fminf(miny, q[k].y), maxy = fmaxf(maxy, q[k].y);
            }
            float ix = fminf(maxx, x0 + pw) - fmaxf(minx, x0), iy = fminf(maxy, y0 + ph) - fmaxf(miny, y0);
            if (ix > 0 && iy > 0)
                cover += (double)ix * iy;
        }
        if (best_cover < 0 || cover < best_cover)
            best_cover = cover, best = c;
    }
    return best;
}

static void unread_reason(const ts_card *c, char *out, size_t cap)
{
    /* The reader's confidence is all that is known about why: near zero is
     * something that is not a card of this family; otherwise the reading was
     * unsure. */
    if (c->conf < 0.05f)
        snprintf(out, cap, "not a card of this game?");
    else
        snprintf(out, cap, "unsure (%.0f%%)", 100.0 * c->conf);
}

int ts_overlay_build(ts_overlay_list *l, const ts_table *t, const ts_overlay_opts *opts, int w,
                     int h)
{
    static const ts_overlay_opts none = {0};
    if (!opts)
        opts = &none;
    l->n = 0;
    l->w = w, l->h = h;
    l->plain = opts->plain;
    l->stamp = opts->stamp;
    builder b = {.l = l};
    static scene sc_zero;
    scene *sc = malloc(sizeof *sc);
    if (!sc)
        return -1;
    *sc = sc_zero;
    sc->t = t;
    const ts_frame_result *r = &t->frame;
    sc->n = r->ncards < 0 ? 0 : r->ncards < TS_MAX_CARDS ? r->ncards : TS_MAX_CARDS;
    int gone_after = opts->gone_after > 0 ? opts->gone_after : TS_OVERLAY_GONE_AFTER;
    int keep = opts->keep_frames > gone_after ? opts->keep_frames : 8;
    for (int i = 0; i < sc->n; i++) {
        sc->ok[i] = quad_ok(w, h, r->cards[i].quad);
        sc->gone[i] = opts->missing && opts->missing[i] >= gone_after;
    }

    if (opts->stale) { /* dim the frozen frame so nobody mistakes it for live */
        ts_ov_item *it = add(&b, TS_OV_DIM, TS_OVR_STATUS, -1);
        if (it)
            it->alpha = 0.4f, it->colour = BLACK;
    }

    int unread = 0;
    for (int i = 0; i < sc->n; i++) {
        if (!sc->ok[i])
            continue;
        const ts_card *c = &r->cards[i];
        if (sc->gone[i]) { /* fades from half strength to a trace as it stays unseen */
            ts_ov_item *it = poly(&b, TS_OVR_GONE, i, c->quad, 4, 1, FADED, 1.5f, 1);
            if (it) {
                float f = (float)(opts->missing[i] - gone_after) / (float)(keep - gone_after + 1);
                it->alpha = 0.55f * (1 - (f < 0 ? 0 : f > 1 ? 1 : f)) + 0.1f;
            }
        } else if (c->read) {
            poly(&b, TS_OVR_CARD, i, c->quad, 4, 1, WHITE, 2, 0);
        } else {
            poly(&b, TS_OVR_UNREAD, i, c->quad, 4, 1, GREY, 2, 1);
            unread++;
        }
    }
    if (opts->zones)
        zones(&b, opts->zones, w, h);

    int groups = 0, set_game = !t->game || t->game == &TS_GAME_SET;
    if (!opts->hide_sets && set_game)
        set_groups(&b, sc, &groups);
    else if (!opts->hide_sets)
        groups = play_groups(&b, sc, opts->max_plays > 0 ? opts->max_plays : 5);

    for (int i = 0; i < sc->n; i++) {
        const ts_card *c = &r->cards[i];
        if (!sc->ok[i] || sc->gone[i] || (opts->hide_codes && c->read))
            continue;
        ts_pt m = centroid(c->quad);
        if (c->read) {
            text(&b, TS_OVR_CODE, i, m.x, m.y, TS_OVA_CENTRE, c->text, 14, WHITE, DARK, 0.7f);
        } else {
            char why[48];
            unread_reason(c, why, sizeof why);
            text(&b, TS_OVR_UNREAD, i, m.x, m.y, TS_OVA_CENTRE, "?", 22, GREY, DARK, 0.7f);
            text(&b, TS_OVR_UNREAD, i, m.x, m.y + 0.0f, TS_OVA_BELOW, why, 11, GREY, DARK, 0.7f);
        }
    }

    /* Panels: status and stale top-left; the headline heads the legend, in the
     * corner with the fewest cards under it. */
    if (opts->status)
        row(&b, TS_OVR_STATUS, 0, 0, opts->status, 13, DARK, 1);
    if (opts->stale) {
        char s[160];
        snprintf(s, sizeof s, "STALE - %s", opts->stale_reason ? opts->stale_reason : "source lost");
        row(&b, TS_OVR_STATUS, 0, 0, s, 13, RED, 1);
        float u = (float)(w < h ? w : h) / 720.0f, bw = 6 * (u < 0.5f ? 0.5f : u);
        ts_pt border[4] = {{bw / 2, bw / 2},
                           {(float)w - bw / 2, bw / 2},
                           {(float)w - bw / 2, (float)h - bw / 2},
                           {bw / 2, (float)h - bw / 2}};
        poly(&b, TS_OVR_STATUS, -1, border, 4, 1, RED, 6, 0);
    }
    int headline = !opts->hide_sets && sc->n > 0 && (t->game || r->family == TS_FAM_SET);
    if (headline || unread > 0) {
        char s[TS_TEXT_MAX];
        s[0] = '\0';
        if (headline && t->game && t->view.headline[0])
            snprintf(s, sizeof s, "%s", t->view.headline);
        else if (headline && t->nsets == 0)
            snprintf(s, sizeof s, "no Set");
        else if (headline)
            snprintf(s, sizeof s, "%d Set%s", t->nsets, t->nsets == 1 ? "" : "s");
        if (headline && groups >= 2 && set_game && groups < t->nsets)
            snprintf(s + strlen(s), sizeof s - strlen(s), " (%d shown)", groups);
        /* The panel's likely size in frame px (a character about 0.62 of the
         * cap height wide, rows padded), to pick its corner. */
        float u = (float)(w < h ? w : h) / 720.0f;
        float pw = (float)strlen(s) * 0.62f * 17 + 12, ph = s[0] ? 17 + 12 : 0;
        for (int i = 0; i < l->n; i++)
            if (l->item[i].shape == TS_OV_ROW && l->item[i].corner < 0) {
                const ts_ov_item *it = &l->item[i];
                pw = fmaxf(pw, (float)strlen(it->text) * 0.62f * it->size + 2.6f * it->size + 12);
                ph += it->size + 12;
            }
        if (unread > 0)
            ph += 13 + 12;
        pw *= u < 0.5f ? 0.5f : u;
        ph *= u < 0.5f ? 0.5f : u;
        int first = l->n;
        int corner = quiet_corner(sc, w, h, pw, ph, opts->status || opts->stale ? 0 : -1);
        if (s[0])
            row(&b, TS_OVR_LEGEND, corner, 0, s, 17, DARK, 0);
        /* Legend rows were added by the groups with corner -1: move them here,
         * after the headline. */
        ts_ov_item tmp;
        for (int i = 0; i < first; i++)
            if (l->item[i].shape == TS_OV_ROW && l->item[i].corner < 0) {
                tmp = l->item[i];
                tmp.corner = corner;
                memmove(&l->item[i], &l->item[i + 1], sizeof tmp * (size_t)(l->n - i - 1));
                l->item[l->n - 1] = tmp;
                i--, first--;
            }
        if (unread > 0) {
            char u2[64];
            snprintf(u2, sizeof u2, "? %d unread: shown, never guessed", unread);
            ts_ov_item *it = row(&b, TS_OVR_LEGEND, corner, 0, u2, 13, DARK, 0);
            if (it)
                it->colour = GREY;
        }
    } else {
        for (int i = 0; i < l->n; i++) /* no panel: no legend rows either */
            if (l->item[i].shape == TS_OV_ROW && l->item[i].corner < 0)
                l->item[i].corner = 2;
    }
    if (headline && t->view.pass) /* the answer a climbing-game player wants, large */
        text(&b, TS_OVR_VERDICT, -1, (float)w / 2, (float)h * 0.75f, TS_OVA_CENTRE, "PASS", 48,
             WHITE, DARK, 0.85f);
    if (opts->verdict) {
        ts_bgr bg = opts->verdict_kind == TS_VERDICT_LEGAL     ? GREEN
                    : opts->verdict_kind == TS_VERDICT_ILLEGAL ? RED
                    : opts->verdict_kind == TS_VERDICT_INFO    ? BLUE
                                                               : (ts_bgr){90, 90, 90};
        text(&b, TS_OVR_VERDICT, -1, opts->verdict_x, opts->verdict_y, TS_OVA_CENTRE,
             opts->verdict, 26, WHITE, bg, 0.85f);
    }
    free(sc);
    return b.failed ? -1 : 0;
}

/* ---- Layout shared by the renderers ------------------------------------------ */

double ts_overlay_unit(int out_w, int out_h)
{
    double u = (out_w < out_h ? out_w : out_h) / 720.0;
    return u < 0.5 ? 0.5 : u;
}

void ts_overlay_text_box(const ts_ov_item *it, double s, double u, int out_w, int out_h,
                         ts_ov_measure measure, void *ctx, ts_ov_textbox *box)
{
    double px = it->size * u, pad = 4 * u;
    int w, h;
    measure(ctx, it->text, px, &w, &h);
    double x = it->pt[0].x * s - w / 2.0, y = it->pt[0].y * s + h / 2.0; /* baseline */
    if (it->align == TS_OVA_ABOVE)
        y = it->pt[0].y * s - 2 * pad;
    else if (it->align == TS_OVA_BELOW) /* below a centred "?" of about twice the size */
        y = it->pt[0].y * s + 22 * u + h;
    if (it->role == TS_OVR_VERDICT) { /* keep a large message inside the picture */
        x = x + w + pad > out_w ? out_w - w - pad : x;
        x = x < pad ? pad : x;
        y = y - h - pad < 0 ? h + pad : y;
        y = y > out_h ? out_h : y;
    }
    *box = (ts_ov_textbox){(float)(x - pad), (float)(y - h - pad), (float)(w + 2 * pad),
                           (float)(h + 2 * pad), (float)x, (float)y};
}

float ts_overlay_badge_outer(float r, double u)
{
    float ring = 0.18f * r > 1.5f * (float)u ? 0.18f * r : 1.5f * (float)u;
    return r + ring + 1;
}

/* Whether a disc at (x, y) of radius R touches a box. */
static int disc_hits_box(float x, float y, float R, const ts_ov_textbox *b)
{
    float nx = fmaxf(b->x, fminf(x, b->x + b->w)), ny = fmaxf(b->y, fminf(y, b->y + b->h));
    return (x - nx) * (x - nx) + (y - ny) * (y - ny) < R * R;
}

enum { BADGE_ROWS = 4 }; /* rows tried inside the card from each edge, and outside */

void ts_overlay_layout_badges(const ts_overlay_list *l, double s, double u, int out_w, int out_h,
                              ts_ov_measure measure, void *ctx, ts_ov_disc *discs)
{
    int ncodes = 0, nplaced = 0;
    ts_ov_textbox *codes = malloc(sizeof *codes * (size_t)(l->n ? l->n : 1));
    int *placed = malloc(sizeof *placed * (size_t)(l->n ? l->n : 1));
    for (int i = 0; codes && i < l->n; i++) {
        const ts_ov_item *it = &l->item[i];
        if (it->shape == TS_OV_TEXT && it->card >= 0 &&
            (it->role == TS_OVR_CODE || it->role == TS_OVR_UNREAD))
            ts_overlay_text_box(it, s, u, out_w, out_h, measure, ctx, &codes[ncodes++]);
    }
    float gap = (float)(2 * u);
    for (int i = 0; i < l->n; i++) {
        const ts_ov_item *it = &l->item[i];
        if (it->shape != TS_OV_BADGE)
            continue;
        float r = (float)(it->size * u * 0.95), R = ts_overlay_badge_outer(r, u);
        float px = (float)(it->pt[0].x * s), py = (float)(it->pt[0].y * s);
        ts_pt a = it->pt[1], b = it->pt[2];
        float along_len = (float)(it->pt[3].x * s), across = (float)(it->pt[3].y * s);
        float step = 2 * R + gap; /* rims apart by the gap */
        int per_row = (int)((along_len - 2 * R) / step) + 1;
        if (per_row < 1)
            per_row = 1;
        /* Rows, in the order tried: along the near edge, the far edge, each
         * one step further in, then outside beyond the near and far edges. */
        float rows[4 * BADGE_ROWS];
        int nrows = 0;
        for (int k = 0; k < BADGE_ROWS; k++) {
            rows[nrows++] = 1.5f * r + step * (float)k;
            rows[nrows++] = across - 1.5f * r - step * (float)k;
        }
        for (int k = 0; k < BADGE_ROWS; k++) {
            rows[nrows++] = -(R + gap) - step * (float)k;
            rows[nrows++] = across + R + gap + step * (float)k;
        }
        ts_ov_disc best = {0, 0, r, R};
        int found = 0, clear_of_codes = 0;
        for (int ri = 0; ri < nrows && found < 2; ri++) {
            for (int col = 0; col < per_row && found < 2; col++) {
                float along = 1.5f * r + step * (float)col;
                if (col > 0 && along > along_len - 1.2f * r)
                    break; /* past the card's far corner */
                float x = px + a.x * along + b.x * rows[ri], y = py + a.y * along + b.y * rows[ri];
                if (x < R || y < R || x > out_w - R || y > out_h - R)
                    continue;
                int hit = 0;
                for (int c = 0; c < ncodes && !hit; c++)
                    hit = disc_hits_box(x, y, R, &codes[c]);
                if (hit)
                    continue;
                if (!clear_of_codes) /* the fallback: clear of codes, maybe not of badges */
                    best = (ts_ov_disc){x, y, r, R}, clear_of_codes = 1;
                for (int p = 0; p < nplaced && !hit; p++) {
                    const ts_ov_disc *o = &discs[placed[p]];
                    float dx = o->x - x, dy = o->y - y, d = o->R + R;
                    hit = dx * dx + dy * dy < d * d;
                }
                if (!hit)
                    best = (ts_ov_disc){x, y, r, R}, found = 2;
            }
        }
        if (!clear_of_codes) { /* nowhere clear: its slot on the near edge */
            int col = it->slot % per_row, row = it->slot / per_row;
            float along = 1.5f * r + step * (float)col, in = 1.5f * r + step * (float)row;
            best = (ts_ov_disc){px + a.x * along + b.x * in, py + a.y * along + b.y * in, r, R};
        }
        discs[i] = best;
        if (placed)
            placed[nplaced++] = i;
    }
    free(codes);
    free(placed);
}

void ts_overlay_layout_rows(const ts_overlay_list *l, int out_w, int out_h, double u,
                            ts_ov_measure measure, void *ctx, ts_ov_rowbox *rects)
{
    int used[4] = {0, 0, 0, 0}, widest[4] = {0, 0, 0, 0}, total[4] = {0, 0, 0, 0};
    for (int pass = 0; pass < 2; pass++) { /* first each corner's widest row and height */
        for (int i = 0; i < l->n; i++) {
            const ts_ov_item *it = &l->item[i];
            if (it->shape != TS_OV_ROW || it->corner < 0 || it->corner > 3)
                continue;
            int c = it->corner, tw, th;
            double px = it->size * u;
            measure(ctx, it->text, px, &tw, &th);
            int pad = (int)lround(6 * u);
            if (tw + 2 * pad > out_w && tw > 0) { /* a long row (the status) shrinks to fit */
                px *= (double)(out_w - 2 * pad) / tw;
                measure(ctx, it->text, px, &tw, &th);
            }
            int br = it->group > 0 ? (int)lround(px * 0.8) : 0;
            int bw = br ? 2 * br + pad : 0;
            int w = tw + bw + 2 * pad, h = th + 2 * pad;
            if (it->group > 0 && h < 2 * br + pad)
                h = 2 * br + pad;
            if (pass == 0) {
                if (w > widest[c])
                    widest[c] = w;
                total[c] += h;
                continue;
            }
            if (it->full_width)
                w = out_w;
            else
                w = widest[c] > out_w ? out_w : widest[c];
            int x = c == 1 || c == 2 ? out_w - w : 0;
            /* Bottom panels end at the bottom edge and read top to bottom too. */
            int y = c >= 2 ? out_h - total[c] + used[c] : used[c];
            used[c] += h;
            ts_ov_rowbox *rb = &rects[i];
            rb->x = x, rb->y = y, rb->w = w, rb->h = h, rb->px = (float)px;
            rb->bx = (float)(x + pad + br), rb->by = (float)y + (float)h / 2, rb->br = (float)br;
            rb->tx = (float)(x + pad + bw), rb->ty = (float)y + (float)(h + th) / 2;
            if (c == 0) /* top-left rows (status) push the top-right panel down too */
                used[1] = used[0] > used[1] && it->full_width ? used[0] : used[1];
        }
    }
}

int ts_overlay_layout(const ts_overlay_list *l, double s, double u, int out_w, int out_h,
                      ts_ov_measure measure, void *ctx, ts_ov_layout *out)
{
    size_t n = (size_t)(l->n > 0 ? l->n : 1);
    out->rows = calloc(n, sizeof *out->rows);
    out->discs = calloc(n, sizeof *out->discs);
    if (!out->rows || !out->discs) {
        ts_overlay_layout_free(out);
        return -1;
    }
    ts_overlay_layout_rows(l, out_w, out_h, u, measure, ctx, out->rows);
    ts_overlay_layout_badges(l, s, u, out_w, out_h, measure, ctx, out->discs);
    return 0;
}

void ts_overlay_layout_free(ts_ov_layout *lay)
{
    free(lay->rows);
    free(lay->discs);
    lay->rows = NULL;
    lay->discs = NULL;
}

/* ---- The OpenCV renderer ------------------------------------------------------ */

typedef struct {
    ts_image *img;
    double s, u; /* frame px per list px; output px per px-at-720 */
    int plain, failed;
    char err[TSCV_ERR_MAX];
} pen;

static void check(pen *p, int rc)
{
    if (rc < 0)
        p->failed = 1;
}

static double hershey_scale(double px) /* cap height px -> Hershey simplex scale */
{
    return px / 22.0;
}

void ts_overlay_cv_measure(void *ctx, const char *s, double px, int *w, int *h)
{
    (void)ctx;
    int th = px > 20 ? 2 : 1;
    tscv_text_size(s, hershey_scale(px), th, w, h);
}

static void cv_line(pen *p, const ts_pt *q, int n, int closed, ts_bgr c, int t)
{
    check(p, (p->plain ? tscv_polyline_plain : tscv_polyline)(p->img, q, n, closed, c, t, p->err));
}

static void cv_poly(pen *p, const ts_ov_item *it)
{
    ts_pt q[4];
    for (int i = 0; i < it->npt; i++)
        q[i] = (ts_pt){(float)(it->pt[i].x * p->s), (float)(it->pt[i].y * p->s)};
    int t = (int)lround(it->width * p->u);
    if (t < 1)
        t = 1;
    ts_bgr c = it->colour;
    if (it->alpha < 1) /* no blending on lines: a fainter grey instead */
        c = (ts_bgr){(unsigned char)(c.b * it->alpha), (unsigned char)(c.g * it->alpha),
                     (unsigned char)(c.r * it->alpha)};
    int under = it->role != TS_OVR_GONE && it->role != TS_OVR_ZONE && it->role != TS_OVR_STATUS;
    if (!it->dashed) {
        if (under) /* a dark line under a coloured one reads on light and dark cloth */
            cv_line(p, q, it->npt, it->closed, BLACK, t + 2);
        cv_line(p, q, it->npt, it->closed, c, t);
        return;
    }
    double dash = 10 * p->u, gap = 7 * p->u;
    int segs = it->closed ? it->npt : it->npt - 1;
    for (int i = 0; i < segs; i++) {
        ts_pt a = q[i], b = q[(i + 1) % it->npt];
        double len = hypot(b.x - a.x, b.y - a.y);
        if (len < 1)
            continue;
        for (double s0 = 0; s0 < len; s0 += dash + gap) {
            double s1 = s0 + dash < len ? s0 + dash : len;
            ts_pt seg[2] = {{(float)(a.x + (b.x - a.x) * s0 / len), (float)(a.y + (b.y - a.y) * s0 / len)},
                            {(float)(a.x + (b.x - a.x) * s1 / len), (float)(a.y + (b.y - a.y) * s1 / len)}};
            if (under)
                cv_line(p, seg, 2, 0, BLACK, t + 2);
            cv_line(p, seg, 2, 0, c, t);
        }
    }
}

static void cv_text(pen *p, const ts_ov_item *it)
{
    double px = it->size * p->u;
    int th = px > 20 ? 2 : 1;
    ts_ov_textbox b;
    ts_overlay_text_box(it, p->s, p->u, p->img->w, p->img->h, ts_overlay_cv_measure, NULL, &b);
    if (it->bg_alpha > 0)
        check(p, tscv_fill_rect(p->img, (int)lroundf(b.x), (int)lroundf(b.y), (int)lroundf(b.w),
                                (int)lroundf(b.h), it->bg, it->bg_alpha, p->err));
    check(p, tscv_text(p->img, roundf(b.tx), roundf(b.ty), it->text, hershey_scale(px), it->colour,
                       th, p->err));
}

/* Black number on light colours, white on dark ones. */
static ts_bgr ink_on(ts_bgr c)
{
    return 0.114 * c.b + 0.587 * c.g + 0.299 * c.r > 140 ? BLACK : WHITE;
}

static void cv_badge(pen *p, const ts_ov_item *it, const ts_ov_disc *d)
{
    float cx = d->x, cy = d->y, r = d->r;
    check(p, tscv_circle(p->img, cx, cy, d->R, BLACK, -1, p->err));
    check(p, tscv_circle(p->img, cx, cy, d->R - 1, WHITE, -1, p->err));
    check(p, tscv_circle(p->img, cx, cy, r, it->colour, -1, p->err));
    double px = strlen(it->text) > 1 ? r * 0.8 : r; /* two digits fit the disc too */
    int th = px > 14 ? 2 : 1, w, h;
    tscv_text_size(it->text, hershey_scale(px), th, &w, &h);
    check(p, tscv_text(p->img, cx - (float)w / 2, cy + (float)h / 2, it->text, hershey_scale(px),
                       ink_on(it->colour), th, p->err));
}

int ts_overlay_render(ts_image *frame, const ts_overlay_list *l)
{
    return ts_overlay_render_sized(frame, l, 1);
}

int ts_overlay_render_sized(ts_image *frame, const ts_overlay_list *l, double text_scale)
{
    if (!frame || !frame->buf || frame->channels != 3 || !l)
        return -1;
    pen p = {.img = frame, .s = l->w > 0 ? (double)frame->w / l->w : 1,
             .u = ts_overlay_unit(frame->w, frame->h) * (text_scale > 0 ? text_scale : 1),
             .plain = l->plain};
    ts_ov_layout lay;
    if (ts_overlay_layout(l, p.s, p.u, frame->w, frame->h, ts_overlay_cv_measure, NULL, &lay) < 0)
        return -1;
    for (int i = 0; i < l->n; i++) {
        const ts_ov_item *it = &l->item[i];
        switch (it->shape) {
        case TS_OV_DIM:
            check(&p, tscv_fill_rect(frame, 0, 0, frame->w, frame->h, it->colour, it->alpha, p.err));
            break;
        case TS_OV_POLY: cv_poly(&p, it); break;
        case TS_OV_TEXT: cv_text(&p, it); break;
        case TS_OV_BADGE: cv_badge(&p, it, &lay.discs[i]); break;
        case TS_OV_ROW: {
            if (it->corner < 0)
                break;
            const ts_ov_rowbox *b = &lay.rows[i];
            double px = b->px;
            int th = px > 20 ? 2 : 1;
            check(&p, tscv_fill_rect(frame, b->x, b->y, b->w, b->h, it->bg, it->bg_alpha, p.err));
            if (it->group > 0) {
                ts_ov_item badge = *it;
                check(&p, tscv_circle(frame, b->bx, b->by, b->br + 1, WHITE, -1, p.err));
                check(&p, tscv_circle(frame, b->bx, b->by, b->br, it->colour, -1, p.err));
                char num[12];
                snprintf(num, sizeof num, "%d", it->group);
                int w, h;
                tscv_text_size(num, hershey_scale(b->br), th, &w, &h);
                check(&p, tscv_text(frame, b->bx - (float)w / 2, b->by + (float)h / 2, num,
                                    hershey_scale(b->br), ink_on(badge.colour), th, p.err));
            }
            check(&p, tscv_text(frame, b->tx, b->ty, it->text, hershey_scale(px),
                                it->group > 0 ? WHITE : it->colour, th, p.err));
            break;
        }
        }
    }
    ts_overlay_layout_free(&lay);
    return p.failed ? -1 : 0;
}

int ts_overlay_annotate(ts_image *out, const ts_image *img, const ts_overlay_list *l, int min_h,
                        double text_scale)
{
    if (!out || !img || !img->buf || img->channels != 3 || !l || img->w <= 0 || img->h <= 0)
        return -1;
    int k = 1;
    while (k < TS_OVERLAY_MAX_UPSCALE && img->h * k < min_h)
        k++;
    int w = img->w * k, h = img->h * k;
    if (!out->buf || out->w != w || out->h != h || out->channels != 3) {
        ts_image_free(out);
        if (ts_image_alloc(out, w, h, 3) < 0)
            return -1;
    }
    if (k == 1) {
        for (int y = 0; y < h; y++)
            memcpy(ts_image_row(out, y), ts_image_row(img, y), (size_t)w * 3);
    } else {
        char err[TSCV_ERR_MAX];
        if (tscv_resize(img, out, w, h, err) < 0)
            return -1;
    }
    return ts_overlay_render_sized(out, l, text_scale);
}

int ts_overlay_draw(ts_image *frame, const ts_table *t, const ts_overlay_opts *opts)
{
    if (!frame || !frame->buf || frame->channels != 3 || !t)
        return -1;
    ts_overlay_list l;
    ts_overlay_list_init(&l);
    int rc = ts_overlay_build(&l, t, opts, frame->w, frame->h);
    if (rc == 0)
        rc = ts_overlay_render(frame, &l);
    ts_overlay_list_free(&l);
    return rc;
}
