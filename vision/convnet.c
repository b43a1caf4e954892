/* A small convolutional classifier evaluated in C (see convnet.h).
 *
 * Feature maps are kept as planes with a one-pixel border of zeros, so a 3x3
 * convolution with padding 1 reads every tap without a test. A plane is then
 * one line of (h + 2) x (w + 2) floats: the convolution runs along that line
 * from the first inner pixel to the last, 16 outputs a step for four output
 * channels at once (the last step overlapping the one before: each output
 * depends on the input only), and writes the border columns it crossed back
 * to zero. */
#include "convnet.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CONV, POOL, DENSE, MAX_LAYERS = 32, MAX_HEADS = 8, OB = 4 /* output channels a step */ };

/* An AVX2 path, chosen at run time (the build targets plain x86-64). */
#if defined(__GNUC__) && defined(__x86_64__)
#define TS_AVX2_PATH 1
#define AVX2_TARGET __attribute__((target("avx2")))
#else
#define TS_AVX2_PATH 0
#define AVX2_TARGET
#endif

/* Eight floats: two SSE registers on the plain path, one AVX one on the
 * AVX2 path. The helpers taking them are always inlined, so the warning
 * about how such values would be passed between functions does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float v8 __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

typedef struct {
    int kind;
    int c, h, w;          /* output: channels and size (dense: c outputs, 1 x 1) */
    int in_c, in_h, in_w; /* input */
    int relu;
    int n8;               /* dense: input length rounded up to 8 (zeros beyond) */
    float *wt, *bias;     /* conv: [c / OB][in_c][9][OB]; dense: [c][n8] */
    float *out;           /* conv, pool: bordered planes; dense: c rounded up to 8 */
} layer;

struct ts_convnet {
    int c, h, w;
    float *in;   /* the input as bordered planes */
    float *flat; /* a bordered layer flattened for a dense one */
    int nflat8;
    layer trunk[MAX_LAYERS];
    int ntrunk;
    layer head[MAX_HEADS];
    int nhead, nout;
};

static size_t plane_len(int h, int w)
{
    return (size_t)(h + 2) * (size_t)(w + 2);
}

ts_convnet *ts_convnet_create(int c, int h, int w)
{
    if (c < 1 || c > 64 || h < 1 || h > 1024 || w < 1 || w > 1024)
        return NULL;
    ts_convnet *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->c = c, n->h = h, n->w = w;
    n->in = calloc((size_t)c * plane_len(h, w), sizeof(float));
    if (!n->in) {
        free(n);
        return NULL;
    }
    return n;
}

static void layer_free(layer *l)
{
    free(l->wt);
    free(l->bias);
    free(l->out);
}

void ts_convnet_destroy(ts_convnet *net)
{
    if (!net)
        return;
    for (int i = 0; i < net->ntrunk; i++)
        layer_free(&net->trunk[i]);
    for (int i = 0; i < net->nhead; i++)
        layer_free(&net->head[i]);
    free(net->in);
    free(net->flat);
    free(net);
}

/* The shape the next layer reads: channels, height, width, and whether it
 * is flat (a dense layer's output). */
static void current(const ts_convnet *n, int *c, int *h, int *w, int *flat)
{
    if (!n->ntrunk) {
        *c = n->c, *h = n->h, *w = n->w, *flat = 0;
        return;
    }
    const layer *l = &n->trunk[n->ntrunk - 1];
    *c = l->c, *h = l->h, *w = l->w, *flat = l->kind == DENSE;
}

static layer *append(ts_convnet *n, int kind)
{
    if (n->nhead || n->ntrunk == MAX_LAYERS)
        return NULL;
    layer *l = &n->trunk[n->ntrunk];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    current(n, &l->in_c, &l->in_h, &l->in_w, &(int){0});
    return l;
}

