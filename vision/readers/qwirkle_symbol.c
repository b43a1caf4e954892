/* The symbol on one Qwirkle piece: a coloured (or white) shape on a black
 * field. The symbol is what is brighter or more colourful than the field
 * (Otsu on 2*max - min, which lifts dark saturated inks such as deep green
 * above the black), taken as the central blob plus the fragments around it
 * (thin star points can break off). Colour is the mean of its inner pixels;
 * shape comes from its contour: solidity, circularity, and the radial
 * profile's 4- and 8-fold harmonics in the piece's own frame (a square's
 * corners lie on the diagonals, a diamond's on the axes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "distance.h"
#include "readers/qwirkle.h"

/* The field's pixels are grey (chroma below GREY_CHROMA); glare spreads
 * their darkest channel over more than GLARE_SPREAD (10th to 90th centile). */
#define GREY_CHROMA 30
#define GLARE_SPREAD 30

enum { SQ = 80, MAXW = QW_CARD_W, MAXH = QW_CARD_H, NBIN = 64, MAXBLOB = 64 };

struct qw_symbol {
    ts_image card;   /* input resized to QW_CARD_W x QW_CARD_H when needed */
    ts_image sq;     /* a tile unstretched to SQ x SQ */
    ts_image bin;    /* ink mask of the analysed region */
    ts_image sym;    /* the chosen symbol's pixels */
    ts_image depth;  /* their distance to the symbol's edge */
    uint8_t light[MAXW * MAXH];
    int labels[MAXW * MAXH];
    tscv_blob blobs[MAXBLOB];
};

qw_symbol *qw_symbol_create(void)
{
    return calloc(1, sizeof(qw_symbol));
}

void qw_symbol_destroy(qw_symbol *s)
{
    if (!s)
        return;
    ts_image_free(&s->card);
    ts_image_free(&s->sq);
    ts_image_free(&s->bin);
    ts_image_free(&s->sym);
    ts_image_free(&s->depth);
    free(s);
}

static int otsu(const int hist[256], int n)
{
    double sum = 0, sumb = 0, best = -1;
    for (int i = 0; i < 256; i++)
        sum += (double)i * hist[i];
    int wb = 0, t = 128;
    for (int i = 0; i < 256; i++) {
        wb += hist[i];
        if (wb == 0)
            continue;
        int wf = n - wb;
        if (wf == 0)
            break;
        sumb += (double)i * hist[i];
        double mb = sumb / wb, mf = (sum - sumb) / wf;
        double between = (double)wb * wf * (mb - mf) * (mb - mf);
        if (between > best) {
            best = between;
            t = i;
        }
    }
    return t;
}

/* Saturation 0..255: 255 * (1 - min/max). */
static inline int sat255(const uint8_t *p)
{
    int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
    mx = p[2] > mx ? p[2] : mx;
    mn = p[2] < mn ? p[2] : mn;
    return mx ? 255 - 255 * mn / mx : 0;
}

/* Gains that make a card's white border grey: the light's colour, so that
 * red, orange and yellow keep apart under a warm lamp. The border is the
 * outer few pixels of the rectified card; its brighter half is taken (the
 * table may show at a corner). Gains of 1 when there is no clear border. */
static void white_balance(const ts_image *card, double wb[3])
{
    int hist[256] = {0}, n = 0;
    for (int pass = 0; pass < 2; pass++) {
        int thr = 0;
        if (pass == 1) {
            for (int k = 255, acc = 0; k >= 0; k--) {
                acc += hist[k];
                if (2 * acc >= n) {
                    thr = k;
                    break;
                }
            }
        }
        double sum[3] = {0, 0, 0};
        int cnt = 0;
        for (int y = 1; y < card->h - 1; y++) {
            const uint8_t *row = ts_image_row(card, y);
            int edge_y = y <= 3 || y >= card->h - 4;
            for (int x = 1; x < card->w - 1; x++) {
                if (!edge_y && x > 3 && x < card->w - 4) {
                    x = card->w - 5; /* skip the inside */
                    continue;
                }
                const uint8_t *p = row + 3 * x;
                int v = (p[0] + p[1] + p[2]) / 3;
                if (pass == 0) {
                    hist[v]++;
                    n++;
                } else if (v >= thr) {
                    sum[0] += p[0];
                    sum[1] += p[1];
                    sum[2] += p[2];
                    cnt++;
                }
            }
        }
        if (pass == 1) {
            double mean = (sum[0] + sum[1] + sum[2]) / 3;
            if (cnt < 10 || mean / cnt < 60)
                return;
            for (int c = 0; c < 3; c++)
                wb[c] = sum[c] > 0 ? mean / sum[c] : 1;
            for (int c = 0; c < 3; c++) /* a tinted border is not white: cap the gains */
                wb[c] = wb[c] < 0.6 ? 0.6 : wb[c] > 1.6 ? 1.6 : wb[c];
        }
    }
}

