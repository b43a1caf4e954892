/* Qwirkle Cards' own finder: each card is a black field inside a thin white
 * border, so every card's field is a dark blob of its own even where cards
 * touch or overlap (the border parts them), on any table that is not
 * itself black. A field is a dark outer contour that fills most of its
 * minimum-area rectangle at the card's aspect; the card is that rectangle
 * widened by the border.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hull.h"
#include "readers/qwirkle.h"

/* Field 52 x 82 mm (aspect 1.58) inside a 57 x 87 mm card (the rendered
 * deck; a real card's border is as thin); a tilted camera foreshortens it
 * either way. */
#define FIELD_ASPECT_MIN 1.15f
#define FIELD_ASPECT_MAX 2.6f
#define BORDER_W (57.0f / 52.0f)
#define BORDER_H (87.0f / 82.0f)

/* Card fields among the outer contours of mask's components; appends to
 * out[*n..max). grow: pixels the mask was eroded by, given back to each side. */
static int fields(const ts_image *mask, float grow, ts_quad *out, int *n, int max, char *err)
{
    int w = mask->w, h = mask->h;
    tscv_contours c;
    if (tscv_find_contours(mask, 0, &c, err) < 0)
        return -1;
    float amin = 0.002f * w * h, amax = 0.25f * w * h;
    int longest = 0;
    for (int i = 0; i < c.n; i++)
        longest = c.len[i] > longest ? c.len[i] : longest;
    ts_ipt *cand = malloc(sizeof *cand * (size_t)(longest + 1));
    if (!cand) {
        tscv_contours_free(&c);
        if (err)
            strcpy(err, "qwirkle card finder: out of memory");
        return -1;
    }
    for (int i = 0; i < c.n && *n < max; i++) {
        const ts_ipt *pts = c.pts + c.start[i];
        int len = c.len[i];
        if (len < 20)
            continue;
        double area = tscv_area(pts, len);
        if (area < amin || area > amax)
            continue;
        /* the same rectangle from the points that can be hull corners */
        int nc = ts_hull_candidates(pts, len, cand);
        if (nc < 0) {
            free(cand);
            tscv_contours_free(&c);
            if (err)
                strcpy(err, "qwirkle card finder: out of memory");
            return -1;
        }
        ts_pt r[4];
        tscv_min_rect(cand, nc, r);
        float s01 = hypotf(r[1].x - r[0].x, r[1].y - r[0].y);
        float s12 = hypotf(r[2].x - r[1].x, r[2].y - r[1].y);
        float sh = fminf(s01, s12), lg = fmaxf(s01, s12);
        if (sh < 8 || lg / sh < FIELD_ASPECT_MIN || lg / sh > FIELD_ASPECT_MAX)
            continue;
        float fill = (float)(area / (s01 * s12));
        if (fill < 0.75f)
            continue;
        /* start at a corner whose next side is short, clockwise on screen */
        int k0 = s01 <= s12 ? 0 : 1;
        ts_pt q[4];
        for (int k = 0; k < 4; k++)
            q[k] = r[(k0 + k) % 4];
        float cross = (q[1].x - q[0].x) * (q[2].y - q[1].y) - (q[1].y - q[0].y) * (q[2].x - q[1].x);
        if (cross < 0) { /* counter-clockwise: walk the other way from q[1] */
            ts_pt t0 = q[0], t1 = q[1], t2 = q[2], t3 = q[3];
            q[0] = t1;
            q[1] = t0;
            q[2] = t3;
            q[3] = t2;
        }
        float cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4, cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
        /* widen by the erosion, then the border */
        float gu = BORDER_W * (1 + 2 * grow / sh), gv = BORDER_H * (1 + 2 * grow / lg);
        float ux = (q[1].x - q[0].x) / 2 * gu, uy = (q[1].y - q[0].y) / 2 * gu;
        float vx = (q[3].x - q[0].x) / 2 * gv, vy = (q[3].y - q[0].y) / 2 * gv;
        ts_quad *o = &out[(*n)++];
        o->q[0] = (ts_pt){cx - ux - vx, cy - uy - vy};
        o->q[1] = (ts_pt){cx + ux - vx, cy + uy - vy};
        o->q[2] = (ts_pt){cx + ux + vx, cy + uy + vy};
        o->q[3] = (ts_pt){cx - ux + vx, cy - uy + vy};
        o->score = fill;
        o->area = 4 * hypotf(ux, uy) * hypotf(vx, vy);
    }
    free(cand);
    tscv_contours_free(&c);
    return 0;
}

