/* Finding Chinese domino cards by their waist (see domino_cards.h). */
#include "readers/domino_cards.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvwrap.h"

enum { MAX_RED = 4096 };

/* The deck's printed sizes (mm): card, waist lozenge, rules, outline. */
static const float CARD_W = 26, CARD_H = 82;
static const float LOZ_HALF_W = 3;     /* half its width, along the card's short side */
static const float RULE_AT = 4;        /* the rules, either side of the middle */
static const float RULE_HALF_LEN = 10; /* they run 3 mm short of each side */
static const float OUTLINE_IN = 1.2f;  /* the printed outline, in from the edge */
static const float PIP_FREE = 10.2f;   /* no pip reaches this far from the long axis */

/* One red blob: box, area, centre and central second moments. */
typedef struct {
    int x, y, w, h, area;
    float cx, cy;
    double sxx, syy, sxy;
} red_blob;

struct domino_card_finder {
    ts_image red;
    int *labels;
    int nlabels;
    red_blob *blobs;
};

typedef struct {
    float cx, cy, ux, uy, ppm, score;
} waist;

/* The 8-connected blobs of a sparse mask, found by flood fill from each set
 * pixel (the mask is cleared as it goes; stack holds w*h ints): cheaper
 * than labelling every pixel of the frame. Returns the count (<= max). */
static int red_blobs(ts_image *mask, int *stack, red_blob *out, int max)
{
    const int w = mask->w, h = mask->h;
    int n = 0;
    for (int y = 0; y < h; y++) {
        uint8_t *row = ts_image_row(mask, y);
        for (int x = 0; x < w; x++) {
            if (!row[x])
                continue;
            int sp = 0, x0 = x, x1 = x, y0 = y, y1 = y, area = 0;
            double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
            row[x] = 0;
            stack[sp++] = y * w + x;
            while (sp) {
                int p = stack[--sp], px = p % w, py = p / w;
                area++;
                sx += px;
                sy += py;
                sxx += (double)px * px;
                syy += (double)py * py;
                sxy += (double)px * py;
                if (px < x0)
                    x0 = px;
                if (px > x1)
                    x1 = px;
                if (py < y0)
                    y0 = py;
                if (py > y1)
                    y1 = py;
                for (int dy = -1; dy <= 1; dy++) {
                    int qy = py + dy;
                    if (qy < 0 || qy >= h)
                        continue;
                    uint8_t *q = ts_image_row(mask, qy);
                    for (int dx = -1; dx <= 1; dx++) {
                        int qx = px + dx;
                        if (qx < 0 || qx >= w || !q[qx])
                            continue;
                        q[qx] = 0;
                        stack[sp++] = qy * w + qx;
                    }
                }
            }
            if (n >= max)
                continue;
            red_blob *b = &out[n++];
            double mx = sx / area, my = sy / area;
            *b = (red_blob){x0,
                            y0,
                            x1 - x0 + 1,
                            y1 - y0 + 1,
                            area,
                            (float)mx,
                            (float)my,
                            sxx / area - mx * mx,
                            syy / area - my * my,
                            sxy / area - mx * my};
        }
    }
    return n;
}

domino_card_finder *domino_card_finder_create(void)
{
    domino_card_finder *f = calloc(1, sizeof *f);
    if (f && !(f->blobs = malloc(sizeof(red_blob) * MAX_RED))) {
        free(f);
        return NULL;
    }
    return f;
}

void domino_card_finder_destroy(domino_card_finder *f)
{
    if (!f)
        return;
    ts_image_free(&f->red);
    free(f->labels);
    free(f->blobs);
    free(f);
}

/* Grey level (B + 2G + R) / 4 at the nearest pixel, -1 outside. */
static int grey_at(const ts_image *img, float x, float y)
{
    int ix = (int)lrintf(x), iy = (int)lrintf(y);
    if (ix < 0 || iy < 0 || ix >= img->w || iy >= img->h)
        return -1;
    const uint8_t *p = ts_image_row(img, iy) + (size_t)ix * 3;
    return (p[0] + 2 * p[1] + p[2]) >> 2;
}

/* Distance (px) from (x, y) along (dx, dy) to the first printed line (or
 * edge) in [from, to]: two samples in a row clearly darker than the paper
 * the scan starts on (the median of its first samples); -1 if none. */