int ts_convnet_conv3(ts_convnet *net, int out, const float *w, const float *b, int relu)
{
    int c, h, wd, flat;
    current(net, &c, &h, &wd, &flat);
    layer *l = append(net, CONV);
    if (!l || flat || out < 1 || out > 1024)
        return -1;
    l->c = out, l->h = h, l->w = wd, l->relu = relu;
    int oc = (out + OB - 1) / OB * OB;
    l->wt = calloc((size_t)oc * (size_t)c * 9, sizeof(float));
    l->bias = calloc((size_t)oc, sizeof(float));
    l->out = calloc((size_t)out * plane_len(h, wd), sizeof(float));
    if (!l->wt || !l->bias || !l->out) {
        layer_free(l);
        return -1;
    }
    for (int o = 0; o < out; o++) {
        l->bias[o] = b[o];
        for (int i = 0; i < c; i++)
            for (int t = 0; t < 9; t++)
                l->wt[(((size_t)(o / OB) * (size_t)c + (size_t)i) * 9 + (size_t)t) * OB +
                      (size_t)(o % OB)] = w[((size_t)o * (size_t)c + (size_t)i) * 9 + (size_t)t];
    }
    net->ntrunk++;
    return 0;
}

int ts_convnet_relu(ts_convnet *net)
{
    if (!net->ntrunk || net->nhead)
        return -1;
    layer *l = &net->trunk[net->ntrunk - 1];
    if (l->kind == POOL)
        return -1;
    l->relu = 1;
    return 0;
}

int ts_convnet_pool2(ts_convnet *net)
{
    int c, h, w, flat;
    current(net, &c, &h, &w, &flat);
    layer *l = append(net, POOL);
    if (!l || flat || h < 2 || w < 2)
        return -1;
    l->c = c, l->h = h / 2, l->w = w / 2;
    l->out = calloc((size_t)c * plane_len(l->h, l->w), sizeof(float));
    if (!l->out)
        return -1;
    net->ntrunk++;
    return 0;
}

/* A dense layer reading n inputs (zeros beyond n up to n8). */
static int dense_init(ts_convnet *net, layer *l, int out, const float *w, const float *b,
                      int relu)
{
    int c, h, wd, flat;
    current(net, &c, &h, &wd, &flat);
    int n = c * h * wd;
    if (out < 1 || out > 65536 || n > (1 << 20))
        return -1;
    memset(l, 0, sizeof *l);
    l->kind = DENSE;
    l->in_c = c, l->in_h = h, l->in_w = wd;
    l->c = out, l->h = 1, l->w = 1, l->relu = relu;
    l->n8 = (n + 7) / 8 * 8;
    l->wt = calloc((size_t)out * (size_t)l->n8, sizeof(float));
    l->bias = calloc((size_t)out, sizeof(float));
    l->out = calloc((size_t)(out + 7) / 8 * 8, sizeof(float));
    if (!l->wt || !l->bias || !l->out) {
        layer_free(l);
        return -1;
    }
    for (int o = 0; o < out; o++) {
        l->bias[o] = b[o];
        memcpy(l->wt + (size_t)o * (size_t)l->n8, w + (size_t)o * (size_t)n,
               (size_t)n * sizeof(float));
    }
    if (!flat && l->n8 > net->nflat8) { /* flattened from bordered planes */
        free(net->flat);
        net->flat = calloc((size_t)l->n8, sizeof(float));
        net->nflat8 = net->flat ? l->n8 : 0;
        if (!net->flat) {
            layer_free(l);
            return -1;
        }
    }
    return 0;
}

int ts_convnet_dense(ts_convnet *net, int out, const float *w, const float *b, int relu)
{
    if (net->nhead || net->ntrunk == MAX_LAYERS ||
        dense_init(net, &net->trunk[net->ntrunk], out, w, b, relu) < 0)
        return -1;
    net->ntrunk++;
    return 0;
}

int ts_convnet_head(ts_convnet *net, int out, const float *w, const float *b)
{
    if (net->nhead == MAX_HEADS || dense_init(net, &net->head[net->nhead], out, w, b, 0) < 0)
        return -1;
    net->nhead++;
    net->nout += out;
    return 0;
}

int ts_convnet_outputs(const ts_convnet *net)
{
    return net->nout;
}