/* The field is darker than its border, whatever the table: below some level
 * it is a blob the border rings off from the table. That level depends on
 * the light, so several are tried, as fractions of the brightest (border,
 * symbols). */
static const float LEVELS[] = {0.25f, 0.40f, 0.55f, 0.70f};
/* Levels looked at again eroded (see below): the one where glare's leaks
 * mattered on renders; at 0.70 it found one card in 1000 for a millisecond. */
static const int ERODED[] = {0, 0, 1, 0};
/* The top hat's radius: wider than the border (2-4 px at the finder's scale),
 * narrower than the field; and the ridge height that counts as border. */
#define TOPHAT_R 3
#define TOPHAT_LEVEL 0.2f

/* t[i] = 2 max - min (at most 255) of bytes i, i+1, i+2 of p, for i < n:
 * at i = 3x, pixel x's lightness as the finder sees it (a coloured symbol
 * counts as bright as a white border). A plain byte loop the compiler turns
 * into vector minima and maxima, where a loop over pixels stays scalar. */
static void bright_bytes(const uint8_t *restrict p, int n, uint8_t *restrict t)
{
    for (int i = 0; i < n; i++) {
        uint8_t mx = p[i] > p[i + 1] ? p[i] : p[i + 1], mn = p[i] < p[i + 1] ? p[i] : p[i + 1];
        mx = p[i + 2] > mx ? p[i + 2] : mx;
        mn = p[i + 2] < mn ? p[i + 2] : mn;
        uint8_t v = (uint8_t)(mx + (mx - mn));
        t[i] = v < mx ? 255 : v; /* wrapped past 255 */
    }
}

/* mask = 255 where L is below level, else 0 */
static void below(const ts_image *L, int level, ts_image *mask)
{
    const int w = L->w;
    for (int y = 0; y < L->h; y++) {
        const uint8_t *l = ts_image_row(L, y);
        uint8_t *d = ts_image_row(mask, y);
        if (level > 255) {
            memset(d, 255, (size_t)w);
            continue;
        }
        const uint8_t t = (uint8_t)(level < 0 ? 0 : level);
        for (int x = 0; x < w; x++)
            d[x] = l[x] < t ? 255 : 0;
    }
}

/* mask = 255 where L rises less than level above its opening (mask on
 * entry), else 0. */
static void ridge_below(const ts_image *L, int level, ts_image *mask)
{
    const int w = L->w;
    for (int y = 0; y < L->h; y++) {
        const uint8_t *l = ts_image_row(L, y);
        uint8_t *d = ts_image_row(mask, y);
        if (level < 1 || level > 255) { /* never at a usable level: as it reads */
            for (int x = 0; x < w; x++)
                d[x] = l[x] - d[x] < level ? 255 : 0;
            continue;
        }
        /* l - d < level, with l - d taken as 0 where l < d (level >= 1) */
        const uint8_t t = (uint8_t)level;
        for (int x = 0; x < w; x++) {
            uint8_t rise = (uint8_t)(l[x] > d[x] ? l[x] - d[x] : 0);
            d[x] = rise < t ? 255 : 0;
        }
    }
}

