/* Small trained classifiers (ONNX, run by OpenCV's dnn module).
 *
 * A model file (models/NAME.tsnet) is a text header followed by the ONNX
 * bytes, so a reader can check what it loads before trusting it:
 *
 *   tsnet 1                     format version (first line)
 *   name playing-index          free text
 *   input 32 48 1               width height channels (1 grey, 3 BGR)
 *   output rank 13 A23456789TJQK  one line per output head, in the net's
 *   output suit 4 CDHS            output order: name, classes, letters
 *   onnx 123456                 the ONNX size in bytes; they follow this line
 *
 * Inputs are scaled to 0..1. Ownership: the caller destroys what _load returns.
 */
#ifndef TS_CVDNN_H
#define TS_CVDNN_H

#include <stddef.h>

#include "cvwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TSCV_NET_MAX_OUTPUTS = 4, TSCV_NET_MAX_CLASSES = 64 };

typedef struct {
    char name[32];
    int nclass;
    char letters[TSCV_NET_MAX_CLASSES + 1]; /* one per class, may be empty */
} tscv_net_output;

typedef struct {
    char name[64];
    int in_w, in_h, in_c;
    int noutputs;
    tscv_net_output out[TSCV_NET_MAX_OUTPUTS];
} tscv_net_info;

typedef struct tscv_net tscv_net;

/* Loads a .tsnet file. Returns NULL with "PATH: problem" in err. */
tscv_net *tscv_net_load(const char *path, char *err, size_t errlen);
/* Parses a .tsnet held in memory (for tests and fuzzing). */
tscv_net *tscv_net_parse(const unsigned char *data, size_t len, char *err, size_t errlen);
void tscv_net_destroy(tscv_net *net);
const tscv_net_info *tscv_net_get_info(const tscv_net *net);

/* Runs the net on n images (BGR or grey, borrowed; each resized to the
 * input size, converted to its channels, scaled to 0..1). Writes the
 * softmax probabilities of every output head, image after image, head after
 * head: probs[i * total + offset(head) + class], total = sum of classes.
 * Returns 0 or -1 with err (TSCV_ERR_MAX). Not thread-safe per net: one net
 * per thread. */
int tscv_net_run(tscv_net *net, const ts_image *imgs, int n, float *probs, char *err);

#ifdef __cplusplus
}
#endif

#endif
