/* A small convolutional net's forward pass (see tinynet.h). */
#include "tinynet.h"

#include <stdlib.h>
#include <string.h>

#include "simd.h"

enum {
    VL = 8,          /* floats a vector */
    /* pixels a convolution tile, by its vectors of output channels: the
     * sums, the weights, a broadcast input and a product fit the 16
     * vector registers */
    TILE1 = 12, TILE2 = 6, TILE3 = 4,
    MAX_STAGES = 32, /* convolutions and pools */
    MAX_DENSE = 8,
};

typedef float v8 __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
/* The vectors passed by value are only those of static functions inlined
 * into their callers: no call crosses the ABI GCC warns of. */
#pragma GCC diagnostic ignored "-Wpsabi"

enum { CONV, POOL };

/* A convolution or a pool: its output, channel-last with a zero border of
 * one pixel (the next convolution's padding). */
typedef struct {
    int kind;
    int w, h;       /* output size */
    int in_w;       /* input width */
    int cin, cs_in; /* input channels and the input's channel stride */
    int cout, cs;   /* output channels and their stride (cout rounded up to VL) */
    int relu;
    float *wt;   /* CONV: [9][cin][cs], zero beyond cout */
    float *bias; /* CONV: [cs] */
    float *out;  /* (h + 2) x (w + 2) x cs */
} stage;

typedef struct {
    int from, nin, nout, np; /* np: nout rounded up to VL */
    int relu;
    float *wt;   /* [nin][np], zero beyond nout */
    float *bias; /* [np] */
    float *out;  /* [np] */
} dense;

struct ts_tinynet {
    int in_w, in_h, in_c;
    float *in; /* (in_h + 2) x (in_w + 2) x in_c */
    stage st[MAX_STAGES];
    int nst;
    dense d[MAX_DENSE];
    int nd;
    float *feat; /* the last stage's outputs without border or padding */
    int last;    /* what a ReLU applies to: 0 nothing, 1 the last stage, 2 the last dense layer */
};

static int round_up(int n, int k)
{
    return (n + k - 1) / k * k;
}

/* Zeroed floats, aligned for vectors. */
static float *alloc_floats(size_t n)
{
    size_t bytes = (n * sizeof(float) + 31) / 32 * 32;
    float *p = aligned_alloc(32, bytes ? bytes : 32);
    if (p)
        memset(p, 0, bytes);
    return p;
}

ts_tinynet *ts_tinynet_create(int in_w, int in_h, int in_c)
{
    if (in_w < 1 || in_h < 1 || (in_c != 1 && in_c != 3))
        return NULL;
    ts_tinynet *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->in_w = in_w, t->in_h = in_h, t->in_c = in_c;
    t->in = alloc_floats((size_t)(in_w + 2) * (in_h + 2) * in_c);
    if (!t->in) {
        free(t);
        return NULL;
    }
    return t;
}

void ts_tinynet_destroy(ts_tinynet *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nst; i++) {
        free(t->st[i].wt);
        free(t->st[i].bias);
        free(t->st[i].out);
    }
    for (int i = 0; i < t->nd; i++) {
        free(t->d[i].wt);
        free(t->d[i].bias);
        free(t->d[i].out);
    }
    free(t->feat);
    free(t->in);
    free(t);
}

/* The features' size now: the last stage's output, or the input. */
static void features(const ts_tinynet *t, int *w, int *h, int *c, int *cs)
{
    if (t->nst == 0) {
        *w = t->in_w, *h = t->in_h, *c = t->in_c, *cs = t->in_c;
        return;
    }
    const stage *s = &t->st[t->nst - 1];
    *w = s->w, *h = s->h, *c = s->cout, *cs = s->cs;
}

int ts_tinynet_nfeatures(const ts_tinynet *t)
{
    int w, h, c, cs;
    features(t, &w, &h, &c, &cs);
    return w * h * c;
}

int ts_tinynet_dense_outputs(const ts_tinynet *t, int i)
{
    return i >= 0 && i < t->nd ? t->d[i].nout : -1;
}