int qw_find_cards(ts_image scratch[3], const ts_image *full, ts_quad *out, int max, char *err)
{
    /* at half size from 1000 px up: a card keeps 40+ px, and the contour
     * passes (most of the time) take a quarter */
    const ts_image *frame = full;
    int dec = (full->w > full->h ? full->w : full->h) >= 1000 ? 2 : 1;
    if (dec > 1) {
        int sw = full->w / dec, sh = full->h / dec;
        if (!scratch[2].buf || scratch[2].w != sw || scratch[2].h != sh ||
            scratch[2].channels != full->channels) {
            ts_image_free(&scratch[2]);
            if (ts_image_alloc(&scratch[2], sw, sh, full->channels) < 0) {
                if (err)
                    strcpy(err, "qwirkle card finder: out of memory");
                return -1;
            }
        }
        if (tscv_resize(full, &scratch[2], sw, sh, err) < 0)
            return -1;
        frame = &scratch[2];
    }
    int w = frame->w, h = frame->h;
    for (int k = 0; k < 2; k++)
        if (!scratch[k].buf || scratch[k].w != w || scratch[k].h != h) {
            ts_image_free(&scratch[k]);
            if (ts_image_alloc(&scratch[k], w, h, 1) < 0) {
                if (err)
                    strcpy(err, "qwirkle card finder: out of memory");
                return -1;
            }
        }
    ts_image *L = &scratch[0], *m = &scratch[1];
    int hist[256] = {0};
    uint8_t *t = frame->channels == 3 ? malloc((size_t)3 * w) : NULL;
    if (frame->channels == 3 && !t) {
        if (err)
            strcpy(err, "qwirkle card finder: out of memory");
        return -1;
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *p = ts_image_row(frame, y);
        uint8_t *d = ts_image_row(L, y);
        if (frame->channels == 3) {
            bright_bytes(p, 3 * (w - 1) + 1, t);
            for (int x = 0; x < w; x++)
                d[x] = t[3 * x];
        } else {
            for (int x = 0; x < w; x++, p += frame->channels) {
                int v = p[0];
                if (frame->channels > 3) {
                    int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
                    mx = p[2] > mx ? p[2] : mx;
                    mn = p[2] < mn ? p[2] : mn;
                    v = 2 * mx - mn;
                    v = v > 255 ? 255 : v;
                }
                d[x] = (uint8_t)v;
            }
        }
        for (int x = 0; x < w; x++)
            hist[d[x]]++;
    }
    free(t);
    int acc = 0, p99 = 255;
    for (int i = 0; i < 256; i++) {
        acc += hist[i];
        if (acc >= 0.99 * w * h) {
            p99 = i;
            break;
        }
    }
    int n = 0;
    for (size_t k = 0; k < sizeof LEVELS / sizeof LEVELS[0]; k++) {
        below(L, (int)(LEVELS[k] * p99), m);
        if (fields(m, 0, out, &n, max, err) < 0)
            return -1;
        /* Glare on a card lights its border and the table beside it alike:
         * at a higher level the field can leak out through a gap of a
         * pixel or two in the border. Eroded, it comes apart again. */
        if (ERODED[k]) {
            if (tscv_morph(m, m, 'e', 1, err) < 0 || fields(m, 1, out, &n, max, err) < 0)
                return -1;
        }
    }
    /* Glare over a whole field lifts it towards its border: no level parts
     * them. The border is still a thin bright ring (a top hat keeps it and
     * drops the smooth glare): the field is what the ring encloses. */
    if (tscv_morph(L, m, 'o', TOPHAT_R, err) < 0)
        return -1;
    ridge_below(L, (int)(TOPHAT_LEVEL * p99), m);
    if (fields(m, 0, out, &n, max, err) < 0 || tscv_morph(m, m, 'e', 1, err) < 0 ||
        fields(m, 1, out, &n, max, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++) {
            out[i].q[k].x = (out[i].q[k].x + 0.5f) * dec - 0.5f;
            out[i].q[k].y = (out[i].q[k].y + 0.5f) * dec - 0.5f;
        }
        out[i].area *= (float)(dec * dec);
    }
    /* the best-fitting outline of each card first */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j].score > out[j - 1].score; j--) {
            ts_quad t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    /* one field seen at several levels with the same outline is one
     * candidate: reading it again would give the same answer */
    int k = 0;
    for (int i = 0; i < n; i++) {
        float cx = (out[i].q[0].x + out[i].q[2].x) / 2, cy = (out[i].q[0].y + out[i].q[2].y) / 2;
        float side = hypotf(out[i].q[1].x - out[i].q[0].x, out[i].q[1].y - out[i].q[0].y);
        int dup = 0;
        for (int j = 0; j < k && !dup; j++) {
            float dx = (out[j].q[0].x + out[j].q[2].x) / 2 - cx;
            float dy = (out[j].q[0].y + out[j].q[2].y) / 2 - cy;
            float ra = out[i].area / out[j].area;
            dup = dx * dx + dy * dy < 0.01f * side * side && ra > 0.85f && ra < 1.15f;
        }
        if (!dup)
            out[k++] = out[i];
    }
    return k;
}
