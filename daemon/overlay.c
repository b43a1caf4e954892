/* The overlay (see overlay.h). All drawing goes through vision/cv/cvdraw.h. */
#include "overlay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv/cvdraw.h"

/* Set colours, B,G,R: saturated and unlike card ink and table cloth. */
static const ts_bgr SET_COLOURS[] = {
    {0, 140, 255},   /* orange */
    {255, 200, 0},   /* cyan */
    {200, 0, 255},   /* magenta */
    {0, 230, 255},   /* yellow */
    {0, 255, 120},   /* lime */
    {255, 90, 60},   /* blue */
    {180, 105, 255}, /* pink */
    {170, 255, 0},   /* teal */
    {255, 80, 170},  /* violet */
    {40, 40, 255},   /* red */
};
enum { NCOLOURS = sizeof SET_COLOURS / sizeof SET_COLOURS[0] };

static const ts_bgr WHITE = {255, 255, 255}, BLACK = {0, 0, 0}, DARK = {24, 24, 24},
                    GREY = {170, 170, 170}, RED = {40, 40, 230};

void ts_overlay_set_colour(int i, unsigned char bgr[3])
{
    ts_bgr c = SET_COLOURS[(unsigned)i % NCOLOURS];
    bgr[0] = c.b;
    bgr[1] = c.g;
    bgr[2] = c.r;
}

/* One drawing pass: the frame, its scale, and the first error met. */
typedef struct {
    ts_image *img;
    double s;      /* 1.0 at 720 px on the short side */
    int plain;     /* no anti-aliasing */
    int failed;
    char err[TSCV_ERR_MAX];
} pen;

static int px(const pen *p, double v) /* a length in 720p pixels, scaled, at least 1 */
{
    int n = (int)lround(v * p->s);
    return n < 1 ? 1 : n;
}

static void check(pen *p, int rc)
{
    if (rc < 0)
        p->failed = 1;
}

/* ---- Geometry ----------------------------------------------------------- */

static int quad_ok(const ts_image *img, const ts_pt q[4])
{
    float lim = 4.0f * (float)(img->w > img->h ? img->w : img->h);
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
 * their bisectors), so nested Set rings keep an even gap on any card angle. */
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

/* ---- Primitives --------------------------------------------------------- */

static void line(pen *p, const ts_pt *q, int n, int closed, ts_bgr c, int t)
{
    check(p, (p->plain ? tscv_polyline_plain : tscv_polyline)(p->img, q, n, closed, c, t, p->err));
}

/* An outline that reads on light and dark cloth: a dark line under a coloured one. */
static void outline(pen *p, const ts_pt q[4], ts_bgr c, int t)
{
    line(p, q, 4, 1, BLACK, t + 2);
    line(p, q, 4, 1, c, t);
}

static void dashed(pen *p, const ts_pt q[4], ts_bgr c, int t)
{
    double dash = 10 * p->s, gap = 7 * p->s;
    for (int i = 0; i < 4; i++) {
        ts_pt a = q[i], b = q[(i + 1) % 4];
        double len = hypot(b.x - a.x, b.y - a.y);
        if (len < 1)
            continue;
        for (double s0 = 0; s0 < len; s0 += dash + gap) {
            double s1 = s0 + dash < len ? s0 + dash : len;
            ts_pt seg[2] = {{(float)(a.x + (b.x - a.x) * s0 / len), (float)(a.y + (b.y - a.y) * s0 / len)},
                            {(float)(a.x + (b.x - a.x) * s1 / len), (float)(a.y + (b.y - a.y) * s1 / len)}};
            line(p, seg, 2, 0, BLACK, t + 2);
            line(p, seg, 2, 0, c, t);
        }
    }
}

/* Text centred on (cx, cy) on a translucent dark box. */
static void label(pen *p, float cx, float cy, const char *s, double fscale, ts_bgr c)
{
    int th = px(p, 1.2), w, h, pad = px(p, 4);
    double sc = fscale * p->s;
    tscv_text_size(s, sc, th, &w, &h);
    int x = (int)lroundf(cx) - w / 2, y = (int)lroundf(cy) + h / 2;
    check(p, tscv_fill_rect(p->img, x - pad, y - h - pad, w + 2 * pad, h + 2 * pad, DARK, 0.7, p->err));
    check(p, tscv_text(p->img, (float)x, (float)y, s, sc, c, th, p->err));
}

