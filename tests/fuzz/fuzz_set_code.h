/* A classic SET code read from label text, for the fuzz targets that parse
 * files of codes (labels, render truth). */
#ifndef TS_FUZZ_SET_CODE_H
#define TS_FUZZ_SET_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "codes.h"

static inline int fuzz_set_code(void *ctx, const char *text, size_t len, ts_code *out)
{
    int idx;
    if (ts_set_parse(ctx, text, len, &idx) < 0)
        return -1;
    out->family = TS_FAM_SET;
    out->idx = (uint8_t)idx;
    return 0;
}

#endif