/* Whether glare lies over part of a card's field: white light added to
 * every channel lifts the field's darkest channel in places, and 2 max - min
 * with it, past the threshold that parts the symbol from the field. A card's
 * symbols are all coloured, so there their chroma (max - min), which such
 * light leaves alone, is taken instead. Not always: a JPEG keeps chroma at
 * half resolution, and a small card's shape is sharper in lightness. The
 * field is the grey pixels; glare spreads their darkest channel. */
static int glared(const ts_image *reg)
{
    int hist[256] = {0}, n = 0;
    for (int y = 0; y < reg->h; y++) {
        const uint8_t *p = ts_image_row(reg, y);
        for (int x = 0; x < reg->w; x++, p += 3) {
            int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
            mx = p[2] > mx ? p[2] : mx;
            mn = p[2] < mn ? p[2] : mn;
            if (mx - mn < GREY_CHROMA) {
                hist[mn]++;
                n++;
            }
        }
    }
    if (n < 50)
        return 0;
    int lo = -1, hi = 0;
    for (int k = 0, acc = 0; k < 256; k++) {
        acc += hist[k];
        if (lo < 0 && acc >= 0.1 * n)
            lo = k;
        if (acc >= 0.9 * n) {
            hi = k;
            break;
        }
    }
    return hi - lo > GLARE_SPREAD;
}

static int ensure(ts_image *img, int w, int h, int c)
{
    if (img->buf && img->w == w && img->h == h && img->channels == c)
        return 0;
    ts_image_free(img);
    return ts_image_alloc(img, w, h, c);
}