/* A new stage after the current features (kind, output size, channels). */
static stage *add_stage(ts_tinynet *t, int kind, int w, int h, int cout)
{
    if (t->nd > 0 || t->nst == MAX_STAGES || w < 1 || h < 1 || cout < 1)
        return NULL;
    int fw, fh, c, cs;
    features(t, &fw, &fh, &c, &cs);
    stage *s = &t->st[t->nst];
    *s = (stage){.kind = kind, .w = w, .h = h, .in_w = fw, .cin = c, .cs_in = cs, .cout = cout,
                 .cs = round_up(cout, VL)};
    s->out = alloc_floats((size_t)(w + 2) * (h + 2) * s->cs);
    if (!s->out)
        return NULL;
    t->nst++;
    t->last = 1;
    return s;
}

int ts_tinynet_conv(ts_tinynet *t, int cout, int cin, const float *w, const float *bias)
{
    int fw, fh, c, cs;
    features(t, &fw, &fh, &c, &cs);
    stage *s = cin == c ? add_stage(t, CONV, fw, fh, cout) : NULL;
    if (!s)
        return -1;
    s->wt = alloc_floats((size_t)9 * cin * s->cs);
    s->bias = alloc_floats((size_t)s->cs);
    if (!s->wt || !s->bias)
        return -1; /* freed with the net */
    for (int o = 0; o < cout; o++) {
        s->bias[o] = bias ? bias[o] : 0;
        for (int i = 0; i < cin; i++)
            for (int k = 0; k < 9; k++)
                s->wt[((size_t)k * cin + i) * s->cs + o] = w[((size_t)o * cin + i) * 9 + k];
    }
    return 0;
}

int ts_tinynet_relu(ts_tinynet *t)
{
    if (t->last == 1 && t->st[t->nst - 1].kind == CONV)
        t->st[t->nst - 1].relu = 1;
    else if (t->last == 2)
        t->d[t->nd - 1].relu = 1;
    else
        return -1;
    t->last = 0; /* a second ReLU would be a new layer */
    return 0;
}

int ts_tinynet_pool(ts_tinynet *t)
{
    int fw, fh, c, cs;
    features(t, &fw, &fh, &c, &cs);
    if (cs % VL)
        return -1; /* a pool of the input itself: not in any net shipped */
    return add_stage(t, POOL, fw / 2, fh / 2, c) ? 0 : -1;
}

int ts_tinynet_dense(ts_tinynet *t, int from, int nout, const float *w, const float *bias)
{
    if (t->nd == MAX_DENSE || nout < 1 || from < TS_TINYNET_FEATURES || from >= t->nd)
        return -1;
    int fw, fh, c, cs;
    features(t, &fw, &fh, &c, &cs);
    int nin = from == TS_TINYNET_FEATURES ? fw * fh * c : t->d[from].nout;
    if (!t->feat && !(t->feat = alloc_floats((size_t)fw * fh * c)))
        return -1;
    dense *d = &t->d[t->nd];
    *d = (dense){.from = from, .nin = nin, .nout = nout, .np = round_up(nout, VL)};
    d->wt = alloc_floats((size_t)nin * d->np);
    d->bias = alloc_floats((size_t)d->np);
    d->out = alloc_floats((size_t)d->np);
    if (!d->wt || !d->bias || !d->out) {
        free(d->wt), free(d->bias), free(d->out);
        return -1;
    }
    for (int o = 0; o < nout; o++) {
        d->bias[o] = bias ? bias[o] : 0;
        for (int i = 0; i < nin; i++) {
            /* the features are gathered channel-last: PyTorch's flattened
             * index c * h * w + y * w + x is our (y * w + x) * c + c */
            int j = i;
            if (from == TS_TINYNET_FEATURES)
                j = (i % (fw * fh)) * c + i / (fw * fh);
            d->wt[(size_t)j * d->np + o] = w[(size_t)o * nin + i];
        }
    }
    t->last = 2;
    return t->nd++;
}

/* ---- Forward ------------------------------------------------------------- */