/* Text with its top-left at (x, y) on a band; returns the band's height. */
static int banner(pen *p, int x, int y, const char *s, ts_bgr bg, int full_width)
{
    int th = px(p, 1.2), w, h, pad = px(p, 6);
    double sc = 0.6 * p->s;
    tscv_text_size(s, sc, th, &w, &h);
    int bw = full_width ? p->img->w - x : w + 2 * pad;
    check(p, tscv_fill_rect(p->img, x, y, bw, h + 2 * pad, bg, 0.7, p->err));
    check(p, tscv_text(p->img, (float)(x + pad), (float)(y + pad + h), s, sc, WHITE, th, p->err));
    return h + 2 * pad;
}

/* ---- The overlay -------------------------------------------------------- */

/* Set rings around the first n cards (ok[i]: card i can be drawn); a solved
 * SET table follows its hint ladder (how many Sets, how many of the last
 * one's cards). */
static void draw_sets(pen *p, const ts_table *t, int n, const int *ok)
{
    int level[TS_MAX_CARDS] = {0}; /* rings already drawn around each card */
    int w = px(p, 3), step = w + px(p, 3);
    int sets = t->nsets, cards = 3;
    if (t->game == &TS_GAME_SET) {
        if (t->view.show_groups >= 0 && t->view.show_groups < sets)
            sets = t->view.show_groups;
        if (t->view.show_cards >= 0)
            cards = t->view.show_cards;
    }
    for (int k = 0; k < sets && k < TS_MAX_SETS; k++) {
        for (int j = 0; j < (k == sets - 1 ? cards : 3); j++) {
            int i = t->sets[k][j];
            if (i < 0 || i >= n || !ok[i])
                continue;
            ts_pt ring[4];
            grow_quad(t->frame.cards[i].quad, (double)step * (1 + level[i]++), ring);
            outline(p, ring, SET_COLOURS[k % NCOLOURS], w);
        }
    }
}

static const ts_bgr GREEN = {60, 200, 60}, BLUE = {200, 120, 40}, CYAN = {255, 200, 0};

/* Text of any size centred on (cx, cy) on a box of colour bg. */
static void big_text(pen *p, float cx, float cy, const char *s, double fscale, ts_bgr bg)
{
    int th = px(p, 2.5), w, h, pad = px(p, 10);
    double sc = fscale * p->s;
    tscv_text_size(s, sc, th, &w, &h);
    int x = (int)lroundf(cx) - w / 2, y = (int)lroundf(cy) + h / 2;
    if (x < pad)
        x = pad;
    if (x + w + pad > p->img->w)
        x = p->img->w - w - pad;
    if (y - h - pad < 0)
        y = h + pad;
    check(p, tscv_fill_rect(p->img, x - pad, y - h - pad, w + 2 * pad, h + 2 * pad, bg, 0.85, p->err));
    check(p, tscv_text(p->img, (float)x, (float)y, s, sc, WHITE, th, p->err));
}

/* The game's groups other than SET's: plays on the hand (best first, rings),
 * the trick, table groups valid or not. */
static void draw_groups(pen *p, const ts_table *t, int n, const int *ok, int max_plays)
{
    const ts_game_view *v = &t->view;
    int level[TS_MAX_CARDS] = {0};
    int w = px(p, 3), step = w + px(p, 3), plays = 0;
    for (int g = 0; g < v->ngroups; g++) {
        const ts_view_group *vg = &v->group[g];
        ts_bgr c = vg->mark == TS_MARK_GOOD ? GREEN
                   : vg->mark == TS_MARK_BAD ? RED
                   : vg->mark == TS_MARK_INFO ? CYAN
                                              : SET_COLOURS[plays % NCOLOURS];
        if (vg->mark == TS_MARK_HINT && plays++ >= max_plays)
            continue;
        float top = 1e9f, lx = 0;
        for (int k = 0; k < vg->n; k++) {
            int i = vg->card[k];
            if (i < 0 || i >= n || !ok[i])
                continue;
            ts_pt ring[4];
            grow_quad(t->frame.cards[i].quad, (double)step * (1 + level[i]++), ring);
            outline(p, ring, c, w);
            for (int q = 0; q < 4; q++)
                if (ring[q].y < top)
                    top = ring[q].y, lx = centroid(ring).x;
        }
        /* the best play, each invalid group and the trick get their name */
        if (top < 1e9f && (vg->mark != TS_MARK_HINT || plays == 1) && vg->label[0]) {
            char s[64];
            snprintf(s, sizeof s, "%s%s", vg->mark == TS_MARK_HINT ? "best: " : "", vg->label);
            label(p, lx, top - px(p, 12), s, 0.5, c);
        }
    }
}