static float scan_dark(const ts_image *img, float x, float y, float dx, float dy, float from,
                       float to)
{
    int first[5], n = 0;
    for (float d = from; d <= to && n < 5; d += 1.0f) {
        int g = grey_at(img, x + d * dx, y + d * dy);
        if (g < 0)
            return -1;
        first[n++] = g;
    }
    if (n < 5)
        return -1;
    for (int i = 1; i < 5; i++) /* sort five */
        for (int j = i; j > 0 && first[j] < first[j - 1]; j--) {
            int t = first[j];
            first[j] = first[j - 1];
            first[j - 1] = t;
        }
    int ref = first[2], prev = 255;
    for (float d = from; d <= to; d += 0.5f) {
        int g = grey_at(img, x + d * dx, y + d * dy);
        if (g < 0)
            return -1;
        if (g < ref * 80 / 100 && prev < ref * 88 / 100)
            return d - 0.5f;
        prev = g;
    }
    return -1;
}

/* How much of the two rules shows either side of a lozenge: 0..1. */
static float rules_seen(const ts_image *img, float cx, float cy, float ux, float uy, float ppm)
{
    float vx = -uy, vy = ux;
    int seen = 0, tried = 0;
    for (int s = -1; s <= 1; s += 2)
        for (int k = -7; k <= 7; k++) {
            float t = k * (RULE_HALF_LEN - 1) / 7 * ppm;
            float bx = cx + t * ux, by = cy + t * uy;
            int paper_a = grey_at(img, bx + s * (RULE_AT - 1.3f) * ppm * vx,
                                  by + s * (RULE_AT - 1.3f) * ppm * vy);
            int paper_b = grey_at(img, bx + s * (RULE_AT + 1.3f) * ppm * vx,
                                  by + s * (RULE_AT + 1.3f) * ppm * vy);
            tried++;
            if (paper_a < 0 || paper_b < 0)
                continue;
            int paper = paper_a < paper_b ? paper_a : paper_b, dark = 255;
            for (float o = RULE_AT - 0.7f; o <= RULE_AT + 0.7f; o += 0.5f / ppm) {
                int g = grey_at(img, bx + s * o * ppm * vx, by + s * o * ppm * vy);
                if (g >= 0 && g < dark)
                    dark = g;
            }
            seen += dark < paper * 85 / 100 && paper > 60;
        }
    return (float)seen / tried;
}

/* How dark the two rules run under a narrow window: the mean contrast
 * (paper - darkest) / paper along both, for fine turning. */
static float rules_contrast(const ts_image *img, float cx, float cy, float ux, float uy, float ppm)
{
    float vx = -uy, vy = ux, sum = 0;
    for (int s = -1; s <= 1; s += 2)
        for (int k = -9; k <= 9; k++) {
            float t = k * (RULE_HALF_LEN - 0.8f) / 9 * ppm;
            float bx = cx + t * ux, by = cy + t * uy;
            int pa = grey_at(img, bx + s * (RULE_AT - 1.3f) * ppm * vx,
                             by + s * (RULE_AT - 1.3f) * ppm * vy);
            int pb = grey_at(img, bx + s * (RULE_AT + 1.3f) * ppm * vx,
                             by + s * (RULE_AT + 1.3f) * ppm * vy);
            if (pa <= 0 || pb <= 0)
                continue;
            int paper = pa < pb ? pa : pb, dark = 255;
            for (float o = RULE_AT - 0.3f; o <= RULE_AT + 0.3f; o += 0.5f / ppm) {
                int g = grey_at(img, bx + s * o * ppm * vx, by + s * o * ppm * vy);
                if (g >= 0 && g < dark)
                    dark = g;
            }
            sum += (float)(paper - dark) / paper;
        }
    return sum;
}

static int by_score(const void *a, const void *b)
{
    float sa = ((const waist *)a)->score, sb = ((const waist *)b)->score;
    return (sa < sb) - (sa > sb);
}