static inline __attribute__((always_inline)) v8 relu8(v8 a)
{
    return (v8)((v8i)a & (a > (v8){0}));
}

/* Output channels [co, co + nb * VL) of p pixels of a convolution: in is
 * the first pixel's top-left tap (rows row floats apart), out its output. */
static inline __attribute__((always_inline)) void conv_tile(const stage *s, const float *in,
                                                             size_t row, float *out, int co,
                                                             const int p, const int nb,
                                                             const int merged)
{
    v8 acc[12][3];
    const v8 *b = (const v8 *)(s->bias + co);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < nb; k++)
            acc[i][k] = b[k];
    /* a row of three taps is one run of 3 * cin floats when the input has
     * no padding channels, else three runs of cin */
    const int cs_in = s->cs_in, cs = s->cs;
    const int runs = merged ? 1 : 3, len = merged ? 3 * s->cin : s->cin;
    for (int ky = 0; ky < 3; ky++)
        for (int r = 0; r < runs; r++) {
            const float *ip = in + (size_t)ky * row + (size_t)r * cs_in;
            const float *wp = s->wt + (size_t)(3 * ky + r) * s->cin * cs + co;
            for (int c = 0; c < len; c++, wp += cs) {
                const v8 *w = (const v8 *)wp;
#pragma GCC unroll 12
                for (int i = 0; i < p; i++) {
                    float v = ip[i * cs_in + c];
#pragma GCC unroll 3
                    for (int k = 0; k < nb; k++)
                        acc[i][k] += v * w[k];
                }
            }
        }
    for (int i = 0; i < p; i++)
        for (int k = 0; k < nb; k++)
            ((v8 *)(out + (size_t)i * cs + co))[k] = s->relu ? relu8(acc[i][k]) : acc[i][k];
}

/* One row of a convolution's output, nb * VL channels from co on: tiles of
 * as many pixels as leave the sums in registers, then smaller ones. */
static inline __attribute__((always_inline)) void conv_cols(const stage *s, const float *in,
                                                             size_t row, float *out, int co,
                                                             const int p, const int nb,
                                                             const int merged)
{
    int x = 0;
    for (; x + p <= s->w; x += p)
        conv_tile(s, in + (size_t)x * s->cs_in, row, out + (size_t)x * s->cs, co, p, nb, merged);
    for (; p > 4 && x + 4 <= s->w; x += 4)
        conv_tile(s, in + (size_t)x * s->cs_in, row, out + (size_t)x * s->cs, co, 4, nb, merged);
    for (; x + 2 <= s->w; x += 2)
        conv_tile(s, in + (size_t)x * s->cs_in, row, out + (size_t)x * s->cs, co, 2, nb, merged);
    if (x < s->w)
        conv_tile(s, in + (size_t)x * s->cs_in, row, out + (size_t)x * s->cs, co, 1, nb, merged);
}

/* A convolution's output rows (merged: the input has no padding channels). */
static inline __attribute__((always_inline)) void conv_rows(const stage *s, const float *in,
                                                             const int merged)
{
    size_t row_in = (size_t)(s->w + 2) * s->cs_in, row_out = (size_t)(s->w + 2) * s->cs;
    for (int y = 0; y < s->h; y++) {
        const float *ir = in + y * row_in;
        float *orow = s->out + (y + 1) * row_out + s->cs;
        int co = 0;
        for (; co + 3 * VL <= s->cs; co += 3 * VL)
            conv_cols(s, ir, row_in, orow, co, TILE3, 3, merged);
        for (; co + 2 * VL <= s->cs; co += 2 * VL)
            conv_cols(s, ir, row_in, orow, co, TILE2, 2, merged);
        for (; co < s->cs; co += VL)
            conv_cols(s, ir, row_in, orow, co, TILE1, 1, merged);
    }
}

/* The convolutions' clone for processors with FMA (and AVX): this file is
 * built with -ffp-contract=fast (vision/CMakeLists.txt), so there each
 * product and sum are fused, as OpenCV's dnn fused them; about 30% fewer
 * instructions. Outputs differ from the plain clone's in the last bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__FMA__) && \
    defined(__linux__)
#define CONV_CLONES __attribute__((target_clones("fma", "default")))
#else
#define CONV_CLONES
#endif

/* One function each way, so that each keeps its own registers. */
CONV_CLONES static void conv_merged(const stage *s, const float *in)
{
    conv_rows(s, in, 1);
}

