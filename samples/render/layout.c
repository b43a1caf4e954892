/* Real decks and how cards lie on a table (see render.h). */
#include <math.h>
#include <string.h>

#include "gof.h"
#include "place.h"
#include "render.h"
#include "rng.h"

#define PI 3.14159265358979323846f

/* ---- Decks --------------------------------------------------------------- */

int ts_render_deck_copies(ts_code c)
{
    if (c.family >= TS_FAM_COUNT || c.idx >= ts_family_size((ts_family)c.family))
        return 0;
    switch ((ts_family)c.family) {
    case TS_FAM_GOF: return ts_gof_deck_copies(c.idx);
    case TS_FAM_QWIRKLE: return 3;
    case TS_FAM_DOMINO: return c.idx < TS_DOMINO_CHINESE ? 4 : 0; /* the 84-card Chinese deck */
    default: return 1;
    }
}

int ts_render_deck_size(ts_family fam)
{
    int n = 0;
    for (int i = 0; i < ts_family_size(fam); i++)
        n += ts_render_deck_copies((ts_code){(uint8_t)fam, (uint8_t)i});
    return n;
}

int ts_render_draw_cards(ts_family fam, int n, uint64_t seed, ts_code *out)
{
    ts_code deck[128];
    int size = 0;
    for (int i = 0; i < ts_family_size(fam); i++) {
        ts_code c = {(uint8_t)fam, (uint8_t)i};
        for (int k = ts_render_deck_copies(c); k > 0 && size < 128; k--)
            deck[size++] = c;
    }
    if (n > size)
        n = size;
    uint64_t rng = rng_stream(seed, 1);
    for (int i = 0; i < n; i++) { /* the first n of a Fisher-Yates shuffle */
        int j = i + rng_int(&rng, size - i);
        ts_code t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
        out[i] = deck[i];
    }
    return n;
}

/* ---- Names --------------------------------------------------------------- */

static const char *LAYOUT_NAMES[TS_LAYOUT_COUNT] = {"auto", "grid", "touching", "scatter",
                                                    "pile", "fan",  "row"};

const char *ts_layout_name(ts_layout l)
{
    return l < TS_LAYOUT_COUNT ? LAYOUT_NAMES[l] : "?";
}

int ts_layout_from_name(const char *name)
{
    for (int i = 0; i < TS_LAYOUT_COUNT; i++)
        if (strcmp(name, LAYOUT_NAMES[i]) == 0)
            return i;
    return -1;
}

/* ---- Layouts ------------------------------------------------------------- */

typedef struct {
    ts_scene_spec *spec;
    float cw, ch;
    uint64_t rng;
} layout_ctx;

/* Columns for n cards of footprint fw x fh with gaps gx, gy that make the
 * table about as wide for its height as the picture; SET is dealt in
 * threes, so three rows or three columns. *miss says how far off it is. */
static int best_cols(const ts_scene_spec *s, float fw, float fh, float gx, float gy, float *miss)
{
    int n = s->ncards, cols = 1;
    float want = (float)s->w / (float)s->h;
    *miss = 1e9f;
    for (int c = 1; c <= n; c++) {
        int rows = (n + c - 1) / c;
        if (s->family == TS_FAM_SET && n >= 6 && c != 3 && c != (n + 2) / 3)
            continue;
        float aspect = (c * (fw + gx)) / (rows * (fh + gy));
        float m = fabsf(logf(aspect / want)) + (rows * c - n) * 0.05f;
        if (m < *miss) {
            *miss = m;
            cols = c;
        }
    }
    return cols;
}

/* Rows and columns with gaps; gap < 0.6 mm makes the cards touch. Cards lie
 * upright, or a quarter turned (a quarter of tables, or whichever fills the
 * picture better when fit). */