/* The median of three, or the mean of two; -1 if fewer. */
static float middle(const float *v, int n)
{
    if (n == 2)
        return (v[0] + v[1]) / 2;
    if (n != 3)
        return -1;
    float a = v[0], b = v[1], c = v[2];
    return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

int domino_find_cards(domino_card_finder *f, const ts_image *frame, ts_quad *out, int max,
                      char *err)
{
    const int w = frame->w, h = frame->h;
    if (frame->channels != 3) /* the lozenge is found by its red */
        return 0;
    if (!f->red.buf || f->red.w != w || f->red.h != h) {
        ts_image_free(&f->red);
        free(f->labels);
        f->labels = malloc(sizeof(int) * (size_t)w * (size_t)h);
        if (!f->labels || ts_image_alloc(&f->red, w, h, 1) < 0) {
            if (err)
                strcpy(err, "domino find: out of memory");
            return -1;
        }
    }
    /* red ink: red well above green and blue */
    for (int y = 0; y < h; y++) {
        const uint8_t *p = ts_image_row(frame, y);
        uint8_t *o = ts_image_row(&f->red, y);
        for (int x = 0; x < w; x++, p += 3) {
            int mx = p[0] > p[1] ? p[0] : p[1];
            o[x] = p[2] > 80 && p[2] - mx > 45 && p[2] - mx > p[2] / 3 ? 255 : 0;
        }
    }
    int n = red_blobs(&f->red, f->labels, f->blobs, MAX_RED);
    waist ws[256];
    int nw = 0;
    for (int i = 0; i < n && nw < 256; i++) {
        const red_blob *b = &f->blobs[i];
        if (b->area < 4 || b->w > 120 || b->h > 120)
            continue;
        /* a lozenge lies on white paper: a ring round it is bright and grey
         * (wood, felt and a red cloth are coloured) */
        {
            float rr = 1.6f * sqrtf((float)(b->w * b->w + b->h * b->h)) / 2 + 1.5f;
            int ok = 1;
            for (int k = 0; k < 8 && ok; k++) {
                float a = k * 0.7853982f;
                int ix = (int)lrintf(b->cx + rr * cosf(a)), iy = (int)lrintf(b->cy + rr * sinf(a));
                if (ix < 0 || iy < 0 || ix >= w || iy >= h) {
                    ok = 0;
                    break;
                }
                const uint8_t *p = ts_image_row(frame, iy) + (size_t)ix * 3;
                int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
                mx = mx > p[2] ? mx : p[2];
                mn = mn < p[2] ? mn : p[2];
                ok = mx >= 70 && mx - mn < mx * 45 / 100 + 10;
            }
            if (!ok)
                continue;
        }
        double sxx = b->sxx, syy = b->syy, sxy = b->sxy;
        double t = (sxx + syy) / 2, d = sqrt((sxx - syy) * (sxx - syy) / 4 + sxy * sxy);
        double major = sqrt(fmax(t + d, 0)), minor = sqrt(fmax(t - d, 1e-6));
        float ppm, ux, uy, seen = 0;
        /* a lozenge 6 x 4 mm: 1.5 times as long as wide; pips are round */
        int shaped = major >= 1.22 * minor && major <= 2.4 * minor;
        ppm = 0;
        ux = 1;
        uy = 0;
        if (b->area >= 40 && shaped) {
            /* blur and the red threshold widen the lozenge by ~7% on renders */
            ppm = (float)(major * sqrt(6.0) / LOZ_HALF_W) / 1.07f;
            double ang = 0.5 * atan2(2 * sxy, sxx - syy);
            ux = (float)cos(ang);
            uy = (float)sin(ang);
            seen = rules_seen(frame, b->cx, b->cy, ux, uy, ppm);
        }
        if (seen < 0.55f && (b->area < 40 || (shaped && b->area <= 160))) {
            /* a few pixels: too small for its shape to tell the way the
             * card lies; the rules do, tried every 7.5 degrees */
            float ppm0 = sqrtf(b->area / (2 * LOZ_HALF_W * 2)), best_ppm = ppm0;
            ux = 1;
            uy = 0;
            for (int k = 0; k < 24; k++)
                for (int z = -1; z <= 1; z++) {
                    float a = (float)k * 3.14159265f / 24, pz = ppm0 * (1 + 0.15f * z);
                    if (pz < 0.7f)
                        continue;
                    float sc = rules_seen(frame, b->cx, b->cy, cosf(a), sinf(a), pz);
                    if (sc > seen) {
                        seen = sc;
                        ux = cosf(a);
                        uy = sinf(a);
                        best_ppm = pz;
                    }
                }
            ppm = best_ppm;
        }
        if (ppm < 0.7f || ppm > 12 || seen < 0.55f)
            continue;
        /* the rules are long and thin: they set the card's angle to a
         * degree, where the lozenge only gives it to a few */
        {
            float a0 = atan2f(uy, ux), best = -1, best_a = a0;
            for (int k = -16; k <= 16; k++) {
                float a = a0 + k * 0.5f * 3.14159265f / 180;
                float c = rules_contrast(frame, b->cx, b->cy, cosf(a), sinf(a), ppm);
                if (c > best) {
                    best = c;
                    best_a = a;
                }
            }
            ux = cosf(best_a);
            uy = sinf(best_a);
        }
        ws[nw++] = (waist){b->cx, b->cy, ux, uy, ppm, seen};
    }
    qsort(ws, (size_t)nw, sizeof ws[0], by_score);
    int nout = 0;
    for (int i = 0; i < nw && nout < max; i++) {
        const waist *k = &ws[i];
        float ux = k->ux, uy = k->uy, vx = -uy, vy = ux, ppm = k->ppm;
        float cx = k->cx, cy = k->cy;
        /* short sides: the outline, along lines between lozenge and rules */
        float e[2];
        for (int s = 0; s < 2; s++) {
            float sg = s ? 1.0f : -1.0f, found[2];
            int nf = 0;
            for (int line = -1; line <= 1; line += 2) {
                float ox = cx + line * 2.9f * ppm * vx, oy = cy + line * 2.9f * ppm * vy;
                float d = scan_dark(frame, ox, oy, sg * ux, sg * uy, 4 * ppm, 16 * ppm);
                if (d > 0)
                    found[nf++] = d / ppm + OUTLINE_IN;
            }
            e[s] = nf == 2 && fabsf(found[0] - found[1]) < 1.5f ? (found[0] + found[1]) / 2 : -1;
        }
        /* both sides seen and about the card's width: the scale from them */
        if (e[0] > 0 && e[1] > 0 && fabsf(e[0] + e[1] - CARD_W) < 0.3f * CARD_W) {
            float shift = (e[1] - e[0]) / 2 * ppm;
            cx += shift * ux;
            cy += shift * uy;
            ppm *= (e[0] + e[1]) / CARD_W;
        }
        /* the long sides' direction: a camera at a slant draws the card as
         * a parallelogram, its long sides not square to the rules; follow
         * the outline of each long side between the rules and the pips */
        {
            float lx = 0, ly = 0;
            for (int s = 0; s < 2; s++) {
                float sg = s ? 1.0f : -1.0f, px[2] = {0, 0}, py[2] = {0, 0};
                int ok = 1;
                for (int z = 0; z < 2 && ok; z++) {
                    float off = (z ? 13.0f : -13.0f) * ppm;
                    float ox = cx + off * vx, oy = cy + off * vy;
                    float d = scan_dark(frame, ox, oy, sg * ux, sg * uy, 7 * ppm, 18 * ppm);
                    ok = d > 0;
                    px[z] = ox + sg * d * ux;
                    py[z] = oy + sg * d * uy;
                }
                if (ok) {
                    lx += px[1] - px[0];
                    ly += py[1] - py[0];
                }
            }
            float ll = hypotf(lx, ly);
            /* within 15 degrees of square: a slant, not a stray line */
            if (ll > 0 && (lx * vx + ly * vy) / ll > 0.966f) {
                vx = lx / ll;
                vy = ly / ll;
            }
        }
        /* long ends: the outline, along pip-free lines near the long sides */
        float hv[2];
        for (int s = 0; s < 2; s++) {
            float sg = s ? 1.0f : -1.0f, found[3];
            int nf = 0;
            for (int line = -1; line <= 1; line += 2) {
                float ox = cx + line * PIP_FREE * ppm * ux, oy = cy + line * PIP_FREE * ppm * uy;
                float d = scan_dark(frame, ox, oy, sg * vx, sg * vy, (RULE_AT + 2) * ppm,
                                    (CARD_H / 2 + 6) * ppm);
                if (d > 0)
                    found[nf++] = d / ppm + OUTLINE_IN;
            }
            float m = middle(found, nf);
            /* an end not where the deck puts it is covered or cut: keep the
             * printed length */
            hv[s] = m > 0 && fabsf(m - CARD_H / 2) < 0.06f * CARD_H / 2 ? m : CARD_H / 2;
        }
        float shift = (hv[1] - hv[0]) / 2 * ppm;
        cx += shift * vx;
        cy += shift * vy;
        float hu = CARD_W / 2 * ppm, hl = (hv[0] + hv[1]) / 2 * ppm;
        ts_quad *q = &out[nout++];
        q->q[0] = (ts_pt){cx - hu * ux - hl * vx, cy - hu * uy - hl * vy};
        q->q[1] = (ts_pt){cx + hu * ux - hl * vx, cy + hu * uy - hl * vy};
        q->q[2] = (ts_pt){cx + hu * ux + hl * vx, cy + hu * uy + hl * vy};
        q->q[3] = (ts_pt){cx - hu * ux + hl * vx, cy - hu * uy + hl * vy};
        q->score = k->score;
        q->area = 4 * hu * hl;
    }
    return nout;
}