static void draw_zones(pen *p, const ts_zones *z)
{
    for (int i = 0; i < z->n; i++) {
        ts_pt q[4];
        for (int k = 0; k < 4; k++)
            q[k] = (ts_pt){z->z[i].q[k].x * (float)(p->img->w - 1),
                           z->z[i].q[k].y * (float)(p->img->h - 1)};
        dashed(p, q, GREY, px(p, 1));
        label(p, q[0].x + px(p, 50), q[0].y + px(p, 40), ts_zone_name(z->z[i].kind), 0.45, GREY);
    }
}

int ts_overlay_draw(ts_image *frame, const ts_table *t, const ts_overlay_opts *opts)
{
    static const ts_overlay_opts none = {0};
    if (!frame || !frame->buf || frame->channels != 3 || !t)
        return -1;
    const ts_frame_result *r = &t->frame;
    if (!opts)
        opts = &none;
    pen p = {.img = frame, .s = (frame->w < frame->h ? frame->w : frame->h) / 720.0,
             .plain = opts->plain};
    if (p.s < 0.5)
        p.s = 0.5;

    if (opts->stale) /* dim the frozen frame so nobody mistakes it for live */
        check(&p, tscv_fill_rect(frame, 0, 0, frame->w, frame->h, BLACK, 0.4, p.err));

    int n = r->ncards < 0 ? 0 : r->ncards < TS_MAX_CARDS ? r->ncards : TS_MAX_CARDS;
    int ok[TS_MAX_CARDS];
    for (int i = 0; i < n; i++)
        ok[i] = quad_ok(frame, r->cards[i].quad);

    for (int i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        if (r->cards[i].read)
            outline(&p, r->cards[i].quad, WHITE, px(&p, 2));
        else
            dashed(&p, r->cards[i].quad, GREY, px(&p, 2));
    }
    if (opts->zones)
        draw_zones(&p, opts->zones);
    if (!opts->hide_sets && (!t->game || t->game == &TS_GAME_SET))
        draw_sets(&p, t, n, ok);
    else if (!opts->hide_sets)
        draw_groups(&p, t, n, ok, opts->max_plays > 0 ? opts->max_plays : 5);
    for (int i = 0; i < n; i++) {
        if (!ok[i] || (opts->hide_codes && r->cards[i].read))
            continue;
        ts_pt c = centroid(r->cards[i].quad);
        if (r->cards[i].read)
            label(&p, c.x, c.y, r->cards[i].text, 0.55, WHITE);
        else
            label(&p, c.x, c.y, "?", 0.8, GREY);
    }

    int y = 0;
    if (opts->status)
        y += banner(&p, 0, 0, opts->status, DARK, 1);
    if (opts->stale) {
        char s[160];
        snprintf(s, sizeof s, "STALE - %s", opts->stale_reason ? opts->stale_reason : "source lost");
        banner(&p, 0, y, s, RED, 1);
        int bw = px(&p, 6);
        ts_pt border[4] = {{(float)bw / 2, (float)bw / 2},
                           {(float)frame->w - bw / 2.0f, (float)bw / 2},
                           {(float)frame->w - bw / 2.0f, (float)frame->h - bw / 2.0f},
                           {(float)bw / 2, (float)frame->h - bw / 2.0f}};
        line(&p, border, 4, 1, RED, bw);
    }
    if (!opts->hide_sets && n > 0 && (t->game || r->family == TS_FAM_SET)) {
        char s[TS_TEXT_MAX];
        if (t->game && t->view.headline[0])
            snprintf(s, sizeof s, "%s", t->view.headline);
        else if (t->nsets == 0)
            snprintf(s, sizeof s, "no Set");
        else
            snprintf(s, sizeof s, "%d Set%s", t->nsets, t->nsets == 1 ? "" : "s");
        int th = px(&p, 1.2), w, h;
        tscv_text_size(s, 0.6 * p.s, th, &w, &h);
        banner(&p, 0, frame->h - h - 2 * px(&p, 6), s, DARK, 0);
        if (t->view.pass) /* the answer a climbing-game player wants, large */
            big_text(&p, frame->w / 2.0f, frame->h * 0.75f, "PASS", 1.6, DARK);
    }
    if (opts->verdict) {
        ts_bgr bg = opts->verdict_kind == TS_VERDICT_LEGAL     ? GREEN
                    : opts->verdict_kind == TS_VERDICT_ILLEGAL ? RED
                    : opts->verdict_kind == TS_VERDICT_INFO    ? BLUE
                                                               : (ts_bgr){90, 90, 90};
        big_text(&p, opts->verdict_x, opts->verdict_y, opts->verdict, 0.9, bg);
    }
    return p.failed ? -1 : 0;
}
