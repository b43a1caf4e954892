/* A small convolutional net's forward pass, for the nets the readers ship
 * (models/NAME.tsnet): 3 x 3 convolutions (padding 1, stride 1), each with or
 * without a ReLU, 2 x 2 max pools, then dense layers. OpenCV's dnn runs
 * these nets at about 0.7 instructions a multiply-add (it packs every
 * layer's input anew, most of it for a layer of few channels); this keeps
 * the activations channel-last and multiplies 8 to 24 output channels of 4
 * or 8 pixels at once: 0.4, 0.3 where the processor fuses a multiply and
 * an add (FMA; the outputs then differ in the last bits, as OpenCV's do
 * from one processor to another). An image's outputs do not depend on the
 * others run with it. cv/cvdnn.cpp builds one from a loaded net and checks
 * it against OpenCV before using it.
 *
 * Not thread-safe per net (scratch inside). Caller destroys what _create
 * returns. */
#ifndef TS_TINYNET_H
#define TS_TINYNET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ts_tinynet ts_tinynet;

enum { TS_TINYNET_FEATURES = -1 }; /* a dense layer's input: the flattened features */

/* A net taking in_w x in_h images of in_c channels (1 or 3), or NULL. */
ts_tinynet *ts_tinynet_create(int in_w, int in_h, int in_c);
void ts_tinynet_destroy(ts_tinynet *t); /* NULL is fine */

/* Appends a 3 x 3 convolution of the current features (cin channels):
 * w[cout][cin][3][3] (PyTorch's and ONNX's order), bias[cout] (NULL: none).
 * 0, or -1 when it cannot (cin not the features' channels, after a dense
 * layer, out of memory). */
int ts_tinynet_conv(ts_tinynet *t, int cout, int cin, const float *w, const float *bias);
/* A ReLU on the last layer's outputs (conv or dense). */
int ts_tinynet_relu(ts_tinynet *t);
/* A 2 x 2 max pool, stride 2 (an odd last row or column is dropped). */
int ts_tinynet_pool(ts_tinynet *t);
/* Appends a dense layer reading from (TS_TINYNET_FEATURES, flattened
 * channel-first as PyTorch flattens, or an earlier dense layer's index):
 * w[nout][nin], bias[nout] (NULL: none). Returns its index, or -1. */
int ts_tinynet_dense(ts_tinynet *t, int from, int nout, const float *w, const float *bias);
/* Number of features a dense layer reading TS_TINYNET_FEATURES now gets,
 * and the number of outputs of dense layer i (for checking a net's shape). */
int ts_tinynet_nfeatures(const ts_tinynet *t);
int ts_tinynet_dense_outputs(const ts_tinynet *t, int i);

/* Runs the net on one image (in_w x in_h, in_c bytes a pixel, rows stride
 * bytes apart, scaled by 1/255) and writes the outputs of dense layers
 * outs[0..nouts) one after another into logits. */
void ts_tinynet_run(ts_tinynet *t, const uint8_t *img, size_t stride, const int *outs, int nouts,
                    float *logits);

#ifdef __cplusplus
}
#endif

#endif