static void grid(layout_ctx *L, float gap_lo, float gap_hi, float jitter, float turn, int fit)
{
    ts_scene_spec *s = L->spec;
    int n = s->ncards;
    int landscape = rng_unit(&L->rng) < 0.25;
    float gx = (float)rng_range(&L->rng, gap_lo, gap_hi),
          gy = (float)rng_range(&L->rng, gap_lo, gap_hi);
    float miss_up, miss_turned;
    int cols_up = best_cols(s, L->cw, L->ch, gx, gy, &miss_up);
    int cols_turned = best_cols(s, L->ch, L->cw, gx, gy, &miss_turned);
    if (fit)
        landscape = miss_turned < miss_up;
    float fw = landscape ? L->ch : L->cw, fh = landscape ? L->cw : L->ch;
    int cols = landscape ? cols_turned : cols_up;
    for (int i = 0; i < n; i++) {
        ts_card_place *c = &s->cards[i];
        c->x = (i % cols) * (fw + gx) + rng_gauss(&L->rng) * jitter;
        c->y = (i / cols) * (fh + gy) + rng_gauss(&L->rng) * jitter;
        c->angle = (landscape ? PI / 2 : 0) + rng_gauss(&L->rng) * turn;
    }
}

/* Do two cards (as corner lists) overlap, with a margin? Separating axes. */
static int overlaps(const ts_pt a[4], const ts_pt b[4], float margin)
{
    const ts_pt *q[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < 2; e++) {
            float ax = q[s][e + 1].x - q[s][e].x, ay = q[s][e + 1].y - q[s][e].y;
            float l = hypotf(ax, ay), nx = -ay / l, ny = ax / l;
            float lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
            for (int k = 0; k < 2; k++)
                for (int i = 0; i < 4; i++) {
                    float d = q[k][i].x * nx + q[k][i].y * ny;
                    lo[k] = fminf(lo[k], d);
                    hi[k] = fmaxf(hi[k], d);
                }
            if (hi[0] + margin < lo[1] || hi[1] + margin < lo[0])
                return 0;
        }
    return 1;
}

/* Anywhere in a square, any turn; apart unless pile (then only centres kept
 * apart, so every card keeps some of itself in view). */
static void scatter(layout_ctx *L, int pile)
{
    ts_scene_spec *s = L->spec;
    float side = sqrtf(s->ncards * L->cw * L->ch * (pile ? 0.9f : 1.8f)) + L->ch;
    ts_pt corners[TS_RENDER_MAX_CARDS][4];
    for (int i = 0; i < s->ncards; i++) {
        ts_card_place *c = &s->cards[i];
        for (int tries = 0;; tries++) {
            if (tries && tries % 200 == 0)
                side *= 1.1f;
            c->x = (float)rng_range(&L->rng, 0, side);
            c->y = (float)rng_range(&L->rng, 0, side);
            c->angle = (float)rng_range(&L->rng, -PI, PI);
            ts_place_corners(c, L->cw, L->ch, corners[i]);
            int ok = 1;
            for (int j = 0; j < i && ok; j++)
                ok = pile ? hypotf(c->x - s->cards[j].x, c->y - s->cards[j].y) > 0.45f * L->cw
                          : !overlaps(corners[i], corners[j], 2);
            if (ok)
                break;
        }
    }
}

/* A hand fanned about a point below it. */
static void fan(layout_ctx *L)
{
    ts_scene_spec *s = L->spec;
    int n = s->ncards;
    float spread = (float)rng_range(&L->rng, 0.09, 0.2);
    if (spread * (n - 1) > 2.4f)
        spread = 2.4f / (n - 1);
    float r = L->ch * (float)rng_range(&L->rng, 0.7, 1.0);
    for (int i = 0; i < n; i++) {
        float a = (i - (n - 1) / 2.0f) * spread;
        s->cards[i].angle = a;
        s->cards[i].x = sinf(a) * r;
        s->cards[i].y = -cosf(a) * r;
    }
}

static void row(layout_ctx *L)
{
    float gap = (float)rng_range(&L->rng, 2, 12);
    for (int i = 0; i < L->spec->ncards; i++) {
        ts_card_place *c = &L->spec->cards[i];
        c->x = i * (L->cw + gap) + rng_gauss(&L->rng) * 1.0f;
        c->y = rng_gauss(&L->rng) * 1.5f;
        c->angle = rng_gauss(&L->rng) * 0.03f;
    }
}