int qw_symbol_measure(qw_symbol *s, const ts_image *card, int square, qw_measure *m, char *err)
{
    memset(m, 0, sizeof *m);
    const ts_image *src = card;
    if (card->w != QW_CARD_W || card->h != QW_CARD_H || card->channels != 3) {
        if (tscv_resize(card, &s->card, QW_CARD_W, QW_CARD_H, err) < 0)
            return -1;
        src = &s->card;
    }
    double wb[3] = {1, 1, 1};
    ts_image reg;
    if (square) {
        if (ensure(&s->sq, SQ, SQ, 3) < 0 || tscv_resize(src, &s->sq, SQ, SQ, err) < 0)
            return -1;
        reg = ts_image_roi(&s->sq, 5, 5, SQ - 10, SQ - 10);
    } else {
        /* the big symbol; the corner indices and the white border stay out */
        int mx = QW_CARD_W / 12, my = QW_CARD_H * 7 / 36;
        reg = ts_image_roi(src, mx, my, QW_CARD_W - 2 * mx, QW_CARD_H - 2 * my);
        white_balance(src, wb);
    }
    int w = reg.w, h = reg.h, n = w * h;
    if (ensure(&s->bin, w, h, 1) < 0 || ensure(&s->sym, w, h, 1) < 0 ||
        ensure(&s->depth, w, h, 1) < 0) {
        if (err)
            strcpy(err, "qwirkle: out of memory");
        return -1;
    }

    /* lightness that also lifts saturated dark inks */
    int glare = !square && glared(&reg);
    int hist[256] = {0};
    for (int y = 0; y < h; y++) {
        const uint8_t *p = ts_image_row(&reg, y);
        for (int x = 0; x < w; x++, p += 3) {
            int mx = p[0] > p[1] ? p[0] : p[1], mn = p[0] < p[1] ? p[0] : p[1];
            mx = p[2] > mx ? p[2] : mx;
            mn = p[2] < mn ? p[2] : mn;
            int l = glare ? 2 * (mx - mn) : 2 * mx - mn;
            l = l > 255 ? 255 : l;
            s->light[y * w + x] = (uint8_t)l;
            hist[l]++;
        }
    }
    int t = otsu(hist, n);
    double sum_in = 0, sum_out = 0;
    int n_in = 0;
    for (int y = 0; y < h; y++) {
        uint8_t *b = ts_image_row(&s->bin, y);
        for (int x = 0; x < w; x++) {
            int l = s->light[y * w + x];
            b[x] = l > t ? 255 : 0;
            if (l > t) {
                sum_in += l;
                n_in++;
            } else {
                sum_out += l;
            }
        }
    }
    if (n_in == 0 || n_in == n)
        return 0;
    m->contrast = (float)(sum_in / n_in - sum_out / (n - n_in));
    /* no symbol on a black field: done before the costlier steps (most
     * candidates that are not pieces end here) */
    if (m->contrast < QW_MIN_CONTRAST || n_in < 0.02 * n || n_in > 0.9 * n)
        return 0;

    int nb = tscv_components(&s->bin, s->labels, s->blobs, MAXBLOB, err);
    if (nb < 0)
        return -1;
    /* the central blob: largest with its centroid near the middle */
    float mx0 = w * 0.5f, my0 = h * 0.5f, near = 0.22f * (w < h ? w : h);
    int best = -1;
    for (int i = 0; i < nb; i++) {
        const tscv_blob *b = &s->blobs[i];
        if (fabsf(b->cx - mx0) > near || fabsf(b->cy - my0) > near)
            continue;
        if (best < 0 || b->area > s->blobs[best].area)
            best = i;
    }
    if (best < 0)
        return 0;
    const tscv_blob *mb = &s->blobs[best];
    float gx0 = mb->x - 0.25f * mb->w, gx1 = mb->x + 1.25f * mb->w;
    float gy0 = mb->y - 0.25f * mb->h, gy1 = mb->y + 1.25f * mb->h;
    uint8_t keep[MAXBLOB + 1] = {0};
    for (int i = 0; i < nb; i++) {
        const tscv_blob *b = &s->blobs[i];
        if (i == best || (b->area >= 3 && b->cx > gx0 && b->cx < gx1 && b->cy > gy0 && b->cy < gy1 &&
                          b->x > 0 && b->y > 0 && b->x + b->w < w && b->y + b->h < h))
            keep[i + 1] = 1;
    }
    /* the symbol mask, its centroid and its colour (inner pixels) */
    double area = 0, cx = 0, cy = 0, cb = 0, cg = 0, cr = 0, ci = 0;
    for (int y = 0; y < h; y++) {
        uint8_t *o = ts_image_row(&s->sym, y);
        const int *lab = s->labels + y * w;
        for (int x = 0; x < w; x++) {
            int l = lab[x];
            o[x] = (l > 0 && l <= MAXBLOB && keep[l]) ? 255 : 0;
        }
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *o = ts_image_row(&s->sym, y);
        for (int x = 0; x < w; x++)
            if (o[x]) {
                area++;
                cx += x;
                cy += y;
            }
    }
    if (area < 12)
        return 0;
    cx /= area;
    cy /= area;
    /* colour from the symbol's core (its edge is blurred into the black,
     * and a JPEG's halved chroma greys thin points further), and of the
     * core the more saturated half (a highlight is whiter) */
    ts_distance_l1(&s->sym, &s->depth);
    int dhist[TS_DISTANCE_FAR + 1] = {0};
    for (int y = 0; y < h; y++) {
        const uint8_t *d = ts_image_row(&s->depth, y);
        for (int x = 0; x < w; x++)
            dhist[d[x]]++;
    }
    int dmin = 1, core = 0;
    for (int k = TS_DISTANCE_FAR; k >= 1; k--) {
        core += dhist[k];
        dmin = k;
        if (k <= 3 && core >= 20)
            break;
    }
    int shist[256] = {0}, ncore = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *d = ts_image_row(&s->depth, y), *p = ts_image_row(&reg, y);
        for (int x = 0; x < w; x++, p += 3)
            if (d[x] >= dmin) {
                shist[sat255(p)]++;
                ncore++;
            }
    }
    int smed = 0;
    for (int k = 0, acc = 0; k < 256; k++) {
        acc += shist[k];
        if (2 * acc >= ncore) {
            smed = k;
            break;
        }
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *d = ts_image_row(&s->depth, y), *p = ts_image_row(&reg, y);
        for (int x = 0; x < w; x++, p += 3)
            if (d[x] >= dmin && sat255(p) >= smed) {
                cb += p[0];
                cg += p[1];
                cr += p[2];
                ci++;
            }
    }
    if (ci < 1)
        return 0;
    cb = cb / ci * wb[0];
    cg = cg / ci * wb[1];
    cr = cr / ci * wb[2];
    double mxc = fmax(cb, fmax(cg, cr)), mnc = fmin(cb, fmin(cg, cr));
    /* hue as an angle, saturation as its length: grey (the white tiles)
     * sits at the middle where hue means nothing */
    double hue = atan2(sqrt(3.0) * (cg - cb), 2 * cr - cg - cb), sat = 1.0 - mnc / (mxc + 1e-6);
    m->colour[0] = (float)(sat * cos(hue));
    m->colour[1] = (float)(sat * sin(hue));
    m->ink_frac = (float)(area / n);

    /* contour features */
    tscv_contours c;
    if (tscv_find_contours(&s->sym, 1, &c, err) < 0)
        return -1;
    double perim = 0;
    int npts = 0;
    for (int i = 0; i < c.n; i++) {
        perim += tscv_perimeter(c.pts + c.start[i], c.len[i]);
        npts += c.len[i];
    }
    double hull = npts >= 3 ? tscv_hull_area(c.pts, npts) : 0;
    float rbin[NBIN];
    for (int k = 0; k < NBIN; k++)
        rbin[k] = -1;
    for (int i = 0; i < npts; i++) {
        double dx = c.pts[i].x - cx, dy = c.pts[i].y - cy;
        double a = atan2(dy, dx);
        int k = (int)floor((a + M_PI) / (2 * M_PI) * NBIN);
        k = k < 0 ? 0 : k >= NBIN ? NBIN - 1 : k;
        float r = (float)sqrt(dx * dx + dy * dy);
        if (r > rbin[k])
            rbin[k] = r;
    }
    tscv_contours_free(&c);
    double rsum = 0;
    int have = 0;
    for (int k = 0; k < NBIN; k++)
        if (rbin[k] >= 0) {
            rsum += rbin[k];
            have++;
        }
    if (have < NBIN / 2 || hull <= 0)
        return 0;
    for (int k = 0; k < NBIN; k++) /* an empty bin takes its nearest filled neighbour */
        for (int d = 1; rbin[k] < 0 && d < NBIN; d++) {
            float a = rbin[(k + d) % NBIN], b = rbin[(k - d + NBIN) % NBIN];
            if (a >= 0 || b >= 0)
                rbin[k] = a >= 0 ? a : b;
        }
    double rmean = rsum / have, c4 = 0, c8 = 0, s8 = 0;
    for (int k = 0; k < NBIN; k++) {
        double a = -M_PI + (k + 0.5) * 2 * M_PI / NBIN, r = rbin[k] / rmean;
        c4 += r * cos(4 * a);
        c8 += r * cos(8 * a);
        s8 += r * sin(8 * a);
    }
    m->shape[0] = (float)(area / hull);
    m->shape[1] = (float)(2 * c4 / NBIN);
    m->shape[2] = (float)(2 * sqrt(c8 * c8 + s8 * s8) / NBIN);
    m->shape[3] = (float)(perim > 0 ? 4 * M_PI * area / (perim * perim) : 0);
    m->found = 1;
    return 0;
}
