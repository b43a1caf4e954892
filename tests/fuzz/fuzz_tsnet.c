/* libFuzzer: arbitrary bytes as a .tsnet model file (the text header, then
 * whatever OpenCV's ONNX importer makes of the rest). Never a crash; a file
 * that loads has a sane header. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdnn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    tscv_net *net = tscv_net_parse(data, size, err, sizeof err);
    if (!net) {
        if (!err[0])
            abort();
        return 0;
    }
    const tscv_net_info *info = tscv_net_get_info(net);
    if (info->noutputs < 1 || info->noutputs > TSCV_NET_MAX_OUTPUTS || info->in_w < 1 ||
        info->in_h < 1 || (info->in_c != 1 && info->in_c != 3))
        abort();
    for (int i = 0; i < info->noutputs; i++)
        if (info->out[i].nclass < 1 || info->out[i].nclass > TSCV_NET_MAX_CLASSES)
            abort();
    tscv_net_destroy(net);
    return 0;
}