static ts_layout pick(ts_family fam, uint64_t *rng)
{
    /* weights for grid, touching, scatter, pile, fan, row */
    static const float W[TS_FAM_COUNT][6] = {[TS_FAM_SET] = {75, 12, 8, 5, 0, 0},
                                             [TS_FAM_PLAYING] = {20, 5, 25, 20, 20, 10},
                                             [TS_FAM_GOF] = {15, 5, 25, 25, 30, 0},
                                             [TS_FAM_QWIRKLE] = {45, 15, 25, 0, 15, 0},
                                             [TS_FAM_DOMINO] = {35, 5, 20, 10, 20, 10}};
    return (ts_layout)(TS_LAYOUT_GRID + rng_pick(rng, W[fam], 6));
}

/* Lays the cards out; fit: a grid turns its cards whichever way fills the
 * picture better. */
static ts_layout lay_out(ts_scene_spec *spec, ts_layout layout, int fit)
{
    layout_ctx L = {spec, 0, 0, rng_stream(spec->seed, 2)};
    ts_render_card_size(spec->family, &L.cw, &L.ch);
    if (layout == TS_LAYOUT_AUTO || layout >= TS_LAYOUT_COUNT)
        layout = pick(spec->family < TS_FAM_COUNT ? spec->family : TS_FAM_SET, &L.rng);
    switch (layout) {
    case TS_LAYOUT_TOUCHING: grid(&L, -0.3f, 0.5f, 0.3f, 0.012f, 0); break;
    case TS_LAYOUT_SCATTER: scatter(&L, 0); break;
    case TS_LAYOUT_PILE: scatter(&L, 1); break;
    case TS_LAYOUT_FAN: fan(&L); break;
    case TS_LAYOUT_ROW: row(&L); break;
    default: grid(&L, 3, 15, 1.2f, 0.035f, fit); break;
    }
    /* Half the cards lie the other way up, as dealt cards do. */
    for (int i = 0; i < spec->ncards; i++) {
        ts_card_place *c = &spec->cards[i];
        if (layout != TS_LAYOUT_FAN && rng_unit(&L.rng) < 0.5)
            c->angle += PI;
        c->print = (uint32_t)i;
    }
    ts_place_view(spec);
    return layout;
}

ts_layout ts_render_layout(ts_scene_spec *spec, ts_layout layout)
{
    return lay_out(spec, layout, 0);
}

void ts_place_fitted_grid(ts_scene_spec *spec)
{
    lay_out(spec, TS_LAYOUT_GRID, 1);
}

void ts_place_view(ts_scene_spec *spec)
{
    float cw, ch, x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    ts_render_card_size(spec->family, &cw, &ch);
    for (int i = 0; i < spec->ncards; i++) {
        ts_pt q[4];
        ts_place_corners(&spec->cards[i], cw, ch, q);
        for (int k = 0; k < 4; k++) {
            x0 = fminf(x0, q[k].x);
            x1 = fmaxf(x1, q[k].x);
            y0 = fminf(y0, q[k].y);
            y1 = fmaxf(y1, q[k].y);
        }
    }
    if (spec->ncards == 0) {
        x0 = y0 = 0;
        x1 = 4 * cw;
        y1 = 3 * ch;
    }
    spec->view[0] = x0;
    spec->view[1] = y0;
    spec->view[2] = x1;
    spec->view[3] = y1;
}

ts_layout ts_render_deal(ts_scene_spec *spec, int n, ts_layout layout)
{
    ts_code codes[TS_RENDER_MAX_CARDS];
    /* never more than a scene holds */
    spec->ncards = ts_render_draw_cards(spec->family, n < TS_RENDER_MAX_CARDS ? n : TS_RENDER_MAX_CARDS,
                                        spec->seed, codes);
    for (int i = 0; i < spec->ncards; i++)
        spec->cards[i].code = codes[i];
    return ts_render_layout(spec, layout);
}
