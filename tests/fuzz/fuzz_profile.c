/* libFuzzer: arbitrary text into the deck profile parser. */
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256], out[8192];
    ts_profile p;
    if (ts_profile_parse((const char *)data, size, &p, err, sizeof err) == 0)
        (void)ts_profile_format(&p, out, sizeof out);
    return 0;
}
