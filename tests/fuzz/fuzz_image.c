/* libFuzzer: arbitrary bytes into the JPEG/PNG decoder and the EXIF reader. */
#include <stddef.h>
#include <stdint.h>

#include "imageio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    ts_image img;
    (void)ts_exif_orientation(data, size);
    if (ts_image_decode(data, size, &img, err, sizeof err) == 0)
        ts_image_free(&img);
    return 0;
}
