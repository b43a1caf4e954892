/* libFuzzer: arbitrary bytes into the JPEG/PNG decoders, the EXIF reader and
 * the greyscale check, at full size and scaled (a small decode target), with a
 * pixel limit that keeps the fuzzer's memory bounded. A decoded image has the
 * size its header promised (or the scaled one) and owns its buffer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "imageio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    ts_image img;
    (void)ts_exif_orientation(data, size);
    ts_decode_limits lim[2] = {{.max_pixels = 4000000, .target_pixels = -1},
                               {.max_pixels = 4000000, .target_pixels = 2000}};
    for (int k = 0; k < 2; k++) {
        if (ts_image_decode_limited(data, size, &lim[k], &img, err, sizeof err) == 0) {
            if (img.w < 1 || img.h < 1 || (long long)img.w * img.h > 4000000 || !img.buf)
                abort();
            (void)ts_image_is_grey(&img);
            ts_image_free(&img);
        } else if (img.buf || !err[0]) {
            abort();
        }
    }
    return 0;
}