CONV_CLONES static void conv_runs(const stage *s, const float *in)
{
    conv_rows(s, in, 0);
}

static void conv_run(const stage *s, const float *in)
{
    if (s->cs_in == s->cin)
        conv_merged(s, in);
    else
        conv_runs(s, in);
}

static inline __attribute__((always_inline)) v8 max8(v8 a, v8 b)
{
    v8i m = a > b;
    return (v8)(((v8i)a & m) | ((v8i)b & ~m));
}

TS_AVX2_CLONES static void pool_run(const stage *s, const float *in)
{
    size_t row_in = (size_t)(s->in_w + 2) * s->cs_in, row_out = (size_t)(s->w + 2) * s->cs;
    int nv = s->cs / VL;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            const v8 *a = (const v8 *)(in + (2 * y + 1) * row_in + (size_t)(2 * x + 1) * s->cs_in);
            const v8 *b = (const v8 *)((const float *)a + s->cs_in);
            const v8 *c = (const v8 *)((const float *)a + row_in);
            const v8 *d = (const v8 *)((const float *)c + s->cs_in);
            v8 *o = (v8 *)(s->out + (y + 1) * row_out + (size_t)(x + 1) * s->cs);
            for (int k = 0; k < nv; k++)
                o[k] = max8(max8(a[k], b[k]), max8(c[k], d[k]));
        }
}

TS_AVX2_CLONES static void dense_run(const dense *d, const float *x)
{
    for (int o = 0; o < d->np; o += VL) {
        v8 acc = *(const v8 *)(d->bias + o);
        const float *w = d->wt + o;
        for (int i = 0; i < d->nin; i++, w += d->np)
            acc += x[i] * *(const v8 *)w;
        *(v8 *)(d->out + o) = d->relu ? relu8(acc) : acc;
    }
}

/* The image into t->in (inside its zero border), scaled to 0..1. */
static void load_input(ts_tinynet *t, const uint8_t *img, size_t stride)
{
    const float k = (float)(1.0 / 255);
    size_t n = (size_t)t->in_w * t->in_c;
    for (int y = 0; y < t->in_h; y++) {
        const uint8_t *p = img + (size_t)y * stride;
        float *q = t->in + ((size_t)(y + 1) * (t->in_w + 2) + 1) * t->in_c;
        for (size_t i = 0; i < n; i++)
            q[i] = p[i] * k;
    }
}

/* The last stage's outputs, channel-last, without border or padding. */
static const float *gather(ts_tinynet *t)
{
    int w, h, c, cs;
    features(t, &w, &h, &c, &cs);
    const float *src = t->nst ? t->st[t->nst - 1].out : t->in;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            memcpy(t->feat + ((size_t)y * w + x) * c,
                   src + ((size_t)(y + 1) * (w + 2) + x + 1) * cs, sizeof(float) * (size_t)c);
    return t->feat;
}

void ts_tinynet_run(ts_tinynet *t, const uint8_t *img, size_t stride, const int *outs, int nouts,
                    float *logits)
{
    load_input(t, img, stride);
    const float *in = t->in;
    for (int i = 0; i < t->nst; i++) {
        if (t->st[i].kind == CONV)
            conv_run(&t->st[i], in);
        else
            pool_run(&t->st[i], in);
        in = t->st[i].out;
    }
    const float *feat = t->nd ? gather(t) : NULL;
    for (int i = 0; i < t->nd; i++)
        dense_run(&t->d[i], t->d[i].from == TS_TINYNET_FEATURES ? feat : t->d[t->d[i].from].out);
    for (int k = 0; k < nouts; k++) {
        const dense *d = &t->d[outs[k]];
        memcpy(logits, d->out, sizeof *logits * (size_t)d->nout);
        logits += d->nout;
    }
}
