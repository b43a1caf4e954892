/* libFuzzer: arbitrary text as a zones config file (run --zones FILE). Never a
 * crash; a file that parses gives at most TS_ZONES_MAX zones of known kinds,
 * and every point of the frame falls in some kind without a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/zones.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ts_zones z;
    char err[256];
    int n = ts_zones_parse(text, &z, err, sizeof err);
    if (n >= 0) {
        if (n > TS_ZONES_MAX || z.n != n)
            abort();
        for (int i = 0; i < z.n; i++)
            if (!ts_zone_name(z.z[i].kind))
                abort();
        for (int y = 0; y <= 4; y++)
            for (int x = 0; x <= 4; x++)
                (void)ts_zones_at(&z, 160.0f * x, 90.0f * y, 640, 360);
    } else if (!err[0]) {
        abort();
    }
    free(text);
    return 0;
}
