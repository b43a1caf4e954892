/* A small convolutional classifier evaluated in C: the shape every net in
 * models/ has (3x3 convolutions with padding 1, each with or without a
 * ReLU, 2x2 max pools, a flatten, fully connected layers, then output heads
 * that each read the trunk's last layer). OpenCV's dnn runs these nets at
 * about one instruction per multiply-add (its im2row and pooling dominate
 * on maps this small); this runs them at about 0.4 (GCC, AVX2).
 *
 * Every output sums its products in one fixed order (input channel, then
 * kernel row, then kernel column; a fully connected output eight partial
 * sums added pairwise), and no product and sum are fused, so the AVX2 path
 * and the plain path give the same bytes (test_convnet compares). The
 * results are not OpenCV's bytes: they differ in the last bits (its sums
 * run in another order); vision/cv/cvdnn.cpp checks them against OpenCV's
 * when it loads a net.
 *
 * Ownership: the caller destroys what _create returns; the weights are
 * copied. Not thread-safe per net (scratch buffers inside). */
#ifndef TS_CONVNET_H
#define TS_CONVNET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ts_convnet ts_convnet;

/* A net whose input is c planes of h x w floats. NULL if out of memory or
 * the size is unreasonable. */
ts_convnet *ts_convnet_create(int c, int h, int w);
void ts_convnet_destroy(ts_convnet *net);

/* Appends to the trunk. A convolution: out x c x 3 x 3 weights (c the
 * current channels), out biases; relu 1 clamps below 0. A pool: 2x2 max,
 * stride 2, sizes rounded down. A dense layer: out x n weights over the
 * flattened current layer (n = channels x height x width, in that order).
 * Each returns 0, or -1 if the layer does not fit what comes before or the
 * net already has heads. */
int ts_convnet_conv3(ts_convnet *net, int out, const float *w, const float *b, int relu);
int ts_convnet_relu(ts_convnet *net); /* a ReLU on the last layer */
int ts_convnet_pool2(ts_convnet *net);
int ts_convnet_dense(ts_convnet *net, int out, const float *w, const float *b, int relu);
/* An output head: out logits from the trunk's last layer (out x n weights,
 * no ReLU). Heads are written in the order added. */
int ts_convnet_head(ts_convnet *net, int out, const float *w, const float *b);

/* Total logits per image (the heads' sizes summed). */
int ts_convnet_outputs(const ts_convnet *net);

/* Runs one image: x holds c x h x w floats, logits receives
 * ts_convnet_outputs() floats. vector 0 keeps to the plain path (for tests);
 * 1 uses AVX2 where the processor has it. Returns 0, or -1 if the net has
 * no heads. */
int ts_convnet_run(ts_convnet *net, const float *x, float *logits, int vector);
/* The same from 8-bit pixels, channels interleaved (h rows stride bytes
 * apart, w x c bytes each): input value = (float)byte x scale. */
int ts_convnet_run_u8(ts_convnet *net, const uint8_t *px, size_t stride, float scale,
                      float *logits, int vector);

#ifdef __cplusplus
}
#endif

#endif