static inline __attribute__((always_inline)) v8 ld8(const float *p)
{
    v8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void st8(float *p, v8 v)
{
    memcpy(p, &v, sizeof v);
}

static inline __attribute__((always_inline)) v8 bc8(float w)
{
#if defined(__clang__)
    return (v8){w, w, w, w, w, w, w, w};
#else
    const v8 v = {w}; /* a shuffle GCC compiles to one broadcast (the list it does not) */
    return __builtin_shuffle(v, (v8i){0});
#endif
}

static inline __attribute__((always_inline)) v8 relu8(v8 v)
{
    v8i keep = v > (v8){0};
    return (v8)((v8i)v & keep);
}

/* One convolution over bordered planes in -> out. Output p (an index along
 * a plane) is bias + the sum over input channels, kernel rows and kernel
 * columns, in that order, of weight x in[p + (ky - 1)(w + 2) + kx - 1]. */
static inline __attribute__((always_inline)) void conv_body(const layer *l, const float *in,
                                                            float *out)
{
    const int rs = l->w + 2;
    const size_t plane = plane_len(l->h, l->w);
    const int first = rs + 1, last = l->h * rs + l->w; /* inner pixels, inclusive */
    int off[9]; /* the taps along the line */
    for (int t = 0; t < 9; t++)
        off[t] = (t / 3 - 1) * rs + (t % 3 - 1);
    for (int o = 0; o < l->c; o += OB) {
        const float *wo = l->wt + (size_t)o * (size_t)l->in_c * 9;
        const int nb = l->c - o < OB ? l->c - o : OB;
        if (last - first + 1 >= 16) {
            for (int p0 = first; p0 <= last; p0 += 16) {
                const int p = p0 > last - 15 ? last - 15 : p0; /* the last step overlaps */
                v8 a0[OB], a1[OB];
                for (int b = 0; b < OB; b++)
                    a0[b] = a1[b] = (v8){0};
                for (int i = 0; i < l->in_c; i++) {
                    const float *ip = in + (size_t)i * plane + p;
                    const float *wk = wo + (size_t)i * 9 * OB;
#pragma GCC unroll 1
                    for (int ky = 0; ky < 3; ky++) { /* taps t = 3 ky + kx in order */
                        const float *q = ip + (ky - 1) * rs - 1;
                        const float *wt = wk + ky * 3 * OB;
#pragma GCC unroll 3
                        for (int kx = 0; kx < 3; kx++) {
                            const v8 x0 = ld8(q + kx), x1 = ld8(q + kx + 8);
#pragma GCC unroll 4
                            for (int b = 0; b < OB; b++) {
                                const v8 wv = bc8(wt[kx * OB + b]);
                                a0[b] += x0 * wv;
                                a1[b] += x1 * wv;
                            }
                        }
                    }
                }
                for (int b = 0; b < nb; b++) {
                    const v8 bv = bc8(l->bias[o + b]);
                    v8 r0 = a0[b] + bv, r1 = a1[b] + bv;
                    if (l->relu)
                        r0 = relu8(r0), r1 = relu8(r1);
                    float *op = out + (size_t)(o + b) * plane + p;
                    st8(op, r0);
                    st8(op + 8, r1);
                }
            }
        } else {
            for (int p = first; p <= last; p++)
                for (int b = 0; b < nb; b++) {
                    float a = 0;
                    for (int i = 0; i < l->in_c; i++) {
                        const float *ip = in + (size_t)i * plane + p;
                        const float *wk = wo + (size_t)i * 9 * OB;
                        for (int t = 0; t < 9; t++)
                            a += ip[off[t]] * wk[t * OB + b];
                    }
                    a += l->bias[o + b];
                    out[(size_t)(o + b) * plane + (size_t)p] = l->relu && !(a > 0) ? 0 : a;
                }
        }
        for (int b = 0; b < nb; b++) /* the border columns the line crossed */
            for (int y = 1; y < l->h; y++) {
                float *op = out + (size_t)(o + b) * plane + (size_t)y * (size_t)rs;
                op[rs - 1] = op[rs] = 0;
            }
    }
}

/* A dense layer: each output is bias + eight partial sums over x (n8
 * long, zeros beyond the inputs) added pairwise. */
static inline __attribute__((always_inline)) void dense_body(const layer *l, const float *x,
                                                             float *out)
{
    for (int o = 0; o < l->c; o++) {
        const float *w = l->wt + (size_t)o * (size_t)l->n8;
        v8 s = (v8){0};
        for (int k = 0; k < l->n8; k += 8)
            s += ld8(w + k) * ld8(x + k);
        float a = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
        a += l->bias[o];
        out[o] = l->relu && !(a > 0) ? 0 : a;
    }
}

AVX2_TARGET static void conv_avx2(const layer *l, const float *in,
                                                      float *out)
{
    conv_body(l, in, out);
}

static void conv_plain(const layer *l, const float *in, float *out)
{
    conv_body(l, in, out);
}

AVX2_TARGET static void dense_avx2(const layer *l, const float *x,
                                                       float *out)
{
    dense_body(l, x, out);
}

static void dense_plain(const layer *l, const float *x, float *out)
{
    dense_body(l, x, out);
}

static void pool2(const layer *l, const float *in, float *out)
{
    const int rsi = l->in_w + 2, rs = l->w + 2;
    const size_t pi = plane_len(l->in_h, l->in_w), po = plane_len(l->h, l->w);
    for (int c = 0; c < l->c; c++)
        for (int y = 0; y < l->h; y++) {
            const float *r0 = in + (size_t)c * pi + (size_t)(2 * y + 1) * (size_t)rsi + 1;
            const float *r1 = r0 + rsi;
            float *o = out + (size_t)c * po + (size_t)(y + 1) * (size_t)rs + 1;
            for (int x = 0; x < l->w; x++) {
                float a = r0[2 * x] > r0[2 * x + 1] ? r0[2 * x] : r0[2 * x + 1];
                float b = r1[2 * x] > r1[2 * x + 1] ? r1[2 * x] : r1[2 * x + 1];
                o[x] = a > b ? a : b;
            }
        }
}

/* Bordered planes (c x h x w inside) to one line, channel after channel. */
static void flatten(const float *in, int c, int h, int w, float *flat)
{
    const size_t plane = plane_len(h, w);
    for (int k = 0; k < c; k++)
        for (int y = 0; y < h; y++)
            memcpy(flat + ((size_t)k * (size_t)h + (size_t)y) * (size_t)w,
                   in + (size_t)k * plane + (size_t)(y + 1) * (size_t)(w + 2) + 1,
                   (size_t)w * sizeof(float));
}

/* The net from its input planes on. */
static int forward(ts_convnet *net, float *logits, int vector)
{
    if (!net->nhead)
        return -1;
#if TS_AVX2_PATH
    const int avx2 = vector && __builtin_cpu_supports("avx2");
#else
    const int avx2 = 0;
    (void)vector;
#endif
    const float *cur = net->in;
    int flat = 0, c = net->c, h = net->h, w = net->w;
    for (int i = 0; i <= net->ntrunk + net->nhead - 1; i++) {
        const int is_head = i >= net->ntrunk;
        const layer *l = is_head ? &net->head[i - net->ntrunk] : &net->trunk[i];
        const float *src = cur;
        if (l->kind == DENSE && !flat) {
            flatten(cur, c, h, w, net->flat);
            src = net->flat;
        }
        if (l->kind == CONV)
            (avx2 ? conv_avx2 : conv_plain)(l, src, l->out);
        else if (l->kind == POOL)
            pool2(l, src, l->out);
        else
            (avx2 ? dense_avx2 : dense_plain)(l, src, l->out);
        if (is_head) {
            memcpy(logits, l->out, (size_t)l->c * sizeof(float));
            logits += l->c;
        } else {
            cur = l->out;
            flat = l->kind == DENSE, c = l->c, h = l->h, w = l->w;
        }
    }
    return 0;
}

int ts_convnet_run(ts_convnet *net, const float *x, float *logits, int vector)
{
    for (int k = 0; k < net->c; k++)
        for (int y = 0; y < net->h; y++)
            memcpy(net->in + (size_t)k * plane_len(net->h, net->w) +
                       (size_t)(y + 1) * (size_t)(net->w + 2) + 1,
                   x + ((size_t)k * (size_t)net->h + (size_t)y) * (size_t)net->w,
                   (size_t)net->w * sizeof(float));
    return forward(net, logits, vector);
}

int ts_convnet_run_u8(ts_convnet *net, const uint8_t *px, size_t stride, float scale,
                      float *logits, int vector)
{
    const int c = net->c, w = net->w;
    const size_t plane = plane_len(net->h, w);
    for (int y = 0; y < net->h; y++) {
        const uint8_t *row = px + (size_t)y * stride;
        float *o = net->in + (size_t)(y + 1) * (size_t)(w + 2) + 1;
        if (c == 3)
            for (int x = 0; x < w; x++) {
                o[x] = (float)row[3 * x] * scale;
                o[plane + (size_t)x] = (float)row[3 * x + 1] * scale;
                o[2 * plane + (size_t)x] = (float)row[3 * x + 2] * scale;
            }
        else
            for (int k = 0; k < c; k++)
                for (int x = 0; x < w; x++)
                    o[(size_t)k * plane + (size_t)x] = (float)row[c * x + k] * scale;
    }
    return forward(net, logits, vector);
}
